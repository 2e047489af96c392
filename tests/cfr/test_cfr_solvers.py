"""The CFR family on the compiled tree: Kuhn to full precision, ordering on Leduc and liars_dice, 3-player Kuhn,
and step-by-step equality with OpenSpiel's reference implementations."""

import functools

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import discounted_cfr as os_dcfr

from cfr import TreeSolver, compile_game
from cfr.evaluate import expected_values, exploitability, nash_conv
from cfr.policy_io import from_tabular_policy, to_dict, to_tabular_policy
from cfr.solvers import canonical_algorithm


@functools.lru_cache(maxsize=None)
def compiled(name):
    return compile_game(name)


# Iterations each solver needs on Kuhn for exploitability < 1e-4 (measured; vanilla CFR with Zinkevich's simultaneous
# updates converges far more slowly, see test_vanilla_simultaneous_cfr_converges_on_kuhn).
KUHN_ITERATIONS = {
    ("cfr", True): 20000,
    ("cfr+", None): 1000,
    ("linear", None): 1000,
    ("dcfr", None): 2000,
    ("pcfr+", None): 300,
}


@pytest.mark.parametrize("algorithm,alternating", list(KUHN_ITERATIONS))
def test_kuhn_value_and_exploitability(algorithm, alternating):
    cg = compiled("kuhn_poker")
    solver = TreeSolver(cg, algorithm, alternating=alternating)
    solver.iterate(KUHN_ITERATIONS[(algorithm, alternating)])
    avg = solver.average_policy()
    assert abs(expected_values(cg, avg)[0] - (-1 / 18)) < 1e-3
    assert exploitability(cg, avg) < 1e-4


def test_vanilla_simultaneous_cfr_converges_on_kuhn():
    cg = compiled("kuhn_poker")
    solver = TreeSolver(cg, "cfr")
    assert solver.config.alternating is False
    solver.iterate(500)
    first = exploitability(cg, solver.average_policy())
    solver.iterate(1500)
    second = exploitability(cg, solver.average_policy())
    assert second < first < 0.02
    assert abs(expected_values(cg, solver.average_policy())[0] + 1 / 18) < 1e-3


@pytest.mark.parametrize(
    "ours,reference",
    [
        (("cfr", True), os_cfr.CFRSolver),
        (("cfr+", None), os_cfr.CFRPlusSolver),
        (("linear", None), os_dcfr.LCFRSolver),
        (("dcfr", None), os_dcfr.DCFRSolver),
    ],
)
def test_iterates_equal_openspiel_reference(ours, reference):
    cg = compiled("kuhn_poker")
    solver = TreeSolver(cg, ours[0], alternating=ours[1])
    ref = reference(cg.game)
    for _ in range(25):
        ref.evaluate_and_update_policy()
    solver.iterate(25)
    assert np.abs(from_tabular_policy(cg, ref.average_policy()) - solver.average_policy()).max() < 1e-11
    assert np.abs(from_tabular_policy(cg, ref.current_policy()) - solver.current_policy()).max() < 1e-11


def test_leduc_ordering_and_pyspiel_agreement():
    cg = compiled("leduc_poker")
    expl = {}
    policies = {}
    for algorithm in ("cfr", "cfr+", "dcfr", "pcfr+", "linear"):
        solver = TreeSolver(cg, algorithm)
        solver.iterate(100)
        policies[algorithm] = solver.average_policy()
        expl[algorithm] = exploitability(cg, policies[algorithm])
    for algorithm in ("cfr+", "dcfr", "pcfr+"):
        assert expl[algorithm] < 0.5 * expl["cfr"]
    # The exported TabularPolicy gives OpenSpiel the same exploitability.
    tabular = to_tabular_policy(cg, policies["dcfr"])
    pyspiel_policy = policy_lib.python_policy_to_pyspiel_policy(tabular)
    assert pyspiel.exploitability(cg.game, pyspiel_policy) == pytest.approx(expl["dcfr"], abs=1e-9)


def test_liars_dice_ordering_and_pyspiel_agreement():
    cg = compiled("liars_dice")
    expl = {}
    policies = {}
    for algorithm in ("cfr", "cfr+", "dcfr", "pcfr+"):
        solver = TreeSolver(cg, algorithm)
        solver.iterate(8)
        policies[algorithm] = solver.average_policy()
        expl[algorithm] = exploitability(cg, policies[algorithm])
    for algorithm in ("cfr+", "dcfr", "pcfr+"):
        assert expl[algorithm] < 0.75 * expl["cfr"]
    assert pyspiel.exploitability(cg.game, to_dict(cg, policies["cfr+"])) == pytest.approx(expl["cfr+"], abs=1e-9)


def test_three_player_kuhn_nash_conv_falls_and_matches_pyspiel():
    cg = compiled("kuhn_poker(players=3)")
    solver = TreeSolver(cg, "cfr+")
    curve = []
    for _ in range(4):
        solver.iterate(50)
        avg = solver.average_policy()
        curve.append(nash_conv(cg, avg))
        assert curve[-1] == pytest.approx(pyspiel.nash_conv(cg.game, to_dict(cg, avg)), abs=1e-9)
    assert curve[0] > curve[-1]
    assert curve[-1] < 0.01
    assert nash_conv(cg, cg.uniform_policy()) > 10 * curve[0]


def test_python_game_solves_like_the_cpp_game():
    py, cpp = compiled("python_kuhn_poker"), compiled("kuhn_poker")
    a, b = TreeSolver(py, "cfr+"), TreeSolver(cpp, "cfr+")
    a.iterate(200)
    b.iterate(200)
    assert exploitability(py, a.average_policy()) == pytest.approx(exploitability(cpp, b.average_policy()), abs=1e-12)


def test_policies_are_distributions():
    cg = compiled("leduc_poker")
    solver = TreeSolver(cg, "pcfr+")
    solver.iterate(5)
    for pol in (solver.current_policy(), solver.average_policy()):
        assert np.all(pol >= 0)
        sums = np.add.reduceat(pol, cg.infoset_slot_start[:-1])
        assert np.allclose(sums, 1.0)


def test_bad_algorithm_and_parameters_are_named():
    with pytest.raises(ValueError, match="algorithm='cfr-' is not allowed; allowed: cfr, cfr\\+"):
        canonical_algorithm("cfr-")
    with pytest.raises(ValueError, match="alpha=nan"):
        TreeSolver(compiled("kuhn_poker"), "dcfr", alpha=float("nan"))
    with pytest.raises(ValueError, match="iterations=-1"):
        TreeSolver(compiled("kuhn_poker")).iterate(-1)
