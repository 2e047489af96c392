"""The heuristic bot's policy (:func:`trustme_analysis.games.liar.players.heuristic.policy`) over the compiled Liar
position (numba), for the play loops and the rollouts: its distribution and one draw from it.

Every probability is computed with the same operations in the same order as the bot's, and the tests compare the two
distributions at random positions (to 1e-12).

Nothing here allocates at a decision: the callers hand in scratch (:func:`new_buffer`, once per batch of games), and
the functions borrow their arrays (:mod:`cfr.numba_borrowing`). Until 2026-12-05 each decision allocated its lists,
and a 4-player heuristic line-up spent about 30% of its CPU time in reference counts (15,500 games per CPU second;
28,000 since, the same games)."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.games.liar.kernel import actions, layout
from trustme_analysis.engine.compiled_draws import uniform01
from trustme_analysis.games.liar.kernel.actions import decode_play, multiset_index
from trustme_analysis.games.liar.kernel.layout import (
    BURN, C, FIRST_PLAY, K_BLUFF_RATE, K_BLUFF_START, K_BURN, K_CALL, K_CALL_LAST, K_CALL_RATE, K_EXTRA, K_MAX_PILE,
    K_PER_CARD, K_PRIOR, K_SLACK, K_TIMEOUT, LIAR, M, N, O_BURNBY, O_CLAIMBURN, O_DISC, O_HSIZE, O_KNOWN, O_LASTC,
    O_OTHERS, O_PC, O_PPLAYER, O_PSEAT, O_PV, O_UNSEEN, PASS, S_CURRENT, S_GOING, S_LASTN, S_PCARDS, S_PLEN, S_PN,
    S_RVALUE, V, compiled_functions, hand_at,
)

# ------------------------------------------------------------------------------------------------ the heuristic


@borrowing()
def binom_f(a, b):
    """C(a, b) as a float, multiplied out as ``heuristic._binom`` does."""
    if b < 0 or b > a:
        return 0.0
    out = 1.0
    for i in range(1, b + 1):
        out = out * (a - b + i) / i
    return out


@borrowing()
def binom_i(a, b):
    """C(a, b) as an exact integer (small arguments)."""
    if b < 0 or b > a:
        return 0
    out = 1
    for i in range(1, b + 1):
        out = out * (a - b + i) // i
    return out


@borrowing()
def holds_at_least(pool, good, drawn, k):
    """``heuristic.holds_at_least``: P(X >= k), X hypergeometric (``drawn`` of ``pool``, ``good`` good)."""
    if k <= 0:
        return 1.0
    drawn = min(drawn, pool)
    if good < k or drawn < k:
        return 0.0
    total = binom_f(pool, drawn)
    below = 0.0
    for x in range(max(0, drawn - (pool - good)), k):
        below += binom_f(good, x) * binom_f(pool - good, drawn - x) / total
    return max(0.0, 1.0 - below)


@borrowing()
def fill_unseen(cfg, S, p):
    """``heuristic.unseen_copies`` of seat ``p`` into ``O_UNSEEN``; returns their total."""
    n, values = cfg[N], cfg[V]
    out = cfg[O_UNSEEN]
    total = 0
    for v in range(values):
        k = 0
        for h in range(n):
            k += S[cfg[O_KNOWN] + (p * n + h) * values + v]
        u = (cfg[C] - S[cfg[O_DISC] + v] - S[hand_at(cfg, p, v)] - S[cfg[O_PSEAT] + p * values + v]
             - S[cfg[O_BURNBY] + p * values + v] - k)
        S[out + v] = u
        total += u
    return total


@borrowing()
def bluff_chance(cfg, S, p, prior):
    """``heuristic.bluff_chance``: the chance, as seat ``p`` sees it, that the play open to a challenge is a bluff."""
    n, values = cfg[N], cfg[V]
    total_unseen = fill_unseen(cfg, S, p)
    value = S[S_RVALUE]
    liar = S[cfg[O_PPLAYER] + S[S_PLEN] - 1]
    count = 0
    for i in range(S[S_LASTN]):
        count += S[cfg[O_LASTC] + i]
    unseen_v = S[cfg[O_UNSEEN] + value]
    if count > unseen_v:
        return 1.0
    own = 0
    for v in range(values):
        own += S[cfg[O_PSEAT] + p * values + v]
    earlier = S[S_PCARDS] - count - own
    claims = 0
    burned = 0
    for q in range(n):
        if q != p:
            claims += S[cfg[O_CLAIMBURN] + q * values + value]
            for v in range(values):
                burned += S[cfg[O_BURNBY] + q * values + v]
    good = max(0, unseen_v - earlier - claims)
    pool = max(good, total_unseen - earlier - burned)
    drawn = S[cfg[O_HSIZE] + liar] + count
    held = holds_at_least(pool, good, drawn, count)
    if S[S_PLEN] == 1:
        one = holds_at_least(pool, good, drawn, 1)
        if held <= 0.0 or one <= 0.0:
            return 1.0
        return prior / (prior + (1.0 - prior) * (held / one))
    if held <= 0.0:
        return 1.0
    return prior * (1.0 - held) / (prior * (1.0 - held) + held)


@borrowing()
def bluff_room(cfg, S, p, value, slack):
    """``heuristic.bluff_room``."""
    values = cfg[V]
    return (S[hand_at(cfg, p, value)] + S[cfg[O_PSEAT] + p * values + value] + S[cfg[O_BURNBY] + p * values + value]
            + slack - S[S_PCARDS])


@borrowing()
def fill_others(cfg, S, p, value):
    """List at ``O_OTHERS`` the values seat ``p`` holds other than ``value`` (ascending); return how many."""
    m = 0
    for v in range(cfg[V]):
        if v != value and S[hand_at(cfg, p, v)] > 0:
            S[cfg[O_OTHERS] + m] = v
            m += 1
    return m


@borrowing()
def set_play(cfg, tab, S, value, true, announced, picks, take):
    """Write the play of ``true`` cards of ``value`` and one card of each of ``picks[:take]`` at ``O_PV``/``O_PC``
    (ascending values) and return its action id."""
    pv, pc = cfg[O_PV], cfg[O_PC]
    n = 0
    size = true
    if true > 0:
        S[pv] = value
        S[pc] = true
        n = 1
    for j in range(take):
        u = picks[j]
        # Insertion into the ascending list.
        i = n
        while i > 0 and S[pv + i - 1] > u:
            S[pv + i] = S[pv + i - 1]
            S[pc + i] = S[pc + i - 1]
            i -= 1
        S[pv + i] = u
        S[pc + i] = 1
        n += 1
        size += 1
    S[S_PN] = n
    return FIRST_PLAY + multiset_index(cfg, tab, S, size) * cfg[V] + announced


@borrowing()
def timeout_move(cfg, tab, S, p, picks):
    """``state.timeout_action``: the starter's lowest card played truthfully, else a pass (a burn for the last
    player after all the others passed). ``picks`` is scratch (the play takes no other card)."""
    if S[S_GOING] >= 0:
        return PASS
    if S[S_RVALUE] < 0:
        lowest = 0
        while S[hand_at(cfg, p, lowest)] == 0:
            lowest += 1
        return set_play(cfg, tab, S, lowest, 1, lowest, picks, 0)
    if S[cfg[O_PPLAYER] + S[S_PLEN] - 1] == p:
        return BURN
    return PASS


@borrowing()
def start_choice(cfg, S, p, chosen):
    """The values a starting heuristic may announce (held most, then fewest unseen) into ``chosen``; return
    ``(how many, cards of each held)``. Needs ``O_UNSEEN`` filled."""
    values = cfg[V]
    most = 0
    for v in range(values):
        most = max(most, S[hand_at(cfg, p, v)])
    fewest = 1 << 40
    for v in range(values):
        if S[hand_at(cfg, p, v)] == most:
            fewest = min(fewest, S[cfg[O_UNSEEN] + v])
    m = 0
    for v in range(values):
        if S[hand_at(cfg, p, v)] == most and S[cfg[O_UNSEEN] + v] == fewest:
            chosen[m] = v
            m += 1
    return m, most


@borrowing()
def list_size(cfg, extra):
    """The most entries :func:`heuristic_distribution` lists with the knob ``extra`` (cards added to a bluff)."""
    values = cfg[V]
    subsets = 1
    for take in range(1, min(extra, values - 1) + 1):
        subsets = max(subsets, binom_i(values - 1, take))
    return 4 + values * (1 + subsets) + values


@njit(cache=True)
def buffer_entries(cfg, extra):
    """Entries of the int64 scratch :func:`heuristic_sample` takes for knobs whose ``extra`` is at most this: the
    listed actions, their probabilities (as float64) and :func:`heuristic_distribution`'s work (:func:`split_buffer`)."""
    return 2 * list_size(cfg, extra) + 3 * cfg[V]


@njit(cache=True)
def buffer_size(cfg, knobs):
    """:func:`buffer_entries` for seats with the knobs ``knobs`` (a row per seat)."""
    extra = 0
    for r in range(knobs.shape[0]):
        extra = max(extra, np.int64(knobs[r, K_EXTRA]))
    return buffer_entries(cfg, extra)


@njit(cache=True)
def new_buffer(cfg, knobs):
    """Scratch for :func:`heuristic_sample` (a row of ``knobs`` per seat): allocated once per batch of games, not
    at every decision, so that the decisions count no references (:mod:`cfr.numba_borrowing`)."""
    return np.zeros(buffer_size(cfg, knobs), np.int64)


@njit(cache=True, inline="always")
def split_buffer(cfg, knobs, hbuf):
    """``hbuf`` (:func:`new_buffer`) as the heuristic's action list, its probabilities and its work, for the knobs
    row ``knobs``."""
    size = list_size(cfg, np.int64(knobs[K_EXTRA]))
    work = hbuf.shape[0] - 3 * cfg[V]
    return hbuf[:size], hbuf[size:2 * size].view(np.float64), hbuf[work:]


@borrowing()
def heuristic_sample(cfg, tab, S, knobs, rng, hbuf):
    """One action of the seat to act drawn from the heuristic's policy (:func:`heuristic_distribution`, an action's
    entries added up) by the draw protocol: a sure action draws nothing, else one uniform number walks the actions in
    ascending id order. A play leaves its cards at ``O_PV``/``O_PC``. ``hbuf`` is scratch of
    :func:`buffer_size` entries for these knobs (:func:`new_buffer`)."""
    actions, probs, work = split_buffer(cfg, knobs, hbuf)
    k = heuristic_distribution(cfg, tab, S, knobs, actions, probs, work)
    # Ascending ids, an action's entries added up in the order listed (insertion sort: a few dozen entries).
    m = 0
    for i in range(k):
        a, x = actions[i], probs[i]
        j = 0
        while j < m and actions[j] < a:
            j += 1
        if j < m and actions[j] == a:
            probs[j] += x
            continue
        for t in range(m, j, -1):
            actions[t] = actions[t - 1]
            probs[t] = probs[t - 1]
        actions[j] = a
        probs[j] = x
        m += 1
    last, positive = -1, 0
    for i in range(m):
        if probs[i] > 0.0:
            last = i
            positive += 1
    chosen = actions[last]
    if positive > 1:
        u = uniform01(rng)
        for i in range(m):
            if probs[i] > 0.0:
                if u < probs[i]:
                    chosen = actions[i]
                    break
                u -= probs[i]
    if chosen >= FIRST_PLAY:
        decode_play(cfg, tab, S, chosen)
    return chosen


@borrowing()
def _next_combo(idx, m, k):
    """Advance ``idx[:k]`` to the next k-subset of range(m) in lexicographic order; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@borrowing()
def heuristic_distribution(cfg, tab, S, knobs, actions, probs, work):
    """Every action of the heuristic's policy at ``S`` with its probability, into ``actions``/``probs`` (at most
    :func:`list_size` entries; an action may appear twice, e.g. the time-out's play among the intended ones); returns
    how many. ``work`` is int64 scratch of ``3 * values`` entries."""
    p = S[S_CURRENT]
    values, mp = cfg[V], cfg[M]
    keep = 1.0 - knobs[K_TIMEOUT]
    k = 0
    if knobs[K_TIMEOUT] > 0.0:
        actions[k] = timeout_move(cfg, tab, S, p, work[:values])
        probs[k] = knobs[K_TIMEOUT]
        k += 1
    picks = work[:values]
    if S[S_GOING] >= 0:
        call = 1.0 if bluff_chance(cfg, S, p, knobs[K_PRIOR]) >= knobs[K_CALL_LAST] else knobs[K_CALL_RATE]
        actions[k] = LIAR
        probs[k] = call * keep
        actions[k + 1] = PASS
        probs[k + 1] = (1.0 - call) * keep
        return k + 2
    if S[S_RVALUE] < 0:
        fill_unseen(cfg, S, p)
        chosen = work[values:2 * values]
        m, most = start_choice(cfg, S, p, chosen)
        hand_size = S[cfg[O_HSIZE] + p]
        chance = min(1.0, knobs[K_BLUFF_START] + knobs[K_PER_CARD] * hand_size)
        share = 1.0 / m
        idx = work[2 * values:3 * values]
        for c in range(m):
            value = chosen[c]
            true = min(most, mp)
            room = bluff_room(cfg, S, p, value, np.int64(knobs[K_SLACK]))
            extra = min(np.int64(knobs[K_EXTRA]), mp - true, room - true)
            others = fill_others(cfg, S, p, value) if extra > 0 else 0
            if others == 0:
                actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
                probs[k] = share * keep
                k += 1
                continue
            actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
            probs[k] = share * (1.0 - chance) * keep
            k += 1
            take = min(extra, others)
            each = 1.0 / binom_i(others, take)
            for j in range(take):
                idx[j] = j
            while True:
                for j in range(take):
                    picks[j] = S[cfg[O_OTHERS] + idx[j]]
                actions[k] = set_play(cfg, tab, S, value, true, value, picks, take)
                probs[k] = share * chance * each * keep
                k += 1
                if not _next_combo(idx, others, take):
                    break
        return k
    value = S[S_RVALUE]
    adding = S[cfg[O_PPLAYER] + S[S_PLEN] - 1] == p
    rest = 1.0
    if not adding:
        call = 1.0 if bluff_chance(cfg, S, p, knobs[K_PRIOR]) >= knobs[K_CALL] else knobs[K_CALL_RATE]
        actions[k] = LIAR
        probs[k] = call * keep
        k += 1
        rest = 1.0 - call
    true = min(S[hand_at(cfg, p, value)], mp)
    if true > 0:
        actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
        probs[k] = rest * keep
        return k + 1
    others = fill_others(cfg, S, p, value)
    small = S[S_PCARDS] <= np.int64(knobs[K_MAX_PILE])
    if adding:
        stop, bluff = BURN, (1.0 - knobs[K_BURN] if small else 0.0)
    else:
        stop, bluff = PASS, (knobs[K_BLUFF_RATE] if small else 0.0)
    if others == 0 or bluff_room(cfg, S, p, value, np.int64(knobs[K_SLACK])) < 1:
        bluff = 0.0
    actions[k] = stop
    probs[k] = rest * (1.0 - bluff) * keep
    k += 1
    for j in range(others):
        picks[0] = S[cfg[O_OTHERS] + j]
        actions[k] = set_play(cfg, tab, S, value, 0, value, picks, 1)
        probs[k] = rest * bluff * (1.0 / others) * keep
        k += 1
    return k


tie_cache_to_sources(compiled_functions(__name__), sys.modules[__name__], actions, layout, compiled_draws)
