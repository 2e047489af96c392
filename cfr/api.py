"""``cfr.solve``: one call from a game to a policy and its convergence curve."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyspiel

from cfr import evaluate, policy_io
from cfr.checkpoint import load_checkpoint, save_checkpoint
from cfr.compile import (
    DEFAULT_MAX_HISTORIES,
    CompiledGame,
    TreeTooLargeError,
    compile_game,
)
from cfr.gameload import load_game
from cfr.mccfr import SamplingSolver
from cfr.sampling import CompiledSamplingSolver
from cfr.solvers import ALGORITHMS, TreeSolver, canonical_algorithm

if TYPE_CHECKING:
    # OpenSpiel's policy module imports all its Python games (about 0.2 s at every process start: sweep workers,
    # command lines), so it is imported only where a TabularPolicy is built.
    from open_spiel.python import policy as policy_lib

#: Sampling algorithms accepted by :func:`solve` and the MCCFR method each runs.
SAMPLING = {"es-mccfr": "external", "os-mccfr": "outcome"}


def algorithm_names() -> list[str]:
    """Every algorithm name :func:`solve` accepts."""
    return list(ALGORITHMS) + list(SAMPLING)


@dataclass
class SolveResult:
    """What :func:`solve` returns; unpacks as ``policy, curve = cfr.solve(...)``.

    Attributes:
        curve: one row per evaluation: ``iteration``, ``seconds`` (solver time so far, evaluations excluded) and
            ``exploitability`` (two-player constant-sum games) or ``nash_conv`` (otherwise).
        solver: the solver, ready to continue with ``solver.iterate(...)``.
        compiled: the compiled tree (``None`` when a sampling solver ran on a tree too large to compile).
        average: the average policy as a slot array of ``compiled`` (``None`` without a compiled tree).
        metric: ``"exploitability"`` or ``"nash_conv"``.
        stop_reason: ``"iterations"``, ``"time_limit"`` or ``"target"``.
    """

    curve: pd.DataFrame
    solver: object
    compiled: CompiledGame | None
    average: np.ndarray | None
    metric: str
    stop_reason: str
    _policy: policy_lib.TabularPolicy | None = field(default=None, repr=False)

    @property
    def policy(self) -> policy_lib.TabularPolicy:
        """The average policy as an OpenSpiel ``TabularPolicy`` (built on first use)."""
        if self._policy is None:
            if self.compiled is not None:
                self._policy = policy_io.to_tabular_policy(self.compiled, self.average)
            else:
                from open_spiel.python import policy as policy_lib  # here, not at the top: see the imports

                table = self.solver.average_policy()
                tab = policy_lib.TabularPolicy(self.solver.game)
                for key, entries in table.items():
                    row = tab.policy_for_key(key)
                    row[:] = 0.0
                    for action, prob in entries:
                        row[action] = prob
                self._policy = tab
        return self._policy

    def __iter__(self):
        yield self.policy
        yield self.curve


def _positive(name, value, kind=float, allow_none=True):
    if value is None and allow_none:
        return None
    ok = not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))
    if kind is int:
        ok = ok and float(value).is_integer()
    if not ok or not value > 0 or not math.isfinite(value):
        what = "a positive integer" if kind is int else "a positive number"
        raise ValueError(f"{name}={value!r} is not allowed; allowed: {what}")
    return kind(value)


def solve(
    game: str | pyspiel.Game | CompiledGame,
    algorithm: str = "cfr+",
    iterations: int | None = None,
    time_limit: float | None = None,
    target_exploitability: float | None = None,
    eval_every: int | None = None,
    *,
    seed: int | np.random.Generator = 0,
    max_histories: int = DEFAULT_MAX_HISTORIES,
    alternating: bool | None = None,
    alpha: float = 1.5,
    beta: float = 0.0,
    gamma: float = 2.0,
    averaging_exponent: float = 2.0,
    exploration: float = 0.6,
    checkpoint: str | Path | None = None,
    resume: str | Path | None = None,
) -> SolveResult:
    """Solve a game with one of the CFR family and record the convergence curve.

    The run stops at the first of: ``iterations`` reached, ``time_limit`` seconds of wall time spent (compile and
    evaluations included), the evaluated exploitability (NashConv for games that are not two-player constant-sum)
    at or below ``target_exploitability``; the time limit and the target are checked after every ``eval_every``
    iterations. With none of the three given, 1000 iterations are run.

    Args:
        game: a game string, a pyspiel game, or an already compiled tree.
        algorithm: ``cfr``, ``cfr+``, ``linear``, ``dcfr``, ``pcfr+`` (full tree) or ``es-mccfr``, ``os-mccfr``
            (sampling: compiled on the tree when it fits under ``max_histories``, through the pyspiel API
            otherwise).
        iterations: total number of iterations (a resumed solver counts the ones already done).
        time_limit: wall-clock budget in seconds.
        target_exploitability: stop once the evaluated metric is at or below this.
        eval_every: evaluate every this many iterations (default 10 for full-tree, 1000 for sampling solvers).
        seed: seed or generator of the sampling solvers (full-tree solvers are deterministic).
        max_histories: refuse to compile a larger tree (sampling solvers then run without evaluation).
        alternating: override the algorithm's update scheme (full-tree solvers).
        alpha: DCFR positive-regret exponent.
        beta: DCFR negative-regret exponent.
        gamma: DCFR averaging exponent.
        averaging_exponent: PCFR+ averaging exponent.
        exploration: outcome sampling's exploration probability.
        checkpoint: write the solver state here at every evaluation and at the end.
        resume: continue from this checkpoint instead of starting afresh.

    Returns:
        A :class:`SolveResult`; ``policy, curve = solve(...)`` also works.
    """
    started = time.perf_counter()
    key = str(algorithm).lower()
    sampling = key in SAMPLING
    if not sampling:
        try:
            key = canonical_algorithm(algorithm)
        except ValueError:
            raise ValueError(
                f"algorithm={algorithm!r} is not allowed; allowed: {', '.join(algorithm_names())}"
            ) from None
    iterations = _positive("iterations", iterations, int)
    time_limit = _positive("time_limit", time_limit)
    if target_exploitability is not None:
        if isinstance(target_exploitability, bool) or not isinstance(target_exploitability, (int, float)) or not (
            target_exploitability >= 0
        ):
            raise ValueError(f"target_exploitability={target_exploitability!r} is not allowed; allowed: a number >= 0")
    eval_every = _positive("eval_every", eval_every, int) or (1000 if sampling else 10)
    if iterations is None and time_limit is None and target_exploitability is None:
        iterations = 1000

    compiled: CompiledGame | None
    if isinstance(game, CompiledGame):
        compiled, pygame = game, game.game
    else:
        pygame = load_game(game) if isinstance(game, str) else game
        try:
            compiled = compile_game(pygame, max_histories=max_histories)
        except TreeTooLargeError:
            if not sampling:
                raise
            compiled = None
    if compiled is None and target_exploitability is not None:
        raise ValueError("target_exploitability needs an evaluated tree, but the tree is larger than max_histories")

    if resume is not None:
        solver = load_checkpoint(resume, compiled)
        if isinstance(solver, SamplingSolver) and str(solver.game) != str(pygame):  # compiled is None: not checked yet
            raise ValueError(f"checkpoint {str(resume)!r} was written for {solver.game}, not for {pygame}")
        kind_ok = isinstance(solver, (SamplingSolver, CompiledSamplingSolver)) == sampling
        if not kind_ok or (not sampling and solver.config.algorithm != key) or (
            sampling and solver.method != SAMPLING[key]
        ):
            raise ValueError(f"checkpoint {str(resume)!r} holds a different algorithm than {algorithm!r}")
    elif sampling and compiled is not None:
        solver = CompiledSamplingSolver(compiled, SAMPLING[key], seed, exploration)
    elif sampling:
        solver = SamplingSolver(pygame, SAMPLING[key], seed, exploration)
    else:
        solver = TreeSolver(compiled, key, alternating, alpha, beta, gamma, averaging_exponent)

    metric = "nash_conv"
    if compiled is not None and compiled.num_players == 2:
        try:
            evaluate._utility_sum(compiled)
            metric = "exploitability"
        except ValueError:
            metric = "nash_conv"

    def average() -> np.ndarray | None:
        if compiled is None:
            return None
        if isinstance(solver, SamplingSolver):
            return policy_io.from_dict(compiled, solver.average_policy())
        return solver.average_policy()

    def measure(avg):
        if avg is None:
            return float("nan")
        if metric == "exploitability":
            return evaluate.exploitability(compiled, avg)
        return evaluate.nash_conv(compiled, avg)

    rows = []
    stop = "iterations"
    while True:
        todo = eval_every
        if iterations is not None:
            todo = min(todo, iterations - solver.iteration)
        if todo > 0:
            solver.iterate(todo)
        avg = average()
        value = measure(avg)
        rows.append({"iteration": solver.iteration, "seconds": solver.seconds, metric: value})
        if checkpoint is not None:
            save_checkpoint(solver, checkpoint)
        if target_exploitability is not None and value <= target_exploitability:
            stop = "target"
            break
        if iterations is not None and solver.iteration >= iterations:
            stop = "iterations"
            break
        if time_limit is not None and time.perf_counter() - started >= time_limit:
            stop = "time_limit"
            break
    curve = pd.DataFrame(rows, columns=["iteration", "seconds", metric])
    return SolveResult(curve=curve, solver=solver, compiled=compiled, average=avg, metric=metric, stop_reason=stop)
