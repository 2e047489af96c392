"""MCCFR in compiled code on the compiled tree: draw for draw the same as the pyspiel-API solver, convergence to the
exact solvers' equilibrium value, determinism, checkpoints and ``cfr.solve``."""

import functools

import numpy as np
import pytest

import cfr
from cfr import (
    CompiledSamplingSolver,
    SamplingSolver,
    TreeSolver,
    compile_game,
    load_checkpoint,
    save_checkpoint,
)
from cfr.evaluate import expected_values, exploitability, nash_conv


@functools.cache
def compiled(name):
    return compile_game(name)


def tables_as_slots(cg, solver: SamplingSolver):
    """The pyspiel-API solver's dict tables as slot arrays of ``cg`` (zero where never visited)."""
    index = cg.infoset_index()
    regrets = np.zeros(cg.num_slots)
    sums = np.zeros(cg.num_slots)
    for key, values in solver.regrets.items():
        lo = cg.infoset_slot_start[index[key]]
        regrets[lo : lo + values.size] = values
        sums[lo : lo + values.size] = solver.strategy_sum[key]
    return regrets, sums


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "kuhn_poker(players=3)"])
@pytest.mark.parametrize("method", ["external", "outcome"])
def test_step_by_step_identical_to_the_pyspiel_solver(name, method):
    cg = compiled(name)
    reference = SamplingSolver(name, method, 21)
    ours = CompiledSamplingSolver(cg, method, 21)
    for chunk in (1, 1, 5, 40):
        reference.iterate(chunk)
        ours.iterate(chunk)
        regrets, sums = tables_as_slots(cg, reference)
        assert np.array_equal(ours.regrets, regrets)
        assert np.array_equal(ours.strategy_sum, sums)
    # Both consumed the same random numbers.
    assert reference.rng.bit_generator.state == ours.rng.bit_generator.state
    assert ours.iteration == reference.iteration == 47


@pytest.mark.parametrize("method,iterations,threshold", [("external", 20000, 0.3), ("outcome", 100000, 0.55)])
def test_leduc_exploitability_falls(method, iterations, threshold):
    cg = compiled("leduc_poker")
    solver = CompiledSamplingSolver(cg, method, 4)
    solver.iterate(iterations // 20)
    early = exploitability(cg, solver.average_policy())
    solver.iterate(iterations - solver.iteration)
    late = exploitability(cg, solver.average_policy())
    assert late < threshold < exploitability(cg, cg.uniform_policy())
    assert late < 0.7 * early


def test_kuhn_value_agrees_with_the_exact_solvers():
    cg = compiled("kuhn_poker")
    exact = TreeSolver(cg, "cfr+")
    exact.iterate(2000)
    exact_value = expected_values(cg, exact.average_policy())[0]
    assert exact_value == pytest.approx(-1 / 18, abs=1e-4)
    solver = CompiledSamplingSolver(cg, "external", 9)
    solver.iterate(200_000)
    avg = solver.average_policy()
    assert expected_values(cg, avg)[0] == pytest.approx(exact_value, abs=1e-3)
    assert exploitability(cg, avg) < 5e-3


def test_three_player_nash_conv_falls():
    cg = compiled("kuhn_poker(players=3)")
    solver = CompiledSamplingSolver(cg, "external", 2)
    solver.iterate(500)
    early = nash_conv(cg, solver.average_policy())
    solver.iterate(50_000)
    assert nash_conv(cg, solver.average_policy()) < 0.5 * early


@pytest.mark.parametrize("method", ["external", "outcome"])
def test_same_seed_same_tables(method):
    cg = compiled("leduc_poker")
    a = CompiledSamplingSolver(cg, method, np.random.default_rng(11))
    b = CompiledSamplingSolver(cg, method, np.random.default_rng(11))
    c = CompiledSamplingSolver(cg, method, np.random.default_rng(12))
    for solver in (a, b, c):
        solver.iterate(500)
    assert np.array_equal(a.regrets, b.regrets) and np.array_equal(a.strategy_sum, b.strategy_sum)
    assert not np.array_equal(a.regrets, c.regrets)
    # Chunked iterations draw the same numbers as one call.
    d = CompiledSamplingSolver(cg, method, np.random.default_rng(11))
    d.iterate(123)
    d.iterate(377)
    assert np.array_equal(a.strategy_sum, d.strategy_sum)


@pytest.mark.parametrize("method", ["external", "outcome"])
def test_checkpoint_resume_is_identical(tmp_path, method):
    cg = compiled("leduc_poker")
    straight = CompiledSamplingSolver(cg, method, 3, exploration=0.4)
    straight.iterate(600)
    first = CompiledSamplingSolver(cg, method, 3, exploration=0.4)
    first.iterate(250)
    path = save_checkpoint(first, tmp_path / "mccfr.npz")
    resumed = load_checkpoint(path, cg)
    assert isinstance(resumed, CompiledSamplingSolver) and resumed.exploration == 0.4
    resumed.iterate(350)
    assert resumed.iteration == 600
    assert np.array_equal(resumed.average_policy(), straight.average_policy())
    assert np.array_equal(resumed.current_policy(), straight.current_policy())
    with pytest.raises(ValueError, match="written for leduc_poker"):
        load_checkpoint(path, compiled("kuhn_poker"))


def test_solve_runs_the_compiled_sampler_and_resumes(tmp_path):
    result = cfr.solve("leduc_poker", algorithm="es-mccfr", iterations=20000, eval_every=2000, seed=5)
    assert isinstance(result.solver, CompiledSamplingSolver)
    curve = result.curve["exploitability"]
    assert curve.iloc[-1] < 0.5 * curve.iloc[0]
    path = tmp_path / "es.npz"
    cfr.solve("leduc_poker", algorithm="es-mccfr", iterations=8000, eval_every=2000, seed=5, checkpoint=path)
    resumed = cfr.solve("leduc_poker", algorithm="es-mccfr", iterations=20000, eval_every=2000, resume=path)
    assert np.array_equal(resumed.average, result.average)
    # Too large to compile: the pyspiel-API sampler runs instead, without evaluation.
    big = cfr.solve("leduc_poker", algorithm="os-mccfr", iterations=10, eval_every=10, max_histories=100)
    assert isinstance(big.solver, SamplingSolver) and big.compiled is None


def test_bad_arguments_are_named():
    cg = compiled("kuhn_poker")
    with pytest.raises(ValueError, match="compiled='kuhn_poker' is not allowed"):
        CompiledSamplingSolver("kuhn_poker")
    with pytest.raises(ValueError, match="method='inner' is not allowed"):
        CompiledSamplingSolver(cg, "inner")
    with pytest.raises(ValueError, match="exploration=1.5"):
        CompiledSamplingSolver(cg, "outcome", 0, exploration=1.5)
    with pytest.raises(ValueError, match="iterations=-2"):
        CompiledSamplingSolver(cg).iterate(-2)
