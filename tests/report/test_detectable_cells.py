"""A zero-width interval's detectable change reads "n/a", never "0 pp" (which would say any change is seen)."""

from __future__ import annotations

import math
from types import SimpleNamespace

from trustme_analysis.report.front import _stable_power
from trustme_analysis.report.words import NOT_APPLICABLE, detectable_size
from trustme_analysis.stats.power import detectable_change


def test_zero_width_interval_has_no_detectable_change():
    assert detectable_size(detectable_change(0.0, 0.0), "share") == NOT_APPLICABLE
    assert detectable_size(detectable_change(0.25, 0.25), "turns") == NOT_APPLICABLE
    assert detectable_size(detectable_change(math.nan, 0.1), "share") == "\u2013"
    assert detectable_size(detectable_change(-0.05, 0.05), "share") == "7 pp"


def test_stable_verdict_of_a_zero_width_interval_claims_no_power():
    same = SimpleNamespace(verdict="stable under stronger play", low=0.0, high=0.0, largest_move=0.02)
    text = _stable_power(same, "share")
    assert "no spread" in text and "80%" not in text
    wide = SimpleNamespace(verdict="stable under stronger play", low=-0.03, high=0.03, largest_move=0.02)
    assert "80% of the time only from 4 points on" in _stable_power(wide, "share")
    assert _stable_power(SimpleNamespace(verdict="still moves with skill", low=0.0, high=0.0), "share") == ""
