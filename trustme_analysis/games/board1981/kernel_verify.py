"""Proof that the ``trustme_1981`` kernel plays the engine's game: replay kernel games through the engine in lock-step.

For each game the kernel played (:meth:`~trustme_analysis.games.board1981.kernel.kernel.Kernel.play_random` with its action
sequence), the engine's state and a :class:`~trustme_analysis.games.board1981.kernel.kernel.KernelState` take the same actions
from the start; before every action the current player and the legal actions (at chance nodes the outcomes with their
probabilities) must be identical, and the action the kernel took must be one of them. At the end both must be terminal
with identical returns, and the kernel's records (from the compiled loop and from the ``KernelState``) must equal
``records.records`` of the engine's terminal state.

Used by ``tests/games/test_board1981_kernel.py`` and ``benchmarks/kernels_board1981.py --verify N``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pyspiel

from trustme_analysis.games.board1981.kernel.kernel import Kernel
from trustme_analysis.games.board1981.analysis.records import records


class KernelMismatch(AssertionError):
    """The kernel and the engine differ; the message names the game, the seed, the step and both values."""


def _differ(game: pyspiel.Game, seed: int, step: int, what: str, engine, kernel) -> KernelMismatch:
    return KernelMismatch(f"{game} seed {seed} step {step}: {what} differ: engine {engine!r}, kernel {kernel!r}")


def verify_games(
    game: pyspiel.Game,
    seeds: Sequence[int] | np.ndarray,
    kernel: Kernel | None = None,
    inspect: Callable[[pyspiel.State], None] | None = None,
) -> int:
    """Play one kernel game per seed and replay each through the engine in lock-step; return the number checked.

    ``inspect`` (optional) sees each terminal engine state (e.g. to count which rules the games exercised).

    Raises:
        KernelMismatch: at the first difference (game string, seed, step, what, both values).
    """
    kernel = kernel or Kernel(game)
    seeds = np.asarray(seeds, dtype=np.uint64)
    played = kernel.play_random(seeds, histories=True)
    for g, seed in enumerate(seeds.tolist()):
        state = game.new_initial_state()
        mirror = kernel.new_state()
        for step, action in enumerate(played.histories[g].tolist()):
            if state.current_player() != mirror.current_player():
                raise _differ(game, seed, step, "current players", state.current_player(), mirror.current_player())
            if state.is_chance_node():
                engine, mine = state.chance_outcomes(), mirror.chance_outcomes()
                allowed = [a for a, _ in engine]
                what = "chance outcomes"
            else:
                engine, mine = state.legal_actions(), mirror.legal_actions()
                allowed = engine
                what = "legal actions"
            if engine != mine:
                raise _differ(game, seed, step, what, engine, mine)
            if action not in allowed:
                raise _differ(game, seed, step, "the action taken (not legal in the engine)", allowed, action)
            state.apply_action(action)
            mirror.apply_action(action)
        if not (state.is_terminal() and mirror.is_terminal()):
            raise _differ(game, seed, -1, "terminal after the history", state.is_terminal(), mirror.is_terminal())
        if state.returns() != mirror.returns() or state.returns() != played.returns[g].tolist():
            raise _differ(game, seed, -1, "returns", state.returns(), (mirror.returns(), played.returns[g].tolist()))
        expected = records(game, state)
        for source, rows in (("play_random", played.game_rows(g)), ("KernelState", mirror.records())):
            if rows != expected or [list(r) for r in rows] != [list(r) for r in expected]:
                detail = [
                    (p, key, e.get(key), k.get(key))
                    for p, (e, k) in enumerate(zip(expected, rows))
                    for key in set(e) | set(k)
                    if e.get(key) != k.get(key)
                ]
                raise _differ(game, seed, -1, f"records ({source}; seat, field, engine, kernel)", detail or rows, "")
        if inspect is not None:
            inspect(state)
    return len(seeds)
