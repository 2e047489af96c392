"""A file from someone else never runs code: every reader that takes a path from the user is handed a crafted pickle
whose unpickling would create a marker file, and the marker must never appear; the command lines refuse it in one
line on stderr (no traceback) with exit status 2, the library calls with one exception of one line.

The readers: ``python -m cfr --resume`` (every algorithm), ``results.load`` and ``python -m trustme_analysis.report``
over each file of a small results set, a stored trained policy's files, a solved policy (``policy.json``, alone and
named by a sweep spec) and a solution's ``result.json``, the tuning study's database, and the TOML files (a sweep
spec, a tuning spec, a 1981 board). The first test proves the crafted bytes do create the marker when unpickled, so
the others cannot pass because the pickle was harmless. See ``docs/guide/trust_model.rst``.
"""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from failure_cases import exit_status

import trustme_analysis  # noqa: F401  (registers the games)
from cfr.api import algorithm_names
from trustme_analysis import results
from trustme_analysis.outdir import MANIFEST
from trustme_analysis.results import ResultsError


class _Touch:
    """Unpickles as ``open(marker, "w")``: the marker file appears if anything unpickles the bytes."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


@pytest.fixture()
def marker(tmp_path_factory) -> Path:
    """Where the crafted pickle would create its file (outside every folder a reader is pointed at)."""
    return tmp_path_factory.mktemp("marker") / "RAN"


def crafted(marker: Path, **extra) -> bytes:
    """A pickle of a dict that holds the marker-creating object (and ``extra``, e.g. an old checkpoint's magic)."""
    return pickle.dumps({**extra, "payload": _Touch(marker)}, protocol=pickle.HIGHEST_PROTOCOL)


def one_line_refusal(call, capfd, pattern: str | None = None) -> str:
    """Run a command line's ``main``; assert exit 2 and one line starting ``error:`` or ``error:`` on stderr
    (no traceback); returns the line."""
    import re

    capfd.readouterr()
    status = exit_status(call)
    err = capfd.readouterr().err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, (status, err)
    assert re.match(r"^(spec )?error: ", lines[0]), lines[0]
    if pattern:
        assert re.search(pattern, lines[0]), lines[0]
    return lines[0]


def test_the_crafted_pickle_creates_its_marker_when_unpickled(marker):
    pickle.loads(crafted(marker))  # what every reader below must never do
    assert marker.exists()


# --------------------------------------------------------------------------------------------- cfr --resume
@pytest.mark.parametrize("algorithm", algorithm_names())
@pytest.mark.parametrize("form", ["pickle", "old checkpoint", "pickle inside npz"])
def test_cfr_resume_refuses_a_crafted_file_before_interpreting_it(algorithm, form, marker, tmp_path, capfd):
    from cfr.__main__ import main

    path = tmp_path / "shared.ckpt"
    if form == "pickle":
        path.write_bytes(crafted(marker))
        pattern = r"checkpoint '.*shared\.ckpt' is a Python pickle, not a cfr checkpoint; pickles are not opened"
    elif form == "old checkpoint":  # what a pyspiel-API sampling solver's checkpoint looked like (cfr-checkpoint-1)
        path.write_bytes(crafted(marker, magic="cfr-checkpoint-1", kind="sampling"))
        pattern = r"checkpoint '.*shared\.ckpt' is a pickled cfr-checkpoint-1 checkpoint .*run the solver again"
    else:  # a zip archive whose arrays are object arrays (numpy pickles those inside the .npy entries)
        with open(path, "wb") as fh:
            np.savez(fh, meta=np.asarray([_Touch(marker)], dtype=object))
        pattern = r"checkpoint '.*shared\.ckpt' is damaged or not a cfr checkpoint \(Object arrays cannot be loaded"
    argv = ["kuhn_poker", "-a", algorithm, "-n", "2", "--resume", str(path)]
    one_line_refusal(lambda: main(argv), capfd, pattern)
    assert not marker.exists()


# ------------------------------------------------------------------------------------------- a results set
SPEC = {"game": "trustme_pinocchio", "games": 2, "chunk_size": 1, "seed": 1, "params": {"players": 2}}


@pytest.fixture(scope="module")
def results_set(tmp_path_factory) -> Path:
    """A finished two-game sweep with its results set (stats/), built once; each test changes copies."""
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    out = tmp_path_factory.mktemp("results") / "out"
    run_sweep(parse_spec(SPEC, name="crafted"), workers=1, out=out, report=False, quiet=True)
    results.load(out)
    return out


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def _copy_with(results_set: Path, where: Path, replaced: list[str], data: bytes) -> Path:
    if where.exists():
        shutil.rmtree(where)
    shutil.copytree(results_set, where)
    for name in replaced:
        (where / name).write_bytes(data)
    return where


def test_results_load_over_each_file_of_a_results_set(results_set, marker, tmp_path):
    files = _files(results_set)
    assert MANIFEST in files and any(f.startswith("records/") for f in files) and len(files) > 20
    out = _copy_with(results_set, tmp_path / "set", [], b"")
    reference = results.load(out)
    outcome = {}
    for name in files:  # one file at a time, in place, put back after (copying the set each time costs more)
        original = (out / name).read_bytes()
        (out / name).write_bytes(crafted(marker))
        try:
            loaded = results.load(out)
        except ResultsError as exc:  # the project's one exception for a damaged results set (a ValueError)
            message = str(exc)
            assert len(message.splitlines()) == 1 and name in message, (name, message)
            outcome[name] = "refused"
        else:
            # A derived table: rebuilt from the records, the same as before (the crafted bytes were not used).
            assert list(loaded) == list(reference), name
            table = Path(name).stem
            if table in reference:
                pd.testing.assert_frame_equal(loaded[table], reference[table])
            outcome[name] = "rebuilt"
        assert not marker.exists(), name
        (out / name).write_bytes(original)
    assert outcome[MANIFEST] == "refused"
    assert all(v == "refused" for k, v in outcome.items() if k.startswith("records/")), outcome


def _crafted_chunk_with_its_checksum(results_set: Path, where: Path, data: bytes) -> Path:
    """Someone who crafts a chunk can also write its checksum into the manifest: the chunk is then read as
    Parquet (which a pickle is not)."""
    from trustme_analysis.outdir import chunk_entry

    out = _copy_with(results_set, where, ["records/v00/chunk-00000.parquet"], data)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["chunks"]["v00"]["0"] = chunk_entry(data, 1)
    (out / MANIFEST).write_text(json.dumps(manifest))
    shutil.rmtree(out / "stats")  # so that the records are read
    return out


def test_crafted_records_with_a_matching_checksum_are_never_unpickled(results_set, marker, tmp_path, capfd):
    from trustme_analysis.report.__main__ import main

    out = _crafted_chunk_with_its_checksum(results_set, tmp_path / "set", crafted(marker))
    with pytest.raises(ValueError) as info:  # pyarrow's ArrowInvalid today (a ValueError): see the next test
        results.load(out)
    assert len(str(info.value).splitlines()) == 1
    one_line_refusal(lambda: main([str(out)]), capfd, r"Parquet magic bytes not found")
    assert not marker.exists()


def test_crafted_records_with_a_matching_checksum_raise_results_error_naming_the_chunk(results_set, marker,
                                                                                       tmp_path):
    out = _crafted_chunk_with_its_checksum(results_set, tmp_path / "set", crafted(marker))
    with pytest.raises(ResultsError, match=r"chunk-00000\.parquet"):
        results.load(out)
    assert not marker.exists()


def test_the_report_command_over_a_results_set_with_crafted_files(results_set, marker, tmp_path, capfd):
    from trustme_analysis.report.__main__ import main

    data = crafted(marker)
    files = _files(results_set)
    refused = [MANIFEST, *[f for f in files if f.startswith("records/")]]
    for name in refused:  # each refused by its own name, one at a time
        out = _copy_with(results_set, tmp_path / "set", [name], data)
        one_line_refusal(lambda: main([str(out)]), capfd, rf"{name}")
        assert not marker.exists(), name
    # Every other file at once (each is rebuilt from the records, so one run reads past all of them): the report
    # is drawn and the marker never appears.
    others = [f for f in files if f not in refused]
    out = _copy_with(results_set, tmp_path / "set", others, data)
    assert main([str(out)]) == 0, capfd.readouterr().err
    assert (out / "report.pdf").is_file() and not marker.exists()


# ------------------------------------------------------------------------------------ stored trained policies
def test_stored_trained_policy_files_are_never_unpickled(marker, tmp_path):
    import pyspiel

    from trustme_analysis.train import driver

    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    settings, trainer = driver.game_settings(game), driver.trainer_for(game)
    folder = driver.train_dir(tmp_path, driver.fingerprint(str(game), settings, trainer.version))
    folder.mkdir(parents=True)
    for name in (driver.SUMMARY, driver.POLICY_FILE, driver.CHECKPOINT):
        (folder / name).write_bytes(crafted(marker))
    with pytest.raises(ValueError) as info:  # summary.json: not UTF-8 text
        driver.stored(game, settings, tmp_path)
    assert len(str(info.value).splitlines()) == 1
    with pytest.raises(ValueError, match="pickled") as info:  # policy.npz: numpy refuses pickled data
        driver.load_table(folder)
    assert len(str(info.value).splitlines()) == 1
    # checkpoint.npz: a damaged training checkpoint starts the training over (by design), without unpickling it.
    _tables, iteration, _cpu, curve, warm = driver._resume(folder, trainer.code_digest())
    assert (iteration, curve, warm) == (0, [], None)
    assert driver.nearest_stored(game, settings, tmp_path) is None  # the summary it cannot read is skipped
    assert not marker.exists()


# ------------------------------------------------------------------------------------- solved policies
def test_a_crafted_solved_policy_is_refused(marker, tmp_path, capfd):
    from trustme_analysis.players.policy import load_policy
    from trustme_analysis.solve.storage import RESULT, load_solution
    from trustme_analysis.sweep.__main__ import main as sweep

    (tmp_path / "policy.json").write_bytes(crafted(marker))
    with pytest.raises(ValueError) as info:
        load_policy(tmp_path / "policy.json")
    assert len(str(info.value).splitlines()) == 1
    (tmp_path / RESULT).write_bytes(crafted(marker))
    with pytest.raises(ValueError) as info:
        load_solution(tmp_path)
    assert len(str(info.value).splitlines()) == 1
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "trustme_pinocchio"\ngames = 2\nchunk_size = 1\n[params]\nplayers = 2\n[lineups.p]\n'
                    f'seats = [{{ bot = "policy", knobs = {{ policy = "{tmp_path / "policy.json"}" }} }}, "random"]\n')
    argv = [str(spec), "--out", str(tmp_path / "out"), "--workers", "1", "--quiet", "--no-report"]
    one_line_refusal(lambda: sweep(argv), capfd, r"lineups\.p\.seats\[0\]\.knobs\.policy")
    assert not marker.exists()


# ------------------------------------------------------------------------------------- the tuning database
#: A small tuning spec (tests/tune/test_tune_failures.py's good one): Pinocchio's park size by random players.
TUNE_SPEC = ('game = "trustme_pinocchio"\n[lineups.r]\nseats = ["random"]\n[search]\n'
             'park_size = { low = 3, high = 5 }\n[[objective]]\nname = "x"\ntable = "game_length"\n'
             'column = "turns_mean"\ngoal = "maximize"\n[budget]\ngames = 1000\ngames_per_candidate = 200\n')


@pytest.fixture()
def crafted_study(marker, tmp_path) -> list[str]:
    """A tuning folder whose ``tune.json`` is right for the spec and whose ``study.db`` is the crafted pickle."""
    from failure_cases import write

    from trustme_analysis.tune.run import write_state
    from trustme_analysis.tune.spec import load_tune_spec
    path = write(tmp_path, TUNE_SPEC, "tune.toml")
    out = tmp_path / "study"
    out.mkdir()
    write_state(load_tune_spec(path), out)
    (out / "study.db").write_bytes(crafted(marker))
    return [path, "--out", str(out), "--workers", "1", "--quiet"]


def test_a_crafted_study_database_is_never_unpickled(crafted_study, marker):
    from trustme_analysis.tune.__main__ import main

    try:
        exit_status(lambda: main(crafted_study))
    except Exception:  # noqa: BLE001 - today sqlite's DatabaseError escapes (the next test); it runs nothing
        pass
    assert not marker.exists()


def test_a_crafted_study_database_is_refused_in_one_line(crafted_study, marker, capfd):
    from trustme_analysis.tune.__main__ import main

    one_line_refusal(lambda: main(crafted_study), capfd, r"study\.db")
    assert not marker.exists()


# ------------------------------------------------------------------------------------------ TOML files
def test_crafted_toml_files_are_refused_in_one_line(marker, tmp_path, capfd):
    from cfr.__main__ import main as cfr_main
    from trustme_analysis.games.board1981.engine.board import BoardError, load_board
    from trustme_analysis.sweep.__main__ import main as sweep
    from trustme_analysis.tune.__main__ import main as tune

    path = tmp_path / "shared.toml"
    path.write_bytes(crafted(marker))
    one_line_refusal(lambda: sweep([str(path), "--out", str(tmp_path / "o"), "--quiet"]), capfd,
                     r"shared\.toml' is a binary file")
    one_line_refusal(lambda: tune([str(path), "--out", str(tmp_path / "o"), "--quiet"]), capfd,
                     r"shared\.toml' is a binary file")
    with pytest.raises((BoardError, ValueError)) as info:
        load_board(str(path))
    assert len(str(info.value).splitlines()) == 1
    one_line_refusal(lambda: cfr_main([f"trustme_1981(board={path})", "-n", "1"]), capfd,
                     r"cannot be loaded: .*codec can't decode")
    assert not marker.exists()
