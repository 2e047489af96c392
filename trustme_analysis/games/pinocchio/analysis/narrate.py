"""Pinocchio's events in the rulebook's words, for ``python -m trustme_analysis.play`` (the registry's ``narrate``).

The events (``snapshot()["events"]``, key ``kind``): ``first_player`` (player; only with ``first_player=random``),
``turn`` (turn, player, bonus, day), ``tale`` (turn, player,
park_value, hidden_value, tall, votes, coin, coin_by, trusted, row), ``ticket`` (turn, player, value or None,
requested, route: tale / reputation / free_reputation), ``park_take`` (turn, player, value), ``stack_empty`` (turn,
value), ``bonus_turn`` and ``bonus_forfeited`` (turn, player), ``day_end`` (turn), ``game_end`` (turn, trigger:
deck / stacks), ``tie_break`` (players, by: tickets / coin, winner).
"""

from __future__ import annotations

from typing import Any

from trustme_analysis.games.pinocchio.engine.rules import CHARACTER_NAMES, TICKET_NAMES


def _character(value: int) -> str:
    return f"{CHARACTER_NAMES[value - 1]} ({value})" if 1 <= value <= len(CHARACTER_NAMES) else f"Character {value}"


def _ticket(value: int) -> str:
    return f"{TICKET_NAMES[value - 1]} ({value})" if 1 <= value <= len(TICKET_NAMES) else f"Ticket {value}"


def narrate(event: dict[str, Any]) -> str | None:
    """One event as a sentence; ``None`` for a kind this module does not know.

    >>> narrate({"kind": "ticket", "turn": 3, "player": 1, "value": 2, "requested": 3, "route": "tale"})
    'Player 1 gains a Kite (2) Ticket (asked for 3: none of that value was left).'
    """
    kind = event.get("kind")
    p = event.get("player")
    if kind == "first_player":
        return f"Chance picks the first player: player {p} starts."
    if kind == "turn":
        return f"Turn {event['turn']}: player {p}" + (" (bonus turn)" if event["bonus"] else "") + f", {event['day']}."
    if kind == "tale":
        votes = ", ".join(f"player {q} {'trusts' if v else 'does not trust'}" for q, v in enumerate(event["votes"])
                          if v is not None)
        coin = f"; the Coin ({event['coin']}) decides" if event.get("coin") else ""
        truth = "a tall tale" if event["tall"] else "a true tale"
        verdict = "trusted" if event["trusted"] else "not trusted"
        return (f"Player {p} claimed {_character(event['park_value'])}: the face-down card is "
                f"{_character(event['hidden_value'])}, {truth}; {votes}{coin}: {verdict}.")
    if kind == "ticket":
        how = {"tale": "for a trusted tall tale", "reputation": "by using Reputation",
               "free_reputation": "by the free Use Reputation action"}.get(event["route"], "")
        if event["value"] is None:
            return f"Player {p} gains no Ticket (none of value {event['requested']} or lower is left)."
        if event["route"] == "tale" and event["value"] != event["requested"]:
            return (f"Player {p} gains a {_ticket(event['value'])} Ticket (asked for {event['requested']}: none of "
                    "that value was left).")
        return f"Player {p} gains a {_ticket(event['value'])} Ticket {how}."
    if kind == "park_take":
        return f"Player {p} takes {_character(event['value'])} from the Park into its Reputation."
    if kind == "stack_empty":
        return f"The {_ticket(event['value'])} Tickets have run out."
    if kind == "bonus_turn":
        return f"Player {p} proved them wrong: a bonus turn."
    if kind == "bonus_forfeited":
        return f"Player {p}'s bonus turn is lost: the game is over."
    if kind == "day_end":
        return "The Character deck ran out: the day ends, every Reputation is discarded."
    if kind == "game_end":
        why = "the deck ran out for the last time" if event["trigger"] == "deck" else "enough Ticket stacks are empty"
        return f"The game ends: {why}."
    if kind == "tie_break":
        return f"Tie between players {event['players']}: decided by {event['by']}, player {event['winner']} wins."
    return None
