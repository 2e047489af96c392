"""The seat kinds past random and heuristic, and the compiled Liar kernel's one whole-game loop: :func:`play_games`,
:func:`sample_actions`.

:func:`play_games` plays every line-up the kernel plays (one game per seed, chance by the draw protocol, random and
heuristic seats by :func:`~.play.choose`), with probe seats (:data:`PROBE_KINDS`, :func:`probe_action`: the
heuristic restricted to a named simple strategy's moves) and trained seats (:data:`TRAINED`): the stored policy's
row at the position (:mod:`.abstraction`), read from a trained policy's lookup table
(:mod:`trustme_analysis.train.tables`, an empty one when no seat is trained); one uniform number draws the row entry
(none when only one entry has mass, :func:`~trustme_analysis.train.tables.draw_entry`), then
:func:`~.abstraction.sample_play` makes it a concrete play. That is the rule the trained bot states
(:class:`trustme_analysis.players.trained.TrainedBot` via :func:`~.abstraction.policy_at`): both read the same table
with the same functions, and ``tests/games/test_liar_trained.py`` checks the draws against the stated probabilities.
Random and heuristic seats draw by :func:`~.play.choose` (one loop for every line-up: the untrained one was a copy
of this one without the trained and probe seats).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves, play
from trustme_analysis.games.liar.kernel.deal import apply_chance, sample_chance
from trustme_analysis.games.liar.kernel.actions import count_extras, decode_play, fill_hand_table, legal_shape, pick
from trustme_analysis.games.liar.kernel.heuristic import heuristic_distribution, heuristic_sample, new_buffer, split_buffer
from trustme_analysis.games.liar.kernel.layout import (
    CHANCE, ERR_NO_ACTION, FIRST_PLAY, LIAR, M, N, O_HANDS, O_HSIZE, O_PC, O_PV, O_START, SIZE, S_CURRENT, S_PN,
    TERMINAL, V, current_player, init_state,
)
from trustme_analysis.games.liar.kernel.moves import apply_player_action, results
from trustme_analysis.games.liar.kernel.play import _grow, choose, new_records, sample_uniform, write_record
from trustme_analysis.train import tables as T

#: The seat kind code of a trained seat (after :data:`~.layout.RANDOM` and :data:`~.layout.HEURISTIC`).
TRAINED = 2


# Not inlined, and borrowing (no reference counts, cfr.numba_borrowing): inlined into the game loops, which allocate
# and so count references, its arrays' counts were atomic operations at every decision.
@borrowing()
def trained_action(cfg, tab, S, rng, tkeys, tavg, detail, row, descs, probs, scratch):
    """The trained seat's action at ``S`` (a play's cards left at ``O_PV``/``O_PC``): a row entry drawn from the
    stored average strategy (the default heuristic's row where the table never met it), then a concrete action for
    it."""
    p = S[S_CURRENT]
    m = A.row_of(cfg, tab, S, p, detail, row, descs, probs, scratch)
    T.known_row(tkeys, tavg, row, m, probs)
    u = T.draw_entry(probs, m, rng)
    return A.sample_play(cfg, tab, S, p, descs[u], detail, rng, scratch)


#: Seat kinds :func:`play_games` and :func:`play_probe_games` add over the kernel's (random, heuristic,
#: trained): the probes of ``analysis.strategy.simple_strategies`` over the heuristic base, as the Python probe plays
#: them (the base's mixed strategy restricted to the rule's moves where the rule applies, uniform among them when it
#: gives them no weight; ``tests/games/test_kernel_probe_seats.py`` checks the distribution). The kernel's seat kind
#: is ``"probe:" + name``.
PROBE_ALWAYS_BLUFF, PROBE_NEVER_BLUFF, PROBE_ALWAYS_CHALLENGE, PROBE_NEVER_CHALLENGE = 10, 11, 12, 13
PROBE_KINDS = {"always bluff": PROBE_ALWAYS_BLUFF, "never bluff": PROBE_NEVER_BLUFF,
               "always challenge": PROBE_ALWAYS_CHALLENGE, "never challenge": PROBE_NEVER_CHALLENGE}
#: Uniform draws a probe tries before giving up on finding one of its moves by rejection (then the heuristic plays).
PROBE_TRIES = 10_000


@njit(cache=True, inline="always")
def _false_cards(cfg, tab, S, a):
    """The false cards of play ``a`` (cards not of the announced value; -1 for call liar, pass and burn); leaves the
    play's cards at ``O_PV``/``O_PC``."""
    if a < FIRST_PLAY:
        return -1
    size, announced = decode_play(cfg, tab, S, a)
    true = 0
    for i in range(S[S_PN]):
        if S[cfg[O_PV] + i] == announced:
            true = S[cfg[O_PC] + i]
    return size - true


@njit(cache=True, inline="always")
def _prefers(cfg, tab, S, kind, a):
    """Whether probe ``kind`` prefers move ``a``."""
    if kind == PROBE_ALWAYS_CHALLENGE:
        return a == LIAR
    if kind == PROBE_NEVER_CHALLENGE:
        return a != LIAR
    bluff = _false_cards(cfg, tab, S, a) > 0
    return bluff if kind == PROBE_ALWAYS_BLUFF else not bluff


@njit(cache=True, inline="always")
def _rule_applies(cfg, S, p, kind, scratch):
    """Whether probe ``kind``'s rule says anything at this decision: call liar is legal (the challenge probes), a
    play with a false card is legal (the bluff probes)."""
    extras, _, plays = legal_shape(cfg, S, p)
    if kind == PROBE_ALWAYS_CHALLENGE or kind == PROBE_NEVER_CHALLENGE:
        return (extras & 1) == 1
    if not plays:
        return False
    # a false card is legal when some value you may announce leaves another card in your hand
    na = A._announceable(cfg, S, scratch)
    for i in range(na):
        if S[cfg[O_HSIZE] + p] - S[cfg[O_HANDS] + p * cfg[V] + scratch[i]] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def probe_weights(cfg, tab, S, knobs, kind, scratch, hbuf):
    """The probe's mixed strategy at ``S`` before its draw: ``(k, mode)``. Mode 0: the rule says nothing here (the
    heuristic plays; nothing is computed). Mode 1: the heuristic's distribution restricted to the moves the rule
    prefers, in the first ``k`` entries of :func:`~.heuristic.split_buffer`'s actions and probabilities (zero off
    them; an action may appear twice). Mode 2: the heuristic gives those moves no weight: uniform among them."""
    p = S[S_CURRENT]
    if not _rule_applies(cfg, S, p, kind, scratch):
        return 0, 0
    hacts, hprobs, work = split_buffer(cfg, knobs, hbuf)
    k = heuristic_distribution(cfg, tab, S, knobs, hacts, hprobs, work)
    total = 0.0
    for j in range(k):
        if hprobs[j] > 0.0 and _prefers(cfg, tab, S, kind, hacts[j]):
            total += hprobs[j]
        else:
            hprobs[j] = 0.0
    return k, 1 if total > 0.0 else 2


@borrowing()
def probe_action(cfg, tab, S, knobs, rng, kind, scratch, hbuf):
    """The probe's move at ``S`` (a play's cards left at ``O_PV``/``O_PC``) by :func:`probe_weights`: the heuristic's
    move where the rule says nothing, one uniform number over the restricted weights, else one of the preferred moves
    uniformly. ``hbuf``: the heuristic's scratch (:func:`~.heuristic.new_buffer`)."""
    p = S[S_CURRENT]
    k, mode = probe_weights(cfg, tab, S, knobs, kind, scratch, hbuf)
    if mode == 0:
        return heuristic_sample(cfg, tab, S, knobs, rng, hbuf)
    hacts, hprobs, _ = split_buffer(cfg, knobs, hbuf)
    if mode == 1:
        total = 0.0
        for j in range(k):
            total += hprobs[j]
        x = uniform01(rng) * total
        a = -1
        for j in range(k):
            if hprobs[j] > 0.0:
                a = hacts[j]
                if x < hprobs[j]:
                    break
                x -= hprobs[j]
        decode_play(cfg, tab, S, a)
        return a
    if kind == PROBE_ALWAYS_CHALLENGE:
        return LIAR
    extras, announced, plays = legal_shape(cfg, S, p)
    if kind == PROBE_NEVER_CHALLENGE:
        extras &= 6  # every legal move but call liar, uniformly
        count = count_extras(extras)
        if plays:
            count += fill_hand_table(cfg, S, p) * announced
        return pick(cfg, tab, S, p, extras, announced, below(rng, count))
    # the bluff probes: uniform legal moves until one the rule prefers (the preferred moves, uniformly)
    for _ in range(PROBE_TRIES):
        a = sample_uniform(cfg, tab, S, rng)
        if a >= 0 and _prefers(cfg, tab, S, kind, a):
            decode_play(cfg, tab, S, a)
            return a
    return heuristic_sample(cfg, tab, S, knobs, rng, hbuf)


@njit(cache=True, inline="always")
def _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch, hbuf):
    k = kinds[S[S_CURRENT]]
    if k == TRAINED:
        return trained_action(cfg, tab, S, rng, tkeys, tavg, detail, row, descs, probs, scratch)
    if k >= PROBE_ALWAYS_BLUFF:
        return probe_action(cfg, tab, S, knobs[S[S_CURRENT]], rng, k, scratch, hbuf)
    return choose(cfg, tab, S, rng, kinds, knobs, hbuf)


@njit(cache=True)
def play_games(cfg, tab, seeds, kinds, knobs, want_hist, tkeys, tavg, detail, row, descs, probs, scratch):
    """One game per seed, every seat of its kind (:data:`~.layout.RANDOM`, :data:`~.layout.HEURISTIC`,
    :data:`TRAINED` playing the policy table ``tkeys``/``tavg`` at abstraction level ``detail``, the
    :data:`PROBE_KINDS` codes; heuristic and probe seats with their row of ``knobs``); the record fields of every
    seat, columnar. The arguments after ``detail`` are scratch owned by the caller.

    Returns ``(game_ints, seat_ints, seat_floats, by_size, returns, trace, trace_offsets, hist, hist_offsets,
    error)``: ``game_ints[g] = (turns, end code, first player)``; ``seat_ints[g, p]`` = :data:`~.layout.SEAT_INTS`
    then the record counters; ``seat_floats[g, p] = (rank, points_rank)``; ``by_size[g, p, j, size - 1]`` for the
    three per-size lists; ``trace[trace_offsets[g]:trace_offsets[g + 1]]`` = cards shed by every seat after each
    player turn (turn-major); ``hist`` likewise the actions (chance included) when ``want_hist``; ``error`` is 0 or
    :data:`~.layout.ERR_NO_ACTION`.
    """
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
    hbuf = new_buffer(cfg, knobs)
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
                a = _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch, hbuf)
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
def sample_actions(cfg, tab, S0, count, seed, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch):
    """``count`` independent draws of the action at position ``S0`` (chance by its probabilities, seats by kind as
    :func:`play_games` draws them; one SplitMix64 stream from ``seed``)."""
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(count, dtype=np.int64)
    hbuf = new_buffer(cfg, knobs)
    chance = current_player(cfg, S) == CHANCE
    for i in range(count):
        if chance:
            out[i] = sample_chance(cfg, tab, S, rng)
        else:
            out[i] = _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch, hbuf)
    return out


@njit(cache=True)
def play_probe_games(cfg, tab, seeds, kinds, knobs, tkeys, tavg, detail, rets, row, descs, probs, scratch):
    """Whole games (one per seed) with seats of ``kinds`` (:data:`~.layout.RANDOM`, :data:`~.layout.HEURISTIC`,
    :data:`TRAINED` and :data:`PROBE_KINDS`; heuristic and probe seats with their row of ``knobs``), trained seats
    reading ``tkeys``/``tavg`` at level ``detail``: the returns into ``rets`` (games x players); the arguments after
    ``rets`` are scratch owned by the caller. A fast screen for development and the benchmark; the benchmark's
    figures come from the Python bots."""
    n = cfg[N]
    S = np.empty(cfg[SIZE], dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    ranks = np.empty(n)
    pranks = np.empty(n)
    out = np.empty(n)
    hbuf = new_buffer(cfg, knobs)
    for g in range(seeds.shape[0]):
        init_state(cfg, S)
        rng[0] = seeds[g]
        while True:
            p = current_player(cfg, S)
            if p == TERMINAL:
                break
            if p == CHANCE:
                apply_chance(cfg, tab, S, sample_chance(cfg, tab, S, rng))
                continue
            k = kinds[p]
            if k == TRAINED:
                a = trained_action(cfg, tab, S, rng, tkeys, tavg, detail, row, descs, probs, scratch)
            elif k >= PROBE_ALWAYS_BLUFF:
                a = probe_action(cfg, tab, S, knobs[p], rng, k, scratch, hbuf)
            else:
                a = choose(cfg, tab, S, rng, kinds, knobs, hbuf)
            apply_player_action(cfg, tab, S, a)
        results(cfg, S, ranks, pranks, out)
        for q in range(n):
            rets[g, q] = out[q]


tie_cache_to_sources([trained_action, play_games, sample_actions, probe_weights, probe_action,
                      play_probe_games],
                     sys.modules[__name__], A, actions, deal, heuristic, layout, moves, play, compiled_draws, T)
