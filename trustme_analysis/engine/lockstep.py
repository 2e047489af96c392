"""The one lock-step harness: a kernel's games replayed through the engine, step by step, must agree in everything.

A compiled kernel (:mod:`.kernels`) is a second implementation of a game's rules; it counts as the engine only while
this harness finds no difference. :func:`lockstep` plays whole games with the kernel (one per seed, any seat kinds),
then replays each game's actions through the pyspiel engine and a :class:`~.kernels.KernelState` side by side. At
every step both must agree on the player to act, whether chance moves, the chance outcomes with their probabilities
(exactly, as floats) or the legal actions, and the action played must be legal in the engine; at the end on the
returns and on every record field (values and types; NaN equals NaN), for the batch's records and the kernel state's.
A game may add its own per-step comparison (``extra``: what each seat knows, say).

Every game's kernel tests and ``benchmarks/kernels.py --verify`` use it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.kernels import Kernel, KernelState

#: ``records(game, terminal_state) -> [row per seat]``: the game's records part.
Records = Callable[[pyspiel.Game, pyspiel.State], list[dict[str, Any]]]
#: ``extra(engine_state, kernel_state) -> None | difference``: a game's own comparison after every step.
Extra = Callable[[pyspiel.State, KernelState], str | None]


class Mismatch(AssertionError):
    """The kernel and the engine disagree; the message names the variant, the seed, the step and both sides."""


def same(a: Any, b: Any) -> bool:
    """Equal values of the same types, lists and dicts element by element, NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _row_differences(want: list[dict[str, Any]], got: list[dict[str, Any]]) -> list[tuple]:
    if len(want) != len(got):
        return [("rows", len(want), len(got))]
    out = []
    for p, (w, g) in enumerate(zip(want, got)):
        if list(w) != list(g):
            out.append((p, "fields", list(w), list(g)))
            continue
        out.extend((p, k, w[k], g[k]) for k in w if not same(w[k], g[k]))
    return out


def replay(game: pyspiel.Game, kernel: Kernel, history: Sequence[int], rows: list[dict[str, Any]], records: Records,
           seed: int | None = None, extra: Extra | None = None) -> int:
    """Replay one kernel game (its ``history`` and its records ``rows``) through the engine and a fresh kernel state
    in lock-step; return the number of steps.

    Raises:
        Mismatch: at the first difference.
    """
    state = game.new_initial_state()
    mirror = kernel.new_state()
    name = f"{game} seed {seed}" if seed is not None else str(game)

    def differ(step: int, what: str, engine: Any, compiled: Any) -> Mismatch:
        where = f"step {step}" if step >= 0 else "the end"
        return Mismatch(f"{name}, {where}: {what} differ: engine {engine!r}, kernel {compiled!r}")

    for step, action in enumerate(history):
        action = int(action)
        if state.current_player() != mirror.current_player():
            raise differ(step, "players to act", state.current_player(), mirror.current_player())
        if state.is_chance_node() != mirror.is_chance_node():
            raise differ(step, "chance nodes", state.is_chance_node(), mirror.is_chance_node())
        if state.is_chance_node():
            engine, compiled = state.chance_outcomes(), mirror.chance_outcomes()
            what, allowed = "chance outcomes", [a for a, _ in engine]
        else:
            engine, compiled = state.legal_actions(), mirror.legal_actions()
            what, allowed = "legal actions", engine
        if list(engine) != list(compiled):
            raise differ(step, what, engine, compiled)
        if action not in allowed:
            raise differ(step, "the action played (not legal in the engine)", allowed, action)
        state.apply_action(action)
        mirror.apply_action(action)
        if extra is not None:
            difference = extra(state, mirror)
            if difference is not None:
                raise Mismatch(f"{name}, step {step}: {difference}")
    if not (state.is_terminal() and mirror.is_terminal()):
        raise differ(-1, "ends of the game after the history", state.is_terminal(), mirror.is_terminal())
    if state.returns() != mirror.returns():
        raise differ(-1, "returns", state.returns(), mirror.returns())
    want = records(game, state)
    for source, got in (("records of the batch", rows), ("records of the kernel state", mirror.rows())):
        differences = _row_differences(want, got)
        if differences:
            raise differ(-1, f"{source} (seat, field, engine, kernel)", differences[:10], "")
    return len(history)


def lockstep(game: pyspiel.Game, kernel: Kernel, seeds: Sequence[int] | np.ndarray, records: Records,
             extra: Extra | None = None) -> tuple[int, int]:
    """Play one kernel game per seed (the kernel's seats) and replay each through the engine in lock-step.

    Returns:
        ``(games, steps)`` checked.

    Raises:
        Mismatch: at the first difference (variant, seed, step, what, both sides).
    """
    seeds = np.asarray(seeds, dtype=np.uint64)
    played = kernel.play(seeds, histories=True)
    rows = played.rows()
    steps = 0
    for g, seed in enumerate(seeds.tolist()):
        steps += replay(game, kernel, played.history(g), rows[g], records, seed=seed, extra=extra)
    return len(seeds), steps


__all__ = ["Extra", "Mismatch", "Records", "lockstep", "replay", "same"]
