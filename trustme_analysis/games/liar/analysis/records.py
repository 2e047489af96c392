"""Records of ``trustme_liar`` games (Cheat / "Menteur", Classique and Trust Me scoring) for sweeps: one row per seat
of a finished game.

:func:`records` reads only the terminal ``state.snapshot()``: its ``first_player``, its ``events`` (plays, passes,
challenges, burns, going out; kinds and fields in :mod:`~trustme_analysis.games.liar.engine.events`), its ``ranks``, its ``points_by_source`` and ``end``. Hand sizes are followed through the events (cards
played leave a hand, a picked-up pile joins one) and checked against the snapshot's ``cards_left``, so a record that
disagrees with the engine fails loudly instead of giving wrong statistics.

Columns of a row (besides the common columns the sweep adds):

- ``players``, ``mode`` (``classique`` or ``trustme``), ``max_play`` (largest claim); ``first_player`` (the seat that
  started the first round), ``started`` (this seat did), ``turn_order`` (this seat's place in turn order from the
  first player: 0 for the first player, 1 for the next, ...); ``dealt``, ``start_hand`` (cards held after the pair
  discards), ``cards_left`` (at the end).
- ``rank`` (the snapshot's rank, 1 = best, ties share e.g. 2.5: in Classique games the first out is 1 and the others
  are ranked by cards left; in Trust Me games the ranks are by points, most first); ``win`` (this seat has the best
  rank: in Classique it went out first, or shares first place at a set-up end, or holds the fewest cards at a
  turn-cap end); ``winner`` (the sole best seat, -1 if shared); ``top_shared``; ``went_out``.
- ``points`` and ``points_going_out``, ``points_cards_in_hand``, ``points_false_cards``, ``points_unmasked``,
  ``points_wrongly_accused``: Trust Me points by source (the engine computes them in both modes; the report reads them
  for ``trustme`` games); ``points_rank`` (1 = most points, ties shared) and ``points_win`` (most points, ties
  included).
- ``turns``, ``end_trigger`` (``out``, ``setup``, ``turn_cap``), ``completed`` (not stopped by the turn cap).
- ``plays``, ``cards_played``, ``false_cards_played``, ``passes``; per claim size 1..``max_play`` (lists):
  ``plays_by_size``, ``bluffs_by_size`` (plays holding at least one false card), ``false_cards_by_size``.
- ``calls``, ``calls_won`` (the accused had lied: they picked up the pile), ``calls_lost``; ``challenged``,
  ``caught`` (this seat's plays called, and found false); ``challenged_bluffs`` (called plays that held a false
  card).
- ``burns``, ``burned_cards``; ``pickups``, ``picked_up_cards``.
- ``last_cards_plays`` (plays of this seat's last cards), ``last_cards_caught`` (of those, called and found false),
  ``last_cards_held`` (went out on them: nobody caught them, whether all the others passed, a call was wrong, or,
  with ``last_cards=until_covered``, another player covered them).
- ``score_trace`` (list): cards this seat has shed (start hand minus cards held) after each player turn, for the
  lead-change metrics (the leader sheds most).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trustme_analysis.games.liar.engine import events as ev
from trustme_analysis.games.liar.engine.scoring import SOURCES, shared_ranks


def _shared_ranks_desc(values: Sequence[float]) -> list[float]:
    # The engine ranks the smallest key first; most points should come first.
    return [float(r) for r in shared_ranks([-v for v in values])]


def records_from_snapshot(snap: Mapping[str, Any], max_play: int) -> list[dict[str, Any]]:
    """One record per seat of a finished ``trustme_liar`` game (columns in the module docstring).

    Args:
        snap: the terminal ``state.snapshot()``.
        max_play: the game's ``max_play`` parameter (the largest claim; sizes the per-size lists).

    Raises:
        ValueError: the snapshot is not terminal, a play is larger than ``max_play``, or the hand sizes followed
            through the events differ from the snapshot's ``cards_left``.
    """
    if "end" not in snap or snap.get("phase") != "over":
        raise ValueError("records need a terminal snapshot: it has no 'end' (the game is not over)")
    n = int(snap["players"])
    start = [len(d) - len(x) for d, x in zip(snap["dealt"], snap["discards"])]
    held = list(start)
    counters = (
        "plays", "cards_played", "false_cards_played", "passes", "calls", "calls_won", "calls_lost", "challenged",
        "caught", "challenged_bluffs", "burns", "burned_cards", "pickups", "picked_up_cards", "last_cards_plays",
        "last_cards_caught", "last_cards_held",
    )
    seat: list[dict[str, Any]] = [
        {
            **{c: 0 for c in counters},
            "plays_by_size": [0] * max_play,
            "bluffs_by_size": [0] * max_play,
            "false_cards_by_size": [0] * max_play,
        }
        for _ in range(n)
    ]
    traces: list[list[int]] = [[] for _ in range(n)]
    # The seat whose last cards are on the table, until a challenge catches them or the seat goes out. A play on top
    # of them (last_cards="until_covered") does not settle them: the ``out`` event follows.
    pending = -1

    for e in snap["events"]:
        kind = e["kind"]
        if kind == ev.PLAY:
            p, size, false = e["player"], int(e["count"]), int(e["false"])
            if not 1 <= size <= max_play:
                raise ValueError(f"a play of {size} cards does not fit max_play={max_play}")
            rec = seat[p]
            rec["plays"] += 1
            rec["cards_played"] += size
            rec["false_cards_played"] += false
            rec["plays_by_size"][size - 1] += 1
            rec["bluffs_by_size"][size - 1] += false > 0
            rec["false_cards_by_size"][size - 1] += false
            held[p] -= size
            if held[p] == 0:
                rec["last_cards_plays"] += 1
                if pending < 0:
                    pending = p
        elif kind == ev.PASS:
            seat[e["player"]]["passes"] += 1
        elif kind == ev.LIAR:
            accuser, player = e["accuser"], e["player"]
            caught = bool(e["caught"])
            seat[accuser]["calls"] += 1
            seat[accuser]["calls_won" if caught else "calls_lost"] += 1
            seat[player]["challenged"] += 1
            seat[player]["caught"] += caught
            seat[player]["challenged_bluffs"] += int(e["false"]) > 0
            if caught and pending == player:
                seat[player]["last_cards_caught"] += 1
                pending = -1
            # A wrong call on a player's last cards leaves them out: the ``out`` event follows.
            picker = e["picked_up_by"]
            seat[picker]["pickups"] += 1
            seat[picker]["picked_up_cards"] += int(e["pile_size"])
            held[picker] += int(e["pile_size"])
        elif kind == ev.BURN:
            seat[e["player"]]["burns"] += 1
            seat[e["player"]]["burned_cards"] += int(e["pile_size"])
        elif kind == ev.OUT:
            if pending == e["player"]:
                seat[e["player"]]["last_cards_held"] += 1
        if kind in ev.TURNS:
            for p in range(n):
                traces[p].append(start[p] - held[p])

    cards_left = [int(c) for c in snap["cards_left"]]
    if held != cards_left:
        raise ValueError(f"hand sizes followed through the events {held} differ from the snapshot's {cards_left}")
    ranks = [float(r) for r in snap["ranks"]]
    best = min(ranks)
    sole = [p for p, r in enumerate(ranks) if r == best]
    sources = snap["points_by_source"]
    points = [sum(int(sources[p][s]) for s in SOURCES) for p in range(n)]
    points_rank = _shared_ranks_desc(points)
    out = set(snap.get("out") or [])
    end = str(snap["end"])
    first = int(snap["first_player"])
    rows = []
    for p in range(n):
        rows.append(
            {
                "players": n,
                "mode": str(snap["mode"]),
                "max_play": int(max_play),
                "first_player": first,
                "started": p == first,
                "turn_order": (p - first) % n,
                "dealt": len(snap["dealt"][p]),
                "start_hand": start[p],
                "cards_left": cards_left[p],
                "rank": ranks[p],
                "win": ranks[p] == best,
                "winner": sole[0] if len(sole) == 1 else -1,
                "top_shared": len(sole) > 1,
                "went_out": p in out,
                "points": points[p],
                **{f"points_{s}": int(sources[p][s]) for s in SOURCES},
                "points_rank": points_rank[p],
                "points_win": points_rank[p] == min(points_rank),
                "turns": int(snap["turns"]),
                "end_trigger": end,
                "completed": end != "turn_cap",
                **seat[p],
                "score_trace": traces[p],
            }
        )
    return rows


def records(game: Any, state: Any) -> list[dict[str, Any]]:
    """The sweep's records function for ``trustme_liar``: one row per seat of a finished game."""
    return records_from_snapshot(state.snapshot(), int(game.get_parameters()["max_play"]))
