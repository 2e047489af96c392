"""Every algorithm ``python -m cfr`` accepts (``--algorithm``'s choices, :func:`cfr.api.algorithm_names`) resumes
from its checkpoint to the same tables and exploitability as a run straight through: the full-tree solvers, the
compiled sampling solvers, and the sampling solvers through the pyspiel API (a tree over ``max_histories``)."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

import cfr
from cfr.api import SAMPLING, algorithm_names
from cfr.evaluate import exploitability
from cfr.mccfr import SamplingSolver
from cfr.policy_io import from_dict

GAME = "kuhn_poker"
# (algorithm, how it runs): every name once on the compiled tree, the sampling ones also through the pyspiel API.
CASES = [(name, "compiled") for name in algorithm_names()] + [(name, "pyspiel") for name in SAMPLING]


def _tables(solver) -> dict[str, np.ndarray]:
    """Everything a solver's future depends on, as arrays keyed by name (dict tables flattened in key order)."""
    if isinstance(solver, SamplingSolver):
        keys = sorted(solver.legal)
        return {"keys": np.asarray(keys), "regrets": np.concatenate([solver.regrets[k] for k in keys]),
                "strategy_sum": np.concatenate([solver.strategy_sum[k] for k in keys]),
                "rng": np.asarray(json.dumps(solver.rng.bit_generator.state, default=str))}
    tables = {k: np.asarray(v) for k, v in solver.state_arrays().items() if k != "seconds"}
    if hasattr(solver, "rng"):
        tables["rng"] = np.asarray(json.dumps(solver.rng.bit_generator.state, default=str))
    return tables


def _exploitability(result) -> float:
    cg = cfr.compile_game(GAME)
    avg = result.average if result.average is not None else from_dict(cg, result.solver.average_policy())
    return exploitability(cg, avg)


@pytest.mark.parametrize("algorithm, how", CASES, ids=[f"{a}-{h}" for a, h in CASES])
def test_resumed_solver_equals_one_run_straight_through(algorithm, how, tmp_path):
    sampling = algorithm in SAMPLING
    total, half, every = (400, 200, 200) if sampling else (40, 20, 20)
    kw = {"algorithm": algorithm, "eval_every": every, "seed": 3, "max_histories": 5 if how == "pyspiel" else 10**6}
    straight = cfr.solve(GAME, iterations=total, **kw)
    path = tmp_path / "run.ckpt"
    cfr.solve(GAME, iterations=half, checkpoint=path, **kw)
    assert zipfile.is_zipfile(path)  # data, not a pickle, whatever the solver
    resumed = cfr.solve(GAME, iterations=total, resume=path, **kw)
    assert type(resumed.solver) is type(straight.solver)
    assert isinstance(resumed.solver, SamplingSolver) == (how == "pyspiel")
    assert resumed.solver.iteration == straight.solver.iteration == total
    a, b = _tables(resumed.solver), _tables(straight.solver)
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    assert _exploitability(resumed) == _exploitability(straight)
    if how == "compiled":
        assert resumed.curve.iloc[-1, 2] == straight.curve.iloc[-1, 2]


@pytest.mark.parametrize("algorithm", algorithm_names())
def test_cli_resume_prints_the_same_figures_as_one_run(algorithm, tmp_path, capsys):
    from cfr.__main__ import main

    path = str(tmp_path / "run.ckpt")
    every = "100" if algorithm in SAMPLING else "10"
    base = ["kuhn_poker", "-a", algorithm, "--eval-every", every, "--seed", "4"]
    assert main([*base, "-n", str(3 * int(every))]) == 0
    straight = capsys.readouterr().out.splitlines()
    assert main([*base, "-n", every, "--checkpoint", path]) == 0
    capsys.readouterr()
    assert main([*base, "-n", str(3 * int(every)), "--resume", path]) == 0
    resumed = capsys.readouterr().out.splitlines()
    # The last two lines: the exploitability and each player's expected value, to the digits printed.
    assert straight[-2].startswith("exploitability: ") and straight[-1].startswith("expected value per player:")
    assert resumed[-2:] == straight[-2:]


def _rewrite(path, **changes):
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta.update(changes)
    np.savez(open(path, "wb"), meta=np.asarray(json.dumps(meta)), **arrays)


@pytest.mark.parametrize("changes, match", [
    ({"bit_generator": "seed"}, r"bit_generator='seed'; allowed: PCG64"),
    ({"keys": ["a"]}, r"keys, sizes and arrays do not agree"),
    ({"iteration": None}, r"damaged or not a cfr checkpoint"),
    ({"game": "leduc_poker()"}, r"was written for leduc_poker\(\), not for kuhn_poker\(\)"),
    ({"magic": "something-else"}, r"is not a cfr checkpoint"),
])
def test_a_tampered_sampling_header_is_refused_in_one_line(changes, match, tmp_path):
    solver = SamplingSolver(GAME, "outcome", 1)
    solver.iterate(20)
    path = tmp_path / "os.ckpt"
    cfr.save_checkpoint(solver, path)
    _rewrite(path, **changes)
    with pytest.raises(ValueError, match=match) as info:
        cfr.load_checkpoint(path, cfr.compile_game(GAME))
    assert len(str(info.value).splitlines()) == 1
