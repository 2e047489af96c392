"""The seat kinds past random and heuristic, and the Pinocchio kernel's one whole-game loop:
:func:`play_batch_trained`.

:func:`play_batch_trained` plays every line-up the kernel plays (one game per seed, chance by its probabilities,
random and heuristic seats by the kernel's own functions, exactly as the heuristic and random seats of :mod:`.play` draw), with
probe seats (:data:`PROBE_KINDS`, :func:`probe_action`: the heuristic restricted to a named simple strategy's moves)
and trained seats (:data:`~trustme_analysis.games.pinocchio.kernel.layout.SEAT_TRAINED`): the trained policy's row
at the position (:mod:`.abstraction`), read from a stored policy's lookup table (:mod:`trustme_analysis.train.tables`;
:class:`~trustme_analysis.games.pinocchio.kernel.Kernel` hands an empty one when no seat is trained) and drawn with
one uniform number by the draw protocol (and one more integer when several moves share the drawn description,
:func:`~trustme_analysis.train.tables.draw_entry`, :func:`~trustme_analysis.train.tables.concrete`). The policy is
exactly the trained bot's (:class:`trustme_analysis.players.trained.TrainedBot`): both read the same table with the
same functions. One loop for every line-up: the untrained copy the core had was this loop without the trained and
probe seats (its games were the same bit for bit, and no faster).

Its numba cache is tied to the sources it inlines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.pinocchio.kernel import abstraction as A
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.train import tables as T

compiled = njit(cache=True)


# Not inlined: one compile for both game loops (cold, it cut their compile by about a third). Borrowing (no reference
# counts): with them, 28-32% of a trained line-up's CPU time went to atomic counts (cfr.numba_borrowing).
@borrowing()
def trained_action(s, R, rng, tkeys, tavg, detail, acts, cbuf, row, which, probs):
    """The trained seat's move at ``s``: a row entry drawn from the stored average strategy (the heuristic's row
    where the table never saw it), then one of the legal moves it describes, uniformly."""
    na = K.legal_actions(s, R, acts, cbuf)
    m = A.row_of(s, R, s[K.ACTOR], acts, na, row, which, detail, probs)
    T.known_row(tkeys, tavg, row, m, probs)
    return acts[T.concrete(which, na, T.draw_entry(probs, m, rng), rng)]


#: Seat kinds :func:`play_batch_trained` and :func:`play_probe_games` add over the kernel's (random, heuristic,
#: trained): the probes of ``analysis.strategy.simple_strategies`` over the heuristic base, as the Python probe plays
#: them (the base's mixed strategy restricted to the rule's moves, uniform when it gives them no weight;
#: ``tests/games/test_kernel_probe_seats.py`` checks the distribution). The kernel's seat kind is ``"probe:" + name``.
PROBE_NEVER_TRUST, PROBE_ALWAYS_TRUST, PROBE_NEVER_TALL, PROBE_ALWAYS_TALL = 10, 11, 12, 13
PROBE_KINDS = {"never trust": PROBE_NEVER_TRUST, "always trust": PROBE_ALWAYS_TRUST,
               "never tell a tall tale": PROBE_NEVER_TALL, "always tell a tall tale": PROBE_ALWAYS_TALL}


@njit(cache=True, inline="always")
def _prefers(R, kind, a):
    """Whether probe ``kind`` prefers move ``a``."""
    if kind == PROBE_NEVER_TRUST:
        return a == R[K.R_DISTRUST]
    if kind == PROBE_ALWAYS_TRUST:
        return a == R[K.R_TRUST]
    tall = a < R[K.R_REP_BASE] and R[K.R_DEC_X + a] != R[K.R_DEC_HAND + a]
    return tall if kind == PROBE_ALWAYS_TALL else not tall


@njit(cache=True, inline="always")
def probe_weights(s, R, H, kind, acts, probs, buf):
    """The probe's mixed strategy at ``s`` before its draw: the heuristic's distribution over the legal moves into
    ``acts[:n]``/``probs[:n]``, zeroed off the moves the rule prefers where the rule says something. Returns ``(n,
    some)``: ``some`` is 0 where the rule says nothing (``probs``: the heuristic's, played as it is), else how many
    moves it prefers (``probs`` all zero: uniform among them). "never tell a tall tale" says something only where a
    tall tale is legal; a rule that prefers every legal move changes nothing (0)."""
    n = K.heuristic_policy(s, R, H[s[K.ACTOR]], acts, probs, buf)
    some = 0
    tall_legal = False
    for j in range(n):
        if _prefers(R, kind, acts[j]):
            some += 1
        a = acts[j]
        if a < R[K.R_REP_BASE] and R[K.R_DEC_X + a] != R[K.R_DEC_HAND + a]:
            tall_legal = True
    if some == 0 or some == n or (kind == PROBE_NEVER_TALL and not tall_legal):
        return n, 0
    for j in range(n):
        if not _prefers(R, kind, acts[j]):
            probs[j] = 0.0
    return n, some


@njit(cache=True, inline="always")
def probe_action(s, R, H, rng, kind, acts, probs, buf):
    """The probe's move (:func:`probe_weights`): the heuristic's move where the rule says nothing, else one uniform
    number walks the preferred moves' weights (one integer picks among them where they all weigh nothing)."""
    n, some = probe_weights(s, R, H, kind, acts, probs, buf)
    if some == 0:
        return K.heuristic_action(s, R, H[s[K.ACTOR]], rng, acts, probs, buf)
    total = 0.0
    for j in range(n):
        total += probs[j]
    if total <= 0.0:
        k = below(rng, some)
        for j in range(n):
            if _prefers(R, kind, acts[j]):
                if k == 0:
                    return acts[j]
                k -= 1
    x = uniform01(rng) * total
    last = 0
    for j in range(n):
        if probs[j] > 0.0:
            last = j
            if x < probs[j]:
                return acts[j]
            x -= probs[j]
    return acts[last]


@borrowing()
def play_batch_trained(R, seeds, finals, trace, trace_off, hist, hist_off, max_turns, max_len, s, rng, buf, kinds, H,
                       acts, probs, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs):
    """One game per seed from the start, game ``g`` from ``seeds[g]`` alone, seat ``p`` played by kind ``kinds[p]``
    (:data:`~.layout.SEAT_RANDOM`, :data:`~.layout.SEAT_HEURISTIC` with knobs ``H[p]``,
    :data:`~.layout.SEAT_TRAINED` playing the policy table ``tkeys``/``tavg`` at abstraction level ``detail``, or a
    :data:`PROBE_KINDS` code over the heuristic with ``H[p]``), chance by its probabilities.

    Writes each final state into ``finals[g]``; the score traces one after another into ``trace`` (game ``g``'s
    ``turns * players`` entries from ``trace_off[g]``); when ``hist`` is not empty the actions likewise into ``hist``
    and ``hist_off`` (-1 in ``hist_off[g + 1]`` if a game outran ``max_len``). ``s`` (a state), ``rng`` (one
    uint64), ``buf`` (:func:`~.play.scratch_size` int64), ``acts`` and ``probs`` (:data:`~.layout.MAXA`) and the
    arguments after ``detail`` are scratch owned by the caller."""
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
            elif kinds[s[K.ACTOR]] >= PROBE_NEVER_TRUST:
                a = probe_action(s, R, H, rng, kinds[s[K.ACTOR]], acts, probs, buf)
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


@compiled
def play_probe_games(R, seeds, kinds, H, tkeys, tavg, detail, finals, rets):
    """Whole games (one per seed) with seats of ``kinds`` (the kernel's codes and :data:`PROBE_KINDS`), trained seats
    reading ``tkeys``/``tavg``: final states into ``finals`` and returns into ``rets`` (games x players). A fast
    screen for development and tests; the benchmark's figures come from the Python bots."""
    n = R[K.R_PLAYERS]
    s = np.zeros(K.STATE_SIZE, np.int32)
    rng = np.zeros(1, np.uint64)
    trace = np.zeros((0, n), np.int32)
    acts = np.zeros(K.MAXA, np.int64)
    cbuf = np.zeros(K.MAXC, np.int64)
    row = np.zeros(K.MAXA, np.int64)
    which = np.zeros(K.MAXA, np.int64)
    probs = np.zeros(K.MAXA)
    buf = np.zeros(K.scratch_size(R), np.int64)
    out = np.zeros(n)
    for g in range(seeds.shape[0]):
        K.init_state(s, R)
        rng[0] = seeds[g]
        while s[K.PHASE] != K.TERMINAL:
            k = kinds[s[K.ACTOR]]
            if K.is_chance_phase(s[K.PHASE]):
                a = K.sample_chance(s, R, rng)
            elif k == K.SEAT_TRAINED:
                a = trained_action(s, R, rng, tkeys, tavg, detail, acts, cbuf, row, which, probs)
            elif k == K.SEAT_HEURISTIC:
                a = K.heuristic_action(s, R, H[s[K.ACTOR]], rng, acts, probs, buf)
            elif k >= PROBE_NEVER_TRUST:
                a = probe_action(s, R, H, rng, k, acts, probs, buf)
            else:
                a = K.random_action(s, R, rng, buf)
            K.step(s, R, a, trace)
        for i in range(K.STATE_SIZE):
            finals[g, i] = s[i]
        K.returns_into(s, R, out)
        for p in range(n):
            rets[g, p] = out[p]
tie_cache_to_sources((trained_action, probe_weights, play_batch_trained, play_probe_games), *K.SOURCES, A, T)
