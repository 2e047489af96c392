"""The compiled Pinocchio turn: one action's step and the chain of steps after it (:func:`advance`), the tale's
resolution, and :func:`apply_action` for one checked move.

The engine moves from one step of a turn to the next by calling methods (``_end_turn`` calls ``_begin_turn``, which
may call ``_continue_refill``, which may call ``_end_turn`` ...). Compiled as calls, that chain costs reference
counting on every array argument at every level; here it is one loop in :func:`advance` over *continuations*, each
block named after the engine method it mirrors, with ``arg`` carrying that method's argument.

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTION, ACTIVE, ACTOR, AFTER_REFILL, BONUS, BONUS_FORFEITED, BONUS_TURNS, COIN, COIN_BY, COIN_CHANCE,
    COIN_OFFER, COIN_TOSS, COIN_TOSSES, COIN_USED, DAYS_ENDED, DEAL_HAND, DEAL_LEFT, DEAL_PARK, DEAL_SEAT, DECK,
    DECK_TOTAL, DISCARD, DRAW, END_DECK, END_STACKS, END_TRIGGER, FIRST_PLAYER, FIRST_SEAT, FREE_REPUTATION,
    GO_BEGIN_TURN, GO_CONTINUE_REFILL, GO_END_GAME, GO_END_TURN, GO_ENTER_DRAW, GO_FINISH_DAY, GO_HAND_DEAL,
    GO_NONE, GO_RESOLVE_TALE, GO_START_OFFERS, HANDS, MAXV, N_OFFERS, OFFERS, OFFER_I, PARK, PARK_TAKES, PHASE,
    RAN_OUT, REFILL, REFILL_LEFT, REPS, ROUTE_FREE, ROUTE_REPUTATION, ROUTE_TALE, ROWS, RUNOUTS, R_COIN_VARIANT,
    R_COMBO_LEN, R_COMBO_RUN, R_COMBO_START, R_DECLINE, R_DEC_HAND, R_DEC_X, R_DISSENTERS, R_DISTRUST, R_FREE_BASE,
    R_HAND_SIZE, R_PASS, R_PLAYERS, R_REFILL, R_REP_BASE, R_RESHUFFLE, R_RUNOUTS_TO_END, R_SET_MAX, R_TAKE_BASE,
    R_TOSS, R_TRUST, R_VALUES, STACKS, TALES_COIN, TALE_HIDDEN, TALE_PARK, TERMINAL, THEN_DRAW, THEN_END_TURN,
    TIE_BREAK, TIE_BREAK_BY, TIE_COIN, TRUSTED, TURN, VOTE, VOTES, VOTES_CAST, VOTES_CORRECT, VOTES_TRUST,
    VOTE_COIN, VOTE_I, WINNER, compiled, inlined, tie_module,
)
from trustme_analysis.games.pinocchio.kernel.scoring import gain_ticket, record_trace, score_final, stacks_end_reached


@inlined
def note_runout(s):
    """The deck ran out during this turn (counted once per turn)."""
    if not s[RAN_OUT]:
        s[RAN_OUT] = 1
        s[RUNOUTS] += 1


@inlined
def deck_ready(s, R):
    """Whether a draw can happen now; handles a draw needed while the deck is empty (``empty_deck``)."""
    if s[DECK_TOTAL]:
        return True
    note_runout(s)
    if R[R_RESHUFFLE]:
        V = R[R_VALUES]
        total = 0
        for v in range(V):
            total += s[DISCARD + v]
        if total:
            for v in range(V):
                s[DECK + v] = s[DISCARD + v]
                s[DISCARD + v] = 0
            s[DECK_TOTAL] = total
            return True
    return False


@inlined
def park_empty(s, R):
    for v in range(R[R_VALUES]):
        if s[PARK + v]:
            return False
    return True


@compiled
def any_usable_combo(s, R):
    """Whether :func:`usable_combos` would find at least one (without listing them)."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    for a in range(V):
        if s[rep + a] and s[STACKS]:
            return True  # a set of one is always possible while the stack of 1 lasts
    set_max = R[R_SET_MAX]
    for a in range(V):
        have = s[rep + a]
        top = min(set_max, have)
        for k in range(2, top + 1):
            if s[STACKS + k - 1]:
                return True
    for a in range(V - 1):
        k = 2
        while a + k <= V and s[rep + a] and s[rep + a + k - 1]:
            if s[STACKS + k - 1]:
                return True
            k += 1
    return False


@inlined
def discard_combo(s, R, p, c):
    """Discard combo ``c`` from seat ``p``'s Reputation to the discard pile; returns its size (the Ticket value)."""
    start = R[R_COMBO_START + c]
    length = R[R_COMBO_LEN + c]
    rep = REPS + p * MAXV
    if R[R_COMBO_RUN + c]:
        for v in range(start - 1, start - 1 + length):
            s[rep + v] -= 1
            s[DISCARD + v] += 1
    else:
        s[rep + start - 1] -= length
        s[DISCARD + start - 1] += length
    return length


@inlined
def advance(s, R, go, arg, trace):
    """Run the engine's steps from continuation ``go`` until play waits for a decision or a chance outcome."""
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    while go != GO_NONE:
        if go == GO_HAND_DEAL:  # _start_hand_deal(seat=arg)
            if R[R_HAND_SIZE] == 0 or arg == n:
                go, arg = GO_BEGIN_TURN, s[FIRST_SEAT]
            else:
                s[PHASE] = DEAL_HAND
                s[DEAL_SEAT] = arg
                s[DEAL_LEFT] = R[R_HAND_SIZE]
                go = GO_NONE
        elif go == GO_BEGIN_TURN:  # _begin_turn(player=arg)
            s[TURN] += 1
            t = s[TURN]
            if t >= 2:
                # The records sample every seat's score when each turn after the first begins.
                record_trace(s, R, t - 2, trace)
            s[ACTIVE] = arg
            s[RAN_OUT] = 0
            if park_empty(s, R):
                s[REFILL_LEFT] = R[R_REFILL]
                s[AFTER_REFILL] = THEN_DRAW
                go = GO_CONTINUE_REFILL
            else:
                go = GO_ENTER_DRAW
        elif go == GO_ENTER_DRAW:  # _enter_draw
            if deck_ready(s, R):
                s[PHASE] = DRAW
            else:
                s[PHASE] = ACTION
                s[ACTOR] = s[ACTIVE]
            go = GO_NONE
        elif go == GO_CONTINUE_REFILL:  # _continue_refill
            if s[REFILL_LEFT] and deck_ready(s, R):
                s[PHASE] = REFILL
                go = GO_NONE
            else:
                s[REFILL_LEFT] = 0
                go = GO_ENTER_DRAW if s[AFTER_REFILL] == THEN_DRAW else GO_END_TURN
        elif go == GO_END_TURN:  # _end_turn
            p = s[ACTIVE]
            if s[RUNOUTS] >= R[R_RUNOUTS_TO_END]:
                go, arg = GO_END_GAME, END_DECK
            elif stacks_end_reached(s, R):
                go, arg = GO_END_GAME, END_STACKS
            elif s[RAN_OUT]:
                # The day ends; a pending bonus turn becomes a free Use Reputation action (no card played).
                if s[BONUS] and any_usable_combo(s, R):
                    s[PHASE] = FREE_REPUTATION
                    s[ACTOR] = p
                    go = GO_NONE
                else:
                    go = GO_FINISH_DAY
            elif s[BONUS]:
                s[BONUS] = 0
                s[BONUS_TURNS + p] += 1
                go, arg = GO_BEGIN_TURN, p
            else:
                go, arg = GO_BEGIN_TURN, p + 1 if p + 1 < n else 0
        elif go == GO_FINISH_DAY:  # _finish_day: Reputations discarded, the discard pile becomes the new deck
            s[BONUS] = 0
            for p in range(n):
                for v in range(V):
                    s[DISCARD + v] += s[REPS + p * MAXV + v]
                    s[REPS + p * MAXV + v] = 0
            total = 0
            for v in range(V):
                s[DECK + v] += s[DISCARD + v]
                s[DISCARD + v] = 0
                total += s[DECK + v]
            s[DECK_TOTAL] = total
            s[DAYS_ENDED] += 1
            go, arg = GO_BEGIN_TURN, s[ACTIVE] + 1 if s[ACTIVE] + 1 < n else 0
        elif go == GO_END_GAME:  # _end_game(trigger=arg): a pending bonus turn is forfeited
            s[END_TRIGGER] = arg
            if s[BONUS]:
                s[BONUS] = 0
                s[BONUS_FORFEITED + s[ACTIVE]] += 1
            record_trace(s, R, s[TURN] - 1, trace)
            score_final(s, R)
            go = GO_NONE
        elif go == GO_START_OFFERS:  # _start_offers: the Coin variant's offers from the active player's left
            go = GO_RESOLVE_TALE
            if R[R_COIN_VARIANT]:
                k = 0
                for i in range(1, n):
                    q = s[ACTIVE] + i
                    if q >= n:
                        q -= n
                    if not s[COIN_USED + q] and (not R[R_DISSENTERS] or s[VOTES + q] != s[TRUSTED]):
                        s[OFFERS + k] = q
                        k += 1
                if k:
                    s[N_OFFERS] = k
                    s[OFFER_I] = 0
                    s[PHASE] = COIN_OFFER
                    s[ACTOR] = s[OFFERS]
                    go = GO_NONE
        else:  # GO_RESOLVE_TALE, _resolve_tale: flip the face-down Character, apply the row of the tale table
            go = resolve_tale(s, R)
    return 0


@inlined
def resolve_tale(s, R):
    """The engine's ``_resolve_tale`` up to its last step, which it returns as a continuation."""
    p = s[ACTIVE]
    n = R[R_PLAYERS]
    park_value = s[TALE_PARK]
    hidden = s[TALE_HIDDEN]
    tall = park_value != hidden
    trusted = s[TRUSTED] == 1
    s[ROWS + p * 4 + (2 if tall else 0) + (0 if trusted else 1)] += 1
    if s[COIN] >= 0:
        s[TALES_COIN + p] += 1
        if s[COIN_BY] < 0:
            s[COIN_CHANCE] += 1
        else:
            s[COIN_TOSSES + s[COIN_BY]] += 1
    for q in range(n):
        vote = s[VOTES + q]
        if vote >= 0:
            s[VOTES_CAST + q] += 1
            s[VOTES_TRUST + q] += vote
            # A vote is right when it trusts a true tale or distrusts a tall one.
            if (vote == 1) != tall:
                s[VOTES_CORRECT + q] += 1
    if tall and not trusted:
        # Caught: the played Character goes face-up into the Park.
        s[PARK + hidden - 1] += 1
    else:
        s[PARK + park_value - 1] -= 1
        s[REPS + p * MAXV + park_value - 1] += 1
        s[REPS + p * MAXV + hidden - 1] += 1
        if not tall and not trusted:
            s[BONUS] = 1
        elif tall:
            gain_ticket(s, R, p, abs(park_value - hidden), ROUTE_TALE, False)
    s[TALE_PARK] = 0
    s[TALE_HIDDEN] = 0
    s[TRUSTED] = -1
    s[COIN] = -1
    s[COIN_BY] = -1
    s[N_OFFERS] = 0
    if park_empty(s, R):
        s[REFILL_LEFT] = R[R_REFILL]
        s[AFTER_REFILL] = THEN_END_TURN
        return GO_CONTINUE_REFILL
    return GO_END_TURN


@inlined
def step(s, R, a, trace):
    """Apply action or chance outcome ``a`` (assumed legal) to ``s``; ``trace`` takes the score trace (0 rows: off).

    The first step of each engine path is done here; :func:`advance` runs the rest. Inlined into the play loop
    (:mod:`.trained`, :mod:`.trained_rollouts`), where a call per step cost more than a tenth of a rollout (``perf``: the array
    arguments pushed and the callee's locals set up at every step); elsewhere it is called as :func:`apply_action`.
    """
    ph = s[PHASE]
    n = R[R_PLAYERS]
    go = GO_NONE
    arg = 0
    if ph == DEAL_PARK or ph == DEAL_HAND or ph == DRAW or ph == REFILL:  # _apply_card
        s[DECK + a] -= 1
        s[DECK_TOTAL] -= 1
        if ph == DEAL_PARK:
            s[PARK + a] += 1
            s[DEAL_LEFT] -= 1
            if s[DEAL_LEFT] == 0:
                go = GO_HAND_DEAL
        elif ph == DEAL_HAND:
            seat = s[DEAL_SEAT]
            s[HANDS + seat * MAXV + a] += 1
            s[DEAL_LEFT] -= 1
            if s[DEAL_LEFT] == 0:
                go, arg = GO_HAND_DEAL, seat + 1
        elif ph == DRAW:
            s[HANDS + s[ACTIVE] * MAXV + a] += 1
            if s[DECK_TOTAL] == 0:
                note_runout(s)
            s[PHASE] = ACTION
            s[ACTOR] = s[ACTIVE]
        else:  # REFILL
            s[PARK + a] += 1
            if s[DECK_TOTAL] == 0:
                note_runout(s)
            s[REFILL_LEFT] -= 1
            go = GO_CONTINUE_REFILL
    elif ph == VOTE_COIN or ph == COIN_TOSS:
        s[COIN] = a
        s[TRUSTED] = a  # kid (1) = trusted
        go = GO_START_OFFERS if ph == VOTE_COIN else GO_RESOLVE_TALE
    elif ph == TIE_BREAK:
        s[TIE_BREAK_BY] = TIE_COIN
        s[WINNER] = a
        s[PHASE] = TERMINAL
    elif ph == FIRST_PLAYER:  # chance picked the first seat; the Park is dealt next
        s[FIRST_SEAT] = a
        s[PHASE] = DEAL_PARK
    else:  # a player's move (the engine's _apply_move), decoded as .actions numbers it
        p = s[ACTOR]
        hand = R[R_DEC_HAND + a]
        if a < R[R_REP_BASE]:  # Tell a Tale
            park_value = R[R_DEC_X + a]
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[TALE_PARK] = park_value
            s[TALE_HIDDEN] = hand
            for q in range(n):
                s[VOTES + q] = -1
            s[VOTE_I] = 0
            s[PHASE] = VOTE
            s[ACTOR] = p + 1 if p + 1 < n else 0
        elif a < R[R_TAKE_BASE]:  # Use Reputation
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[PARK + hand - 1] += 1
            length = discard_combo(s, R, p, R[R_DEC_X + a])
            gain_ticket(s, R, p, length, ROUTE_REPUTATION, True)
            go = GO_END_TURN
        elif a < R[R_FREE_BASE]:  # Take a Character from the Park ("any other": taken before the hand one is put)
            park_value = R[R_DEC_X + a]
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[PARK + park_value - 1] -= 1
            s[REPS + p * MAXV + park_value - 1] += 1
            s[PARK + hand - 1] += 1
            s[PARK_TAKES + p] += 1
            go = GO_END_TURN
        elif a < R[R_DECLINE]:  # the free Use Reputation action at the day's end
            length = discard_combo(s, R, p, R[R_DEC_X + a])
            gain_ticket(s, R, p, length, ROUTE_FREE, True)
            if stacks_end_reached(s, R):
                # The free action belongs to the turn in which the deck ran out: emptying the last stack needed
                # ends the game at the end of that turn, before a Night begins.
                go, arg = GO_END_GAME, END_STACKS
            else:
                go = GO_FINISH_DAY
        elif a == R[R_DECLINE]:
            go = GO_FINISH_DAY
        elif a == R[R_PASS]:
            go = GO_END_TURN
        elif a == R[R_TRUST] or a == R[R_DISTRUST]:  # _cast_vote
            s[VOTES + p] = 1 if a == R[R_TRUST] else 0
            s[VOTE_I] += 1
            if s[VOTE_I] < n - 1:
                q = s[ACTIVE] + 1 + s[VOTE_I]
                s[ACTOR] = q if q < n else q - n
            else:
                t = 0
                d = 0
                for q in range(n):
                    if s[VOTES + q] == 1:
                        t += 1
                    elif s[VOTES + q] == 0:
                        d += 1
                if t == d:
                    # 3 players who disagree (or any even split): toss the Coin.
                    s[PHASE] = VOTE_COIN
                else:
                    s[TRUSTED] = 1 if t > d else 0
                    go = GO_START_OFFERS
        elif a == R[R_TOSS]:
            s[COIN_USED + p] = 1
            s[COIN_BY] = p
            s[PHASE] = COIN_TOSS
        else:  # do not toss
            s[OFFER_I] += 1
            if s[OFFER_I] < s[N_OFFERS]:
                s[ACTOR] = s[OFFERS + s[OFFER_I]]
            else:
                go = GO_RESOLVE_TALE
    if go != GO_NONE:
        advance(s, R, go, arg, trace)


@compiled
def apply_action(s, R, a, trace):
    """Apply action or chance outcome ``a`` (assumed legal) to ``s``: :func:`step` as a compiled function (for the
    wrapper, the tree enumeration and the search players' single steps)."""
    step(s, R, a, trace)


tie_module(__name__)
