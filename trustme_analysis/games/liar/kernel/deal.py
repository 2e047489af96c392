"""The deal of the compiled Liar position, and every chance outcome (numba): one listing of a chance node's outcomes
for the kernel state and the tree producer, and the draw of one outcome by the draw protocol for the play loops.

Chance. The first player is drawn uniformly (every seat weight 1); then each value's copies are dealt at one chance
node, whose outcomes are the splits of the copies between the seats (numbered like ``deal.splits``) with at least one
deal, each weighted by its number of deals. The draw of one value draws ``r`` uniform below ``C(room, copies)`` (all
deals of that value's copies into the cards still to be dealt) and takes the split whose block of deals holds ``r``
when the splits are laid out in the engine's outcome order: the draw protocol's integer walk, found seat by seat. One
possible split draws nothing.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.liar.kernel import layout, moves
from trustme_analysis.games.liar.kernel.layout import (
    C, END_SETUP, N, O_DISC, O_HSIZE, O_OUT, O_START, O_TARGET, S_DEALT, S_FIRST, T_BINOM, T_SPLIT, V, binom,
    compiled_functions, hand_at, start,
)
from trustme_analysis.games.liar.kernel.moves import finish

# ------------------------------------------------------------------------------------------------------ the deal


@borrowing()
def split_count(cfg, tab):
    """Number of ways to share the copies of one value between the seats (chance outcome ids 0..count-1)."""
    return tab[cfg[T_SPLIT] + cfg[C]]


@borrowing()
def split_ways(cfg, tab, S, index):
    """Deals (card orders) giving split ``index`` of the next value: prod over seats of C(room_s, k_s).

    Splits are numbered like ``deal.splits``: tuples ``(k_0..k_{n-1})`` with sum ``copies`` in lexicographic order.
    """
    n = cfg[N]
    cp1 = cfg[C] + 1
    rem = cfg[C]
    ways = 1
    for s in range(n):
        room = S[cfg[O_TARGET] + s] - S[cfg[O_HSIZE] + s]
        # k_s: count up from 0, skipping the tuples with a smaller k_s.
        k = 0
        if s == n - 1:
            k = rem
        else:
            while True:
                below = tab[cfg[T_SPLIT] + (s + 1) * cp1 + rem - k]
                if index < below:
                    break
                index -= below
                k += 1
        ways *= binom(cfg, tab, room, k)
        rem -= k
    return ways


@borrowing()
def deal_total(cfg, tab, S):
    """C(room, copies): all deals of the next value's copies into the cards still to be dealt."""
    n = cfg[N]
    room = 0
    for s in range(n):
        room += S[cfg[O_TARGET] + s] - S[cfg[O_HSIZE] + s]
    return binom(cfg, tab, room, cfg[C])


@borrowing()
def apply_deal(cfg, tab, S, index):
    """Deal the next value as split ``index``; after the last value, discard the pairs."""
    n = cfg[N]
    cp1 = cfg[C] + 1
    rem = cfg[C]
    value = S[S_DEALT]
    for s in range(n):
        k = 0
        if s == n - 1:
            k = rem
        else:
            while True:
                below = tab[cfg[T_SPLIT] + (s + 1) * cp1 + rem - k]
                if index < below:
                    break
                index -= below
                k += 1
        S[hand_at(cfg, s, value)] = k
        S[cfg[O_HSIZE] + s] += k
        rem -= k
    S[S_DEALT] = value + 1
    if S[S_DEALT] == cfg[V]:
        discard_pairs(cfg, S)


@borrowing()
def discard_pairs(cfg, S):
    """Every player discards their pairs face up; a player left with no card is out and the game ends."""
    n, values = cfg[N], cfg[V]
    empty = False
    for p in range(n):
        size = 0
        for v in range(values):
            count = S[hand_at(cfg, p, v)]
            kept = count % 2
            S[hand_at(cfg, p, v)] = kept
            S[cfg[O_DISC] + v] += count - kept
            size += kept
        S[cfg[O_HSIZE] + p] = size
        S[cfg[O_START] + p] = size
        if size == 0:
            empty = True
    if empty:
        for p in range(n):
            if S[cfg[O_HSIZE] + p] == 0:
                S[cfg[O_OUT] + p] = 1
        finish(cfg, S, END_SETUP)


@borrowing()
def sample_deal(cfg, tab, S, rng):
    """A chance outcome (split index) of the next value by the draw protocol over the engine's integer weights
    (``deal.split_weights``: every possible split in index order, weighted by its number of deals): one possible
    split draws nothing; else one integer ``r`` below ``C(room, copies)`` (all deals of the value's copies into the
    cards still to be dealt) picks the split whose block of deals holds it, found seat by seat without listing the
    splits."""
    n, cp1, target, hsize = cfg[N], cfg[C] + 1, cfg[O_TARGET], cfg[O_HSIZE]
    binom, split = cfg[T_BINOM], cfg[T_SPLIT]
    rem = cfg[C]
    rest = 0
    forced = 0
    for s in range(n):
        room = S[target + s] - S[hsize + s]
        rest += room
        forced += min(room, rem)
    # One possible split exactly when every seat must take all it can (the seats' room for the value adds up to the
    # copies); the draw below would then pick it too, but the protocol draws nothing for a sure outcome.
    lone = forced == rem
    r = 0 if lone else below(rng, tab[binom + rest * cp1 + rem])
    index = 0
    for s in range(n - 1):
        room = S[target + s] - S[hsize + s]
        rest -= room
        c = 0
        while True:
            # Deals giving k_s = c: C(room, c) for this seat times C(rest, rem - c) for the seats after it
            # (Vandermonde), in the engine's (lexicographic) order; within the block every split of the later seats
            # has C(room, c) times its own deals, so ``r // C(room, c)`` walks their blocks the same way.
            first = tab[binom + room * cp1 + c] if c <= room else 0
            block = first * tab[binom + rest * cp1 + rem - c] if rem - c <= rest else 0
            if r < block:
                if first > 1:
                    r //= first
                break
            r -= block
            index += tab[split + (s + 1) * cp1 + rem - c]
            c += 1
        rem -= c
    return index


@borrowing()
def sample_chance(cfg, tab, S, rng):
    """A chance outcome by the draw protocol: the first player (every seat weight 1; two seats at least), or the next
    value's split."""
    if S[S_FIRST] < 0:
        return below(rng, cfg[N])
    return sample_deal(cfg, tab, S, rng)


@borrowing()
def apply_chance(cfg, tab, S, action):
    """Apply a chance outcome: seat the first player, or deal the next value."""
    if S[S_FIRST] < 0:
        start(cfg, S, action)
    else:
        apply_deal(cfg, tab, S, action)


@njit(cache=True)
def chance_outcomes(cfg, tab, S):
    """``(ids, probabilities)`` of the chance node: the first player (every seat 1/n), or the next value's splits
    with at least one deal (the engine's order)."""
    cap = cfg[N] if S[S_FIRST] < 0 else split_count(cfg, tab)
    ids = np.empty(cap, dtype=np.int64)
    probs = np.empty(cap, dtype=np.float64)
    j = write_chance(cfg, tab, S, ids, probs, 0)
    return ids[:j], probs[:j]


@borrowing()
def write_chance(cfg, tab, S, ids, probs, at):
    """Write the chance node's outcomes (:func:`chance_outcomes`) to ``ids[at:]`` and ``probs[at:]``; return how
    many (at most ``N`` for the first player, else :func:`split_count`)."""
    if S[S_FIRST] < 0:
        n = cfg[N]
        for p in range(n):
            ids[at + p] = p
            probs[at + p] = 1.0 / n
        return n
    count = split_count(cfg, tab)
    total = deal_total(cfg, tab, S)
    j = at
    for index in range(count):
        ways = split_ways(cfg, tab, S, index)
        if ways > 0:
            ids[j] = index
            # Both below 2**53, so the float division is the exact quotient correctly rounded, as Python's int / int.
            probs[j] = ways / total
            j += 1
    return j - at


tie_cache_to_sources(compiled_functions(__name__), sys.modules[__name__], layout, moves, compiled_draws)
