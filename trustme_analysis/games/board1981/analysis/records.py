"""Records of Trust Me (1981) games for sweeps: the board game ``trustme_1981`` and its investing round alone
``trustme_1981_investment``: one row per seat of a finished game.

The records read only the terminal ``state.snapshot()`` (its ``events`` included) and the game object's starting money
and shares; every amount comes from the engine's own events (``invest``, ``payoff``, ``reserve_paid``), so no rule is
re-implemented. A seat's wealth is money + shares, as the engine's ``wealth`` says.

Payoff rows are numbered as in the rule text's table (:data:`PAYOFF_ROWS`): One Stack of Bills, Two Stacks of Bills,
Empty Briefcase, You've Been Had!. List columns hold one entry per row in that order.

Columns of a ``trustme_1981`` row (besides the common columns the sweep adds):

- ``players``; ``start_wealth``; ``money``, ``shares``, ``wealth`` (final); ``rank`` (1 = richest; tied seats share a
  rank); ``win`` (rank 1: tied richest seats all count as winners, as ``win_loss`` shares the win); ``winner`` (the
  sole richest seat, -1 when the top is shared); ``top_shared``; ``margin`` (best wealth minus the best other wealth,
  0 when shared).
- ``turns``; ``end_trigger`` (``two_cases_left`` or ``turn_cap``); ``completed`` (ended by the rules, not the cap);
  ``score_trace`` (list): this seat's wealth after each turn (one entry per turn begun).
- ``claims_unseen``, ``claims_looked`` (claims made by the two claim actions), ``claims_known`` (claims of a briefcase
  this seat had looked under, whichever action), ``claims_taken`` (claims won from an occupant or a challenge),
  ``claims_lost`` (claims taken away or removed: sent away, Bamboozled, challenged).
- ``looks``, ``hot_tips``, ``peeks``: briefcases looked under on a colored space, at a Hot Tip, in the optional peek.
- ``bought_known``, ``bought_unknown``, ``divested_known``, ``divested_unknown``: shares bought and divested in other
  players' investing rounds, split by whether this seat had looked under that briefcase before the round;
  ``decisions_known``, ``decisions_unknown``: investing decisions made in those rounds; ``bought_own``,
  ``divested_own``: shares bought and divested in this seat's own investing rounds.
- ``reveals_per_row`` (list, same on every row of a game): briefcases revealed with each payoff row.
- ``gain_per_row`` (list): this seat's wealth change from the payoffs of each row (payoff money plus shares kept
  minus shares held), reserve excluded; ``gain_known_per_row``, ``gain_unknown_per_row`` (lists): the same split by
  whether this seat had looked under the revealed briefcase; ``reveals_known_per_row`` (list): reveals of each row of
  a briefcase this seat had looked under.
- ``claimant_rounds``, ``claimant_rounds_per_row`` (list): investing rounds this seat started as the claimant (and
  by the row revealed); ``reserve_received``, ``reserve_per_row`` (list): dollars the claimant took from the reserve
  (the others' purchases: the claimant's gain from others' trust).
- ``wgc_sent``: opponents this seat sent to a Wild Goose Chase space (occupied space or challenge won);
  ``wgc_received``: times this seat was sent there by anyone (itself after a failed Bamboozled roll included).
- ``cards_move``, ``cards_bamboozled``, ``cards_challenge``: Trust Me cards drawn, by kind; ``bamboozled_escaped``.
- ``challenges_made``, ``challenges_won``, ``challenges_lost``: as the challenger; ``defences_won``,
  ``defences_lost``: as the challenged player.

Columns of a ``trustme_1981_investment`` row: ``players``, ``claimant`` (bool: this seat holds the claim), ``seen``
(this seat had looked under the briefcase), ``row`` (0-3, the payoff row revealed) and ``card``, ``decision`` (the
engine's label: ``hold``, ``buy 5``, ``divest all``...), ``bought``, ``divested`` (shares), ``start_money``,
``start_shares``, ``money``, ``shares``, ``wealth`` (final), ``wealth_change``, ``reserve_received`` (the claimant's
reserve: what the others' purchases paid it), ``payoff_gain`` (wealth change at the reveal), ``rank``, ``win``,
``winner``, ``top_shared``, ``margin``, ``turns`` (decisions in the round), ``completed`` (always true).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trustme_analysis.games.board1981.engine import events as E
from trustme_analysis.games.board1981.engine import investing as rules
from trustme_analysis.games.board1981.engine.investing import PAYOFF_NAMES

SHORT_NAME = "trustme_1981"
SHORT_NAME_INVESTMENT = "trustme_1981_investment"

#: Payoff rows in the order of the rule text's table (the engine's ``PAYOFF_NAMES``).
PAYOFF_ROWS = PAYOFF_NAMES
#: Short labels of the rows, for tables and plots.
ROW_LABELS = ("One Stack", "Two Stacks", "Empty", "Been Had")

_BAMBOOZLED = "Bamboozled"
_CHALLENGE = "Challenge Another Player"
_LOOK_COUNTER = {E.LOOK: "looks", E.HOT_TIP: "hot_tips", E.PEEK: "peeks"}


def row_of(card: str) -> int:
    """The payoff row (0-3) of a Payoff card's name; a clear error for an unknown name."""
    try:
        return PAYOFF_ROWS.index(card)
    except ValueError:
        raise ValueError(f"card={card!r} is not a Payoff card; allowed: {', '.join(PAYOFF_ROWS)}") from None


def _decision_amounts(shares_change: int) -> tuple[int, int]:
    """``(bought, divested)`` shares of one investing decision, from the engine's share change."""
    return (shares_change, 0) if shares_change > 0 else (0, -shares_change)


def _parse_decision(label: str) -> tuple[str, int]:
    """The engine's decision label (``hold``, ``buy 5``, ``buy max``, ``divest 1``, ``divest all``) as
    ``(verb, amount)``."""
    if label == "hold":
        return rules.HOLD, 0
    if label == "buy max":
        return rules.BUY_MAX, 0
    if label == "divest all":
        return rules.DIVEST_ALL, 0
    verb, _, amount = label.partition(" ")
    if verb in (rules.BUY, rules.DIVEST) and amount.isdigit():
        return verb, int(amount)
    raise ValueError(f"decision={label!r} is not an investing decision; allowed: hold, buy N, buy max, divest N, "
                     "divest all")


def _outcome_columns(totals: Sequence[int]) -> list[dict[str, Any]]:
    """rank / win / winner / top_shared / margin per seat from final wealth (and the snapshot's ranks)."""
    best = max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    others = [t for t in totals if t != best]
    margin = best - max(others) if len(tied) == 1 and others else 0
    winner = tied[0] if len(tied) == 1 else -1
    return [
        {"win": totals[p] == best, "winner": winner, "top_shared": len(tied) > 1, "margin": margin}
        for p in range(len(totals))
    ]


def records_from_snapshot(
    snap: Mapping[str, Any], start_money: int, start_shares: int
) -> list[dict[str, Any]]:
    """One record per seat of a finished ``trustme_1981`` game (columns in the module docstring).

    Args:
        snap: the terminal ``state.snapshot()``.
        start_money: each player's starting money (the game's ``money`` parameter).
        start_shares: each player's starting shares (the game's ``shares`` parameter).

    Raises:
        ValueError: the snapshot is not terminal, or the money and shares rebuilt from its events differ from its
            final money and shares (the statistics built from events would be wrong).
    """
    if snap.get("phase") != "over" or "wealth" not in snap:
        raise ValueError("records need a terminal snapshot: phase is not 'over' (the game is not finished)")
    n = len(snap["money"])
    zeros4 = [0] * len(PAYOFF_ROWS)
    counters = (
        "claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost", "looks", "hot_tips", "peeks",
        "bought_known", "bought_unknown", "divested_known", "divested_unknown", "decisions_known",
        "decisions_unknown", "bought_own", "divested_own", "claimant_rounds", "reserve_received", "wgc_sent",
        "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "bamboozled_escaped", "challenges_made",
        "challenges_won", "challenges_lost", "defences_won", "defences_lost",
    )
    seat: list[dict[str, Any]] = [
        {
            **{c: 0 for c in counters},
            "gain_per_row": list(zeros4),
            "gain_known_per_row": list(zeros4),
            "gain_unknown_per_row": list(zeros4),
            "reveals_known_per_row": list(zeros4),
            "claimant_rounds_per_row": list(zeros4),
            "reserve_per_row": list(zeros4),
        }
        for _ in range(n)
    ]
    reveals_per_row = list(zeros4)
    money = [int(start_money)] * n
    shares = [int(start_shares)] * n
    knows: list[set[str]] = [set() for _ in range(n)]
    traces: list[list[int]] = [[] for _ in range(n)]
    started = False
    claimant = -1
    claimed = ""
    row = -1
    pending_challenge: tuple[int, int] | None = None

    for ev in snap["events"]:
        kind = ev["kind"]
        if kind == E.TURN:
            if started:
                for p in range(n):
                    traces[p].append(money[p] + shares[p])
            started = True
        elif kind in _LOOK_COUNTER:
            p = ev["player"]
            knows[p].add(ev["property"])
            seat[p][_LOOK_COUNTER[kind]] += 1
        elif kind in (E.CLAIM_UNSEEN, E.CLAIM_LOOKED):
            p = ev["player"]
            seat[p]["claims_unseen" if kind == E.CLAIM_UNSEEN else "claims_looked"] += 1
            seat[p]["claims_known"] += ev["property"] in knows[p]
        elif kind == E.CLAIM_TRANSFER:
            seat[ev["to"]]["claims_taken"] += 1
            seat[ev["from"]]["claims_lost"] += 1
        elif kind == E.CLAIM_REMOVED:
            seat[ev["player"]]["claims_lost"] += 1
        elif kind == E.SEND_WGC:
            seat[ev["player"]]["wgc_received"] += 1
            if ev["by"] != ev["player"]:
                seat[ev["by"]]["wgc_sent"] += 1
            if pending_challenge is not None:
                # The send that follows a challenge is made by its winner (the engine's order of events).
                challenger, defender = pending_challenge
                won = ev["by"] == challenger
                seat[challenger]["challenges_won" if won else "challenges_lost"] += 1
                seat[defender]["defences_lost" if won else "defences_won"] += 1
                pending_challenge = None
        elif kind == E.CARD:
            card = ev["card"]
            key = ("cards_bamboozled" if card == _BAMBOOZLED else "cards_challenge" if card == _CHALLENGE
                   else "cards_move")
            seat[ev["player"]][key] += 1
        elif kind == E.BAMBOOZLED:
            seat[ev["player"]]["bamboozled_escaped"] += bool(ev["escaped"])
        elif kind == E.CHALLENGE:
            seat[ev["challenger"]]["challenges_made"] += 1
            pending_challenge = (ev["challenger"], ev["defender"])
        elif kind == E.INVESTING:
            claimant = ev["claimant"]
            claimed = ev["property"]
            seat[claimant]["claimant_rounds"] += 1
        elif kind == E.INVEST:
            p = ev["player"]
            money[p] += ev["money_change"]
            shares[p] += ev["shares_change"]
            bought, divested = _decision_amounts(ev["shares_change"])
            if p == claimant:
                seat[p]["bought_own"] += bought
                seat[p]["divested_own"] += divested
            else:
                tag = "known" if claimed in knows[p] else "unknown"
                seat[p][f"bought_{tag}"] += bought
                seat[p][f"divested_{tag}"] += divested
                seat[p][f"decisions_{tag}"] += 1
        elif kind == E.REVEAL:
            row = row_of(ev["card"])
            reveals_per_row[row] += 1
            seat[ev["claimant"]]["claimant_rounds_per_row"][row] += 1
            for p in range(n):
                seat[p]["reveals_known_per_row"][row] += claimed in knows[p]
        elif kind == E.PAYOFF:
            p = ev["player"]
            gain = ev["money"] + ev["shares_change"]
            money[p] += ev["money"]
            shares[p] += ev["shares_change"]
            seat[p]["gain_per_row"][row] += gain
            seat[p]["gain_known_per_row" if claimed in knows[p] else "gain_unknown_per_row"][row] += gain
        elif kind == E.RESERVE_PAID:
            p = ev["player"]
            money[p] += ev["amount"]
            seat[p]["reserve_received"] += ev["amount"]
            seat[p]["reserve_per_row"][row] += ev["amount"]
    if started:
        for p in range(n):
            traces[p].append(money[p] + shares[p])

    final_money = [int(w["money"]) for w in snap["wealth"]]
    final_shares = [int(w["shares"]) for w in snap["wealth"]]
    if money != final_money or shares != final_shares:
        raise ValueError(
            f"money {money} and shares {shares} rebuilt from the events differ from the snapshot's "
            f"{final_money} and {final_shares}"
        )
    totals = [int(w["total"]) for w in snap["wealth"]]
    outcome = _outcome_columns(totals)
    end = str(snap.get("end") or "")
    rows = []
    for p in range(n):
        rows.append(
            {
                "players": n,
                "start_wealth": int(start_money) + int(start_shares),
                "money": final_money[p],
                "shares": final_shares[p],
                "wealth": totals[p],
                "rank": int(snap["ranks"][p]),
                **outcome[p],
                "turns": int(snap["turn"]),
                "end_trigger": end,
                "completed": end == "two_cases_left",
                **seat[p],
                "reveals_per_row": list(reveals_per_row),
                "score_trace": traces[p],
            }
        )
    return rows


def investment_records_from_snapshot(
    snap: Mapping[str, Any], start_money: Sequence[int], start_shares: Sequence[int]
) -> list[dict[str, Any]]:
    """One record per seat of a finished ``trustme_1981_investment`` game (columns in the module docstring).

    Args:
        snap: the terminal ``state.snapshot()``.
        start_money: each player's starting money (the game's ``start_money``).
        start_shares: each player's starting shares (the game's ``start_shares``).

    Raises:
        ValueError: the snapshot is not terminal.
    """
    if snap.get("phase") != "over" or "wealth" not in snap:
        raise ValueError("records need a terminal snapshot: phase is not 'over' (the round is not finished)")
    n = len(snap["money"])
    claimant = int(snap["claimant"])
    row = row_of(snap["card"])
    money = [int(m) for m in start_money]
    shares = [int(s) for s in start_shares]
    decision = ["hold"] * n
    bought = [0] * n
    divested = [0] * n
    reserve = 0
    decisions = 0
    # Replay the decisions with the engine's own investing and payoff functions (the one place those rules live).
    for ev in snap["events"]:
        if ev["kind"] != E.INVEST:
            continue
        p = ev["player"]
        verb, amount = _parse_decision(ev["decision"])
        new_money, new_shares, to_reserve, _, _ = rules.invest(verb, amount, p, claimant, money[p], shares[p])
        bought[p], divested[p] = max(new_shares - shares[p], 0), max(shares[p] - new_shares, 0)
        money[p], shares[p] = new_money, new_shares
        reserve += to_reserve
        decision[p] = ev["decision"]
        decisions += 1
    payoff_gain = []
    for p in range(n):
        gain, kept = rules.payoff(row, shares[p])
        payoff_gain.append(gain + kept - shares[p])
        money[p] += gain
        shares[p] = kept
    money[claimant] += reserve
    final_money = [int(w["money"]) for w in snap["wealth"]]
    final_shares = [int(w["shares"]) for w in snap["wealth"]]
    if money != final_money or shares != final_shares:
        raise ValueError(
            f"money {money} and shares {shares} replayed from the decisions differ from the snapshot's "
            f"{final_money} and {final_shares}"
        )
    totals = [int(w["total"]) for w in snap["wealth"]]
    outcome = _outcome_columns(totals)
    rows = []
    for p in range(n):
        start_wealth = int(start_money[p]) + int(start_shares[p])
        rows.append(
            {
                "players": n,
                "claimant": p == claimant,
                "seen": bool(snap["seen"][p]),
                "row": row,
                "card": str(snap["card"]),
                "decision": decision[p],
                "bought": bought[p],
                "divested": divested[p],
                "start_money": int(start_money[p]),
                "start_shares": int(start_shares[p]),
                "money": final_money[p],
                "shares": final_shares[p],
                "wealth": totals[p],
                "wealth_change": totals[p] - start_wealth,
                "reserve_received": reserve if p == claimant else 0,
                "payoff_gain": payoff_gain[p],
                "rank": int(snap["ranks"][p]),
                **outcome[p],
                "turns": decisions,
                "completed": True,
            }
        )
    return rows


def records(game: Any, state: Any) -> list[dict[str, Any]]:
    """The sweep's records function for ``trustme_1981``: one row per seat of a finished game."""
    return records_from_snapshot(state.snapshot(), game.rules.money, game.rules.shares)


def investment_records(game: Any, state: Any) -> list[dict[str, Any]]:
    """The sweep's records function for ``trustme_1981_investment``: one row per seat of a finished round."""
    return investment_records_from_snapshot(state.snapshot(), game.start_money, game.start_shares)
