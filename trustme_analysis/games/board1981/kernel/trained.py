"""The trained seat of the compiled ``trustme_1981`` kernel, and its one whole-game loop: :func:`play_games`.

:func:`play_games` plays every line-up the kernel plays (one game per seed, chance by its probabilities, random and
heuristic seats by the kernel's own functions, :func:`~.play.choose`, exactly as the rollouts of :mod:`.play` draw
them) with one more seat kind, :data:`SEAT_TRAINED`: the trained policy's row at the position (:mod:`.abstraction`),
read from a stored policy's lookup table (:mod:`trustme_analysis.train.tables`; an empty one when no seat is trained)
and drawn with one uniform number (none when one entry holds all the mass), then one of the legal moves it describes,
uniformly (:func:`~trustme_analysis.train.tables.draw_entry`, :func:`~trustme_analysis.train.tables.concrete`). The
probabilities are those of :func:`.training.policy_at`, which the trained bot
(:class:`trustme_analysis.players.trained.TrainedBot`) states and the exact evaluation reads: the same table through
the same functions (``tests/games/test_1981_trained.py`` checks the draws against them). One loop for every line-up:
the untrained copy :mod:`.play` had was this loop without the trained seat (the same games bit for bit, and slower).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.games.board1981.kernel.abstraction import row_of
from trustme_analysis.games.board1981.kernel.layout import (
    DECIDER, OVER, PHASE, R_N, R_NUM_ACTIONS, STATE_SIZE, TURNS, tie_module,
)
from trustme_analysis.games.board1981.kernel.play import SEAT_HEURISTIC, choose, grown, push_trace, scratch_sizes
from trustme_analysis.games.board1981.kernel.step import apply_action, init_state, is_chance, legal_actions, \
    sample_chance
from trustme_analysis.train.tables import concrete, draw_entry, known_row

#: The seat kind of a trained seat (after :data:`~.play.SEAT_RANDOM` and :data:`~.play.SEAT_HEURISTIC`).
SEAT_TRAINED = 2


@njit(cache=True, inline="always")
def trained_action(st, r, rng, tkeys, tavg, detail, legal, row, which, probs):
    """The trained seat's move at ``st``: a row entry drawn from the stored average strategy (the default
    heuristic's row where the table never met it), then one of the legal moves it describes, uniformly. ``probs``:
    float scratch three times as long as ``legal`` (the row, then the heuristic's probabilities and its scratch)."""
    na = legal_actions(st, r, legal)
    size = legal.shape[0]
    m = row_of(st, r, st[DECIDER], legal, na, row, which, detail, probs, probs[size:2 * size], probs[2 * size:])
    known_row(tkeys, tavg, row, m, probs)
    return legal[concrete(which, na, draw_entry(probs, m, rng), rng)]


@borrowing()
def trained_action_compiled(st, r, rng, tkeys, tavg, detail, legal, row, which, probs):
    """:func:`trained_action` as a compiled function (tests: its draws follow the stated policy)."""
    return trained_action(st, r, rng, tkeys, tavg, detail, legal, row, which, probs)


# Borrowing (no reference counts, cfr.numba_borrowing): it plays every move of a trained line-up's whole games (a
# search player's trained rollouts play the bare loop of .trained_rollouts, without the trace and history).
@borrowing()
def play_out_trained(st, r, rng, seat_kinds, kn, legal, weights, probs, trace, history, tkeys, tavg, detail, row,
                     which, tprobs):
    """:func:`~.play.play_out` (with the trace and history kept) where seats of kind :data:`SEAT_TRAINED` play the
    policy table ``tkeys``/``tavg`` at abstraction level ``detail``; returns the trace's and history's lengths."""
    turns = st[TURNS]
    used = 0
    hused = 0
    while st[PHASE] != OVER:
        if is_chance(st):
            a = sample_chance(st, r, rng, legal, weights)
        elif seat_kinds[st[DECIDER]] == SEAT_TRAINED:
            a = trained_action(st, r, rng, tkeys, tavg, detail, legal, row, which, tprobs)
        else:
            a = choose(st, r, rng, seat_kinds, kn, legal, probs)
        apply_action(st, r, a)
        if hused == history.shape[0]:
            raise IndexError("a game ran past the engine's max_game_length")
        history[hused] = a
        hused += 1
        if st[TURNS] != turns:
            if turns >= 1:
                used = push_trace(st, r, trace, used)
            turns = st[TURNS]
    if turns >= 1:
        used = push_trace(st, r, trace, used)
    return used, hused


@njit(cache=True)
def play_games(r, seeds, seat_kinds, kn, keep_history, tkeys, tavg, detail):
    """One game per seed from the start, seats by ``seat_kinds`` (trained ones by the policy ``tkeys``/``tavg`` at
    level ``detail``); returns the final states, the score traces (flat ``[turn][seat]``, game ``g``'s from
    ``trace_off[g]``) and, with ``keep_history``, the action sequences (likewise)."""
    games = seeds.shape[0]
    trace_size, history_size = scratch_sizes(r)
    st = np.empty(STATE_SIZE, np.int64)
    rng = np.empty(1, np.uint64)
    size = r[R_NUM_ACTIONS] + 1
    legal = np.empty(size, np.int64)
    weights = np.empty(size, np.int64)
    probs = np.empty(2 * size, np.float64)
    row = np.empty(size, np.int64)
    which = np.empty(size, np.int64)
    tprobs = np.empty(3 * size, np.float64)
    game_trace = np.empty(trace_size, np.int64)
    game_history = np.empty(history_size, np.int64)
    finals = np.empty((games, STATE_SIZE), np.int64)
    trace = np.empty(max(1024, games * r[R_N] * 32), np.int64)
    trace_off = np.zeros(games + 1, np.int64)
    history = np.empty(max(1024, games * 64) if keep_history else 0, np.int64)
    hist_off = np.zeros(games + 1, np.int64)
    used = 0
    hused = 0
    for g in range(games):
        init_state(st, r)
        rng[0] = seeds[g]
        t, h = play_out_trained(st, r, rng, seat_kinds, kn, legal, weights, probs, game_trace, game_history, tkeys,
                                tavg, detail, row, which, tprobs)
        trace = grown(trace, used + t)
        trace[used:used + t] = game_trace[:t]
        used += t
        if keep_history:
            history = grown(history, hused + h)
            history[hused:hused + h] = game_history[:h]
            hused += h
        finals[g] = st
        trace_off[g + 1] = used
        hist_off[g + 1] = hused
    return finals, trace[:used].copy(), trace_off, history[:hused].copy(), hist_off


# SEAT_HEURISTIC is read by choose(); named here so that a change of the seat codes shows in this file's review.
assert SEAT_TRAINED not in (0, SEAT_HEURISTIC)

tie_module(__name__)
