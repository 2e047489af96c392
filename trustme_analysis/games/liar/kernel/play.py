"""The random and heuristic seats' draws of the compiled Liar position (numba, :func:`choose`), the record arrays of
whole games, and a checked move for the kernel state. The loops that play the seats are :func:`~.trained.play_games`
(whole games) and :mod:`.trained_rollouts` (play-outs), one loop each for every line-up.

Players. A uniform-random seat draws ``r`` uniform below its number of legal actions and takes the ``r``-th legal
action in the engine's order (:func:`~.actions.pick`), computed without listing the others; a heuristic seat draws
from the compiled heuristic (:mod:`.heuristic`) with its own row of knobs. Seat kinds are numbered
(:data:`~.layout.RANDOM` = 0, :data:`~.layout.HEURISTIC` = 1) for :func:`choose`.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.liar.kernel.actions import count_extras, fill_hand_table, is_legal, legal_shape, pick
from trustme_analysis.games.liar.kernel.deal import apply_chance, split_count, split_ways
from trustme_analysis.games.liar.kernel.heuristic import heuristic_sample
from trustme_analysis.games.liar.kernel.layout import (
    CHANCE, HEURISTIC, M, N, NREC, NSI, O_FALSE, O_HSIZE, O_OUT, O_START, O_TARGET, O_UNM, O_WRONG, PC,
    PF, PG, PU, PW, S_CURRENT, S_END, S_FIRST, S_TURNS, TERMINAL, compiled_functions, current_player, rec_at, size_at,
)
from trustme_analysis.games.liar.kernel.moves import apply_player_action, points_of, results

# ---------------------------------------------------------------------------------------------------- play


@borrowing()
def sample_uniform(cfg, tab, S, rng):
    """A uniform legal action of the seat to act (a play's cards left at ``O_PV``/``O_PC``); -1 if there is none."""
    p = S[S_CURRENT]
    extras, announced, plays = legal_shape(cfg, S, p)
    count = count_extras(extras)
    if plays:
        count += fill_hand_table(cfg, S, p) * announced
    if count == 0:
        return -1
    return pick(cfg, tab, S, p, extras, announced, below(rng, count))


@borrowing()
def choose(cfg, tab, S, rng, kinds, knobs, hbuf):
    """The action of the seat to act, by its kind (:data:`RANDOM` or :data:`HEURISTIC`; a heuristic seat plays with
    its own row of ``knobs``, one row per seat); a play leaves its cards at ``O_PV``/``O_PC``. ``hbuf`` is the
    heuristic's scratch (:func:`~.heuristic.new_buffer` for these knobs)."""
    if kinds[S[S_CURRENT]] == HEURISTIC:
        return heuristic_sample(cfg, tab, S, knobs[S[S_CURRENT]], rng, hbuf)
    return sample_uniform(cfg, tab, S, rng)


@njit(cache=True)
def _grow(buf, used, need):
    if used + need <= buf.shape[0]:
        return buf
    bigger = np.empty(max(2 * buf.shape[0], used + need), dtype=buf.dtype)
    bigger[:used] = buf[:used]
    return bigger


@njit(cache=True)
def new_records(G, n, mp):
    """The record arrays of ``G`` games (:func:`~.trained.play_games`' first five): ``game_ints``, ``seat_ints``,
    ``seat_floats``, ``by_size``, ``returns``."""
    return (np.zeros((G, 3), dtype=np.int64), np.zeros((G, n, NSI + NREC), dtype=np.int64),
            np.zeros((G, n, 2), dtype=np.float64), np.zeros((G, n, 3, mp), dtype=np.int32),
            np.zeros((G, n), dtype=np.float64))


@njit(cache=True)
def write_record(cfg, S, g, game_ints, seat_ints, seat_floats, by_size, returns, ranks, points_ranks, rets):
    """Write the record fields of the finished position ``S`` as game ``g`` of the record arrays (``ranks``,
    ``points_ranks`` and ``rets``: scratch of one entry per seat)."""
    n, mp = cfg[N], cfg[M]
    game_ints[g, 0] = S[S_TURNS]
    game_ints[g, 1] = S[S_END]
    game_ints[g, 2] = S[S_FIRST]
    results(cfg, S, ranks, points_ranks, rets)
    for p in range(n):
        row = seat_ints[g, p]
        row[0] = S[cfg[O_TARGET] + p]
        row[1] = S[cfg[O_START] + p]
        row[2] = S[cfg[O_HSIZE] + p]
        row[3] = S[cfg[O_OUT] + p]
        row[4] = points_of(cfg, S, p)
        row[5] = cfg[PG] * S[cfg[O_OUT] + p]
        row[6] = cfg[PC] * S[cfg[O_HSIZE] + p]
        row[7] = cfg[PF] * S[cfg[O_FALSE] + p]
        row[8] = cfg[PU] * S[cfg[O_UNM] + p]
        row[9] = cfg[PW] * S[cfg[O_WRONG] + p]
        for f in range(NREC):
            row[NSI + f] = S[rec_at(cfg, p, f)]
        for j in range(3):
            for size in range(1, mp + 1):
                by_size[g, p, j, size - 1] = S[size_at(cfg, p, j, size)]
        seat_floats[g, p, 0] = ranks[p]
        seat_floats[g, p, 1] = points_ranks[p]
        returns[g, p] = rets[p]


@njit(cache=True)
def record_of(cfg, S):
    """The record arrays (:func:`new_records`) of the one finished position ``S`` (a kernel state's records)."""
    n = cfg[N]
    game_ints, seat_ints, seat_floats, by_size, returns = new_records(1, n, cfg[M])
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    write_record(cfg, S, 0, game_ints, seat_ints, seat_floats, by_size, returns, ranks, points_ranks, rets)
    return game_ints, seat_ints, seat_floats, by_size, returns


@borrowing()
def apply_checked(cfg, tab, S, action):
    """Apply ``action`` if legal at ``S``; return whether it was."""
    p = current_player(cfg, S)
    if p == TERMINAL:
        return False
    if p == CHANCE:
        if S[S_FIRST] < 0:
            if action < 0 or action >= cfg[N]:
                return False
        elif action < 0 or action >= split_count(cfg, tab) or split_ways(cfg, tab, S, action) == 0:
            return False
        apply_chance(cfg, tab, S, action)
        return True
    if not is_legal(cfg, tab, S, action):
        return False
    apply_player_action(cfg, tab, S, action)
    return True


tie_cache_to_sources(compiled_functions(__name__), sys.modules[__name__], actions, deal, heuristic, layout, moves, compiled_draws)
