"""Whole games with trained seats inside the compiled kernel: :func:`play_batch_trained`.

The same loop as :func:`~trustme_analysis.games.pinocchio.kernel.play.play_batch` (one game per seed, chance by its
probabilities, random and heuristic seats by the kernel's own functions), with one more seat kind,
:data:`~trustme_analysis.games.pinocchio.kernel.layout.SEAT_TRAINED`: the trained policy's row at the position
(:mod:`.abstraction`), read from a stored policy's lookup table (:mod:`trustme_analysis.train.tables`) and drawn
with one uniform number by the draw protocol (and one more integer when several moves share the drawn
description). The policy is exactly the trained bot's (:class:`trustme_analysis.players.trained.TrainedBot`): both
read the same table with the same functions.

It lives in its own file so that the kernel's files change only where the kernel offers the seat kind
(:class:`~trustme_analysis.games.pinocchio.kernel.Kernel` with ``trained=``); its numba cache is tied to the sources
it inlines.
"""

from __future__ import annotations

from numba import njit

from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.pinocchio.kernel import abstraction as A
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.train import tables as T

compiled = njit(cache=True)


@njit(cache=True, inline="always")
def trained_action(s, R, rng, tkeys, tavg, detail, acts, cbuf, row, which, probs):
    """The trained seat's move at ``s``: a row entry drawn from the stored average strategy, then one of the legal
    moves it describes, uniformly."""
    na = K.legal_actions(s, R, acts, cbuf)
    m = A.row_of(s, R, s[K.ACTOR], acts, na, row, which, detail)
    T.average_row(tkeys, tavg, row, m, probs)
    u = m - 1
    positive = 0
    for j in range(m):
        if probs[j] > 0.0:
            positive += 1
            u = j
    if positive > 1:
        x = uniform01(rng)
        for j in range(m):
            if probs[j] > 0.0:
                if x < probs[j]:
                    u = j
                    break
                x -= probs[j]
    c = 0
    for j in range(na):
        if which[j] == u:
            c += 1
    k = below(rng, c) if c > 1 else 0
    for j in range(na):
        if which[j] == u:
            if k == 0:
                return acts[j]
            k -= 1
    return acts[0]


@compiled
def play_batch_trained(R, seeds, finals, trace, trace_off, hist, hist_off, max_turns, max_len, s, rng, buf, kinds, H,
                       acts, probs, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs):
    """:func:`~trustme_analysis.games.pinocchio.kernel.play.play_batch` with trained seats (kind
    :data:`~trustme_analysis.games.pinocchio.kernel.layout.SEAT_TRAINED`) playing the policy table ``tkeys``/``tavg``
    at abstraction level ``detail``; the arguments after ``tavg`` are scratch owned by the caller."""
    n = R[K.R_PLAYERS]
    keep = hist.shape[0] > 0
    trace_off[0] = 0
    hist_off[0] = 0
    for g in range(seeds.shape[0]):
        K.init_state(s, R)
        rng[0] = seeds[g]
        t0 = trace_off[g]
        tview = trace[t0:t0 + max_turns * n].reshape((max_turns, n))
        h0 = hist_off[g]
        hview = hist[h0:h0 + max_len] if keep else hist[:0]
        h = h0
        while s[K.PHASE] != K.TERMINAL:
            if K.is_chance_phase(s[K.PHASE]):
                a = K.sample_chance(s, R, rng)
            elif kinds[s[K.ACTOR]] == K.SEAT_TRAINED:
                a = trained_action(s, R, rng, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs)
            elif kinds[s[K.ACTOR]] == K.SEAT_HEURISTIC:
                a = K.heuristic_action(s, R, H[s[K.ACTOR]], rng, acts, probs, buf)
            else:
                a = K.random_action(s, R, rng, buf)
            if keep:
                if h >= 0 and h - h0 < hview.shape[0]:
                    hist[h] = a
                    h += 1
                else:
                    h = -1
            K.step(s, R, a, tview)
        for i in range(K.STATE_SIZE):
            finals[g, i] = s[i]
        trace_off[g + 1] = t0 + s[K.TURN] * n
        if h < 0:
            s[K.ERROR] = K.ERR_HISTORY_OVERFLOW
            finals[g, K.ERROR] = K.ERR_HISTORY_OVERFLOW
            h = h0
        hist_off[g + 1] = h


tie_cache_to_sources((play_batch_trained,), *K.SOURCES, A, T)
