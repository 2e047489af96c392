"""A compiled (numba) simulation kernel for ``trustme_liar``: whole random games, rollouts and a lock-step state.

The pyspiel engine (:mod:`trustme_analysis.games.liar.game`) is the specification; this kernel re-implements its rules
over integer arrays and plays games in compiled loops (:mod:`.kernel_core`). Action ids, player ids, chance outcome
ids and probabilities are the engine's, and ``tests/games/test_liar_kernel.py`` replays kernel games through the
engine step by step (current player, legal actions or chance outcomes with probabilities, returns and every record
field), as ``benchmarks/kernels_liar.py --verify N`` does for more games.

Usage::

    kernel = Kernel(pyspiel.load_game("trustme_liar(players=4)"))
    recs = kernel.play_random(np.arange(10_000, dtype=np.uint64))   # one game per seed
    rows = recs.to_rows()   # == records.records(game, state) of each game, seat by seat
    state = kernel.new_state()   # before the deal, like game.new_initial_state()

Randomness: one SplitMix64 stream per game seeded by the game's seed (see :mod:`.kernel_core`), so a game depends only
on its seed, not on the batch it is played in. The first compile takes a while; compiled code is cached on disk
(``__pycache__``), so later processes load it in well under a second or two.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyspiel

from trustme_analysis.games.liar import kernel_core as core
from trustme_analysis.games.liar.game import LiarGame
from trustme_analysis.games.liar.kernel_records import KernelRecords, build_records

#: Variants the kernel benchmark plays (label -> game string): the 52-card deck at 2, 4 and 6 players, and reduced ones.
BENCHMARK_VARIANTS: dict[str, str] = {
    "Liar 2p": "trustme_liar(players=2)",
    "Liar 4p": "trustme_liar(players=4)",
    "Liar 6p": "trustme_liar(players=6)",
    "Liar 4p Trust Me": "trustme_liar(players=4,mode=trustme)",
    "Liar 4p 32 cards": "trustme_liar(players=4,values=8)",
    "Liar tiny": "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6)",
}

#: Seat kinds the kernel plays.
SEAT_KINDS = {"random": core.RANDOM}


def kernel_supports(game: pyspiel.Game, seat_kinds: Sequence[str] = ("random",)) -> str | None:
    """None if the kernel plays ``game`` with these seat kinds; otherwise the reason it does not.

    Every parameter value the engine accepts is supported; only uniform random seats are played so far.
    """
    if not isinstance(game, LiarGame):
        return f"the Liar kernel plays only trustme_liar games, not {game}"
    for kind in seat_kinds:
        if kind not in SEAT_KINDS:
            return f"seat kind {kind!r}: the Liar kernel plays only {sorted(SEAT_KINDS)} seats so far"
    return None


class KernelState:
    """A position held as the kernel's integer array, with the pyspiel calls the lock-step tests use."""

    __slots__ = ("kernel", "array", "_history")

    def __init__(self, kernel: Kernel, array: np.ndarray, history: list[int]):
        self.kernel = kernel
        self.array = array
        self._history = history

    def current_player(self) -> int:
        """The seat to act; ``pyspiel.PlayerId.CHANCE`` (-1) during the deal, ``TERMINAL`` (-4) at the end."""
        return int(core.current_player(self.kernel.cfg, self.array))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.array[core.S_END] != core.END_NONE)

    def is_chance_node(self) -> bool:
        """Whether the next action deals a value."""
        return self.current_player() == core.CHANCE

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, ascending; the chance outcome ids at a chance node; [] at the end."""
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return core.legal_actions(self.kernel.cfg, self.kernel.tab, self.array).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(split id, probability)`` of the next value's deal, as the engine lists them."""
        if not self.is_chance_node():
            return []
        ids, probs = core.chance_outcomes(self.kernel.cfg, self.kernel.tab, self.array)
        return list(zip(ids.tolist(), probs.tolist()))

    def apply_action(self, action: int) -> None:
        """Apply a legal action (ValueError if it is not legal here)."""
        if not core.apply_checked(self.kernel.cfg, self.kernel.tab, self.array, int(action)):
            raise ValueError(f"action {action} is not legal at this position (player {self.current_player()})")
        self._history.append(int(action))

    def returns(self) -> list[float]:
        """The utility in force at the end (rank, points or difference), as the engine's ``returns()``; zeros before."""
        return core.state_results(self.kernel.cfg, self.array)[2].tolist()

    def history(self) -> list[int]:
        """Every action applied since the start of the game (chance included)."""
        return list(self._history)

    def clone(self) -> KernelState:
        """An independent copy."""
        return KernelState(self.kernel, self.array.copy(), list(self._history))


class Kernel:
    """The compiled rules of one loaded ``trustme_liar`` variant.

    Args:
        game: a loaded ``trustme_liar`` game; its parsed :class:`~trustme_analysis.games.liar.config.LiarConfig` is
            compiled into fixed-size integer arrays (the parameter string is not read again).
    """

    def __init__(self, game: pyspiel.Game):
        reason = kernel_supports(game)
        if reason:
            raise ValueError(reason)
        self.game = game
        self.config = game.config
        self.cfg = core.build_config(self.config)
        self.tab = core.build_tables(self.cfg)
        self._kinds = np.zeros(self.config.players, dtype=np.int64)  # every seat RANDOM

    def new_state(self, seed: int | None = None) -> KernelState:
        """A position before the deal (``seed=None``), or after the deal drawn from ``seed``'s stream, which is the
        deal :meth:`play_random` gives the game of that seed."""
        array = np.empty(self.cfg[core.SIZE], dtype=np.int64)
        core.init_state(self.cfg, array)
        history: list[int] = []
        if seed is not None:
            history = core.deal_only(self.cfg, self.tab, array, np.uint64(seed)).tolist()
        return KernelState(self, array, history)

    def play_random(self, seeds: np.ndarray, histories: bool = False) -> KernelRecords:
        """One game per seed with uniform-random seats, chance by its probabilities; every seat's record fields.

        Args:
            seeds: uint64 seeds, one game each (a game depends only on its seed).
            histories: also keep each game's full action sequence (deal included).
        """
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        raw = core.play_random(self.cfg, self.tab, seeds, self._kinds, histories)
        if raw[-1]:
            raise RuntimeError("a seat to act had no legal action (the engine would list none either)")
        return build_records(self.config, seeds, raw, histories)

    def rollouts(self, state: KernelState, n: int, seed: int) -> np.ndarray:
        """Mean returns (one per seat) of ``n`` uniform-random playouts from ``state`` (one stream from ``seed``)."""
        means, error = core.rollouts(self.cfg, self.tab, state.array, int(n), np.uint64(seed), self._kinds)
        if error:
            raise RuntimeError("a seat to act had no legal action (the engine would list none either)")
        return means

    def sample_actions(self, state: KernelState, count: int, seed: int) -> np.ndarray:
        """``count`` independent draws of the next action at ``state``: a chance outcome by its probability, or a
        uniform legal action (drawn without listing the legal actions)."""
        if state.is_terminal():
            raise ValueError("the game is over: no action to draw")
        return core.sample_actions(self.cfg, self.tab, state.array, int(count), np.uint64(seed), self._kinds)
