"""What every rule of the compiled ``trustme_1981`` kernel reads and writes: record counters, looks, claims, the
board's move table, wealth, and the start and end of a turn (``TrustMe1981State``'s helpers of the same names)."""

from __future__ import annotations

import numpy as np

from cfr.numba_borrowing import borrowing
from trustme_analysis.games.board1981.kernel.layout import (
    CLAIM, COUNTS, DECIDER, DECK, END, END_TURN_CAP, LOOKED, MAX_PLAYERS, MAY_CLAIM, MONEY, NUM_PAYOFF_KINDS, OVER,
    PHASE, POS, R_AREA_MASK, R_COMPANY, R_DIE_FACES, R_MAX_TURNS, R_N, R_NUM_PROPS, REMOVED, ROLL, ROLL_FACE, ROWS,
    SHARES, TURN_PLAYER, TURN_START, TURNS, tie_module,
)

# ---------------------------------------------------------------------------------------------- helpers for rules

@borrowing()
def count(st, counter, p, amount):
    """Add ``amount`` to seat ``p``'s record counter."""
    st[COUNTS + counter * MAX_PLAYERS + p] += amount


@borrowing()
def count_row(st, lst, row, p, amount):
    """Add ``amount`` to seat ``p``'s per-row record list ``lst`` at payoff row ``row``."""
    st[ROWS + (lst * NUM_PAYOFF_KINDS + row) * MAX_PLAYERS + p] += amount


@borrowing()
def has_looked(st, p, q):
    return (st[LOOKED + p] >> q) & 1


@borrowing()
def look(st, p, q):
    st[LOOKED + p] |= np.int64(1) << q


@borrowing()
def claimed_by(st, r, q):
    for p in range(r[R_N]):
        if st[CLAIM + p] == q:
            return p
    return -1


@borrowing()
def is_open_case(st, r, q):
    """Briefcase ``q`` is still on the board and unclaimed."""
    return st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0


@borrowing()
def may_claim_now(st, r, p):
    q = st[MAY_CLAIM + p]
    return q >= 0 and st[CLAIM + p] < 0 and st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0


@borrowing()
def has_challenge_target(st, r, p):
    for q in range(r[R_N]):
        if q != p and st[CLAIM + q] >= 0:
            return True
    return False


@borrowing()
def area_has_open_case(st, r, area):
    for q in range(r[R_NUM_PROPS]):
        if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q):
            return True
    return False


@borrowing()
def move_slot(st, r, p):
    """Index into the move table for player ``p``'s roll (the claimant's options may include the Company)."""
    has_claim = 1 if st[CLAIM + p] >= 0 else 0
    return (st[POS + p] * (r[R_DIE_FACES] + 1) + st[ROLL_FACE]) * 2 + has_claim


@borrowing()
def trust_deck_total(st, r):
    total = 0
    for c in range(r[R_NUM_PROPS] + 2):
        total += st[DECK + c]
    return total


@borrowing()
def wealth(st, p):
    return st[MONEY + p] + st[SHARES + p]


# ---------------------------------------------------------------------------------------------- a turn's start and end

@borrowing()
def start_turn(st, r, p):
    if st[TURNS] >= r[R_MAX_TURNS]:
        finish(st, END_TURN_CAP)
        return
    st[TURNS] += 1
    st[TURN_PLAYER] = p
    st[DECIDER] = p
    if may_claim_now(st, r, p) or (st[CLAIM + p] >= 0 and st[POS + p] == r[R_COMPANY]):
        st[PHASE] = TURN_START
    else:
        st[MAY_CLAIM + p] = -1
        st[PHASE] = ROLL


@borrowing()
def end_turn(st, r):
    start_turn(st, r, (st[TURN_PLAYER] + 1) % r[R_N])


@borrowing()
def finish(st, reason):
    st[END] = reason
    st[PHASE] = OVER


tie_module(__name__)
