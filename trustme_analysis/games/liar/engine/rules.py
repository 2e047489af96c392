"""Parameters of ``trustme_liar`` (rule text ``004_17bc6a636195b0a6.txt``), checked once when the game is loaded.

Each rule number is a parameter with the rule text's value as default. Where the text is silent, the choice is a
parameter too, marked as an *assumption*; :meth:`~trustme_analysis.games.liar.engine.rules.Rules.assumptions` lists those in force so that results can
print them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from trustme_analysis.engine import params as p

SHORT_NAME = "trustme_liar"

MODES = ("classique", "trustme")
UTILITIES = ("auto", "rank", "points", "difference")
ANNOUNCE_GONE = ("allowed", "forbidden")
FALSE_CARD_ACCEPTED = ("covered", "round_end")
LAST_CARDS = ("call_or_pass", "until_covered")
#: ``first_player``: a chance node draws the starter of the first round, or a fixed seat ``seat0``, ``seat1``, ...
#: (a seat is written as a word because OpenSpiel reads a bare number in a game string as an integer, and the
#: parameter is a string).
RANDOM_FIRST = "random"
SEAT_PREFIX = "seat"

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "values": 13,
    "copies": 4,
    "max_play": 4,
    "mode": "classique",
    "points_going_out": 10,
    "points_card_in_hand": -1,
    "points_false_card": 25,
    "points_unmasked": 10,
    "points_wrongly_accused": 10,
    "utility": "auto",
    "turn_seconds": 30,
    "rapide_seconds": 15,
    "rapide": False,
    "announce_gone": "allowed",
    "false_card_accepted": "covered",
    "last_cards": "call_or_pass",
    "first_player": RANDOM_FIRST,
    "max_turns": 1000,
}

#: Parameters that change only how a finished game is scored (the Trust Me points and the utility), never the play
#: (the registry entry's ``scoring_only``; :mod:`.rescore` scores a finished game again under other values).
SCORING_ONLY = ("points_going_out", "points_card_in_hand", "points_false_card", "points_unmasked",
                "points_wrongly_accused", "utility")

#: A smaller deck (6 values x 3 copies) for the examples below whose parameter does not set the deck: a game of it
#: takes milliseconds to replay step by step, where a 52-card game lists thousands of legal plays a step.
_SMALL = {"values": 6, "copies": 3}

#: For every parameter, variants that set it to values other than its default (the registry entry's
#: ``parameter_examples``: the kernel's lock-step tests and the kernel's parameter net play them). Points are moved in
#: Trust Me mode, where they score.
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "players": [{"players": 2, **_SMALL}, {"players": 3, **_SMALL}, {"players": 6, **_SMALL}],
    "values": [{"values": 1, "copies": 4}, {"values": 20, "copies": 1, "max_play": 2}],
    "copies": [{"copies": 1, "values": 8}, {"copies": 8, "values": 3, "max_play": 6}],
    "max_play": [{"max_play": 1, **_SMALL}, {"max_play": 6, **_SMALL}],
    "mode": [{"mode": "trustme", **_SMALL}],
    "points_going_out": [{"mode": "trustme", "points_going_out": -7, **_SMALL}],
    "points_card_in_hand": [{"mode": "trustme", "points_card_in_hand": 3, **_SMALL}],
    "points_false_card": [{"mode": "trustme", "points_false_card": -2, **_SMALL}],
    "points_unmasked": [{"mode": "trustme", "points_unmasked": 0, **_SMALL}],
    "points_wrongly_accused": [{"mode": "trustme", "points_wrongly_accused": 1000, **_SMALL}],
    "utility": [{"utility": "rank", **_SMALL}, {"mode": "trustme", "utility": "points", **_SMALL},
                {"mode": "trustme", "utility": "difference", **_SMALL}],
    "turn_seconds": [{"turn_seconds": 60, **_SMALL}],
    "rapide_seconds": [{"rapide_seconds": 5, "rapide": True, **_SMALL}],
    "rapide": [{"rapide": True, **_SMALL}],
    "announce_gone": [{"announce_gone": "forbidden", **_SMALL}],
    "false_card_accepted": [{"false_card_accepted": "round_end", "mode": "trustme", **_SMALL}],
    "last_cards": [{"last_cards": "until_covered", **_SMALL}],
    "first_player": [{"first_player": "seat0", **_SMALL}, {"first_player": "seat3", **_SMALL}],
    "max_turns": [{"max_turns": 1, **_SMALL}, {"max_turns": 15, **_SMALL}],
}

# The text of each assumption, keyed by the parameter that carries it; ``{value}`` is the value in force.
_ASSUMPTION_TEXT = {
    "announce_gone": (
        "A starter may announce a value whose every copy is among the public pair discards ({value}); the text "
        "neither allows nor forbids it."
    ),
    "false_card_accepted": (
        "A false card scores +25 for its player when it can no longer be revealed: 'covered' = as soon as a later "
        "play covers it, its round is burned, or the game ends with it unrevealed; 'round_end' = only when its round "
        "is burned or the game ends with it in the pile (a pile picked up after a challenge scores nothing). In force: "
        "{value}."
    ),
    "last_cards": (
        "After a player plays their last cards, 'call_or_pass' = each other player in turn may only call liar or "
        "pass, and the play holds once all have passed; 'until_covered' = the others may also play on top, which "
        "ends the challenge window (the play holds and the game ends). In force: {value}."
    ),
    "first_player": (
        "The text does not say who starts the first round. 'random' = a chance node draws the starter, every seat "
        "equally likely, so seat numbers carry no advantage and the starter's advantage is measured on its own; "
        "'seatN' = seat N always starts. In force: {value}."
    ),
    "max_turns": (
        "The game is stopped after {value} player turns if nobody has gone out (the text has no end other than "
        "going out); a stopped game is ranked and scored as it stands, the unchallenged last play counting as "
        "accepted, and the snapshot records end='turn_cap'."
    ),
    "deal": (
        "The deck is dealt round the table starting at the first player's left, so when it does not divide evenly "
        "the seats after the first player hold one card more and the first player never does (fixed reading)."
    ),
    "empty_after_discard": (
        "A player left with no card after discarding pairs has gone out at once: the game ends at set-up with every "
        "such player out, sharing first place (fixed reading)."
    ),
    "lowest_card": (
        "For the timeout rule, 'lowest card' means the smallest value number, 1 being the lowest (fixed reading)."
    ),
    "timeout_add_or_burn": (
        "A time-out at the 'add or burn' choice (after all the others passed), where passing is not offered, burns "
        "the pile: playing nothing means not adding (fixed reading)."
    ),
}


@dataclass(frozen=True)
class Rules:
    """The checked parameters of one ``trustme_liar`` variant (the game's ``rules``).

    Attributes:
        players: number of players, 2 to 6 (default 4).
        values: number of card values in the deck (default 13).
        copies: cards of each value (default 4; 13 x 4 = the 52-card deck, 8 x 4 = the 32-card deck).
        max_play: the most cards one play may hold (the text: 1 to 4).
        mode: ``"classique"`` (first out wins, others ranked by cards left) or ``"trustme"`` (points).
        points_going_out: Trust Me points for going out (+10).
        points_card_in_hand: Trust Me points per card left in hand at the end (-1).
        points_false_card: Trust Me points per false card accepted or burned (+25, secret until the end).
        points_unmasked: Trust Me points to the accuser who unmasks a liar (+10).
        points_wrongly_accused: Trust Me points to the honest player wrongly accused (+10).
        utility: what ``returns()`` gives solvers: ``"rank"``, ``"points"``, ``"difference"`` (own points minus
            the others' mean) or ``"auto"`` (rank in Classique; points in Trust Me, difference with two players).
        turn_seconds: the turn timer (30 s); recorded with results, not a clock.
        rapide_seconds: the turn timer in Rapide mode (15 s).
        rapide: whether the Rapide timer is in force.
        announce_gone: assumption; may a starter announce a value all of whose copies were discarded?
        false_card_accepted: assumption; when a false card scores (see :data:`_ASSUMPTION_TEXT`).
        last_cards: assumption; what the others may do after a player plays their last cards.
        first_player: assumption; ``"random"`` (a chance node draws the first round's starter) or ``"seatN"``.
        max_turns: assumption; the turn cap that guarantees the game ends.
    """

    players: int
    values: int
    copies: int
    max_play: int
    mode: str
    points_going_out: int
    points_card_in_hand: int
    points_false_card: int
    points_unmasked: int
    points_wrongly_accused: int
    utility: str
    turn_seconds: int
    rapide_seconds: int
    rapide: bool
    announce_gone: str
    false_card_accepted: str
    last_cards: str
    first_player: str
    max_turns: int

    @classmethod
    def from_params(cls, params: dict[str, Any] | None) -> Self:
        """Check ``params`` (a pyspiel parameter dict) and build the config; errors name parameter and range."""
        m = p.merged(DEFAULTS, params)
        g = SHORT_NAME
        players = p.int_in_range(g, m, "players", 2, 6)
        values = p.int_in_range(g, m, "values", 1, 20)
        copies = p.int_in_range(g, m, "copies", 1, 8)
        if values * copies < players:
            raise p.ParameterError(g, "values", values, f"values x copies >= players ({players})")
        max_play = p.int_in_range(g, m, "max_play", 1, 6)
        mode = p.choice(g, m, "mode", MODES)
        points = {
            name: p.int_in_range(g, m, name, -1000, 1000)
            for name in (
                "points_going_out",
                "points_card_in_hand",
                "points_false_card",
                "points_unmasked",
                "points_wrongly_accused",
            )
        }
        utility = p.choice(g, m, "utility", UTILITIES)
        if utility == "points" and mode == "classique":
            raise p.ParameterError(g, "utility", utility, "'auto' or 'rank' when mode='classique' (no points there)")
        if utility == "difference" and mode == "classique":
            raise p.ParameterError(g, "utility", utility, "'auto' or 'rank' when mode='classique' (no points there)")
        turn_seconds = p.int_in_range(g, m, "turn_seconds", 1, 3600)
        rapide_seconds = p.int_in_range(g, m, "rapide_seconds", 1, 3600)
        rapide = m["rapide"]
        if not isinstance(rapide, bool):
            raise p.ParameterError(g, "rapide", rapide, "True or False")
        return cls(
            players=players,
            values=values,
            copies=copies,
            max_play=max_play,
            mode=mode,
            utility=utility,
            turn_seconds=turn_seconds,
            rapide_seconds=rapide_seconds,
            rapide=rapide,
            announce_gone=p.choice(g, m, "announce_gone", ANNOUNCE_GONE),
            false_card_accepted=p.choice(g, m, "false_card_accepted", FALSE_CARD_ACCEPTED),
            last_cards=p.choice(g, m, "last_cards", LAST_CARDS),
            first_player=_first_player(m["first_player"], players),
            max_turns=p.int_in_range(g, m, "max_turns", 1, 1_000_000),
            **points,
        )

    def __deepcopy__(self, memo: dict) -> Self:
        return self  # immutable, and shared by every state of a game (a clone need not walk it)

    @property
    def deck_size(self) -> int:
        """Cards in the deck (all of them are dealt)."""
        return self.values * self.copies

    @property
    def seconds_per_turn(self) -> int:
        """The turn timer in force (Rapide or not)."""
        return self.rapide_seconds if self.rapide else self.turn_seconds

    @property
    def utility_in_force(self) -> str:
        """``utility`` with ``"auto"`` resolved: rank (Classique), points, or difference (Trust Me, 2 players)."""
        if self.utility != "auto":
            return self.utility
        if self.mode == "classique":
            return "rank"
        return "difference" if self.players == 2 else "points"

    @property
    def starter_seat(self) -> int | None:
        """The seat that starts the first round, or None when a chance node draws it (``first_player="random"``)."""
        if self.first_player == RANDOM_FIRST:
            return None
        return int(self.first_player[len(SEAT_PREFIX):])

    def hand_sizes(self, starter: int) -> tuple[int, ...]:
        """Cards dealt to each seat when ``starter`` starts the first round: the deal goes round the table from the
        starter's left, so the seats after the starter get any extra card and the starter gets the fewest."""
        n = self.players
        base, extra = divmod(self.deck_size, n)
        return tuple(base + (1 if (seat - starter - 1) % n < extra else 0) for seat in range(n))

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force, as ``{"parameter", "value", "text"}`` dicts.

        Fixed readings (no alternative implemented) carry ``"value": "fixed"``.
        """
        out = []
        for name in ("announce_gone", "false_card_accepted", "last_cards", "first_player", "max_turns"):
            value = getattr(self, name)
            out.append({"parameter": name, "value": value, "text": _ASSUMPTION_TEXT[name].format(value=value)})
        for name in ("deal", "empty_after_discard", "lowest_card", "timeout_add_or_burn"):
            out.append({"parameter": name, "value": "fixed", "text": _ASSUMPTION_TEXT[name]})
        return out


def _first_player(value: Any, players: int) -> str:
    """``first_player`` checked: ``"random"`` or ``"seatN"`` with N a seat of this player count."""
    seats = [f"{SEAT_PREFIX}{s}" for s in range(players)]
    if value == RANDOM_FIRST or value in seats:
        return value
    raise p.ParameterError(SHORT_NAME, "first_player", value, f"'{RANDOM_FIRST}' or a seat, one of {', '.join(seats)}")
