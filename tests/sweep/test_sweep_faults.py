"""Faults while a sweep runs in its own process: a killed pool worker, workers that keep dying, Ctrl-C under Dask.

Each ends cleanly: the sweep finishes with the records of an uninterrupted run, or stops with one line saying how to
go on, every stored chunk whole.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)
from test_sweep_resume import (
    CHUNKS,
    INTERRUPT_DELAY,
    SPEC_TOML,
    pool_workers,
    start_cli,
    stored_chunks,
    wait_for_chunks,
)

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
import trustme_analysis.sweep.runner as runner
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import load_spec

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads worker processes from /proc")


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "faults.toml"
    path.write_text(SPEC_TOML)
    return path


@pytest.fixture(scope="module")
def reference(spec_file, tmp_path_factory) -> pd.DataFrame:
    out = tmp_path_factory.mktemp("uninterrupted")
    run_sweep(load_spec(spec_file), workers=1, out=out, report=False, quiet=True)
    return load_records(out)


def test_a_killed_pool_worker_is_replaced_and_its_chunks_played_again(spec_file, reference, tmp_path):
    proc = start_cli(spec_file, tmp_path, "--workers", "2", delay=0.01)
    wait_for_chunks(proc, tmp_path, 3)
    workers = pool_workers(proc.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "a worker process died (killed, or out of memory): starting new workers to play again the" in err
    pd.testing.assert_frame_equal(load_records(tmp_path), reference)
    assert load_manifest(tmp_path)["complete"] is True


def test_workers_that_keep_dying_stop_the_sweep_in_one_line(spec_file, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SWEEP_TOY_DIE", "1")  # every pool worker dies at its first game, as if killed
    monkeypatch.setattr(runner, "MAX_POOL_RESTARTS", 1)  # (each new pool costs seconds of start-up)
    out = tmp_path / "dying"
    assert main([str(spec_file), "--out", str(out), "--workers", "2", "--quiet", "--no-report"]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: worker processes died 2 times (killed, or out of memory), the last time with "
                               "these chunks in hand: variant v00 chunk 0, "), lines
    assert lines[0].endswith(f"0 of {CHUNKS} chunks are stored in {out}; run the same command again to play only "
                             "the missing ones"), lines
    assert load_manifest(out)["complete"] is False
    assert not stored_chunks(out)


def test_ctrl_c_under_dask_local_is_one_line_and_exit_130(spec_file, reference, tmp_path):
    pytest.importorskip("dask.distributed")
    proc = start_cli(spec_file, tmp_path, "--workers", "2", "--dask", "local", delay=INTERRUPT_DELAY)
    wait_for_chunks(proc, tmp_path, 2, timeout=120)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: every process of the group, Dask's too
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    stopped = [line for line in err.splitlines() if line.startswith("stopped: ")]
    assert len(stopped) == 1 and stopped[0].endswith("run the same command again to play only the missing ones")
    # Besides that line: the sweep's first line and the progress lines only.
    others = [line for line in err.splitlines() if line and line not in stopped]
    assert all(line.startswith(("sweep 'toy resume'", "[")) for line in others), err
    assert not list((tmp_path / RECORDS).glob("*/*.tmp-*"))
    for path in stored_chunks(tmp_path):
        assert len(pd.read_parquet(path)) in (20, 30)
