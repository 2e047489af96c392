"""Records of Pinocchio games for sweeps: one row per seat of a finished game.

:func:`records` turns a finished game into one row per seat. It reads only the terminal ``state.snapshot()`` and the
engine's public :func:`trustme_analysis.games.pinocchio.score_breakdown` (the one place scoring lives), so no rule is
re-implemented here. The per-turn score trace is rebuilt from the ``turn`` and ``ticket`` events: after each turn,
each seat's Tickets so far are scored with ``score_breakdown``.

Columns of a row (besides the common columns the sweep adds):

- ``players``, ``values``, ``chart``: the game's player count, number of Character values and scoring chart
  ("1/3/6/...").
- ``score``, ``score_ticket_face``, ``score_set_bonus``: final score and its split into Ticket face value and set bonus.
- ``tickets``: Tickets held at the end; ``tickets_per_value`` (list): Tickets held of value 1, 2, ...
- ``tickets_tale_per_value``, ``tickets_reputation_per_value``, ``tickets_free_per_value`` (lists): of those, gained
  by a trusted tall tale, by the Reputation action, and by the free Reputation action of a bonus turn at the day's end.
- ``different_values``: number of different Ticket values held (the set the chart scores).
- ``rank``, ``win``: final rank (1 = best) and whether this seat won after tie-breaks; ``winner``: the winning seat
  (same on every row of a game).
- ``turns``, ``runouts``, ``days``, ``ended_at_night``: turns begun (bonus turns included), deck run-outs, days
  played (1 + the ``day_end`` events: 2 once night fell), and whether the snapshot's Day/Night card showed night at
  the end.
- ``end_trigger``: "deck" or "stacks"; ``end_stack_value``: the value whose stack emptied last when the stacks ended
  the game (else -1); ``stack_empty_turn`` (list): the turn in which the stack of value 1, 2, ... ran out (NaN: never).
- ``completed``: the game reached a rule ending; ``top_shared``: the best final score was shared before tie-breaks;
  ``tie_break``: the tie-break used ("", "tickets", "coin"); ``margin``: winner's score minus the best other score.
- ``tales_told``, ``tales_true``, ``tales_tall``, ``tales_trusted``, ``tales_distrusted`` and ``row_true_trusted``,
  ``row_true_distrusted``, ``row_tall_trusted``, ``row_tall_distrusted``: as the teller, tales told, by kind, by the
  majority's verdict, and per row of the tale table.
- ``tall_ticket_lower``, ``tall_ticket_none``: trusted tall tales whose Ticket was of a lower value than asked (no
  Ticket counts as lower) / none at all.
- ``votes_cast``, ``votes_trust``, ``votes_correct``: as a voter, votes cast, "I trust you" votes, and votes that
  matched the revealed card.
- ``coin_tosses``: Coin tosses this seat made (4-player coin variant); ``coin_chance_tosses``: tosses for a split
  3-player vote (same on every row); ``tales_coin``: this seat's tales whose majority was set by the Coin.
- ``park_takes``, ``bonus_turns``, ``bonus_forfeited``: Characters taken from the Park, bonus turns taken, bonus turns
  forfeited at the end.
- ``score_trace`` (list): this seat's score after each turn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from trustme_analysis.games.pinocchio.engine.rules import TALE_ROWS

ScoreFn = Callable[[Sequence[int], Sequence[int]], Mapping[str, int]]

TICKET_ROUTES = {"tale": "tickets_tale_per_value", "reputation": "tickets_reputation_per_value",
                 "free_reputation": "tickets_free_per_value"}


def _engine_score_fn() -> ScoreFn:
    from trustme_analysis.games.pinocchio.engine.rules import score_breakdown

    return score_breakdown


def score_trace(
    events: Sequence[Mapping[str, Any]], players: int, values: int, chart: Sequence[int], score_fn: ScoreFn
) -> list[list[int]]:
    """Each seat's score after each turn, from the ``turn`` and ``ticket`` events.

    A ``turn`` event opens a turn, so the scores are sampled just before each turn after the first and once at the
    end: one entry per turn begun. Scores come from ``score_fn`` (the engine's ``score_breakdown``).
    """
    held = [[0] * values for _ in range(players)]
    traces: list[list[int]] = [[] for _ in range(players)]
    cache: dict[tuple[int, ...], int] = {}

    def score(p: int) -> int:
        key = tuple(held[p])
        if key not in cache:
            cache[key] = int(score_fn(list(key), list(chart))["total"])
        return cache[key]

    started = False
    for ev in events:
        kind = ev["kind"]
        if kind == "turn":
            if started:
                for p in range(players):
                    traces[p].append(score(p))
            started = True
        elif kind == "ticket" and ev.get("value") is not None:
            held[ev["player"]][ev["value"] - 1] += 1
    if started:
        for p in range(players):
            traces[p].append(score(p))
    return traces


def records_from_snapshot(
    snap: Mapping[str, Any], chart: Sequence[int], score_fn: ScoreFn
) -> list[dict[str, Any]]:
    """One record per seat from a terminal snapshot (see the module docstring for the columns).

    Raises:
        ValueError: the snapshot is not terminal, or its events disagree with its final Tickets (which would mean the
            statistics built from events are wrong).
    """
    if snap.get("scores") is None or snap.get("winner") is None:
        raise ValueError("records need a terminal snapshot: 'scores' and 'winner' are None (the game is not over)")
    n = int(snap["players"])
    values = len(snap["stacks_left"])
    chart = tuple(int(c) for c in chart)
    events = snap["events"]
    winner = int(snap["winner"])

    seat: list[dict[str, Any]] = [
        {
            "tickets_tale_per_value": [0] * values,
            "tickets_reputation_per_value": [0] * values,
            "tickets_free_per_value": [0] * values,
            **{f"row_{r}": 0 for r in TALE_ROWS},
            "tales_coin": 0,
            "tall_ticket_lower": 0,
            "tall_ticket_none": 0,
            "votes_cast": 0,
            "votes_trust": 0,
            "votes_correct": 0,
            "coin_tosses": 0,
            "park_takes": 0,
            "bonus_turns": 0,
            "bonus_forfeited": 0,
        }
        for _ in range(n)
    ]
    stack_empty_turn = [math.nan] * values
    last_emptied = -1
    coin_chance = 0
    day_ends = 0
    tie_break = ""
    end_trigger = None

    for ev in events:
        kind = ev["kind"]
        if kind == "tale":
            teller = seat[ev["player"]]
            teller[f"row_{ev['row']}"] += 1
            if ev.get("coin") is not None:
                teller["tales_coin"] += 1
                if ev.get("coin_by") is None:
                    coin_chance += 1
                else:
                    seat[int(ev["coin_by"])]["coin_tosses"] += 1
            for q, vote in enumerate(ev["votes"]):
                if vote is None:
                    continue
                seat[q]["votes_cast"] += 1
                seat[q]["votes_trust"] += bool(vote)
                # A vote is right when it trusts a true tale or distrusts a tall one.
                seat[q]["votes_correct"] += bool(vote) != bool(ev["tall"])
        elif kind == "ticket":
            rec = seat[ev["player"]]
            value = ev.get("value")
            if value is not None:
                rec[TICKET_ROUTES[ev["route"]]][value - 1] += 1
            if ev["route"] == "tale":
                if value is None:
                    rec["tall_ticket_none"] += 1
                    rec["tall_ticket_lower"] += 1
                elif value < ev["requested"]:
                    rec["tall_ticket_lower"] += 1
        elif kind == "park_take":
            seat[ev["player"]]["park_takes"] += 1
        elif kind == "stack_empty":
            stack_empty_turn[ev["value"] - 1] = float(ev["turn"])
            last_emptied = int(ev["value"])
        elif kind == "bonus_turn":
            seat[ev["player"]]["bonus_turns"] += 1
        elif kind == "bonus_forfeited":
            seat[ev["player"]]["bonus_forfeited"] += 1
        elif kind == "day_end":
            day_ends += 1
        elif kind == "tie_break":
            tie_break = str(ev["by"])
        elif kind == "game_end":
            end_trigger = ev["trigger"]

    end_trigger = end_trigger or snap.get("end_trigger")
    scores = snap["scores"]
    totals = [int(s["total"]) for s in scores]
    best = max(totals)
    others = [t for p, t in enumerate(totals) if p != winner]
    traces = score_trace(events, n, values, chart, score_fn)

    rows = []
    for p in range(n):
        rec = seat[p]
        held = [int(c) for c in snap["tickets"][p]]
        from_events = [
            rec["tickets_tale_per_value"][v] + rec["tickets_reputation_per_value"][v] + rec["tickets_free_per_value"][v]
            for v in range(values)
        ]
        if from_events != held:
            raise ValueError(
                f"seat {p}: Tickets from events {from_events} differ from the snapshot's Tickets {held}"
            )
        tales = {r: rec[f"row_{r}"] for r in TALE_ROWS}
        rows.append(
            {
                "players": n,
                "values": values,
                "chart": "/".join(str(c) for c in chart),
                "score": totals[p],
                "score_ticket_face": int(scores[p]["ticket_face"]),
                "score_set_bonus": int(scores[p]["set_bonus"]),
                "tickets": sum(held),
                "tickets_per_value": held,
                "tickets_tale_per_value": rec["tickets_tale_per_value"],
                "tickets_reputation_per_value": rec["tickets_reputation_per_value"],
                "tickets_free_per_value": rec["tickets_free_per_value"],
                "different_values": sum(1 for c in held if c > 0),
                "rank": int(scores[p]["rank"]),
                "win": p == winner,
                "winner": winner,
                "turns": int(snap["turn"]),
                "runouts": int(snap["runouts"]),
                "days": 1 + day_ends,
                "ended_at_night": snap["day"] == "night",
                "end_trigger": str(end_trigger) if end_trigger is not None else "",
                "end_stack_value": last_emptied if end_trigger == "stacks" else -1,
                "stack_empty_turn": list(stack_empty_turn),
                "completed": end_trigger is not None,
                "top_shared": totals.count(best) > 1,
                "tie_break": tie_break,
                "margin": totals[winner] - (max(others) if others else 0),
                "tales_told": sum(tales.values()),
                "tales_true": tales["true_trusted"] + tales["true_distrusted"],
                "tales_tall": tales["tall_trusted"] + tales["tall_distrusted"],
                "tales_trusted": tales["true_trusted"] + tales["tall_trusted"],
                "tales_distrusted": tales["true_distrusted"] + tales["tall_distrusted"],
                **{f"row_{r}": tales[r] for r in TALE_ROWS},
                "tales_coin": rec["tales_coin"],
                "tall_ticket_lower": rec["tall_ticket_lower"],
                "tall_ticket_none": rec["tall_ticket_none"],
                "votes_cast": rec["votes_cast"],
                "votes_trust": rec["votes_trust"],
                "votes_correct": rec["votes_correct"],
                "coin_tosses": rec["coin_tosses"],
                "coin_chance_tosses": coin_chance,
                "park_takes": rec["park_takes"],
                "bonus_turns": rec["bonus_turns"],
                "bonus_forfeited": rec["bonus_forfeited"],
                "score_trace": traces[p],
            }
        )
    return rows


def records(game: Any, state: Any) -> list[dict[str, Any]]:
    """The sweep's records function for Pinocchio: one row per seat of a finished game."""
    # The chart as the engine parsed it (a one-entry chart is written "5/" in a game string).
    return records_from_snapshot(state.snapshot(), game.rules.chart, _engine_score_fn())
