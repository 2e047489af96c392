"""The investing round in the compiled ``trustme_1981`` kernel: the legal investing decisions, the round's start, each
decision, and the reveal that pays it (:mod:`~trustme_analysis.games.board1981.engine.investing` restated)."""

from __future__ import annotations

from numba import njit

from trustme_analysis.games.board1981.kernel.basics import count, count_row, end_turn, finish, has_looked
from trustme_analysis.games.board1981.kernel.layout import (
    BANK_IN, BANK_OUT, BEEN_HAD, C_BOUGHT_KNOWN, C_BOUGHT_OWN, C_BOUGHT_UNKNOWN, C_CLAIMANT_ROUNDS, C_DECISIONS_KNOWN,
    C_DECISIONS_UNKNOWN, C_DIVESTED_KNOWN, C_DIVESTED_OWN, C_DIVESTED_UNKNOWN, C_RESERVE_RECEIVED, CARDS, CLAIM,
    CLAIMANT, DECIDER, END_TWO_CASES_LEFT, INVEST_CHOICE, INVEST_IDX, L_CLAIMANT_ROUNDS, L_GAIN, L_GAIN_KNOWN,
    L_GAIN_UNKNOWN, L_RESERVE, L_REVEALS_KNOWN, MONEY, ONE_STACK, PHASE, R_A_FIRST_INVEST, R_BUY_MAX, R_LOTS, R_N,
    R_NUM_LOTS, R_NUM_PROPS, REC_CLAIMED, REC_ROW, REMOVED, RESERVE, REVEALED, REVEALS_PER_ROW, ROUND_SIGNALS, SHARES,
    SHARES_LOST, SIGNAL_BUY, SIGNAL_DIVEST, SIGNAL_HOLD, TWO_STACKS, tie_module,
)

# ---------------------------------------------------------------------------------------------- the pyspiel API

@njit(cache=True, inline="always")
def investing_legal(r, money, shares, out):
    """InvestingRules.legal: hold; buy a lot you can pay; buy max (when on, with money that is not itself a lot);
    divest a lot you hold; divest all if you hold any."""
    num_lots = r[R_NUM_LOTS]
    first_divest = num_lots + 1 + r[R_BUY_MAX]
    k = 0
    out[k] = r[R_A_FIRST_INVEST]
    k += 1
    money_is_a_lot = False
    for i in range(num_lots):
        if r[r[R_LOTS] + i] <= money:
            out[k] = r[R_A_FIRST_INVEST] + 1 + i
            k += 1
        if r[r[R_LOTS] + i] == money:
            money_is_a_lot = True
    if r[R_BUY_MAX] and money > 0 and not money_is_a_lot:
        out[k] = r[R_A_FIRST_INVEST] + num_lots + 1
        k += 1
    for i in range(num_lots):
        if r[r[R_LOTS] + i] <= shares:
            out[k] = r[R_A_FIRST_INVEST] + first_divest + i
            k += 1
    if shares > 0:
        out[k] = r[R_A_FIRST_INVEST] + first_divest + num_lots
        k += 1
    return k


# ---------------------------------------------------------------------------------------------- investing round

@njit(cache=True, inline="always")
def start_investing(st, r, claimant):
    st[CLAIMANT] = claimant
    st[INVEST_IDX] = 0
    st[RESERVE] = 0
    st[PHASE] = INVEST_CHOICE
    st[DECIDER] = (claimant + 1) % r[R_N]  # investing order: from the claimant's left, the claimant last
    count(st, C_CLAIMANT_ROUNDS, claimant, 1)
    st[REC_CLAIMED] = st[CLAIM + claimant]


@njit(cache=True, inline="always")
def apply_invest(st, r, action):
    """investing.invest: hold; buy (to the reserve, or to the Bank in one's own claim); divest (from the Bank)."""
    p = st[DECIDER]
    c = st[CLAIMANT]
    local = action - r[R_A_FIRST_INVEST]
    num_lots = r[R_NUM_LOTS]
    first_divest = num_lots + 1 + r[R_BUY_MAX]
    bought = 0
    divested = 0
    if 1 <= local <= num_lots:
        bought = r[r[R_LOTS] + local - 1]
    elif r[R_BUY_MAX] and local == num_lots + 1:
        bought = st[MONEY + p]  # buy max: as many shares as the money pays for
    elif first_divest <= local < first_divest + num_lots:
        divested = r[r[R_LOTS] + local - first_divest]
    elif local == first_divest + num_lots:
        divested = st[SHARES + p]
    if p == c:
        st[BANK_IN] += bought
    else:
        st[RESERVE] += bought
    # The decision as the heuristic players read it (investing_decisions / heuristic.signal_of).
    st[ROUND_SIGNALS + st[INVEST_IDX]] = SIGNAL_BUY if bought > 0 else (SIGNAL_HOLD if local == 0 else SIGNAL_DIVEST)
    st[BANK_OUT] += divested
    st[MONEY + p] += divested - bought
    st[SHARES + p] += bought - divested
    if p == c:
        count(st, C_BOUGHT_OWN, p, bought)
        count(st, C_DIVESTED_OWN, p, divested)
    elif has_looked(st, p, st[REC_CLAIMED]):
        count(st, C_BOUGHT_KNOWN, p, bought)
        count(st, C_DIVESTED_KNOWN, p, divested)
        count(st, C_DECISIONS_KNOWN, p, 1)
    else:
        count(st, C_BOUGHT_UNKNOWN, p, bought)
        count(st, C_DIVESTED_UNKNOWN, p, divested)
        count(st, C_DECISIONS_UNKNOWN, p, 1)
    st[INVEST_IDX] += 1
    if st[INVEST_IDX] < r[R_N]:
        st[DECIDER] = (c + 1 + st[INVEST_IDX]) % r[R_N]
    else:
        reveal(st, r)


@njit(cache=True, inline="always")
def reveal(st, r):
    c = st[CLAIMANT]
    q = st[CLAIM + c]
    card = st[CARDS + q]
    st[REC_ROW] = card
    st[REVEALS_PER_ROW + card] += 1
    count_row(st, L_CLAIMANT_ROUNDS, card, c, 1)
    for p in range(r[R_N]):
        known = has_looked(st, p, q)
        count_row(st, L_REVEALS_KNOWN, card, p, known)
        shares = st[SHARES + p]
        # investing.payoff: One Stack pays the shares, Two Stacks twice; You've Been Had! takes the shares back.
        gain = 0
        kept = shares
        if card == ONE_STACK:
            gain = shares
        elif card == TWO_STACKS:
            gain = 2 * shares
        elif card == BEEN_HAD:
            kept = 0
        change = gain + kept - shares
        count_row(st, L_GAIN, card, p, change)
        count_row(st, L_GAIN_KNOWN if known else L_GAIN_UNKNOWN, card, p, change)
        st[SHARES_LOST] += shares - kept
        st[BANK_OUT] += gain
        st[MONEY + p] += gain
        st[SHARES + p] = kept
    st[MONEY + c] += st[RESERVE]
    count(st, C_RESERVE_RECEIVED, c, st[RESERVE])
    count_row(st, L_RESERVE, card, c, st[RESERVE])
    st[RESERVE] = 0
    st[CLAIM + c] = -1
    st[REVEALED + card] += 1
    st[REMOVED + q] = 1
    st[CLAIMANT] = -1
    left = 0
    for i in range(r[R_NUM_PROPS]):
        if st[REMOVED + i] == 0:
            left += 1
    if left <= 2:
        finish(st, END_TWO_CASES_LEFT)
    else:
        end_turn(st, r)


tie_module(__name__)
