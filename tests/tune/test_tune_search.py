"""The search on a stubbed evaluator with planted optima: it finds them, races, keeps to the budget and constraints."""

from __future__ import annotations

import copy
import threading

import pandas as pd
import pytest

from tune_stub import StubEvaluator
from trustme_analysis.tune import tables
from trustme_analysis.tune.run import run_tuning
from trustme_analysis.tune.spec import parse_tune_spec

TARGET_CHART = "1/2/4/7/11/16"

BASE = {
    "title": "planted optimum",
    "game": "trustme_pinocchio",
    "seed": 5,
    "params": {"players": 4},
    "lineups": {"random": {"seats": [{"bot": "random"}]}},
    "search": {
        "park_size": {"low": 2, "high": 8},
        "stacks_to_end": {"low": 2, "high": 6},
        "chart": {"choices": [[1, 3, 6, 10, 15, 21], [1, 2, 4, 7, 11, 16], [1, 2, 3, 4, 5, 6], [2, 4, 6, 8, 10, 12]]},
        "voting": {"choices": ["simultaneous", "sequential"]},
    },
    "objective": [{"name": "score", "table": "stub", "column": "score", "goal": "minimize"}],
    "budget": {"games": 30000, "games_per_candidate": 400, "first_rung": 50, "chunk_size": 50, "max_trials": 150},
}


def planted_score(r) -> float:
    """Lowest (0) at park_size 6, stacks_to_end 3, the 1/2/4/7/11/16 chart and sequential voting; next best 0.5."""
    return (abs(r["park_size"] - 6) + 0.5 * abs(r["stacks_to_end"] - 3) + (0 if r["chart"] == TARGET_CHART else 1.5)
            + (0 if r["voting"] == "sequential" else 0.8))


def spec_of(**changes):
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return parse_tune_spec(data, name="planted")


def run(spec, evaluator, tmp_path):
    result = run_tuning(spec, out=tmp_path / "out", evaluator=evaluator, confirm=False, report=False, quiet=True)
    return result, tables.load(tmp_path / "out")


def test_tpe_finds_the_planted_optimum_and_races(tmp_path):
    spec = spec_of()
    stub = StubEvaluator({"score": planted_score}, seed=1)
    result, res = run(spec, stub, tmp_path)
    trials = res["tune_trials"]
    complete = trials[trials["state"] == "complete"]
    best = complete.sort_values("obj0_loss").iloc[0]
    assert (best["rule_park_size"], best["rule_stacks_to_end"], best["rule_chart"], best["rule_voting"]) == \
        ("6", "3", TARGET_CHART, "sequential")
    # The rulebook's rule set went first.
    first = trials.sort_values("trial").iloc[0]
    assert bool(first["rulebook"]) and first["rule_chart"] == "1/3/6/10/15/21"
    # The race stopped candidates early: they got fewer games than a full candidate.
    stopped = trials[trials["state"] == "stopped by the race"]
    assert stopped["candidate"].nunique() >= 10
    assert (stopped["games"] < 400).all()
    assert trials["played"].sum() < 0.5 * 400 * trials["candidate"].nunique()
    # The budget holds: games spent never exceed it, and the stub played each game once.
    assert result.search.games_spent <= spec.budget.games
    assert stub.games_spent() == result.search.games_spent == int(trials["played"].sum())
    starts = [(cid, start) for cid, start, _ in stub.played_log]
    assert len(starts) == len(set(starts))


def test_nsga2_front_holds_the_planted_trade_off(tmp_path):
    objectives = [
        {"name": "short", "table": "stub", "column": "a", "goal": "minimize"},
        {"name": "rich", "table": "stub", "column": "b", "goal": "minimize"},
    ]
    search = {"park_size": BASE["search"]["park_size"], "chart": BASE["search"]["chart"]}
    spec = spec_of(objective=objectives, search=search, sampler={"population": 8},
                   budget={"games": 40000, "games_per_candidate": 200, "first_rung": 50, "chunk_size": 50,
                           "max_trials": 120})
    assert spec.sampler_kind == "nsga2"
    truth = {
        "short": lambda r: float(r["park_size"]),
        # Trades off against park_size; any chart but the target one is worse on it and no better on "short".
        "rich": lambda r: 8.0 - r["park_size"] + (0 if r["chart"] == TARGET_CHART else 3.0),
    }
    _, res = run(spec, StubEvaluator(truth, seed=2, noise=0.3, own_noise=0.1), tmp_path)
    trials = res["tune_trials"]
    front = trials[trials["pareto"].astype(bool)].drop_duplicates("candidate")
    # The true front: the target chart with every park size (2..8), each trading "short" for "rich".
    planted = front[front["rule_chart"] == TARGET_CHART]
    assert planted["rule_park_size"].nunique() >= 5
    # Another chart is on the estimated front only by noise: tied on "short" with the target chart's candidate of
    # the same park size (the same value plus a small noise of its own), and far worse on "rich".
    by_park = planted.set_index("rule_park_size")
    for r in front[front["rule_chart"] != TARGET_CHART].itertuples():
        twin = by_park.loc[r.rule_park_size]
        assert abs(r.obj0 - twin["obj0"]) < 0.05 and r.obj1 > twin["obj1"] + 2


def test_constraint_moves_the_optimum_and_stops_candidates_that_miss_it(tmp_path):
    spec = spec_of(objective=[{"name": "park", "table": "stub", "column": "p", "target": 7}],
                   constraint=[{"name": "length", "table": "stub", "column": "l", "at_most": 55}],
                   search={"park_size": BASE["search"]["park_size"], "voting": BASE["search"]["voting"]})
    truth = {"park": lambda r: float(r["park_size"]), "length": lambda r: 10.0 * r["park_size"]}
    _, res = run(spec, StubEvaluator(truth, seed=3, noise=0.2, own_noise=0.1), tmp_path)
    trials = res["tune_trials"]
    feasible = trials[(trials["state"] == "complete") & trials["feasible"].astype(bool)]
    assert feasible.sort_values("obj0_loss").iloc[0]["rule_park_size"] == "5"
    missed = trials[trials["note"].str.contains("misses constraint", na=False)]
    assert len(missed) and (missed["rule_park_size"].astype(int) > 5).all()


def test_invalid_rule_sets_fail_and_the_search_goes_on(tmp_path):
    spec = spec_of(budget={"games": 6000, "games_per_candidate": 200, "first_rung": 50, "chunk_size": 50,
                           "max_trials": 30})
    stub = StubEvaluator({"score": planted_score}, seed=4, invalid=lambda r: r["park_size"] == 2)
    _, res = run(spec, stub, tmp_path)
    trials = res["tune_trials"]
    failed = trials[trials["state"] == "failed"]
    assert len(failed) and failed["note"].str.startswith("stub rejects").all()
    assert (failed["rule_park_size"] == "2").all()
    assert (trials["state"] == "complete").sum() >= 3


def test_grid_tries_every_candidate_once_and_halving_prunes(tmp_path):
    search = {"park_size": {"low": 4, "high": 7}, "voting": {"choices": ["simultaneous", "sequential"]}}
    spec = spec_of(search=search, sampler={"kind": "grid"},
                   budget={"games": 100000, "games_per_candidate": 400, "first_rung": 100, "chunk_size": 50,
                           "racing": "halving", "reduction": 2})
    truth = {"score": lambda r: abs(r["park_size"] - 6) + (0 if r["voting"] == "sequential" else 0.8)}
    result, res = run(spec, StubEvaluator(truth, seed=6), tmp_path)
    trials = res["tune_trials"]
    assert len(trials) == 8 and trials["rules"].nunique() == 8
    assert "grid" in result.search.stopped
    assert (trials["state"] == "stopped by the race").sum() >= 1
    assert trials["note"].str.contains("successive halving").any()


def test_tables_are_consistent(tmp_path):
    spec = spec_of(budget={"games": 4000, "games_per_candidate": 200, "first_rung": 50, "chunk_size": 50,
                           "max_trials": 30})
    _, res = run(spec, StubEvaluator({"score": planted_score}, seed=7), tmp_path)
    trials, looks, progress = res["tune_trials"], res["tune_looks"], res["tune_progress"]
    assert list(res["tune_measures"]["key"]) == ["obj0"]
    # Every look belongs to a trial, and a trial's last look is its figure.
    last = looks.sort_values(["trial", "rung"]).groupby("trial").last()
    merged = trials.set_index("trial").join(last.add_suffix("_look"), how="inner")
    pd.testing.assert_series_equal(merged["obj0_loss"], merged["obj0_loss_look"], check_names=False)
    # Progress: games spent grow to the total, the best loss only falls.
    assert progress["games_spent"].is_monotonic_increasing
    assert progress["games_spent"].iloc[-1] == trials["played"].sum()
    best = progress["obj0_best"].dropna()
    assert best.is_monotonic_decreasing


@pytest.mark.parametrize("racing", ["interval", "off"])
def test_budget_is_a_ceiling(tmp_path, racing):
    spec = spec_of(budget={"games": 2000, "games_per_candidate": 400, "first_rung": 100, "chunk_size": 50,
                           "racing": racing})
    result, _ = run(spec, StubEvaluator({"score": planted_score}, seed=8), tmp_path)
    assert result.search.games_spent <= 2000
    assert "budget" in result.search.stopped


def test_racing_a_grid_in_step_picks_the_grid_best_with_fewer_games(tmp_path):
    search = {"park_size": {"low": 2, "high": 8}, "chart": BASE["search"]["chart"]}
    truth = {"score": lambda r: 0.1 * abs(r["park_size"] - 5) + (0 if r["chart"] == TARGET_CHART else 0.3)}
    picks, games = {}, {}
    for racing in ("off", "interval"):
        spec = spec_of(search=search, sampler={"kind": "grid"},
                       budget={"games": 28 * 800, "games_per_candidate": 800, "first_rung": 50, "chunk_size": 50,
                               "racing": racing})
        result, res = run(spec, StubEvaluator(truth, seed=9), tmp_path / racing)
        trials = res["tune_trials"]
        assert len(trials) == 28 and trials["rules"].nunique() == 28
        full = trials[trials["state"] == "complete"]
        assert (full["games"] == 800).all()
        picks[racing] = full.sort_values("obj0_loss").iloc[0]["rules"]
        games[racing] = result.search.games_spent
    assert picks["off"] == picks["interval"] == f"park_size=5, chart={TARGET_CHART}"
    assert games["off"] == 28 * 800
    assert games["interval"] * 3 <= games["off"]


def test_successive_halving_prunes_a_search(tmp_path):
    spec = spec_of(sampler={"kind": "random"},
                   budget={"games": 20000, "games_per_candidate": 400, "first_rung": 50, "chunk_size": 50,
                           "racing": "halving", "max_trials": 30})
    _, res = run(spec, StubEvaluator({"score": planted_score}, seed=10), tmp_path)
    trials = res["tune_trials"]
    halved = trials[trials["note"].str.contains("successive halving", na=False)]
    assert len(halved) >= 5 and (halved["games"] < 400).all()
    assert (trials["state"] == "complete").sum() >= 1


class HalfwayStub(StubEvaluator):
    """Every candidate but the rulebook's stores half its games, then waits until the search has counted the games
    spent: so a trial finishes while another has a chunk stored and its play not yet returned."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.counted = threading.Event()
        self.rulebook: str | None = None

    def play_to(self, cand, games):
        if self.rulebook is None:
            self.rulebook = cand.id
        if cand.id != self.rulebook and self.stored.get(cand.id, 0) < games // 2:
            self.stored[cand.id] = games // 2
            assert self.counted.wait(10), "the search never counted the games while this trial played"
            self.stored[cand.id] = 0  # the stub's play_to adds the whole rung below
        return super().play_to(cand, games)

    def games_spent(self, exclude=()):
        spent = super().games_spent(exclude)
        if self.rulebook is not None and self.stored.get(self.rulebook, 0):
            self.counted.set()
        return spent


def test_the_budget_starts_the_same_trials_however_far_the_running_ones_have_got(tmp_path):
    # Two trials at a time, a budget of exactly three full candidates, racing off: the rulebook's trial finishes
    # while the second is halfway. A third trial must start, as it does on one worker: the halfway games belong to
    # a candidate the budget already holds in full (counting them twice stopped the search after two trials).
    budget = {"games": 1200, "games_per_candidate": 400, "chunk_size": 50, "racing": "off", "max_trials": 10,
              "parallel": 2}
    spec = spec_of(budget=budget, sampler={"kind": "random"})
    stub = HalfwayStub({"score": planted_score}, seed=1)
    result, res = run(spec, stub, tmp_path)
    assert stub.counted.is_set()
    assert len(res["tune_trials"]) == 3
    assert result.search.games_spent <= 1200
    assert "cannot pay for another full candidate" in result.search.stopped
