"""``results.load`` on a folder that holds no sweep, or a damaged one, raises one documented exception,
:class:`~trustme_analysis.results.ResultsError` (a ``ValueError``), naming the folder, the file and the field, and
changes nothing. The same table of damage drives the report's command line (``test_report_cli_failures.py``)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from failure_cases import snapshot

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis import results
from trustme_analysis.outdir import MANIFEST, STATS, chunk_path
from trustme_analysis.results import ResultsError
from trustme_analysis.results.store import RESULTS_VERSION
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

SPEC = {"game": "trustme_pinocchio", "games": 2, "chunk_size": 1, "seed": 1, "params": {"players": 2}}


def make_stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-game sweep with its results set: each test damages a copy."""
    out = tmp_path_factory.mktemp("stored") / "out"
    run_sweep(parse_spec(SPEC, name="damage"), workers=1, out=out, report=False, quiet=True)
    results.load(out)
    return out


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """:func:`make_stored`, once for the module."""
    return make_stored(tmp_path_factory)


def _manifest(change):
    def damage(out: Path) -> None:
        data = json.loads((out / MANIFEST).read_text())
        change(data)
        (out / MANIFEST).write_text(json.dumps(data))
    return damage


def _set(key, value):
    return _manifest(lambda m: m.__setitem__(key, value))


def _records_gone(out: Path) -> None:
    shutil.rmtree(out / "records")
    shutil.rmtree(out / STATS)


def _table_damaged_records_gone(out: Path) -> None:
    shutil.rmtree(out / "records")
    (out / STATS / "seat_win_rates.parquet").write_bytes(b"PAR1 not a table")


def _index_damaged_records_gone(out: Path) -> None:
    shutil.rmtree(out / "records")
    (out / STATS / "index.json").write_text(json.dumps({"results_version": RESULTS_VERSION, "records": None}))


def _index_garbage_records_gone(out: Path) -> None:
    shutil.rmtree(out / "records")
    (out / STATS / "index.json").write_bytes(b"\x00garbage{")


def _index_a_list_records_gone(out: Path) -> None:
    shutil.rmtree(out / "records")
    (out / STATS / "index.json").write_text("[1, 2]")


def _first_chunk(out: Path, entries) -> None:
    data = json.loads((out / MANIFEST).read_text())
    data["chunks"]["v00"]["0"] = entries
    (out / MANIFEST).write_text(json.dumps(data))


DAMAGE = [
    # (case id, damage(out) -> None, the file named, the field named, pattern searched in the message)
    ("no sweep", lambda out: shutil.rmtree(out), MANIFEST, "", r"out: no sweep results here \(missing manifest\.json\)"),
    ("manifest gone", lambda out: (out / MANIFEST).unlink(), MANIFEST, "",
     r"out: no sweep results here \(missing manifest\.json\)"),
    ("manifest empty", lambda out: (out / MANIFEST).write_text(""), MANIFEST, "",
     r"out/manifest\.json is damaged \(not valid JSON: Expecting value, line 1, column 1\)"),
    ("manifest truncated", lambda out: (out / MANIFEST).write_text((out / MANIFEST).read_text()[:100]), MANIFEST, "",
     r"out/manifest\.json is damaged \(not valid JSON: .*, line \d+, column \d+\); it records which spec"),
    ("manifest not UTF-8", lambda out: (out / MANIFEST).write_bytes(b'{"game": "caf\xe9"}'), MANIFEST, "",
     r"out/manifest\.json is damaged \(not UTF-8 text\)"),
    ("manifest holds []", lambda out: (out / MANIFEST).write_text("[]"), MANIFEST, "",
     r"out/manifest\.json is not a sweep manifest \(it holds a JSON list, not an object\)"),
    ("manifest without game", _manifest(lambda m: m.pop("game")), MANIFEST, "",
     r"out/manifest\.json is not a sweep manifest \(its 'game' is missing or not a string\)"),
    ("unknown game", _set("game", "trustme_pinochio"), MANIFEST, "game",
     r"out/manifest\.json is damaged: its 'game' names no registered game: 'trustme_pinochio'; did you mean "
     r"'trustme_pinocchio'.*\? \(games: "),
    ("variants not a list", _set("variants", {"v00": {}}), MANIFEST, "",
     r"out/manifest\.json is not a sweep manifest \(its 'variants' is missing or not a list\)"),
    ("variant not a table", _set("variants", ["v00"]), MANIFEST, "variants[0]",
     r"out/manifest\.json is damaged: its 'variants\[0\]' must be a table with an 'id' string, got 'v00'"),
    ("chunks not a table", _set("chunks", [1, 2]), MANIFEST, "chunks",
     r"out/manifest\.json is damaged: its 'chunks' must be a table of variant -> chunk entries, got \[1, 2\]"),
    ("chunks of a variant not a table", _set("chunks", {"v00": "all"}), MANIFEST, "chunks.v00",
     r"out/manifest\.json is damaged: its 'chunks\.v00' must be a table of chunk number -> entry, got 'all'"),
    ("chunk entry without sha256", lambda out: _first_chunk(out, {"games": 1}), MANIFEST, "chunks.v00.0",
     r"out/manifest\.json is damaged: its 'chunks\.v00\.0' must be a table with a 'sha256' string"),
    ("seed not an integer", _set("seed", "1"), MANIFEST, "seed",
     r"out/manifest\.json is damaged: its 'seed' must be an integer, got '1'"),
    ("chunk truncated", lambda out: chunk_path(out, "v00", 1).write_bytes(chunk_path(out, "v00", 1).read_bytes()[:-9]),
     "records/v00/chunk-00001.parquet", "",
     r"out/records/v00/chunk-00001\.parquet its checksum differs from the one manifest\.json recorded"),
    ("chunk replaced by a folder", lambda out: (chunk_path(out, "v00", 0).unlink(), chunk_path(out, "v00", 0).mkdir()),
     "records/v00/chunk-00000.parquet", "", r"out/records/v00/chunk-00000\.parquet cannot be read: "),
    ("records and stats gone", _records_gone, MANIFEST, "", r"out: no records and no stored results set to build from"),
    ("stored table damaged, records gone", _table_damaged_records_gone, "stats/seat_win_rates.parquet", "",
     r"out/stats/seat_win_rates\.parquet cannot be read \(.*\); delete .*out/stats to compute"),
    ("stored index damaged, records gone", _index_damaged_records_gone, "stats/index.json", "",
     r"out/stats/index\.json is damaged \(no 'manifest'\); delete .*out/stats to compute the results set again"),
    # Before, a garbage index with the records gone was reported as "no stored results set".
    ("stored index garbage, records gone", _index_garbage_records_gone, "stats/index.json", "",
     r"out/stats/index\.json is damaged \(.*\) and the records it was computed from are gone"),
    ("stored index a list, records gone", _index_a_list_records_gone, "stats/index.json", "",
     r"out/stats/index\.json is damaged \(a JSON list, not a table\) and the records it was computed from are gone"),
]


def damaged(stored: Path, tmp: Path, damage) -> Path:
    out = tmp / "out"
    shutil.copytree(stored, out)
    damage(out)
    return out


@pytest.mark.parametrize("name, damage, file, field, pattern", DAMAGE, ids=[c[0] for c in DAMAGE])
def test_every_kind_of_damage_is_one_results_error_naming_folder_file_and_field(name, damage, file, field, pattern,
                                                                                stored, tmp_path):
    out = damaged(stored, tmp_path, damage)
    before = snapshot(tmp_path)
    with pytest.raises(ResultsError) as caught:
        results.load(out)
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.folder, error.file, error.field) == (str(out), file, field)
    message = str(error)
    assert "\n" not in message and str(out) in message, message
    assert re.search(pattern, message), message
    assert snapshot(tmp_path) == before
