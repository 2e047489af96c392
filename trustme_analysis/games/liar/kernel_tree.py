"""Compile a ``trustme_liar`` variant's game tree from the compiled kernel: the kernel producer of :mod:`cfr.compile`.

The pyspiel producer (:func:`cfr.compile_game`) walks the tree through the engine's Python API; this one enumerates
the same histories in compiled code (:func:`.kernel_core.enumerate_tree`) and hands the same depth-first preorder
record to :func:`cfr.build.from_preorder`, so the result is the same :class:`~cfr.tree.CompiledGame`, array for array
(``tests/games/test_liar_kernel_tree.py`` checks it on the reduced variants of the reports).

Information sets come out of the kernel as ids (a trie of what each player saw, see the kernel module); their
information-state strings are built by the engine, on request, by replaying one history of each information set
(:class:`EngineKeys`), so the strings are the engine's own.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pyspiel

from cfr.build import from_preorder
from cfr.compile import _MAX_SHARED_UTILITIES
from cfr.tree import DEFAULT_MAX_HISTORIES, CompiledGame, TreeTooLargeError
from trustme_analysis.games.liar import kernel_core as core
from trustme_analysis.games.liar.game import LiarGame


class EngineKeys(Sequence):
    """The information-state strings of a kernel-compiled tree, each built by the engine on first request.

    Holds the action path of the first history of every information set (one row each, -1 after its end, see
    :func:`.kernel_core.first_paths`); a key replays that path on a fresh engine state, so the strings are the
    engine's own.
    """

    def __init__(self, game: pyspiel.Game, paths: np.ndarray):
        self._game, self._paths = game, paths
        self._cache: dict[int, str] = {}

    def __len__(self) -> int:
        return int(self._paths.shape[0])

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = int(i)
        if i < 0:
            i += len(self)
        key = self._cache.get(i)
        if key is None:
            state = self._game.new_initial_state()
            for a in self._paths[i].tolist():
                if a < 0:
                    break
                state.apply_action(a)
            key = state.information_state_string(state.current_player())
            self._cache[i] = key
        return key


def compile_tree(game: pyspiel.Game, max_histories: int = DEFAULT_MAX_HISTORIES) -> CompiledGame:
    """The variant's :class:`~cfr.tree.CompiledGame`, enumerated by the kernel (same result as
    :func:`cfr.compile_game`).

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        TypeError: ``game`` is not a ``trustme_liar`` game.
        ValueError: ``max_histories`` is not an integer >= 1.
    """
    if not isinstance(game, LiarGame):
        raise TypeError(f"the Liar kernel compiles only trustme_liar games, not {game}")
    if not isinstance(max_histories, int) or isinstance(max_histories, bool) or max_histories < 1:
        raise ValueError(f"max_histories={max_histories!r} is not allowed; allowed: an integer >= 1")
    t0 = time.perf_counter()
    cfg = core.build_config(game.rules)
    tab = core.build_tables(cfg)
    splits = np.asarray(game.deal_table.splits, dtype=np.int64).reshape(-1, game.rules.players)
    code, depth, player, infoset, action, prob, rets, first = core.enumerate_tree(cfg, tab, splits, max_histories)
    if code:
        raise TreeTooLargeError(
            f"{game}: the tree exceeds max_histories={max_histories}; raise max_histories if memory allows, or use "
            "the sampling solvers (algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
        )
    utilities, utility_index = _share_utilities(player, rets)
    keys = EngineKeys(game, core.first_paths(depth, action, first, game.max_game_length()))
    record = {"depth": depth, "player": player, "infoset": infoset, "action": action, "chance_prob": prob,
              "utility_index": utility_index}
    return from_preorder(game, game.num_players(), record, utilities, keys, started=t0)


def _share_utilities(player: np.ndarray, rets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct terminal utility vectors in order of first appearance, shared as the pyspiel producer shares them,
    and each history's row (-1 off the terminals)."""
    rows, index = core.share_rows(rets, _MAX_SHARED_UTILITIES)
    utility_index = np.full(player.shape[0], -1, dtype=np.int32)
    utility_index[player == -1] = index
    return rows, utility_index
