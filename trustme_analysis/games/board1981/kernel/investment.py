"""The compiled kernel of ``trustme_1981_investment``: a tree producer only (the registry's kernel entry names
:func:`compile_tree`, with no kernel class).

It compiles the investing round's game tree in compiled code (:mod:`.investment_tree`) for the solve layer
(:func:`compile_tree`, the same :class:`~cfr.tree.CompiledGame` as :func:`cfr.compile_game`, array for array); it plays
no whole games, so it has no ``Kernel`` class and sweeps play the round through the pyspiel API.

Example:
    >>> import cfr, pyspiel
    >>> from trustme_analysis.games.board1981.engine.investment import PRESETS
    >>> tree = compile_tree(pyspiel.load_game(PRESETS["tiny"]), 10**6)
    >>> tree.num_nodes == cfr.compile_game(PRESETS["tiny"]).num_nodes
    True
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from cfr.tree import DEFAULT_MAX_HISTORIES, CompiledGame
from cfr.trie import check_max_histories, finish_tree
from trustme_analysis.games.board1981.kernel import investment_tree as T
from trustme_analysis.games.board1981.engine.investing import UTILITIES
from trustme_analysis.games.board1981.engine.investment import SHORT_NAME


def rules_array(game: pyspiel.Game) -> np.ndarray:
    """The rules array ``R`` of :mod:`.investment_tree`, read off the loaded game's parsed parameters."""
    lots = game.investing.lots
    R = np.zeros(T.R_LOTS + len(lots), np.int64)
    R[T.R_N] = game.n
    R[T.R_CLAIMANT] = game.claimant
    R[T.R_MIX_TOTAL] = sum(game.payoff_mix)
    R[T.R_NUM_SEEN_CHANCE] = len(game.seen_chance)
    R[T.R_BUY_MAX] = int(game.investing.buy_max)
    R[T.R_UTILITY] = UTILITIES.index(game.utility)
    R[T.R_NUM_ACTIONS] = game.investing.num_actions
    R[T.R_NUM_LOTS] = len(lots)
    R[T.R_MIX:T.R_MIX + T.NUM_PAYOFF_KINDS] = game.payoff_mix
    for p in range(game.n):
        R[T.R_SEEN_PCT + p] = game.seen_pct[p]
        R[T.R_MONEY + p] = game.start_money[p]
        R[T.R_SHARES + p] = game.start_shares[p]
        R[T.R_ORDER + p] = game.order[p]
    for i, q in enumerate(game.seen_chance):
        R[T.R_SEEN_CHANCE + i] = q
    R[T.R_LOTS:] = lots
    return R


def compile_tree(game: pyspiel.Game, max_histories: int = DEFAULT_MAX_HISTORIES) -> CompiledGame:
    """The variant's :class:`~cfr.tree.CompiledGame`, enumerated in compiled code (the solve layer's tree producer;
    the same tree as :func:`cfr.compile_game`). Information-state strings are the engine's, built on request.

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        TypeError: ``game`` is not a ``trustme_1981_investment`` game.
        ValueError: ``max_histories`` is not an integer >= 1.
    """
    if not isinstance(game, pyspiel.Game):
        raise TypeError(f"{game!r} is not a pyspiel game")
    short = game.get_type().short_name
    if short != SHORT_NAME:
        raise TypeError(f"the investing-round kernel compiles {SHORT_NAME} trees, not {short}")
    check_max_histories(max_histories)
    t0 = time.perf_counter()
    code, *arrays = T.enumerate_tree(rules_array(game), max_histories)
    num_keys = int(arrays.pop())
    return finish_tree(game, max_histories, t0, code == 1, arrays, num_keys)
