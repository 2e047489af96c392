"""The events of a ``trustme_liar`` game, declared once: their kinds, their fields, and how each is written.

The engine logs every event as an immutable tuple ``(kind, *fields)`` (0-based values; cheap to copy when a state is
cloned). :func:`to_dict` turns one into the plain dict of ``state.snapshot()["events"]``: the key ``"kind"`` and the
fields below, values numbered ``1..values`` as people read them. Records, statistics and the tests read those dicts;
:func:`info_string` writes one event as a player sees it in their information state.

=================  ===================================================================  ==============================
kind               fields of the dict (besides ``kind``)                                when
=================  ===================================================================  ==============================
``first_player``   ``player``                                                           the first round's starter is
                                                                                        known (a fixed seat: at once;
                                                                                        ``random``: the chance node)
``discard``        ``player``, ``cards`` (the pairs discarded face up)                  the set-up, one per seat
``play``           ``player``, ``announced``, ``count``, ``cards`` (the true cards,     a play of 1 to ``max_play``
                   seen by the player only), ``false`` (cards not of the announced      cards face down
                   value)
``pass``           ``player``                                                           a player plays nothing
``liar``           ``accuser``, ``player`` (the accused), ``announced``, ``cards``      a challenge: the last play is
                   (turned over, public), ``false``, ``caught`` (``false > 0``),        turned over and the pile
                   ``picked_up_by``, ``pile_size``, ``pile_cards`` (seen by the         picked up
                   picker only)
``burn``           ``player``, ``pile_size``                                            the last player burns the pile
``out``            ``player``                                                           a player has gone out
``turn_cap``       (none)                                                               the game is stopped by the cap
=================  ===================================================================  ==============================
"""

from __future__ import annotations

from typing import Any

from trustme_analysis.games.liar.engine.plays import labels

FIRST_PLAYER = "first_player"
DISCARD = "discard"
PLAY = "play"
PASS = "pass"
LIAR = "liar"
BURN = "burn"
OUT = "out"
TURN_CAP = "turn_cap"

#: Every event kind -> the fields of its dict, in order (after ``"kind"``).
FIELDS: dict[str, tuple[str, ...]] = {
    FIRST_PLAYER: ("player",),
    DISCARD: ("player", "cards"),
    PLAY: ("player", "announced", "count", "cards", "false"),
    PASS: ("player",),
    LIAR: ("accuser", "player", "announced", "cards", "false", "caught", "picked_up_by", "pile_size", "pile_cards"),
    BURN: ("player", "pile_size"),
    OUT: ("player",),
    TURN_CAP: (),
}
KINDS = tuple(FIELDS)
#: The kinds that are a player's turn (each counts one turn; the score traces follow them).
TURNS = (PLAY, PASS, LIAR, BURN)


# --- the engine's tuples (0-based values) ----------------------------------------------------------------------


def first_player(player: int) -> tuple:
    return (FIRST_PLAYER, player)


def discard(player: int, cards: tuple[int, ...]) -> tuple:
    return (DISCARD, player, cards)


def play(player: int, announced: int, cards: tuple[int, ...], false: int) -> tuple:
    return (PLAY, player, announced, cards, false)


def pass_(player: int) -> tuple:
    return (PASS, player)


def liar(accuser: int, player: int, announced: int, cards: tuple[int, ...], false: int, picker: int,
         pile_cards: tuple[int, ...]) -> tuple:
    return (LIAR, accuser, player, announced, cards, false, picker, pile_cards)


def burn(player: int, pile_size: int) -> tuple:
    return (BURN, player, pile_size)


def out(player: int) -> tuple:
    return (OUT, player)


def turn_cap() -> tuple:
    return (TURN_CAP,)


# --- how events are read ---------------------------------------------------------------------------------------


def _one_based(cards: tuple[int, ...]) -> list[int]:
    return [v + 1 for v in cards]


def to_dict(event: tuple) -> dict[str, Any]:
    """The snapshot's dict of one event (fields as in :data:`FIELDS`, values ``1..values``)."""
    kind = event[0]
    if kind == PLAY:
        _, player, announced, cards, false = event
        values: tuple = (player, announced + 1, len(cards), _one_based(cards), false)
    elif kind == LIAR:
        _, accuser, player, announced, cards, false, picker, taken = event
        values = (accuser, player, announced + 1, _one_based(cards), false, bool(false), picker, len(taken),
                  _one_based(taken))
    elif kind == DISCARD:
        values = (event[1], _one_based(event[2]))
    else:
        values = event[1:]
    return {"kind": kind, **dict(zip(FIELDS[kind], values, strict=True))}


def info_string(event: tuple, viewer: int | None) -> str:
    """One event as ``viewer`` saw it, for information-state strings (``None``: what everyone saw).

    A play shows its cards to its player only; a challenge shows the turned-over cards to all and the pile's cards to
    the picker only.
    """
    kind = event[0]
    if kind == DISCARD:
        return f"D{event[1]}[{labels(event[2])}]"
    if kind == PLAY:
        _, player, announced, cards, _ = event
        own = f"[{labels(cards)}]" if player == viewer else ""
        return f"P{player}:{len(cards)}x{announced + 1}{own}"
    if kind == PASS:
        return f"-{event[1]}"
    if kind == LIAR:
        _, accuser, player, _, cards, false, picker, taken = event
        seen = f"[{labels(taken)}]" if picker == viewer else ""
        return f"L{accuser}>{player}[{labels(cards)}]{'F' if false else 'T'}^{picker}:{len(taken)}{seen}"
    if kind == BURN:
        return f"B{event[1]}:{event[2]}"
    if kind == OUT:
        return f"O{event[1]}"
    if kind == FIRST_PLAYER:
        return f"S{event[1]}"
    return "cap"
