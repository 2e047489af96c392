"""The moves of the compiled Liar position (numba): a play, a pass, a call of liar, a burn, going out, the turn cap,
the record counters kept move by move; and the results (Classique ranks, Trust Me points, the utility in force)."""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel.layout import (
    BURN, END_NONE, END_OUT, END_TURN_CAP, FALSE_ACC, FIRST_PLAY, LIAR, M, MAXT, MODE, N, NREC, O_BURNBY,
    O_CLAIMBURN, O_FALSE, O_HANDS, O_HSIZE, O_KFLAG, O_KNOWN, O_LASTC, O_LASTV, O_OUT, O_PC, O_PCOUNTS, O_PFALSE,
    O_PPLAYER, O_PSEAT, O_PV, O_REC, O_REVEALED, O_SIZE, O_UNM, O_WRONG, PASS, PC, PF, PG, PU, PW, R_BURNED_CARDS,
    R_BURNS, R_CALLS, R_CALLS_LOST, R_CALLS_WON, R_CARDS_PLAYED, R_CAUGHT, R_CHALLENGED, R_CHALLENGED_BLUFFS,
    R_FALSE_PLAYED, R_LAST_CAUGHT, R_LAST_HELD, R_LAST_PLAYS, R_PASSES, R_PICKED_UP, R_PICKUPS, R_PLAYS, S_CREDITED,
    S_CURRENT, S_END, S_GOING, S_LASTN, S_LASTOUT, S_PASSES, S_PCARDS, S_PLEN, S_PN, S_RSTARTER, S_RVALUE, S_TURNS,
    UTIL, V, compiled_functions, hand_at, rec_at,
)

@borrowing()
def apply_player_action(cfg, tab, S, action):
    """Apply a legal player action (a play's cards must be at ``O_PV``/``O_PC``), then count the turn and apply the
    turn cap. Keeps the record counters as ``records.records_from_snapshot`` reads them off the events."""
    p = S[S_CURRENT]
    if action == LIAR:
        call_liar(cfg, S, p)
    elif action == PASS:
        do_pass(cfg, S, p)
    elif action == BURN:
        burn(cfg, S, p)
    else:
        play(cfg, S, p, (action - FIRST_PLAY) % cfg[V])
    S[S_TURNS] += 1
    if S[S_END] == END_NONE and S[S_TURNS] >= cfg[MAXT]:
        finish(cfg, S, END_TURN_CAP)


@borrowing()
def play(cfg, S, p, announced):
    """Seat ``p`` plays the cards at ``O_PV``/``O_PC`` face down, announcing ``announced``."""
    pv, pc, pcounts, n, values = cfg[O_PV], cfg[O_PC], cfg[O_PCOUNTS], cfg[N], cfg[V]
    hand = cfg[O_HANDS] + p * values
    hsize = cfg[O_HSIZE] + p
    pseat = cfg[O_PSEAT] + p * values
    lastv, lastc = cfg[O_LASTV], cfg[O_LASTC]
    size = 0
    true = 0
    for i in range(S[S_PN]):
        v = S[pv + i]
        c = S[pc + i]
        S[hand + v] -= c
        S[pcounts + v] += c
        S[pseat + v] += c
        S[lastv + i] = v
        S[lastc + i] = c
        size += c
        if v == announced:
            true = c
    S[S_LASTN] = S[S_PN]
    # Any card the others knew in this hand may be among those played: they know nothing of it any more.
    if S[cfg[O_KFLAG] + p]:
        for w in range(n):
            row = cfg[O_KNOWN] + (w * n + p) * values
            for v in range(values):
                S[row + v] = 0
        for v in range(values):
            S[cfg[O_REVEALED] + p * values + v] = 0
        S[cfg[O_KFLAG] + p] = 0
    S[hsize] -= size
    false = size - true
    plen = S[S_PLEN]
    if plen == 0:
        S[S_RSTARTER] = p
    elif cfg[FALSE_ACC] == 0:
        credit(cfg, S, plen)  # "covered": the play below can no longer be turned over
    S[cfg[O_PPLAYER] + plen] = p
    S[cfg[O_PFALSE] + plen] = false
    S[S_PLEN] = plen + 1
    S[S_PCARDS] += size
    S[S_RVALUE] = announced
    S[S_PASSES] = 0
    # Records: the play event.
    rec = cfg[O_REC] + p * NREC
    S[rec + R_PLAYS] += 1
    S[rec + R_CARDS_PLAYED] += size
    S[rec + R_FALSE_PLAYED] += false
    by_size = cfg[O_SIZE] + p * 3 * cfg[M] + size - 1
    mp = cfg[M]
    S[by_size] += 1
    if false > 0:
        S[by_size + mp] += 1
    S[by_size + 2 * mp] += false
    emptied = S[hsize] == 0
    if emptied:
        S[rec + R_LAST_PLAYS] += 1
        # A play on top of last cards (last_cards="until_covered") does not settle them: they are held.
        if S[S_LASTOUT] < 0:
            S[S_LASTOUT] = p
    going = S[S_GOING]
    if going >= 0:
        # last_cards="until_covered": covering the last cards ends their challenge window; they held.
        go_out(cfg, S, going)
        finish(cfg, S, END_OUT)
        return
    if emptied:
        S[S_GOING] = p
    S[S_CURRENT] = (p + 1) % n


@borrowing()
def do_pass(cfg, S, p):
    """Seat ``p`` plays nothing; the last cards hold once all the others have passed."""
    S[S_PASSES] += 1
    S[rec_at(cfg, p, R_PASSES)] += 1
    going = S[S_GOING]
    if going >= 0 and S[S_PASSES] == cfg[N] - 1:
        go_out(cfg, S, going)
        finish(cfg, S, END_OUT)
        return
    S[S_CURRENT] = (p + 1) % cfg[N]


@borrowing()
def call_liar(cfg, S, accuser):
    """Turn over the last play: a false card and its player picks up the pile, else the accuser does."""
    last = S[S_PLEN] - 1
    liar = S[cfg[O_PPLAYER] + last]
    false = S[cfg[O_PFALSE] + last]
    if false > 0:
        picker, starter = liar, accuser
        S[cfg[O_UNM] + accuser] += 1
    else:
        picker, starter = accuser, liar
        S[cfg[O_WRONG] + liar] += 1
    pile_size = S[S_PCARDS]
    # Records: the liar event.
    caught = false > 0
    S[rec_at(cfg, accuser, R_CALLS)] += 1
    S[rec_at(cfg, accuser, R_CALLS_WON if caught else R_CALLS_LOST)] += 1
    S[rec_at(cfg, liar, R_CHALLENGED)] += 1
    if caught:
        S[rec_at(cfg, liar, R_CAUGHT)] += 1
        S[rec_at(cfg, liar, R_CHALLENGED_BLUFFS)] += 1
        if S[S_LASTOUT] == liar:
            S[rec_at(cfg, liar, R_LAST_CAUGHT)] += 1
        S[S_LASTOUT] = -1
    # A wrong call on last cards leaves them held: the player goes out below.
    S[rec_at(cfg, picker, R_PICKUPS)] += 1
    S[rec_at(cfg, picker, R_PICKED_UP)] += pile_size
    # Every other player now knows the turned-over cards, and its own cards of the pile, are in the picker's hand.
    n, values = cfg[N], cfg[V]
    lastv, lastc = cfg[O_LASTV], cfg[O_LASTC]
    S[cfg[O_KFLAG] + picker] = 1
    for i in range(S[S_LASTN]):
        S[cfg[O_REVEALED] + picker * values + S[lastv + i]] += S[lastc + i]
    for w in range(n):
        if w == picker:
            continue
        row = cfg[O_KNOWN] + (w * n + picker) * values
        own = cfg[O_PSEAT] + w * values
        # Its own cards of the pile (the turned-over ones counted once), and the turned-over cards.
        for v in range(values):
            S[row + v] += S[own + v]
        if w != liar:
            for i in range(S[S_LASTN]):
                S[row + S[lastv + i]] += S[lastc + i]
    # The whole pile joins the picker's hand (the engine does not credit the plays below the last one here).
    for v in range(values):
        S[hand_at(cfg, picker, v)] += S[cfg[O_PCOUNTS] + v]
    S[cfg[O_HSIZE] + picker] += pile_size
    clear_pile(cfg, S)
    new_round(S, starter)
    going = S[S_GOING]
    if going >= 0:
        S[S_GOING] = -1
        if not caught:
            go_out(cfg, S, going)
            finish(cfg, S, END_OUT)


@borrowing()
def burn(cfg, S, p):
    """The last player, after all the others passed, burns the pile and starts a new round."""
    credit(cfg, S, S[S_PLEN])
    S[rec_at(cfg, p, R_BURNS)] += 1
    S[rec_at(cfg, p, R_BURNED_CARDS)] += S[S_PCARDS]
    n, values = cfg[N], cfg[V]
    rv = S[S_RVALUE]  # every play of a round announces its value
    for q in range(n):
        claimed = 0
        for v in range(values):
            c = S[cfg[O_PSEAT] + q * values + v]
            S[cfg[O_BURNBY] + q * values + v] += c
            claimed += c
        S[cfg[O_CLAIMBURN] + q * values + rv] += claimed
    clear_pile(cfg, S)
    new_round(S, p)


@borrowing()
def clear_pile(cfg, S):
    S[S_PLEN] = 0
    S[S_PCARDS] = 0
    S[S_CREDITED] = 0
    S[S_LASTN] = 0
    for v in range(cfg[V]):
        S[cfg[O_PCOUNTS] + v] = 0
    for i in range(cfg[N] * cfg[V]):
        S[cfg[O_PSEAT] + i] = 0


@borrowing()
def new_round(S, starter):
    S[S_RVALUE] = -1
    S[S_RSTARTER] = starter
    S[S_PASSES] = 0
    S[S_CURRENT] = starter


@borrowing()
def go_out(cfg, S, p):
    """Seat ``p`` is out (the engine's ``out`` event)."""
    S[cfg[O_OUT] + p] = 1
    if S[S_LASTOUT] == p:
        S[rec_at(cfg, p, R_LAST_HELD)] += 1


@borrowing()
def credit(cfg, S, upto):
    """Score the false cards of the plays ``[credited, upto)`` of the pile: they were accepted."""
    for i in range(S[S_CREDITED], upto):
        S[cfg[O_FALSE] + S[cfg[O_PPLAYER] + i]] += S[cfg[O_PFALSE] + i]
    if upto > S[S_CREDITED]:
        S[S_CREDITED] = upto


@borrowing()
def finish(cfg, S, end):
    """The game is over; whatever is still face down and unrevealed was accepted."""
    credit(cfg, S, S[S_PLEN])
    S[S_END] = end


@borrowing()
def points_of(cfg, S, p):
    """Seat ``p``'s Trust Me points (every source, computed in both modes as the engine does)."""
    return (
        cfg[PG] * S[cfg[O_OUT] + p]
        + cfg[PC] * S[cfg[O_HSIZE] + p]
        + cfg[PF] * S[cfg[O_FALSE] + p]
        + cfg[PU] * S[cfg[O_UNM] + p]
        + cfg[PW] * S[cfg[O_WRONG] + p]
    )


@borrowing()
def shared_ranks(keys, out):
    """Rank 1 for the smallest key; tied keys share the mean of the places they span (``scoring.shared_ranks``)."""
    n = keys.shape[0]
    for i in range(n):
        better = 0
        tied = 0
        for j in range(n):
            if keys[j] < keys[i]:
                better += 1
            elif keys[j] == keys[i]:
                tied += 1
        out[i] = better + (tied + 1) / 2


# Borrowing, so it must not allocate: borrowing callers (the training, the trained rollouts) compile it with their
# options when they are the first to, and an array copy (``ranks[:] = points_ranks``) needs a temporary there (a
# fresh numba cache could not train Liar); hence the loops.
@borrowing()
def results(cfg, S, ranks, points_ranks, returns):
    """Fill ``ranks`` (the engine's ``ranks()``), ``points_ranks`` (most points first) and ``returns``."""
    n = cfg[N]
    keys = returns  # scratch until the returns are written (float keys compare as the integers they hold)
    for p in range(n):
        keys[p] = -points_of(cfg, S, p)
    shared_ranks(keys, points_ranks)
    if cfg[MODE] == 0:
        # Classique: a player who went out sorts ahead of everyone, the others by cards left.
        for p in range(n):
            keys[p] = -1 if S[cfg[O_OUT] + p] else S[cfg[O_HSIZE] + p]
        shared_ranks(keys, ranks)
    else:
        for p in range(n):
            ranks[p] = points_ranks[p]
    if S[S_END] == END_NONE:
        for p in range(n):
            returns[p] = 0.0
        return
    if cfg[UTIL] == 0:
        for p in range(n):
            above = 0
            below = 0
            for q in range(n):
                if ranks[q] > ranks[p]:
                    below += 1
                elif ranks[q] < ranks[p]:
                    above += 1
            returns[p] = (below - above) / (n - 1)
    elif cfg[UTIL] == 1:
        for p in range(n):
            returns[p] = float(points_of(cfg, S, p))
    else:
        total = 0
        for p in range(n):
            total += points_of(cfg, S, p)
        for p in range(n):
            x = points_of(cfg, S, p)
            returns[p] = x - (total - x) / (n - 1)


@njit(cache=True)
def state_results(cfg, S):
    """``(ranks, points_ranks, returns)`` of position ``S`` (returns are zeros before the end)."""
    n = cfg[N]
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    results(cfg, S, ranks, points_ranks, rets)
    return ranks, points_ranks, rets


tie_cache_to_sources(compiled_functions(__name__), sys.modules[__name__], layout)
