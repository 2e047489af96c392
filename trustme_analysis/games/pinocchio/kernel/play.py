"""The compiled Pinocchio whole games: a uniform-random seat's draw, play-outs with every seat played by its kind
(random or heuristic), the batch loop playing one game per seed with its score trace and history, and the records'
rows.

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

import numpy as np

from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTION, ACTIVE, BONUS_FORFEITED, BONUS_TURNS, COIN_CHANCE, COIN_OFFER, COIN_TOSSES, DAYS_ENDED, END_NONE, END_STACKS,
    END_TRIGGER, F_BONUS, F_BONUS_FORFEITED, F_BONUS_TURNS, F_COIN_CHANCE, F_COIN_TOSSES, F_COMPLETED, F_DAYS,
    F_DIFFERENT, F_DISTRUSTED, F_END_STACK, F_FACE, F_MARGIN, F_NIGHT, F_PARK_TAKES, F_PLAYERS, F_RANK,
    F_ROWS, F_RUNOUTS, F_SCORE, F_TALES, F_TALES_COIN, F_TALL, F_TALL_LOWER, F_TALL_NONE, F_TICKETS, F_TIE_BREAK,
    F_TOP_SHARED, F_TRIGGER, F_TRUE, F_TRUSTED, F_TURNS, F_VALUES, F_VOTES_CAST, F_VOTES_CORRECT, F_VOTES_TRUST,
    F_WIN, F_WINNER, HANDS, LAST_EMPTIED, MAXC, MAXV, PARK, PARK_TAKES, PHASE, ROWS, RUNOUTS,
    R_CHART, R_NCOMBOS, R_NUM_ACTIONS, R_PASS, R_PLAYERS, R_REP_BASE, R_TAKE_BASE, R_TALE_BASE, R_TOSS, R_TRUST, R_VALUES,
    STACK_EMPTY_TURN, TALES_COIN, TALL_LOWER, TALL_NONE, TICKETS, TIE_BREAK_BY, TIX_ROUTE, TOTALS, TURN,
    VOTE, VOTES_CAST, VOTES_CORRECT, VOTES_TRUST, WINNER, compiled, inlined, tie_module,
)
from trustme_analysis.games.pinocchio.kernel.queries import (
    count_usable_combos, legal_actions, nth_bit, popcount16, usable_combos, value_mask,
)


@compiled
def scratch_size(R):
    """Entries of the scratch array :func:`random_action` needs."""
    return R[R_NUM_ACTIONS] + MAXC + 2 * MAXV


@inlined
def random_action(s, R, rng, buf):
    """``legal[below(rng, len(legal))]`` for the list :func:`legal_actions` would give, mostly without listing it.

    ``buf`` is scratch space of :func:`scratch_size` entries.
    """
    ph = s[PHASE]
    if ph == VOTE:  # [trust, distrust]: consecutive numbers
        return R[R_TRUST] + below(rng, 2)
    if ph == COIN_OFFER:  # [toss, no_toss]
        return R[R_TOSS] + below(rng, 2)
    if ph != ACTION:
        k = legal_actions(s, R, buf, buf[R[R_NUM_ACTIONS]:])
        return buf[below(rng, k)]
    # The turn's action. The list is: tales (Park value, then hand value), Use Reputation (hand value, then combo),
    # takes (hand value, then Park value). Only its parts' sizes are needed for the draw; the drawn entry is read off
    # bit masks of the values held and in the Park (and the combos listed, into buf, only when a Use Reputation action
    # is drawn). Masks and counts without branches: random play's hands are not predictable, and mispredicted
    # branches on them cost more than the counting (measured: a tenth of the rollout's time).
    V = R[R_VALUES]
    held = value_mask(s, HANDS + s[ACTIVE] * MAXV, V)
    if held == 0:
        return R[R_PASS]
    park = value_mask(s, PARK, V)
    nh = popcount16(held)
    npk = popcount16(park)
    nc = count_usable_combos(s, R)
    tales = npk * nh
    reps = nh * nc
    total = tales + reps + tales
    if total == 0:
        return R[R_PASS]
    # Index i of that list, split by subtraction (divisions are slow).
    i = below(rng, total)
    if i < tales:
        j = 0
        while i >= nh:
            i -= nh
            j += 1
        return R[R_TALE_BASE] + nth_bit(park, j) * V + nth_bit(held, i)
    i -= tales
    if i < reps:
        j = 0
        while i >= nc:
            i -= nc
            j += 1
        usable_combos(s, R, buf)
        return R[R_REP_BASE] + nth_bit(held, j) * R[R_NCOMBOS] + buf[i]
    i -= reps
    j = 0
    while i >= npk:
        i -= npk
        j += 1
    return R[R_TAKE_BASE] + nth_bit(held, j) * V + nth_bit(park, i)


@compiled
def record_rows(F, R, ints, lists, empty_turn):
    """The record fields of finished games (final states ``F``, one per row) into one row per seat.

    Row ``i = g * players + p`` is seat ``p`` of game ``g``: ``ints[i]`` takes the :data:`INT_FIELDS`,
    ``lists[i, k]`` the :data:`LIST_FIELDS` (one entry per value) and ``empty_turn[i]`` each stack's emptying turn
    (NaN: never), as :mod:`trustme_analysis.games.pinocchio.analysis.records` defines them.
    """
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    for g in range(F.shape[0]):
        winner = F[g, WINNER]
        best = F[g, TOTALS]
        for p in range(1, n):
            best = max(best, F[g, TOTALS + p])
        sharing = 0
        others = -(2**31)
        for p in range(n):
            if F[g, TOTALS + p] == best:
                sharing += 1
            if p != winner:
                others = max(others, F[g, TOTALS + p])
        trigger = F[g, END_TRIGGER]
        for p in range(n):
            i = g * n + p
            face = 0
            different = 0
            held = 0
            for v in range(V):
                k = F[g, TICKETS + p * MAXV + v]
                face += (v + 1) * k
                held += k
                if k:
                    different += 1
                lists[i, 0, v] = k
                for r in range(3):
                    lists[i, 1 + r, v] = F[g, TIX_ROUTE + (p * 3 + r) * MAXV + v]
                turn = F[g, STACK_EMPTY_TURN + v]
                empty_turn[i, v] = np.nan if turn < 0 else turn
            # Rank: 1 + players ahead on (points, Tickets); the tie-break winner is alone in first place.
            total = F[g, TOTALS + p]
            ahead = 0
            for q in range(n):
                tq = F[g, TOTALS + q]
                hq = 0
                for v in range(V):
                    hq += F[g, TICKETS + q * MAXV + v]
                if tq > total or (tq == total and hq > held) or (q == winner and q != p and tq == total
                                                                  and hq == held):
                    ahead += 1
            tt = F[g, ROWS + p * 4]
            td = F[g, ROWS + p * 4 + 1]
            lt = F[g, ROWS + p * 4 + 2]
            ld = F[g, ROWS + p * 4 + 3]
            ints[i, F_PLAYERS] = n
            ints[i, F_VALUES] = V
            ints[i, F_SCORE] = total
            ints[i, F_FACE] = face
            ints[i, F_BONUS] = R[R_CHART + different - 1] if different else 0
            ints[i, F_TICKETS] = held
            ints[i, F_DIFFERENT] = different
            ints[i, F_RANK] = 1 + ahead
            ints[i, F_WIN] = p == winner
            ints[i, F_WINNER] = winner
            ints[i, F_TURNS] = F[g, TURN]
            ints[i, F_RUNOUTS] = F[g, RUNOUTS]
            ints[i, F_DAYS] = 1 + F[g, DAYS_ENDED]
            ints[i, F_NIGHT] = F[g, DAYS_ENDED] % 2
            ints[i, F_TRIGGER] = trigger
            ints[i, F_END_STACK] = F[g, LAST_EMPTIED] if trigger == END_STACKS else -1
            ints[i, F_COMPLETED] = trigger != END_NONE
            ints[i, F_TOP_SHARED] = sharing > 1
            ints[i, F_TIE_BREAK] = F[g, TIE_BREAK_BY]
            ints[i, F_MARGIN] = F[g, TOTALS + winner] - others
            ints[i, F_TALES] = tt + td + lt + ld
            ints[i, F_TRUE] = tt + td
            ints[i, F_TALL] = lt + ld
            ints[i, F_TRUSTED] = tt + lt
            ints[i, F_DISTRUSTED] = td + ld
            ints[i, F_ROWS] = tt
            ints[i, F_ROWS + 1] = td
            ints[i, F_ROWS + 2] = lt
            ints[i, F_ROWS + 3] = ld
            ints[i, F_TALES_COIN] = F[g, TALES_COIN + p]
            ints[i, F_TALL_LOWER] = F[g, TALL_LOWER + p]
            ints[i, F_TALL_NONE] = F[g, TALL_NONE + p]
            ints[i, F_VOTES_CAST] = F[g, VOTES_CAST + p]
            ints[i, F_VOTES_TRUST] = F[g, VOTES_TRUST + p]
            ints[i, F_VOTES_CORRECT] = F[g, VOTES_CORRECT + p]
            ints[i, F_COIN_TOSSES] = F[g, COIN_TOSSES + p]
            ints[i, F_COIN_CHANCE] = F[g, COIN_CHANCE]
            ints[i, F_PARK_TAKES] = F[g, PARK_TAKES + p]
            ints[i, F_BONUS_TURNS] = F[g, BONUS_TURNS + p]
            ints[i, F_BONUS_FORFEITED] = F[g, BONUS_FORFEITED + p]


tie_module(__name__)
