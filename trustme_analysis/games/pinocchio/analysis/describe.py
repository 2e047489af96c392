"""Pinocchio in the rulebook's words, for the pages of a solved variant: what a player knows at its decision, its
actions, the strategy tables' columns, and findings about a solved policy.

The registry's ``describe`` part of ``trustme_pinocchio`` (see :mod:`trustme_analysis.registry`). A decision is
described from a representative state of its information state through
:meth:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState.observation_parts`, which holds only what the deciding
player sees: its hand, the Park, the Tickets, the deck, the tale on the table and the votes it may see.
"""

from __future__ import annotations

import pandas as pd
import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A
from trustme_analysis.games.pinocchio.engine.state import PHASE_NAMES
from trustme_analysis.report.words import percent

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def characters(counts) -> str:
    """Characters held, by value: "a 2 and two 3s", "nothing"."""
    parts = []
    for value, n in enumerate(counts, start=1):
        if n == 1:
            parts.append(f"a {value}")
        elif n > 1:
            parts.append(f"{_count(n)} {value}s")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _tickets(counts) -> str:
    held = [f"{n}x{v}" if n > 1 else str(v) for v, n in enumerate(counts, start=1) if n]
    return ("Tickets " + ", ".join(held)) if held else "no Ticket"


def info_state(state: pyspiel.State, player: int) -> str:
    """What ``player`` knows at its decision: "seat 0's turn: holds a 2 and a 3; the Park shows a 1; Tickets: seat 0
    none, seat 1 a 2; 4 Characters in the deck"."""
    o = state.observation_parts(player)
    phase = PHASE_NAMES[o["phase"]]
    active = o["active"]
    parts = []
    if phase == "action":
        parts.append(f"seat {player}'s turn")
    elif phase == "vote":
        parts.append(f"seat {player} votes on seat {active}'s tale: a face-down Character said to be the Park's "
                     f"{o['tale_park']}")
        seen = [f"seat {p} {'trusts' if v else 'does not trust'}" for p, v in enumerate(o["votes"])
                if v is not None and p != player]
        if seen:
            parts.append("; ".join(seen))
    elif phase == "coin_offer":
        parts.append(f"seat {player} may toss the Coin on seat {active}'s tale (the Park's {o['tale_park']})")
    elif phase == "free_reputation":
        parts.append(f"seat {player}'s free Reputation (the deck ran out)")
    else:
        parts.append(f"seat {player}, {phase.replace('_', ' ')}")
    if o["tale_hidden"] and active == player:
        parts.append(f"its own tale hides a {o['tale_hidden']}")
    parts.append(f"holds {characters(o['hand'])}")
    parts.append(f"the Park shows {characters(o['park'])}")
    if any(any(t) for t in o["tickets"]):
        parts.append(", ".join(f"seat {p} {_tickets(t)}" for p, t in enumerate(o["tickets"])))
    else:
        parts.append("no Tickets taken yet")
    n = o["deck_size"]
    parts.append(f"{n} Character{'s' if n != 1 else ''} left in the deck" if n else "the deck is empty")
    return "; ".join(parts)


def action(state: pyspiel.State, player: int, action: int) -> str:
    """A decision in words: "tell a tall tale: a 3 face down as the Park's 1", "take the Park's 2 (playing a 1)"."""
    m = state.get_game().codec.decode(action)
    if m.kind == A.TALE:
        kind = "a tall tale" if m.tall else "a true tale"
        return f"tell {kind}: a {m.hand} face down as the Park's {m.park}"
    if m.kind == A.TAKE:
        return f"take the Park's {m.park} (playing a {m.hand})"
    return state.action_to_string(player, action)


#: Each strategy-table column: its header in words and its unit (a "share" is printed as a percentage).
COLUMNS: dict[str, tuple[str, str]] = {
    "player": ("seat", "seat"),
    "voter": ("voting seat", "seat"),
    "turn_reach": ("turns with a tale possible, per game", "turns"),
    "decision_reach": ("such turns per game", "turns"),
    "vote_reach": ("votes per game", "votes"),
    "available_reach": ("times available per game", "times"),
    "tale_rate": ("tells a tale", "share"),
    "tall_rate": ("tells a tall tale", "share"),
    "tall_share_of_tales": ("tall share of its tales", "share"),
    "take_rate": ("takes from the Park", "share"),
    "difference": ("card difference of the tall tale", ""),
    "ticket_at_stake": ("Ticket at stake", ""),
    "trust_rate": ("trusts", "share"),
    "trust_rate_true_tale": ("trusts a true tale", "share"),
    "trust_rate_tall_tale": ("trusts a tall tale", "share"),
    "tall_share_of_votes": ("tall tales among the tales voted on", "share"),
    "policy_value": ("value of the policy's own mix", "utility"),
    "best_true_tale": ("value of the best true tale", "utility"),
    "best_tall_tale": ("value of the best tall tale", "utility"),
    "best_take": ("value of the best take", "utility"),
}

#: Title and note of each strategy table (the solve pages' words for it).
TABLES: dict[str, dict[str, str]] = {
    "tale_rate": {
        "title": "tales told per seat",
        "note": "Per seat, at turns where a tale can be told: how often it tells one, how often a tall one, and how "
                "often it takes from the Park instead (weighted by how often play reaches the turn).",
    },
    "tall_by_difference": {
        "title": "tall tales by card difference",
        "note": "How often a tall tale of this card difference (hand value minus the Park's) is told when one is "
                "available.",
    },
    "tall_by_ticket": {
        "title": "tall tales by the Ticket at stake",
        "note": "The Ticket a trusted tall tale would gain (0: none left) and how often such a tale is told.",
    },
    "trust_rate": {
        "title": "trust per voter",
        "note": "Per voter: how often it votes I trust you, overall and when the tale is in truth true or tall (the "
                "truth is hidden from the voter; the split reads it afterwards).",
    },
    "tale_vs_park": {
        "title": "tale or take",
        "note": "At turns where both a tale and a take from the Park are legal: the value to the player of the best "
                "action of each kind and of the policy's mix (expected utility as play continues).",
    },
}


def cell(column: str, value) -> str | None:
    """Key cells in words: "difference 2", "Ticket 3 at stake" ("no Ticket left" for 0)."""
    if column == "difference":
        return f"difference {value}"
    if column == "ticket_at_stake":
        return f"Ticket {value} at stake" if value else "no Ticket left"
    return None


def strategy_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """How rational players tell and trust tales, from the stored strategy tables."""
    out: list[str] = []
    tales = tables.get("tale_rate")
    if tales is not None and len(tales):
        parts = [f"seat {int(r.player)} tells a tale at {percent(r.tale_rate)} of its turns and a tall one at "
                 f"{percent(r.tall_rate)}" for r in tales.itertuples()]
        out.append("At equilibrium " + "; ".join(parts) + ".")
    trust = tables.get("trust_rate")
    if trust is not None and len(trust):
        parts = [f"seat {int(r.voter)} trusts {percent(r.trust_rate_true_tale)} of true tales and "
                 f"{percent(r.trust_rate_tall_tale)} of tall ones" for r in trust.itertuples()]
        out.append("Voting, " + "; ".join(parts) + ".")
    diff = tables.get("tall_by_difference")
    if diff is not None and len(diff) > 1:
        lo, hi = diff.iloc[0], diff.iloc[-1]
        out.append(f"Tall tales of difference {int(lo['difference'])} are told {percent(lo['tall_rate'])} of the "
                   f"times they are available, of difference {int(hi['difference'])} {percent(hi['tall_rate'])}.")
    return out
