"""Strategy statistics of a fixed (e.g. solved) ``trustme_liar`` policy, in the rule text's words.

Every figure is weighted by how often play reaches the decision (:class:`~trustme_analysis.solve.strategy.
DecisionPoint`'s ``reach``). A *play* puts 1 to ``max_play`` cards face down announcing a value; it is a *bluff*
when any of its cards is not of the announced value (only the value can be a lie). What a player knows is read from
:meth:`~trustme_analysis.games.liar.engine.game.LiarState.player_view` of the decision's state: its hand, the public pair
discards, the round's value and the size of the last play. Tables:

- ``bluff_by_claim_size``: per phase (``start`` a round, ``respond`` to a play, ``add_or_burn`` after all the others
  passed) and claim size (cards played): how often a play of that size is made (``play_reach``), the share of those
  plays that are bluffs, and the false cards per such play.
- ``bluff_by_hand``: per phase, hand size and cards held of the round's value (``-1`` when starting: any value may
  be announced): how often the player plays, how often it bluffs, and the bluffing share of its plays.
- ``challenge_rate``: at every decision where "liar" may be called (``respond``, or ``last_cards`` after a player's
  last cards), per *public count* (copies of the announced value not among the public pair discards) and the size
  of the claim open to the challenge: how often liar is called, overall and when the claim is in truth honest or a
  bluff (read from each history's referee snapshot). ``unseen`` splits the public count further by what the player
  can also rule out: its own cards of the value in hand and in this round's pile.
- ``seat_value``: each seat's expected utility under the policy: the value of its first decision (needs the
  decision points' ``action_values``) plus the returns of the deals that end the game at the set-up (a hand emptied
  by the pair discards: ``setup_end`` is their probability). ``first`` marks the seat that starts the first round.
  The value is exact when every game either ends at the set-up or reaches the seat's first decision
  (``decision_reach + setup_end = 1``), as for the starter and for both seats of a two-player game; otherwise (a
  seat that may never act before the turn cap or a challenge ends the game) it is NaN.
- ``summary``: one row: the mode, the utility, the overall bluff share of plays, the overall challenge rate, and the
  value of going first (the first seat's value minus the mean of the others'; with a zero-sum utility the others'
  mean is minus the first seat's value over ``players - 1`` even where their own values are NaN). :func:`compare_modes` sets two
  summaries (Classique and Trust Me) side by side.

It also registers the simple strategies "always bluff", "never bluff", "always challenge" and "never challenge".
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.games.liar.engine import events as ev
from trustme_analysis.games.liar.engine.plays import FIRST_PLAY, LIAR
from trustme_analysis.solve.strategy import DecisionPoint

PLAY_PHASES = ("start", "respond", "add_or_burn")
CALL_PHASES = ("respond", "last_cards")


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else float("nan")


def classify_play(game: pyspiel.Game, action: int) -> tuple[int, int] | None:
    """``(cards played, false cards)`` of a play action, or ``None`` for liar, pass and burn."""
    if action < FIRST_PLAY:
        return None
    cards, announced = game.play_table.decode_play(int(action))
    return len(cards), sum(1 for v in cards if v != announced)


def _acted_before(snapshot: dict, player: int) -> bool:
    for event in snapshot["events"]:
        kind = event["kind"]
        if kind in (ev.PLAY, ev.PASS, ev.BURN) and event["player"] == player:
            return True
        if kind == ev.LIAR and event["accuser"] == player:
            return True
    return False


def setup_end(game: pyspiel.Game) -> tuple[float, np.ndarray]:
    """Probability that the deal ends the game at the set-up, and the expected returns it adds (returns x chance).

    Walks the deal (chance nodes only) down to the first decision or a terminal set-up end; the deal of a reduced
    variant has few outcomes (the solver walked the whole tree already).
    """
    prob, returns = 0.0, np.zeros(game.num_players())
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if state.is_terminal():
            prob += p
            returns += p * np.asarray(state.returns())
        elif state.is_chance_node():
            stack.extend((state.child(a), p * q) for a, q in state.chance_outcomes())
    return prob, returns


def strategy_stats(game: pyspiel.Game, points: list[DecisionPoint]) -> dict[str, pd.DataFrame]:
    """The tables listed in the module docstring, from one decision point per information state."""
    rules = game.rules
    by_size: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    by_hand: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    calls: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    value = defaultdict(float)
    covered = defaultdict(float)
    value_known = defaultdict(lambda: True)
    totals = defaultdict(float)
    for dp in points:
        probs = np.asarray(dp.probs, dtype=float)
        view = dp.state.player_view(dp.player)
        phase = view["phase"]
        w = dp.reach
        if phase in PLAY_PHASES:
            played = bluffed = 0.0
            for action, p in zip(dp.actions, probs):
                kind = classify_play(game, action)
                if kind is None:
                    continue
                size, false = kind
                row = by_size[(phase, size)]
                row["play"] += w * p
                row["bluff"] += w * p * (false > 0)
                row["false"] += w * p * false
                played += p
                bluffed += p * (false > 0)
            held = -1 if phase == "start" else view["hand"][view["round_value"] - 1]
            row = by_hand[(phase, sum(view["hand"]), held)]
            row["reach"] += w
            row["play"] += w * played
            row["bluff"] += w * bluffed
            totals["play"] += w * played
            totals["bluff"] += w * bluffed
        if phase in CALL_PHASES and LIAR in dp.actions:
            call = float(probs[dp.actions.index(LIAR)])
            value_index = view["round_value"] - 1
            public = rules.copies - view["discarded"][value_index]
            unseen = public - view["hand"][value_index] - view["own_in_pile"][value_index]
            row = calls[(phase, public, unseen, view["last"][1])]
            row["reach"] += w
            row["call"] += w * call
            for state, r in dp.histories:
                truth = "bluff" if state.snapshot()["pile"][-1]["false"] else "honest"
                row[f"reach_{truth}"] += r
                row[f"call_{truth}"] += r * call
            totals["call_reach"] += w
            totals["call"] += w * call
        if w > 0:
            snap = dp.state.snapshot()
            if not _acted_before(snap, dp.player):
                covered[dp.player] += w
                played_mask = probs > 0
                av = None if dp.action_values is None else np.asarray(dp.action_values, dtype=float)[played_mask]
                if av is None or not np.all(np.isfinite(av)):
                    value_known[dp.player] = False
                else:
                    value[dp.player] += w * float(np.dot(probs[played_mask], av))

    size_rows = [
        {"phase": phase, "claim_size": size, "play_reach": a["play"], "bluff_share": _ratio(a["bluff"], a["play"]),
         "false_cards_per_play": _ratio(a["false"], a["play"])}
        for (phase, size), a in sorted(by_size.items(), key=lambda kv: (PLAY_PHASES.index(kv[0][0]), kv[0][1]))
    ]
    hand_rows = [
        {"phase": phase, "hand_size": hand, "held_of_value": held, "reach": a["reach"],
         "play_rate": _ratio(a["play"], a["reach"]), "bluff_rate": _ratio(a["bluff"], a["reach"]),
         "bluff_share_of_plays": _ratio(a["bluff"], a["play"])}
        for (phase, hand, held), a in sorted(by_hand.items(), key=lambda kv: (PLAY_PHASES.index(kv[0][0]), kv[0][1:]))
    ]
    call_rows = [
        {"phase": phase, "public_count": public, "unseen": unseen, "claim_size": size, "reach": a["reach"],
         "challenge_rate": _ratio(a["call"], a["reach"]),
         "reach_honest": a["reach_honest"], "challenge_rate_honest": _ratio(a["call_honest"], a["reach_honest"]),
         "reach_bluff": a["reach_bluff"], "challenge_rate_bluff": _ratio(a["call_bluff"], a["reach_bluff"])}
        for (phase, public, unseen, size), a in sorted(calls.items())
    ]
    n = game.num_players()
    setup_prob, setup_returns = setup_end(game)
    # With first_player="random" no seat is the first player throughout: the value of going first is left NaN.
    starter = rules.starter_seat
    seat_rows = []
    for p in range(n):
        exact = value_known[p] and abs(covered[p] + setup_prob - 1.0) <= 1e-9
        seat_rows.append({"player": p, "first": p == starter, "decision_reach": covered[p],
                          "setup_end": setup_prob, "value": value[p] + setup_returns[p] if exact else float("nan")})
        value_known[p] = exact
        value[p] += setup_returns[p]
    if starter is None:
        first, others = float("nan"), []
    else:
        first = value[starter] if value_known[starter] else float("nan")
        others = [value[p] if value_known[p] else float("nan") for p in range(n) if p != starter]
    if others and np.isnan(others).any() and rules.utility_in_force in ("rank", "difference"):
        # Zero-sum utilities: the others' values add up to minus the first seat's, known or not.
        others = [-first / (n - 1)] * (n - 1)
    summary = pd.DataFrame([{
        "mode": rules.mode,
        "utility": rules.utility_in_force,
        "bluff_share_of_plays": _ratio(totals["bluff"], totals["play"]),
        "challenge_rate": _ratio(totals["call"], totals["call_reach"]),
        "first_seat_value": first,
        "first_seat_advantage": first - float(np.mean(others)) if others else float("nan"),
    }])
    return {
        "bluff_by_claim_size": pd.DataFrame(
            size_rows, columns=["phase", "claim_size", "play_reach", "bluff_share", "false_cards_per_play"]),
        "bluff_by_hand": pd.DataFrame(
            hand_rows, columns=["phase", "hand_size", "held_of_value", "reach", "play_rate", "bluff_rate",
                                "bluff_share_of_plays"]),
        "challenge_rate": pd.DataFrame(
            call_rows, columns=["phase", "public_count", "unseen", "claim_size", "reach", "challenge_rate",
                                "reach_honest", "challenge_rate_honest", "reach_bluff", "challenge_rate_bluff"]),
        "seat_value": pd.DataFrame(seat_rows, columns=["player", "first", "decision_reach", "setup_end", "value"]),
        "summary": summary,
    }


def compare_modes(classique: dict[str, pd.DataFrame], trustme: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Classique vs Trust Me: the two ``summary`` rows side by side, one row per measure.

    The values are in each variant's own utility (rank in Classique, point difference in Trust Me with two
    players), so compare rates directly and seat values only in sign and relative size.

    Raises:
        ValueError: a table set is not from the mode its argument names.
    """
    a, b = classique["summary"].iloc[0], trustme["summary"].iloc[0]
    if a["mode"] != "classique" or b["mode"] != "trustme":
        raise ValueError(f"compare_modes needs a Classique and a Trust Me summary; got {a['mode']!r} and {b['mode']!r}")
    measures = ["utility", "bluff_share_of_plays", "challenge_rate", "first_seat_value", "first_seat_advantage"]
    return pd.DataFrame(
        [{"measure": m, "classique": a[m], "trustme": b[m]} for m in measures],
        columns=["measure", "classique", "trustme"],
    )


def simple_strategies(game: pyspiel.Game) -> dict:
    """"always bluff" / "never bluff" (plays with a false card, where one is legal) and "always challenge" /
    "never challenge" (calling liar, where it is legal)."""

    def bluffs(legal: list[int]) -> list[int]:
        return [a for a in legal if (kind := classify_play(game, a)) is not None and kind[1] > 0]

    def always_bluff(state, player, legal):
        return bluffs(legal) or None

    def never_bluff(state, player, legal):
        lies = set(bluffs(legal))
        return [a for a in legal if a not in lies] if lies else None

    def always_challenge(state, player, legal):
        return [LIAR] if LIAR in legal else None

    def never_challenge(state, player, legal):
        return [a for a in legal if a != LIAR] if LIAR in legal else None

    return {"always bluff": always_bluff, "never bluff": never_bluff, "always challenge": always_challenge,
            "never challenge": never_challenge}
