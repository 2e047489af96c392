"""``python -m trustme_analysis.solve``, the ``[[solve]]`` sections of sweep specs, and the report pages."""

from __future__ import annotations

import json

import pytest

from tests.solve.conftest import PINOCCHIO_TINY
from trustme_analysis.solve import storage
from trustme_analysis.solve.__main__ import main
from trustme_analysis.solve.spec import parse_solve
from trustme_analysis.sweep.spec import SpecError, load_spec

SOLVE = f'''
title = "tiny"
[[solve]]
name = "tiny"
game = "{PINOCCHIO_TINY}"
target = 0.005
iterations = 2000
[solve.lineups.heuristic]
seats = ["heuristic"]
'''


def test_cli_solves_stores_and_prints_the_metric(tmp_path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text(SOLVE)
    out = tmp_path / "out"
    assert main([str(spec), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "exploitability = " in printed and "% of the utility range 2" in printed
    assert "best response vs heuristic (seat 0)" in printed
    folder = storage.solution_dir(out, "tiny")
    for name in (storage.POLICY, storage.RESULT, storage.CURVE, storage.DECISIONS, storage.EXPLOITATION,
                 storage.SIMPLE):
        assert (folder / name).is_file(), name
    assert (out / "solve" / "report.pdf").read_bytes().startswith(b"%PDF")
    decisions = storage.load_solution(folder)["decisions"]
    # Every information set's probabilities sum to one.
    assert decisions.groupby("info_state")["prob"].sum().round(9).eq(1.0).all()


@pytest.mark.parametrize("section, key, words", [
    ({"game": "trustme_pinocchio(players=9)"}, "solve[0].game", "players=9"),
    ({"game": PINOCCHIO_TINY, "algorithm": "magic", "iterations": 5}, "solve[0].algorithm", "allowed: cfr"),
    ({"game": PINOCCHIO_TINY}, "solve[0]", "needs a stopping rule"),
    ({"game": PINOCCHIO_TINY, "iterations": 0}, "solve[0].iterations", "integer > 0"),
    ({"game": PINOCCHIO_TINY, "target": 2.0}, "solve[0].target", "below 1"),
    ({"game": PINOCCHIO_TINY, "target": 0.1, "target_exploitability": 0.1}, "solve[0].target", "not both"),
    ({"game": PINOCCHIO_TINY, "iterations": 5, "speed": 1}, "solve[0].speed", "unknown key"),
    ({"game": PINOCCHIO_TINY, "iterations": 5, "lineups": {"x": {"seats": ["clever"]}}},
     "solve[0].lineups.x.seats[0].bot", "unknown bot kind 'clever'"),
    ({"game": PINOCCHIO_TINY, "iterations": 5, "lineups": {"x": {"pool": ["random"]}}},
     "solve[0].lineups.x.pool", "fixed seats"),
])
def test_bad_sections_name_the_key(section, key, words):
    with pytest.raises(SpecError) as info:
        parse_solve(section)
    assert info.value.key == key
    assert words in str(info.value)


def test_cli_exits_2_on_a_bad_spec(tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text(SOLVE.replace('target = 0.005', 'target = "small"'))
    assert main([str(spec)]) == 2
    assert "solve[0].target" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.toml")]) == 2


def test_sweep_spec_with_solve_runs_the_solve_then_policy_bots(tmp_path, monkeypatch):
    from trustme_analysis.report.solve_pages import solution_figures
    from trustme_analysis.outdir import load_records
    from trustme_analysis.sweep.runner import run_sweep

    out = tmp_path / "out"
    policy = out / "solve" / "tiny" / "policy.json"
    text = f'''
game = "trustme_pinocchio"
games = 20
chunk_size = 10
out = "{out}"
[params]
players = 2
values = 2
copies = 2
two_player_removed = 0
park_size = 1
stacks = [1, 1]
chart = [1, 3]
runouts_to_end = 1
[lineups.policy]
seats = [{{ bot = "policy", knobs = {{ policy = "{policy}" }} }}]
[[solve]]
name = "tiny"
game = "{PINOCCHIO_TINY}"
target = 0.005
iterations = 2000
'''
    path = tmp_path / "sweep.toml"
    path.write_text(text)
    spec = load_spec(path)
    assert [s.name for s in spec.solves] == ["tiny"]
    run_sweep(spec, workers=1, report=False, quiet=True)
    assert policy.is_file()
    records = load_records(out)
    assert set(records["bot"]) == {"policy"} and len(records) == 40
    stored = json.loads((out / "solve" / "tiny" / storage.RESULT).read_text())
    mtime = (out / "solve" / "tiny" / storage.RESULT).stat().st_mtime_ns
    # A second run reuses the stored solution of the same section.
    run_sweep(spec, workers=1, report=False, quiet=True)
    assert (out / "solve" / "tiny" / storage.RESULT).stat().st_mtime_ns == mtime
    titles = [title for _, title in solution_figures(out / "solve" / "tiny")]
    assert titles[0] == "Solved variant tiny: the variant and its solution"
    assert "Solved variant tiny: convergence" in titles
    assert stored["value"] <= 0.005
    # The sweep report carries the solve pages after the game's own.
    import trustme_analysis.report.build as build

    seen = []
    original = build.write_pdf

    def record_titles(pages, path, **kwargs):
        seen.extend((p.section, p.title) for p in pages)
        return original(pages, path, **kwargs)

    monkeypatch.setattr(build, "write_pdf", record_titles)
    assert build.build_report(out).is_file()
    assert ("solve", "Solved variant tiny: the variant and its solution") in seen


def test_sweep_spec_reports_bad_solve_sections(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('game = "trustme_pinocchio"\n[[solve]]\nname = "a b"\niterations = 3\n')
    with pytest.raises(SpecError, match=r"solve\[0\]\.name"):
        load_spec(path)


def test_a_tree_too_large_is_refused_with_the_remedy(tmp_path):
    from trustme_analysis.solve.run import run_solve

    spec = parse_solve({"name": "big", "game": PINOCCHIO_TINY, "iterations": 5, "max_histories": 50})
    with pytest.raises(ValueError, match="exceeds max_histories=50.*choose smaller parameters"):
        run_solve(spec, tmp_path, quiet=True)
    assert not (tmp_path / "solve" / "big").exists()
