"""Compile a ``trustme_liar`` variant's game tree from the compiled kernel: the kernel producer of :mod:`cfr.compile`.

The pyspiel producer (:func:`cfr.compile_game`) walks the tree through the engine's Python API; this one enumerates
the same histories in compiled code (:func:`.kernel_core.enumerate_tree`) and hands the same depth-first preorder
record to :func:`cfr.build.from_preorder`, so the result is the same :class:`~cfr.tree.CompiledGame`, array for array
(``tests/games/test_liar_kernel_tree.py`` checks it on the reduced variants of the reports).

Information sets come out of the kernel as ids (a trie of what each player saw, see the kernel module); their
information-state strings are built by the engine, on request, by replaying one history of each information set
found in the finished tree (:class:`EngineKeys`), so the strings are the engine's own and the compiled tree keeps no
table of paths.

Memory: the enumerator returns its record in buffers up to twice the size needed; each is cut to size before the
finisher runs, so the finisher starts from the exact record (23 bytes per history). The compile peak is then the
enumerator's own (its trie and growing buffers, up to ~85 bytes per history, ``benchmarks/solve_scale.py``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pyspiel

from cfr.build import from_preorder, preorder_path
from cfr.compile import _MAX_SHARED_UTILITIES
from cfr.tree import DEFAULT_MAX_HISTORIES, CompiledGame, TreeTooLargeError
from trustme_analysis.games.liar import kernel_core as core
from trustme_analysis.games.liar.game import LiarGame


class EngineKeys(Sequence):
    """The information-state strings of a kernel-compiled tree, each built by the engine on first request.

    A key replays, on a fresh engine state, the actions from the root to one history of the information set (the
    first in the tree's breadth-first order), read off the tree's ``parent`` and ``edge_action`` arrays; the
    table of those histories (one int64 per information set) is built on the first request.
    """

    def __init__(self, game: pyspiel.Game, parent: np.ndarray, edge_action: np.ndarray, infoset: np.ndarray,
                 num_keys: int):
        self._game = game
        # The tree's own arrays (no copies); not the CompiledGame itself, which holds this object.
        self._parent, self._edge_action, self._infoset = parent, edge_action, infoset
        self._num_keys = int(num_keys)
        self._history: np.ndarray | None = None
        self._cache: dict[int, str] = {}

    def __len__(self) -> int:
        return self._num_keys

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = int(i)
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"information set {i} out of range (0..{len(self) - 1})")
        key = self._cache.get(i)
        if key is None:
            key = _replay_key(self._game, self._path(int(self._histories()[i])))
            self._cache[i] = key
        return key

    def _histories(self) -> np.ndarray:
        if self._history is None:
            decisions = np.flatnonzero(self._infoset >= 0)
            history = np.full(self._num_keys, -1, dtype=np.int64)
            # Reversed, so the first history of each information set is written last and kept.
            history[self._infoset[decisions[::-1]]] = decisions[::-1]
            self._history = history
        return self._history

    def _path(self, node: int) -> list[int]:
        path = []
        while node > 0:
            path.append(int(self._edge_action[node]))
            node = int(self._parent[node])
        return path[::-1]


class _RecordKeys(Sequence):
    """The strings of the enumerator's raw information-set ids while the finisher checks the record (its error
    messages name information states); reads the record's arrays only while the finisher still holds them."""

    def __init__(self, game: pyspiel.Game, record: dict[str, np.ndarray], num_keys: int):
        self._game, self._record, self._num_keys = game, record, int(num_keys)

    def __len__(self) -> int:
        return self._num_keys

    def __getitem__(self, m):
        infoset = self._record["infoset"]
        node = int(np.argmax(infoset == int(m)))
        return _replay_key(self._game, preorder_path(self._record["depth"], self._record["action"], node).tolist())


def _replay_key(game: pyspiel.Game, path: list[int]) -> str:
    state = game.new_initial_state()
    for a in path:
        state.apply_action(a)
    return state.information_state_string(state.current_player())


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
    code, *arrays = core.enumerate_tree(cfg, tab, splits, max_histories)
    if code:
        raise TreeTooLargeError(
            f"{game}: the tree exceeds max_histories={max_histories}; raise max_histories if memory allows, or use "
            "the sampling solvers (algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
        )
    num_keys = int(arrays[-1].shape[0])
    del arrays[-1]  # the first history of each information set: the finished tree gives one (EngineKeys)
    # Each array is a view of a buffer grown by doubling: copied to size one at a time, the buffer freed at once.
    record = {}
    for name in ("depth", "player", "infoset", "action", "chance_prob"):
        record[name] = arrays.pop(0).copy()
    rets = arrays.pop(0)
    utilities, record["utility_index"] = _share_utilities(record["player"], rets)
    del rets
    cg = from_preorder(game, game.num_players(), record, utilities, _RecordKeys(game, record, num_keys), started=t0)
    cg.infoset_keys = EngineKeys(game, cg.parent, cg.edge_action, cg.infoset, num_keys)
    return cg


def _share_utilities(player: np.ndarray, rets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct terminal utility vectors in order of first appearance, shared as the pyspiel producer shares them,
    and each history's row (-1 off the terminals)."""
    rows, index = core.share_rows(rets, _MAX_SHARED_UTILITIES)
    utility_index = np.full(player.shape[0], -1, dtype=np.int32)
    utility_index[player == -1] = index
    return rows, utility_index
