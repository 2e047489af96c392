"""Information-state strings of a tree compiled by a kernel producer, built by the game's engine on request.

A kernel producer (:mod:`cfr.trie`) numbers information sets without writing their strings. The strings are needed
only to name an information set (a policy file, an error message), so they are built lazily, by replaying on a fresh
engine state the actions from the root to one history of the set: the strings are the engine's own, and the compiled
tree keeps no table of strings or paths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyspiel

from cfr.build import preorder_path


def replay_key(game: pyspiel.Game, path: list[int]) -> str:
    """The information-state string of the player to move after ``path`` (actions from the root)."""
    state = game.new_initial_state()
    for a in path:
        state.apply_action(a)
    return state.information_state_string(state.current_player())


class EngineKeys(Sequence):
    """The information-state strings of a finished :class:`~cfr.tree.CompiledGame`, each built on first request.

    A key replays the actions from the root to one history of the information set (the first in the tree's
    breadth-first order), read off the tree's ``parent`` and ``edge_action`` arrays; the table of those histories (one
    int64 per information set) is built on the first request.
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
            key = replay_key(self._game, self._path(int(self._histories()[i])))
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


class RecordKeys(Sequence):
    """The strings of a preorder record's information-set ids while :func:`cfr.build.from_preorder` checks the record
    (its error messages name information states); reads the record's arrays only while the finisher holds them."""

    def __init__(self, game: pyspiel.Game, record: dict[str, np.ndarray], num_keys: int):
        self._game, self._record, self._num_keys = game, record, int(num_keys)

    def __len__(self) -> int:
        return self._num_keys

    def __getitem__(self, m):
        infoset = self._record["infoset"]
        node = int(np.argmax(infoset == int(m)))
        return replay_key(self._game, preorder_path(self._record["depth"], self._record["action"], node).tolist())
