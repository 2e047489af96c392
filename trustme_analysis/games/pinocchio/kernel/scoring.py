"""The compiled Pinocchio position's scoring and Tickets: a seat's Ticket score, gaining a Ticket by its route, the
end by empty Ticket stacks, the score trace and the final scores, ranks and winner.

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

from trustme_analysis.games.pinocchio.kernel.layout import (
    ERROR, ERR_TRACE_OVERFLOW, LAST_EMPTIED, MAXV, N_TIED, PHASE, ROUTE_TALE, R_CHART, R_PLAYERS, R_STACKS_NEEDED,
    R_VALUES, SCORE, STACKS, STACK_EMPTY_TURN, TALL_LOWER, TALL_NONE, TERMINAL, TICKETS, TIED, TIE_BREAK,
    TIE_BREAK_BY, TIE_TICKETS, TIX_ROUTE, TOTALS, TURN, WINNER, compiled, inlined, tie_module,
)


@compiled
def ticket_score(s, R, p):
    """Final Scoring of seat ``p``'s Tickets (face values plus the chart for the different values)."""
    V = R[R_VALUES]
    face = 0
    different = 0
    for v in range(V):
        k = s[TICKETS + p * MAXV + v]
        face += (v + 1) * k
        if k:
            different += 1
    bonus = R[R_CHART + different - 1] if different else 0
    return face + bonus


@compiled
def gain_ticket(s, R, p, requested, route, exact):
    """Take a Ticket of ``requested`` value, or (a tale, ``exact`` False) the next lower one left, or none."""
    value = requested
    if not exact:
        while value >= 1 and s[STACKS + value - 1] == 0:
            value -= 1
    if value >= 1:
        s[STACKS + value - 1] -= 1
        s[TICKETS + p * MAXV + value - 1] += 1
        s[SCORE + p] = ticket_score(s, R, p)
        s[TIX_ROUTE + (p * 3 + route) * MAXV + value - 1] += 1
        if route == ROUTE_TALE and value < requested:
            s[TALL_LOWER + p] += 1
        if s[STACKS + value - 1] == 0:
            s[STACK_EMPTY_TURN + value - 1] = s[TURN]
            s[LAST_EMPTIED] = value
    elif route == ROUTE_TALE:
        s[TALL_NONE + p] += 1
        s[TALL_LOWER + p] += 1


@inlined
def stacks_end_reached(s, R):
    empty = 0
    for v in range(R[R_VALUES]):
        if s[STACKS + v] == 0:
            empty += 1
    return empty >= R[R_STACKS_NEEDED]


@inlined
def record_trace(s, R, row, trace):
    """Each seat's score into ``trace[row]`` (skipped when ``trace`` has no rows; too few rows is an error).

    Inlined: it runs at every turn, and a call passes the arrays field by field even when there is no trace."""
    if trace.shape[0] == 0:
        return
    if row >= trace.shape[0]:
        s[ERROR] = ERR_TRACE_OVERFLOW
        return
    for p in range(R[R_PLAYERS]):
        trace[row, p] = s[SCORE + p]


@compiled
def score_final(s, R):
    """Totals, then the winner: most points, then most Tickets, then the tie-break Coin (a chance node)."""
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    best = -1
    for p in range(n):
        s[TOTALS + p] = s[SCORE + p]
        best = max(best, s[SCORE + p])
    top = 0
    first = -1
    most = -1
    for p in range(n):
        if s[TOTALS + p] == best:
            top += 1
            if first < 0:
                first = p
            count = 0
            for v in range(V):
                count += s[TICKETS + p * MAXV + v]
            most = max(most, count)
    if top > 1:
        still = 0
        first = -1
        for p in range(n):
            if s[TOTALS + p] == best:
                count = 0
                for v in range(V):
                    count += s[TICKETS + p * MAXV + v]
                if count == most:
                    s[TIED + still] = p
                    still += 1
                    if first < 0:
                        first = p
        if still > 1:
            s[N_TIED] = still
            s[PHASE] = TIE_BREAK
            return
        s[TIE_BREAK_BY] = TIE_TICKETS
    s[WINNER] = first
    s[PHASE] = TERMINAL


tie_module(__name__)
