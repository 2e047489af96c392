"""The command line: the report builder is called once at the end, its failure keeps the records; the progress line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)

import trustme_analysis.report
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.outdir import REPORT, load_records
from trustme_analysis.sweep.progress import Progress

SPEC = 'title = "cli"\ngame = "kuhn_poker"\ngames = 6\nchunk_size = 4\n[grid]\nplayers = [2, 3]\n'


@pytest.fixture
def spec_file(tmp_path) -> Path:
    path = tmp_path / "cli.toml"
    path.write_text(SPEC)
    return path


def test_cli_stores_records_then_builds_the_report_once(spec_file, tmp_path, monkeypatch, capsys):
    calls = []

    def fake_build_report(outdir):
        calls.append(Path(outdir))
        path = Path(outdir) / REPORT
        path.write_bytes(b"%PDF-1.4 fake")
        return path

    monkeypatch.setattr(trustme_analysis.report, "build_report", fake_build_report, raising=False)
    out = tmp_path / "out"
    assert main([str(spec_file), "--out", str(out), "--workers", "1"]) == 0
    assert calls == [out]
    captured = capsys.readouterr()
    assert captured.out.strip() == str(out / REPORT)
    assert "2 variant(s) x 6 games = 12 games in 4 chunks" in captured.err
    assert len(load_records(out)) == 6 * 2 + 6 * 3
    # Again: nothing to play and the report exists, so neither runs.
    assert main([str(spec_file), "--out", str(out)]) == 0
    assert calls == [out]
    assert "report already built" in capsys.readouterr().err


def test_no_report_skips_the_report(spec_file, tmp_path, monkeypatch):
    def refuse(outdir):
        raise AssertionError("the report must not be built with --no-report")

    monkeypatch.setattr(trustme_analysis.report, "build_report", refuse, raising=False)
    assert main([str(spec_file), "--out", str(tmp_path / "o"), "--no-report", "--quiet", "--workers", "1"]) == 0
    assert not (tmp_path / "o" / REPORT).exists()


def test_a_failing_report_keeps_the_records_and_says_how_to_rebuild(spec_file, tmp_path, monkeypatch, capsys):
    def broken(outdir):
        raise ValueError("a plot went wrong")

    monkeypatch.setattr(trustme_analysis.report, "build_report", broken, raising=False)
    out = tmp_path / "out"
    assert main([str(spec_file), "--out", str(out), "--quiet", "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "ValueError: a plot went wrong" in err
    assert f"rebuild the report alone with: python -m trustme_analysis.report {out}" in err
    assert len(load_records(out)) == 30


def test_progress_line_shows_games_rate_and_eta():
    stream = io.StringIO()  # not a terminal: one line per update interval, and the final state on close
    progress = Progress(total=100, done=20, stream=stream)
    progress.update(30)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert lines and all("50/100 games ( 50.0%)" in line for line in lines)
    assert re.search(r"\d+\.\d games/s  elapsed \d\d:\d\d  ETA (\d\d:\d\d|--:--)$", lines[-1])
    quiet = io.StringIO()
    silent = Progress(total=10, stream=quiet, enabled=False)
    silent.update(10)
    silent.close()
    assert quiet.getvalue() == ""


def test_dask_without_distributed_installed_is_a_clear_error_and_writes_nothing(spec_file, tmp_path, monkeypatch,
                                                                               capsys):
    import sys

    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # what a missing package looks like to import
    out = tmp_path / "out"
    assert main([str(spec_file), "--out", str(out), "--dask", "local"]) == 2
    assert "--dask needs dask's distributed scheduler: pip install 'trustme-analysis[dask]'" in capsys.readouterr().err
    assert not out.exists()


def test_check_lists_the_variants_and_writes_nothing(spec_file, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main([str(spec_file), "--check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"spec {spec_file} is valid: cli"
    assert out[1] == "game kuhn_poker; 2 variant(s) x 6 games = 12 games; 2 chunk(s) of up to 4 games per variant; seed 0"
    assert out[2] == "output folder: reports/out/cli"
    assert out[3:5] == ["  v00 (baseline): players=2, lineup=random  [2 players; engine pyspiel: kuhn_poker has no "
                        "compiled kernel]",
                        "  v01: players=3, lineup=random  [3 players; engine pyspiel: kuhn_poker has no compiled kernel]"]
    # Six games are too few to see a 5-point seat edge: said per variant, with the games that would.
    assert out[5] == ("warning: v00 (players=2, lineup=random): 6 games see a seat edge only from 57 points on (80% "
                      "power); a 5-point edge needs about 785 games")
    assert out[6].startswith("warning: v01 (players=3, lineup=random): 6 games see a seat edge only from ")
    # The work, estimated from a few games played in memory.
    assert re.fullmatch(r"work: 12 games in 4 chunk\(s\); (under a second|about \d+ s) of play on \d worker\(s\) and "
                        r"about [\d.]+ KB of records \(estimated from \d+ game\(s\) played in memory, [\d.]+ ms each\)",
                        out[7]), out[7]
    assert len(out) == 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cli.toml"]
