"""The legal actions of the compiled Liar position (numba): counting, numbering, listing and checking them.

Plays are numbered without a table of all multisets. A play is a multiset of card values (a hand is counts per value);
the engine lists the multisets of 1..``max_play`` cards by size and then lexicographically (sorted tuples), which for
count vectors means: at the first value where two multisets differ, the one holding *more* of it comes first. So the
rank of a multiset among those of its size is ``sum over v of #{multisets agreeing below v and holding more of v}``,
a sum of entries of the table ``D[v][r]`` = number of multisets of ``r`` cards drawn from values ``v..values-1`` with
per-value bounds (``copies`` for action ids, the hand's counts for a hand's plays). Unranking walks the same sums.
That gives the ``k``-th playable multiset of a hand in the engine's order, so a uniform play is drawn from a uniform
integer without listing the (up to ~14,000) legal plays (:func:`pick`).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel.layout import (
    ANN, C, FIRST_PLAY, LAST, M, O_ANN, O_D, O_DISC, O_HANDS, O_HELD, O_PC, O_PPLAYER, O_PV, S_CURRENT, S_GOING,
    S_NHELD, S_PLEN, S_PN, S_RVALUE, T_DG, T_OFFS, V, compiled_functions,
)

# ------------------------------------------------------------------------------------------------ legal actions


@borrowing()
def fill_hand_table(cfg, S, p):
    """Build the hand table of seat ``p``; return how many multisets (1..max_play cards) the hand can play.

    Row ``i`` of the table (at ``O_D``) counts, for each ``r``, the multisets of ``r`` cards drawn from the held
    values ``held[i:]`` within the hand's counts. Values not held change nothing, so rows exist only for held values
    (listed ascending at ``O_HELD``).
    """
    values, w, d, held = cfg[V], cfg[M] + 1, cfg[O_D], cfg[O_HELD]
    hand = cfg[O_HANDS] + p * values
    m = 0
    for v in range(values):
        if S[hand + v] > 0:
            S[held + m] = v
            m += 1
    S[S_NHELD] = m
    row = d + m * w
    S[row] = 1
    for r in range(1, w):
        S[row + r] = 0
    for i in range(m - 1, -1, -1):
        h = S[hand + S[held + i]]
        nxt = d + (i + 1) * w
        cur = d + i * w
        total = 0  # running window sum of the next row over [r - h, r]
        for r in range(w):
            total += S[nxt + r]
            if r - h - 1 >= 0:
                total -= S[nxt + r - h - 1]
            S[cur + r] = total
    playable = 0
    for r in range(1, w):
        playable += S[d + r]
    return playable


@borrowing()
def legal_shape(cfg, S, p):
    """``(extras, announced, plays_allowed)`` of seat ``p``'s legal actions, in the engine's order.

    ``extras`` is a bit set of LIAR (1), PASS (2), BURN (4), listed before the plays; ``announced`` is how many values
    a play may announce: the round's value, or for a starter every value (or with ``announce_gone=forbidden`` those
    listed at ``O_ANN``: not every copy among the pair discards).
    """
    if S[S_GOING] >= 0:
        return 3, 1, cfg[LAST] == 1
    if S[S_RVALUE] < 0:
        values = cfg[V]
        if cfg[ANN] == 0:
            return 0, values, True
        copies, disc, ann = cfg[C], cfg[O_DISC], cfg[O_ANN]
        count = 0
        for v in range(values):
            if S[disc + v] < copies:
                S[ann + count] = v
                count += 1
        return 0, count, True
    if p == S[cfg[O_PPLAYER] + S[S_PLEN] - 1]:
        # Everyone else passed: the last player adds cards or burns; passing again is not an option.
        return 4, 1, True
    return 3, 1, True


@borrowing()
def count_extras(extras):
    return (extras & 1) + ((extras >> 1) & 1) + ((extras >> 2) & 1)


@borrowing()
def legal_count(cfg, S, p):
    """Number of legal actions of seat ``p`` (fills the hand table and the announced list as a side effect)."""
    extras, announced, plays = legal_shape(cfg, S, p)
    if not plays:
        return count_extras(extras)
    return count_extras(extras) + fill_hand_table(cfg, S, p) * announced


@borrowing()
def announced_value(cfg, S, i):
    """The ``i``-th value a play may announce now (see :func:`legal_shape`)."""
    if S[S_RVALUE] >= 0:
        return S[S_RVALUE]
    if cfg[ANN] == 0:
        return i
    return S[cfg[O_ANN] + i]


@borrowing()
def unrank_hand_play(cfg, S, p, k):
    """Write to ``O_PV``/``O_PC`` the ``k``-th multiset (engine order) that seat ``p`` can play; return its size.

    Needs the hand table (:func:`fill_hand_table`) of ``p``.
    """
    w, d, held, pv, pc = cfg[M] + 1, cfg[O_D], cfg[O_HELD], cfg[O_PV], cfg[O_PC]
    hand = cfg[O_HANDS] + p * cfg[V]
    size = 1
    while k >= S[d + size]:
        k -= S[d + size]
        size += 1
    rem = size
    n = 0
    for i in range(S[S_NHELD]):
        if rem == 0:
            break
        v = S[held + i]
        c = min(S[hand + v], rem)
        nxt = d + (i + 1) * w
        # More copies of a smaller value come first.
        while True:
            below = S[nxt + rem - c]
            if k < below:
                break
            k -= below
            c -= 1
        if c > 0:
            S[pv + n] = v
            S[pc + n] = c
            n += 1
            rem -= c
    S[S_PN] = n
    return size


@borrowing()
def multiset_index(cfg, tab, S, size):
    """The engine's index (``PlayTable.multisets``) of the multiset of ``size`` cards at ``O_PV``/``O_PC``.

    Its rank among the multisets of its size is ``sum over v of (DG[v][rem_v] - sum_{j <= c_v} DG[v+1][rem_v - j])``
    (``rem_v`` = cards of the multiset from ``v`` on, ``DG`` the table with bound ``copies``); over a run of values
    it does not hold the terms telescope, so only its distinct values are visited.
    """
    w, dg, pv, pc = cfg[M] + 1, cfg[T_DG], cfg[O_PV], cfg[O_PC]
    rank = tab[cfg[T_OFFS] + size]
    rem = size
    start = 0
    for i in range(S[S_PN]):
        u = S[pv + i]
        c = S[pc + i]
        rank += tab[dg + start * w + rem]
        nxt = dg + (u + 1) * w + rem
        for j in range(c + 1):
            rank -= tab[nxt - j]
        rem -= c
        start = u + 1
    return rank


@borrowing()
def decode_play(cfg, tab, S, action):
    """Write the cards of play ``action`` to ``O_PV``/``O_PC``; return ``(size, announced)``, ``(0, -1)`` if not a play."""
    values, copies, mp, w = cfg[V], cfg[C], cfg[M], cfg[M] + 1
    pv, pc, dg, offs = cfg[O_PV], cfg[O_PC], cfg[T_DG], cfg[T_OFFS]
    if action < FIRST_PLAY:
        return 0, -1
    index = (action - FIRST_PLAY) // values
    announced = (action - FIRST_PLAY) % values
    if index >= tab[offs + mp + 1]:
        return 0, -1
    size = 1
    while index >= tab[offs + size + 1]:
        size += 1
    k = index - tab[offs + size]
    rem = size
    n = 0
    for v in range(values):
        if rem == 0:
            break
        c = min(copies, rem)
        while True:
            below = tab[dg + (v + 1) * w + rem - c]
            if k < below:
                break
            k -= below
            c -= 1
        if c > 0:
            S[pv + n] = v
            S[pc + n] = c
            n += 1
            rem -= c
    S[S_PN] = n
    return size, announced


@borrowing()
def pick(cfg, tab, S, p, extras, announced, r):
    """The ``r``-th legal action (ascending ids, as the engine lists them) of seat ``p``, whose legal actions have
    the shape ``extras, announced`` (:func:`legal_shape`) and whose hand table is filled. A play leaves its cards at
    ``O_PV``/``O_PC``."""
    for bit in range(3):
        if extras & (1 << bit):
            if r == 0:
                return bit  # LIAR = 0, PASS = 1, BURN = 2
            r -= 1
    if announced == 1:
        k = r
        value = announced_value(cfg, S, 0)
    else:
        k = r // announced
        value = announced_value(cfg, S, r - k * announced)
    size = unrank_hand_play(cfg, S, p, k)
    return FIRST_PLAY + multiset_index(cfg, tab, S, size) * cfg[V] + value


@borrowing()
def action_at(cfg, tab, S, p, r):
    """The ``r``-th legal action of seat ``p`` (``0 <= r <`` :func:`legal_count`)."""
    extras, announced, plays = legal_shape(cfg, S, p)
    if plays:
        fill_hand_table(cfg, S, p)
    return pick(cfg, tab, S, p, extras, announced, r)


@borrowing()
def is_legal(cfg, tab, S, action):
    """Whether ``action`` is legal for the seat to act (a player node); a play leaves its cards at ``O_PV``/``O_PC``."""
    p = S[S_CURRENT]
    extras, announced, plays = legal_shape(cfg, S, p)
    if action < FIRST_PLAY:
        return action >= 0 and (extras >> action) & 1 == 1
    if not plays:
        return False
    size, value = decode_play(cfg, tab, S, action)
    if size == 0:
        return False
    hand = cfg[O_HANDS] + p * cfg[V]
    for i in range(S[S_PN]):
        if S[cfg[O_PC] + i] > S[hand + S[cfg[O_PV] + i]]:
            return False
    for i in range(announced):
        if announced_value(cfg, S, i) == value:
            return True
    return False


@njit(cache=True)
def legal_actions(cfg, tab, S):
    """Every legal action of the seat to act, ascending (the engine's ``legal_actions()``)."""
    p = S[S_CURRENT]
    out = np.empty(legal_count(cfg, S, p), dtype=np.int64)
    extras, announced, plays = legal_shape(cfg, S, p)
    write_legal(cfg, tab, S, p, extras, announced, plays, out, 0)
    return out


@borrowing()
def write_legal(cfg, tab, S, p, extras, announced, plays, out, at):
    """Write seat ``p``'s legal actions, ascending, to ``out[at:]``; return how many. ``extras, announced, plays``
    are :func:`legal_shape`'s and the hand table must be filled when ``plays``: one listing for
    :func:`legal_actions` and the tree enumerator, which writes straight into its stack of children."""
    i = at
    for bit in range(3):
        if extras & (1 << bit):
            out[i] = bit
            i += 1
    if plays:
        values = cfg[V]
        d = cfg[O_D]
        playable = 0
        for r in range(1, cfg[M] + 1):
            playable += S[d + r]
        for j in range(playable):
            size = unrank_hand_play(cfg, S, p, j)
            base = FIRST_PLAY + multiset_index(cfg, tab, S, size) * values
            for a in range(announced):
                out[i] = base + announced_value(cfg, S, a)
                i += 1
    return i - at


@borrowing()
def nth_legal(cfg, tab, S, r):
    """The ``r``-th legal action as the uniform sampler computes it (without listing); for tests."""
    return action_at(cfg, tab, S, S[S_CURRENT], r)


tie_cache_to_sources(compiled_functions(__name__), sys.modules[__name__], layout)
