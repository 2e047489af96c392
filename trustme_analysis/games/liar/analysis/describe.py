"""Liar in the rule text's words, for the pages of a solved variant: what a player knows at its decision, its
actions, the strategy tables' columns, and findings about a solved policy.

The registry's ``describe`` part of ``trustme_liar`` (see :mod:`trustme_analysis.registry`). A decision is described
from a representative state of its information state through
:meth:`~trustme_analysis.games.liar.engine.state.LiarState.player_view`, which holds only what the deciding player sees: its
hand, the hand sizes, the public pair discards, the round's value, the pile and the play open to a challenge.
"""

from __future__ import annotations

import pandas as pd
import pyspiel

from trustme_analysis.games.liar.engine.plays import BURN, LIAR, PASS
from trustme_analysis.report.words import percent

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_PHASES = {
    "start": "starts a round",
    "respond": "answers a play",
    "add_or_burn": "may add to its own play or burn the pile (everyone else passed)",
    "last_cards": "may challenge a player's last cards",
}


def _count(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def cards(values) -> str:
    """Cards by value (a list of values 1..): "a 1 and two 3s"."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    parts = [f"a {v}" if n == 1 else f"{_count(n)} {v}s" for v, n in sorted(counts.items())]
    if not parts:
        return "no card"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _held(counts) -> str:
    return cards([v for v, n in enumerate(counts, start=1) for _ in range(n)])


def info_state(state: pyspiel.State, player: int) -> str:
    """What ``player`` knows at its decision: "seat 1 answers a play: seat 0 played one card as a 2; holds a 1 and a 3;
    the others hold 2 cards; pairs discarded: two 2s"."""
    view = state.player_view(player)
    parts = [f"seat {player} {_PHASES.get(view['phase'], view['phase'])}"]
    last = view["last"]
    if last is not None and view["round_value"] is not None:
        who, n = last
        parts.append(f"seat {who} played {_count(n)} card{'s' if n != 1 else ''} as {view['round_value']}s"
                     if n != 1 else f"seat {who} played one card as a {view['round_value']}")
    if view["pile_size"]:
        parts.append(f"{view['pile_size']} card{'s' if view['pile_size'] != 1 else ''} in the pile")
    parts.append(f"holds {_held(view['hand'])}")
    parts += [f"seat {p} has {n} card{'s' if n != 1 else ''}" for p, n in enumerate(view["hand_sizes"])
              if p != player]
    discarded = _held(view["discarded"])
    if discarded != "no card":
        parts.append(f"pairs discarded: {discarded}")
    return "; ".join(parts)


def action(state: pyspiel.State, player: int, action: int) -> str:
    """A decision: "play a 1 and a 2 as two 3s (a bluff)", "call liar", "pass", "burn the pile"."""
    if action == LIAR:
        return "call liar"
    if action == PASS:
        return "pass"
    if action == BURN:
        return "burn the pile"
    played, announced = state.get_game().play_table.decode_play(action)
    values = [v + 1 for v in played]
    n = len(values)
    claim = f"a {announced + 1}" if n == 1 else f"{_count(n)} {announced + 1}s"
    honest = all(v == announced + 1 for v in values)
    return f"play {cards(values)} as {claim}" + ("" if honest else " (a bluff)")


#: Each strategy-table column: its header in words and its unit (a "share" is printed as a percentage).
COLUMNS: dict[str, tuple[str, str]] = {
    "phase": ("when", ""),
    "claim_size": ("cards played", ""),
    "play_reach": ("such plays per game", "plays"),
    "bluff_share": ("share that are bluffs", "share"),
    "false_cards_per_play": ("false cards per play", "cards"),
    "hand_size": ("cards in hand", ""),
    "held_of_value": ("cards held of the round's value", ""),
    "reach": ("decisions per game", "decisions"),
    "play_rate": ("plays", "share"),
    "bluff_rate": ("bluffs", "share"),
    "bluff_share_of_plays": ("bluffs among its plays", "share"),
    "public_count": ("copies of the value not yet discarded", ""),
    "unseen": ("copies the player cannot see", ""),
    "challenge_rate": ("calls liar", "share"),
    "reach_honest": ("honest claims per game", "claims"),
    "challenge_rate_honest": ("calls liar on an honest claim", "share"),
    "reach_bluff": ("bluffing claims per game", "claims"),
    "challenge_rate_bluff": ("calls liar on a bluff", "share"),
    "player": ("seat", "seat"),
    "first": ("starts the first round", ""),
    "decision_reach": ("reaches its first decision", "share"),
    "setup_end": ("game ends at the set-up", "share"),
    "value": ("value to the seat", "utility"),
    "mode": ("scoring", ""),
    "utility": ("utility", ""),
    "first_seat_value": ("value of the first seat", "utility"),
    "first_seat_advantage": ("value of going first", "utility"),
}

#: Title and note of each strategy table (the solve pages' words for it).
TABLES: dict[str, dict[str, str]] = {
    "bluff_by_claim_size": {
        "title": "bluffing by claim size",
        "note": "When the player starts a round, answers a play, or may add to its own: how often it makes a play of "
                "each size, and the share of those plays that hold a false card.",
    },
    "bluff_by_hand": {
        "title": "bluffing by hand",
        "note": "By cards in hand and cards held of the round's value (none when starting: any value may be "
                "announced): how often the player plays and how often it bluffs.",
    },
    "challenge_rate": {
        "title": "calling liar",
        "note": "Where liar may be called, by the copies of the announced value not yet discarded and the size of "
                "the claim: how often liar is called, overall and when the claim is in truth honest or a bluff (the "
                "truth is read afterwards; the caller cannot see it).",
    },
    "seat_value": {
        "title": "value of each seat",
        "note": "Each seat's expected result under the solved policy, in the game's utility.",
    },
    "summary": {
        "title": "summary",
        "note": "The scoring, the share of plays that are bluffs, how often liar is called, and the value of going "
                "first (the first seat's value minus the others' mean).",
    },
}

_PHASE_CELLS = {"start": "starting a round", "respond": "answering a play", "add_or_burn": "adding or burning",
                "last_cards": "after last cards"}


def cell(column: str, value) -> str | None:
    """Key cells in words: the phase, the scoring mode, "any" for the value count of a round start."""
    if column == "phase" and isinstance(value, str):
        return _PHASE_CELLS.get(value, value.replace("_", " "))
    if column == "mode" and isinstance(value, str):
        return {"classique": "Classique", "trustme": "Trust Me"}.get(value, value)
    if column == "held_of_value" and value == -1:
        return "any"
    return None


def strategy_findings(tables: dict[str, pd.DataFrame]) -> list[str]:
    """How rational players bluff and call liar, from the stored strategy tables."""
    out: list[str] = []
    summary = tables.get("summary")
    if summary is not None and len(summary):
        r = summary.iloc[0]
        out.append(f"At equilibrium {percent(r['bluff_share_of_plays'])} of plays are bluffs and liar is called at "
                   f"{percent(r['challenge_rate'])} of the chances.")
    sizes = tables.get("bluff_by_claim_size")
    if sizes is not None and len(sizes):
        start = sizes[sizes["phase"] == "start"]
        parts = [f"{int(r.claim_size)} card{'s' if r.claim_size != 1 else ''}: {percent(r.bluff_share)} bluffs"
                 for r in start.itertuples()]
        if parts:
            out.append("Starting a round, plays of " + "; ".join(parts) + ".")
    calls = tables.get("challenge_rate")
    if calls is not None and len(calls) and calls["reach_bluff"].gt(0).any():
        # The most often reached challenge situation, in words.
        r = calls.loc[calls["reach"].idxmax()]
        honest = r["challenge_rate_honest"]
        out.append(f"In the most common challenge situation ({int(r['claim_size'])} card(s) claimed, "
                   f"{int(r['public_count'])} copies not yet discarded) liar is called on "
                   f"{percent(r['challenge_rate_bluff'])} of bluffs"
                   + ("" if pd.isna(honest) else f" and {percent(honest)} of honest claims") + ".")
    return out
