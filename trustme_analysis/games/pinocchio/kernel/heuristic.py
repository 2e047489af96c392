"""The compiled Pinocchio heuristic seat.

The heuristic player of :mod:`trustme_analysis.games.pinocchio.players.bots` (``PinocchioHeuristicBot.
action_probabilities``) as compiled code, reading only what its seat may see: its own hand, the Park, every
Reputation, the Tickets, the Ticket stacks, the discard pile, the deck's size, hand sizes and the tale's claimed
value. ``tests/games/test_pinocchio_heuristic_kernel.py`` checks the two give the same distribution (same support,
probabilities within 1e-12) at every decision of many games. The knobs arrive as a float64 array (offsets ``H_*``,
filled by ``kernel.heuristic_knobs``); the Python bot is the specification.

Part of the compiled core (:mod:`.layout` describes the arrays and the knobs' offsets; :mod:`.core` is its one
namespace).
"""

from __future__ import annotations

from trustme_analysis.engine.compiled_draws import uniform01, walk
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTIVE, ACTOR, COIN_OFFER, DECK_TOTAL, DISCARD, FREE_REPUTATION, HANDS, H_ASSUMED_BLUFF, H_BLUFF_CARDS,
    H_BLUFF_RATE, H_BONUS_VALUE, H_CASH_AT, H_CASH_BEFORE, H_COIN, H_PARK_PICK, H_REMEMBERS, H_THRESHOLD,
    H_TRUST_RATE, H_TRUST_RATE_TALL, H_VOTE, H_VOTE_WEIGHT, H_VOTE_WEIGHT_TALL, H_WHEN_STUCK, MAXV, PARK, PHASE,
    REPS, R_CHART, R_COMBO_LEN, R_DECLINE, R_DEC_HAND, R_DEC_X, R_DISTRUST, R_FREE_BASE, R_PER_VALUE, R_PLAYERS,
    R_REP_BASE, R_TAKE_BASE, R_TRUST, R_VALUES, STACKS, TALE_HIDDEN, TALE_PARK, TICKETS, TRUSTED, VOTE, VOTES,
    compiled, inlined, tie_module,
)
from trustme_analysis.games.pinocchio.kernel.queries import legal_actions


_EXACT_COMB = 2.0**53


@inlined
def ticket_for_tale_k(s, difference):
    """The Ticket a trusted tall tale of this difference gains (the next lower value left, or 0): rules.
    ticket_for_tale."""
    value = difference
    while value >= 1:
        if s[STACKS + value - 1] > 0:
            return value
        value -= 1
    return 0


@inlined
def ticket_values(s, R, p):
    """How many different Ticket values seat ``p`` holds (the chart's column of its Final Scoring)."""
    held = 0
    for v in range(R[R_VALUES]):
        if s[TICKETS + p * MAXV + v]:
            held += 1
    return held


@inlined
def set_bonus(R, different):
    """The chart's bonus for ``different`` Ticket values (0 for none), as rules.score_breakdown."""
    return R[R_CHART + different - 1] if different else 0


@inlined
def cash_gain(s, R, p, a, held):
    """Points a Use Reputation (or free) action ``a`` adds to seat ``p``'s score, the chart's set bonus included
    (bots._cash_gain): the Ticket's face, plus the bonus step when its value is new to the seat. ``held`` is
    :func:`ticket_values` of the seat, counted once per decision instead of once per action (a turn lists a Use
    Reputation action per hand value and set or run; rescoring the Tickets for every one took about 40% of the
    heuristic's time at a turn)."""
    length = R[R_COMBO_LEN + R[R_DEC_X + a]]
    after = held if s[TICKETS + p * MAXV + length - 1] else held + 1
    return length + set_bonus(R, after) - set_bonus(R, held)


@inlined
def keep_value(s, R, p, played):
    """How useful the hand Characters left after playing ``played`` (0: none) are: minus their matches in the Park."""
    V = R[R_VALUES]
    total = 0
    for w in range(V):
        k = s[HANDS + p * MAXV + w]
        if w + 1 == played and k > 0:
            k -= 1
        total += k * s[PARK + w]
    return -total


@inlined
def fit_k(s, p, value):
    """Size of the largest set or run seat ``p``'s Reputation would hold with ``value`` added (bots._fit)."""
    best = 0
    for v in range(MAXV):
        k = s[REPS + p * MAXV + v] + (1 if v + 1 == value else 0)
        if k > best:
            best = k
    v = value
    while v - 1 >= 1 and s[REPS + p * MAXV + v - 2] + (1 if v - 1 == value else 0) > 0:
        v -= 1
    run = 0
    while v <= MAXV and s[REPS + p * MAXV + v - 1] + (1 if v == value else 0) > 0:
        run += 1
        v += 1
    return max(best, run)


@inlined
def unseen_k(s, R, p, remembers, out):
    """Characters of each value seat ``p`` has not seen (bots.unseen_counts) into ``out``; returns their total."""
    V = R[R_VALUES]
    n = R[R_PLAYERS]
    total = 0
    for v in range(V):
        seen = s[PARK + v] + s[HANDS + p * MAXV + v]
        for q in range(n):
            seen += s[REPS + q * MAXV + v]
        if remembers:
            seen += s[DISCARD + v]
        k = R[R_PER_VALUE] - seen
        if k < 0:
            k = 0
        out[v] = k
        total += k
    return total


@inlined
def comb_ratio(a, b, h):
    """C(a, h) / C(b, h) for 0 <= a <= b and 0 < h <= b, as Python's exact ``comb(a, h) / comb(b, h)`` gives it
    (each binomial is computed exactly while it stays below 2**53, where a float holds it exactly; beyond that as a
    product of ratios)."""
    if a < h:
        return 0.0
    ca = 1.0
    cb = 1.0
    exact = True
    for i in range(h):
        if cb * (b - i) >= _EXACT_COMB:  # (ca <= cb: a product below this bound is exact for both)
            exact = False
            break
        ca = ca * (a - i) / (i + 1)
        cb = cb * (b - i) / (i + 1)
    if exact:
        return ca / cb
    r = 1.0
    for i in range(h):
        r *= (a - i) / (b - i)
    return r


@inlined
def heuristic_vote(s, R, H, p, unseen):
    """The heuristic's vote on the pending tale: R_TRUST or R_DISTRUST (bots.PinocchioHeuristicBot.vote)."""
    V = R[R_VALUES]
    claimed = s[TALE_PARK]
    total = unseen_k(s, R, p, H[H_REMEMBERS] > 0, unseen)
    teller = s[ACTIVE]
    hand = 1
    for v in range(V):
        hand += s[HANDS + teller * MAXV + v]
    k = unseen[claimed - 1]
    rho = 0.0
    if total > 0 and hand > 0:
        if hand > total:
            hand = total
        rho = 1.0 - comb_ratio(total - k, total, hand)
    if H[H_VOTE] == 1:
        return R[R_TRUST] if rho >= H[H_THRESHOLD] else R[R_DISTRUST]
    b = H[H_ASSUMED_BLUFF]
    truthful = rho * (1.0 - b)
    tot = truthful + b
    p_true = truthful / tot if tot > 0 else 0.0
    weight = 0
    stake_sum = 0
    for v in range(V):
        if v + 1 != claimed and unseen[v]:
            weight += unseen[v]
            stake_sum += unseen[v] * ticket_for_tale_k(s, abs(claimed - (v + 1)))
    stake = stake_sum / weight if weight else 0.0
    return R[R_TRUST] if p_true * H[H_BONUS_VALUE] >= (1.0 - p_true) * stake else R[R_DISTRUST]


@inlined
def best_cash(s, R, p, acts, n, cash_only):
    """Index into ``acts[:n]`` of the Use Reputation (or free) action adding most points, ties broken by the hand
    Character best kept (bots._best_cash); -1 when there is none. ``cash_only``: only Use Reputation actions."""
    held = ticket_values(s, R, p)
    best = -(2**31)
    for i in range(n):
        a = acts[i]
        if a >= R[R_REP_BASE] and (a < R[R_TAKE_BASE] or (not cash_only and a >= R[R_FREE_BASE]
                                                         and a < R[R_DECLINE])):
            g = cash_gain(s, R, p, a, held)
            if g > best:
                best = g
    pick = -1
    keep = 0
    for i in range(n):
        a = acts[i]
        if a >= R[R_REP_BASE] and (a < R[R_TAKE_BASE] or (not cash_only and a >= R[R_FREE_BASE]
                                                         and a < R[R_DECLINE])):
            if cash_gain(s, R, p, a, held) == best:
                kv = keep_value(s, R, p, R[R_DEC_HAND + a])
                if pick < 0 or kv < keep:
                    pick = i
                    keep = kv
    return pick


@inlined
def bluff_weights(R, H, acts, n, probs, scale):
    """Adds ``scale`` times the heuristic's choice among the tall tales in ``acts[:n]`` (bots._bluffs) to
    ``probs``."""
    mode = H[H_BLUFF_CARDS]
    target = -1
    count = 0
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]:
            gap = abs(R[R_DEC_HAND + a] - R[R_DEC_X + a])
            if mode == 2:
                count += 1
            elif target < 0 or (mode == 0 and gap > target) or (mode == 1 and gap < target):
                target = gap
                count = 1
            elif gap == target:
                count += 1
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]:
            if mode == 2 or abs(R[R_DEC_HAND + a] - R[R_DEC_X + a]) == target:
                probs[i] += scale * (1.0 / count)


@compiled
def heuristic_policy(s, R, H, acts, probs, buf):
    """The heuristic's distribution over the legal actions of the seat to act: ``acts[:n]`` (ascending) and
    ``probs[:n]`` (zeros included); returns ``n``. ``buf`` is scratch of :func:`scratch_size` entries."""
    n = legal_actions(s, R, acts, buf)
    heuristic_probs(s, R, H, acts, n, probs, buf)
    return n


@compiled
def heuristic_probs(s, R, H, acts, n, probs, buf):
    """:func:`heuristic_policy` over the legal actions ``acts[:n]`` already listed (the trained seat's row lists them
    once for both): their probabilities into ``probs[:n]``; returns ``n``. ``buf`` is scratch of at least
    :data:`MAXV` entries."""
    for i in range(n):
        probs[i] = 0.0
    if n == 1:
        probs[0] = 1.0
        return n
    p = s[ACTOR]
    ph = s[PHASE]
    if ph == VOTE:
        a = heuristic_vote(s, R, H, p, buf)
        tall = s[TALE_HIDDEN] != s[TALE_PARK]
        weight = H[H_VOTE_WEIGHT_TALL] if tall else H[H_VOTE_WEIGHT]
        rate = H[H_TRUST_RATE_TALL] if tall else H[H_TRUST_RATE]
        probs[0 if a == acts[0] else 1] = weight
        if weight < 1.0:  # [trust, distrust]: a search player's model of this voter (in a sampled world)
            probs[0] += (1.0 - weight) * rate
            probs[1] += (1.0 - weight) * (1.0 - rate)
        return n
    if ph == COIN_OFFER:
        mine = s[VOTES + p]
        q = H[H_COIN] if mine >= 0 and mine != s[TRUSTED] else 0.0
        probs[0] = q  # [toss, no_toss]
        probs[1] = 1.0 - q
        return n
    if ph == FREE_REPUTATION:
        i = best_cash(s, R, p, acts, n, False)
        probs[i if i >= 0 else 0] = 1.0
        return n
    # The turn's action (bots._turn).
    held = ticket_values(s, R, p)
    ncash = 0
    ntrue = 0
    ntall = 0
    ntake = 0
    best_gain = -(2**31)
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE]:
            if R[R_DEC_HAND + a] == R[R_DEC_X + a]:
                ntrue += 1
            else:
                ntall += 1
        elif a < R[R_TAKE_BASE]:
            ncash += 1
            g = cash_gain(s, R, p, a, held)
            if g > best_gain:
                best_gain = g
        elif a < R[R_FREE_BASE]:
            ntake += 1
    if ncash and (best_gain >= H[H_CASH_AT] or s[DECK_TOTAL] <= H[H_CASH_BEFORE]):
        probs[best_cash(s, R, p, acts, n, True)] = 1.0
        return n
    rest = 1.0
    if ntall:
        bluff_weights(R, H, acts, n, probs, H[H_BLUFF_RATE])
        rest = 1.0 - H[H_BLUFF_RATE]
    if ntrue:
        for i in range(n):
            a = acts[i]
            if a < R[R_REP_BASE] and R[R_DEC_HAND + a] == R[R_DEC_X + a]:
                probs[i] += rest / ntrue
        return n
    if ntall and H[H_WHEN_STUCK] > 0:
        bluff_weights(R, H, acts, n, probs, rest)
        return n
    if ntake:
        mode = H[H_PARK_PICK]
        if mode == 2:
            for i in range(n):
                a = acts[i]
                if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                    probs[i] += rest / ntake
            return n
        top = -1
        for i in range(n):
            a = acts[i]
            if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                v = R[R_DEC_X + a]
                sc = v if mode == 1 else fit_k(s, p, v)
                if sc > top:
                    top = sc
        pick = -1
        keep = 0
        for i in range(n):
            a = acts[i]
            if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                v = R[R_DEC_X + a]
                sc = v if mode == 1 else fit_k(s, p, v)
                if sc == top:
                    kv = keep_value(s, R, p, R[R_DEC_HAND + a])
                    if pick < 0 or kv < keep:
                        pick = i
                        keep = kv
        probs[pick] += rest
        return n
    # Only tales (or only cashing) remain possible: the tall tales, else the cashing, else anything.
    for i in range(n):
        a = acts[i]
        tall = a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]
        cash = a >= R[R_REP_BASE] and a < R[R_TAKE_BASE]
        if (ntall and tall) or (not ntall and ncash and cash):
            probs[i] += rest / (ntall if ntall else ncash)
        elif not ntall and not ncash:
            probs[i] += rest / n
    return n


@inlined
def heuristic_action(s, R, H, rng, acts, probs, buf):
    """An action drawn from :func:`heuristic_policy` by the draw protocol (:mod:`trustme_analysis.engine.draws`): a
    sure action draws nothing, else one uniform number walks the actions in ascending order."""
    n = heuristic_policy(s, R, H, acts, probs, buf)
    last = 0
    positive = 0
    for i in range(n):
        if probs[i] > 0.0:
            last = i
            positive += 1
    if positive == 1:
        return acts[last]
    return acts[walk(probs, n, uniform01(rng))]


tie_module(__name__)
