"""Liar's questions for the findings table (the registry part ``findings``; :mod:`trustme_analysis.findings`).

Each is a headline measure of the results set, asked of every rule variant a findings sweep plays
(``reports/findings_liar.toml``): under heuristic players the four-player starter won far less than a fair share, so
the questions are whether starting is worth anything once the players are competent, and what the bluffing looks
like then.
"""

from __future__ import annotations

from trustme_analysis.findings import Question

FINDINGS = (
    Question("liar-starter", "Does the player who starts win more (or less) than a fair share?",
             "first player's advantage (win rate - 1/players)", "a starter's edge", reference=0.0),
    Question("liar-false-cards", "How much do players bluff (false cards among the cards played)?",
             "false cards among cards played", "bluffing"),
    Question("liar-challenges", "How often is a play challenged?", "challenges per play", "challenging"),
    Question("liar-caught", "How often does a challenge catch a liar?", "challenges that caught a liar",
             "catching liars"),
    Question("liar-length", "How long is a game (turns)?", "turns per game", "game length"),
)
