"""``--check`` warns of the variants whose games are too few to see a 5-point seat edge: a line-up's own games
count, not the spec's."""

from __future__ import annotations

import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)

from trustme_analysis.stats.balance import detectable_seat_edge
from trustme_analysis.sweep.__main__ import SEAT_EDGE, power_warnings
from trustme_analysis.sweep.spec import parse_spec


def test_only_the_line_up_with_too_few_games_is_warned_of_with_the_games_that_would_do():
    spec = parse_spec({"game": "kuhn_poker", "games": 2000, "chunk_size": 100,
                       "lineups": {"many": {"seats": ["random"]}, "few": {"seats": ["random"], "games": 100}}})
    warnings = power_warnings(spec)
    assert len(warnings) == 1
    edge = detectable_seat_edge(100, 2)
    assert warnings[0].startswith(f"warning: v01 (lineup=few): 100 games see a seat edge only from {100 * edge:.0f} "
                                  "points on (80% power); a 5-point edge needs about ")
    needed = int(warnings[0].rsplit("about ", 1)[1].split()[0].replace(",", ""))
    # The games named are what it takes: the detectable edge there is 5 points.
    assert detectable_seat_edge(needed, 2) == pytest.approx(SEAT_EDGE, abs=1e-3)
    assert detectable_seat_edge(2000, 2) < SEAT_EDGE  # why the line-up of the spec's games is not warned of
