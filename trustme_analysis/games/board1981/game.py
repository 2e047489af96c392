"""Trust Me (1981), the Parker Brothers board game, as the OpenSpiel game ``trustme_1981``.

Rule text: ``shared/rules/003_0c5ac23cec43b539.txt``. The board is data (:mod:`.board`); the investing round
and the Payoff cards live in :mod:`.investing` (shared with ``trustme_1981_investment``). Every point the text
leaves open is a parameter whose default is listed by :meth:`TrustMe1981Game.assumptions`.

A game runs through explicit phases: the Payoff cards are dealt into the briefcases by chance (12 chance nodes, the 4
left over are set aside unseen), a chance node picks the first player (the die roll for who goes first), the optional
peek, then turns. A turn is a die roll (chance); a 1 draws a Trust Me card (chance) and any other number moves the
piece to a chosen space reachable by exact count (see :mod:`.board`); what follows depends on the space.

Example:
    >>> import pyspiel, trustme_analysis
    >>> game = pyspiel.load_game("trustme_1981(players=3)")
    >>> game.num_players()
    3
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine import params as P
from trustme_analysis.engine.gametype import with_utility
from trustme_analysis.games.board1981.board import (
    COMPANY,
    DEFAULT_BOARD,
    HOT_TIP,
    PROPERTY,
    Board,
    load_board,
)
from trustme_analysis.games.board1981.investing import (
    NUM_PAYOFF_KINDS,
    PAYOFF_NAMES,
    PAYOFF_SHORT,
    InvestingRules,
    invest,
    investing_order,
    parse_lots,
    parse_payoff_mix,
    parse_utility,
    payoff,
    ranks,
    wealth_returns,
)

SHORT_NAME = "trustme_1981"
DIE_FACES = 6
#: After this many tied roll-offs in one challenge the defender keeps the claim, so that the game always ends.
MAX_ROLL_OFF_TIES = 20

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "board": DEFAULT_BOARD,
    "payoff_mix": "6/4/4/2",
    "trust_mix": "12/8/8",
    "bamboozled": "4/5/6",
    "money": 10,
    "shares": 10,
    "peek": False,
    "lots": "1/5/10/25/50",
    "roll_off_tie": "reroll",
    "utility": "win_loss",
    "max_turns": 400,
}

#: Why each default is what it is, where the rule text does not say (listed by ``assumptions()``).
ASSUMPTION_TEXT: dict[str, str] = {
    "board": "The text does not give the layout: the default board (data/board1981.toml) assumes an outer loop of 52 "
    "spaces, 13 per street (a Wild Goose Chase corner, 3 properties x 3 colored spaces, a Hot Tip pointing at the "
    "next street, a white junction, a white space) and a spoke of 2 white spaces from each junction to the Company.",
    "payoff_mix": "The text says only that 2 of the 16 Payoff cards are \"You've Been Had!\"; the rest is assumed "
    "6 One Stack / 4 Two Stacks / 4 Empty (counts one/two/empty/had).",
    "trust_mix": "The text does not give the 28 Trust Me cards: assumed 12 'move to a property' (one per property, "
    "round robin) / 8 Bamboozled / 8 Challenge Another Player (counts move/bamboozled/challenge).",
    "bamboozled": "The text does not say which numbers a Bamboozled card requires: assumed a roll of 4, 5 or 6 "
    "escapes.",
    "shares": "The text is unclear ('two [5] shares'): assumed two 5-share certificates, 10 shares each.",
    "lots": "At the table any whole number of shares may be bought or divested; one decision here picks a lot from "
    "this set (plus hold and divest all).",
    "roll_off_tie": "The text does not say what a tied Challenge roll-off does: assumed both roll again (after "
    f"{MAX_ROLL_OFF_TIES} ties the defender keeps the claim, so the game ends).",
    "max_turns": "The text allows endless wandering; the game ends as a 'turn cap' end after this many turns.",
}

#: Further assumptions encoded in the rules below (no parameter; listed by ``assumptions()`` too).
FIXED_ASSUMPTIONS: tuple[tuple[str, str], ...] = (
    (
        "movement",
        "'Forward or backward, not diagonally' by exact count is a walk without reversing: exactly k steps along "
        "connections, never straight back to the space just left; any branch at a junction.",
    ),
    (
        "right_to_claim",
        "The right to claim a looked-at property 'on your next turn' holds at the start of that turn only, wherever "
        "the piece stands, if the property is still unclaimed and the player has no claim.",
    ),
    (
        "invest_from_company",
        "A claimant who starts a turn on the Company (e.g. after winning a Challenge there) may start the investing "
        "round without moving.",
    ),
    (
        "company_not_occupied",
        "Landing on the Company never sends anyone on a Wild Goose Chase ('more than one player may occupy it').",
    ),
    (
        "trust_move_card",
        "A 'move to a property' card puts the piece on the property's first colored space without sending an "
        "occupant away; a card for a removed briefcase does nothing; for a claimed property the turn ends.",
    ),
    (
        "removed_property_space",
        "A colored space whose briefcase has been removed acts as a white space.",
    ),
    (
        "trust_deck_reshuffle",
        "When the Trust Me draw pile runs out, the drawn cards are reshuffled into a new pile.",
    ),
    (
        "first_player",
        "The roll for who goes first is a uniform chance node over the players.",
    ),
    (
        "one_investing_decision",
        "In the investing round each player makes one decision: buy one lot, divest one lot or all, or hold.",
    ),
    (
        "looks_are_public",
        "Looking is optional (a decline action is offered); which briefcase a player looks under is public, what "
        "they see is private.",
    ),
)

# Phases of play (explicit, one per kind of step).
DEAL, FIRST, PEEK, TURN_START, ROLL, MOVE, PROPERTY_CHOICE, HOT_TIP_CHOICE, SEND, CARD = range(10)
BAMBOOZLE_ROLL, CHALLENGE, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER, INVEST, OVER = range(10, 16)
PHASE_NAMES = (
    "deal", "first_player", "peek", "turn_start", "roll", "move", "property", "hot_tip", "send", "trust_me_card",
    "bamboozled_roll", "challenge", "roll_off_challenger", "roll_off_defender", "invest", "over",
)
CHANCE_PHASES = frozenset({DEAL, FIRST, ROLL, CARD, BAMBOOZLE_ROLL, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER})

# Send reasons (decide whether the claim transfer rules a/b apply).
SEND_OCCUPIED, SEND_PLAIN = 0, 1

# Verbs of the flat action space (see TrustMe1981Game.decode_action).
MOVE_TO = "move_to"
LOOK = "look"
CLAIM_UNSEEN = "claim_unseen"
DECLINE = "decline"
ROLL_DIE = "roll"
CLAIM_RIGHT = "claim_looked"
INVEST_NOW = "invest_now"
LOOK_CASE = "look_case"
SEND_WGC = "send_wgc"
CHALLENGE_PLAYER = "challenge"
INVESTING = "invest"

_PARAM_SPEC = dict(DEFAULTS)

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Trust Me (1981 board game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    # Registered as general-sum; each instance specialises it (win_loss and wealth_diff are zero-sum).
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAM_SPEC,
)


class TrustMe1981Game(pyspiel.Game):
    """The full board game; fixed data (board, decks, action layout) lives here, not on states."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = P.merged(DEFAULTS, params)
        g = SHORT_NAME
        self.params = p
        self.n = P.int_in_range(g, p, "players", 2, 4)
        board_arg = p["board"]
        if not isinstance(board_arg, str) or not board_arg:
            raise P.ParameterError(g, "board", board_arg, "'default' or the path of a board TOML file")
        self.board: Board = load_board(board_arg)
        b = self.board
        self.num_props = b.num_properties
        self.payoff_mix = parse_payoff_mix(g, p)
        if sum(self.payoff_mix) < self.num_props:
            raise P.ParameterError(
                g, "payoff_mix", p["payoff_mix"], f"at least {self.num_props} cards (one per briefcase on the board)"
            )
        self.trust_mix = P.int_list(g, p, "trust_mix", length=3, low=0)
        if sum(self.trust_mix) == 0:
            raise P.ParameterError(g, "trust_mix", p["trust_mix"], "counts move/bamboozled/challenge, not all 0")
        self.bamboozled = frozenset(P.int_list(g, p, "bamboozled", low=1, high=DIE_FACES))
        self.start_money = P.int_in_range(g, p, "money", 0, 10**6)
        self.start_shares = P.int_in_range(g, p, "shares", 0, 10**6)
        if not isinstance(p["peek"], bool):
            raise P.ParameterError(g, "peek", p["peek"], "true or false")
        self.peek = p["peek"]
        self.lots = parse_lots(g, p)
        self.investing = InvestingRules(self.lots)
        self.roll_off_tie = P.choice(g, p, "roll_off_tie", ("reroll", "defender", "challenger"))
        self.utility = parse_utility(g, p, self.n)
        self.max_turns = P.int_in_range(g, p, "max_turns", 1, 100_000)

        # The Trust Me deck by card id: 0..P-1 "move to property p", P Bamboozled, P+1 Challenge.
        moves, bamboozled, challenge = self.trust_mix
        deck = [0] * (self.num_props + 2)
        for i in range(moves):
            deck[i % self.num_props] += 1
        deck[self.num_props] = bamboozled
        deck[self.num_props + 1] = challenge
        self.trust_deck = tuple(deck)

        # Flat action layout.
        S, Pn, W = b.num_spaces, self.num_props, len(b.wild_goose_chase)
        self.a_look = S
        self.a_claim_unseen = S + 1
        self.a_decline = S + 2
        self.a_roll = S + 3
        self.a_claim_right = S + 4
        self.a_invest_now = S + 5
        self.a_case = S + 6
        self.a_send = self.a_case + Pn
        self.a_challenge = self.a_send + W
        self.a_invest = self.a_challenge + self.n
        num_actions = self.a_invest + self.investing.num_actions

        w0 = self.n * (self.start_money + self.start_shares)
        # Each reveal at most triples everybody's wealth together (Two Stacks pays twice the shares held).
        w_max = float(w0 * 3**self.num_props)
        if self.utility == "win_loss":
            lo, hi = -1.0, 1.0
        elif self.utility == "wealth":
            lo, hi = 0.0, w_max
        else:
            lo, hi = -w_max, w_max
        self.per_turn_steps = 60 + 2 * MAX_ROLL_OFF_TIES + 2 * self.n
        info_kwargs = dict(
            num_distinct_actions=num_actions,
            max_chance_outcomes=max(NUM_PAYOFF_KINDS, DIE_FACES, self.n, Pn + 2),
            num_players=self.n,
            min_utility=lo,
            max_utility=hi,
            max_game_length=Pn + 1 + self.n + self.max_turns * self.per_turn_steps,
        )
        if self.utility != "wealth":
            info_kwargs["utility_sum"] = 0.0
        super().__init__(with_utility(_GAME_TYPE, self.utility != "wealth"), pyspiel.GameInfo(**info_kwargs), p)

    def __reduce__(self):
        # States hold their game; pickling it by its string makes an unpickled state carry a fully built game.
        return (pyspiel.load_game, (str(self),))

    def __deepcopy__(self, memo):
        # The game is immutable once built: clones of a state share it instead of rebuilding the board.
        return self

    def new_initial_state(self) -> "TrustMe1981State":
        """The start of a game: nothing dealt yet."""
        return TrustMe1981State(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Observer for observation/information-state strings and the observation tensor."""
        return TrustMe1981Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def decode_action(self, action: int) -> tuple[str, int]:
        """``(verb, argument)`` of a player action: e.g. ``("move_to", space)``, ``("invest", local index)``."""
        b = self.board
        if 0 <= action < b.num_spaces:
            return MOVE_TO, action
        fixed = {
            self.a_look: LOOK,
            self.a_claim_unseen: CLAIM_UNSEEN,
            self.a_decline: DECLINE,
            self.a_roll: ROLL_DIE,
            self.a_claim_right: CLAIM_RIGHT,
            self.a_invest_now: INVEST_NOW,
        }
        if action in fixed:
            return fixed[action], 0
        if self.a_case <= action < self.a_send:
            return LOOK_CASE, action - self.a_case
        if self.a_send <= action < self.a_challenge:
            return SEND_WGC, action - self.a_send
        if self.a_challenge <= action < self.a_invest:
            return CHALLENGE_PLAYER, action - self.a_challenge
        if self.a_invest <= action < self.a_invest + self.investing.num_actions:
            return INVESTING, action - self.a_invest
        raise ValueError(f"action {action} out of range")

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force: ``{"parameter", "value", "text"}`` per open point of the rule text."""
        out = [{"parameter": k, "value": self.params[k], "text": t} for k, t in ASSUMPTION_TEXT.items()]
        out += [{"parameter": k, "value": "fixed rule", "text": t} for k, t in FIXED_ASSUMPTIONS]
        return out


class TrustMe1981State(pyspiel.State):
    """One position. Everything is a small int or a tuple of ints so that cloning stays cheap."""

    def __init__(self, game: TrustMe1981Game):
        super().__init__(game)
        g = game
        self._g = g
        n, Pn = g.n, g.num_props
        self._phase = DEAL
        self._cur = 0  # who decides in a decision phase
        self._turn_player = 0
        self._first = 0
        self._cards: tuple[int, ...] = ()  # Payoff card per briefcase, dealt in property order
        self._gone = (False,) * Pn  # briefcase removed after its reveal
        self._pos = (g.board.company,) * n
        self._money = (g.start_money,) * n
        self._shares = (g.start_shares,) * n
        self._claim = (-1,) * n
        self._seen = (0,) * n  # bitmask of briefcases each player has looked under
        self._right = (-1,) * n  # property a player looked at last turn (may claim it at the next turn start)
        self._deck = g.trust_deck
        self._roll = 0
        self._sends: tuple[tuple[int, int, int], ...] = ()  # pending (sender, target, reason)
        self._challenge = (-1, -1, 0, 0)  # challenger, defender, challenger's roll, ties so far
        self._claimant = -1
        self._invest_idx = 0
        self._reserve = 0
        self._peek_idx = 0
        self._turns = 0
        self._bank_in = 0  # paid to the Bank: buying into one's own claim
        self._bank_out = 0  # paid by the Bank: divestments and payoffs
        self._shares_lost = 0  # shares returned to the Bank by "You've Been Had!"
        self._revealed = (0,) * NUM_PAYOFF_KINDS
        self._end = ""
        self._events: tuple[tuple, ...] = ()

    # ------------------------------------------------------------------ pyspiel API

    def current_player(self) -> int:
        if self._phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if self._phase in CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        return self._cur

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        g = self._g
        ph = self._phase
        if ph == DEAL:
            left = self._payoff_left()
            total = sum(left)
            return [(k, c / total) for k, c in enumerate(left) if c > 0]
        if ph == FIRST:
            return [(p, 1.0 / g.n) for p in range(g.n)]
        if ph in (ROLL, BAMBOOZLE_ROLL, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER):
            return [(f, 1.0 / DIE_FACES) for f in range(DIE_FACES)]  # outcome f is a roll of f + 1
        if ph == CARD:
            deck = self._deck if sum(self._deck) > 0 else g.trust_deck
            total = sum(deck)
            return [(c, k / total) for c, k in enumerate(deck) if k > 0]
        raise ValueError("not a chance node")

    def _legal_actions(self, player: int) -> list[int]:
        g = self._g
        ph = self._phase
        p = self._cur
        if ph == TURN_START:
            out = [g.a_roll]
            if self._right_valid(p):
                out.append(g.a_claim_right)
            if self._claim[p] >= 0 and self._pos[p] == g.board.company:
                out.append(g.a_invest_now)
            return sorted(out)
        if ph == MOVE:
            return list(self._move_options(p))
        if ph == PROPERTY_CHOICE:
            out = [g.a_look, g.a_decline]
            if self._claim[p] < 0:
                out.append(g.a_claim_unseen)
            return sorted(out)
        if ph == HOT_TIP_CHOICE:
            area = g.board.hot_tip_area[self._pos[p]]
            return sorted([g.a_case + q for q in self._open_cases(g.board.area_properties(area))] + [g.a_decline])
        if ph == PEEK:
            return sorted([g.a_case + q for q in range(g.num_props)] + [g.a_decline])
        if ph == SEND:
            return [g.a_send + w for w in range(len(g.board.wild_goose_chase))]
        if ph == CHALLENGE:
            return sorted([g.a_challenge + q for q in self._challenge_targets(p)] + [g.a_decline])
        if ph == INVEST:
            return [g.a_invest + a for a in g.investing.legal(self._money[p], self._shares[p])]
        return []

    def _apply_action(self, action: int) -> None:
        ph = self._phase
        if ph == DEAL:
            self._cards += (action,)
            if len(self._cards) == self._g.num_props:
                self._phase = FIRST
        elif ph == FIRST:
            self._first = action
            self._events += (("first_player", action),)
            if self._g.peek:
                self._phase, self._peek_idx, self._cur = PEEK, 0, action
            else:
                self._start_turn(action)
        elif ph == PEEK:
            self._apply_peek(action)
        elif ph == TURN_START:
            self._apply_turn_start(action)
        elif ph == ROLL:
            self._apply_roll(action + 1)
        elif ph == MOVE:
            self._apply_move(action)
        elif ph == PROPERTY_CHOICE:
            self._apply_property_choice(action)
        elif ph == HOT_TIP_CHOICE:
            self._apply_hot_tip(action)
        elif ph == SEND:
            self._apply_send(action)
        elif ph == CARD:
            self._apply_card(action)
        elif ph == BAMBOOZLE_ROLL:
            self._apply_bamboozle_roll(action + 1)
        elif ph == CHALLENGE:
            self._apply_challenge(action)
        elif ph in (ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER):
            self._apply_roll_off(action + 1)
        elif ph == INVEST:
            self._apply_invest(action)
        else:
            raise ValueError(f"no action applies in phase {PHASE_NAMES[ph]}")

    def _action_to_string(self, player: int, action: int) -> str:
        g = self._g
        if player == pyspiel.PlayerId.CHANCE:
            ph = self._phase
            if ph == DEAL:
                return f"deal:{PAYOFF_SHORT[action]}"
            if ph == FIRST:
                return f"first:p{action}"
            if ph == CARD:
                return "card:" + self._card_name(action)
            return f"roll:{action + 1}"
        verb, arg = g.decode_action(action)
        if verb == MOVE_TO:
            return f"move:{g.board.space_ids[arg]}"
        if verb == LOOK_CASE:
            return f"look_case:{g.board.property_names[arg]}"
        if verb == SEND_WGC:
            return f"send:{g.board.space_ids[g.board.wild_goose_chase[arg]]}"
        if verb == CHALLENGE_PLAYER:
            return f"challenge:p{arg}"
        if verb == INVESTING:
            return "invest:" + g.investing.label(arg)
        return verb

    def returns(self) -> list[float]:
        if self._phase != OVER:
            return [0.0] * self._g.n
        return wealth_returns(self._g.utility, self.wealth())

    def __str__(self) -> str:
        return self._describe(None)

    # ------------------------------------------------------------------ helpers for rules

    def _payoff_left(self) -> list[int]:
        left = list(self._g.payoff_mix)
        for c in self._cards:
            left[c] -= 1
        return left

    def _card_name(self, card: int) -> str:
        g = self._g
        if card < g.num_props:
            return f"move to {g.board.property_names[card]}"
        return "Bamboozled" if card == g.num_props else "Challenge Another Player"

    def _claimed_by(self, prop: int) -> int:
        for p, c in enumerate(self._claim):
            if c == prop:
                return p
        return -1

    def _open_cases(self, props) -> list[int]:
        """Briefcases still on the board and unclaimed, among ``props``."""
        return [q for q in props if not self._gone[q] and self._claimed_by(q) < 0]

    def _right_valid(self, p: int) -> bool:
        q = self._right[p]
        return q >= 0 and self._claim[p] < 0 and not self._gone[q] and self._claimed_by(q) < 0

    def _challenge_targets(self, p: int) -> list[int]:
        return [q for q in range(self._g.n) if q != p and self._claim[q] >= 0]

    def _move_options(self, p: int) -> tuple[int, ...]:
        b = self._g.board
        exact, company_within = b.destinations(self._pos[p], self._roll)
        if self._claim[p] >= 0 and company_within and b.company not in exact:
            return tuple(sorted(exact + (b.company,)))
        return exact

    def _set(self, name: str, p: int, value: int) -> None:
        t = getattr(self, name)
        setattr(self, name, t[:p] + (value,) + t[p + 1 :])

    def _log(self, *event) -> None:
        self._events += (event,)

    # ------------------------------------------------------------------ turn structure

    def _start_turn(self, p: int) -> None:
        if self._turns >= self._g.max_turns:
            self._finish("turn_cap")
            return
        self._turns += 1
        self._turn_player = self._cur = p
        self._log("turn", self._turns, p)
        g = self._g
        if self._right_valid(p) or (self._claim[p] >= 0 and self._pos[p] == g.board.company):
            self._phase = TURN_START
        else:
            self._right = self._right[:p] + (-1,) + self._right[p + 1 :]
            self._phase = ROLL

    def _end_turn(self) -> None:
        self._start_turn((self._turn_player + 1) % self._g.n)

    def _finish(self, reason: str) -> None:
        self._end = reason
        self._phase = OVER
        self._log("end", reason)

    def _apply_peek(self, action: int) -> None:
        g = self._g
        p = self._cur
        if action != g.a_decline:
            q = action - g.a_case
            self._set("_seen", p, self._seen[p] | (1 << q))
            self._log("peek", p, q)
        self._peek_idx += 1
        if self._peek_idx == g.n:
            self._start_turn(self._first)
        else:
            self._cur = (self._first + self._peek_idx) % g.n

    def _apply_turn_start(self, action: int) -> None:
        g = self._g
        p = self._cur
        right = self._right[p]
        self._set("_right", p, -1)
        if action == g.a_claim_right:
            self._set("_claim", p, right)
            self._log("claim_looked", p, right)
            self._phase = ROLL
        elif action == g.a_invest_now:
            self._start_investing(p)
        else:
            self._phase = ROLL

    def _apply_roll(self, face: int) -> None:
        p = self._cur
        self._log("roll", p, face)
        if face == 1:
            self._phase = CARD
            return
        self._roll = face
        if self._move_options(p):
            self._phase = MOVE
        else:
            self._end_turn()

    def _apply_move(self, dest: int) -> None:
        g = self._g
        b = g.board
        p = self._cur
        self._set("_pos", p, dest)
        self._log("move", p, dest)
        kind = b.kinds[dest]
        if kind == COMPANY:
            if self._claim[p] >= 0:
                self._start_investing(p)
            else:
                self._end_turn()
            return
        occupants = [(p + i) % g.n for i in range(1, g.n) if self._pos[(p + i) % g.n] == dest]
        if occupants:
            self._sends = tuple((p, o, SEND_OCCUPIED) for o in occupants)
            self._phase = SEND
            self._cur = p
            return
        if kind == PROPERTY:
            self._arrive_at_property(p, b.space_property[dest])
        elif kind == HOT_TIP and self._open_cases(b.area_properties(b.hot_tip_area[dest])):
            self._phase = HOT_TIP_CHOICE
        else:
            self._end_turn()

    def _arrive_at_property(self, p: int, q: int) -> None:
        if self._gone[q] or self._claimed_by(q) >= 0:
            self._end_turn()
        else:
            self._phase = PROPERTY_CHOICE
            self._cur = p

    def _property_here(self, p: int) -> int:
        return self._g.board.space_property[self._pos[p]]

    def _apply_property_choice(self, action: int) -> None:
        g = self._g
        p = self._cur
        q = self._property_here(p)
        if action == g.a_look:
            self._set("_seen", p, self._seen[p] | (1 << q))
            self._set("_right", p, q)
            self._log("look", p, q)
            self._end_turn()
        elif action == g.a_claim_unseen:
            self._set("_claim", p, q)
            self._log("claim_unseen", p, q)
            self._phase = ROLL
        else:
            self._log("decline", p, q)
            self._end_turn()

    def _apply_hot_tip(self, action: int) -> None:
        g = self._g
        p = self._cur
        if action != g.a_decline:
            q = action - g.a_case
            self._set("_seen", p, self._seen[p] | (1 << q))
            self._log("hot_tip", p, q)
        self._end_turn()

    def _apply_send(self, action: int) -> None:
        g = self._g
        sender, target, reason = self._sends[0]
        self._sends = self._sends[1:]
        space = g.board.wild_goose_chase[action - g.a_send]
        self._set("_pos", target, space)
        self._log("send_wgc", sender, target, space)
        if reason == SEND_OCCUPIED and self._claim[target] >= 0:
            q = self._claim[target]
            self._set("_claim", target, -1)
            if self._claim[sender] < 0:  # rule a): the opponent's claim becomes yours
                self._set("_claim", sender, q)
                self._log("claim_transfer", target, sender, q)
            else:  # rule b): the opponent's marker is removed, yours stays
                self._log("claim_removed", target, q)
        if self._sends:
            self._cur = self._sends[0][0]
        else:
            self._end_turn()

    def _apply_card(self, card: int) -> None:
        g = self._g
        p = self._cur
        if sum(self._deck) == 0:
            self._deck = g.trust_deck
            self._log("trust_reshuffle",)
        self._deck = self._deck[:card] + (self._deck[card] - 1,) + self._deck[card + 1 :]
        self._log("card", p, card)
        if card < g.num_props:
            if self._gone[card]:
                self._end_turn()
                return
            self._set("_pos", p, g.board.property_spaces[card][0])
            self._arrive_at_property(p, card)
        elif card == g.num_props:
            self._phase = BAMBOOZLE_ROLL
        elif self._claim[p] >= 0:
            # "If you already have a claim when you draw this card, go straight to the Trust Me Investment Company."
            self._set("_pos", p, g.board.company)
            self._start_investing(p)
        elif self._challenge_targets(p):
            self._phase = CHALLENGE
        else:
            self._end_turn()

    def _apply_bamboozle_roll(self, face: int) -> None:
        p = self._cur
        escaped = face in self._g.bamboozled
        self._log("bamboozled", p, face, int(escaped))
        if escaped:
            self._end_turn()
            return
        if self._claim[p] >= 0:
            self._log("claim_removed", p, self._claim[p])
            self._set("_claim", p, -1)
        self._sends = ((p, p, SEND_PLAIN),)
        self._phase = SEND

    def _apply_challenge(self, action: int) -> None:
        g = self._g
        p = self._cur
        if action == g.a_decline:
            self._end_turn()
            return
        q = action - g.a_challenge
        self._challenge = (p, q, 0, 0)
        self._log("challenge", p, q)
        self._phase = ROLL_OFF_CHALLENGER

    def _apply_roll_off(self, face: int) -> None:
        challenger, defender, first, ties = self._challenge
        if self._phase == ROLL_OFF_CHALLENGER:
            self._challenge = (challenger, defender, face, ties)
            self._phase = ROLL_OFF_DEFENDER
            return
        self._log("roll_off", challenger, first, defender, face)
        if first == face:
            ties += 1
            rule = self._g.roll_off_tie
            if rule == "reroll" and ties < MAX_ROLL_OFF_TIES:
                self._challenge = (challenger, defender, 0, ties)
                self._phase = ROLL_OFF_CHALLENGER
                return
            challenger_wins = rule == "challenger"
        else:
            challenger_wins = first > face
        if challenger_wins:
            q = self._claim[defender]
            self._set("_claim", defender, -1)
            self._set("_claim", challenger, q)
            self._log("claim_transfer", defender, challenger, q)
            self._sends = ((challenger, defender, SEND_PLAIN),)
            self._cur = challenger
        else:
            self._sends = ((defender, challenger, SEND_PLAIN),)
            self._cur = defender
        self._phase = SEND

    # ------------------------------------------------------------------ investing round

    def _start_investing(self, claimant: int) -> None:
        self._claimant = claimant
        self._invest_idx = 0
        self._reserve = 0
        self._phase = INVEST
        self._cur = investing_order(claimant, self._g.n)[0]
        self._log("investing", claimant, self._claim[claimant])

    def _apply_invest(self, action: int) -> None:
        g = self._g
        p = self._cur
        local = action - g.a_invest
        verb, amount = g.investing.decode(local)
        money, shares, to_reserve, bank_in, bank_out = invest(
            verb, amount, p, self._claimant, self._money[p], self._shares[p]
        )
        self._log("invest", p, local, money - self._money[p], shares - self._shares[p])
        self._set("_money", p, money)
        self._set("_shares", p, shares)
        self._reserve += to_reserve
        self._bank_in += bank_in
        self._bank_out += bank_out
        self._invest_idx += 1
        if self._invest_idx < g.n:
            self._cur = investing_order(self._claimant, g.n)[self._invest_idx]
        else:
            self._reveal()

    def _reveal(self) -> None:
        g = self._g
        c = self._claimant
        q = self._claim[c]
        card = self._cards[q]
        self._log("reveal", c, q, card)
        for p in range(g.n):
            gain, kept = payoff(card, self._shares[p])
            if gain or kept != self._shares[p]:
                self._log("payoff", p, gain, kept - self._shares[p])
            self._shares_lost += self._shares[p] - kept
            self._bank_out += gain
            self._set("_money", p, self._money[p] + gain)
            self._set("_shares", p, kept)
        self._set("_money", c, self._money[c] + self._reserve)
        self._log("reserve_paid", c, self._reserve)
        self._reserve = 0
        self._set("_claim", c, -1)
        self._set("_revealed", card, self._revealed[card] + 1)
        self._gone = self._gone[:q] + (True,) + self._gone[q + 1 :]
        self._claimant = -1
        if sum(1 for x in self._gone if not x) <= 2:
            self._finish("two_cases_left")
        else:
            self._end_turn()

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
            q: self._cards[q] for q in range(len(self._cards)) if self._seen[player] >> q & 1 or self._gone[q]
        }

    def seen_by(self, prop: int) -> list[int]:
        """The players who have looked under briefcase ``prop`` (public: looks happen at the table)."""
        return [p for p in range(self._g.n) if self._seen[p] >> prop & 1]

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
        return self._right[player] if self._right_valid(player) else -1

    def money(self) -> list[int]:
        """Each player's money (public)."""
        return list(self._money)

    def shares(self) -> list[int]:
        """Each player's shares (public)."""
        return list(self._shares)

    def claims(self) -> list[int]:
        """The property each player has claimed, or -1 (public: claim markers are on the board)."""
        return list(self._claim)

    def positions(self) -> list[int]:
        """The space index of each player's piece (public)."""
        return list(self._pos)

    def cases_on_board(self) -> list[int]:
        """The briefcases not yet revealed and removed (public)."""
        return [q for q, gone in enumerate(self._gone) if not gone]

    def revealed_counts(self) -> list[int]:
        """How many Payoff cards of each kind have turned up so far (public)."""
        return list(self._revealed)

    def investing_so_far(self) -> tuple[int, int, list[tuple[int, str]]]:
        """In the ``invest`` phase: ``(claimant, property, [(player, verb) ...])`` of the round so far (public)."""
        decisions: list[tuple[int, str]] = []
        for e in reversed(self._events):
            if e[0] == "investing":
                decisions.reverse()
                return e[1], e[2], decisions
            if e[0] == "invest":
                decisions.append((e[1], self._g.investing.decode(e[2])[0]))
        raise ValueError("no investing round in progress")

    def move_roll(self) -> int:
        """The die roll being moved (meaningful in the ``move`` phase)."""
        return self._roll

    def snapshot(self) -> dict[str, Any]:
        """Everything a referee sees, as a plain JSON-serialisable dict (includes the ``events`` of the game)."""
        g = self._g
        b = g.board
        names = b.property_names
        snap: dict[str, Any] = {
            "game": SHORT_NAME,
            "phase": PHASE_NAMES[self._phase],
            "current_player": int(self.current_player()),
            "turn": self._turns,
            "turn_player": self._turn_player,
            "first_player": self._first,
            "positions": [b.space_ids[s] for s in self._pos],
            "claims": [names[c] if c >= 0 else None for c in self._claim],
            "money": list(self._money),
            "shares": list(self._shares),
            "reserve": self._reserve,
            "claimant": self._claimant if self._claimant >= 0 else None,
            "cases_left": [names[q] for q in range(g.num_props) if not self._gone[q]],
            "cases_revealed": [
                {"property": names[q], "card": PAYOFF_NAMES[self._cards[q]]}
                for q in range(g.num_props)
                if self._gone[q]
            ],
            "cards": {names[q]: PAYOFF_NAMES[c] for q, c in enumerate(self._cards)},
            "knows": {names[q]: self.seen_by(q) for q in range(len(names))},
            "trust_deck_left": sum(self._deck),
            "bank": self.bank_flows(),
            "events": [self._event_dict(e) for e in self._events],
        }
        if self._phase == OVER:
            wealth = self.wealth()
            snap["end"] = self._end
            snap["wealth"] = [
                {"money": m, "shares": s, "total": m + s} for m, s in zip(self._money, self._shares)
            ]
            snap["ranks"] = ranks(wealth)
            snap["returns"] = self.returns()
        return snap

    def _event_dict(self, e: tuple) -> dict[str, Any]:
        g = self._g
        b = g.board
        kind = e[0]
        name = b.property_names
        if kind in ("look", "claim_unseen", "claim_looked", "hot_tip", "peek", "decline"):
            return {"event": kind, "player": e[1], "property": name[e[2]]}
        if kind == "move":
            return {"event": kind, "player": e[1], "space": b.space_ids[e[2]]}
        if kind == "roll":
            return {"event": kind, "player": e[1], "roll": e[2]}
        if kind == "turn":
            return {"event": kind, "turn": e[1], "player": e[2]}
        if kind == "first_player":
            return {"event": kind, "player": e[1]}
        if kind == "send_wgc":
            return {"event": kind, "by": e[1], "player": e[2], "space": b.space_ids[e[3]]}
        if kind == "claim_transfer":
            return {"event": kind, "from": e[1], "to": e[2], "property": name[e[3]]}
        if kind == "claim_removed":
            return {"event": kind, "player": e[1], "property": name[e[2]]}
        if kind == "card":
            return {"event": kind, "player": e[1], "card": self._card_name(e[2])}
        if kind == "bamboozled":
            return {"event": kind, "player": e[1], "roll": e[2], "escaped": bool(e[3])}
        if kind == "challenge":
            return {"event": kind, "challenger": e[1], "defender": e[2]}
        if kind == "roll_off":
            return {"event": kind, "challenger": e[1], "challenger_roll": e[2], "defender": e[3], "defender_roll": e[4]}
        if kind == "investing":
            return {"event": kind, "claimant": e[1], "property": name[e[2]]}
        if kind == "invest":
            return {
                "event": kind,
                "player": e[1],
                "decision": g.investing.label(e[2]),
                "money_change": e[3],
                "shares_change": e[4],
            }
        if kind == "reveal":
            return {"event": kind, "claimant": e[1], "property": name[e[2]], "card": PAYOFF_NAMES[e[3]]}
        if kind == "payoff":
            return {"event": kind, "player": e[1], "money": e[2], "shares_change": e[3]}
        if kind == "reserve_paid":
            return {"event": kind, "player": e[1], "amount": e[2]}
        if kind == "end":
            return {"event": kind, "reason": e[1]}
        return {"event": kind}

    def _describe(self, player: int | None) -> str:
        """A compact text view; with ``player`` set, only what that player may know of the briefcases."""
        g = self._g
        parts = [
            f"phase:{PHASE_NAMES[self._phase]}",
            f"cur:{self._cur}",
            f"turn:{self._turns}",
            "pos:" + ",".join(g.board.space_ids[s] for s in self._pos),
            "claim:" + ",".join(str(c) for c in self._claim),
            "money:" + ",".join(map(str, self._money)),
            "shares:" + ",".join(map(str, self._shares)),
            f"reserve:{self._reserve}",
            "gone:" + "".join("x" if x else "." for x in self._gone),
            "seen:" + ",".join(format(s, "b") for s in self._seen),
            f"roll:{self._roll}",
        ]
        if player is None:
            parts.append("cards:" + "".join(PAYOFF_SHORT[c][0] for c in self._cards))
        else:
            known = self.known_cards(player)
            parts.append("known:" + ",".join(f"{q}={PAYOFF_SHORT[c]}" for q, c in sorted(known.items())))
        return " ".join(parts)


class TrustMe1981Observer:
    """Strings for both kinds of observation, and a fixed-size observation tensor.

    The perfect-recall string is the player's private knowledge (the Payoff cards seen) plus every public action so
    far: everything after the deal is seen at the table (rolls, Trust Me cards, moves, looks, investing); only the
    deal is hidden.
    """

    def __init__(self, game: TrustMe1981Game, iig_obs_type):
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        n, S, Pn = game.n, game.board.num_spaces, game.num_props
        pieces = [
            ("player", n),
            ("position", n * S),
            ("claim", n * (Pn + 1)),
            ("money", n),
            ("shares", n),
            ("reserve", 1),
            ("gone", Pn),
            ("known_card", Pn * NUM_PAYOFF_KINDS),
            ("seen_by", n * Pn),
            ("revealed", NUM_PAYOFF_KINDS),
            ("phase", len(PHASE_NAMES)),
            ("current", n),
        ]
        self.tensor = np.zeros(sum(s for _, s in pieces), np.float32)
        self.dict = {}
        i = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[i : i + size]
            i += size

    def set_from(self, state: TrustMe1981State, player: int) -> None:
        g = self.game
        n, S, Pn = g.n, g.board.num_spaces, g.num_props
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        for p in range(n):
            d["position"][p * S + state._pos[p]] = 1
            d["claim"][p * (Pn + 1) + state._claim[p] + 1] = 1
            d["money"][p] = state._money[p]
            d["shares"][p] = state._shares[p]
            for q in range(Pn):
                if state._seen[p] >> q & 1:
                    d["seen_by"][p * Pn + q] = 1
        d["reserve"][0] = state._reserve
        for q in range(Pn):
            if state._gone[q]:
                d["gone"][q] = 1
        for q, c in state.known_cards(player).items():
            d["known_card"][q * NUM_PAYOFF_KINDS + c] = 1
        for k in range(NUM_PAYOFF_KINDS):
            d["revealed"][k] = state._revealed[k]
        d["phase"][state._phase] = 1
        if 0 <= state.current_player() < n:
            d["current"][state.current_player()] = 1

    def string_from(self, state: TrustMe1981State, player: int) -> str:
        if not self.perfect_recall:
            return f"p{player} " + state._describe(player)
        known = state.known_cards(player)
        private = ",".join(f"{q}={PAYOFF_SHORT[c]}" for q, c in sorted(known.items()))
        public = " ".join(str(a) for a in state.history()[self.game.num_props :])
        return f"p{player} known:{private} | {public}"


pyspiel.register_game(_GAME_TYPE, TrustMe1981Game)
