"""Pinocchio's questions for the findings table (the registry part ``findings``; :mod:`trustme_analysis.findings`).

The findings published under heuristic players: seat 0 wins 54% [51, 57] with 2 players and 37% [34, 40] with 3,
the set bonus is 36-44% of the points, and most tales are tall under search players. Each question is a headline
measure asked of every rule variant a findings sweep plays (``reports/findings_pinocchio.toml``).
"""

from __future__ import annotations

from trustme_analysis.findings import Question

FINDINGS = (
    Question("pinocchio-first-seat", "Does the first seat win more than a fair share?",
             "first seat advantage (win rate - 1/players)", "a first-seat edge", reference=0.0),
    Question("pinocchio-set-bonus", "How much of a seat's score comes from the set bonus of the chart?",
             "set-bonus share per game (mean)", "the set bonus's weight"),
    Question("pinocchio-tall-tales", "How many tales are tall tales (false claims)?", "tall tales per tale",
             "bluffing"),
    Question("pinocchio-tall-trusted", "How often is a tall tale trusted?", "tall tales trusted",
             "trusting a tall tale"),
)
