"""Lock-step proof that the Liar kernel is the engine: replay kernel games through the pyspiel game.

Used by ``tests/games/test_liar_kernel.py`` and by ``benchmarks/kernels_liar.py --verify N``. At every step of each
game the pyspiel state and a :class:`~trustme_analysis.games.liar.kernel.kernel.KernelState` fed the same action must agree on the current player, on
the legal actions (at a chance node: the outcomes with their probabilities) and on what each seat knows of the others'
hands and its own burned cards (what the heuristic reads); at the end on the returns and on every record field
(``records.records`` of the engine's terminal state against the kernel's columnar records, types included).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel.kernel import Kernel, KernelState
from trustme_analysis.games.liar.kernel.records import KernelRecords
from trustme_analysis.games.liar.analysis.records import records


class Mismatch(AssertionError):
    """The kernel and the engine disagree; the message says where."""


def _typed(rows: list[dict]) -> list[list[tuple]]:
    return [[(key, type(value).__name__, value) for key, value in row.items()] for row in rows]


def knowledge(state: pyspiel.State) -> list[list[int]]:
    """What each seat knows (the engine's ``known``, ``revealed``, ``burned_by``, ``claims_burned``), each flat."""
    t = state._table

    def flat(rows) -> list[int]:
        return [x for row in rows for x in row]

    return [flat(row for viewer in t.known for row in viewer), flat(t.revealed), flat(t.burned_by),
            flat(t.claims_burned)]


def kernel_knowledge(mirror: KernelState) -> list[list[int]]:
    """The same blocks of a kernel state."""
    cfg, S = mirror.kernel.cfg, mirror.array
    n, values = int(cfg[layout.N]), int(cfg[layout.V])
    out = []
    for offset, size in ((layout.O_KNOWN, n * n * values), (layout.O_REVEALED, n * values), (layout.O_BURNBY, n * values),
                         (layout.O_CLAIMBURN, n * values)):
        out.append(S[cfg[offset]: cfg[offset] + size].tolist())
    return out


def replay(game: pyspiel.Game, kernel: Kernel, recs: KernelRecords, g: int) -> int:
    """Replay game ``g`` of ``recs`` (played with ``histories=True``) through ``game``; return its length in steps.

    Raises:
        Mismatch: at the first difference, naming the seed, the step and both sides.
    """
    seed = int(recs.seeds[g])
    state = game.new_initial_state()
    mirror = kernel.new_state()
    history = recs.history(g)
    for step, action in enumerate(history):
        player = state.current_player()
        if mirror.current_player() != player:
            raise Mismatch(f"seed {seed} step {step}: player {mirror.current_player()} (kernel) vs {player} (engine)")
        if state.is_chance_node():
            ours, theirs = mirror.chance_outcomes(), state.chance_outcomes()
        else:
            ours, theirs = mirror.legal_actions(), state.legal_actions()
        if ours != theirs:
            raise Mismatch(f"seed {seed} step {step} (player {player}): kernel {ours[:20]}... engine {theirs[:20]}...")
        legal = [a for a, _ in theirs] if player == pyspiel.PlayerId.CHANCE else theirs
        if action not in legal:
            raise Mismatch(f"seed {seed} step {step}: the kernel played {action}, not legal in the engine")
        state.apply_action(action)
        mirror.apply_action(action)
        if knowledge(state) != kernel_knowledge(mirror):
            raise Mismatch(f"seed {seed} step {step}: what the seats know differs (kernel {kernel_knowledge(mirror)} "
                           f"engine {knowledge(state)})")
    if not state.is_terminal() or not mirror.is_terminal():
        raise Mismatch(f"seed {seed}: history ends before the game does (engine terminal: {state.is_terminal()})")
    returns = state.returns()
    if mirror.returns() != returns or recs.returns[g].tolist() != returns:
        raise Mismatch(f"seed {seed}: returns {recs.returns[g].tolist()} / {mirror.returns()} vs engine {returns}")
    ours_rows, their_rows = recs.to_rows(range(g, g + 1)), records(game, state)
    if _typed(ours_rows) != _typed(their_rows):
        diff = [
            (p, key, ours_rows[p].get(key), their_rows[p].get(key))
            for p in range(len(their_rows))
            for key in their_rows[p]
            if ours_rows[p].get(key) != their_rows[p][key] or type(ours_rows[p].get(key)) is not type(their_rows[p][key])
        ]
        raise Mismatch(f"seed {seed}: records differ (seat, field, kernel, engine): {diff[:10]}")
    return len(history)


def verify(game: pyspiel.Game, seeds: np.ndarray, kernel: Kernel | None = None) -> tuple[int, int]:
    """Play one kernel game per seed and replay each through ``game``; return ``(games, steps)`` checked."""
    kernel = kernel or Kernel(game)
    recs = kernel.play_random(np.asarray(seeds, dtype=np.uint64), histories=True)
    steps = sum(replay(game, kernel, recs, g) for g in range(recs.games))
    return recs.games, steps
