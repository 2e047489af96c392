"""One position of a Pinocchio "Trust Me" game: the turn structure of the rulebook as a pyspiel state.

Every step of play is an explicit *phase* (:data:`PHASE_NAMES`): the set-up deals, the turn's draw, the turn's action,
each trust vote, the 3-player Coin, the Coin variant's offers and toss, Park refills, the free Use Reputation action at
a day's end, and the final tie-break Coin. Chance deals a Character by value with probability proportional to the
value's count in the deck; the deck is kept as counts per value (its order is never observable before a draw), so a
reshuffle is merging counts and needs no chance node.

The state holds only ints, bools and short lists/tuples, plus the shared :class:`~trustme_analysis.games.pinocchio.engine.rules.Rules` and
:class:`~trustme_analysis.games.pinocchio.engine.actions.ActionCodec` objects (which refuse to be copied), because pyspiel deep-copies every attribute on ``clone()``.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A
from trustme_analysis.games.pinocchio.engine.rules import score_breakdown, tale_row, ticket_for_tale

# Phases, in the order they occur (the first player's draw, first_player=random, numbered last: it came last).
(DEAL_PARK, DEAL_HAND, DRAW, ACTION, VOTE, VOTE_COIN, COIN_OFFER, COIN_TOSS, REFILL, FREE_REPUTATION, TIE_BREAK,
 TERMINAL, FIRST_PLAYER) = range(13)
PHASE_NAMES = ("deal_park", "deal_hand", "draw", "action", "vote", "vote_coin", "coin_offer", "coin_toss", "refill",
               "free_reputation", "tie_break", "terminal", "first_player")
_CHANCE_PHASES = frozenset((DEAL_PARK, DEAL_HAND, DRAW, VOTE_COIN, COIN_TOSS, REFILL, TIE_BREAK, FIRST_PLAYER))
_CARD_PHASES = frozenset((DEAL_PARK, DEAL_HAND, DRAW, REFILL))

# Where play continues once a Park refill is done.
_THEN_DRAW, _THEN_END_TURN = 0, 1



class _Flat(list):
    """A list of immutable items (ints, bools, None, tuples, strings).

    pyspiel's ``clone()`` deep-copies every attribute of a Python state; for such a list a shallow copy is already a
    full copy, and much cheaper.
    """

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> _Flat:
        return _Flat(self)


class _Rows(list):
    """A list of :class:`_Flat` rows (one per seat); copying it copies each row."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> _Rows:
        return _Rows(_Flat(r) for r in self)


def _values_of(counts: list[int]) -> list[int]:
    """Counts per value -> the sorted list of values (``[0, 2, 1]`` -> ``[2, 2, 3]``)."""
    out: list[int] = []
    for i, n in enumerate(counts):
        out.extend([i + 1] * n)
    return out


class PinocchioState(pyspiel.State):
    """A state of ``trustme_pinocchio``; create it with ``game.new_initial_state()``.

    Besides the pyspiel API it offers :meth:`snapshot` (everything a referee sees, as plain data) and
    :meth:`player_view` (the same with what one player cannot see removed).
    """

    def __init__(self, game: Any):
        super().__init__(game)
        rules = game.rules
        n, V = rules.players, rules.values
        self._rules = rules
        self._codec = game.codec
        # first_player=random: chance picks the first seat before the Park is dealt.
        self._phase = FIRST_PLAYER if rules.first_player == "random" else DEAL_PARK
        self._first = 0
        self._turn = 0
        self._active = 0
        self._actor = 0
        self._deck = _Flat([rules.deck_per_value] * V)
        self._deck_total = rules.deck_per_value * V
        self._discard = _Flat([0] * V)
        self._park = _Flat([0] * V)
        self._hands = _Rows(_Flat([0] * V) for _ in range(n))
        self._reps = _Rows(_Flat([0] * V) for _ in range(n))
        self._tickets = _Rows(_Flat([0] * V) for _ in range(n))
        self._stacks = _Flat(rules.stacks)
        self._coin_used = _Flat([False] * n)
        self._runouts = 0
        self._days_ended = 0  # the Day/Night card flips when a day ends, not when the deck runs out
        self._ran_out = False  # the deck ran out during the current turn
        self._bonus = False  # a bonus turn is pending
        self._end_trigger: str | None = None
        self._deal_left = rules.park_size
        self._deal_seat = 0
        self._refill_left = 0
        self._after_refill = _THEN_DRAW
        self._tale: tuple[int, int] | None = None  # (Park value claimed, hidden hand value)
        self._votes: list[bool | None] = _Flat([None] * n)
        self._vote_i = 0
        self._trusted: bool | None = None
        self._coin: int | None = None
        self._coin_by: int | None = None
        self._offers: tuple[int, ...] = ()
        self._offer_i = 0
        self._tied: tuple[int, ...] = ()
        self._winner = -1
        self._totals: tuple[int, ...] | None = None
        # Events as tuples (kind first); snapshot() turns them into dicts.
        self._events: list[tuple] = _Flat()
        # What each player observed, in order: (who, text for `who`, text for everyone else); who=-1: public.
        self._log: list[tuple[int, str, str]] = _Flat()

    # ------------------------------------------------------------------ pyspiel API

    def current_player(self) -> int:
        """The seat to act, or pyspiel's CHANCE / TERMINAL id."""
        if self._phase == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if self._phase in _CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        return self._actor

    def is_terminal(self) -> bool:
        """True once the winner is known."""
        return self._phase == TERMINAL

    def chance_weights(self) -> list[tuple[int, int]]:
        """The chance outcomes with whole-number weights (probability = weight / their sum): a Character by its count
        in the deck; each side of a Coin 1; each tied seat 1 (the tie-break Coin); each seat 1 (the first player).
        Chance draws by these (:mod:`trustme_analysis.engine.draws`)."""
        ph = self._phase
        if ph in _CARD_PHASES:
            return [(v, n) for v, n in enumerate(self._deck) if n]
        if ph == TIE_BREAK:
            return [(p, 1) for p in self._tied]
        if ph == FIRST_PLAYER:
            return [(p, 1) for p in range(self._rules.players)]
        return [(A.DONKEY, 1), (A.KID, 1)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Deals by value (count / deck size); Coins 1/2 each; the tie-break Coin uniform over the tied seats; the
        first player uniform over the seats: the :meth:`chance_weights` over their sum."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def _legal_actions(self, player: int) -> list[int]:
        ph = self._phase
        codec = self._codec
        if ph == ACTION:
            return self._turn_actions()
        if ph == VOTE:
            return [codec.trust, codec.distrust]
        if ph == COIN_OFFER:
            return [codec.toss, codec.no_toss]
        if ph == FREE_REPUTATION:
            return [codec.free_reputation(c) for c in self._usable_combos()] + [codec.decline]
        return []

    def _turn_actions(self) -> list[int]:
        codec = self._codec
        V = self._rules.values
        hand = self._hands[self._active]
        held = [w for w in range(1, V + 1) if hand[w - 1]]
        if not held:
            return [codec.pass_]
        in_park = [v for v in range(1, V + 1) if self._park[v - 1]]
        # (ascending: the codec numbers tales by Park value then hand value, the others by hand value first)
        out = [codec.tale(v, w) for v in in_park for w in held]
        combos = self._usable_combos()
        out += [codec.reputation(w, c) for w in held for c in combos]
        out += [codec.take(w, u) for w in held for u in in_park]
        # An empty Park with nothing to cash leaves no action (only possible under empty_deck=skip): pass.
        return out or [codec.pass_]

    def _usable_combos(self) -> list[int]:
        """Combos the active player's Reputation holds whose Ticket stack is not empty, in ascending order.

        Walks the Reputation once (sets per value, then runs along consecutive values) instead of testing every
        combo: this is the hot spot of a random playout.
        """
        rep = self._reps[self._active]
        if not any(rep):
            return []
        stacks = self._stacks
        codec = self._codec
        set_max = codec.set_max
        V = len(rep)
        out = []
        for a in range(V):
            have = rep[a]
            if have:
                base = a * set_max
                for k in range(1, min(have, set_max) + 1):
                    if stacks[k - 1]:
                        out.append(base + k - 1)
        for a in range(V - 1):
            if rep[a] and rep[a + 1]:
                row = codec.run_index[a]
                k = 2
                while a + k <= V and rep[a + k - 1]:
                    if stacks[k - 1]:
                        out.append(row[k])
                    k += 1
        return out

    def _apply_action(self, action: int) -> None:
        ph = self._phase
        if ph in _CARD_PHASES:
            self._apply_card(action)
        elif ph == VOTE_COIN or ph == COIN_TOSS:
            self._coin = action
            self._trusted = action == A.KID
            who = "vote" if ph == VOTE_COIN else f"p{self._coin_by}"
            self._log.append((-1, "", f"coin({who}):{A.COIN_SIDES[action]}"))
            if ph == VOTE_COIN:
                self._start_offers()
            else:
                self._resolve_tale()
        elif ph == FIRST_PLAYER:
            self._first = action
            self._events.append(("first_player", action))
            self._log.append((-1, "", f"first:p{action}"))
            self._phase = DEAL_PARK
        elif ph == TIE_BREAK:
            self._events.append(("tie_break", self._tied, "coin", action))
            self._log.append((-1, "", f"tiecoin:p{action}"))
            self._winner = action
            self._phase = TERMINAL
        else:
            self._apply_move(self._codec.decode(action), action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._phase in (VOTE_COIN, COIN_TOSS):
                return f"Coin: {A.COIN_SIDES[action]}"
            if self._phase == TIE_BREAK:
                return f"Coin: seat {action} wins"
            if self._phase == FIRST_PLAYER:
                return f"First player: seat {action}"
            return f"Character {action + 1}"
        return self._codec.describe(action)

    def returns(self) -> list[float]:
        """Zeros until the end; then by the ``utility`` parameter (win/loss, score, or 2-player score difference)."""
        n = self._rules.players
        if self._phase != TERMINAL:
            return [0.0] * n
        utility = self._rules.utility
        if utility == "win_loss":
            lose = -1.0 / (n - 1)
            return [1.0 if p == self._winner else lose for p in range(n)]
        totals = self._totals
        if utility == "score":
            return [float(t) for t in totals]
        return [float(totals[0] - totals[1]), float(totals[1] - totals[0])]

    def information_string(self, player: int) -> str:
        """Everything ``player`` has seen, in order (perfect recall), prefixed by the seat.

        This is what ``information_state_string(player)`` returns (through the game's observer).
        """
        return f"p{player}|" + " ".join(mine if who == player else theirs for who, mine, theirs in self._log)

    def __str__(self) -> str:
        snap = self.snapshot()
        keep = ("turn", "phase", "current_player", "day", "runouts", "deck_size", "park", "hands", "reputations",
                "tickets", "stacks_left", "pending_bonus", "end_trigger", "winner")
        return " ".join(f"{k}={snap[k]}" for k in keep)

    # ------------------------------------------------------------------ chance: Characters

    def _apply_card(self, index: int) -> None:
        value = index + 1
        self._deck[index] -= 1
        self._deck_total -= 1
        ph = self._phase
        if ph == DEAL_PARK:
            self._park[index] += 1
            self._log.append((-1, "", f"park+{value}"))
            self._deal_left -= 1
            if not self._deal_left:
                self._start_hand_deal(0)
        elif ph == DEAL_HAND:
            seat = self._deal_seat
            self._hands[seat][index] += 1
            self._log.append((seat, f"hand{seat}+{value}", f"hand{seat}+?"))
            self._deal_left -= 1
            if not self._deal_left:
                self._start_hand_deal(seat + 1)
        elif ph == DRAW:
            p = self._active
            self._hands[p][index] += 1
            self._log.append((p, f"draw{p}:{value}", f"draw{p}:?"))
            if not self._deck_total:
                self._note_runout()
            self._enter_action()
        else:  # REFILL
            self._park[index] += 1
            self._log.append((-1, "", f"refill:{value}"))
            if not self._deck_total:
                self._note_runout()
            self._refill_left -= 1
            self._continue_refill()

    def _start_hand_deal(self, seat: int) -> None:
        if self._rules.hand_size == 0 or seat == self._rules.players:
            self._begin_turn(self._first, bonus=False)
            return
        self._phase = DEAL_HAND
        self._deal_seat = seat
        self._deal_left = self._rules.hand_size

    def _note_runout(self) -> None:
        """The deck ran out during this turn (counted once per turn)."""
        if not self._ran_out:
            self._ran_out = True
            self._runouts += 1
            self._log.append((-1, "", f"runout{self._runouts}"))

    def _deck_ready(self) -> bool:
        """Whether a draw can happen now; handles a draw needed while the deck is empty (``empty_deck``)."""
        if self._deck_total:
            return True
        self._note_runout()
        if self._rules.empty_deck == "reshuffle" and any(self._discard):
            self._deck = self._discard
            self._deck_total = sum(self._deck)
            self._discard = _Flat([0] * self._rules.values)
            self._log.append((-1, "", "reshuffle"))
            return True
        return False

    # ------------------------------------------------------------------ the turn

    def _begin_turn(self, player: int, bonus: bool) -> None:
        self._turn += 1
        self._active = player
        self._ran_out = False
        self._events.append(("turn", self._turn, player, bonus, self._day()))
        self._log.append((-1, "", f"T{self._turn}:p{player}{'b' if bonus else ''}"))
        if not any(self._park):
            self._start_refill(_THEN_DRAW)
        else:
            self._enter_draw()

    def _day(self) -> str:
        return "day" if self._days_ended % 2 == 0 else "night"

    def _enter_draw(self) -> None:
        if self._deck_ready():
            self._phase = DRAW
        else:
            self._log.append((-1, "", f"nodraw{self._active}"))
            self._enter_action()

    def _enter_action(self) -> None:
        self._phase = ACTION
        self._actor = self._active

    def _start_refill(self, then: int) -> None:
        self._refill_left = self._rules.refill
        self._after_refill = then
        self._continue_refill()

    def _continue_refill(self) -> None:
        if self._refill_left and self._deck_ready():
            self._phase = REFILL
            return
        self._refill_left = 0
        if self._after_refill == _THEN_DRAW:
            self._enter_draw()
        else:
            self._end_turn()

    def _apply_move(self, move: A.Move, action: int) -> None:
        p = self._actor
        kind = move.kind
        if kind == A.TALE:
            self._hands[p][move.hand - 1] -= 1
            self._tale = (move.park, move.hand)
            self._log.append((p, f"tale{p}:{move.park}<{move.hand}", f"tale{p}:{move.park}<?"))
            self._votes = _Flat([None] * self._rules.players)
            self._vote_i = 0
            self._phase = VOTE
            self._actor = (p + 1) % self._rules.players
        elif kind == A.REPUTATION or kind == A.FREE_REPUTATION:
            if kind == A.REPUTATION:
                self._hands[p][move.hand - 1] -= 1
                self._park[move.hand - 1] += 1
            rep = self._reps[p]
            for i, k in enumerate(move.combo.counts):
                rep[i] -= k
                self._discard[i] += k
            self._log.append((-1, "", f"rep{p}:{move.hand or '-'}:{move.combo}"))
            route = "reputation" if kind == A.REPUTATION else "free_reputation"
            self._gain_ticket(p, move.combo.length, route, exact=True)
            if kind == A.REPUTATION:
                self._end_turn()
            elif self._stacks_end_reached():
                # The free action belongs to the turn in which the deck ran out, so emptying the last stack needed
                # ends the game at the end of that turn, before a Night begins.
                self._end_game("stacks")
            else:
                self._finish_day()
        elif kind == A.TAKE:
            # Take "any other Character": the Park value must be there before the hand Character is played.
            self._hands[p][move.hand - 1] -= 1
            self._park[move.park - 1] -= 1
            self._reps[p][move.park - 1] += 1
            self._park[move.hand - 1] += 1
            self._events.append(("park_take", self._turn, p, move.park))
            self._log.append((-1, "", f"take{p}:{move.hand}>{move.park}"))
            self._end_turn()
        elif kind == A.PASS:
            self._log.append((-1, "", f"pass{p}"))
            self._end_turn()
        elif kind == A.DECLINE:
            self._log.append((-1, "", f"decline{p}"))
            self._finish_day()
        elif kind == A.TRUST or kind == A.DISTRUST:
            self._cast_vote(p, kind == A.TRUST)
        elif kind == A.TOSS:
            self._coin_used[p] = True
            self._coin_by = p
            self._log.append((-1, "", f"toss{p}"))
            self._phase = COIN_TOSS
        elif kind == A.NO_TOSS:
            self._log.append((-1, "", f"notoss{p}"))
            self._offer_i += 1
            if self._offer_i < len(self._offers):
                self._actor = self._offers[self._offer_i]
            else:
                self._resolve_tale()
        else:  # pragma: no cover - the codec has no other kinds
            raise ValueError(f"unknown action {action}")

    # ------------------------------------------------------------------ Tell a Tale

    def _cast_vote(self, voter: int, trust: bool) -> None:
        self._votes[voter] = trust
        mark = "T" if trust else "F"
        if self._rules.voting == "sequential":
            self._log.append((-1, "", f"v{voter}:{mark}"))
        else:
            self._log.append((voter, f"v{voter}:{mark}", f"v{voter}:?"))
        n = self._rules.players
        self._vote_i += 1
        if self._vote_i < n - 1:
            self._actor = (self._active + 1 + self._vote_i) % n
            return
        if self._rules.voting == "simultaneous":
            self._log.append((-1, "", "votes:" + "".join("-" if v is None else "TF"[not v] for v in self._votes)))
        trust_n = sum(1 for v in self._votes if v is True)
        distrust_n = sum(1 for v in self._votes if v is False)
        if trust_n == distrust_n:
            # 3 players who disagree (or any even split): toss the Coin.
            self._phase = VOTE_COIN
            return
        self._trusted = trust_n > distrust_n
        self._start_offers()

    def _start_offers(self) -> None:
        """4-Player Coin Variant: offer the toss round the table from the active player's left."""
        rules = self._rules
        if rules.coin_variant:
            n = rules.players
            order = [(self._active + i) % n for i in range(1, n)]
            offers = tuple(q for q in order if not self._coin_used[q]
                           and (rules.coin_tossers == "any" or self._votes[q] != self._trusted))
            if offers:
                self._offers = offers
                self._offer_i = 0
                self._phase = COIN_OFFER
                self._actor = offers[0]
                return
        self._resolve_tale()

    def _resolve_tale(self) -> None:
        """Flip the face-down Character and apply the row of the tale table."""
        p = self._active
        park_value, hidden = self._tale
        tall = park_value != hidden
        trusted = bool(self._trusted)
        self._log.append((-1, "", f"reveal{p}:{hidden}:{'trusted' if trusted else 'distrusted'}"))
        coin = None if self._coin is None else A.COIN_SIDES[self._coin]
        self._events.append(("tale", self._turn, p, park_value, hidden, tall, tuple(self._votes), coin,
                             self._coin_by, trusted, tale_row(tall, trusted)))
        if tall and not trusted:
            # Caught: the played Character goes face-up into the Park.
            self._park[hidden - 1] += 1
        else:
            # Both Characters go face-up into the Reputation.
            self._park[park_value - 1] -= 1
            self._reps[p][park_value - 1] += 1
            self._reps[p][hidden - 1] += 1
            if not tall and not trusted:
                self._bonus = True
            elif tall:
                self._gain_ticket(p, abs(park_value - hidden), "tale", exact=False)
        self._tale = None
        self._trusted = None
        self._coin = None
        self._coin_by = None
        self._offers = ()
        if not any(self._park):
            self._start_refill(_THEN_END_TURN)
        else:
            self._end_turn()

    def _gain_ticket(self, p: int, requested: int, route: str, exact: bool) -> None:
        """Take a Ticket of ``requested`` value, or (a tale, ``exact=False``) the next lower one left, or none."""
        value = requested if exact else ticket_for_tale(self._stacks, requested)
        if value >= 1:
            self._stacks[value - 1] -= 1
            self._tickets[p][value - 1] += 1
            self._events.append(("ticket", self._turn, p, value, requested, route))
            if not self._stacks[value - 1]:
                self._events.append(("stack_empty", self._turn, value))
        else:
            self._events.append(("ticket", self._turn, p, None, requested, route))

    # ------------------------------------------------------------------ end of a turn, day, game

    def _end_turn(self) -> None:
        rules = self._rules
        p = self._active
        if self._runouts >= rules.runouts_to_end:
            self._end_game("deck")
            return
        if self._stacks_end_reached():
            self._end_game("stacks")
            return
        if self._ran_out:
            # The day ends; a pending bonus turn becomes a free Use Reputation action (no card played).
            if self._bonus and self._usable_combos():
                self._phase = FREE_REPUTATION
                self._actor = p
                return
            self._finish_day()
            return
        if self._bonus:
            self._bonus = False
            self._events.append(("bonus_turn", self._turn, p))
            self._begin_turn(p, bonus=True)
        else:
            self._begin_turn((p + 1) % rules.players, bonus=False)

    def _stacks_end_reached(self) -> bool:
        return sum(1 for s in self._stacks if not s) >= self._rules.stacks_needed

    def _end_game(self, trigger: str) -> None:
        """The game ends at the end of the active player's turn; a pending bonus turn is forfeited."""
        self._end_trigger = trigger
        if self._bonus:
            self._bonus = False
            self._events.append(("bonus_forfeited", self._turn, self._active))
        self._events.append(("game_end", self._turn, trigger))
        self._log.append((-1, "", f"end:{trigger}"))
        self._score()

    def _finish_day(self) -> None:
        """Every Reputation is discarded, the discard pile becomes the new deck, and the next player goes on."""
        self._bonus = False
        for rep in self._reps:
            for i, k in enumerate(rep):
                self._discard[i] += k
                rep[i] = 0
        self._deck = _Flat(d + k for d, k in zip(self._deck, self._discard))
        self._deck_total = sum(self._deck)
        self._discard = _Flat([0] * self._rules.values)
        self._days_ended += 1
        self._events.append(("day_end", self._turn))
        self._log.append((-1, "", "dayend"))
        self._begin_turn((self._active + 1) % self._rules.players, bonus=False)

    def _score(self) -> None:
        chart = self._rules.chart
        self._totals = tuple(score_breakdown(t, chart)["total"] for t in self._tickets)
        best = max(self._totals)
        top = tuple(p for p, t in enumerate(self._totals) if t == best)
        if len(top) > 1:
            counts = [sum(self._tickets[p]) for p in top]
            most = max(counts)
            still = tuple(p for p, c in zip(top, counts) if c == most)
            if len(still) > 1:
                self._tied = still
                self._phase = TIE_BREAK
                return
            self._events.append(("tie_break", top, "tickets", still[0]))
            top = still
        self._winner = top[0]
        self._phase = TERMINAL

    # ------------------------------------------------------------------ worlds for search players

    def unseen(self, player: int) -> list[int]:
        """Counts per value of the Characters ``player`` cannot locate: the deck, the other hands, and a face-down
        tale Character it did not play. Everything else (its hand, the Park, Reputations, the discard pile, Tickets)
        is in sight or was seen going where it is."""
        counts = list(self._deck)
        for q, hand in enumerate(self._hands):
            if q != player:
                counts = [c + h for c, h in zip(counts, hand)]
        if self._tale is not None and self._active != player:
            counts[self._tale[1] - 1] += 1
        return counts

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PinocchioState:
        """A state ``player_id`` cannot tell from this one, reached by a history: the real history replayed with
        the deals ``player_id`` did not see drawn again (the Characters it cannot locate, :meth:`unseen`, dealt
        anew, uniformly, into the places they can be), see :mod:`~trustme_analysis.games.pinocchio.engine.worlds`.

        ``probability_sampler()`` gives uniform numbers in [0, 1) (pyspiel's ``UniformProbabilitySampler`` or a
        generator's ``random``). Under simultaneous voting, the votes already cast but not yet shown are choices
        ``player_id`` has not seen: each is drawn anew, trust or not with even odds.
        """
        from trustme_analysis.games.pinocchio.engine.worlds import resample_by_replay

        return resample_by_replay(self, player_id, probability_sampler)

    # ------------------------------------------------------------------ plain-data views

    def snapshot(self, include_events: bool = True) -> dict[str, Any]:
        """Everything a referee sees, as JSON-serialisable plain data (see the docs page for every key).

        Args:
            include_events: False leaves ``"events"`` as None (building the event dicts is most of the cost of a
                snapshot late in a game; bots do not need them).
        """
        rules = self._rules
        n = rules.players
        scores = None
        if self._phase == TERMINAL:
            ranks = self._ranks()
            scores = []
            for p in range(n):
                row = score_breakdown(self._tickets[p], rules.chart)
                row["tickets"] = sum(self._tickets[p])
                row["rank"] = ranks[p]
                scores.append(row)
        tale = None
        if self._tale is not None:
            tale = {
                "player": self._active,
                "park_value": self._tale[0],
                "hidden_value": self._tale[1],
                "votes": list(self._votes),
                "majority": self._trusted,
                "coin": None if self._coin is None else A.COIN_SIDES[self._coin],
                "coin_by": self._coin_by,
            }
        cp = self.current_player()
        return {
            "game": str(self.get_game()),
            "players": n,
            "turn": self._turn,
            "current_player": int(cp),
            "active_player": self._active,
            "phase": PHASE_NAMES[self._phase],
            "day": self._day(),
            "runouts": self._runouts,
            "deck_size": self._deck_total,
            "deck_contents": list(self._deck),
            "discard": list(self._discard),
            "park": _values_of(self._park),
            "hands": [_values_of(h) for h in self._hands],
            "hand_sizes": [sum(h) for h in self._hands],
            "reputations": [_values_of(r) for r in self._reps],
            "tickets": [list(t) for t in self._tickets],
            "stacks_left": list(self._stacks),
            "coin_used": list(self._coin_used),
            "pending_bonus": self._bonus,
            "tale": tale,
            "end_trigger": self._end_trigger,
            "scores": scores,
            "winner": self._winner if self._phase == TERMINAL else None,
            "events": [_event_dict(e) for e in self._events] if include_events else None,
        }

    def player_view(self, player: int, include_events: bool = True) -> dict[str, Any]:
        """:meth:`snapshot` as seen by ``player``: other hands, the deck's contents, a face-down tale Character
        (unless ``player`` told it) and simultaneous votes not yet all cast are replaced by ``None``.

        Everything left is public at the table or remembered from public play (the discard pile's contents, the
        Tickets each player gained, the events). ``unseen`` adds the count per value of the Characters ``player``
        cannot locate (:meth:`unseen`). Bots read only this.
        """
        view = self.snapshot(include_events)
        view["viewer"] = player
        view["unseen"] = self.unseen(player)
        view["hands"] = [h if p == player else None for p, h in enumerate(view["hands"])]
        view["deck_contents"] = None
        tale = view["tale"]
        if tale is not None:
            if tale["player"] != player:
                tale["hidden_value"] = None
            if self._rules.voting == "simultaneous" and self._phase == VOTE:
                tale["votes"] = [v if p == player else None for p, v in enumerate(tale["votes"])]
        return view

    def _ranks(self) -> list[int]:
        """1 + the number of players ahead on (points, Tickets); the tie-break winner is alone in first place."""
        n = self._rules.players
        key = [(self._totals[p], sum(self._tickets[p])) for p in range(n)]
        ranks = []
        for p in range(n):
            ahead = sum(1 for q in range(n) if key[q] > key[p] or (q == self._winner and key[q] == key[p] and q != p))
            ranks.append(1 + ahead)
        return ranks

    def observation_parts(self, player: int) -> dict[str, Any]:
        """The current position as ``player`` sees it, as numbers (used by the observer).

        ``votes`` holds the votes shown to everyone (under simultaneous voting none until all are cast);
        ``my_vote`` is ``player``'s own vote while it is still hidden from the others (else None).
        """
        rules = self._rules
        hidden_votes = rules.voting == "simultaneous" and self._phase == VOTE
        return {
            "phase": self._phase,
            "active": self._active,
            "hand": self._hands[player],
            "hand_sizes": [sum(h) for h in self._hands],
            "park": self._park,
            "reputations": self._reps,
            "tickets": self._tickets,
            "stacks": self._stacks,
            "deck_size": self._deck_total,
            "discard": self._discard,
            "runouts": self._runouts,
            "coin_used": self._coin_used,
            "bonus": self._bonus,
            "tale_park": self._tale[0] if self._tale else 0,
            "tale_hidden": self._tale[1] if self._tale and self._active == player else 0,
            "votes": [None if hidden_votes else v for v in self._votes] if self._tale else [None] * rules.players,
            "my_vote": self._votes[player] if self._tale and hidden_votes else None,
            "majority": self._trusted,
        }


def _event_dict(e: tuple) -> dict[str, Any]:
    kind = e[0]
    if kind == "first_player":
        return {"kind": kind, "player": e[1]}
    if kind == "turn":
        return {"kind": kind, "turn": e[1], "player": e[2], "bonus": e[3], "day": e[4]}
    if kind == "tale":
        return {"kind": kind, "turn": e[1], "player": e[2], "park_value": e[3], "hidden_value": e[4], "tall": e[5],
                "votes": list(e[6]), "coin": e[7], "coin_by": e[8], "trusted": e[9], "row": e[10]}
    if kind == "ticket":
        return {"kind": kind, "turn": e[1], "player": e[2], "value": e[3], "requested": e[4], "route": e[5]}
    if kind == "park_take":
        return {"kind": kind, "turn": e[1], "player": e[2], "value": e[3]}
    if kind == "stack_empty":
        return {"kind": kind, "turn": e[1], "value": e[2]}
    if kind in ("bonus_turn", "bonus_forfeited"):
        return {"kind": kind, "turn": e[1], "player": e[2]}
    if kind == "day_end":
        return {"kind": kind, "turn": e[1]}
    if kind == "game_end":
        return {"kind": kind, "turn": e[1], "trigger": e[2]}
    if kind == "tie_break":
        return {"kind": kind, "players": list(e[1]), "by": e[2], "winner": e[3]}
    raise ValueError(f"unknown event {e!r}")  # pragma: no cover
