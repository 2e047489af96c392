"""Rule tuning: which rule sets meet a designer's targets, and how sure is that answer.

``python -m trustme_analysis.tune SPEC.toml`` reads a tuning spec (:mod:`~trustme_analysis.tune.spec`: the game, the
line-up, a search space over rule parameters, objectives and constraints on the figures every results set already
computes, a budget in games), searches with Optuna (:mod:`~trustme_analysis.tune.study`: TPE for one objective, NSGA-II
for several; the study in ``OUT/study.db``, resumable after any interruption), plays each candidate through the sweep's
chunks with common random numbers and stops hopeless candidates early (:mod:`~trustme_analysis.tune.evaluate`,
:mod:`~trustme_analysis.tune.racing`; a trained line-up's policies: :mod:`~trustme_analysis.tune.training`), replays the
best rule sets and the rulebook's on fresh seeds as ordinary sweeps (:mod:`~trustme_analysis.tune.confirm`), and draws
the tuning report from its stored tables (:mod:`~trustme_analysis.tune.tables`, :mod:`~trustme_analysis.tune.pages`).
The guide is ``docs/guide/tuning.rst``.
"""
