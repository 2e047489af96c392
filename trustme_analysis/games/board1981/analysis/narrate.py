"""Trust Me (1981)'s events in the rulebook's words, for ``python -m trustme_analysis.play`` (the registry's
``narrate``). The events and their fields: :mod:`~trustme_analysis.games.board1981.engine.events`.
"""

from __future__ import annotations

from typing import Any

from trustme_analysis.games.board1981.engine import events as E


def narrate(event: dict[str, Any]) -> str | None:
    """One event as a sentence; ``None`` for a kind this module does not know.

    >>> narrate({"kind": "invest", "player": 1, "decision": "buy 5", "money_change": -5, "shares_change": 5})
    'Player 1 invests: buy 5 (money -5, shares +5).'
    >>> narrate({"kind": "reveal", "claimant": 0, "property": "Gold Mine", "card": "Empty Briefcase"})
    'Player 0 turns over the briefcase on Gold Mine: Empty Briefcase.'
    """
    kind = event.get("kind")
    p = event.get("player")
    prop = event.get("property")
    if kind == E.FIRST_PLAYER:
        return f"Player {p} rolls highest and goes first."
    if kind == E.PEEK:
        return f"Player {p} secretly looks beneath the briefcase on {prop} (optional rule)."
    if kind == E.TURN:
        return f"Turn {event['turn']}: player {p}."
    if kind == E.ROLL:
        return f"Player {p} rolls a {event['roll']}."
    if kind == E.MOVE:
        return f"Player {p} moves to {event['space']}."
    if kind == E.LOOK:
        return f"Player {p} secretly looks beneath the briefcase on {prop}; the turn ends."
    if kind == E.CLAIM_UNSEEN:
        return f"Player {p} claims {prop} and rolls again."
    if kind == E.CLAIM_LOOKED:
        return f"Player {p} claims {prop}, looked at last turn."
    if kind == E.DECLINE:
        return f"Player {p} neither looks beneath nor claims {prop}."
    if kind == E.HOT_TIP:
        return f"Hot Tip: player {p} looks beneath the briefcase on {prop}."
    if kind == E.SEND_WGC:
        who = "itself" if event["by"] == p else f"player {p}"
        return f"Player {event['by']} sends {who} on a Wild Goose Chase to {event['space']}."
    if kind == E.CLAIM_TRANSFER:
        return f"The claim on {prop} passes from player {event['from']} to player {event['to']}."
    if kind == E.CLAIM_REMOVED:
        return f"Player {p}'s claim marker is removed from {prop}."
    if kind == E.TRUST_RESHUFFLE:
        return "The Trust Me cards are reshuffled into a new draw pile."
    if kind == E.CARD:
        return f"Player {p} draws a Trust Me card: {event['card']}."
    if kind == E.BAMBOOZLED:
        outcome = "escapes" if event["escaped"] else "fails"
        return f"Bamboozled: player {p} rolls a {event['roll']} and {outcome}."
    if kind == E.CHALLENGE:
        return f"Player {event['challenger']} challenges player {event['defender']} for its claim."
    if kind == E.ROLL_OFF:
        return (f"Roll-off: player {event['challenger']} rolls {event['challenger_roll']}, player "
                f"{event['defender']} rolls {event['defender_roll']}.")
    if kind == E.INVESTING:
        return f"Player {event['claimant']} is at the Trust Me Investment Company with a claim on {prop}: investing."
    if kind == E.INVEST:
        return (f"Player {p} invests: {event['decision']} (money {event['money_change']:+d}, shares "
                f"{event['shares_change']:+d}).")
    if kind == E.REVEAL:
        where = f" on {prop}" if prop else ""
        return f"Player {event['claimant']} turns over the briefcase{where}: {event['card']}."
    if kind == E.PAYOFF:
        return f"Player {p} is paid ${event['money']} (shares {event['shares_change']:+d})."
    if kind == E.RESERVE_PAID:
        return f"Player {p} takes ${event['amount']} from the reserve account."
    if kind == E.END:
        why = "only two briefcases remain" if event["reason"] == "two_cases_left" else "the turn cap is reached"
        return f"The game ends: {why}."
    return None
