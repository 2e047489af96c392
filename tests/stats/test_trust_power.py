"""The trust check's verdict keeps its stated power and level: simulated probes at the power-sized games.

A probe winning its fair share + 3 points is found (verdict "exploitable", naming it) about 80% of the time at
``probe_games_for``'s games, and probes that win exactly their fair share are called "holds" at least 95% of the
time (Holm over the probes keeps the family-wise level), the verdict stating the 3-point excess it could see.
"""

from __future__ import annotations

import numpy as np
import pytest

from trustme_analysis.results.checks import challenger_row, verdict_of, verdict_text
from trustme_analysis.stats.power import detectable_excess, games_to_detect
from trustme_analysis.sweep.checks import PROBE_MARGIN, probe_games_for

PROBES = ["never trust", "always trust", "never tell a tall tale", "always tell a tall tale"]
RUNS = 600


def _verdicts(players: int, strong_excess: float, seed: int) -> list[dict]:
    fair = 1.0 / players
    games = probe_games_for(players, len(PROBES))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(RUNS):
        rows = [challenger_row("v00", "trained", name, "probe",
                               int(rng.binomial(games, fair + (strong_excess if i == 0 else 0.0))), games, fair)
                for i, name in enumerate(PROBES)]
        out.append(verdict_of("v00", rows))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_probe_three_points_above_its_share_is_found_with_the_stated_power(players):
    found = [v for v in _verdicts(players, PROBE_MARGIN, seed=players)
             if v["verdict"] == "exploitable" and v["best_challenger"] == PROBES[0]]
    share = len(found) / RUNS
    # 80% power by the normal approximation; 600 runs give a standard error of 1.6 points.
    assert 0.74 <= share <= 0.88, share


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fair_probes_hold_at_the_family_wise_level_and_the_verdict_states_the_excess(players):
    verdicts = _verdicts(players, 0.0, seed=10 + players)
    held = [v for v in verdicts if v["verdict"] == "holds"]
    # The family-wise level is 5% (exact one-sided tests, Holm): at least 95% hold, less 2 standard errors of the
    # 600 runs' share (0.9 points each).
    assert len(held) / RUNS >= 0.93
    assert all(v["detectable"] == pytest.approx(PROBE_MARGIN, abs=0.0015) for v in held)
    text = verdict_text(held[0])
    assert text == "holds: no probe wins more than its fair share + 3.0 points (80% power)"


def test_the_power_sizing_and_the_detectable_excess_are_inverse():
    for fair in (0.5, 1 / 3, 0.25):
        for tests in (1, 4):
            n = games_to_detect(fair, 0.03, tests=tests)
            assert detectable_excess(fair, n, tests=tests) <= 0.03 < detectable_excess(fair, n - 20, tests=tests)
    # Fewer games see less: the verdict says so with a larger excess.
    assert detectable_excess(1 / 3, 150, tests=4) > 0.10
    with pytest.raises(ValueError):
        games_to_detect(0.0, 0.03)


def test_an_exploitable_verdict_names_the_probe_and_its_margin():
    rows = [challenger_row("v00", "trained", "never trust", "probe", 600, 1000, 0.5),
            challenger_row("v00", "trained", "always trust", "probe", 500, 1000, 0.5),
            challenger_row("v00", "trained", "search player", "search", 70, 100, 0.5)]
    v = verdict_of("v00", rows)
    assert v["verdict"] == "exploitable" and v["best_challenger"] == "never trust"
    assert verdict_text(v).startswith("exploitable: never trust wins 10.0 points more than its fair share [")
    # The search player does not decide the verdict; its gain is its own figure.
    assert v["search_gain"] == pytest.approx(0.2) and v["search_low"] > 0
