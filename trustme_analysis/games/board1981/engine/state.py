"""A game of Trust Me (1981), step by step: the deal, turns, claims, Trust Me cards, challenges, investing, the end.

A game runs through explicit phases: the Payoff cards are dealt into the briefcases by chance (one chance node per
briefcase; the cards left over are set aside unseen), a chance node picks the first player (the die roll for who goes
first), the optional peek, then turns. A turn is a die roll (chance); a 1 draws a Trust Me card (chance) and any other
number moves the piece to a chosen space reachable by exact count (:mod:`~trustme_analysis.games.board1981.engine.board`); what follows depends on the space.
The investing round and the payoff rows are :mod:`~trustme_analysis.games.board1981.engine.investing`'s; the events logged are :mod:`~trustme_analysis.games.board1981.engine.events`'.

Everything in a state is a small int or a tuple of ints, so that cloning stays cheap.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.games.board1981.engine import events as E
from trustme_analysis.games.board1981.engine import views
from trustme_analysis.games.board1981.engine.actions import CHALLENGE, INVEST, LOOK_CASE, MOVE_TO, SEND_WGC
from trustme_analysis.games.board1981.engine.board import COMPANY, HOT_TIP, PROPERTY
from trustme_analysis.games.board1981.engine.investing import (
    NUM_PAYOFF_KINDS,
    PAYOFF_SHORT,
    invest,
    investing_order,
    payoff,
    wealth_returns,
)
from trustme_analysis.games.board1981.engine.rules import DIE_FACES, MAX_ROLL_OFF_TIES

# Phases of play (explicit, one per kind of step).
DEAL, FIRST, PEEK, TURN_START, ROLL, MOVE, PROPERTY_CHOICE, HOT_TIP_CHOICE, SEND, CARD = range(10)
BAMBOOZLE_ROLL, CHALLENGE_CHOICE, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER, INVEST_CHOICE, OVER = range(10, 16)
PHASE_NAMES = (
    "deal", "first_player", "peek", "turn_start", "roll", "move", "property", "hot_tip", "send", "trust_me_card",
    "bamboozled_roll", "challenge", "roll_off_challenger", "roll_off_defender", "invest", "over",
)
CHANCE_PHASES = frozenset({DEAL, FIRST, ROLL, CARD, BAMBOOZLE_ROLL, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER})

# Why a piece is sent to a Wild Goose Chase space: landing on it (the claim rules a/b apply) or plainly (a failed
# Bamboozled roll, a lost challenge).
SEND_OCCUPIED, SEND_PLAIN = 0, 1

#: How a game ended.
END_TWO_CASES_LEFT, END_TURN_CAP = "two_cases_left", "turn_cap"


class _EventLog(list):
    """The logged events (immutable tuples), appended in place; a copy of a state copies the list, never the events
    (pyspiel clones Python states with ``copy.deepcopy``; search players clone thousands of states a decision)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> "_EventLog":
        return _EventLog(self)


class _Frozen(tuple):
    """A tuple that a copy of the state shares instead of copying element by element (tuples are immutable)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict) -> "_Frozen":
        return self


class TrustMe1981State(pyspiel.State):
    """One position of ``trustme_1981``.

    The public read-only views (``money()``, ``claims()``, ``known_cards(player)``, ...) are what bots read; the
    referee's whole view is :meth:`snapshot`.
    """

    def __init__(self, game: Any):
        super().__init__(game)
        rules = game.rules
        n, props = rules.players, rules.num_properties
        self._game = game
        self._rules = rules
        self._codec = game.actions
        self._board = rules.board
        self._phase = DEAL
        self._decider = 0  # who decides in a decision phase
        self._turn_player = 0
        self._first_player = 0
        self._cards: tuple[int, ...] = ()  # the Payoff card in each briefcase, dealt in property order
        self._removed = _Frozen((False,) * props)  # briefcase revealed and put aside
        self._positions = _Frozen((rules.board.company,) * n)
        self._money = _Frozen((rules.money,) * n)
        self._shares = _Frozen((rules.shares,) * n)
        self._claims = _Frozen((-1,) * n)
        self._claim_knew = _Frozen((False,) * n)  # the player chose its claim knowing the card (it had looked)
        self._looked = _Frozen((0,) * n)  # bit mask of the briefcases each player has looked under
        # The property a player looked at last turn (may claim it at the next turn start).
        self._may_claim = _Frozen((-1,) * n)
        self._trust_pile = _Frozen(rules.trust_deck)
        self._roll = 0
        self._sends: tuple[tuple[int, int, int], ...] = ()  # pending (sender, target, reason)
        self._challenge = _Frozen((-1, -1, 0, 0))  # challenger, defender, challenger's roll, ties so far
        self._claimant = -1
        self._invest_index = 0
        self._reserve = 0
        self._peek_index = 0
        self._turns = 0
        self._bank_in = 0  # paid to the Bank: buying into one's own claim
        self._bank_out = 0  # paid by the Bank: divestments and payoffs
        self._shares_lost = 0  # shares returned to the Bank by "You've Been Had!"
        self._revealed = _Frozen((0,) * NUM_PAYOFF_KINDS)
        self._end = ""
        self._events = _EventLog()

    # ------------------------------------------------------------------ pyspiel API

    def current_player(self) -> int:
        if self._phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if self._phase in CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        return self._decider

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_weights(self) -> list[tuple[int, int]]:
        """The chance outcomes with whole-number weights (probability = weight / their sum): a Payoff card by how many
        are left to deal; each seat 1 (who starts); each die face 1; a Trust card by how many are in the pile. Chance
        draws by these (:mod:`trustme_analysis.engine.draws`)."""
        phase = self._phase
        if phase == DEAL:
            return [(k, c) for k, c in enumerate(self._payoff_cards_left()) if c > 0]
        if phase == FIRST:
            return [(p, 1) for p in range(self._rules.players)]
        if phase in (ROLL, BAMBOOZLE_ROLL, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER):
            return [(f, 1) for f in range(DIE_FACES)]  # outcome f is a roll of f + 1
        if phase == CARD:
            pile = self._trust_pile if sum(self._trust_pile) > 0 else self._rules.trust_deck
            return [(c, k) for c, k in enumerate(pile) if k > 0]
        raise ValueError("not a chance node")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The :meth:`chance_weights` over their sum."""
        weights = self.chance_weights()
        total = sum(w for _, w in weights)
        return [(a, w / total) for a, w in weights]

    def _legal_actions(self, player: int) -> list[int]:
        codec = self._codec
        phase = self._phase
        p = self._decider
        if phase == TURN_START:
            out = [codec.roll]
            if self._may_claim_now(p):
                out.append(codec.claim_looked)
            if self._claims[p] >= 0 and self._positions[p] == self._board.company:
                out.append(codec.invest_now)
            return sorted(out)
        if phase == MOVE:
            return list(self._move_options(p))
        if phase == PROPERTY_CHOICE:
            out = [codec.look, codec.decline]
            if self._claims[p] < 0:
                out.append(codec.claim_unseen)
            return sorted(out)
        if phase == HOT_TIP_CHOICE:
            area = self._board.hot_tip_area[self._positions[p]]
            cases = self._open_cases(self._board.area_properties(area))
            return sorted([codec.look_under(q) for q in cases] + [codec.decline])
        if phase == PEEK:
            return sorted([codec.look_under(q) for q in range(self._rules.num_properties)] + [codec.decline])
        if phase == SEND:
            return [codec.send_to(w) for w in range(len(self._board.wild_goose_chase))]
        if phase == CHALLENGE_CHOICE:
            return sorted([codec.challenge(q) for q in self._challenge_targets(p)] + [codec.decline])
        if phase == INVEST_CHOICE:
            return [codec.invest(a) for a in self._rules.investing.legal(self._money[p], self._shares[p])]
        return []

    def _apply_action(self, action: int) -> None:
        phase = self._phase
        if phase == DEAL:
            self._cards = _Frozen(self._cards + (action,))
            if len(self._cards) == self._rules.num_properties:
                self._phase = FIRST
        elif phase == FIRST:
            self._first_player = action
            self._log(E.FIRST_PLAYER, action)
            if self._rules.peek:
                self._phase, self._peek_index, self._decider = PEEK, 0, action
            else:
                self._start_turn(action)
        elif phase == PEEK:
            self._apply_peek(action)
        elif phase == TURN_START:
            self._apply_turn_start(action)
        elif phase == ROLL:
            self._apply_roll(action + 1)
        elif phase == MOVE:
            self._apply_move(action)
        elif phase == PROPERTY_CHOICE:
            self._apply_property_choice(action)
        elif phase == HOT_TIP_CHOICE:
            self._apply_hot_tip(action)
        elif phase == SEND:
            self._apply_send(action)
        elif phase == CARD:
            self._apply_card(action)
        elif phase == BAMBOOZLE_ROLL:
            self._apply_bamboozle_roll(action + 1)
        elif phase == CHALLENGE_CHOICE:
            self._apply_challenge(action)
        elif phase in (ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER):
            self._apply_roll_off(action + 1)
        elif phase == INVEST_CHOICE:
            self._apply_invest(action)
        else:
            raise ValueError(f"no action applies in phase {PHASE_NAMES[phase]}")

    def _action_to_string(self, player: int, action: int) -> str:
        board = self._board
        if player == pyspiel.PlayerId.CHANCE:
            phase = self._phase
            if phase == DEAL:
                return f"deal:{PAYOFF_SHORT[action]}"
            if phase == FIRST:
                return f"first:p{action}"
            if phase == CARD:
                return "card:" + E.trust_card_name(action, self._rules.num_properties, board.property_names)
            return f"roll:{action + 1}"
        verb, arg = self._codec.decode(action)
        if verb == MOVE_TO:
            return f"move:{board.space_ids[arg]}"
        if verb == LOOK_CASE:
            return f"look_case:{board.property_names[arg]}"
        if verb == SEND_WGC:
            return f"send:{board.space_ids[board.wild_goose_chase[arg]]}"
        if verb == CHALLENGE:
            return f"challenge:p{arg}"
        if verb == INVEST:
            return "invest:" + self._rules.investing.label(arg)
        return verb

    def returns(self) -> list[float]:
        if self._phase != OVER:
            return [0.0] * self._rules.players
        return wealth_returns(self._rules.utility, self.wealth())

    def __str__(self) -> str:
        return views.describe(self, None)

    # ------------------------------------------------------------------ helpers for the rules

    def _payoff_cards_left(self) -> list[int]:
        left = list(self._rules.payoff_mix)
        for c in self._cards:
            left[c] -= 1
        return left

    def _claimed_by(self, prop: int) -> int:
        for p, c in enumerate(self._claims):
            if c == prop:
                return p
        return -1

    def _open_cases(self, props) -> list[int]:
        """Briefcases still on the board and unclaimed, among ``props``."""
        return [q for q in props if not self._removed[q] and self._claimed_by(q) < 0]

    def _may_claim_now(self, p: int) -> bool:
        q = self._may_claim[p]
        return q >= 0 and self._claims[p] < 0 and not self._removed[q] and self._claimed_by(q) < 0

    def _challenge_targets(self, p: int) -> list[int]:
        return [q for q in range(self._rules.players) if q != p and self._claims[q] >= 0]

    def _move_options(self, p: int) -> tuple[int, ...]:
        board = self._board
        exact, company_within = board.destinations(self._positions[p], self._roll)
        # "When you have a claim, you don't have to land on this space by exact count."
        if self._claims[p] >= 0 and company_within and board.company not in exact:
            return tuple(sorted(exact + (board.company,)))
        return exact

    def _set(self, name: str, p: int, value: Any) -> None:
        t = getattr(self, name)
        setattr(self, name, _Frozen(t[:p] + (value,) + t[p + 1 :]))

    def _log(self, *event) -> None:
        self._events.append(event)

    def _take_claim(self, p: int, prop: int, by_choice: bool) -> None:
        """``p`` places its claim marker on ``prop``: by its own choice (it may have looked) or taken from another."""
        self._set("_claims", p, prop)
        self._set("_claim_knew", p, by_choice and bool(self._looked[p] >> prop & 1))

    def _look(self, p: int, prop: int) -> None:
        self._set("_looked", p, self._looked[p] | (1 << prop))

    # ------------------------------------------------------------------ turn structure

    def _start_turn(self, p: int) -> None:
        if self._turns >= self._rules.max_turns:
            self._finish(END_TURN_CAP)
            return
        self._turns += 1
        self._turn_player = self._decider = p
        self._log(E.TURN, self._turns, p)
        if self._may_claim_now(p) or (self._claims[p] >= 0 and self._positions[p] == self._board.company):
            self._phase = TURN_START
        else:
            self._set("_may_claim", p, -1)
            self._phase = ROLL

    def _end_turn(self) -> None:
        self._start_turn((self._turn_player + 1) % self._rules.players)

    def _finish(self, reason: str) -> None:
        self._end = reason
        self._phase = OVER
        self._log(E.END, reason)

    def _apply_peek(self, action: int) -> None:
        p = self._decider
        if action != self._codec.decline:
            q = action - self._codec.first_case
            self._look(p, q)
            self._log(E.PEEK, p, q)
        self._peek_index += 1
        n = self._rules.players
        if self._peek_index == n:
            self._start_turn(self._first_player)
        else:
            self._decider = (self._first_player + self._peek_index) % n

    def _apply_turn_start(self, action: int) -> None:
        codec = self._codec
        p = self._decider
        looked_at = self._may_claim[p]
        self._set("_may_claim", p, -1)
        if action == codec.claim_looked:
            self._take_claim(p, looked_at, by_choice=True)
            self._log(E.CLAIM_LOOKED, p, looked_at)
            self._phase = ROLL  # "Then roll and move as usual."
        elif action == codec.invest_now:
            self._start_investing(p)
        else:
            self._phase = ROLL

    def _apply_roll(self, face: int) -> None:
        p = self._decider
        self._log(E.ROLL, p, face)
        if face == 1:  # "Whenever you roll a 1, don't move your playing piece. Instead, draw the top card."
            self._phase = CARD
            return
        self._roll = face
        if self._move_options(p):
            self._phase = MOVE
        else:
            self._end_turn()

    def _apply_move(self, dest: int) -> None:
        board = self._board
        p = self._decider
        self._set("_positions", p, dest)
        self._log(E.MOVE, p, dest)
        kind = board.kinds[dest]
        if kind == COMPANY:
            if self._claims[p] >= 0:
                self._start_investing(p)
            else:
                self._end_turn()
            return
        n = self._rules.players
        occupants = [(p + i) % n for i in range(1, n) if self._positions[(p + i) % n] == dest]
        if occupants:
            self._sends = tuple((p, o, SEND_OCCUPIED) for o in occupants)
            self._phase = SEND
            self._decider = p
            return
        if kind == PROPERTY:
            self._arrive_at_property(p, board.space_property[dest])
        elif kind == HOT_TIP and self._open_cases(board.area_properties(board.hot_tip_area[dest])):
            self._phase = HOT_TIP_CHOICE
        else:
            self._end_turn()

    def _arrive_at_property(self, p: int, q: int) -> None:
        if self._removed[q] or self._claimed_by(q) >= 0:
            self._end_turn()  # "If there's a claim marker on that property's briefcase, your turn ends."
        else:
            self._phase = PROPERTY_CHOICE
            self._decider = p

    def _apply_property_choice(self, action: int) -> None:
        codec = self._codec
        p = self._decider
        q = self._board.space_property[self._positions[p]]
        if action == codec.look:
            self._look(p, q)
            self._set("_may_claim", p, q)
            self._log(E.LOOK, p, q)
            self._end_turn()
        elif action == codec.claim_unseen:
            self._take_claim(p, q, by_choice=True)
            self._log(E.CLAIM_UNSEEN, p, q)
            self._phase = ROLL  # "Then roll and move again."
        else:
            self._log(E.DECLINE, p, q)
            self._end_turn()

    def _apply_hot_tip(self, action: int) -> None:
        p = self._decider
        if action != self._codec.decline:
            q = action - self._codec.first_case
            self._look(p, q)
            self._log(E.HOT_TIP, p, q)
        self._end_turn()

    def _apply_send(self, action: int) -> None:
        sender, target, reason = self._sends[0]
        self._sends = self._sends[1:]
        space = self._board.wild_goose_chase[action - self._codec.first_send]
        self._set("_positions", target, space)
        self._log(E.SEND_WGC, sender, target, space)
        if reason == SEND_OCCUPIED and self._claims[target] >= 0:
            q = self._claims[target]
            self._set("_claims", target, -1)
            if self._claims[sender] < 0:  # rule a): the opponent's claim becomes yours
                self._take_claim(sender, q, by_choice=False)
                self._log(E.CLAIM_TRANSFER, target, sender, q)
            else:  # rule b): the opponent's marker is removed, yours stays
                self._log(E.CLAIM_REMOVED, target, q)
        if self._sends:
            self._decider = self._sends[0][0]
        else:
            self._end_turn()

    def _apply_card(self, card: int) -> None:
        rules = self._rules
        p = self._decider
        if sum(self._trust_pile) == 0:
            self._trust_pile = _Frozen(rules.trust_deck)
            self._log(E.TRUST_RESHUFFLE)
        self._set("_trust_pile", card, self._trust_pile[card] - 1)
        self._log(E.CARD, p, card)
        if card < rules.num_properties:
            if self._removed[card]:
                self._end_turn()
                return
            self._set("_positions", p, self._board.property_spaces[card][0])
            self._arrive_at_property(p, card)
        elif card == rules.num_properties:
            self._phase = BAMBOOZLE_ROLL
        elif self._claims[p] >= 0:
            # "If you already have a claim when you draw this card, go straight to the Trust Me Investment Company."
            self._set("_positions", p, self._board.company)
            self._start_investing(p)
        elif self._challenge_targets(p):
            self._phase = CHALLENGE_CHOICE
        else:
            self._end_turn()

    def _apply_bamboozle_roll(self, face: int) -> None:
        p = self._decider
        escaped = face in self._rules.bamboozled
        self._log(E.BAMBOOZLED, p, face, int(escaped))
        if escaped:
            self._end_turn()
            return
        if self._claims[p] >= 0:
            self._log(E.CLAIM_REMOVED, p, self._claims[p])
            self._set("_claims", p, -1)
        self._sends = ((p, p, SEND_PLAIN),)
        self._phase = SEND

    def _apply_challenge(self, action: int) -> None:
        p = self._decider
        if action == self._codec.decline:
            self._end_turn()
            return
        q = action - self._codec.first_challenge
        self._challenge = (p, q, 0, 0)
        self._log(E.CHALLENGE, p, q)
        self._phase = ROLL_OFF_CHALLENGER

    def _apply_roll_off(self, face: int) -> None:
        challenger, defender, first, ties = self._challenge
        if self._phase == ROLL_OFF_CHALLENGER:
            self._challenge = (challenger, defender, face, ties)
            self._phase = ROLL_OFF_DEFENDER
            return
        self._log(E.ROLL_OFF, challenger, first, defender, face)
        if first == face:
            ties += 1
            rule = self._rules.roll_off_tie
            if rule == "reroll" and ties < MAX_ROLL_OFF_TIES:
                self._challenge = (challenger, defender, 0, ties)
                self._phase = ROLL_OFF_CHALLENGER
                return
            challenger_wins = rule == "challenger"
        else:
            challenger_wins = first > face
        if challenger_wins:
            q = self._claims[defender]
            self._set("_claims", defender, -1)
            self._take_claim(challenger, q, by_choice=False)
            self._log(E.CLAIM_TRANSFER, defender, challenger, q)
            self._sends = ((challenger, defender, SEND_PLAIN),)
            self._decider = challenger
        else:
            self._sends = ((defender, challenger, SEND_PLAIN),)
            self._decider = defender
        self._phase = SEND

    # ------------------------------------------------------------------ investing round

    def _start_investing(self, claimant: int) -> None:
        self._claimant = claimant
        self._invest_index = 0
        self._reserve = 0
        self._phase = INVEST_CHOICE
        self._decider = investing_order(claimant, self._rules.players)[0]
        self._log(E.INVESTING, claimant, self._claims[claimant])

    def _apply_invest(self, action: int) -> None:
        rules = self._rules
        p = self._decider
        local = action - self._codec.first_invest
        verb, amount = rules.investing.decode(local)
        money, shares, to_reserve, bank_in, bank_out = invest(
            verb, amount, p, self._claimant, self._money[p], self._shares[p]
        )
        self._log(E.INVEST, p, local, money - self._money[p], shares - self._shares[p])
        self._set("_money", p, money)
        self._set("_shares", p, shares)
        self._reserve += to_reserve
        self._bank_in += bank_in
        self._bank_out += bank_out
        self._invest_index += 1
        if self._invest_index < rules.players:
            self._decider = investing_order(self._claimant, rules.players)[self._invest_index]
        else:
            self._reveal()

    def _reveal(self) -> None:
        c = self._claimant
        q = self._claims[c]
        card = self._cards[q]
        self._log(E.REVEAL, c, q, card)
        for p in range(self._rules.players):
            gain, kept = payoff(card, self._shares[p])
            if gain or kept != self._shares[p]:
                self._log(E.PAYOFF, p, gain, kept - self._shares[p])
            self._shares_lost += self._shares[p] - kept
            self._bank_out += gain
            self._set("_money", p, self._money[p] + gain)
            self._set("_shares", p, kept)
        self._set("_money", c, self._money[c] + self._reserve)
        self._log(E.RESERVE_PAID, c, self._reserve)
        self._reserve = 0
        self._set("_claims", c, -1)
        self._set("_revealed", card, self._revealed[card] + 1)
        self._set("_removed", q, True)
        self._claimant = -1
        if sum(1 for x in self._removed if not x) <= 2:
            self._finish(END_TWO_CASES_LEFT)  # "The game ends when only two briefcases remain on the board."
        else:
            self._end_turn()

    # ------------------------------------------------------------------ worlds for search players

    def unseen_cards(self, player: int) -> list[int]:
        """Per Payoff card kind, how many ``player`` cannot locate: the mix less the cards under the briefcases it has
        looked at and those revealed (they lie in the briefcases it has not looked under, or set aside)."""
        left = list(self._rules.payoff_mix)
        for c in self.known_cards(player).values():
            left[c] -= 1
        return left

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TrustMe1981State":
        """A state ``player_id`` cannot tell from this one, reached by a history: the deal replayed with the Payoff
        cards it has not seen dealt anew, uniformly, into the briefcases it has not looked under (the rest of them set
        aside again), then every later action of the real history (:mod:`~.worlds`).

        Everything else is public (who looked under which briefcase, every claim, move, card and investing decision),
        so only the deal changes; each other player's information state in the world is that of the replay (it sees
        the world's card under each briefcase it looked under). A briefcase ``player_id`` looked under keeps its card.
        Nothing but a player's own look or a reveal shows a card, so every such deal is as likely as the real one (the
        search player's belief can weigh them by the others' choices). ``probability_sampler()`` gives uniform numbers
        in [0, 1) (pyspiel's ``UniformProbabilitySampler`` or a generator's ``random``). ``history()`` replays to the
        world and ``serialize_game_and_state`` round-trips it.
        """
        from trustme_analysis.games.board1981.engine.worlds import replay, shuffle

        if self._phase in (DEAL, OVER):
            return self.clone()
        looked = self._looked[player_id]
        hidden = [q for q in range(self._rules.num_properties) if not (looked >> q & 1) and not self._removed[q]]
        pool = [kind for kind, count in enumerate(self.unseen_cards(player_id)) for _ in range(count)]
        shuffle(pool, probability_sampler)
        cards = list(self._cards)
        for q, card in zip(hidden, pool):
            cards[q] = card
        # The deal is the history's first ``num_properties`` chance outcomes (one card per briefcase, in order).
        return replay(self, cards)

    # ------------------------------------------------------------------ public read-only views

    def phase_name(self) -> str:
        """The current phase, e.g. ``"move"``, ``"invest"``."""
        return PHASE_NAMES[self._phase]

    def wealth(self) -> list[int]:
        """Money plus shares, per player."""
        return [m + s for m, s in zip(self._money, self._shares)]

    def known_cards(self, player: int) -> dict[int, int]:
        """The Payoff card of each briefcase ``player`` has looked under or seen revealed (nothing else)."""
        return {
            q: self._cards[q] for q in range(len(self._cards)) if self._looked[player] >> q & 1 or self._removed[q]
        }

    def referee_cards(self) -> list[int]:
        """The Payoff card in every briefcase (the referee's view, not a player's; a resampled world's deal)."""
        return list(self._cards)

    def revealed_cards(self) -> dict[int, int]:
        """The Payoff card of each briefcase turned over so far (public)."""
        return {q: self._cards[q] for q in range(len(self._cards)) if self._removed[q]}

    def seen_by(self, prop: int) -> list[int]:
        """The players who have looked under briefcase ``prop`` (public: looks happen at the table)."""
        return [p for p in range(self._rules.players) if self._looked[p] >> prop & 1]

    def looked_masks(self) -> list[int]:
        """Per player, the bit mask of the briefcases it has looked under (public)."""
        return list(self._looked)

    def claim_knew(self) -> list[bool]:
        """Per player: its current claim was its own choice made after looking under that briefcase (public: who
        looked where and every claim happen at the table)."""
        return list(self._claim_knew)

    def bank_flows(self) -> dict[str, int]:
        """Dollars the Bank received and paid so far, and shares it took back through "You've Been Had!"."""
        return {"bank_in": self._bank_in, "bank_out": self._bank_out, "shares_lost": self._shares_lost}

    def pending_send(self) -> tuple[int, int] | None:
        """``(sender, target)`` of the Wild Goose Chase send being decided (``send`` phase), else ``None``."""
        if self._phase != SEND or not self._sends:
            return None
        return self._sends[0][0], self._sends[0][1]

    def reserve(self) -> int:
        """Dollars in the reserve account now (public)."""
        return self._reserve

    def right_to_claim(self, player: int) -> int:
        """The property ``player`` looked at last turn and may still claim at this turn's start, or -1."""
        return self._may_claim[player] if self._may_claim_now(player) else -1

    def money(self) -> list[int]:
        """Each player's money (public)."""
        return list(self._money)

    def shares(self) -> list[int]:
        """Each player's shares (public)."""
        return list(self._shares)

    def claims(self) -> list[int]:
        """The property each player has claimed, or -1 (public: claim markers are on the board)."""
        return list(self._claims)

    def positions(self) -> list[int]:
        """The space index of each player's piece (public)."""
        return list(self._positions)

    def cases_on_board(self) -> list[int]:
        """The briefcases not yet revealed and removed (public)."""
        return [q for q, gone in enumerate(self._removed) if not gone]

    def revealed_counts(self) -> list[int]:
        """How many Payoff cards of each kind have turned up so far (public)."""
        return list(self._revealed)

    def investing_so_far(self) -> tuple[int, int, list[tuple[int, str]]]:
        """In the ``invest`` phase: ``(claimant, property, [(player, verb) ...])`` of the round so far (public)."""
        claimant, prop, decisions = self.investing_decisions()
        return claimant, prop, [(p, self._rules.investing.decode(local)[0]) for p, local, _ in decisions]

    def investing_decisions(self) -> tuple[int, int, list[tuple[int, int, int]]]:
        """In the ``invest`` phase: ``(claimant, property, [(player, local decision, shares change) ...])`` of the
        round so far (public)."""
        decisions: list[tuple[int, int, int]] = []
        for e in reversed(self._events):
            if e[0] == E.INVESTING:
                decisions.reverse()
                return e[1], e[2], decisions
            if e[0] == E.INVEST:
                decisions.append((e[1], e[2], e[4]))
        raise ValueError("no investing round in progress")

    def move_roll(self) -> int:
        """The die roll being moved (meaningful in the ``move`` phase)."""
        return self._roll

    def trust_pile(self) -> list[int]:
        """The Trust Me draw pile, count per card id (public: the cards drawn are shown)."""
        return list(self._trust_pile)

    def snapshot(self) -> dict[str, Any]:
        """Everything a referee sees, as a plain JSON-serialisable dict (see :func:`~trustme_analysis.games.board1981.engine.views.snapshot`)."""
        return views.snapshot(self)

    def events(self) -> list[dict[str, Any]]:
        """The game's events so far as dicts (:mod:`~trustme_analysis.games.board1981.engine.events`)."""
        writer = self._game.event_writer
        return [writer.event_dict(e) for e in self._events]
