"""The investing round of Trust Me (1981) in the rulebook's words, for the pages of a solved round: what a player
knows at its decision, its actions, the strategy tables' columns, and findings about a solved policy.

The registry's ``describe`` part of ``trustme_1981_investment`` (see :mod:`trustme_analysis.registry`). A decision is
described from a representative state of its information state, reading only what the deciding player knows: its
role, whether it looked under the claimed briefcase and what it saw, who else looked (public at the table: "Remember
who has seen what"), the decisions taken before it, money, shares and the reserve account.
"""

from __future__ import annotations

import re

import pandas as pd
import pyspiel

from trustme_analysis.games.board1981.engine import events as E
from trustme_analysis.games.board1981.engine.investing import PAYOFF_NAMES
from trustme_analysis.report.words import number, percent

#: The Payoff cards by their short names (the strategy tables' ``saw one`` ...), in the rulebook's words.
CARD_WORDS = {"one": "One Stack of Bills", "two": "Two Stacks of Bills", "empty": "an Empty Briefcase",
              "had": "You've Been Had!"}


def _done(decision: str) -> str:
    """A decision taken, in the past tense: "bought 5 shares", "held", "divested all"."""
    verb, _, amount = decision.replace("_", " ").partition(" ")
    if verb == "hold":
        return "held"
    past = {"buy": "bought", "divest": "divested"}.get(verb, verb)
    if amount.isdigit():
        return f"{past} {amount} share{'s' if amount != '1' else ''}"
    return f"{past} {amount}".strip()


def _seats(seats: list[int]) -> str:
    names = [str(q) for q in seats]
    return "seat " + names[0] if len(names) == 1 else "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def info_state(state: pyspiel.State, player: int) -> str:
    """What ``player`` knows at its decision in ``state``: "investor (seat 1), has not looked, first to decide; the
    claimant has looked; $10 and 10 shares"."""
    snap = state.snapshot()
    claimant = snap["claimant"]
    role = "claimant" if player == claimant else "investor"
    if snap["seen"][player]:
        looked = f"has looked: {PAYOFF_NAMES[PAYOFF_NAMES.index(snap['card'])]}"
    else:
        looked = "has not looked"
    decisions = [e for e in snap["events"] if e["kind"] == E.INVEST]
    parts = [f"{role} (seat {player}), {looked}" + ("" if decisions else ", first to decide")]
    others = [q for q in range(len(snap["seen"])) if q != player]
    looked_others = [q for q in others if snap["seen"][q]]
    if len(others) == 1:
        q = others[0]
        who = "the claimant" if q == claimant else "the investor"
        parts.append(f"{who} {'has looked' if snap['seen'][q] else 'has not looked'}")
    elif looked_others:
        verb = "has" if len(looked_others) == 1 else "have"
        parts.append(f"{_seats(looked_others)} {verb} looked, not the others")
    else:
        parts.append("nobody else has looked")
    for e in decisions:
        parts.append(f"seat {e['player']} {_done(e['decision'])}")
    parts.append(f"${snap['money'][player]} and {snap['shares'][player]} shares")
    if snap["reserve"]:
        parts.append(f"reserve ${snap['reserve']}")
    return "; ".join(parts)


def action(state: pyspiel.State, player: int, action: int) -> str:
    """An investing decision: "buy 5 shares", "divest 10 shares", "divest all", "hold"."""
    text = state.action_to_string(player, action)
    verb, _, amount = text.partition(" ")
    if verb in ("buy", "divest") and amount.isdigit():
        return f"{verb} {amount} share{'s' if amount != '1' else ''}"
    return text.replace("_", " ")


#: Each strategy-table column: its header in words and its unit (a "share" is printed as a percentage).
COLUMNS: dict[str, tuple[str, str]] = {
    "player": ("seat", "seat"),
    "role": ("role", ""),
    "knowledge": ("what the player saw", ""),
    "earlier": ("decisions before it", ""),
    "reach": ("rounds reaching it", "share"),
    "buy_rate": ("buys", "share"),
    "hold_rate": ("holds", "share"),
    "divest_rate": ("divests", "share"),
    "shares_bought": ("shares bought", "shares"),
    "shares_divested": ("shares divested", "shares"),
    "net_shares": ("net shares bought", "shares"),
    "claimant": ("claimant's seat", "seat"),
    "condition": ("when", ""),
    "probability": ("chance", "share"),
    "expected_reserve": ("reserve the claimant receives", "dollars"),
    "value": ("value to the seat", "dollars"),
}

#: Title and note of each strategy table (the solve pages' words for it).
TABLES: dict[str, dict[str, str]] = {
    "invest_by_knowledge": {
        "title": "buying and divesting by what the player saw",
        "note": "Per seat and what it saw under the claimed briefcase (saw one = One Stack of Bills, two = Two "
                "Stacks, empty = Empty Briefcase, had = You've Been Had!; not seen = did not look): how often it "
                "buys, holds or divests, weighted by how often play reaches the decision.",
    },
    "invest_by_signal": {
        "title": "buying and divesting by what the player saw and the decisions before it",
        "note": "As the table before, split further by the earlier investors' decisions (whether each had looked "
                "is public at the table).",
    },
    "claimant_gain": {
        "title": "what the claimant gains from the others' trust",
        "note": "The reserve account the claimant collects (the money the others paid for shares in its claim), "
                "overall, by the Payoff card truly in the briefcase, and by whether the claimant had looked.",
    },
    "seat_value": {
        "title": "value of each seat",
        "note": "Each seat's expected result under the solved policy, in the game's utility.",
    },
}


def _knowledge_words(value: str) -> str:
    if value == "not seen":
        return "has not looked"
    return "saw " + CARD_WORDS.get(value.removeprefix("saw "), value)


_EARLIER = re.compile(r"^p(\d+) \((looked|did not look)\): (.+)$")


def _earlier_words(value: str) -> str:
    """``p1 (looked): buy 10; p2 (did not look): hold`` -> "seat 1 (had looked) bought 10 shares; seat 2 (had not
    looked) held"."""
    if value == "none":
        return "none (first to decide)"
    parts = []
    for part in value.split("; "):
        m = _EARLIER.match(part)
        if m is None:
            parts.append(part.replace("_", " "))
            continue
        looked = "had looked" if m.group(2) == "looked" else "had not looked"
        parts.append(f"seat {m.group(1)} ({looked}) {_done(m.group(3))}")
    return "; ".join(parts)


def cell(column: str, value) -> str | None:
    """A key cell in words (``saw had`` -> "saw You've Been Had!"), or ``None`` to print it as it is."""
    if column == "knowledge" and isinstance(value, str):
        return _knowledge_words(value)
    if column == "earlier" and isinstance(value, str):
        return _earlier_words(value)
    if column == "condition" and isinstance(value, str) and value.startswith("card "):
        return "the briefcase holds " + CARD_WORDS.get(value.removeprefix("card "), value)
    return None


def strategy_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """What rational players do, from the stored strategy tables: the investor who has not looked, the one who saw
    You've Been Had!, and what the claimant collects."""
    out: list[str] = []
    inv = tables.get("invest_by_knowledge")
    if inv is not None and len(inv):
        investors = inv[inv["role"] == "investor"]
        blind = investors[investors["knowledge"] == "not seen"]
        had = investors[investors["knowledge"] == "saw had"]
        if len(blind):
            r = blind.iloc[0]
            verb = max(("buys", r["buy_rate"]), ("holds", r["hold_rate"]), ("divests", r["divest_rate"]),
                       key=lambda t: t[1])
            out.append(f"At equilibrium an investor who has not looked {verb[0]} {percent(verb[1])} of the time "
                       f"(buys {percent(r['buy_rate'])}, holds {percent(r['hold_rate'])}, divests {percent(r['divest_rate'])})"
                       + (f"; one who saw You've Been Had! divests {percent(had.iloc[0]['divest_rate'])} of the time."
                          if len(had) else "."))
        claimant = inv[(inv["role"] == "claimant") & (inv["knowledge"] == "not seen")]
        if len(claimant):
            r = claimant.iloc[0]
            out.append(f"A claimant who has not looked buys into its own claim {percent(r['buy_rate'])} of the time, "
                       f"{number(r['shares_bought'])} shares on average.")
    gain = tables.get("claimant_gain")
    if gain is not None and len(gain):
        row = gain[gain["condition"] == "all"]
        if len(row):
            out.append(f"The claimant collects ${number(row.iloc[0]['expected_reserve'])} of reserve on average from the "
                       "others' trust.")
    return out
