"""Compiled play of ``trustme_liar``: the PRNG, chance and uniform-random sampling, whole games, rollouts.

Randomness. Each game owns one SplitMix64 stream (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014; the constants of Vigna's reference ``splitmix64.c``) whose 64-bit state starts at the game's
seed, so a game depends only on its seed. A uniform integer below ``n`` is drawn by rejection (draws below
``2**64 mod n`` are redrawn; Lemire's method, see :func:`rand_below`), exact for every ``n``.

Chance. The deal of one value draws ``r`` uniform below ``C(room, copies)`` (all deals of that value's copies into the
cards still to be dealt) and takes the split whose block of deals holds ``r`` when the splits are laid out in the
engine's outcome order, each with its number of deals: exactly the engine's probabilities, in integers.

Players. A uniform-random seat draws ``r`` uniform below its number of legal actions and takes the ``r``-th legal
action in the engine's order (:func:`kernel_core.action_at`), computed without listing the others.

Seat kinds are numbered (:data:`RANDOM` = 0) so that heuristic and policy-table seats can join :func:`choose` later.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.games.liar import kernel_core as k

RANDOM = 0  # the only seat kind so far

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

#: Per-seat integer columns of :func:`play_random`, in order (then the record counters of ``kernel_core``).
SEAT_INTS = (
    "dealt", "start_hand", "cards_left", "went_out", "points", "points_going_out", "points_cards_in_hand",
    "points_false_cards", "points_unmasked", "points_wrongly_accused",
)
_NSI = len(SEAT_INTS)
ERR_NO_ACTION = 1  # a seat to act had no legal action (the engine would return an empty list)


@njit(cache=True, inline="always")
def next_u64(rng):
    """The next output of the SplitMix64 stream whose state is ``rng[0]``."""
    rng[0] += _GAMMA
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def _mul128(a, b):
    """``(high, low)`` 64-bit halves of the 128-bit product of two uint64 (numba has no 128-bit integers)."""
    a_lo, a_hi = a & _LOW32, a >> _S32
    b_lo, b_hi = b & _LOW32, b >> _S32
    lolo = a_lo * b_lo
    hilo = a_hi * b_lo
    cross = (lolo >> _S32) + (hilo & _LOW32) + a_lo * b_hi
    high = (hilo >> _S32) + (cross >> _S32) + a_hi * b_hi
    low = (cross << _S32) | (lolo & _LOW32)
    return high, low


@njit(cache=True, inline="always")
def rand_below(rng, n):
    """A uniform integer in ``[0, n)`` (``1 <= n < 2**63``): Lemire's multiply-and-reject, exact, rarely divides.

    D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019: the high half of ``x * n`` is
    uniform once the draws whose low half falls below ``2**64 mod n`` are rejected.
    """
    bound = np.uint64(n)
    high, low = _mul128(next_u64(rng), bound)
    if low < bound:
        threshold = (np.uint64(0) - bound) % bound
        while low < threshold:
            high, low = _mul128(next_u64(rng), bound)
    return np.int64(high)


@njit(cache=True)
def sample_deal(cfg, tab, S, rng):
    """A chance outcome (split index) of the next value, drawn with the engine's probabilities."""
    n, cp1, target, hsize = cfg[k.N], cfg[k.C] + 1, cfg[k.O_TARGET], cfg[k.O_HSIZE]
    binom, split = cfg[k.T_BINOM], cfg[k.T_SPLIT]
    rem = cfg[k.C]
    rest = 0
    for s in range(n):
        rest += S[target + s] - S[hsize + s]
    r = rand_below(rng, tab[binom + rest * cp1 + rem])
    index = 0
    for s in range(n - 1):
        room = S[target + s] - S[hsize + s]
        rest -= room
        c = 0
        while True:
            # Deals giving k_s = c: C(room, c) for this seat times C(rest, rem - c) for the seats after it
            # (Vandermonde); within the block, each deal of the later seats repeats C(room, c) times.
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


@njit(cache=True)
def sample_uniform(cfg, tab, S, rng):
    """A uniform legal action of the seat to act (a play's cards left at ``O_PV``/``O_PC``); -1 if there is none."""
    p = S[k.S_CURRENT]
    extras, announced, plays = k.legal_shape(cfg, S, p)
    count = k.count_extras(extras)
    if plays:
        count += k.fill_hand_table(cfg, S, p) * announced
    if count == 0:
        return -1
    return k.pick(cfg, tab, S, p, extras, announced, rand_below(rng, count))


@njit(cache=True)
def choose(cfg, tab, S, rng, kinds):
    """The action of the seat to act, by its kind (only :data:`RANDOM` so far)."""
    return sample_uniform(cfg, tab, S, rng)


@njit(cache=True)
def step(cfg, tab, S, rng, kinds):
    """Draw and apply one action (chance or player); return it, or -1 if a seat had no legal action."""
    if k.current_player(cfg, S) == k.CHANCE:
        a = sample_deal(cfg, tab, S, rng)
        k.apply_deal(cfg, tab, S, a)
        return a
    a = choose(cfg, tab, S, rng, kinds)
    if a >= 0:
        k.apply_player_action(cfg, tab, S, a)
    return a


@njit(cache=True)
def deal_only(cfg, tab, S, seed):
    """Resolve the deal of a fresh position with the stream of ``seed`` (as :func:`play_random` does first).

    Returns the chance actions taken.
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(cfg[k.V], dtype=np.int64)
    i = 0
    while k.current_player(cfg, S) == k.CHANCE:
        a = sample_deal(cfg, tab, S, rng)
        k.apply_deal(cfg, tab, S, a)
        out[i] = a
        i += 1
    return out[:i]


@njit(cache=True)
def _grow(buf, used, need):
    if used + need <= buf.shape[0]:
        return buf
    bigger = np.empty(max(2 * buf.shape[0], used + need), dtype=buf.dtype)
    bigger[:used] = buf[:used]
    return bigger


@njit(cache=True)
def play_random(cfg, tab, seeds, kinds, want_hist):
    """One game per seed, every seat of its kind; the record fields of every seat, columnar.

    Returns ``(game_ints, seat_ints, seat_floats, by_size, returns, trace, trace_offsets, hist, hist_offsets,
    error)``: ``game_ints[g] = (turns, end code)``; ``seat_ints[g, p]`` = :data:`SEAT_INTS` then the record counters;
    ``seat_floats[g, p] = (rank, points_rank)``; ``by_size[g, p, j, size - 1]`` for the three per-size lists;
    ``trace[trace_offsets[g]:trace_offsets[g + 1]]`` = cards shed by every seat after each player turn (turn-major);
    ``hist`` likewise the actions (chance included) when ``want_hist``; ``error`` is 0 or :data:`ERR_NO_ACTION`.
    """
    G = seeds.shape[0]
    n, mp = cfg[k.N], cfg[k.M]
    S = np.empty(cfg[k.SIZE], dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    game_ints = np.zeros((G, 2), dtype=np.int64)
    seat_ints = np.zeros((G, n, _NSI + k.NREC), dtype=np.int64)
    seat_floats = np.zeros((G, n, 2), dtype=np.float64)
    by_size = np.zeros((G, n, 3, mp), dtype=np.int32)
    returns = np.zeros((G, n), dtype=np.float64)
    trace = np.empty(max(4096, G * n * 16), dtype=np.int16)  # grows by doubling
    trace_offsets = np.zeros(G + 1, dtype=np.int64)
    hist = np.empty(max(4096, G * 64) if want_hist else 0, dtype=np.int32)
    hist_offsets = np.zeros(G + 1, dtype=np.int64)
    tpos = 0
    hpos = 0
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    for g in range(G):
        k.init_state(cfg, S)
        rng[0] = seeds[g]
        while True:
            p = k.current_player(cfg, S)
            if p == k.TERMINAL:
                break
            a = step(cfg, tab, S, rng, kinds)
            if a < 0:
                return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets,
                        hist[:hpos], hist_offsets, ERR_NO_ACTION)
            if want_hist:
                if hpos == hist.shape[0]:
                    hist = _grow(hist, hpos, 1)
                hist[hpos] = a
                hpos += 1
            if p >= 0:
                if tpos + n > trace.shape[0]:
                    trace = _grow(trace, tpos, n)
                for q in range(n):
                    trace[tpos + q] = S[cfg[k.O_START] + q] - S[cfg[k.O_HSIZE] + q]
                tpos += n
        trace_offsets[g + 1] = tpos
        hist_offsets[g + 1] = hpos
        game_ints[g, 0] = S[k.S_TURNS]
        game_ints[g, 1] = S[k.S_END]
        k.results(cfg, S, ranks, points_ranks, rets)
        for p in range(n):
            row = seat_ints[g, p]
            row[0] = S[cfg[k.O_TARGET] + p]
            row[1] = S[cfg[k.O_START] + p]
            row[2] = S[cfg[k.O_HSIZE] + p]
            row[3] = S[cfg[k.O_OUT] + p]
            row[4] = k.points_of(cfg, S, p)
            row[5] = cfg[k.PG] * S[cfg[k.O_OUT] + p]
            row[6] = cfg[k.PC] * S[cfg[k.O_HSIZE] + p]
            row[7] = cfg[k.PF] * S[cfg[k.O_FALSE] + p]
            row[8] = cfg[k.PU] * S[cfg[k.O_UNM] + p]
            row[9] = cfg[k.PW] * S[cfg[k.O_WRONG] + p]
            for f in range(k.NREC):
                row[_NSI + f] = S[k.rec_at(cfg, p, f)]
            for j in range(3):
                for size in range(1, mp + 1):
                    by_size[g, p, j, size - 1] = S[k.size_at(cfg, p, j, size)]
            seat_floats[g, p, 0] = ranks[p]
            seat_floats[g, p, 1] = points_ranks[p]
            returns[g, p] = rets[p]
    return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets, hist[:hpos],
            hist_offsets, 0)


@njit(cache=True)
def rollouts(cfg, tab, S0, count, seed, kinds):
    """Mean returns of ``count`` playouts from position ``S0`` (one SplitMix64 stream from ``seed``).

    Returns ``(means, error)``.
    """
    n = cfg[k.N]
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    total = np.zeros(n, dtype=np.float64)
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    for _ in range(count):
        S[:] = S0
        while k.current_player(cfg, S) != k.TERMINAL:
            if step(cfg, tab, S, rng, kinds) < 0:
                return total, ERR_NO_ACTION
        k.results(cfg, S, ranks, points_ranks, rets)
        total += rets
    return total / max(count, 1), 0


@njit(cache=True)
def sample_actions(cfg, tab, S0, count, seed, kinds):
    """``count`` independent draws of the action at position ``S0`` (chance by its probabilities, seats by kind)."""
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(count, dtype=np.int64)
    chance = k.current_player(cfg, S) == k.CHANCE
    for i in range(count):
        if chance:
            out[i] = sample_deal(cfg, tab, S, rng)
        else:
            out[i] = choose(cfg, tab, S, rng, kinds)
    return out


@njit(cache=True)
def legal_actions(cfg, tab, S):
    """Every legal action of the seat to act, ascending (the engine's ``legal_actions()``)."""
    p = S[k.S_CURRENT]
    count = k.legal_count(cfg, S, p)
    out = np.empty(count, dtype=np.int64)
    extras, announced, plays = k.legal_shape(cfg, S, p)
    i = 0
    for bit in range(3):
        if extras & (1 << bit):
            out[i] = bit
            i += 1
    if plays:
        values = cfg[k.V]
        d = cfg[k.O_D]
        playable = 0
        for r in range(1, cfg[k.M] + 1):
            playable += S[d + r]
        for j in range(playable):
            size = k.unrank_hand_play(cfg, S, p, j)
            base = k.FIRST_PLAY + k.multiset_index(cfg, tab, S, size) * values
            for a in range(announced):
                out[i] = base + k.announced_value(cfg, S, a)
                i += 1
    return out


@njit(cache=True)
def nth_legal(cfg, tab, S, r):
    """The ``r``-th legal action as the uniform sampler computes it (without listing); for tests."""
    return k.action_at(cfg, tab, S, S[k.S_CURRENT], r)


@njit(cache=True)
def chance_outcomes(cfg, tab, S):
    """``(ids, probabilities)`` of the next value's splits with at least one deal (the engine's order)."""
    count = k.split_count(cfg, tab)
    total = k.deal_total(cfg, tab, S)
    ids = np.empty(count, dtype=np.int64)
    probs = np.empty(count, dtype=np.float64)
    j = 0
    for index in range(count):
        ways = k.split_ways(cfg, tab, S, index)
        if ways > 0:
            ids[j] = index
            # Both below 2**53, so the float division is the exact quotient correctly rounded, as Python's int / int.
            probs[j] = ways / total
            j += 1
    return ids[:j], probs[:j]


@njit(cache=True)
def apply_checked(cfg, tab, S, action):
    """Apply ``action`` if legal at ``S``; return whether it was."""
    p = k.current_player(cfg, S)
    if p == k.TERMINAL:
        return False
    if p == k.CHANCE:
        if action < 0 or action >= k.split_count(cfg, tab) or k.split_ways(cfg, tab, S, action) == 0:
            return False
        k.apply_deal(cfg, tab, S, action)
        return True
    if not k.is_legal(cfg, tab, S, action):
        return False
    k.apply_player_action(cfg, tab, S, action)
    return True


@njit(cache=True)
def state_results(cfg, S):
    """``(ranks, points_ranks, returns)`` of position ``S`` (returns are zeros before the end)."""
    n = cfg[k.N]
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    k.results(cfg, S, ranks, points_ranks, rets)
    return ranks, points_ranks, rets
