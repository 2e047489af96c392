"""Stopping a sweep (kill or Ctrl-C) and running it again gives exactly the records of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)

from trustme_analysis.sweep.__main__ import main
from trustme_analysis.outdir import RECORDS, chunk_path, load_manifest, load_records
from trustme_analysis.sweep.runner import SweepError, run_sweep
from trustme_analysis.sweep.spec import load_spec, parse_spec

SPEC_TOML = """
title = "toy resume"
game = "kuhn_poker"
games = 200
chunk_size = 10
seed = 99
[grid]
players = [2, 3]
[lineups.random]
seats = ["random"]
"""
CHUNKS = 2 * 20
#: Seconds per game for the sweeps a test interrupts: the 400 games then take 10 s or more, so the signal lands while
#: the sweep runs even when the other test worker keeps this one waiting.
INTERRUPT_DELAY = 0.05

# Runs the CLI in a fresh interpreter with the toy plug-in registered (as a designer's own plug-in module would be).
# Ctrl-C's default handler first, as in a terminal: a test run started as a background job of a script (`cmd &`)
# passes on an ignored SIGINT, which Python keeps, and the Ctrl-C tests would then watch the sweep finish.
CLI = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "import sys; sys.path.insert(0, {here!r}); import sweep_toy_game; "
    "from trustme_analysis.sweep.__main__ import main; sys.exit(main(sys.argv[1:]))"
)


def start_cli(spec: Path, out: Path, *args: str, delay: float = 0.0) -> subprocess.Popen:
    env = {**os.environ, "SWEEP_TOY_DELAY": str(delay)}
    return subprocess.Popen(
        [sys.executable, "-c", CLI.format(here=str(sweep_toy_game.HERE)), str(spec), "--out", str(out), "--no-report",
         *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, so the test can signal it and its workers like a terminal
    )


def stored_chunks(out: Path) -> list[Path]:
    return sorted((out / RECORDS).glob("*/chunk-*.parquet")) if (out / RECORDS).is_dir() else []


def wait_for_chunks(proc: subprocess.Popen, out: Path, count: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(stored_chunks(out)) < count:
        assert proc.poll() is None, f"the sweep ended before it could be interrupted: {proc.communicate()}"
        assert time.monotonic() < deadline, "no chunks appeared"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "resume.toml"
    path.write_text(SPEC_TOML)
    return path


@pytest.fixture(scope="module")
def reference(spec_file, tmp_path_factory) -> pd.DataFrame:
    out = tmp_path_factory.mktemp("uninterrupted")
    run_sweep(load_spec(spec_file), workers=1, out=out, report=False, quiet=True)
    return load_records(out)


def test_killed_sweep_resumes_to_the_uninterrupted_records(spec_file, reference, tmp_path):
    proc = start_cli(spec_file, tmp_path, "--workers", "1", delay=INTERRUPT_DELAY)
    wait_for_chunks(proc, tmp_path, 5)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    done_before = len(stored_chunks(tmp_path))
    assert 5 <= done_before < CHUNKS
    manifest = load_manifest(tmp_path)
    assert manifest["complete"] is False
    # A chunk being written when the process died leaves a temp file; resuming removes it.
    planted = chunk_path(tmp_path, "v01", 19).with_name("chunk-00019.parquet.tmp-12345")
    planted.parent.mkdir(parents=True, exist_ok=True)
    planted.write_bytes(b"half a parquet file")

    rerun = start_cli(spec_file, tmp_path, "--workers", "1")
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert f"resuming: {done_before} of {CHUNKS} chunks already stored" in err
    assert "removed 1 half-written file(s) left by an interrupted run" in err
    assert not planted.exists()
    pd.testing.assert_frame_equal(load_records(tmp_path), reference)
    manifest = load_manifest(tmp_path)
    assert manifest["complete"] is True
    # A killed run cannot record its time: timing counts the run that finished, and the games it played.
    assert manifest["timing"]["runs"] == 1
    assert manifest["timing"]["games"] == 200 * 2 - done_before * 10


def test_ctrl_c_stops_a_pool_cleanly_and_a_rerun_finishes(spec_file, reference, tmp_path):
    proc = start_cli(spec_file, tmp_path, "--workers", "2", delay=INTERRUPT_DELAY)
    wait_for_chunks(proc, tmp_path, 4)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole process group gets it
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "run the same command again" in err
    stored = stored_chunks(tmp_path)
    assert 4 <= len(stored) < CHUNKS
    assert not list((tmp_path / RECORDS).glob("*/*.tmp-*"))  # no half-written file left behind
    assert load_manifest(tmp_path)["complete"] is False
    for path in stored:  # every stored chunk is whole
        assert len(pd.read_parquet(path)) in (20, 30)

    assert main([str(spec_file), "--out", str(tmp_path), "--no-report", "--quiet", "--workers", "1"]) == 0
    pd.testing.assert_frame_equal(load_records(tmp_path), reference)


def test_rerunning_a_finished_sweep_does_no_work(spec_file, tmp_path, capsys):
    spec = load_spec(spec_file)
    first = run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    assert first.chunks_run == CHUNKS
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()}
    again = run_sweep(spec, workers=2, out=tmp_path, report=False)
    assert again.chunks_run == 0 and again.games_played == 0
    assert "nothing to do: all 40 chunks are already stored" in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file()} == before


def test_a_folder_holding_another_specs_sweep_is_refused(spec_file, tmp_path, capsys):
    spec = load_spec(spec_file)
    small = parse_spec({"game": "kuhn_poker", "games": 4, "chunk_size": 2, "seed": 99}, name="small")
    run_sweep(small, workers=1, out=tmp_path, report=False, quiet=True)
    with pytest.raises(SweepError, match=r"different spec \(differs in: chunk_size, grid\)"):
        run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    assert main([str(spec_file), "--out", str(tmp_path), "--no-report"]) == 2
    assert "holds a sweep made from a different spec" in capsys.readouterr().err
    # A changed title or question is not a different sweep: the stored chunks are kept.
    retitled = parse_spec({"game": "kuhn_poker", "games": 4, "chunk_size": 2, "seed": 99, "title": "new"})
    assert run_sweep(retitled, workers=1, out=tmp_path, report=False, quiet=True).chunks_run == 0
    assert load_manifest(tmp_path)["title"] == "new"
    assert load_manifest(tmp_path)["complete"] is True


def test_manifest_follows_the_contract(spec_file, tmp_path):
    run_sweep(load_spec(spec_file), workers=1, out=tmp_path, report=False, quiet=True)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    for key in ("title", "question", "game", "spec", "spec_path", "seed", "games_per_variant", "chunk_size",
                "baseline", "variants", "assumptions", "versions", "timing", "complete"):
        assert key in manifest, key
    assert manifest["game"] == "kuhn_poker" and manifest["seed"] == 99 and manifest["baseline"] == "v00"
    assert manifest["spec_path"] == str(spec_file)
    assert manifest["variants"][1] == {
        "id": "v01",
        "label": "players=3, lineup=random",
        "game_string": "kuhn_poker(players=3)",
        "params": {"players": 3},
        "grid": {"players": 3},
        "lineup": "random",
        "seats": [{"bot": "random", "knobs": {}}] * 3,
        "players": 3,
        "games": 200,
        "engine": "pyspiel",
        "engine_note": "kuhn_poker has no compiled kernel",
    }
    assert manifest["assumptions"] == {"v00": [], "v01": []}
    assert set(manifest["versions"]) >= {"trustme_analysis", "open_spiel", "numpy", "pandas", "scipy",
                                         "matplotlib", "python"}
    timing = manifest["timing"]
    assert set(timing) >= {"started", "finished", "seconds", "games", "games_per_second", "workers", "backend"}
    assert timing["games"] == 400 and timing["backend"] == "in-process"


def pool_workers(parent: int) -> list[int]:
    """Pids of the spawned pool workers of process ``parent`` (read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == parent and b"spawn_main" in cmdline:
            found.append(int(stat.parent.name))
    return found


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")  # an unreaped zombie has exited


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads worker processes from /proc")
def test_sigterm_and_sigkill_of_the_parent_leave_no_half_chunks_or_workers(spec_file, reference, tmp_path):
    # SIGTERM (plain `kill PID`) to the parent alone stops like Ctrl-C.
    proc = start_cli(spec_file, tmp_path, "--workers", "2", delay=INTERRUPT_DELAY)
    wait_for_chunks(proc, tmp_path, 2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert not list((tmp_path / RECORDS).glob("*/*.tmp-*"))

    # SIGKILL to the parent alone: its pool workers notice and exit instead of idling forever.
    proc = start_cli(spec_file, tmp_path, "--workers", "2", delay=INTERRUPT_DELAY)
    wait_for_chunks(proc, tmp_path, len(stored_chunks(tmp_path)) + 2)
    workers = pool_workers(proc.pid)
    assert len(workers) == 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 15
    while not all(gone(pid) for pid in workers):
        assert time.monotonic() < deadline, "pool workers outlived their killed parent"
        time.sleep(0.1)

    assert main([str(spec_file), "--out", str(tmp_path), "--no-report", "--quiet", "--workers", "1"]) == 0
    pd.testing.assert_frame_equal(load_records(tmp_path), reference)


def test_a_folder_played_by_other_code_is_refused(spec_file, tmp_path, monkeypatch):
    """A sweep never mixes chunks of two versions of the code that plays its games: a stored sweep whose code
    digest differs from this installation's refuses to resume and names the files that changed."""
    import trustme_analysis.sweep.spec as spec_module
    from trustme_analysis.provenance import game_code_digest

    small = parse_spec({"game": "kuhn_poker", "games": 4, "chunk_size": 2, "seed": 99}, name="small")
    run_sweep(small, workers=1, out=tmp_path, report=False, quiet=True)
    stored = load_manifest(tmp_path)["fingerprint"]["code"]
    assert stored == game_code_digest("kuhn_poker") and "players/search.py" in stored
    # The same spec run by an installation whose bots' file differs (as after an upgrade that changed a default).
    edited = {**stored, "players/search.py": "0" * 16}
    monkeypatch.setattr(spec_module, "game_code_digest", lambda game: edited)
    with pytest.raises(SweepError, match=r"played by other code than this installation's \(changed since: "
                                         r"players/search\.py\)"):
        run_sweep(small, workers=1, out=tmp_path, report=False, quiet=True)
    monkeypatch.undo()
    assert run_sweep(small, workers=1, out=tmp_path, report=False, quiet=True).chunks_run == 0
