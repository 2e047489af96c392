"""Whole games in the compiled ``trustme_1981`` kernel: one game per seed from the start (the sweeps' loop, records
and histories kept), and play-outs from a position (a search player's rollouts), seats uniform random or heuristic.

A game depends on its seed alone: SplitMix64 with the seed as its state, drawn by the draw protocol
(:mod:`trustme_analysis.engine.draws`, its compiled primitives from :mod:`trustme_analysis.engine.compiled_draws`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.engine.compiled_draws import below, next_u64, uniform01, walk
from trustme_analysis.games.board1981.kernel.basics import wealth
from trustme_analysis.games.board1981.kernel.heuristic import heuristic_probs
from trustme_analysis.games.board1981.kernel.layout import (
    DECIDER, OVER, PHASE, R_MAX_GAME_LENGTH, R_MAX_TURNS, R_N, R_NUM_ACTIONS, STATE_SIZE, TURNS, tie_module, unmanaged,
)
from trustme_analysis.games.board1981.kernel.step import (
    apply_action, init_state, is_chance, legal_actions, returns, sample_chance,
)

# ---------------------------------------------------------------------------------------------- whole games

#: Seat kinds of the compiled players: uniform random, and the heuristic (heuristic.py, with the knobs array).
SEAT_RANDOM = 0
SEAT_HEURISTIC = 1


@njit(cache=True, inline="always")
def pick(items, probs, k, rng):
    """``items[i]`` of the first ``k`` picked by the draw protocol (:mod:`trustme_analysis.engine.draws`): one with
    positive probability is taken without a draw; otherwise one uniform number walks them in order
    (:func:`~trustme_analysis.engine.compiled_draws.walk`)."""
    positive = 0
    for i in range(k):
        if probs[i] > 0.0:
            positive += 1
            if positive > 1:
                break
    if positive == 1:
        for i in range(k):
            if probs[i] > 0.0:
                return items[i]
    return items[walk(probs, k, uniform01(rng))]


@njit(cache=True, inline="always")
def choose(st, r, rng, seat_kinds, kn, legal, probs):
    """The current player's action: ``seat_kinds[p]`` names seat ``p``'s player (SEAT_RANDOM: uniform over the
    legal actions; SEAT_HEURISTIC: a draw from the heuristic's probabilities by the draw protocol, :func:`walk`)."""
    k = legal_actions(st, r, legal)
    if seat_kinds[st[DECIDER]] == SEAT_HEURISTIC:
        heuristic_probs(st, r, kn, legal, k, probs, probs[k:])
        return pick(legal, probs, k, rng)
    return legal[below(rng, k)]


@njit(cache=True)
def grown(buf, need):
    """``buf``, or a copy at least twice as long when it is shorter than ``need``."""
    if need <= buf.shape[0]:
        return buf
    out = np.empty(max(need, 2 * buf.shape[0]), buf.dtype)
    out[: buf.shape[0]] = buf
    return out


@njit(cache=True)
def push_trace(st, r, trace, used):
    """Write every seat's wealth to ``trace`` from ``used`` on; return the new length."""
    for p in range(r[R_N]):
        trace[used + p] = wealth(st, p)
    return used + r[R_N]


@njit(cache=True)
def play_out(st, r, rng, seat_kinds, kn, legal, weights, probs, trace, history, keep):
    """Play the game in ``st`` to its end (chance by its probabilities, seats by ``seat_kinds``).

    With ``keep``, write the score trace (every seat's wealth at each turn start after the first and at the end: one
    entry per turn begun, as records.py builds it) to ``trace`` and every action to ``history``, both from index 0,
    and return their lengths. Their sizes must hold a game of the longest length (:func:`scratch_sizes`).
    """
    turns = st[TURNS]
    used = 0
    hused = 0
    while st[PHASE] != OVER:
        if is_chance(st):
            a = sample_chance(st, r, rng, legal, weights)
        else:
            a = choose(st, r, rng, seat_kinds, kn, legal, probs)
        apply_action(st, r, a)
        if keep:
            if hused == history.shape[0]:
                # Never met: the engine's max_game_length bounds every game (a guard, the views are unchecked).
                raise IndexError("a game ran past the engine's max_game_length")
            history[hused] = a
            hused += 1
            if st[TURNS] != turns:
                if turns >= 1:
                    used = push_trace(st, r, trace, used)
                turns = st[TURNS]
    if keep and turns >= 1:
        used = push_trace(st, r, trace, used)
    return used, hused


@njit(cache=True)
def scratch_sizes(r):
    """Sizes that hold the score trace and the history of the longest game (the engine's max_game_length)."""
    return (r[R_MAX_TURNS] + 1) * r[R_N], r[R_MAX_GAME_LENGTH] + 1


@njit(cache=True)
def rollout_returns(r, start, n, seed, seat_kinds, kn):
    """Mean returns of ``n`` playouts (seats by ``seat_kinds``) from the state ``start``; playout ``i`` is seeded by
    ``seed`` and ``i``."""
    # Scratch owned here, played on in rollout_returns_on through unmanaged views: numba frees an array after
    # the last line that names it, so the views must not outlive the arrays' owner (this frame). (When one function did
    # both, a freed generator's memory was reused by the heuristic's masks: every heuristic game drew its choices from a
    # number those masks had written.)
    state_buf = np.empty(STATE_SIZE, np.int64)
    rng_buf = np.empty(1, np.uint64)
    legal_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    weights_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    probs_buf = np.empty(2 * (r[R_NUM_ACTIONS] + 1), np.float64)
    none_buf = np.empty(0, np.int64)
    return rollout_returns_on(r, start, n, seed, seat_kinds, kn, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                              none_buf)


@njit(cache=True)
def rollout_returns_on(r, start, n, seed, seat_kinds, kn, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                       none_buf):
    """The loop of :func:`rollout_returns` on scratch its caller holds."""
    total = np.zeros(r[R_N], np.float64)
    ret = np.empty(r[R_N], np.float64)
    st, rng, legal, weights = unmanaged(state_buf), unmanaged(rng_buf), unmanaged(legal_buf), unmanaged(weights_buf)
    rv, kinds, none = unmanaged(r), unmanaged(seat_kinds), unmanaged(none_buf)
    kv, probs = unmanaged(kn), unmanaged(probs_buf)
    base = np.empty(1, np.uint64)
    base[0] = seed
    for i in range(n):
        st[:] = start
        rng[0] = next_u64(base)  # one SplitMix64 output per playout seeds it: independent streams
        play_out(st, rv, rng, kinds, kv, legal, weights, probs, none, none, False)
        returns(st, rv, ret)
        total += ret
    if n > 0:
        total /= n
    return total


tie_module(__name__)
