"""1981's questions for the findings table (the registry part ``findings``; :mod:`trustme_analysis.findings`).

Under heuristic players the mean final wealth runs to tens of thousands of dollars from $20 (shares compound through
reveals). The questions are whether that economy is the rules' or the players', and whether the first seat is
favoured. Each is a headline measure asked of every rule variant a findings sweep plays
(``reports/findings_1981.toml``).
"""

from __future__ import annotations

from trustme_analysis.findings import Question

FINDINGS = (
    Question("1981-wealth", "How rich does a seat end (mean final wealth, from the starting money)?",
             "mean final wealth per seat", "the economy's growth"),
    Question("1981-first-seat", "Does the first seat win more than a fair share?",
             "first seat advantage (win rate - 1/players)", "a first-seat edge", reference=0.0),
    Question("1981-unseen", "How many claims are made without looking (bluffs or guesses)?", "claims made unseen",
             "unseen claims"),
    Question("1981-lead", "How often does the lead change?", "lead changes", "lead changes"),
)
