"""Strategy statistics of a fixed (e.g. solved) policy of the 1981 investing round, in the rulebook's words.

For ``trustme_1981_investment`` (:mod:`trustme_analysis.games.board1981.engine.investment`): one claim goes to the
Trust Me Investment Company; from the claimant's left, each player buys shares, divests or holds; the claimant decides
last; then the briefcase is revealed. Every figure is weighted by how often play reaches the decision
(:class:`~trustme_analysis.solve.strategy.DecisionPoint`'s ``reach``). What a player *knows* is read from the state:
whether it has looked under the claimed briefcase and, if so, the Payoff card it saw ("Remember who has seen what"),
and the decisions of the investors before it, each marked with whether that investor had looked (public at the
table). Tables:

- ``invest_by_knowledge``: per player and what it saw (``saw one``, ``saw two``, ``saw empty``, ``saw had`` or
  ``not seen``): how often it buys, holds, divests (some or all), and the expected shares bought, divested, and the
  net change.
- ``invest_by_signal``: the same, split further by the earlier investors' decisions, e.g. ``p1 (looked): buy 5``.
- ``claimant_gain``: what the claimant receives from the others' trust: the expected reserve account (the money the
  other players paid for shares in the claim), overall and by the Payoff card truly in the briefcase (read from each
  history's referee snapshot), and by whether the claimant had looked.
- ``seat_value``: each player's expected utility under the policy (every player decides exactly once, so this is
  the reach-weighted value of its decisions; needs the decision points' ``action_values``).

It also gives the simple strategies (:func:`simple_strategies`): "always invest" and "never invest" for both games
(the solve layer's near-optimality check; probes), and for ``trustme_1981`` "always/never claim unseen" and
"always/never challenge" (probes).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.games.board1981.engine.actions import CHALLENGE
from trustme_analysis.games.board1981.engine.investing import (
    BUY,
    BUY_MAX,
    BUYING,
    DIVEST,
    DIVEST_ALL,
    HOLD,
    PAYOFF_NAMES,
    PAYOFF_SHORT,
)
from trustme_analysis.solve.strategy import DecisionPoint

#: Columns shared by the two investing tables.
_RATE_COLUMNS = ["reach", "buy_rate", "hold_rate", "divest_rate", "shares_bought", "shares_divested", "net_shares"]


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else float("nan")


def knowledge(snapshot: dict, player: int) -> str:
    """What ``player`` knows of the claimed briefcase: ``saw <card>`` (short Payoff name) or ``not seen``."""
    if not snapshot["seen"][player]:
        return "not seen"
    return "saw " + PAYOFF_SHORT[_card_index(snapshot["card"])]


def earlier_decisions(snapshot: dict) -> str:
    """The decisions taken so far this round, as a player sees them: ``p1 (looked): buy 5; p2 (did not look): hold``
    (``none`` for the first investor)."""
    parts = []
    for event in snapshot["events"]:
        if event["kind"] != "invest":
            continue
        p = event["player"]
        parts.append(f"p{p} ({'looked' if snapshot['seen'][p] else 'did not look'}): {event['decision']}")
    return "; ".join(parts) if parts else "none"


def _card_index(name: str) -> int:
    return PAYOFF_NAMES.index(name)


def _decision_rates(game: pyspiel.Game, dp: DecisionPoint, shares_held: int, money: int) -> dict[str, float]:
    """Probability of each kind of decision and the expected shares moved, at one decision point."""
    out = defaultdict(float)
    for action, p in zip(dp.actions, np.asarray(dp.probs, dtype=float)):
        verb, amount = game.investing.decode(int(action))
        if verb in (BUY, BUY_MAX):
            out["buy"] += p
            out["bought"] += p * (money if verb == BUY_MAX else amount)
        elif verb == HOLD:
            out["hold"] += p
        elif verb in (DIVEST, DIVEST_ALL):
            out["divest"] += p
            out["divested"] += p * (shares_held if verb == DIVEST_ALL else amount)
    return out


def _rows(acc: dict[tuple, dict[str, float]], keys: list[str]) -> pd.DataFrame:
    rows = []
    for key in sorted(acc):
        a = acc[key]
        w = a["reach"]
        rows.append({
            **dict(zip(keys, key)),
            "reach": w,
            "buy_rate": _ratio(a["buy"], w),
            "hold_rate": _ratio(a["hold"], w),
            "divest_rate": _ratio(a["divest"], w),
            "shares_bought": _ratio(a["bought"], w),
            "shares_divested": _ratio(a["divested"], w),
            "net_shares": _ratio(a["bought"] - a["divested"], w),
        })
    return pd.DataFrame(rows, columns=keys + _RATE_COLUMNS)


def strategy_stats(game: pyspiel.Game, points: list[DecisionPoint]) -> dict[str, pd.DataFrame]:
    """The tables listed in the module docstring, from one decision point per information state."""
    claimant = game.claimant
    by_knowledge: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    by_signal: dict[tuple, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    reserve: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # label -> [probability, reserve x prob]
    value = defaultdict(float)
    value_known = defaultdict(lambda: True)
    for dp in points:
        snap = dp.state.snapshot()
        p = dp.player
        role = "claimant" if p == claimant else "investor"
        rates = _decision_rates(game, dp, snap["shares"][p], snap["money"][p])
        know = knowledge(snap, p)
        for acc, key in ((by_knowledge, (p, role, know)), (by_signal, (p, role, know, earlier_decisions(snap)))):
            row = acc[key]
            row["reach"] += dp.reach
            for name, x in rates.items():
                row[name] += dp.reach * x
        if dp.reach > 0:
            # Each player decides exactly once, so its decisions' values, weighted by reach, add up to its value.
            probs = np.asarray(dp.probs, dtype=float)
            played = probs > 0
            values = None if dp.action_values is None else np.asarray(dp.action_values, dtype=float)[played]
            if values is None or not np.all(np.isfinite(values)):
                value_known[p] = False
            else:
                value[p] += dp.reach * float(np.dot(probs[played], values))
        if p == claimant:
            # The claimant decides last, so the reserve in its histories is the whole reserve it will collect.
            for state, r in dp.histories:
                s = state.snapshot()
                card = PAYOFF_SHORT[_card_index(s["card"])]
                looked = "claimant looked" if s["seen"][claimant] else "claimant did not look"
                for label in ("all", f"card {card}", looked):
                    reserve[label][0] += r
                    reserve[label][1] += r * s["reserve"]
    order = ["all"] + [f"card {c}" for c in PAYOFF_SHORT] + ["claimant looked", "claimant did not look"]
    gain = pd.DataFrame(
        [
            {"claimant": claimant, "condition": label, "probability": reserve[label][0],
             "expected_reserve": _ratio(reserve[label][1], reserve[label][0])}
            for label in order if label in reserve
        ],
        columns=["claimant", "condition", "probability", "expected_reserve"],
    )
    seats = pd.DataFrame(
        [
            {"player": p, "role": "claimant" if p == claimant else "investor",
             "value": value[p] if value_known[p] else float("nan")}
            for p in range(game.num_players())
        ],
        columns=["player", "role", "value"],
    )
    return {
        "invest_by_knowledge": _rows(by_knowledge, ["player", "role", "knowledge"]),
        "invest_by_signal": _rows(by_signal, ["player", "role", "knowledge", "earlier"]),
        "claimant_gain": gain,
        "seat_value": seats,
    }


def simple_strategies(game: pyspiel.Game) -> dict:
    """The named fixed strategies of a game (probes, and the solve layer's near-optimality check): a rule
    ``rule(state, player, legal) -> preferred actions, or None where it says nothing``.

    Both games: "always invest" (only purchases where one is legal) and "never invest" (no purchase: hold or divest).
    ``trustme_1981`` also: "always claim unseen" (on a colored space of a briefcase it has not looked under, claim it
    sight-unseen), "never claim unseen" (look instead), "always challenge" (a Challenge card is always played against
    someone), "never challenge" (never).
    """
    board_game = hasattr(game, "actions")
    investing = game.rules.investing if board_game else game.investing
    first_invest = game.actions.first_invest if board_game else 0

    def buys(legal: list[int]) -> list[int]:
        return [a for a in legal if a >= first_invest and investing.decode(int(a) - first_invest)[0] in BUYING]

    def investing_now(state: pyspiel.State) -> bool:
        return not board_game or state.phase_name() == "invest"

    def always_invest(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        return (buys(legal) or None) if investing_now(state) else None

    def never_invest(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        if not investing_now(state):
            return None
        bought = set(buys(legal))
        return [a for a in legal if a not in bought] if bought else None

    rules = {"always invest": always_invest, "never invest": never_invest}
    if not board_game:
        return rules
    codec = game.actions

    def unseen_choice(state: pyspiel.State, player: int, legal: list[int]) -> bool:
        if state.phase_name() != "property" or codec.claim_unseen not in legal:
            return False
        prop = game.board.space_property[state.positions()[player]]
        return prop not in state.known_cards(player)

    def always_claim_unseen(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        return [codec.claim_unseen] if unseen_choice(state, player, legal) else None

    def never_claim_unseen(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        return [codec.look] if unseen_choice(state, player, legal) else None

    def challenges(legal: list[int]) -> list[int]:
        return [a for a in legal if codec.decode(a).verb == CHALLENGE]

    def always_challenge(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        return (challenges(legal) or None) if state.phase_name() == "challenge" else None

    def never_challenge(state: pyspiel.State, player: int, legal: list[int]) -> list[int] | None:
        return [codec.decline] if state.phase_name() == "challenge" and challenges(legal) else None

    rules.update({
        "always claim unseen": always_claim_unseen, "never claim unseen": never_claim_unseen,
        "always challenge": always_challenge, "never challenge": never_challenge,
    })
    return rules
