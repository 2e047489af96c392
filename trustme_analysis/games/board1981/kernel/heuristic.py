"""The heuristic players of :mod:`~trustme_analysis.games.board1981.players.heuristic`, compiled: the same policy, the
same floating-point operations in the same order, so that the probabilities are equal to the last bit (tests compare
them with the Python policy on random positions)."""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.games.board1981.kernel.basics import claimed_by, has_looked, is_open_case
from trustme_analysis.games.board1981.kernel.layout import (
    BEEN_HAD, CARDS, CHALLENGE_CHOICE, CLAIM, CLAIM_KNEW, CLAIMANT, DECIDER, EMPTY, HOT_TIP_CHOICE, INVEST_CHOICE,
    INVEST_IDX, K_HOT_TIP, K_PROPERTY, K_WILD_GOOSE_CHASE, KN_CLAIM_EMPTY, KN_CLAIM_UNSEEN, KN_DIVEST_THRESHOLD,
    KN_INVEST_THRESHOLD, KN_SIGNAL_WEIGHT, KN_STAKE, MAY_CLAIM, MONEY, MOVE, NUM_PAYOFF_KINDS, ONE_STACK, PEEK, PHASE,
    POS, PROPERTY_CHOICE, R_A_CLAIM_LOOKED, R_A_CLAIM_UNSEEN, R_A_DECLINE, R_A_FIRST_CASE, R_A_FIRST_INVEST,
    R_A_FIRST_SEND, R_A_INVEST_NOW, R_A_LOOK, R_A_ROLL, R_AREA_MASK, R_BUY_MAX, R_COMPANY, R_DIST_COMPANY,
    R_HOT_TIP_AREA, R_KIND, R_LOTS, R_N, R_NUM_LOTS, R_NUM_PROPS, R_PAYOFF_MIX, R_SPACE_PROPERTY, R_WILD_GOOSE_CHASE,
    REMOVED, ROUND_SIGNALS, SEND, SENDS, SHARES, SIGNAL_BUY, SIGNAL_HOLD, TURN_START, TWO_STACKS, tie_module,
)

# ---------------------------------------------------------------------------------------------- heuristic players

# heuristic.py restated: the same policy, the same floating-point operations in the same order, so that the
# probabilities are equal to the last bit (tests compare them with the Python policy on random positions).

SCORE_COMPANY_WITH_CLAIM = 100.0
SCORE_TAKE_CLAIM = 50.0
SCORE_WANTED_CASE = 40.0
SCORE_UNKNOWN_CASE = 20.0
SCORE_HOT_TIP = 15.0
SCORE_UNWANTED_CASE = 1.0
SCORE_WILD_GOOSE_CHASE = -5.0


@njit(cache=True, inline="always")
def knows_card(st, p, q):
    """Player ``p`` knows briefcase ``q``'s card: it looked, or the briefcase was revealed (state.known_cards)."""
    return has_looked(st, p, q) == 1 or st[REMOVED + q] != 0


@njit(cache=True, inline="always")
def wants_claim(card, kn):
    """heuristic.wants_claim: a good card, or Empty with claim_empty."""
    return card == ONE_STACK or card == TWO_STACKS or (card == EMPTY and kn[KN_CLAIM_EMPTY] != 0.0)


@njit(cache=True, inline="always")
def share_gain(card):
    if card == ONE_STACK:
        return 1.0
    if card == TWO_STACKS:
        return 2.0
    return 0.0


@njit(cache=True, inline="always")
def share_survival(card):
    return 0.0 if card == BEEN_HAD else 1.0


@borrowing()
def decision_matches(card, signal, is_claimant, n, future, kn):
    """heuristic.decision_matches."""
    value = share_gain(card) + share_survival(card) * future - 1.0
    if value < 0.0:
        return signal != SIGNAL_BUY
    cost = 0.0 if is_claimant else 1.0 / (n - 1)
    if value - cost >= kn[KN_INVEST_THRESHOLD]:
        return signal == SIGNAL_BUY
    return signal == SIGNAL_HOLD


@borrowing()
def uniform_over(mask, k, probs):
    """probs[i] = 1 / (number of masked i) for each masked i (the others stay 0)."""
    m = 0
    for i in range(k):
        if mask[i]:
            m += 1
    for i in range(k):
        if mask[i]:
            probs[i] += 1.0 / m


@borrowing()
def move_score(st, r, kn, me, dest):
    """heuristic.BoardHeuristic.move_scores for one destination."""
    n = r[R_N]
    if st[CLAIM + me] >= 0:
        if dest == r[R_COMPANY]:
            return SCORE_COMPANY_WITH_CLAIM
        return -np.float64(r[r[R_DIST_COMPANY] + dest])
    if dest != r[R_COMPANY]:
        for p in range(n):
            if p != me and st[POS + p] == dest and st[CLAIM + p] >= 0:
                return SCORE_TAKE_CLAIM
    kind = r[r[R_KIND] + dest]
    if kind == K_PROPERTY:
        q = r[r[R_SPACE_PROPERTY] + dest]
        if st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0:
            if has_looked(st, me, q):
                return SCORE_WANTED_CASE if wants_claim(st[CARDS + q], kn) else SCORE_UNWANTED_CASE
            return SCORE_UNKNOWN_CASE
        return 0.0
    if kind == K_HOT_TIP:
        area = r[r[R_HOT_TIP_AREA] + dest]
        for q in range(r[R_NUM_PROPS]):
            if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q) and not has_looked(st, me, q):
                return SCORE_HOT_TIP
        return 0.0
    if kind == K_WILD_GOOSE_CHASE:
        return SCORE_WILD_GOOSE_CHASE
    return 0.0


@borrowing()
def invest_view(st, r, kn, me, belief, prior):
    """heuristic.BoardHeuristic.invest_view: fill ``belief`` (4 floats); return the worth of a share after the
    reveal (heuristic.future_after). ``prior`` is scratch of 4 floats."""
    c = st[CLAIMANT]
    prop = st[CLAIM + c]
    n = r[R_N]
    future = future_after(st, r, me, prop, prior)
    if knows_card(st, me, prop):
        for kind in range(NUM_PAYOFF_KINDS):
            belief[kind] = 0.0
        belief[st[CARDS + prop]] = 1.0
        return future
    # card_belief: Bayes' rule over the claim chosen after looking and the informed decisions so far.
    w = kn[KN_SIGNAL_WEIGHT]
    knowing = c != me and st[CLAIM_KNEW + c] != 0
    total = 0.0
    for kind in range(NUM_PAYOFF_KINDS):
        like = 1.0
        if knowing:
            like *= w if wants_claim(kind, kn) else 1.0 - w
        for i in range(st[INVEST_IDX]):
            p = (c + 1 + i) % n
            if p != me and has_looked(st, p, prop):
                like *= w if decision_matches(kind, st[ROUND_SIGNALS + i], p == c, n, future, kn) else 1.0 - w
        belief[kind] = prior[kind] * like
        total += belief[kind]
    if total > 0.0:
        for kind in range(NUM_PAYOFF_KINDS):
            belief[kind] = belief[kind] / total
        return future
    total = prior[0] + prior[1] + prior[2] + prior[3]
    for kind in range(NUM_PAYOFF_KINDS):
        belief[kind] = prior[kind] / total if total > 0.0 else 1.0 / NUM_PAYOFF_KINDS
    return future


@borrowing()
def future_after(st, r, me, prop, prior):
    """heuristic.future_after as ``me`` sees it: fill ``prior`` (4 floats) with heuristic.unseen_counts (the mix less
    the cards ``me`` knows, never below 0) and return the worth of a share after the reveal of ``prop``."""
    for kind in range(NUM_PAYOFF_KINDS):
        prior[kind] = np.float64(r[r[R_PAYOFF_MIX] + kind])
    for q in range(r[R_NUM_PROPS]):
        if knows_card(st, me, q):
            prior[st[CARDS + q]] -= 1.0
    for kind in range(NUM_PAYOFF_KINDS):
        if not prior[kind] > 0.0:
            prior[kind] = 0.0
    # The other briefcases on the board.
    unseen = prior[0] + prior[1] + prior[2] + prior[3]
    gain_unknown = (prior[ONE_STACK] + 2.0 * prior[TWO_STACKS]) / unseen if unseen > 0.0 else 0.0
    survival_unknown = (unseen - prior[BEEN_HAD]) / unseen if unseen > 0.0 else 1.0
    gain = 0.0
    survival = 0.0
    count_ = 0
    for q in range(r[R_NUM_PROPS]):
        if st[REMOVED + q] != 0 or q == prop:
            continue
        if knows_card(st, me, q):
            gain += share_gain(st[CARDS + q])
            survival += share_survival(st[CARDS + q])
        else:
            gain += gain_unknown
            survival += survival_unknown
        count_ += 1
    future = 1.0
    if count_ - 2 > 0:
        g = gain / count_
        sv = survival / count_
        for _ in range(count_ - 2):
            future = g + sv * future
    return future


@borrowing()
def invest_choice(st, r, kn, me, legal, k, work):
    """heuristic.invest_decision: the index in ``legal`` of the investing decision. ``work`` is float scratch of at
    least :data:`SCRATCH_MIN` entries."""
    belief = work[:NUM_PAYOFF_KINDS]
    future = invest_view(st, r, kn, me, belief, work[NUM_PAYOFF_KINDS:2 * NUM_PAYOFF_KINDS])
    money = st[MONEY + me]
    shares = st[SHARES + me]
    num_lots = r[R_NUM_LOTS]
    first = r[R_A_FIRST_INVEST]
    buy_max = num_lots + 1 if r[R_BUY_MAX] else -1
    divest_all = num_lots + 1 + r[R_BUY_MAX] + num_lots
    value = belief[ONE_STACK] + 2.0 * belief[TWO_STACKS] + (1.0 - belief[BEEN_HAD]) * future - 1.0
    if shares > 0 and (value < 0.0 or belief[BEEN_HAD] >= kn[KN_DIVEST_THRESHOLD]):
        for i in range(k):
            if legal[i] - first == divest_all:
                return i
    cost = 0.0 if st[CLAIMANT] == me else 1.0 / (r[R_N] - 1)
    if value - cost >= kn[KN_INVEST_THRESHOLD]:
        top = max(max(belief[0], belief[1]), max(belief[2], belief[3]))
        budget = np.float64(money) if top == 1.0 else kn[KN_STAKE] * money
        best = -1
        best_amount = -1
        for i in range(k):
            local = legal[i] - first
            if 1 <= local <= num_lots:
                amount = r[r[R_LOTS] + local - 1]
            elif local == buy_max:
                amount = money
            else:
                continue
            if amount <= budget and amount > best_amount:
                best = i
                best_amount = amount
        if best >= 0:
            return best
    for i in range(k):
        if legal[i] == first:
            return i
    return 0


#: The fewest entries of the float scratch :func:`heuristic_probs` takes (the investing decision's beliefs).
SCRATCH_MIN = 2 * NUM_PAYOFF_KINDS


@borrowing()
def heuristic_probs(st, r, kn, legal, k, probs, scratch):
    """heuristic.BoardHeuristic.probabilities for the decider: ``probs[i]`` for ``legal[i]`` (``scratch``: a float
    buffer as long as ``legal`` and at least :data:`SCRATCH_MIN`). Nothing is allocated, so the trained seats and the
    training, which call it, compile without reference counts (:mod:`cfr.numba_borrowing`)."""
    me = st[DECIDER]
    for i in range(k):
        probs[i] = 0.0
    if k == 1:
        probs[0] = 1.0
        return
    ph = st[PHASE]
    if ph == MOVE or ph == SEND:
        best = -np.inf
        for i in range(k):
            if ph == MOVE:
                scratch[i] = move_score(st, r, kn, me, legal[i])
            else:
                sign = -1.0 if st[SENDS + 1] == me else 1.0
                wgc = r[r[R_WILD_GOOSE_CHASE] + legal[i] - r[R_A_FIRST_SEND]]
                scratch[i] = sign * r[r[R_DIST_COMPANY] + wgc]
            best = max(best, scratch[i])
        for i in range(k):  # (the scores become the mask of the best ones)
            scratch[i] = 1.0 if scratch[i] == best else 0.0
        uniform_over(scratch, k, probs)
        return
    if ph == HOT_TIP_CHOICE or ph == PEEK:
        mask = scratch
        any_unknown = False
        for i in range(k):
            mask[i] = 0.0
            if legal[i] != r[R_A_DECLINE] and not knows_card(st, me, legal[i] - r[R_A_FIRST_CASE]):
                mask[i] = 1.0
                any_unknown = True
        if not any_unknown:
            for i in range(k):
                mask[i] = 1.0
        uniform_over(mask, k, probs)
        return
    if ph == CHALLENGE_CHOICE:
        mask = scratch
        any_target = False
        for i in range(k):
            mask[i] = 0.0
            if legal[i] != r[R_A_DECLINE]:
                mask[i] = 1.0
                any_target = True
        if not any_target:
            mask[0] = 1.0
        uniform_over(mask, k, probs)
        return
    if ph == PROPERTY_CHOICE:
        q = r[r[R_SPACE_PROPERTY] + st[POS + me]]
        known = knows_card(st, me, q)
        can_claim = st[CLAIM + me] < 0
        for i in range(k):
            a = legal[i]
            if can_claim and not known:
                if a == r[R_A_CLAIM_UNSEEN]:
                    probs[i] += kn[KN_CLAIM_UNSEEN]
                elif a == r[R_A_LOOK]:
                    probs[i] += 1.0 - kn[KN_CLAIM_UNSEEN]
            elif can_claim:
                wanted = r[R_A_CLAIM_UNSEEN] if wants_claim(st[CARDS + q], kn) else r[R_A_DECLINE]
                if a == wanted:
                    probs[i] = 1.0
            elif a == (r[R_A_LOOK] if not known else r[R_A_DECLINE]):
                probs[i] = 1.0
        return
    if ph == TURN_START:
        chosen = r[R_A_ROLL]
        has_invest_now = False
        has_claim_looked = False
        for i in range(k):
            has_invest_now = has_invest_now or legal[i] == r[R_A_INVEST_NOW]
            has_claim_looked = has_claim_looked or legal[i] == r[R_A_CLAIM_LOOKED]
        if has_invest_now:
            chosen = r[R_A_INVEST_NOW]
        elif has_claim_looked and wants_claim(st[CARDS + st[MAY_CLAIM + me]], kn):
            chosen = r[R_A_CLAIM_LOOKED]
        for i in range(k):
            if legal[i] == chosen:
                probs[i] = 1.0
        return
    if ph == INVEST_CHOICE:
        probs[invest_choice(st, r, kn, me, legal, k, scratch)] = 1.0
        return
    for i in range(k):
        scratch[i] = 1.0
    uniform_over(scratch, k, probs)


tie_module(__name__)
