"""Strategy statistics of a fixed (e.g. solved) Pinocchio policy, in the rulebook's words.

Every figure is weighted by how often play reaches the decision (:class:`~trustme_analysis.solve.strategy.
DecisionPoint`'s ``reach``), so a decision met in one game out of a hundred counts one hundredth. Tables:

- ``tale_rate``: per player, at turns where a Tale can be told: how often a Tale is told, how often it is tall, the
  tall share of the Tales told, and how often a Character is taken from the Park.
- ``tall_by_difference``: per card difference ``|hand - Park|`` of the tall tales available: how often such a tall
  tale is told when one is available.
- ``tall_by_ticket``: the same by the Ticket value at stake (the Ticket a trusted tall tale would gain: the
  difference, or the next lower value left; 0 when none is left).
- ``trust_rate``: per voter: how often "I trust you" is voted, overall and when the Tale is in truth true or tall
  (the face-down Character read from each history's referee snapshot, weighted by the history's reach).
- ``tale_vs_park``: per player, at turns where both a Tale and a Take from the Park are legal: the value to the
  player (expected utility, as the policy continues) of the best true tale, the best tall tale and the best take,
  and of the policy's own mix.

It also defines the simple strategies "always tell a tall tale", "never tell a tall tale", "always trust" and
"never trust" (the ``simple_strategies`` part of the game's registry entry).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A
from trustme_analysis.games.pinocchio.engine.rules import ticket_for_tale
from trustme_analysis.solve.strategy import DecisionPoint


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else float("nan")


def strategy_stats(game: pyspiel.Game, points: list[DecisionPoint]) -> dict[str, pd.DataFrame]:
    """The tables listed in the module docstring, from one decision point per information state."""
    codec = game.codec
    n = game.num_players()
    turn = {p: defaultdict(float) for p in range(n)}
    by_diff: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    by_ticket: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    trust = {p: defaultdict(float) for p in range(n)}
    values = {p: defaultdict(float) for p in range(n)}
    for dp in points:
        moves = [codec.decode(a) for a in dp.actions]
        kinds = {m.kind for m in moves}
        w = dp.reach
        probs = np.asarray(dp.probs, dtype=float)
        if A.TRUST in kinds:
            k = next(i for i, m in enumerate(moves) if m.kind == A.TRUST)
            row = trust[dp.player]
            row["votes"] += w
            row["trusted"] += w * probs[k]
            for state, r in dp.histories:
                tale = state.snapshot()["tale"]
                truth = "true" if tale["hidden_value"] == tale["park_value"] else "tall"
                row[f"votes_{truth}"] += r
                row[f"trusted_{truth}"] += r * probs[k]
            continue
        if A.TALE not in kinds:
            continue
        row = turn[dp.player]
        row["turns"] += w
        tale_p = sum(p for p, m in zip(probs, moves) if m.kind == A.TALE)
        tall_p = sum(p for p, m in zip(probs, moves) if m.tall)
        take_p = sum(p for p, m in zip(probs, moves) if m.kind == A.TAKE)
        row["tale"] += w * tale_p
        row["tall"] += w * tall_p
        row["take"] += w * take_p
        stacks = dp.state.player_view(dp.player, include_events=False)["stacks_left"]
        for table, key_of in ((by_diff, lambda m: abs(m.hand - m.park)),
                              (by_ticket, lambda m: ticket_for_tale(stacks, abs(m.hand - m.park)))):
            available = defaultdict(float)
            for p, m in zip(probs, moves):
                if m.tall:
                    available[key_of(m)] += p
            for key, p in available.items():
                table[key][0] += w
                table[key][1] += w * p
        if A.TAKE in kinds and dp.action_values is not None and not np.all(np.isnan(dp.action_values)):
            av = np.asarray(dp.action_values, dtype=float)
            v = values[dp.player]
            v["weight"] += w
            v["policy"] += w * float(np.nansum(probs * av))
            for name, pick in (("true_tale", lambda m: m.kind == A.TALE and not m.tall),
                               ("tall_tale", lambda m: m.tall), ("take", lambda m: m.kind == A.TAKE)):
                mine = [av[i] for i, m in enumerate(moves) if pick(m)]
                if mine:
                    v[f"{name}_w"] += w
                    v[name] += w * max(mine)
    tale_rate = pd.DataFrame([
        {"player": p, "turn_reach": r["turns"], "tale_rate": _ratio(r["tale"], r["turns"]),
         "tall_rate": _ratio(r["tall"], r["turns"]), "tall_share_of_tales": _ratio(r["tall"], r["tale"]),
         "take_rate": _ratio(r["take"], r["turns"])}
        for p, r in turn.items()
    ], columns=["player", "turn_reach", "tale_rate", "tall_rate", "tall_share_of_tales", "take_rate"])
    tall_by_difference = pd.DataFrame([
        {"difference": d, "available_reach": a, "tall_rate": _ratio(t, a)} for d, (a, t) in sorted(by_diff.items())
    ], columns=["difference", "available_reach", "tall_rate"])
    tall_by_ticket = pd.DataFrame([
        {"ticket_at_stake": d, "available_reach": a, "tall_rate": _ratio(t, a)}
        for d, (a, t) in sorted(by_ticket.items())
    ], columns=["ticket_at_stake", "available_reach", "tall_rate"])
    trust_rate = pd.DataFrame([
        {"voter": p, "vote_reach": r["votes"], "trust_rate": _ratio(r["trusted"], r["votes"]),
         "trust_rate_true_tale": _ratio(r["trusted_true"], r["votes_true"]),
         "trust_rate_tall_tale": _ratio(r["trusted_tall"], r["votes_tall"]),
         "tall_share_of_votes": _ratio(r["votes_tall"], r["votes_true"] + r["votes_tall"])}
        for p, r in trust.items()
    ], columns=["voter", "vote_reach", "trust_rate", "trust_rate_true_tale", "trust_rate_tall_tale",
                "tall_share_of_votes"])
    tale_vs_park = pd.DataFrame([
        {"player": p, "decision_reach": v["weight"], "policy_value": _ratio(v["policy"], v["weight"]),
         "best_true_tale": _ratio(v["true_tale"], v["true_tale_w"]),
         "best_tall_tale": _ratio(v["tall_tale"], v["tall_tale_w"]), "best_take": _ratio(v["take"], v["take_w"])}
        for p, v in values.items()
    ], columns=["player", "decision_reach", "policy_value", "best_true_tale", "best_tall_tale", "best_take"])
    return {
        "tale_rate": tale_rate,
        "tall_by_difference": tall_by_difference,
        "tall_by_ticket": tall_by_ticket,
        "trust_rate": trust_rate,
        "tale_vs_park": tale_vs_park,
    }


def simple_strategies(game: pyspiel.Game) -> dict:
    """Pinocchio's simple strategies, as rules over the decoded actions (see
    :data:`~trustme_analysis.solve.strategy.SimpleRule`)."""
    codec = game.codec

    def of_kind(test):
        def rule(state, player, legal):
            chosen = [a for a in legal if test(codec.decode(a))]
            return chosen or None
        return rule

    def never_tall(state, player, legal):
        moves = [codec.decode(a) for a in legal]
        if not any(m.tall for m in moves):
            return None
        rest = [a for a, m in zip(legal, moves) if not m.tall]
        return rest or None

    return {
        "always tell a tall tale": of_kind(lambda m: m.tall),
        "never tell a tall tale": never_tall,
        "always trust": of_kind(lambda m: m.kind == A.TRUST),
        "never trust": of_kind(lambda m: m.kind == A.DISTRUST),
    }
