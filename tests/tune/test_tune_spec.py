"""Tuning specs: what is accepted, and the one-line message naming the key for what is not."""

from __future__ import annotations

import copy
import math

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.results import ResultSet, Table
from trustme_analysis.specfile import SpecError
from trustme_analysis.tune.__main__ import main
from trustme_analysis.tune.measures import Constraint, Figure, Measure, Objective, aggregate, check_measure
from trustme_analysis.tune.space import OrderedList
from trustme_analysis.tune.spec import DEFAULT_LINEUP, parse_tune_spec

GOOD = {
    "title": "t",
    "game": "trustme_pinocchio",
    "params": {"players": 4},
    "search": {
        "chart": {"length": 6, "low": 1, "high": 25, "order": "increasing", "max_step": 8},
        "stacks": {"choices": [[6, 5, 4, 3, 2, 1], [5, 5, 4, 3, 2, 1]]},
        "park_size": {"low": 3, "high": 5},
    },
    "objective": [{"name": "balance", "table": "ludii_metrics", "where": {"metric": "Balance"}, "column": "value",
                   "goal": "maximize"}],
    "constraint": [{"name": "length", "table": "game_length", "column": "turns_mean", "range": [30, 50]}],
    "budget": {"games": 10000, "games_per_candidate": 800, "first_rung": 100},
}


def with_changes(path: str, value):
    data = copy.deepcopy(GOOD)
    *parents, last = path.split(".")
    node = data
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    if value is KeyError:
        del node[last]
    else:
        node[last] = value
    return data


def test_a_good_spec_and_its_defaults():
    spec = parse_tune_spec(GOOD)
    assert spec.lineup_name == next(iter(DEFAULT_LINEUP))  # the heuristic line-up until search players take over
    assert spec.budget.rungs == (100, 200, 400, 800)
    assert spec.sampler_kind == "tpe"
    assert spec.rulebook == {"chart": "1/3/6/10/15/21", "stacks": "6/5/4/3/2/1", "park_size": 4}
    # The rulebook is a point of this space, so the search starts from it.
    assert spec.space.encode(spec.rulebook) == {"chart.first": 1, "chart.step1": 2, "chart.step2": 3, "chart.step3": 4,
                                                "chart.step4": 5, "chart.step5": 6, "stacks": "6/5/4/3/2/1",
                                                "park_size": 4}
    assert spec.confirm.seed == spec.seed + 1
    data = spec.candidate_data({"chart": "1/2/3/4/5/6", "stacks": "6/5/4/3/2/1", "park_size": 3}, 100)
    assert data["params"] == {"players": 4, "chart": [1, 2, 3, 4, 5, 6], "stacks": [6, 5, 4, 3, 2, 1], "park_size": 3}
    assert data["seed"] == spec.seed and data["games"] == 100


def test_two_objectives_choose_nsga2_and_the_fingerprint_ignores_the_budget():
    data = copy.deepcopy(GOOD)
    data["objective"].append({"name": "bonus", "table": "chart_shares", "where": {"group": "all seats"},
                              "column": "set_bonus_share", "target": 0.33})
    spec = parse_tune_spec(data)
    assert spec.sampler_kind == "nsga2"
    bigger = copy.deepcopy(data)
    bigger["budget"]["games"] = 50000
    assert parse_tune_spec(bigger).study_fingerprint() == spec.study_fingerprint()
    other = copy.deepcopy(data)
    other["objective"][1]["target"] = 0.3
    assert parse_tune_spec(other).study_fingerprint() != spec.study_fingerprint()


@pytest.mark.parametrize("path, value, key, fragment", [
    ("gmae", "x", "gmae", "did you mean 'game'"),
    ("game", "trustme_pinochio", "game", "did you mean 'trustme_pinocchio'"),
    ("search.chart.order", "upwards", "search.chart.order", "orders: non_decreasing, increasing"),
    ("search.chart.high", 5, "search.chart.high", "cannot hold 6 increasing integers"),
    ("search.chart.length", 5, "search.chart", "trustme_pinocchio"),
    ("search.park_size.high", 2, "search.park_size.high", "must be greater than low"),
    ("search.park_size.low", "three", "search.park_size.low", "must be an integer"),
    ("search.players", {"low": 2, "high": 4}, "search.players", "also fixed in params.players"),
    ("search.colour", {"low": 2, "high": 4}, "search.colour", "has no parameter 'colour'"),
    ("search.stacks.choices", [[6, 5, 4, 3, 2, 1], "6/5/x"], "search.stacks.choices[1]", "rejects '6/5/x'"),
    ("search.voting", {"low": 1, "high": 2}, "search.voting", "use choices"),
    ("objective.0.goal", "maximise", "objective[0].goal", "minimize, maximize"),
    ("objective.0.target", 0.5, "objective[0]", "exactly one of goal"),
    ("objective.0.aggregate", "median", "objective[0].aggregate", "aggregates: value, mean"),
    ("constraint.0.range", [50, 30], "constraint[0].range", "low <= high"),
    ("constraint.0.name", "balance", "constraint[0].name", "used twice"),
    ("budget.games", KeyError, "budget.games", "missing (required)"),
    ("budget.first_rung", 120, "budget.first_rung", "multiple of chunk_size (50)"),
    ("budget.games_per_candidate", 20000, "budget.games_per_candidate", "more than the whole budget"),
    ("budget.racing", "fast", "budget.racing", "allowed: interval, halving, off"),
    ("lineups", {"a": {"seats": ["random"]}, "b": {"seats": ["random"]}}, "lineups", "exactly one line-up"),
    ("lineups", {"a": {"seats": [{"bot": "wizard"}]}}, "lineups.a.seats[0].bot", "unknown bot kind 'wizard'"),
    ("confirm", {"seed": 0}, "confirm.seed", "must differ from the search's seed"),
    ("sampler", {"kind": "tpe"}, None, None),
    ("confirm", {"references": {"flat": {"chart": [1, 2, 3, 4, 5, 6]}}}, None, None),
    ("confirm", {"references": {"flat": {"players": 3}}}, "confirm.references.flat.players", "not a searched rule"),
    ("confirm", {"references": {"flat": {"park_size": 40}}}, "confirm.references.flat", "park_size"),
    ("confirm", {"references": {"best-1": {"park_size": 3}}}, "confirm.references.best-1", "choose another"),
])
def test_bad_specs_name_their_key(path, value, key, fragment):
    data = with_changes(path, value)
    if key is None:
        parse_tune_spec(data)  # valid
        return
    with pytest.raises(SpecError) as info:
        parse_tune_spec(data)
    assert info.value.key == key, str(info.value)
    if fragment:
        assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_halving_and_tpe_need_one_objective():
    data = copy.deepcopy(GOOD)
    data["objective"].append({"name": "b", "table": "t", "column": "c", "goal": "minimize"})
    data["budget"]["racing"] = "halving"
    with pytest.raises(SpecError, match="budget.racing"):
        parse_tune_spec(data)
    data["budget"]["racing"] = "interval"
    data["sampler"] = {"kind": "tpe"}
    with pytest.raises(SpecError, match="sampler.kind"):
        parse_tune_spec(data)


def test_cli_budget_replaces_the_spec_budget(tmp_path, capsys):
    path = tmp_path / "ok.toml"
    path.write_text('game = "trustme_pinocchio"\n[lineups.r]\nseats = ["random"]\n[search]\n'
                    'park_size = { low = 3, high = 5 }\n[[objective]]\nname = "x"\ntable = "game_length"\n'
                    'column = "turns_mean"\ngoal = "maximize"\n[budget]\ngames = 1000\ngames_per_candidate = 200\n',
                    encoding="utf-8")
    assert main([str(path), "--check", "--budget", "5000", "--out", str(tmp_path / "o")]) == 0
    assert "budget 5000 games" in capsys.readouterr().out
    assert main([str(path), "--check", "--budget", "100"]) == 2
    assert capsys.readouterr().err.startswith("error: --budget: must be at least")


def test_cli_prints_one_line_and_exits_2(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('game = "trustme_pinocchio"\n[search]\npark_size = { low = 3, high = 5 }\n'
                    '[[objective]]\nname = "x"\ntable = "ludii_metrics"\ncolumn = "value"\ngoal = "maximise"\n'
                    '[budget]\ngames = 1000\n', encoding="utf-8")
    assert main([str(path), "--check"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: objective[0].goal")


# --------------------------------------------------------------------------------------------------- search space


@pytest.mark.parametrize("order", ["non_decreasing", "increasing", "non_increasing", "decreasing"])
def test_generated_lists_keep_their_order_and_bounds(order):
    p = OrderedList("chart", 5, 1, 9, order, max_step=4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        first = int(rng.integers(p.low, p._first_high() + 1))
        steps = [int(s) for s in rng.integers(p.min_step, p.top_step + 1, size=4)]
        values = p.build(first, steps)
        assert len(values) == 5 and all(1 <= v <= 9 for v in values)
        rising = values[::-1] if p.reversed else values
        diffs = np.diff(rising)
        assert (diffs >= (1 if p.strict else 0)).all()
        # Every list the space proposes encodes back to parameters that propose it again.
        encoded = p.encode(values)
        assert encoded is not None
        assert p.build(encoded["chart.first"], [encoded[f"chart.step{i}"] for i in range(1, 5)]) == values


def test_lists_outside_the_space_do_not_encode():
    p = OrderedList("chart", 3, 1, 9, "increasing", max_step=2)
    assert p.encode([1, 3, 5]) is not None
    assert p.encode([1, 4, 5]) is None      # a step of 3 > max_step
    assert p.encode([1, 1, 2]) is None      # not strictly increasing
    assert p.encode([1, 2]) is None         # wrong length


# -------------------------------------------------------------------------------------------------------- measures


def test_aggregates_bound_their_intervals():
    x, lo, hi = np.array([0.30, 0.25, 0.20]), np.array([0.26, 0.21, 0.16]), np.array([0.34, 0.29, 0.24])
    assert aggregate("max", x, lo, hi, True) == Figure(0.30, 0.26, 0.34, 3)
    spread = aggregate("spread", x, lo, hi, True)
    assert spread.value == pytest.approx(0.10) and spread.low == pytest.approx(0.02) and \
        spread.high == pytest.approx(0.18)
    dev = aggregate("max_abs", x - 0.25, lo - 0.25, hi - 0.25, True)
    assert dev.value == pytest.approx(0.05) and dev.low == pytest.approx(0.01) and dev.high == pytest.approx(0.09)
    per_game = aggregate("mean", np.array([1.0, 2.0, 3.0]), np.full(3, np.nan), np.full(3, np.nan), False)
    assert per_game.value == 2.0 and per_game.low < 2.0 < per_game.high
    with pytest.raises(ValueError, match="exactly one row"):
        aggregate("value", x, lo, hi, True)


def test_losses_and_violations_carry_intervals():
    m = Measure("m", "t", "c")
    fig = Figure(0.30, 0.28, 0.36)
    assert Objective(m, goal="maximize").loss(fig)[:3] == (-0.30, -0.36, -0.28)
    near = Objective(m, target=0.33).loss(fig)
    assert near.value == pytest.approx(0.03) and near.low == 0.0 and near.high == pytest.approx(0.05)
    inside = Objective(m, range=(0.25, 0.40)).loss(fig)
    assert inside[:3] == (0.0, 0.0, 0.0)
    viol = Constraint(m, at_most=0.29).violation(fig)
    assert viol.value == pytest.approx(0.01) and viol.low == 0.0 and viol.high == pytest.approx(0.07)
    assert math.isnan(Objective(m, target=0).loss(Figure(1.0, math.nan, math.nan)).low)


def _results() -> ResultSet:
    res = ResultSet(manifest={})
    res.add(Table("game_length", pd.DataFrame({"variant": ["v00"], "turns_mean": [40.0], "turns_low": [39.0],
                                               "turns_high": [41.0]}), "t", "d"))
    res.add(Table("ludii_metrics", pd.DataFrame({"variant": ["v00", "v00"], "metric": ["Balance", "AdvantageP1"],
                                                 "value": [0.9, 0.3], "low": [0.8, 0.25], "high": [0.95, 0.35]}),
                  "t", "d"))
    return res


def test_measures_are_checked_against_a_results_set():
    res = _results()
    assert check_measure("objective[0]", Measure("a", "game_length", "turns_mean"), res, "g") == \
        ("turns_low", "turns_high")
    assert check_measure("objective[0]", Measure("a", "ludii_metrics", "value", {"metric": "Balance"}), res, "g") == \
        ("low", "high")
    cases = [
        (Measure("a", "game_lenght", "turns_mean"), "objective[0].table", "did you mean 'game_length'"),
        (Measure("a", "game_length", "turns"), "objective[0].column", "no column 'turns'; did you mean"),
        (Measure("a", "ludii_metrics", "value", {"metric": "Balanse"}), "objective[0].where.metric",
         "values: AdvantageP1, Balance"),
        (Measure("a", "ludii_metrics", "value"), "objective[0].aggregate", "exactly one row"),
        (Measure("a", "ludii_metrics", "metric", {"metric": "Balance"}), "objective[0].column", "not a number"),
    ]
    for measure, key, fragment in cases:
        with pytest.raises(SpecError) as info:
            check_measure("objective[0]", measure, res, "g")
        assert info.value.key == key and fragment in str(info.value), str(info.value)
