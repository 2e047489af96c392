"""Whole games with trained seats inside the compiled Liar kernel: :func:`play_games_trained`,
:func:`sample_actions_trained`.

The same loop as :func:`~.play.play_games` (one game per seed, chance by the draw protocol, random and heuristic
seats by :func:`~.play.choose`), with one more seat kind, :data:`TRAINED`: the stored policy's row at the position
(:mod:`.abstraction`), read from a trained policy's lookup table (:mod:`trustme_analysis.train.tables`); one uniform
number draws the row entry (none when only one entry has mass), then :func:`~.abstraction.sample_play` makes it a
concrete play. That is the rule the trained bot states (:class:`trustme_analysis.players.trained.TrainedBot` via
:func:`~.abstraction.policy_at`): both read the same table with the same functions, and
``tests/games/test_liar_trained.py`` checks the draws against the stated probabilities.

It lives in its own file so that the kernel's play loops stay as they are (:class:`~.kernel.Kernel` with
``trained=`` dispatches here); its numba cache is tied to the sources it inlines.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.compiled_draws import uniform01
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves, play
from trustme_analysis.games.liar.kernel.deal import apply_chance, sample_chance
from trustme_analysis.games.liar.kernel.layout import (
    CHANCE, ERR_NO_ACTION, M, N, O_HSIZE, O_START, SIZE, S_CURRENT, TERMINAL, current_player, init_state,
)
from trustme_analysis.games.liar.kernel.moves import apply_player_action
from trustme_analysis.games.liar.kernel.play import _grow, choose, new_records, write_record
from trustme_analysis.train import tables as T

#: The seat kind code of a trained seat (after :data:`~.layout.RANDOM` and :data:`~.layout.HEURISTIC`).
TRAINED = 2


@njit(cache=True, inline="always")
def trained_action(cfg, tab, S, rng, tkeys, tavg, detail, row, descs, probs, scratch):
    """The trained seat's action at ``S`` (a play's cards left at ``O_PV``/``O_PC``): a row entry drawn from the
    stored average strategy (uniform over the row where the table never met it), then a concrete action for it."""
    p = S[S_CURRENT]
    m = A.row_of(cfg, tab, S, p, detail, row, descs, scratch)
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
                u = j
                if x < probs[j]:
                    break
                x -= probs[j]
    return A.sample_play(cfg, tab, S, p, descs[u], detail, rng, scratch)


@njit(cache=True, inline="always")
def _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch):
    if kinds[S[S_CURRENT]] == TRAINED:
        return trained_action(cfg, tab, S, rng, tkeys, tavg, detail, row, descs, probs, scratch)
    return choose(cfg, tab, S, rng, kinds, knobs)


@njit(cache=True)
def play_games_trained(cfg, tab, seeds, kinds, knobs, want_hist, tkeys, tavg, detail, row, descs, probs, scratch):
    """:func:`~.play.play_games` with trained seats (kind :data:`TRAINED`) playing the policy table
    ``tkeys``/``tavg`` at abstraction level ``detail``; the arguments after ``detail`` are scratch owned by the
    caller. Returns what :func:`~.play.play_games` returns."""
    G = seeds.shape[0]
    n, mp = cfg[N], cfg[M]
    S = np.empty(cfg[SIZE], dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    game_ints, seat_ints, seat_floats, by_size, returns = new_records(G, n, mp)
    trace = np.empty(max(4096, G * n * 16), dtype=np.int16)
    trace_offsets = np.zeros(G + 1, dtype=np.int64)
    hist = np.empty(max(4096, G * 64) if want_hist else 0, dtype=np.int32)
    hist_offsets = np.zeros(G + 1, dtype=np.int64)
    tpos = 0
    hpos = 0
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    for g in range(G):
        init_state(cfg, S)
        rng[0] = seeds[g]
        while True:
            p = current_player(cfg, S)
            if p == TERMINAL:
                break
            if p == CHANCE:
                a = sample_chance(cfg, tab, S, rng)
                apply_chance(cfg, tab, S, a)
            else:
                a = _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch)
                if a < 0:
                    return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets,
                            hist[:hpos], hist_offsets, ERR_NO_ACTION)
                apply_player_action(cfg, tab, S, a)
            if want_hist:
                if hpos == hist.shape[0]:
                    hist = _grow(hist, hpos, 1)
                hist[hpos] = a
                hpos += 1
            if p >= 0:
                if tpos + n > trace.shape[0]:
                    trace = _grow(trace, tpos, n)
                for q in range(n):
                    trace[tpos + q] = S[cfg[O_START] + q] - S[cfg[O_HSIZE] + q]
                tpos += n
        trace_offsets[g + 1] = tpos
        hist_offsets[g + 1] = hpos
        write_record(cfg, S, g, game_ints, seat_ints, seat_floats, by_size, returns, ranks, points_ranks, rets)
    return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets, hist[:hpos],
            hist_offsets, 0)


@njit(cache=True)
def sample_actions_trained(cfg, tab, S0, count, seed, kinds, knobs, tkeys, tavg, detail, row, descs, probs,
                           scratch):
    """``count`` independent draws of the action at position ``S0``, as :func:`~.play.sample_actions` with trained
    seats (one SplitMix64 stream from ``seed``)."""
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(count, dtype=np.int64)
    chance = current_player(cfg, S) == CHANCE
    for i in range(count):
        if chance:
            out[i] = sample_chance(cfg, tab, S, rng)
        else:
            out[i] = _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch)
    return out


tie_cache_to_sources([play_games_trained, sample_actions_trained], sys.modules[__name__], A, actions, deal, heuristic,
                     layout, moves, play, compiled_draws, T)
