"""The pyspiel API of the compiled ``trustme_1981`` kernel on the state array: the start, the player to act, the
chance outcomes (the one compiled function that lists them, with their integer weights: the kernel state's
``chance_outcomes`` and every compiled draw read it), the legal actions, the effect of an action and the returns.

Chance is drawn by the draw protocol of :mod:`trustme_analysis.engine.draws` (which the pyspiel path follows too, so
both engines give the same games), with the compiled primitives of :mod:`trustme_analysis.engine.compiled_draws`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.board1981.kernel.basics import (
    is_open_case, may_claim_now, move_slot, start_turn, trust_deck_total, wealth,
)
from trustme_analysis.games.board1981.kernel.investing import apply_invest, investing_legal
from trustme_analysis.games.board1981.kernel.layout import (
    BAMBOOZLE_ROLL, CARD, CARDS, CH_CHALLENGER, CH_DEFENDER, CHALLENGE_CHOICE, CHANCE_PLAYER, CLAIM, CLAIMANT, DEAL,
    DEALT, DECIDER, DECK, FIRST, FIRST_PLAYER, HOT_TIP_CHOICE, INVEST_CHOICE, MAX_PLAYERS, MAY_CLAIM, MONEY, MOVE,
    NUM_PAYOFF_KINDS, OVER, PEEK, PEEK_IDX, PHASE, POS, PROPERTY_CHOICE, R_A_CLAIM_LOOKED, R_A_CLAIM_UNSEEN,
    R_A_DECLINE, R_A_FIRST_CASE, R_A_FIRST_CHALLENGE, R_A_FIRST_SEND, R_A_INVEST_NOW, R_A_LOOK, R_A_ROLL, R_AREA_MASK,
    R_COMPANY, R_DIE_FACES, R_HOT_TIP_AREA, R_MOVE_COUNT, R_MOVE_LIST, R_MOVE_START, R_N, R_NUM_PROPS, R_NUM_WGC,
    R_PAYOFF_MIX, R_PEEK, R_START_MONEY, R_START_SHARES, R_TRUST_DECK, R_UTILITY, REC_ROW, ROLL, ROLL_OFF_CHALLENGER,
    ROLL_OFF_DEFENDER, SEND, SHARES, TERMINAL_PLAYER, TURN_START, U_WEALTH, U_WEALTH_DIFF, tie_module,
)
from trustme_analysis.games.board1981.kernel.moves import (
    apply_bamboozle_roll, apply_card, apply_challenge, apply_hot_tip, apply_move, apply_peek, apply_property_choice,
    apply_roll, apply_roll_off, apply_send, apply_turn_start,
)

# ---------------------------------------------------------------------------------------------- the pyspiel API

@borrowing()
def init_state(st, r):
    """The start of a game: nothing dealt yet (TrustMe1981State.__init__)."""
    st[:] = 0
    st[PHASE] = DEAL
    st[CLAIMANT] = -1
    st[CH_CHALLENGER] = -1
    st[CH_DEFENDER] = -1
    st[REC_ROW] = -1
    for p in range(MAX_PLAYERS):
        st[POS + p] = r[R_COMPANY]
        st[MONEY + p] = r[R_START_MONEY] if p < r[R_N] else 0
        st[SHARES + p] = r[R_START_SHARES] if p < r[R_N] else 0
        st[CLAIM + p] = -1
        st[MAY_CLAIM + p] = -1
    for c in range(r[R_NUM_PROPS] + 2):
        st[DECK + c] = r[r[R_TRUST_DECK] + c]


@borrowing()
def is_chance(st):
    ph = st[PHASE]
    return (
        ph == DEAL or ph == FIRST or ph == ROLL or ph == CARD or ph == BAMBOOZLE_ROLL
        or ph == ROLL_OFF_CHALLENGER or ph == ROLL_OFF_DEFENDER
    )


@njit(cache=True)
def current_player(st):
    if st[PHASE] == OVER:
        return TERMINAL_PLAYER
    if is_chance(st):
        return CHANCE_PLAYER
    return st[DECIDER]


@borrowing()
def chance_outcomes(st, r, actions, weights):
    """Fill ``actions`` and their integer ``weights`` (probability = weight / total); return (count, total)."""
    ph = st[PHASE]
    k = 0
    total = 0
    if ph == DEAL:
        for kind in range(NUM_PAYOFF_KINDS):
            left = r[r[R_PAYOFF_MIX] + kind]
            for i in range(st[DEALT]):
                if st[CARDS + i] == kind:
                    left -= 1
            if left > 0:
                actions[k] = kind
                weights[k] = left
                total += left
                k += 1
    elif ph == FIRST:
        for p in range(r[R_N]):
            actions[k] = p
            weights[k] = 1
            k += 1
        total = r[R_N]
    elif ph == CARD:
        # An empty draw pile is reshuffled (the drawn cards become a new pile).
        fresh = trust_deck_total(st, r) == 0
        for c in range(r[R_NUM_PROPS] + 2):
            left = r[r[R_TRUST_DECK] + c] if fresh else st[DECK + c]
            if left > 0:
                actions[k] = c
                weights[k] = left
                total += left
                k += 1
    else:  # a die roll: outcome f is a roll of f + 1
        for f in range(r[R_DIE_FACES]):
            actions[k] = f
            weights[k] = 1
            k += 1
        total = r[R_DIE_FACES]
    return k, total


@borrowing()
def legal_actions(st, r, out):
    """Fill ``out`` with the current player's legal actions in ascending order; return how many."""
    ph = st[PHASE]
    p = st[DECIDER]
    k = 0
    if ph == TURN_START:
        out[k] = r[R_A_ROLL]
        k += 1
        if may_claim_now(st, r, p):
            out[k] = r[R_A_CLAIM_LOOKED]
            k += 1
        if st[CLAIM + p] >= 0 and st[POS + p] == r[R_COMPANY]:
            out[k] = r[R_A_INVEST_NOW]
            k += 1
    elif ph == MOVE:
        i = move_slot(st, r, p)
        start = r[r[R_MOVE_START] + i]
        for j in range(r[r[R_MOVE_COUNT] + i]):
            out[k] = r[r[R_MOVE_LIST] + start + j]
            k += 1
    elif ph == PROPERTY_CHOICE:
        out[k] = r[R_A_LOOK]
        k += 1
        if st[CLAIM + p] < 0:
            out[k] = r[R_A_CLAIM_UNSEEN]
            k += 1
        out[k] = r[R_A_DECLINE]
        k += 1
    elif ph == HOT_TIP_CHOICE:
        out[k] = r[R_A_DECLINE]
        k += 1
        area = r[r[R_HOT_TIP_AREA] + st[POS + p]]
        for q in range(r[R_NUM_PROPS]):
            if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q):
                out[k] = r[R_A_FIRST_CASE] + q
                k += 1
    elif ph == PEEK:
        out[k] = r[R_A_DECLINE]
        k += 1
        for q in range(r[R_NUM_PROPS]):
            out[k] = r[R_A_FIRST_CASE] + q
            k += 1
    elif ph == SEND:
        for w in range(r[R_NUM_WGC]):
            out[k] = r[R_A_FIRST_SEND] + w
            k += 1
    elif ph == CHALLENGE_CHOICE:
        out[k] = r[R_A_DECLINE]
        k += 1
        for q in range(r[R_N]):
            if q != p and st[CLAIM + q] >= 0:
                out[k] = r[R_A_FIRST_CHALLENGE] + q
                k += 1
    elif ph == INVEST_CHOICE:
        k = investing_legal(r, st[MONEY + p], st[SHARES + p], out)
    return k


@borrowing()
def apply_action(st, r, action):
    """Apply a legal action or chance outcome (TrustMe1981State._apply_action)."""
    ph = st[PHASE]
    if ph == DEAL:
        st[CARDS + st[DEALT]] = action
        st[DEALT] += 1
        if st[DEALT] == r[R_NUM_PROPS]:
            st[PHASE] = FIRST
    elif ph == FIRST:
        st[FIRST_PLAYER] = action
        if r[R_PEEK]:
            st[PHASE] = PEEK
            st[PEEK_IDX] = 0
            st[DECIDER] = action
        else:
            start_turn(st, r, action)
    elif ph == PEEK:
        apply_peek(st, r, action)
    elif ph == TURN_START:
        apply_turn_start(st, r, action)
    elif ph == ROLL:
        apply_roll(st, r, action + 1)
    elif ph == MOVE:
        apply_move(st, r, action)
    elif ph == PROPERTY_CHOICE:
        apply_property_choice(st, r, action)
    elif ph == HOT_TIP_CHOICE:
        apply_hot_tip(st, r, action)
    elif ph == SEND:
        apply_send(st, r, action)
    elif ph == CARD:
        apply_card(st, r, action)
    elif ph == BAMBOOZLE_ROLL:
        apply_bamboozle_roll(st, r, action + 1)
    elif ph == CHALLENGE_CHOICE:
        apply_challenge(st, r, action)
    elif ph == ROLL_OFF_CHALLENGER or ph == ROLL_OFF_DEFENDER:
        apply_roll_off(st, r, action + 1)
    elif ph == INVEST_CHOICE:
        apply_invest(st, r, action)


@borrowing()
def returns(st, r, out):
    """Fill ``out`` with the returns (zeros before the end): wealth_returns of the utility parameter."""
    n = r[R_N]
    for p in range(n):
        out[p] = 0.0
    if st[PHASE] != OVER:
        return
    if r[R_UTILITY] == U_WEALTH:
        for p in range(n):
            out[p] = np.float64(wealth(st, p))
        return
    if r[R_UTILITY] == U_WEALTH_DIFF:
        out[0] = np.float64(wealth(st, 0) - wealth(st, 1))
        out[1] = np.float64(wealth(st, 1) - wealth(st, 0))
        return
    # win_loss: the richest share the win; all tied gives 0.
    top = wealth(st, 0)
    for p in range(1, n):
        top = max(top, wealth(st, p))
    k = 0
    for p in range(n):
        if wealth(st, p) == top:
            k += 1
    if k == n:
        return
    for p in range(n):
        out[p] = 1.0 / k if wealth(st, p) == top else -1.0 / (n - k)


# ---------------------------------------------------------------------------------------------- whole games

@borrowing()
def sample_chance(st, r, rng, actions, weights):
    """A chance outcome by the draw protocol over the engine's integer weights (``chance_weights``): one outcome draws
    nothing, else an integer below their total picks one, walked in order."""
    k, total = chance_outcomes(st, r, actions, weights)  # every listed weight is positive
    if k == 1:
        return actions[0]
    x = below(rng, total)
    for i in range(k):
        x -= weights[i]
        if x < 0:
            return actions[i]
    return actions[k - 1]


tie_module(__name__)
