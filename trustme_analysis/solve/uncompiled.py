"""Solve a variant whose tree is too large to compile: a sampling solver through the game's API, a lower bound.

:func:`cfr.compile_game` refuses trees above the section's ``max_histories``; the sampling solvers (``es-mccfr``,
``os-mccfr``) need no tree, so :class:`cfr.SamplingSolver` runs them through the pyspiel API instead. Without the tree
nothing is evaluated exactly: the quality figure is a *lower bound* on the exploitability (or NashConv) from
best-response search (:mod:`trustme_analysis.solve.bounds`), and the seat values are estimated by playing the policy
against itself. The statistics that read the compiled tree (decision points, strategy tables, exact best responses
against bots, simple strategies) are not computed; :data:`NOT_COMPUTED` says why, on the pages and in ``result.json``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyspiel

import cfr
from trustme_analysis.solve.bounds import (
    LowerBound,
    lower_bound,
    metric_for,
    play_games,
)
from trustme_analysis.solve.spec import SolveSpec

#: Iterations run between two points of the curve when the section sets no ``eval_every``.
DEFAULT_CHUNK = 100

#: What a solve without the compiled tree leaves out, and why (stored in ``result.json`` and shown on the pages).
NOT_COMPUTED = (
    "the tree was too large to compile, so nothing that needs every history was computed: the exact exploitability "
    "(a lower bound from best-response search stands in for it), the reach-weighted strategy tables and decision "
    "list, exact best responses against the bot line-ups and the simple-strategy check"
)


@dataclass
class UncompiledSolve:
    """What :func:`solve_uncompiled` found.

    Attributes:
        policy: the average policy, ``{information state: [(action, probability), ...]}`` over the states visited.
        curve: ``iteration``, ``seconds`` (solver time) and ``infosets`` (visited so far) per chunk of iterations.
        stop_reason: ``"iterations"`` or ``"time_limit"``.
        infosets_per_player: information states visited per player.
        bound: the lower bound on the metric.
        seat_values, seat_se: each seat's value under the policy, estimated from ``bound.games`` games.
        bound_seconds: wall seconds of the bound and the seat values.
    """

    policy: dict[str, list[tuple[int, float]]]
    curve: pd.DataFrame
    stop_reason: str
    iterations: int
    solver_seconds: float
    infosets_per_player: list[int]
    bound: LowerBound
    seat_values: list[float]
    seat_se: list[float]
    bound_seconds: float


def check_runnable(spec: SolveSpec, why: str) -> None:
    """Refuse a section that cannot run without the compiled tree (``why``: the size found or estimated)."""
    if spec.algorithm not in cfr.api.SAMPLING:
        raise ValueError(
            f"solve {spec.name!r}: {why}; {spec.algorithm} needs the whole tree compiled: choose smaller parameters, "
            f"raise max_histories, or use a sampling solver (algorithm = 'es-mccfr' or 'os-mccfr' with iterations or "
            "time_limit), which runs without the tree and reports a lower bound on the exploitability"
        )
    if spec.iterations is None and spec.time_limit is None:
        raise ValueError(
            f"solve {spec.name!r}: {why}, so the exploitability cannot be evaluated and a target cannot stop the "
            "solver: give iterations or time_limit"
        )


def solve_uncompiled(spec: SolveSpec, game: pyspiel.Game, started: float) -> UncompiledSolve:
    """Run the section's sampling solver through the pyspiel API, then bound and measure its average policy.

    Args:
        spec: the section (a sampling algorithm with ``iterations`` and/or ``time_limit``).
        game: the loaded game.
        started: ``time.perf_counter()`` at the start of the solve (the time limit counts from there).
    """
    method = cfr.api.SAMPLING[spec.algorithm]
    solver = _Solver(game, method, spec.seed)
    chunk = spec.eval_every or DEFAULT_CHUNK
    rows = []
    stop = "iterations"
    while True:
        todo = chunk if spec.iterations is None else min(chunk, spec.iterations - solver.iteration)
        if todo > 0:
            solver.iterate(todo)
        rows.append({"iteration": solver.iteration, "seconds": solver.seconds, "infosets": len(solver.legal)})
        if spec.iterations is not None and solver.iteration >= spec.iterations:
            break
        if spec.time_limit is not None and time.perf_counter() - started >= spec.time_limit:
            stop = "time_limit"
            break
    policy = solver.average_policy()
    per_player = np.bincount(list(solver.players.values()), minlength=game.num_players()).tolist()
    mark = time.perf_counter()
    bound = lower_bound(game, policy, search_iterations=spec.bound_iterations, games=spec.bound_games,
                        seed=spec.seed)
    returns = play_games(game, [policy] * game.num_players(), spec.bound_games,
                         np.random.default_rng([spec.seed, 4]))
    se = returns.std(axis=0, ddof=1) / np.sqrt(len(returns))
    return UncompiledSolve(
        policy=policy,
        curve=pd.DataFrame(rows, columns=["iteration", "seconds", "infosets"]),
        stop_reason=stop,
        iterations=solver.iteration,
        solver_seconds=solver.seconds,
        infosets_per_player=per_player,
        bound=bound,
        seat_values=[float(v) for v in returns.mean(axis=0)],
        seat_se=[float(v) for v in se],
        bound_seconds=time.perf_counter() - mark,
    )


class _Solver(cfr.SamplingSolver):
    """The pyspiel-API sampling solver, also noting whose each information state is (for the size figures)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.players: dict[str, int] = {}

    def _lookup(self, key, state):
        if key not in self.players:
            self.players[key] = state.current_player()
        return super()._lookup(key, state)


__all__ = ["NOT_COMPUTED", "UncompiledSolve", "check_runnable", "metric_for", "solve_uncompiled"]
