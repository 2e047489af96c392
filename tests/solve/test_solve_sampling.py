"""``[[solve]]`` with the sampling solvers: exact evaluation on a compiled tree, a labelled lower bound without it,
and the refusals (a full-tree solver on a tree too large, refused early from an estimate)."""

from __future__ import annotations

import time

import numpy as np
import pyspiel
import pytest

import cfr
from tests.solve.conftest import INVESTMENT_TINY, PINOCCHIO_TINY
from trustme_analysis.solve import storage
from trustme_analysis.solve.bounds import lower_bound
from trustme_analysis.solve.run import run_solve
from trustme_analysis.solve.spec import parse_solve
from trustme_analysis.specfile import SpecError

#: Far above the ``max_histories`` the tests give it (about 3.4 million histories).
LIAR_LARGE = "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=10)"


def _stored(out, name):
    data = storage.load_policy(storage.solution_dir(out, name))
    return {k: list(v.items()) for k, v in data["policy"].items()}


def _exact(game_string, table):
    """Exploitability (or NashConv) and seat values of a stored policy, on the compiled tree."""
    cg = cfr.compile_game(game_string)
    policy = cfr.from_dict(cg, table)
    ev = cfr.expected_values(cg, policy)
    try:
        return cfr.exploitability(cg, policy), ev
    except ValueError:
        return cfr.nash_conv(cg, policy), ev


def test_sampling_on_a_compiled_tree_is_evaluated_exactly(tmp_path):
    spec = parse_solve({"name": "es", "game": PINOCCHIO_TINY, "algorithm": "es-mccfr", "iterations": 1500,
                        "eval_every": 500, "seed": 3})
    result = run_solve(spec, tmp_path, quiet=True)
    assert result["evaluation"] == "exact" and result["exact"] is False
    assert result["metric"] == "exploitability"
    exact, _ = _exact(PINOCCHIO_TINY, _stored(tmp_path, "es"))
    assert result["value"] == pytest.approx(exact, abs=1e-12)
    assert result["value"] < 0.05
    assert list(storage.load_solution(storage.solution_dir(tmp_path, "es"))["curve"]["iteration"]) == [500, 1000, 1500]
    # The strategy statistics read the compiled tree, whatever solver ran on it.
    assert (storage.solution_dir(tmp_path, "es") / storage.DECISIONS).is_file()


def test_sampling_beyond_max_histories_runs_without_the_tree_and_reports_a_lower_bound(tmp_path):
    # 107 histories, max_histories 50: the tree is not compiled, es-mccfr runs through the game's API.
    section = {"name": "few", "game": PINOCCHIO_TINY, "algorithm": "es-mccfr", "iterations": 3, "max_histories": 50,
               "bound_iterations": 200, "bound_games": 3000, "target": 0.01,
               "lineups": {"heuristic": {"seats": ["heuristic"]}}}
    result = run_solve(parse_solve(section), tmp_path, quiet=True)
    assert result["evaluation"] == "lower_bound" and result["metric"] == "exploitability_lower_bound"
    assert "exceeds max_histories=50" in result["not_compiled"]
    assert result["target_reached"] is None and result["exploitation_skipped"][0]["lineup"] == "heuristic"
    quality = result["quality"]
    exact, seat_values = _exact(PINOCCHIO_TINY, _stored(tmp_path, "few"))
    # Three iterations leave the policy far from equilibrium; the search finds most of what a best response gains,
    # and never (beyond sampling error) more than it.
    assert exact > 0.1
    assert quality["bound_95"] == result["value"] > 0.5 * exact
    assert quality["estimate"] <= exact + 4 * quality["standard_error"]
    assert np.allclose(result["seat_values"], seat_values, atol=4 * max(result["seat_values_se"]))
    folder = storage.solution_dir(tmp_path, "few")
    assert not (folder / storage.DECISIONS).exists() and (folder / storage.CURVE).is_file()
    # The same seed gives the same solve.
    again = run_solve(parse_solve(section), tmp_path / "again", quiet=True)
    assert again["quality"]["estimate"] == quality["estimate"]
    assert _stored(tmp_path / "again", "few") == _stored(tmp_path, "few")


def test_lower_bound_stays_below_the_exact_figure_of_a_converged_policy():
    cg = cfr.compile_game(PINOCCHIO_TINY)
    solver = cfr.TreeSolver(cg, "dcfr")
    solver.iterate(200)
    policy = cfr.to_dict(cg, solver.average_policy())
    exact = cfr.exploitability(cg, solver.average_policy())
    bound = lower_bound(cg.game, policy, search_iterations=100, games=2000, seed=1)
    assert exact < 1e-3
    assert bound.estimate <= exact + 4 * bound.standard_error
    assert bound.bound <= exact + 4 * bound.standard_error


def test_lower_bound_of_a_general_sum_game_bounds_nash_conv():
    # Wealth (not the difference) makes the investing round general-sum: NashConv, with the policy's own values
    # estimated from games too.
    game_string = INVESTMENT_TINY.replace("utility=wealth_diff", "utility=wealth")
    cg = cfr.compile_game(game_string)
    uniform = cg.uniform_policy()
    exact = cfr.nash_conv(cg, uniform)
    bound = lower_bound(cg.game, cfr.to_dict(cg, uniform), search_iterations=300, games=3000, seed=2)
    assert bound.metric == "nash_conv"
    assert exact > 0.5
    assert bound.bound > 0.3 * exact
    assert bound.estimate <= exact + 4 * bound.standard_error
    assert all(not np.isnan(s.policy_value) for s in bound.seats)


def test_full_tree_solver_on_a_tree_too_large_is_refused_early_from_an_estimate(tmp_path):
    spec = parse_solve({"name": "big", "game": LIAR_LARGE, "algorithm": "dcfr", "iterations": 10,
                        "max_histories": 100_000})
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"estimated at about .* histories.*max_histories=100000.*es-mccfr"):
        run_solve(spec, tmp_path, quiet=True)
    # Refused from random walks, not after compiling 100,000 histories (about 10 s of the pyspiel walk); generous
    # bound, the machine is shared.
    assert time.perf_counter() - start < 8
    assert not storage.solution_dir(tmp_path, "big").exists()


def test_sampling_without_the_tree_needs_iterations_or_a_time_limit(tmp_path):
    spec = parse_solve({"name": "t", "game": PINOCCHIO_TINY, "algorithm": "os-mccfr", "target": 0.01,
                        "max_histories": 50})
    with pytest.raises(ValueError, match="exploitability cannot be evaluated.*give iterations or time_limit"):
        run_solve(spec, tmp_path, quiet=True)


@pytest.mark.parametrize("key, value, words", [
    ("bound_iterations", 0, "integer > 0"),
    ("bound_games", 1, "integer > 1"),
    ("bound_games", 2.5, "an integer"),
])
def test_bound_keys_are_checked(key, value, words):
    with pytest.raises(SpecError) as info:
        parse_solve({"game": PINOCCHIO_TINY, "iterations": 5, key: value})
    assert info.value.key == f"solve[0].{key}" and words in str(info.value)


def test_pages_of_a_solve_without_the_tree_say_what_the_figure_is(tmp_path):
    from trustme_analysis.report.solve_pages import build_solve_report, solution_figures

    section = {"name": "lb", "game": PINOCCHIO_TINY, "algorithm": "es-mccfr", "iterations": 20, "max_histories": 50,
               "bound_iterations": 20, "bound_games": 200}
    run_solve(parse_solve(section), tmp_path, quiet=True)
    folder = storage.solution_dir(tmp_path, "lb")
    texts = [t.get_text() for fig, _ in solution_figures(folder) for t in fig.texts]
    joined = " ".join(texts)
    assert "lower bound" in joined and "not compiled" in joined
    assert build_solve_report(tmp_path).read_bytes().startswith(b"%PDF")
    assert pyspiel.load_game(storage.load_policy(folder)["game"]).num_players() == 2
