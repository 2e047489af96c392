"""1981's questions for the findings table (the registry part ``findings``; :mod:`trustme_analysis.findings`).

Under heuristic players the mean final wealth runs to tens of thousands of dollars from $20: every share held is paid
$1 (One Stack) or $2 (Two Stacks) at each reveal and kept, so money put into shares compounds through the game, and
the Payoff mix (which the rule text does not give) sets how fast. The questions are whether that economy is the
rules' or the players', whether a seat wins more than a fair share (with how often the richest place is shared,
which the seat's figure needs), and how the claims and the investing look under competent play. Each is a headline
measure (a row of the results set's ``comparisons`` table, named as
:data:`trustme_analysis.games.board1981.analysis.stats.COMPARISON_METRICS` names it), asked of every rule variant a
findings sweep plays (``reports/findings_1981.toml``: the default mix and a poorer one, 2 and 3 players), so what the
Payoff mix does to each answer is the difference between its rows.
"""

from __future__ import annotations

from trustme_analysis.findings import Question

FINDINGS = (
    Question("1981-wealth", "How rich does a seat end (mean final wealth, from $20 of money and shares)?",
             "mean final wealth per seat", "the economy's growth"),
    # Seat 0 is not the first to move (who goes first is a chance node). A tie for richest counts a win for every
    # tied seat, and the fair share with it (winners / players, stats.balance.fair_share), so the measure is 0 on
    # average with no seat edge, ties or not.
    Question("1981-first-seat", "Does seat 0 win more (or less) than its fair share?",
             "first seat advantage (win rate - fair share)", "a seat's edge", reference=0.0),
    Question("1981-ties", "How often is the richest place shared (a tie, no sole winner)?", "richest shared",
             "ties for richest"),
    Question("1981-unseen", "How many claims are made without looking (bluffs or guesses)?", "claims made unseen",
             "unseen claims"),
    Question("1981-reserve", "How much does a claimant collect from the others' trust (reserve per investing round)?",
             "reserve per investing round", "the claimant's take"),
    Question("1981-lead", "How often does the lead change?", "lead changes", "lead changes"),
)
