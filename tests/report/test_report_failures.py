"""The results set read a variant at a time gives the same tables as from all records at once; a damaged manifest,
chunk or stored table is named in one line (or, for a stored table, computed again); nothing is changed on failure."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from test_report_board1981 import BOARD, ROUND
from test_report_liar import LIAR

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis import results
from trustme_analysis.outdir import CHUNKS, MANIFEST, STATS, chunk_path, load_manifest, load_records
from trustme_analysis.report.__main__ import main
from trustme_analysis.results import store
from trustme_analysis.results.build import Builder, compute, compute_from
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

PINOCCHIO = {
    "title": "small Pinocchio",
    "game": "trustme_pinocchio",
    "games": 8,
    "seed": 3,
    "grid": {"players": [2, 3]},
    "lineups": {"heuristic": {"seats": ["heuristic"]}},
}


def snapshot(root: Path) -> dict[str, tuple]:
    return {
        p.relative_to(root).as_posix(): (p.is_dir(), p.stat().st_mtime_ns, None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("spec", [PINOCCHIO, LIAR, BOARD, ROUND], ids=lambda s: s["game"])
def test_tables_read_a_variant_at_a_time_equal_those_from_all_records_at_once(spec, tmp_path, monkeypatch):
    # Chunks of 3 games: each variant's records come from several files, the last one shorter.
    run_sweep(parse_spec({**spec, "chunk_size": 3}, name="same"), workers=1, out=tmp_path, report=False, quiet=True)
    streamed = compute(tmp_path)
    # As results sets were computed before: every record in one frame, each table computed from all of it at once
    # (the bootstrap generator then draws table by table, variant by variant: the order per_variant keeps).
    monkeypatch.setattr(Builder, "per_variant", lambda self, table, columns=None, variants=None: table(self.records))
    at_once = compute_from(load_manifest(tmp_path), load_records(tmp_path), outdir=tmp_path)
    assert list(streamed) == list(at_once)
    for name in at_once:
        pd.testing.assert_frame_equal(streamed[name], at_once[name], check_exact=True, obj=name)


@pytest.fixture()
def sweep(tmp_path) -> Path:
    out = tmp_path / "out"
    spec = {"game": "trustme_pinocchio", "games": 4, "chunk_size": 2, "seed": 1, "grid": {"players": [2, 3]}}
    run_sweep(parse_spec(spec, name="bad"), workers=1, out=out, report=False, quiet=True)
    return out


def _truncate_manifest(out: Path) -> None:
    text = (out / MANIFEST).read_text()
    (out / MANIFEST).write_text(text[:200])


def _truncate_chunk(out: Path) -> None:
    path = chunk_path(out, "v01", 1)
    path.write_bytes(path.read_bytes()[:-50])


def _foreign_unrecorded_chunk(out: Path) -> None:
    manifest = load_manifest(out)
    del manifest[CHUNKS]["v01"]
    (out / MANIFEST).write_text(json.dumps(manifest))
    shutil.copyfile(chunk_path(out, "v00", 1), chunk_path(out, "v01", 1))


@pytest.mark.parametrize("damage, pattern", [
    (_truncate_manifest, r"error: {out}/manifest\.json is damaged \(not valid JSON: .*\); it records which spec made "
                         r"the chunks beside it: restore it from a copy, or run the sweep into a new folder$"),
    (lambda out: (out / MANIFEST).write_text("[]"),
     r"error: {out}/manifest\.json is not a sweep manifest \(it holds a JSON list, not an object\)"),
    (lambda out: (out / MANIFEST).write_bytes(b'{"game": "caf\xe9"}'), r"error: {out}/manifest\.json is damaged "
                                                                       r"\(not UTF-8 text\)"),
    (_truncate_chunk, r"error: {out}/records/v01/chunk-00001\.parquet its checksum differs from the one manifest\.json "
                      r"recorded when it was written \(changed or damaged since\); run the sweep again to play the bad "
                      r"chunks again$"),
    (_foreign_unrecorded_chunk, r"error: {out}/records/v01/chunk-00001\.parquet holds the records of variant v00, not "
                                r"v01; run the sweep again"),
], ids=["manifest truncated", "manifest []", "manifest not UTF-8", "chunk truncated", "chunk foreign"])
def test_report_on_a_damaged_file_names_it_in_one_line_and_changes_nothing(damage, pattern, sweep, capsys):
    import re

    damage(sweep)
    before = snapshot(sweep)
    assert main([str(sweep)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == "", captured
    assert re.match(pattern.format(out=re.escape(str(sweep))), lines[0]), lines[0]
    assert snapshot(sweep) == before


def test_a_damaged_stored_table_is_computed_again_and_stale_temp_files_go(sweep):
    first = results.load(sweep)
    table = sweep / STATS / "seat_win_rates.parquet"
    table.write_bytes(b"PAR1 not a table")
    stale = sweep / STATS / ".seat_win_rates-x1y2z3.parquet"  # what a killed save leaves (atomic_path's temp file)
    stale.write_bytes(b"half")
    again = results.load(sweep)
    pd.testing.assert_frame_equal(again["seat_win_rates"], first["seat_win_rates"])
    assert not stale.exists()
    # Without the records, the stored tables are all there is: the damaged one is named.
    table.write_bytes(b"PAR1 not a table")
    shutil.rmtree(sweep / "records")
    with pytest.raises(store.DamagedFileError, match=r"seat_win_rates\.parquet cannot be read .*; delete"):
        results.load(sweep)


def test_report_into_a_folder_that_refuses_files_is_one_line(sweep, monkeypatch, capsys):
    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(sweep / STATS))

    monkeypatch.setattr(store, "save", refuse)
    assert main([str(sweep)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"error: cannot write {sweep / STATS}: Read-only file system"]
