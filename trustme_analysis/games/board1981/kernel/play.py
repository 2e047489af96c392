"""The random and heuristic seats of the compiled ``trustme_1981`` kernel (:func:`choose`) and the score trace of a
game; the loops that play them are :func:`.trained.play_games` (whole games) and :mod:`.trained_rollouts`
(play-outs from a position), one loop each for every line-up.

A game depends on its seed alone: SplitMix64 with the seed as its state, drawn by the draw protocol
(:mod:`trustme_analysis.engine.draws`, its compiled primitives from :mod:`trustme_analysis.engine.compiled_draws`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.engine.compiled_draws import below, uniform01, walk
from trustme_analysis.games.board1981.kernel.basics import wealth
from trustme_analysis.games.board1981.kernel.heuristic import heuristic_probs
from trustme_analysis.games.board1981.kernel.layout import (
    DECIDER, R_MAX_GAME_LENGTH, R_MAX_TURNS, R_N, tie_module,
)
from trustme_analysis.games.board1981.kernel.step import (
    legal_actions,
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


@borrowing()
def push_trace(st, r, trace, used):
    """Write every seat's wealth to ``trace`` from ``used`` on; return the new length."""
    for p in range(r[R_N]):
        trace[used + p] = wealth(st, p)
    return used + r[R_N]


@njit(cache=True)
def scratch_sizes(r):
    """Sizes that hold the score trace and the history of the longest game (the engine's max_game_length)."""
    return (r[R_MAX_TURNS] + 1) * r[R_N], r[R_MAX_GAME_LENGTH] + 1


tie_module(__name__)
