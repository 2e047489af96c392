"""Compiled building blocks of a *kernel producer*: a game's own compiled code enumerating its tree for
:func:`cfr.build.from_preorder` (the producer contract of :mod:`cfr.compile`).

A producer steps its game's compiled state depth first and writes the preorder record; these pieces are the parts
that do not depend on the game:

- **the observation trie** (:func:`trie_step`, :func:`trie_grow`, :func:`resolve_view`). Each player's view of a
  history is a path of observation *tokens* from that player's root node; one open-addressing table holds every
  node, so equal views <=> equal nodes and a node is an information set's id. The game decides what a token is (what
  one step shows each player) and must make the token sequence decodable, so different views give different nodes.
- **growing buffers** (:func:`doubled`): the record's arrays double when full.
- **shared terminal utilities** (:func:`share_rows`, :func:`share_utilities`): distinct utility vectors in order of
  first appearance, shared as :func:`cfr.compile_game` shares them, so both producers give the same arrays.
- **the finish** (:func:`check_max_histories`, :func:`finish_tree`): the producer's argument check, and the
  enumerator's answer turned into the :class:`~cfr.tree.CompiledGame` with the engine's information-state strings.

numba caches a compiled function by its own file only, and a producer compiles these functions into its own code; a
producer ties its cache to this file's source with :func:`cfr.numba_cache.tie_cache_to_sources`.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from numba import njit

from cfr.build import from_preorder
from cfr.compile import _MAX_SHARED_UTILITIES
from cfr.engine_keys import EngineKeys, RecordKeys
from cfr.tree import CompiledGame, TreeTooLargeError

#: Starting sizes of the growing arrays (powers of two; each doubles when full).
TRIE_ROWS, RECORD_ROWS, RETURN_ROWS = 1 << 16, 1 << 16, 1 << 12


@njit(cache=True)
def new_trie(players):
    """``(trie, used, node_info, first)``, empty, for ``players`` players: the trie table and its counters (nodes
    ``0..players-1`` are the players' roots, see :func:`trie_step`), the information set of each trie node (-1: none
    yet; grown with :func:`filled_to`) and the first history of each information set."""
    trie = np.full((TRIE_ROWS, 3), -1, dtype=np.int64)
    used = np.zeros(2, dtype=np.int64)
    used[0] = players
    node_info = np.full(TRIE_ROWS, -1, dtype=np.int64)
    first = np.empty(TRIE_ROWS, dtype=np.int64)
    return trie, used, node_info, first


@njit(cache=True)
def new_record(players):
    """``(depth, player, infoset, action, chance_prob, terminal_returns)``: the preorder record's growing buffers
    (:func:`cfr.build.from_preorder`'s fields and types) and the terminals' returns, one row each."""
    return (np.empty(RECORD_ROWS, dtype=np.uint16), np.empty(RECORD_ROWS, dtype=np.int8),
            np.empty(RECORD_ROWS, dtype=np.int32), np.empty(RECORD_ROWS, dtype=np.int32),
            np.empty(RECORD_ROWS, dtype=np.float64), np.empty((RETURN_ROWS, players), dtype=np.float64))


@njit(cache=True)
def trie_hash(parent, token):
    """Where the row of ``(parent, token)`` starts its probe (before masking to the table's size)."""
    return (parent * np.int64(0x9E3779B97F4A7C15) + token * np.int64(0xC2B2AE3D27D4EB4F)) & np.int64(
        0x7FFFFFFFFFFFFFFF)


@njit(cache=True)
def trie_step(trie, used, parent, token):
    """The child of trie node ``parent`` by ``token``, made if new (``used[0]`` nodes exist so far, ``used[1]`` rows
    are filled). ``trie`` is an open-addressing table of rows ``(parent, token, child)``: one row per lookup, one
    cache line instead of three arrays' three. The caller grows it (:func:`trie_grow`) before it is half full."""
    mask = trie.shape[0] - 1
    i = trie_hash(parent, token) & mask
    while trie[i, 2] >= 0:
        if trie[i, 0] == parent and trie[i, 1] == token:
            return trie[i, 2]
        i = (i + 1) & mask
    trie[i, 0] = parent
    trie[i, 1] = token
    trie[i, 2] = used[0]
    used[0] += 1
    used[1] += 1
    return trie[i, 2]


@njit(cache=True)
def trie_grow(trie):
    """The same table with twice the rows."""
    cap = trie.shape[0] * 2
    out = np.full((cap, 3), -1, dtype=np.int64)
    mask = cap - 1
    for j in range(trie.shape[0]):
        if trie[j, 2] >= 0:
            i = trie_hash(trie[j, 0], trie[j, 1]) & mask
            while out[i, 2] >= 0:
                i = (i + 1) & mask
            out[i, 0] = trie[j, 0]
            out[i, 1] = trie[j, 1]
            out[i, 2] = trie[j, 2]
    return out


@njit(cache=True)
def resolve_view(trie, used, view, toks, ntok, d, p):
    """Player ``p``'s trie node after the first ``d`` steps of the current path.

    ``view[e, p]`` is that node after ``e`` steps, or -1 while not looked up; ``toks[e, p, :ntok[e, p]]`` are the
    tokens step ``e`` adds to ``p``'s view. The walk starts from the deepest view already looked up and records each
    node on the way, so a view is looked up only when its player acts, and each step's tokens once per path.
    """
    e = d
    while view[e, p] < 0:
        e -= 1
    node = view[e, p]
    for f in range(e + 1, d + 1):
        for k in range(ntok[f, p]):
            node = trie_step(trie, used, node, toks[f, p, k])
        view[f, p] = node
    return node


@njit(cache=True)
def doubled(a, keep):
    """A copy of ``a`` with twice the rows, holding its first ``keep`` rows (the enumeration's growing buffers)."""
    out = np.empty((a.shape[0] * 2,) + a.shape[1:], a.dtype)
    out[:keep] = a[:keep]
    return out


@njit(cache=True)
def filled_to(a, index, fill):
    """``a``, or a copy doubled as often as needed to hold ``a[index]``, the new entries set to ``fill``."""
    if index < a.shape[0]:
        return a
    size = a.shape[0] * 2
    while index >= size:
        size *= 2
    out = np.full(size, fill, a.dtype)
    out[:a.shape[0]] = a
    return out


@njit(cache=True)
def share_rows(rets, limit):
    """``(rows, index)``: the distinct rows of ``rets`` in order of first appearance and each row's index, sharing a
    row only among the first ``limit`` distinct ones (as :func:`cfr.compile_game` shares utility vectors)."""
    t, n = rets.shape
    cap = 1 << 10
    while cap < 4 * min(t, limit) + 4:
        cap *= 2
    table = np.full(cap, -1, dtype=np.int64)
    mask = cap - 1
    rows = np.empty((t, n), dtype=np.float64)
    index = np.empty(t, dtype=np.int32)
    k = 0
    shared = 0
    for j in range(t):
        h = np.int64(0)
        for q in range(n):
            x = rets[j, q] + 0.0  # -0.0 == 0.0, as tuples compare
            h = h * np.int64(0x100000001B3) + np.int64(hash(x))
        i = h & mask
        found = -1
        while table[i] >= 0:
            r = table[i]
            same = True
            for q in range(n):
                if rows[r, q] != rets[j, q]:
                    same = False
                    break
            if same:
                found = r
                break
            i = (i + 1) & mask
        if found < 0:
            found = k
            for q in range(n):
                rows[k, q] = rets[j, q] + 0.0
            k += 1
            if shared < limit:
                table[i] = found
                shared += 1
        index[j] = found
    return rows[:k].copy(), index


def share_utilities(player: np.ndarray, rets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(utilities, utility_index)`` of a preorder record: the distinct terminal utility vectors (``rets`` holds
    the terminals' in preorder) shared as the pyspiel producer shares them, and each history's row (-1 off the
    terminals, whose ``player`` is -1)."""
    rows, index = share_rows(rets, _MAX_SHARED_UTILITIES)
    utility_index = np.full(player.shape[0], -1, dtype=np.int32)
    utility_index[player == -1] = index
    return rows, utility_index


def check_max_histories(max_histories) -> None:
    """Refuse a ``max_histories`` that is not an integer >= 1 (``ValueError``, one line naming the value)."""
    if not isinstance(max_histories, int) or isinstance(max_histories, bool) or max_histories < 1:
        raise ValueError(f"max_histories={max_histories!r} is not allowed; allowed: an integer >= 1")


#: The fields of an enumerator's record, in the order it returns them (then the terminals' returns).
RECORD_ORDER = ("depth", "player", "infoset", "action", "chance_prob")


def finish_tree(game: pyspiel.Game, max_histories: int, started: float, too_many: bool, arrays: list[np.ndarray],
                num_keys: int) -> CompiledGame:
    """The :class:`~cfr.tree.CompiledGame` of an enumerator's answer.

    Args:
        game: the game enumerated.
        max_histories: the limit the enumerator was given (named in the refusal).
        started: ``time.perf_counter()`` when the producer started (the tree's compile time counts from there).
        too_many: the enumerator stopped at ``max_histories``: refused with ``TreeTooLargeError``.
        arrays: the record's arrays in :data:`RECORD_ORDER`, then the terminals' returns (one row each, in
            preorder), as a list this function empties: each array (a view of one of the enumerator's growing
            buffers) is popped and copied to size in turn, so its buffer is freed before the next copy, as long as
            the caller keeps no other reference to it.
        num_keys: how many information sets the enumerator numbered.
    """
    if too_many:
        raise TreeTooLargeError(
            f"{game}: the tree exceeds max_histories={max_histories}; raise max_histories if memory allows, or use "
            "the sampling solvers (algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
        )
    record = {}
    for name in RECORD_ORDER:
        record[name] = arrays.pop(0).copy()
    rets = arrays.pop(0)
    utilities, record["utility_index"] = share_utilities(record["player"], rets)
    del rets
    cg = from_preorder(game, game.num_players(), record, utilities, RecordKeys(game, record, num_keys),
                       started=started)
    cg.infoset_keys = EngineKeys(game, cg.parent, cg.edge_action, cg.infoset, num_keys)
    return cg
