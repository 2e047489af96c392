"""The rule numbers of Trust Me (1981), their checks, and the assumptions (rule text ``003_0c5ac23cec43b539.txt``).

Every number the rule text fixes is a game parameter with the text's value as its default; every point the text
leaves open is a parameter documented as an *assumption* (:data:`ASSUMPTION_TEXT`), or a fixed reading listed with
its rule quote (:data:`FIXED_ASSUMPTIONS`). :class:`~trustme_analysis.games.board1981.engine.rules.Rules` is the parsed, validated, immutable form the engine reads
during play (``game.rules``).

Example:
    >>> rules = Rules.from_params({"players": 3, "payoff_mix": "5/4/5/2"})
    >>> rules.players, rules.payoff_mix, rules.num_properties
    (3, (5, 4, 5, 2), 12)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Self

from trustme_analysis.engine import params as P
from trustme_analysis.games.board1981.engine.board import DEFAULT_BOARD, SMALL_BOARD, Board, load_board
from trustme_analysis.games.board1981.engine.investing import (
    InvestingRules,
    parse_lots,
    parse_payoff_mix,
    parse_utility,
)

SHORT_NAME = "trustme_1981"
#: Faces of the die ("roll the die").
DIE_FACES = 6
#: After this many tied roll-offs in one challenge the defender keeps the claim, so that the game always ends.
MAX_ROLL_OFF_TIES = 20

#: Parameter defaults: the rule text's numbers, and for the open points the documented default assumption.
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
    "buy_max": True,
    "roll_off_tie": "reroll",
    "utility": "win_loss",
    "max_turns": 400,
}

#: For every parameter, variants that set it to other values than its default (with what that value needs to load):
#: the kernel's lock-step tests and its parameter net play each (``registry.GameEntry.parameter_examples``).
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "players": [{"players": 2}, {"players": 3}],
    "board": [{"board": SMALL_BOARD, "players": 3, "payoff_mix": "2/1/1/2"}],
    "payoff_mix": [{"payoff_mix": "2/2/2/10"}, {"payoff_mix": "3/3/3/3", "players": 3}],
    "trust_mix": [{"trust_mix": "2/10/16"}, {"trust_mix": "0/0/5"}, {"trust_mix": "12/0/0", "players": 3}],
    "bamboozled": [{"bamboozled": "6"}, {"bamboozled": "1/2/3/4/5"}],
    "money": [{"money": 3}, {"money": 0, "shares": 0}, {"money": 1000}],
    "shares": [{"shares": 0}, {"shares": 500, "players": 2}],
    "peek": [{"peek": True}],
    "lots": [{"lots": "1/2/3"}, {"lots": "7", "players": 3}],
    "buy_max": [{"buy_max": False}],
    "roll_off_tie": [{"roll_off_tie": "defender"}, {"roll_off_tie": "challenger", "trust_mix": "1/1/6"}],
    "utility": [{"utility": "wealth"}, {"utility": "wealth_diff", "players": 2}],
    "max_turns": [{"max_turns": 7}, {"max_turns": 25, "players": 3}],
}

#: Parameters that change only the scoring of a finished game (what ``returns()`` gives), never the play.
SCORING_ONLY = ("utility",)

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
    "buy_max": "'Give that player $1 for every share you want': besides the lots, one decision may buy as many shares "
    "as the investor's money pays for ('buy max', offered when that amount is not itself a lot), so an investor with "
    "$49 is not capped at 25 shares. false: the lots only.",
    "roll_off_tie": "The text does not say what a tied Challenge roll-off does: assumed both roll again (after "
    f"{MAX_ROLL_OFF_TIES} ties the defender keeps the claim, so the game ends).",
    "max_turns": "The text allows endless wandering; the game ends as a 'turn cap' end after this many turns.",
}

#: Readings of the rule text encoded in the engine without a parameter: ``(name, text with its rule quote)``.
FIXED_ASSUMPTIONS: tuple[tuple[str, str], ...] = (
    (
        "movement",
        "'You may move either forward or backward, but not diagonally' by exact count is read as a walk without "
        "reversing: exactly k steps along connections, never straight back to the space just left; any branch at a "
        "junction.",
    ),
    (
        "right_to_claim",
        "'On your next turn, you may, if you wish, claim that property': the right holds at the start of that turn "
        "only, wherever the piece stands, if the property is still unclaimed and the player has no claim.",
    ),
    (
        "invest_from_company",
        "'Investing takes place as soon as someone returns to the Trust Me Investment Company with a claim': a "
        "claimant who wins a claim while standing on the Company (a Challenge won there, or an occupant's claim "
        "taken there) has not 'returned' during that turn; at the start of its next turn it may start the investing "
        "round without moving, or roll and move as usual.",
    ),
    (
        "send_in_turn_order",
        "'Whenever you land on a space that's occupied by another player, immediately send that player on a Wild "
        "Goose Chase ... a) If your opponent has claimed a property and you have not, that property becomes yours. "
        "b) If both you and your opponent have claimed properties, remove your opponent's claim marker': several "
        "occupants are sent one after the other in turn order from the mover's left; the first occupant's claim is "
        "taken under a) when the mover has none, and every later occupant's claim is removed under b) (the mover "
        "then holds one).",
    ),
    (
        "bamboozled_escape",
        "'If you draw a Bamboozled card and fail to roll one of the required numbers, go immediately to any Wild "
        "Goose Chase space': the text says nothing of a successful roll; it ends the turn with the piece where it "
        "stands and the claim kept (the roll that drew the card was a 1, which moves nothing).",
    ),
    (
        "company_not_occupied",
        "Landing on the Company never sends anyone on a Wild Goose Chase ('more than one player may occupy this "
        "space at one time').",
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
        "'Whoever rolls the highest number goes first': a uniform chance node over the players.",
    ),
    (
        "one_investing_decision",
        "'Everyone in turn decides whether or not to purchase shares': in the investing round each player makes one "
        "decision: buy one lot (or as many shares as its money pays for), divest one lot or all, or hold.",
    ),
    (
        "looks_are_public",
        "'Remember who has seen what': looking is optional (a decline action is offered); which briefcase a player "
        "looks under is public, what they see is private.",
    ),
)


def _board(params: Mapping[str, Any]) -> Board:
    value = params["board"]
    if not isinstance(value, str) or not value:
        raise P.ParameterError(SHORT_NAME, "board", value, "'default' or the path of a board TOML file")
    return load_board(value)


def _bool(params: Mapping[str, Any], name: str) -> bool:
    if not isinstance(params[name], bool):
        raise P.ParameterError(SHORT_NAME, name, params[name], "true or false")
    return params[name]


@dataclass(frozen=True)
class Rules:
    """The validated parameters of one ``trustme_1981`` variant (build with :meth:`from_params`).

    Attributes:
        players: 2 to 4.
        board: the board (:class:`~trustme_analysis.games.board1981.engine.board.Board`).
        payoff_mix: Payoff cards per kind (one/two/empty/had).
        trust_mix: Trust Me cards per kind (move/bamboozled/challenge).
        bamboozled: the die faces that escape a Bamboozled card.
        money, shares: each player's starting money and shares.
        peek: the optional rule "each player secretly may look beneath one property's briefcase".
        lots: the share amounts one investing decision may buy or divest.
        buy_max: whether "buy as many as my money pays for" is a decision too.
        roll_off_tie: what a tied Challenge roll-off does (``reroll``, ``defender``, ``challenger``).
        utility: what ``returns()`` gives (``win_loss``, ``wealth``, ``wealth_diff``).
        max_turns: the turn cap.
        params: every parameter as given (merged with the defaults), for ``assumptions()``.
    """

    players: int
    board: Board
    payoff_mix: tuple[int, ...]
    trust_mix: tuple[int, ...]
    bamboozled: frozenset[int]
    money: int
    shares: int
    peek: bool
    lots: tuple[int, ...]
    buy_max: bool
    roll_off_tie: str
    utility: str
    max_turns: int
    params: dict[str, Any]
    #: The decisions of one investor (:class:`~trustme_analysis.games.board1981.engine.investing.InvestingRules`).
    investing: InvestingRules = field(init=False, repr=False, compare=False)
    #: The Trust Me deck by card id: ``0..P-1`` "move to property p" (the move cards dealt round robin over the
    #: properties), ``P`` Bamboozled, ``P+1`` Challenge Another Player.
    trust_deck: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived once: the engine reads both at every investing decision and Trust Me card.
        object.__setattr__(self, "investing", InvestingRules(self.lots, self.buy_max))
        moves, bamboozled, challenge = self.trust_mix
        deck = [0] * (self.num_properties + 2)
        for i in range(moves):
            deck[i % self.num_properties] += 1
        deck[self.num_properties] = bamboozled
        deck[self.num_properties + 1] = challenge
        object.__setattr__(self, "trust_deck", tuple(deck))

    def __deepcopy__(self, memo: dict) -> Self:
        # Immutable once built: clones of a state share it (pyspiel clones Python states with copy.deepcopy).
        return self

    @classmethod
    def from_params(cls, params: Mapping[str, Any] | None) -> Self:
        """Check and parse ``params`` (unknown names and bad values raise
        :class:`~trustme_analysis.engine.params.ParameterError` naming the allowed values)."""
        p = P.merged(DEFAULTS, params)
        g = SHORT_NAME
        players = P.int_in_range(g, p, "players", 2, 4)
        board = _board(p)
        payoff_mix = parse_payoff_mix(g, p)
        if sum(payoff_mix) < board.num_properties:
            raise P.ParameterError(
                g, "payoff_mix", p["payoff_mix"], f"at least {board.num_properties} cards (one per briefcase on the "
                "board)"
            )
        trust_mix = P.int_list(g, p, "trust_mix", length=3, low=0)
        if sum(trust_mix) == 0:
            raise P.ParameterError(g, "trust_mix", p["trust_mix"], "counts move/bamboozled/challenge, not all 0")
        return cls(
            players=players,
            board=board,
            payoff_mix=payoff_mix,
            trust_mix=trust_mix,
            bamboozled=frozenset(P.int_list(g, p, "bamboozled", low=1, high=DIE_FACES)),
            money=P.int_in_range(g, p, "money", 0, 10**6),
            shares=P.int_in_range(g, p, "shares", 0, 10**6),
            peek=_bool(p, "peek"),
            lots=parse_lots(g, p),
            buy_max=_bool(p, "buy_max"),
            roll_off_tie=P.choice(g, p, "roll_off_tie", ("reroll", "defender", "challenger")),
            utility=parse_utility(g, p, players),
            max_turns=P.int_in_range(g, p, "max_turns", 1, 100_000),
            params=p,
        )

    @property
    def num_properties(self) -> int:
        """Briefcases on the board (one per property)."""
        return self.board.num_properties

    @property
    def start_wealth(self) -> int:
        """Each player's wealth at the start (money + shares)."""
        return self.money + self.shares

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force: ``{"parameter", "value", "text"}`` per open point of the rule text."""
        out = [{"parameter": k, "value": self.params[k], "text": t} for k, t in ASSUMPTION_TEXT.items()]
        out += [{"parameter": k, "value": "fixed rule", "text": t} for k, t in FIXED_ASSUMPTIONS]
        return out
