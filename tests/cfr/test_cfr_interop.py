"""TabularPolicy export/import, checkpoints of full-tree solvers, cfr.solve and the command line."""

import functools

import numpy as np
import pandas as pd
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import exploitability as os_exploitability

import cfr
from cfr import TreeSolver, compile_game, load_checkpoint, save_checkpoint
from cfr.__main__ import main
from cfr.policy_io import from_dict, from_tabular_policy, to_dict, to_tabular_policy


@functools.lru_cache(maxsize=None)
def compiled(name):
    return compile_game(name)


def test_tabular_policy_round_trip():
    cg = compiled("leduc_poker")
    solver = TreeSolver(cg, "dcfr")
    solver.iterate(20)
    avg = solver.average_policy()
    tabular = to_tabular_policy(cg, avg)
    assert isinstance(tabular, policy_lib.TabularPolicy)
    assert np.array_equal(from_tabular_policy(cg, tabular), avg)
    assert np.array_equal(from_dict(cg, to_dict(cg, avg)), avg)
    # OpenSpiel's own (Python) evaluator sees the same policy.
    assert os_exploitability.exploitability(cg.game, tabular) == pytest.approx(cfr.exploitability(cg, avg), abs=1e-9)


def test_tabular_policy_import_reads_openspiel_values():
    cg = compiled("kuhn_poker")
    tabular = policy_lib.TabularPolicy(cg.game)
    state = cg.game.new_initial_state()
    state.apply_action(2)
    state.apply_action(0)
    tabular.policy_for_key(state.information_state_string())[:] = [0.25, 0.75]
    pol = from_tabular_policy(cg, tabular)
    index = cg.infoset_index()[state.information_state_string()]
    start = cg.infoset_slot_start[index]
    assert pol[start : start + 2].tolist() == [0.25, 0.75]


def test_from_dict_missing_key():
    cg = compiled("kuhn_poker")
    with pytest.raises(ValueError, match="missing"):
        from_dict(cg, {}, default="error")
    assert np.array_equal(from_dict(cg, {}), cg.uniform_policy())


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear", "dcfr", "pcfr+"])
def test_checkpoint_resume_is_identical(tmp_path, algorithm):
    cg = compiled("leduc_poker")
    straight = TreeSolver(cg, algorithm)
    straight.iterate(30)
    first = TreeSolver(cg, algorithm)
    first.iterate(12)
    path = save_checkpoint(first, tmp_path / f"{algorithm}.npz")
    resumed = load_checkpoint(path, cg)
    resumed.iterate(18)
    assert resumed.iteration == 30
    assert np.array_equal(resumed.average_policy(), straight.average_policy())
    assert np.array_equal(resumed.current_policy(), straight.current_policy())


def test_checkpoint_of_another_game_is_refused(tmp_path):
    solver = TreeSolver(compiled("kuhn_poker"), "cfr+")
    path = save_checkpoint(solver, tmp_path / "kuhn.npz")
    with pytest.raises(ValueError, match="written for kuhn_poker"):
        load_checkpoint(path, compiled("leduc_poker"))
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_checkpoint(tmp_path / "nothing.npz")


def test_solve_returns_policy_and_curve():
    result = cfr.solve("kuhn_poker", algorithm="cfr+", iterations=300, eval_every=100)
    policy, curve = result
    assert isinstance(policy, policy_lib.TabularPolicy)
    assert isinstance(curve, pd.DataFrame)
    assert curve.columns.tolist() == ["iteration", "seconds", "exploitability"]
    assert curve["iteration"].tolist() == [100, 200, 300]
    assert curve["exploitability"].iloc[-1] < curve["exploitability"].iloc[0]
    assert result.stop_reason == "iterations"
    assert os_exploitability.exploitability(result.compiled.game, policy) == pytest.approx(
        curve["exploitability"].iloc[-1], abs=1e-9
    )


def test_solve_stops_at_target_and_uses_nash_conv_for_three_players():
    result = cfr.solve("leduc_poker", algorithm="dcfr", target_exploitability=0.05, eval_every=5)
    assert result.stop_reason == "target"
    assert result.curve["exploitability"].iloc[-1] <= 0.05
    assert result.curve["exploitability"].iloc[:-1].min() > 0.05
    three = cfr.solve("kuhn_poker(players=3)", algorithm="cfr+", iterations=40, eval_every=20)
    assert three.metric == "nash_conv" and "nash_conv" in three.curve.columns


def test_solve_with_time_limit_and_sampling():
    result = cfr.solve("kuhn_poker", algorithm="es-mccfr", time_limit=0.01, eval_every=50, seed=2)
    assert result.stop_reason == "time_limit"
    assert result.curve["iteration"].iloc[0] == 50


def test_solve_checkpoint_and_resume(tmp_path):
    path = tmp_path / "run.npz"
    straight = cfr.solve("kuhn_poker", algorithm="pcfr+", iterations=60, eval_every=20)
    cfr.solve("kuhn_poker", algorithm="pcfr+", iterations=20, eval_every=20, checkpoint=path)
    resumed = cfr.solve("kuhn_poker", algorithm="pcfr+", iterations=60, eval_every=20, resume=path)
    assert np.array_equal(resumed.average, straight.average)
    assert resumed.curve["iteration"].tolist() == [40, 60]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"algorithm": "cfrr"}, "algorithm='cfrr' is not allowed"),
        ({"iterations": 0}, "iterations=0 is not allowed"),
        ({"time_limit": -1.0}, "time_limit=-1.0"),
        ({"eval_every": 2.5}, "eval_every=2.5"),
        ({"target_exploitability": -0.1}, "target_exploitability=-0.1"),
    ],
)
def test_solve_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        cfr.solve("kuhn_poker", **kwargs)


def test_cli_prints_curve_and_final_figures(capsys):
    assert main(["kuhn_poker", "--algorithm", "dcfr", "--iterations", "200", "--eval-every", "100"]) == 0
    out = capsys.readouterr().out
    assert "58 histories" in out
    assert "exploitability" in out and "iterations: 200" in out and "stopped by: iterations" in out
    assert "expected value per player: -0.05" in out


def test_cli_help_lists_every_flag(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for flag in ("--algorithm", "--iterations", "--time-limit", "--target", "--eval-every", "--seed",
                 "--max-histories", "--alternating", "--simultaneous", "--alpha", "--beta", "--gamma",
                 "--exploration", "--checkpoint", "--resume"):
        assert flag in out


@pytest.mark.parametrize(
    "argv,match",
    [
        (["no_such_game"], "unknown game 'no_such_game'"),
        (["kuhn_poker(players=1"], "cannot be loaded"),
        (["kuhn_poker", "--iterations", "0"], "--iterations/-n: must be an integer from 1 to 10,000,000,000, got 0"),
        (["kuhn_poker", "--algorithm", "nope"], "invalid choice: 'nope'"),
        (["kuhn_poker", "--bogus"], "unrecognized arguments: --bogus"),
        (["leduc_poker", "--max-histories", "100"], "max_histories=100"),
    ],
)
def test_cli_errors_are_one_line(capsys, argv, match):
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert match in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_python_dash_m_cfr_runs(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "cfr", "kuhn_poker", "--algorithm", "pcfr+", "-n", "40", "--eval-every", "20"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "stopped by: iterations" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "cfr", "kuhn_poker(players=1"], cwd=root, capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr
