"""Finish a :class:`~cfr.tree.CompiledGame` from a preorder record of the tree: the half every producer shares.

A producer (the pyspiel walk of :func:`cfr.compile_game`, or a compiled kernel that enumerates a game's
histories) only lists the histories in depth-first preorder with a few numbers each; :func:`from_preorder` checks
the record, numbers information sets and slots, checks perfect recall and lays the tree out breadth first. The
contract is written in :mod:`cfr.compile`'s docstring.

Every loop over histories runs in compiled code (numba); the record's arrays are released as soon as their
breadth-first copy exists, so the peak stays near the size of the finished tree plus the record.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numba
import numpy as np

from cfr.tree import CompiledGame, KeyTable, UnsupportedGameError

#: The arrays of a preorder record, in the order the contract lists them.
RECORD_FIELDS = ("depth", "player", "infoset", "action", "chance_prob", "utility_index")

# Error codes returned by the kernels (numba raises only constant messages; the message is written here).
_OK = 0
_BAD_ROOT = 1
_BAD_DEPTH = 2
_CHILD_OF_TERMINAL = 3
_BAD_PLAYER = 4
_BAD_INFOSET = 5
_SHARED = 6
_EMPTY = 7
_UNUSED_INFOSET = 8
_ACTIONS_DIFFER = 9
_IMPERFECT_RECALL = 10
_BAD_PROB = 11
_BAD_UTILITY = 12


@numba.njit(cache=True)
def _scan(depth, player, infoset, chance_prob, utility_index, num_players, num_infosets, num_utilities, path,
          child_count, first_node, owner):
    """Check the record's shape and count children; returns (code, a, b, c)."""
    n = depth.shape[0]
    if n == 0 or depth[0] != 0:
        return _BAD_ROOT, 0, 0, 0
    for i in range(n):
        d = np.int64(depth[i])
        pl = np.int64(player[i])
        if pl < -1 or pl > num_players:
            return _BAD_PLAYER, i, pl, 0
        if i > 0:
            if d < 1 or d > np.int64(depth[i - 1]) + 1:
                return _BAD_DEPTH, i, d, 0
            par = path[d - 1]
            pp = np.int64(player[par])
            if pp == -1:
                return _CHILD_OF_TERMINAL, i, par, 0
            child_count[par] += 1
            prob = chance_prob[i]
            if pp == num_players:
                if not (prob >= 0.0 and prob <= 1.0):
                    return _BAD_PROB, i, 0, 0
            elif prob != 1.0:
                return _BAD_PROB, i, 0, 0
        path[d] = i
        info = np.int64(infoset[i])
        if 0 <= pl < num_players:
            if info < 0 or info >= num_infosets:
                return _BAD_INFOSET, i, info, 0
            if first_node[info] < 0:
                first_node[info] = i
                owner[info] = pl
            elif owner[info] != pl:
                return _SHARED, info, owner[info], pl
        elif info != -1:
            return _BAD_INFOSET, i, info, 0
        u = np.int64(utility_index[i])
        if pl == -1:
            if u < 0 or u >= num_utilities:
                return _BAD_UTILITY, i, u, 0
        elif u != -1:
            return _BAD_UTILITY, i, u, 0
    for i in range(n):
        if player[i] != -1 and child_count[i] == 0:
            return _EMPTY, i, np.int64(player[i]), 0
    for m in range(num_infosets):
        if first_node[m] < 0:
            return _UNUSED_INFOSET, m, 0, 0
    return _OK, 0, 0, 0


@numba.njit(cache=True)
def _slots(depth, player, infoset, action, child_count, num_players, new_of_raw, order, first_node, slot_start,
           slot_infoset, path, counter, last_own, edge_slot, slot_action, parent_slot, level, min_depth, max_depth):
    """Slot of every decision edge, each information set's legal actions, own previous slot, level and depth range;
    checks that every history of an information set has the same legal actions and that recall is perfect."""
    n = depth.shape[0]
    for i in range(n):
        pl = np.int64(player[i])
        if 0 <= pl < num_players:
            new = new_of_raw[infoset[i]]
            if child_count[i] != slot_start[new + 1] - slot_start[new]:
                return _ACTIONS_DIFFER, np.int64(infoset[i]), i, 0
    for i in range(n):
        d = np.int64(depth[i])
        if i == 0:
            for p in range(num_players):
                last_own[0, p] = -1
            edge_slot[0] = -1
        else:
            par = path[d - 1]
            k = counter[d - 1]
            counter[d - 1] = k + 1
            for p in range(num_players):
                last_own[d, p] = last_own[d - 1, p]
            pp = np.int64(player[par])
            if 0 <= pp < num_players:
                raw = np.int64(infoset[par])
                s = slot_start[new_of_raw[raw]] + k
                edge_slot[i] = s
                if first_node[raw] == par:
                    slot_action[s] = action[i]
                last_own[d, pp] = s
            else:
                edge_slot[i] = -1
        path[d] = i
        counter[d] = 0
        pl = np.int64(player[i])
        if 0 <= pl < num_players:
            new = new_of_raw[infoset[i]]
            prev = last_own[d, pl]
            if parent_slot[new] == -2:
                parent_slot[new] = prev
                level[new] = 0 if prev < 0 else level[slot_infoset[prev]] + 1
                min_depth[new] = d
                max_depth[new] = d
            else:
                if parent_slot[new] != prev:
                    return _IMPERFECT_RECALL, np.int64(infoset[i]), i, 0
                min_depth[new] = min(min_depth[new], d)
                max_depth[new] = max(max_depth[new], d)
    for i in range(1, n):
        s = edge_slot[i]
        if s >= 0 and slot_action[s] != action[i]:
            return _ACTIONS_DIFFER, np.int64(order[slot_infoset[s]]), i, 0
    return _OK, 0, 0, 0


@numba.njit(cache=True)
def _depth_counts(depth, out):
    """``out[d + 1]`` = number of histories at depth ``d`` (np.bincount would first copy the depths to int64)."""
    for i in range(depth.shape[0]):
        out[depth[i] + 1] += 1


@numba.njit(cache=True)
def _bfs_order(depth, depth_start, order):
    """Stable counting sort of the preorder by depth: the breadth-first numbering (``order[new] = old``)."""
    n = depth.shape[0]
    fill = depth_start[:-1].copy()
    for i in range(n):
        d = depth[i]
        order[fill[d]] = i
        fill[d] += 1


@numba.njit(cache=True)
def _gather(src, order, out):
    for j in range(order.shape[0]):
        out[j] = src[order[j]]


@numba.njit(cache=True)
def _gather_infoset(src, order, new_of_raw, out):
    for j in range(order.shape[0]):
        v = src[order[j]]
        out[j] = new_of_raw[v] if v >= 0 else -1


@numba.njit(cache=True)
def _links(child_count, player, num_players, child_start, parent, edge_owner, kind):
    """Children of consecutive nodes are consecutive in breadth-first order, so one running offset gives every
    node's first child, and each child its parent."""
    n = child_count.shape[0]
    parent[0] = -1
    edge_owner[0] = -1
    nxt = 1
    for i in range(n):
        pl = player[i]
        kind[i] = 0 if pl == -1 else (1 if pl == num_players else 2)
        c = child_count[i]
        if c > 0:
            child_start[i] = nxt
            for k in range(c):
                parent[nxt + k] = i
                edge_owner[nxt + k] = pl
            nxt += c
        else:
            child_start[i] = -1


@numba.njit(cache=True)
def preorder_path(depth, action, node):
    """Actions from the root to history ``node`` of a preorder record (``record["depth"]``, ``record["action"]``),
    as an int64 array (error messages, and producers that name a history by its path)."""
    d = np.int64(depth[node])
    out = np.empty(d, dtype=np.int64)
    i = node
    while d > 0:
        out[d - 1] = action[i]
        d -= 1
        while np.int64(depth[i]) != d:
            i -= 1
    return out


def _small_signed(max_value: int, min_value: int = -1):
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        info = np.iinfo(dtype)
        if info.min <= min_value and max_value <= info.max:
            return dtype
    raise ValueError(f"value {max_value} does not fit in int64")


class _Lazy(Sequence):
    """``keys[order[i]]`` without copying the keys (for producers whose keys are not a :class:`KeyTable`)."""

    def __init__(self, keys: Sequence[str], order: np.ndarray):
        self._keys, self._order = keys, order

    def __len__(self):
        return int(self._order.size)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self._keys[int(self._order[i])]


def from_preorder(
    game,
    num_players: int,
    record: dict[str, np.ndarray],
    utilities: np.ndarray,
    infoset_keys: Sequence[str],
    started: float | None = None,
) -> CompiledGame:
    """Check a preorder record and lay it out as a :class:`~cfr.tree.CompiledGame` (contract: :mod:`cfr.compile`).

    Args:
        game: the game the record describes (kept on the result; any object with a ``str``).
        num_players: number of players ``P``.
        record: the arrays named in :data:`RECORD_FIELDS`, one entry per history in preorder. The dict is emptied:
            each array is dropped once its breadth-first copy exists, to bound the peak memory.
        utilities: ``(K, P)`` utility vectors that ``record["utility_index"]`` points into.
        infoset_keys: the information-state string of each information set id used in ``record["infoset"]``.
        started: ``time.perf_counter()`` when the producer started (for ``compile_seconds``).

    Raises:
        UnsupportedGameError: the record breaks the contract: an information state reached by two players, a chance
            or decision node without children, different legal actions within an information set, imperfect recall.
    """
    t0 = time.perf_counter() if started is None else started
    missing = [f for f in RECORD_FIELDS if f not in record]
    if missing:
        raise ValueError(f"preorder record lacks {missing}; allowed: a dict with {list(RECORD_FIELDS)}")
    n = int(record["depth"].shape[0])
    if any(int(record[f].shape[0]) != n for f in RECORD_FIELDS):
        raise ValueError("preorder record arrays must all have one entry per history")
    P = int(num_players)
    M = len(infoset_keys)
    utilities = np.ascontiguousarray(utilities, dtype=np.float64).reshape(-1, P)
    depth = record["depth"]
    max_depth = int(depth.max()) if n else 0
    path = np.empty(max_depth + 2, dtype=np.int64)

    child_pre = np.zeros(n, dtype=np.int32)
    first_node = np.full(M, -1, dtype=np.int64)
    owner = np.full(M, -1, dtype=np.int8)
    code, a, b, c = _scan(depth, record["player"], record["infoset"], record["chance_prob"], record["utility_index"],
                          P, M, utilities.shape[0], path, child_pre, first_node, owner)
    _raise(code, a, b, c, game, P, record, infoset_keys)

    # Information sets by player, then by first appearance in preorder: a player's own previous information set is
    # an ancestor of the first history of the next, so every information set's parent slot comes before its slots.
    order = np.lexsort((first_node, owner))
    new_of_raw = np.empty(M, dtype=np.int32)
    new_of_raw[order] = np.arange(M, dtype=np.int32)
    counts = child_pre[first_node[order]].astype(np.int64)
    slot_start = np.zeros(M + 1, dtype=np.int64)
    np.cumsum(counts, out=slot_start[1:])
    S = int(slot_start[-1])
    if S >= 2**31 - 1 or M >= 2**31 - 1:
        raise ValueError(f"{game}: {M} information sets / {S} slots exceed the int32 indices used")
    slot_infoset = np.repeat(np.arange(M, dtype=np.int32), counts)
    infoset_player = owner[order]

    edge_slot_pre = np.empty(n, dtype=np.int32)
    slot_action = np.full(S, -1, dtype=np.int32)
    parent_slot = np.full(M, -2, dtype=np.int64)
    level = np.zeros(M, dtype=np.int32)
    min_d = np.zeros(M, dtype=np.int64)
    max_d = np.zeros(M, dtype=np.int64)
    counter = np.zeros(max_depth + 2, dtype=np.int64)
    last_own = np.empty((max_depth + 2, max(P, 1)), dtype=np.int64)
    code, a, b, c = _slots(depth, record["player"], record["infoset"], record["action"], child_pre, P, new_of_raw,
                           order, first_node, slot_start, slot_infoset, path, counter, last_own, edge_slot_pre,
                           slot_action, parent_slot, level, min_d, max_d)
    _raise(code, a, b, c, game, P, record, infoset_keys)
    del first_node, counter, last_own
    if M and not np.all(parent_slot < slot_start[:-1]):
        raise AssertionError("information sets are not numbered in preorder of first appearance")
    infoset_player_i64 = infoset_player.astype(np.int64)
    player_infosets = np.searchsorted(infoset_player_i64, np.arange(P + 1), side="left").astype(np.int64)
    player_slots = slot_start[player_infosets]
    uniform = np.ones(P, dtype=bool)
    for p in range(P):
        lo, hi = player_infosets[p], player_infosets[p + 1]
        uniform[p] = bool(np.all(min_d[lo:hi] == max_d[lo:hi]))

    # Breadth-first layout.
    depth_start = np.zeros(max_depth + 2, dtype=np.int64)
    _depth_counts(depth, depth_start)
    np.cumsum(depth_start, out=depth_start)
    idx = np.int32 if n < 2**31 - 1 else np.int64
    bfs = np.empty(n, dtype=idx)
    _bfs_order(depth, depth_start, bfs)
    del record["depth"], depth

    def take(name, dtype, order):
        out = np.empty(n, dtype=dtype)
        _gather(record.pop(name), order, out)
        return out

    infoset_a = np.empty(n, dtype=np.int32)
    _gather_infoset(record.pop("infoset"), bfs, new_of_raw, infoset_a)
    cc_dtype = _small_signed(int(child_pre.max(initial=0)), 0)
    child_count = np.empty(n, dtype=cc_dtype)
    _gather(child_pre, bfs, child_count)
    del child_pre
    edge_slot = np.empty(n, dtype=np.int32)
    _gather(edge_slot_pre, bfs, edge_slot)
    del edge_slot_pre
    actions = record["action"]
    act_dtype = _small_signed(int(actions.max(initial=0)), min(int(actions.min(initial=0)), -1))
    edge_action = take("action", act_dtype, bfs)
    chance_prob = take("chance_prob", np.float64, bfs)
    utility_index = take("utility_index", np.int32, bfs)
    player = take("player", np.int8, bfs)
    del bfs

    parent = np.empty(n, dtype=idx)
    child_start = np.empty(n, dtype=idx)
    edge_owner = np.empty(n, dtype=np.int8)
    kind = np.empty(n, dtype=np.int8)
    _links(child_count, player, P, child_start, parent, edge_owner, kind)

    if isinstance(infoset_keys, KeyTable):
        keys = infoset_keys.take(order)
    elif np.array_equal(order, np.arange(M)):
        keys = infoset_keys
    else:
        keys = _Lazy(infoset_keys, order)
    return CompiledGame(
        game=game,
        num_players=P,
        depth_start=depth_start,
        parent=parent,
        kind=kind,
        player=player,
        infoset=infoset_a,
        child_start=child_start,
        child_count=child_count,
        edge_owner=edge_owner,
        edge_slot=edge_slot,
        edge_action=edge_action,
        chance_prob=chance_prob,
        utility_index=utility_index,
        utilities=utilities,
        infoset_player=infoset_player,
        infoset_keys=keys,
        infoset_slot_start=slot_start,
        slot_infoset=slot_infoset,
        slot_action=slot_action,
        player_slots=player_slots,
        player_infosets=player_infosets,
        infoset_parent_slot=parent_slot,
        infoset_level=level,
        infoset_uniform_depth=uniform,
        compile_seconds=time.perf_counter() - t0,
    )


def _raise(code, a, b, c, game, num_players, record, keys) -> None:
    """Turn a kernel's error code into one clear line."""
    if code == _OK:
        return

    def history(node):
        return preorder_path(record["depth"], record["action"], node).tolist()

    if code == _SHARED:
        raise UnsupportedGameError(
            f"{game}: information state {keys[a]!r} is reached by player {b} and by player {c}; every information "
            "state must belong to one player (the game's information_state_string must tell the players apart)"
        )
    if code == _EMPTY:
        what = "chance node has no outcomes" if b == num_players else f"decision node of player {b} has no legal actions"
        raise UnsupportedGameError(f"{game}: the {what} at history {history(a)}; the tree cannot be compiled there")
    if code == _ACTIONS_DIFFER:
        raise UnsupportedGameError(
            f"{game}: information set {keys[a]!r} has different legal actions in different histories (one is "
            f"history {history(b)})"
        )
    if code == _IMPERFECT_RECALL:
        raise UnsupportedGameError(
            f"{game}: information set {keys[a]!r} is reached through different own actions: the game lacks perfect "
            "recall"
        )
    messages = {
        _BAD_ROOT: "the record must start with the root at depth 0",
        _BAD_DEPTH: f"history #{a} has depth {b}, not between 1 and its predecessor's depth + 1",
        _CHILD_OF_TERMINAL: f"history #{a} follows terminal history #{b}",
        _BAD_PLAYER: f"history #{a} has player {b}; allowed: -1 (terminal), 0..P-1, P (chance)",
        _BAD_INFOSET: f"history #{a} has information set {b}; decision nodes need one in range, others -1",
        _UNUSED_INFOSET: f"information set {a} is used by no history",
        _BAD_PROB: f"history #{a} has a chance probability outside [0, 1] or a decision edge with probability != 1",
        _BAD_UTILITY: f"history #{a} has utility index {b}; terminals need a row of utilities, others -1",
    }
    raise UnsupportedGameError(f"{game}: invalid preorder record: {messages[code]}")


