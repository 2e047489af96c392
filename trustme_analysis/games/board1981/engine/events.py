"""The events of Trust Me (1981): every kind, its fields and their types, in one place.

The engine logs an event as a tuple ``(kind, value, ...)`` with the values in the order of :data:`EVENTS`;
``state.snapshot()["events"]`` turns each into a dict ``{"kind": kind, field: value, ...}`` through
:func:`event_dict`, which writes every value by its field's type (a property by its name, a space by its id, a card
by its name). The records, the statistics, the narration and the tests read the dicts by these names.

Field types: ``player`` (seat number), ``property`` (name), ``space`` (space id), ``payoff`` (Payoff card name),
``trust_card`` (Trust Me card name), ``decision`` (investing decision label: ``hold``, ``buy 5``, ``buy max``,
``divest 1``, ``divest all``), ``int``, ``bool``, ``text``.

========================  ================================================  ===================================
kind                      fields                                            when
========================  ================================================  ===================================
``first_player``          player                                            the roll for who goes first
``peek``                  player, property                                  the optional look before play
``turn``                  turn, player                                      a turn starts
``roll``                  player, roll                                      the die roll of a turn
``move``                  player, space                                     the piece moves
``look``                  player, property                                  looks under a briefcase (colored space)
``claim_unseen``          player, property                                  claims on a colored space
``claim_looked``          player, property                                  claims the property looked at last turn
``decline``               player, property                                  neither looks nor claims
``hot_tip``               player, property                                  looks under a briefcase at a Hot Tip
``send_wgc``              by, player, space                                 sends a piece to a Wild Goose Chase
``claim_transfer``        from, to, property                                a claim changes hands
``claim_removed``         player, property                                  a claim marker is removed
``trust_reshuffle``       (none)                                            the Trust Me pile is reshuffled
``card``                  player, card                                      a Trust Me card is drawn
``bamboozled``            player, roll, escaped                             the roll after a Bamboozled card
``challenge``             challenger, defender                              a Challenge is made
``roll_off``              challenger, challenger_roll, defender,            one roll-off of a Challenge
                          defender_roll
``investing``             claimant, property                                an investing round starts
``invest``                player, decision, money_change, shares_change     one investing decision
``reveal``                claimant, property, card                          the briefcase is turned over
``payoff``                player, money, shares_change                      a holder's payoff row
``reserve_paid``          player, amount                                    the claimant takes the reserve
``end``                   reason (``two_cases_left`` / ``turn_cap``)        the game ends
========================  ================================================  ===================================

The investing round alone (``trustme_1981_investment``) logs ``invest`` (the same fields) and ``reveal``
(claimant, card): :data:`INVESTMENT_EVENTS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from trustme_analysis.games.board1981.engine.board import Board
from trustme_analysis.games.board1981.engine.investing import PAYOFF_NAMES, InvestingRules


class Field(NamedTuple):
    """One field of an event: its key in the event dict and its type (see the module docstring)."""

    name: str
    type: str


def _fields(*spec: str) -> tuple[Field, ...]:
    out = []
    for item in spec:
        name, _, kind = item.partition(":")
        out.append(Field(name, kind or name))
    return tuple(out)


# Event kinds (the ``kind`` of each event dict).
FIRST_PLAYER, PEEK, TURN, ROLL, MOVE = "first_player", "peek", "turn", "roll", "move"
LOOK, CLAIM_UNSEEN, CLAIM_LOOKED, DECLINE, HOT_TIP = "look", "claim_unseen", "claim_looked", "decline", "hot_tip"
SEND_WGC, CLAIM_TRANSFER, CLAIM_REMOVED = "send_wgc", "claim_transfer", "claim_removed"
TRUST_RESHUFFLE, CARD, BAMBOOZLED = "trust_reshuffle", "card", "bamboozled"
CHALLENGE, ROLL_OFF = "challenge", "roll_off"
INVESTING, INVEST, REVEAL, PAYOFF, RESERVE_PAID, END = "investing", "invest", "reveal", "payoff", "reserve_paid", "end"

_CHOICE_AT_PROPERTY = _fields("player", "property")

#: Every event kind of ``trustme_1981`` and its fields, in the order the engine logs their values.
EVENTS: dict[str, tuple[Field, ...]] = {
    FIRST_PLAYER: _fields("player"),
    PEEK: _CHOICE_AT_PROPERTY,
    TURN: _fields("turn:int", "player"),
    ROLL: _fields("player", "roll:int"),
    MOVE: _fields("player", "space"),
    LOOK: _CHOICE_AT_PROPERTY,
    CLAIM_UNSEEN: _CHOICE_AT_PROPERTY,
    CLAIM_LOOKED: _CHOICE_AT_PROPERTY,
    DECLINE: _CHOICE_AT_PROPERTY,
    HOT_TIP: _CHOICE_AT_PROPERTY,
    SEND_WGC: _fields("by:player", "player", "space"),
    CLAIM_TRANSFER: _fields("from:player", "to:player", "property"),
    CLAIM_REMOVED: _fields("player", "property"),
    TRUST_RESHUFFLE: (),
    CARD: _fields("player", "card:trust_card"),
    BAMBOOZLED: _fields("player", "roll:int", "escaped:bool"),
    CHALLENGE: _fields("challenger:player", "defender:player"),
    ROLL_OFF: _fields("challenger:player", "challenger_roll:int", "defender:player", "defender_roll:int"),
    INVESTING: _fields("claimant:player", "property"),
    INVEST: _fields("player", "decision", "money_change:int", "shares_change:int"),
    REVEAL: _fields("claimant:player", "property", "card:payoff"),
    PAYOFF: _fields("player", "money:int", "shares_change:int"),
    RESERVE_PAID: _fields("player", "amount:int"),
    END: _fields("reason:text"),
}

#: The events of ``trustme_1981_investment`` (the investing round alone).
INVESTMENT_EVENTS: dict[str, tuple[Field, ...]] = {
    INVEST: EVENTS[INVEST],
    REVEAL: _fields("claimant:player", "card:payoff"),
}

#: The kinds in which a player looks under a briefcase.
LOOK_KINDS = (LOOK, HOT_TIP, PEEK)


def trust_card_name(card: int, num_properties: int, property_names: Sequence[str]) -> str:
    """The name of Trust Me card ``card``: ``move to <property>``, ``Bamboozled`` or ``Challenge Another Player``."""
    if card < num_properties:
        return f"move to {property_names[card]}"
    return "Bamboozled" if card == num_properties else "Challenge Another Player"


class EventWriter:
    """Writes logged event tuples as dicts, each value by its field's type.

    Args:
        schema: :data:`EVENTS` or :data:`INVESTMENT_EVENTS`.
        investing: the investing decisions (for ``decision`` fields).
        board: the board (for ``property``, ``space`` and ``trust_card`` fields); ``None`` for the round alone.
    """

    def __init__(self, schema: dict[str, tuple[Field, ...]], investing: InvestingRules, board: Board | None = None):
        self.schema = schema
        self.investing = investing
        self.board = board

    def _value(self, kind: str, value: Any) -> Any:
        b = self.board
        if kind == "property":
            return b.property_names[value]
        if kind == "space":
            return b.space_ids[value]
        if kind == "payoff":
            return PAYOFF_NAMES[value]
        if kind == "trust_card":
            return trust_card_name(value, b.num_properties, b.property_names)
        if kind == "decision":
            return self.investing.label(value)
        if kind == "bool":
            return bool(value)
        return value

    def event_dict(self, event: tuple) -> dict[str, Any]:
        """``{"kind": kind, field: value, ...}`` of one logged event ``(kind, value, ...)``."""
        kind = event[0]
        fields = self.schema[kind]
        if len(fields) != len(event) - 1:
            raise ValueError(f"event {kind!r} logged with {len(event) - 1} values; its fields are "
                             f"{[f.name for f in fields]}")
        out: dict[str, Any] = {"kind": kind}
        for f, value in zip(fields, event[1:]):
            out[f.name] = self._value(f.type, value)
        return out
