"""The rule numbers of the Pinocchio "Trust Me" card game, their checks, the assumptions, and the scoring chart.

Every number the rulebook (``000_0a67680c9204e9f0.txt``) fixes is a game parameter with the rulebook's value as its
default; every point the rulebook leaves open is a parameter documented as an *assumption* (see :data:`PARAMETERS`).
:class:`Rules` is the parsed, validated, immutable form the engine reads during play, and :func:`score_breakdown` is
the one place where Final Scoring lives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trustme_analysis.engine import params as P

SHORT_NAME = "trustme_pinocchio"
#: The rows of the tale table (a tale true or tall, trusted or not), as the engine's ``tale`` events and the records
#: name them.
TALE_ROWS = ("true_trusted", "true_distrusted", "tall_trusted", "tall_distrusted")


def tale_row(tall: bool, trusted: bool) -> str:
    """The row of the tale table a tale falls in.

    >>> tale_row(tall=True, trusted=False)
    'tall_distrusted'
    """
    return TALE_ROWS[2 * tall + (not trusted)]

#: Parameter defaults: the rulebook's numbers, and for the open points the documented default assumption.
DEFAULTS: dict[str, Any] = {
    "players": 3,
    "values": 6,
    "copies": 5,
    "two_player_removed": 1,
    "park_size": 4,
    "refill": 2,
    "hand_size": 1,
    "stacks": "6/5/4/3/2/1",
    "chart": "1/3/6/10/15/21",
    "stacks_to_end": 4,
    "runouts_to_end": 2,
    "coin_variant": False,
    "voting": "simultaneous",
    "coin_tossers": "dissenters",
    "empty_deck": "skip",
    "utility": "win_loss",
    "first_player": "seat0",
}

#: For every parameter, variants that set it to values other than its default (with whatever else the value needs to
#: load): the lock-step tests and the kernel's parameter net draw their variants from these.
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "players": [{"players": 2}, {"players": 4}],
    "values": [{"values": 4}, {"values": 9, "copies": 3}],
    "copies": [{"copies": 3}],
    "two_player_removed": [{"players": 2, "two_player_removed": 0}, {"players": 2, "two_player_removed": 3}],
    "park_size": [{"park_size": 2}, {"park_size": 6}],
    "refill": [{"refill": 1}, {"refill": 4}],
    "hand_size": [{"hand_size": 0}, {"hand_size": 3}],
    "stacks": [{"stacks": "2/2/2/2/2/2"}],
    "chart": [{"chart": "0/1/2/3/4/30"}],
    "stacks_to_end": [{"stacks_to_end": 2}, {"stacks_to_end": 9}],
    "runouts_to_end": [{"runouts_to_end": 1}, {"runouts_to_end": 3}],
    "coin_variant": [{"players": 4, "coin_variant": True}],
    "voting": [{"voting": "sequential"}],
    "coin_tossers": [{"players": 4, "coin_variant": True, "coin_tossers": "any"}],
    "empty_deck": [{"empty_deck": "reshuffle"}],
    "utility": [{"utility": "score"}, {"players": 2, "utility": "score_diff"}],
    "first_player": [{"first_player": "random"}, {"players": 4, "first_player": "random", "coin_variant": True}],
}

#: Parameters that change only the scoring of a finished game (Final Scoring's chart, what returns() gives).
SCORING_ONLY = ("chart", "utility")

#: One line per parameter: what it encodes. "Assumption" marks the points the rule text leaves open.
PARAMETERS: dict[str, str] = {
    "players": "Number of players, 2 to 4 (Components: 4 Player Aid cards).",
    "values": "Number of Character values (rulebook: 6, Pinocchio 1 to The Fairy 6); 1 to 9.",
    "copies": "Characters of each value (rulebook: 5, so 30 Characters).",
    "two_player_removed": "Characters of each value removed before shuffling in a 2-player game (rulebook: 1).",
    "park_size": "Characters flipped face-up into the Park at set-up (rulebook: 4).",
    "refill": "Characters drawn into the Park whenever it is empty (rulebook: 2).",
    "hand_size": "Starting hand (rulebook: 1).",
    "stacks": "Tickets per value 1..values, '/'-separated (rulebook: 6/5/4/3/2/1). With values != 6 and this left "
    "at its default, the stacks are values/values-1/.../1.",
    "chart": "Set-bonus points for 1..values different Ticket values, '/'-separated (rulebook: 1/3/6/10/15/21). With "
    "values != 6 and this left at its default, the first `values` triangular numbers. A one-entry list is written "
    "with a trailing '/' (chart=5/), as is a one-entry stacks.",
    "stacks_to_end": "The game ends at the end of the turn in which this many Ticket stacks are empty (rulebook: 4). "
    "Above `values` it means all stacks.",
    "runouts_to_end": "The deck run-out that ends the game (rulebook: the second; 1 gives a one-day game). Each "
    "earlier run-out ends a day (Reputations discarded, discard pile reshuffled).",
    "coin_variant": "The 4-Player Coin Variant (only with players=4).",
    "voting": "Assumption: 'simultaneous' (no voter sees another vote before all are cast) or 'sequential' (in turn "
    "order from the active player's left, each voter sees the earlier votes). The text allows both.",
    "coin_tossers": "Assumption (coin variant): who may toss, \"to try and change the result of the majority if "
    "they do not agree with the outcome\": only 'dissenters' (voted against the majority result; the default, the "
    "text's reading) or 'any' non-active player with an unused Coin. The offer goes round in turn order from the "
    "active player's left and the first toss ends the offers (\"only one player may choose to toss the Coin per "
    "turn\"), so the left neighbour has first call on a once-per-game resource.",
    "empty_deck": "Assumption: a draw or Park refill needed while the deck is empty. 'skip': it does not happen "
    "(the Park may stay empty until the deck is refilled; a player without a card passes). 'reshuffle': the discard "
    "pile is shuffled into a new deck at once to make it. Either way a draw that empties the deck, or finds it "
    "empty, is that turn's run-out (at most one per turn).",
    "utility": "What returns() gives solvers: 'win_loss' (winner after tie-breaks +1, the others -1/(players-1)), "
    "'score' (raw points), 'score_diff' (2 players: own points minus the opponent's).",
    "first_player": "Assumption: who starts. 'The player who last went on a roller coaster' is a person, not a seat: "
    "'seat0' (seat 0 starts, the default) or 'random' (a chance node at set-up, before the Park is dealt, picks the "
    "first seat uniformly; every player sees it).",
}

# The fixed facts the rule text leaves open that are not parameters, listed with the assumptions in force.
FIXED_ASSUMPTIONS: tuple[dict[str, str], ...] = (
    {
        "parameter": "tall_tale_no_ticket",
        "value": "no_ticket",
        "text": "A tall tale trusted when no Ticket of the difference's value or any lower value is left still "
        "succeeds (both Characters go to the Reputation) but gains no Ticket.",
    },
    {
        "parameter": "tie_coin",
        "value": "uniform",
        "text": "The final Coin toss between players still tied on points and Tickets picks each of them with "
        "equal chance (with more than two tied, the text's Coin is read as a fair draw among them).",
    },
    {
        "parameter": "free_reputation",
        "value": "optional",
        "text": "The free Use Reputation action at the day's end (pending bonus turn) may be declined.",
    },
    {
        "parameter": "bonus_turn_boundary",
        "value": "new turn",
        "text": "A bonus turn is a new turn: the end-of-turn checks (day end, game end) run before it starts.",
    },
    {
        "parameter": "tickets_public",
        "value": "public",
        "text": "Tickets lie face-down but every gain is announced by the play (set size, revealed tale), so the "
        "Tickets each player holds are public information.",
    },
    {
        "parameter": "reputation_needs_a_ticket",
        "value": "not offered",
        "text": "'Gain exactly 1 Ticket of a value equal to the number of Characters you are discarding': Use "
        "Reputation is not offered for a set or run whose Ticket stack is empty (it would gain nothing).",
    },
    {
        "parameter": "deck_runs_out",
        "value": "last card drawn",
        "text": "'When the Character deck runs out of Characters': the deck runs out when its last Character is "
        "drawn (into a hand or the Park), not when a later draw finds it empty.",
    },
    {
        "parameter": "voting_fixed",
        "value": "whole game",
        "text": "Players 'decide if they want to declare together or one by one' for each tale; the voting mode "
        "(the voting parameter) is fixed for a whole game instead.",
    },
    {
        "parameter": "discard_pile_known",
        "value": "known",
        "text": "'Players may not check the discard pile', but every discarded Character was seen face-up, so a "
        "player with perfect recall knows its contents: information states and observations show them.",
    },
    {
        "parameter": "two_player_tie_coin",
        "value": "coin",
        "text": "'The Coin is not used in the 2-player game', yet the tie-break sentence ends with a Coin toss; a "
        "2-player tie on points and Tickets is still decided by the Coin (the texts disagree).",
    },
)

#: Character names from Components, by value.
CHARACTER_NAMES = ("Pinocchio", "The Cat & The Fox", "The Doctors", "The Judge", "Mangiafuoco", "The Fairy")
#: Ticket names from Components, by value.
TICKET_NAMES = ("Cotton Candy", "Kite", "Puppet Show", "Merry-Go-Round", "Ferris Wheel", "Roller Coaster")


def ticket_for_tale(stacks_left: Sequence[int], difference: int) -> int:
    """The Ticket a trusted tall tale of card difference ``difference`` gains: "a Ticket equal to the difference
    ... If there are no Tickets of this value remaining, take a Ticket with the next lower value"; 0 when no lower
    value is left either (the tale still succeeds, without a Ticket: the ``tall_tale_no_ticket`` assumption).

    >>> ticket_for_tale([1, 0, 2], 2), ticket_for_tale([0, 0, 2], 2)
    (1, 0)
    """
    for value in range(difference, 0, -1):
        if stacks_left[value - 1] > 0:
            return value
    return 0


def score_breakdown(tickets_per_value: Sequence[int], chart: Sequence[int]) -> dict[str, int]:
    """Final Scoring for one player: Ticket face values plus the chart for the number of different values.

    Args:
        tickets_per_value: ``tickets_per_value[i]`` is how many Tickets of value ``i + 1`` the player holds.
        chart: ``chart[k - 1]`` is the set bonus for ``k`` different Ticket values.

    Returns:
        ``{"ticket_face", "set_bonus", "total"}``.

    Example (the rulebook's Charlotte: 1x1, 2x2, 2x3, 1x5, 1x6):

    >>> score_breakdown([1, 2, 2, 0, 1, 1], [1, 3, 6, 10, 15, 21])
    {'ticket_face': 22, 'set_bonus': 15, 'total': 37}
    """
    face = sum((i + 1) * int(n) for i, n in enumerate(tickets_per_value))
    different = sum(1 for n in tickets_per_value if n > 0)
    bonus = int(chart[different - 1]) if different else 0
    return {"ticket_face": face, "set_bonus": bonus, "total": face + bonus}


def _triangular(n: int) -> tuple[int, ...]:
    return tuple(k * (k + 1) // 2 for k in range(1, n + 1))


@dataclass(frozen=True)
class Rules:
    """The validated rule numbers of one variant, shared (never copied) by every state of a game.

    Build it with :meth:`from_params`; all fields are plain ints, strings and tuples.
    """

    players: int
    values: int
    copies: int
    two_player_removed: int
    park_size: int
    refill: int
    hand_size: int
    stacks: tuple[int, ...]
    chart: tuple[int, ...]
    stacks_to_end: int
    runouts_to_end: int
    coin_variant: bool
    voting: str
    coin_tossers: str
    empty_deck: str
    utility: str
    #: Who starts: "seat0" or "random" (a chance node at set-up).
    first_player: str = "seat0"
    #: Characters of each value in the deck after the 2-player removal.
    deck_per_value: int = field(default=0)

    def __deepcopy__(self, memo: dict) -> Rules:
        # Fixed data: every clone of a state shares the one object.
        return self

    @property
    def stacks_needed(self) -> int:
        """Empty stacks that end the game (``stacks_to_end``, at most the number of stacks)."""
        return min(self.stacks_to_end, self.values)

    @property
    def total_characters(self) -> int:
        """Characters in play (after the 2-player removal)."""
        return self.deck_per_value * self.values

    @classmethod
    def from_params(cls, given: Mapping[str, Any] | None) -> Rules:
        """Validate pyspiel parameters; a bad value raises :class:`~trustme_analysis.engine.params.ParameterError`."""
        g = SHORT_NAME
        p = P.merged(DEFAULTS, given)
        players = P.int_in_range(g, p, "players", 2, 4)
        values = P.int_in_range(g, p, "values", 1, 9)
        copies = P.int_in_range(g, p, "copies", 1, 20)
        removed = P.int_in_range(g, p, "two_player_removed", 0, copies - 1)
        park_size = P.int_in_range(g, p, "park_size", 1, 20)
        refill = P.int_in_range(g, p, "refill", 1, 20)
        hand_size = P.int_in_range(g, p, "hand_size", 0, 10)
        for name in ("stacks", "chart"):
            # A one-entry list in a game string must keep a separator ("chart=5/"): pyspiel would read "5" as an int
            # and reject it for a string parameter.
            if isinstance(p[name], str) and p[name].endswith(P.LIST_SEPARATOR):
                p[name] = p[name][: -len(P.LIST_SEPARATOR)]
        if p["stacks"] == DEFAULTS["stacks"] and values != 6:
            p["stacks"] = P.format_int_list(range(values, 0, -1))
        stacks = P.int_list(g, p, "stacks", length=values, low=1, high=50)
        if p["chart"] == DEFAULTS["chart"] and values != 6:
            p["chart"] = P.format_int_list(_triangular(values))
        chart = P.int_list(g, p, "chart", length=values, low=0, high=10_000)
        stacks_to_end = P.int_in_range(g, p, "stacks_to_end", 1, 9)
        runouts_to_end = P.int_in_range(g, p, "runouts_to_end", 1, 9)
        coin_variant = p["coin_variant"]
        if not isinstance(coin_variant, bool):
            raise P.ParameterError(g, "coin_variant", coin_variant, "True or False")
        if coin_variant and players != 4:
            raise P.ParameterError(g, "coin_variant", coin_variant, f"False with players={players} (4 players only)")
        voting = P.choice(g, p, "voting", ("simultaneous", "sequential"))
        coin_tossers = P.choice(g, p, "coin_tossers", ("any", "dissenters"))
        empty_deck = P.choice(g, p, "empty_deck", ("skip", "reshuffle"))
        utility = P.choice(g, p, "utility", ("win_loss", "score", "score_diff"))
        first_player = P.choice(g, p, "first_player", ("seat0", "random"))
        if utility == "score_diff" and players != 2:
            raise P.ParameterError(g, "utility", utility, f"'win_loss' or 'score' with players={players} "
                                   "('score_diff' needs 2 players)")
        per_value = copies - (removed if players == 2 else 0)
        dealt = park_size + players * hand_size
        if per_value * values <= dealt:
            raise P.ParameterError(
                g, "copies", copies,
                f"enough Characters for the set-up: values*copies{' - removed' if players == 2 else ''} = "
                f"{per_value * values} must exceed park_size + players*hand_size = {dealt}",
            )
        return cls(
            players=players, values=values, copies=copies, two_player_removed=removed, park_size=park_size,
            refill=refill, hand_size=hand_size, stacks=stacks, chart=chart, stacks_to_end=stacks_to_end,
            runouts_to_end=runouts_to_end, coin_variant=coin_variant, voting=voting, coin_tossers=coin_tossers,
            empty_deck=empty_deck, utility=utility, first_player=first_player, deck_per_value=per_value,
        )

    def assumptions(self) -> list[dict[str, Any]]:
        """Each assumption in force: ``{"parameter", "value", "text"}`` (parameters first, then fixed choices)."""
        out: list[dict[str, Any]] = [
            {"parameter": "voting", "value": self.voting, "text": PARAMETERS["voting"]},
            {"parameter": "empty_deck", "value": self.empty_deck, "text": PARAMETERS["empty_deck"]},
            {"parameter": "utility", "value": self.utility, "text": PARAMETERS["utility"]},
            {"parameter": "first_player", "value": self.first_player, "text": PARAMETERS["first_player"]},
        ]
        if self.coin_variant:
            out.insert(1, {"parameter": "coin_tossers", "value": self.coin_tossers,
                           "text": PARAMETERS["coin_tossers"]})
        if self.stacks_to_end > self.values:
            out.append({"parameter": "stacks_to_end", "value": self.stacks_to_end,
                        "text": f"Only {self.values} stacks exist: the game ends when all of them are empty."})
        # The two-player Coin reading only matters, and is only listed, when two players play.
        out.extend(dict(a) for a in FIXED_ASSUMPTIONS
                   if a["parameter"] != "two_player_tie_coin" or self.players == 2)
        return out
