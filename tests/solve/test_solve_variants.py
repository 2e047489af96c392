"""Solves of several variants: one absolute accuracy, a warning when the varied parameter changes nothing, no
contradictory near-optimal flags, and no negative zero in the printed summary."""

from __future__ import annotations

import json

import pyspiel
import pytest

import cfr
from trustme_analysis.solve import storage
from trustme_analysis.solve.__main__ import main
from trustme_analysis.solve.compare import compare_solutions, load_comparison, same_policy
from trustme_analysis.solve.run import contradict, describe, signed, simple_strategies
from trustme_analysis.solve.spec import parse_solves

from tests.solve.conftest import PINOCCHIO_TINY

TINY = ("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,chart={},"
        "runouts_to_end=1{})")


def test_share_targets_become_one_absolute_target_across_variants():
    # Score utility: the range is the largest score, which the chart changes (6 with 1/3, 7 with 1/4).
    steep, flat = TINY.format("1/4", ",utility=score"), TINY.format("1/3", ",utility=score")
    assert pyspiel.load_game(steep).max_utility() != pyspiel.load_game(flat).max_utility()
    solves = parse_solves([
        {"name": "steep", "game": steep, "target": 0.01},
        {"name": "flat", "game": flat, "target": 0.01},
        {"name": "fixed", "game": flat, "target_exploitability": 0.5},
        {"name": "winloss", "game": TINY.format("1/3", ""), "target": 0.01},
    ])
    by = {s.name: s for s in solves}
    targets = {name: s.absolute_target(pyspiel.load_game(s.game)) for name, s in by.items()}
    assert targets["steep"] == targets["flat"] == pytest.approx(0.06)  # 1% of the smaller range, 6
    assert by["steep"].solved_with == ("steep", "flat")
    words = by["steep"].target_words(pyspiel.load_game(steep))
    assert "0.06" in words and "smallest utility range" in words and "steep, flat" in words
    # An absolute target, and a section alone in its game and utility mode, are left as given.
    assert targets["fixed"] == 0.5 and by["fixed"].target_range is None
    assert targets["winloss"] == pytest.approx(0.02) and by["winloss"].target_range is None
    # The common range decides the policy, so it is one of the policy inputs a stored solve is checked against.
    assert by["steep"].policy_inputs()["target_range"] == 6.0


def test_contradicting_rules_are_not_both_near_optimal():
    assert contradict({1: [3], 2: [4]}, {2: [5]})
    assert not contradict({1: [3], 2: [4, 5]}, {2: [5]})
    assert not contradict({1: [3]}, {2: [5]})  # never both at one decision
    cg = cfr.compile_game(PINOCCHIO_TINY)
    policy = cg.uniform_policy()
    strict = simple_strategies(cg, policy, tolerance=-1.0)
    assert not any(r["near_optimal"] or r["contradicted_by"] for r in strict)
    # With a tolerance every loss fits, opposite strategies of the same seat contradict each other, and none is
    # flagged.
    loose = simple_strategies(cg, policy, tolerance=10.0)
    rows = {(r["strategy"], r["seat"]): r for r in loose}
    assert not any(r["near_optimal"] for r in loose)
    for seat in (0, 1):
        pairs = [("always tell a tall tale", "never tell a tall tale"), ("always trust", "never trust")]
        for a, b in pairs:
            if (a, seat) in rows and (b, seat) in rows:
                assert b in rows[(a, seat)]["contradicted_by"] and a in rows[(b, seat)]["contradicted_by"]
    assert any(r["contradicted_by"] for r in loose)
    # "Always trust" and "always tell a tall tale" never meet at one decision: no contradiction between them.
    assert all("always trust" not in r["contradicted_by"] for r in loose if r["strategy"].endswith("tall tale"))


def test_no_negative_zero_in_the_printed_summary():
    assert signed(-1e-9) == "0.0000" and signed(-0.00004) == "0.0000"
    assert signed(-0.25) == "-0.2500" and signed(0.25) == "+0.2500"
    result = {"name": "x", "game": "g", "sizes": {"histories": 1, "infosets_per_player": [1], "slots": 1},
              "exact": True, "algorithm": "dcfr", "iterations": 1, "stop_reason": "target", "metric":
              "exploitability", "value": 0.0, "value_share_of_range": 0.0, "utility_range": 2.0,
              "compile_seconds": 0.0, "solver_seconds": 0.0, "solve_wall_seconds": 0.0,
              "time_to_target_seconds": 0.0, "target": 0.01, "seat_values": [-1e-12, 1e-12]}
    rows = [{"lineup": "h", "seat": 0, "best_response_value": -3e-7, "lineup_value": -1e-9, "gain": -2e-10}]
    simple = [{"strategy": "never trust", "seat": 1, "near_optimal": True, "loss": -1e-11, "contradicted_by": ""}]
    text = describe(result, rows, simple)
    assert "-0.0000" not in text and "0.0000" in text


def _spec(tmp_path, charts: list[str], utility: str = "") -> str:
    sections = "".join(
        f'[[solve]]\nname = "chart_{c.replace("/", "_")}"\ngame = "{TINY.format(c, utility)}"\n'
        'iterations = 300\ntarget = 0.002\n\n' for c in charts)
    path = tmp_path / "charts.toml"
    path.write_text(f'title = "charts"\nout = "{tmp_path / "out"}"\n\n{sections}', encoding="utf-8")
    return str(path)


def test_a_chart_that_changes_nothing_in_the_variant_is_flagged(tmp_path, capsys):
    # The tiny variant has one Tale per game, so no player ever holds two different values: the chart's second
    # entry (3 or 4) is never scored and the solves come out identical.
    assert main([_spec(tmp_path, ["1/3", "1/4"]), "--quiet"]) == 0
    out = tmp_path / "out"
    pairs = load_comparison(out)
    assert [p["solves"] for p in pairs] == [["chart_1_3", "chart_1_4"]]
    assert pairs[0]["varied"] == {"chart": ["1/3", "1/4"]}
    assert "too small for this question" in pairs[0]["text"]
    from trustme_analysis.report.solve_pages import solution_pages

    first = solution_pages(storage.solution_dir(out, "chart_1_4"))[0]
    assert first.findings[0] == pairs[0]["text"]
    # Printed too, when not quiet.
    assert main([_spec(tmp_path, ["1/3", "1/4"])]) == 0
    assert "too small for this question" in capsys.readouterr().err


def test_a_chart_that_changes_the_values_is_not_flagged(tmp_path):
    # Scored by points, the bonus for a single value (1 or 2) changes what each seat expects: no warning.
    assert main([_spec(tmp_path, ["1/3", "2/3"], ",utility=score"), "--quiet"]) == 0
    out = tmp_path / "out"
    assert load_comparison(out) == [] == compare_solutions(out)
    values = [json.loads((storage.solution_dir(out, n) / storage.RESULT).read_text())["seat_values"]
              for n in ("chart_1_3", "chart_2_3")]
    assert values[0] != values[1]


def test_same_policy_needs_the_same_decisions_and_probabilities():
    a = {"p0|x": {0: 0.5, 1: 0.5}}
    assert same_policy(a, {"p0|x": {0: 0.5, 1: 0.5 + 1e-9}})
    assert not same_policy(a, {"p0|x": {0: 0.4, 1: 0.6}})
    assert not same_policy(a, {"p0|y": {0: 0.5, 1: 0.5}})
