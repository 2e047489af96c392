"""The compiled Pinocchio position's set-up and queries: a new game's state, the seat to act, the legal actions
(the usable discard combos among them), chance's outcomes and its draw, and the returns.

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

import numpy as np

from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTION, ACTIVE, ACTOR, AFTER_REFILL, CHANCE_ID, CHANCE_PHASES, COIN, COIN_BY, COIN_OFFER, COIN_TOSS, DEAL_LEFT,
    DEAL_PARK, DECK, DECK_TOTAL, FIRST_PLAYER, FREE_REPUTATION, HANDS, LAST_EMPTIED, MAXP, MAXV, N_TIED, PARK,
    PHASE, REPS, R_DECLINE, R_DISTRUST, R_FIRST_RANDOM, R_FREE_BASE, R_NCOMBOS, R_NO_TOSS, R_PARK_SIZE, R_PASS,
    R_PER_VALUE, R_PLAYERS, R_REP_BASE, R_RUN_INDEX, R_SET_MAX, R_STACKS, R_TAKE_BASE, R_TALE_BASE, R_TOSS, R_TRUST,
    R_UTILITY, R_VALUES, STACKS, STACK_EMPTY_TURN, STATE_SIZE, TERMINAL, TERMINAL_ID, THEN_DRAW, TIED, TIE_BREAK,
    TOTALS, TRUSTED, UTILITY_SCORE, UTILITY_WIN_LOSS, VOTE, VOTES, VOTE_COIN, WINNER, compiled, inlined, tie_module,
)


@compiled
def init_state(s, R):
    """Write the start of a game (before the Park is dealt) into ``s``."""
    for i in range(STATE_SIZE):
        s[i] = 0
    V = R[R_VALUES]
    s[PHASE] = FIRST_PLAYER if R[R_FIRST_RANDOM] else DEAL_PARK
    for v in range(V):
        s[DECK + v] = R[R_PER_VALUE]
        s[STACKS + v] = R[R_STACKS + v]
        s[STACK_EMPTY_TURN + v] = -1
    s[DECK_TOTAL] = R[R_PER_VALUE] * V
    s[DEAL_LEFT] = R[R_PARK_SIZE]
    s[AFTER_REFILL] = THEN_DRAW
    for p in range(MAXP):
        s[VOTES + p] = -1
    s[TRUSTED] = -1
    s[COIN] = -1
    s[COIN_BY] = -1
    s[WINNER] = -1
    s[LAST_EMPTIED] = -1


@inlined
def is_chance_phase(ph):
    """Whether chance acts in phase ``ph`` (one bit test: this runs at every step)."""
    return (CHANCE_PHASES >> ph) & 1 == 1


@compiled
def current_player(s):
    """The seat to act, -1 for chance, -4 once the game is over (pyspiel's ids)."""
    ph = s[PHASE]
    if ph == TERMINAL:
        return TERMINAL_ID
    if is_chance_phase(ph):
        return CHANCE_ID
    return s[ACTOR]


@inlined
def usable_combos(s, R, out):
    """The active player's usable discard combos (whose Ticket stack is not empty), ascending; returns the count."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    set_max = R[R_SET_MAX]
    n = 0
    for a in range(V):
        have = s[rep + a]
        if have:
            top = min(set_max, have)
            for k in range(1, top + 1):
                if s[STACKS + k - 1]:
                    out[n] = a * set_max + k - 1
                    n += 1
    for a in range(V - 1):
        if s[rep + a] and s[rep + a + 1]:
            k = 2
            while a + k <= V and s[rep + a + k - 1]:
                if s[STACKS + k - 1]:
                    out[n] = R[R_RUN_INDEX + a * (MAXV + 1) + k]
                    n += 1
                k += 1
    return n


@inlined
def popcount16(x):
    """The set bits of ``0 <= x < 2**16``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@inlined
def count_usable_combos(s, R):
    """How many combos :func:`usable_combos` lists, without listing them (the random seat's draw needs only the
    count, and the list only when it picks a Use Reputation action).

    The same sets and runs counted by Ticket stack: with ``open`` the bit mask of non-empty stacks, a value held
    ``have`` times adds the open stacks among 1 .. min(set_max, have), and a run of ``L >= 2`` held values starting
    at ``a`` (consecutive, up to the last value) adds the open stacks among 2 .. L. ``tests/games/
    test_pinocchio_kernel.py`` checks it against :func:`usable_combos`' count."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    set_max = R[R_SET_MAX]
    open_ = value_mask(s, STACKS, V)
    n = 0
    run = 0  # held values from a upwards, consecutive
    # Without branches (the Reputations of random play are not predictable): a value not held adds the empty mask.
    for a in range(V - 1, -1, -1):
        have = s[rep + a]
        run = (run + 1) * min(have, 1)
        n += popcount16(open_ & ((1 << min(set_max, have)) - 1))
        n += popcount16(open_ & ((1 << max(run, 1)) - 2))
    return n


@inlined
def value_mask(s, at, V):
    """Bit ``v`` set where ``s[at + v]`` (a count: a hand, the Park, the Ticket stacks) is non-zero, ``v < V``."""
    m = 0
    for v in range(V):
        m |= min(s[at + v], 1) << v
    return m


@inlined
def nth_bit(m, j):
    """The position of the ``j``-th (from 0) set bit of ``m`` (which has more than ``j``)."""
    for _ in range(j):
        m &= m - 1
    return popcount16((m & -m) - 1)


@compiled
def legal_actions(s, R, out, cbuf):
    """The current player's legal actions, ascending, into ``out``; returns the count (0 at chance and the end).

    ``cbuf`` is scratch space of at least :data:`MAXC` entries.
    """
    ph = s[PHASE]
    if ph == ACTION:
        V = R[R_VALUES]
        hand = HANDS + s[ACTIVE] * MAXV
        held = 0
        for w in range(V):
            if s[hand + w]:
                held += 1
        if held == 0:
            out[0] = R[R_PASS]
            return 1
        n = 0
        for v in range(V):
            if s[PARK + v]:
                for w in range(V):
                    if s[hand + w]:
                        out[n] = R[R_TALE_BASE] + v * V + w
                        n += 1
        nc = usable_combos(s, R, cbuf)
        if nc:
            C = R[R_NCOMBOS]
            for w in range(V):
                if s[hand + w]:
                    base = R[R_REP_BASE] + w * C
                    for i in range(nc):
                        out[n] = base + cbuf[i]
                        n += 1
        for w in range(V):
            if s[hand + w]:
                for u in range(V):
                    if s[PARK + u]:
                        out[n] = R[R_TAKE_BASE] + w * V + u
                        n += 1
        if n == 0:
            # An empty Park with nothing to cash leaves no action (only under empty_deck=skip): pass.
            out[0] = R[R_PASS]
            n = 1
        return n
    if ph == VOTE:
        out[0] = R[R_TRUST]
        out[1] = R[R_DISTRUST]
        return 2
    if ph == COIN_OFFER:
        out[0] = R[R_TOSS]
        out[1] = R[R_NO_TOSS]
        return 2
    if ph == FREE_REPUTATION:
        nc = usable_combos(s, R, cbuf)
        for i in range(nc):
            out[i] = R[R_FREE_BASE] + cbuf[i]
        out[nc] = R[R_DECLINE]
        return nc + 1
    return 0


@inlined
def sample_chance(s, R, rng):
    """A chance outcome by the draw protocol (:mod:`trustme_analysis.engine.draws`) over the engine's integer weights
    (``PinocchioState.chance_weights``: a Character by its count in the deck, each side of a Coin 1, each tied seat
    1): one outcome draws nothing, else an integer below their total picks one, walked in order."""
    ph = s[PHASE]
    if ph == VOTE_COIN or ph == COIN_TOSS:
        return below(rng, 2)
    if ph == FIRST_PLAYER:
        return below(rng, R[R_PLAYERS])
    if ph == TIE_BREAK:
        if s[N_TIED] == 1:
            return np.int64(s[TIED])
        return np.int64(s[TIED + below(rng, s[N_TIED])])
    # One kind left iff the first non-empty count is the whole deck (the counts add up to DECK_TOTAL).
    first = 0
    while s[DECK + first] == 0 and first < MAXV - 1:
        first += 1
    if s[DECK + first] == s[DECK_TOTAL]:
        return np.int64(first)
    r = below(rng, s[DECK_TOTAL])
    # The walk's outcome without its unpredictable exit: the first v whose running total passes r is the number of
    # running totals (never decreasing) that do not.
    v = 0
    total = 0
    for u in range(MAXV - 1):
        total += s[DECK + u]
        v += 1 if total <= r else 0
    return np.int64(v)


@inlined
def chance_outcomes(s, R, ids, probs):
    """The chance outcomes at ``s`` with the engine's probabilities (``PinocchioState.chance_outcomes``), in the
    engine's order, into ``ids`` / ``probs`` (each at least ``max(MAXV, MAXP)`` long); returns their count, 0 off a
    chance node. A Character: each value left in the deck, ``count / deck size`` (the same float division as the
    engine's); a Coin: donkey then kid, 1/2 each; the tie-break Coin: each tied seat, ``1 / tied``; the first
    player: each seat, ``1 / players``.

    The one statement of them in the kernel: :meth:`.kernel.KernelState.chance_outcomes` and the tree producer
    (:mod:`.tree`) read them here (:func:`sample_chance` draws from the same weights without listing them)."""
    ph = s[PHASE]
    if ph == VOTE_COIN or ph == COIN_TOSS:
        ids[0] = 0
        ids[1] = 1
        probs[0] = 0.5
        probs[1] = 0.5
        return 2
    if ph == TIE_BREAK:
        tied = s[N_TIED]
        for i in range(tied):
            ids[i] = s[TIED + i]
            probs[i] = 1.0 / tied
        return tied
    if ph == FIRST_PLAYER:
        n = R[R_PLAYERS]
        for p in range(n):
            ids[p] = p
            probs[p] = 1.0 / n
        return n
    if not is_chance_phase(ph):
        return 0
    total = s[DECK_TOTAL]
    k = 0
    for v in range(MAXV):
        c = s[DECK + v]
        if c:
            ids[k] = v
            probs[k] = c / total
            k += 1
    return k


@compiled
def returns_into(s, R, out):
    """The returns by the ``utility`` parameter (zeros until the end) into ``out`` (float64, players long)."""
    n = R[R_PLAYERS]
    for p in range(n):
        out[p] = 0.0
    if s[PHASE] != TERMINAL:
        return
    u = R[R_UTILITY]
    if u == UTILITY_WIN_LOSS:
        lose = -1.0 / (n - 1)
        for p in range(n):
            out[p] = 1.0 if p == s[WINNER] else lose
    elif u == UTILITY_SCORE:
        for p in range(n):
            out[p] = float(s[TOTALS + p])
    else:
        out[0] = float(s[TOTALS] - s[TOTALS + 1])
        out[1] = float(s[TOTALS + 1] - s[TOTALS])


tie_module(__name__)
