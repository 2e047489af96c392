"""Sampling solvers through the pyspiel API: thresholds with fixed seeds, determinism, checkpoints."""

import functools

import numpy as np
import pytest

from cfr import SamplingSolver, compile_game, load_checkpoint, save_checkpoint
from cfr.evaluate import exploitability
from cfr.policy_io import from_dict


@functools.lru_cache(maxsize=None)
def compiled(name):
    return compile_game(name)


def expl(solver, name):
    cg = compiled(name)
    return exploitability(cg, from_dict(cg, solver.average_policy()))


# (game, method, seed, iterations, threshold): uniform play is 0.458 on Kuhn and 2.37 on Leduc.
CASES = [
    ("kuhn_poker", "external", 7, 4000, 0.03),
    ("kuhn_poker", "outcome", 7, 4000, 0.08),
    ("leduc_poker", "external", 7, 1000, 1.4),
    ("leduc_poker", "outcome", 7, 4000, 1.8),
]


@pytest.mark.parametrize("game,method,seed,iterations,threshold", CASES)
def test_exploitability_falls_below_threshold(game, method, seed, iterations, threshold):
    solver = SamplingSolver(game, method, seed)
    solver.iterate(iterations // 10)
    early = expl(solver, game)
    solver.iterate(iterations - solver.iteration)
    late = expl(solver, game)
    assert late < threshold
    assert late < early


@pytest.mark.parametrize("method", ["external", "outcome"])
def test_same_seed_same_tables(method):
    a = SamplingSolver("kuhn_poker", method, np.random.default_rng(11))
    b = SamplingSolver("kuhn_poker", method, np.random.default_rng(11))
    a.iterate(300)
    b.iterate(300)
    assert a.average_policy() == b.average_policy()
    c = SamplingSolver("kuhn_poker", method, np.random.default_rng(12))
    c.iterate(300)
    assert c.average_policy() != a.average_policy()


def test_checkpoint_resume_is_identical(tmp_path):
    straight = SamplingSolver("leduc_poker", "external", 3)
    straight.iterate(60)
    first = SamplingSolver("leduc_poker", "external", 3)
    first.iterate(25)
    path = save_checkpoint(first, tmp_path / "es.ckpt")
    resumed = load_checkpoint(path)
    resumed.iterate(35)
    assert resumed.iteration == 60
    assert resumed.average_policy() == straight.average_policy()
    assert resumed.current_policy() == straight.current_policy()


def test_python_game_runs():
    solver = SamplingSolver("python_kuhn_poker", "external", 5)
    solver.iterate(1000)
    assert expl(solver, "python_kuhn_poker") < 0.1


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="method='inner' is not allowed"):
        SamplingSolver("kuhn_poker", "inner")
    with pytest.raises(ValueError, match="exploration=0"):
        SamplingSolver("kuhn_poker", "outcome", 0, exploration=0)
    with pytest.raises(ValueError, match="rng='x'"):
        SamplingSolver("kuhn_poker", "outcome", "x")
