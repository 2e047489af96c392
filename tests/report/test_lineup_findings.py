"""The line-up comparison's sentences: which measures move with the players, and which hold for every line-up."""

import pandas as pd

from trustme_analysis.report.checks_pages import _lineup_findings


def _table(rows):
    return pd.DataFrame(rows, columns=["lineup", "measure", "value", "low", "high", "unit"])


def test_a_measure_whose_intervals_do_not_overlap_is_named_with_both_estimates():
    sub = _table([
        ("heuristic", "tall tales per tale", 0.26, 0.25, 0.27, "share"),
        ("search", "tall tales per tale", 0.82, 0.80, 0.84, "share"),
        ("heuristic", "turns per game", 42.0, 41.9, 42.2, "turns"),
        ("search", "turns per game", 42.1, 41.5, 42.6, "turns"),
    ])
    (sentence,) = _lineup_findings(sub, ["heuristic", "search"], ["tall tales per tale", "turns per game"],
                                   "players=3")
    assert sentence.startswith("With players=3, 1 of 2 measures move outside line-up heuristic's interval under "
                               "line-up search: tall tales per tale 26% [25%, 27%] under heuristic, 82% [80%, 84%] "
                               "under search.")
    assert "turns per game" not in sentence


def test_overlapping_intervals_everywhere_say_the_conclusions_hold():
    sub = _table([("heuristic", "turns per game", 42.0, 41.9, 42.2, "turns"),
                  ("search", "turns per game", 42.1, 41.5, 42.6, "turns")])
    assert _lineup_findings(sub, ["heuristic", "search"], ["turns per game"], "players=2") == [
        "With players=2, every measure's interval under line-up search overlaps line-up heuristic's: these "
        "conclusions hold for both sets of players."]
    assert _lineup_findings(sub, ["heuristic"], ["turns per game"], "players=2") == []
