"""How small a change a comparison's games could have seen: the other half of a verdict of "no evidence".

A comparison that finds no significant change says nothing about changes its games were too few to see. For a
difference whose 95% interval is (roughly) ``estimate +- z * se``, a two-sided test at level ``alpha`` detects a true
change ``d`` with probability about ``Phi(d / se - z_alpha)``; the change it detects with probability ``power`` is
``(z_alpha + z_power) * se`` (the normal approximation, as for the seat edge in
:func:`trustme_analysis.stats.balance.detectable_seat_edge`, at the same power and level). At 80% power and the 5%
level that is 2.80 standard errors: 1.43 times the half-width of the 95% interval.

The standard error is the one measured, with no change; a change of a share also changes the share's spread, so
away from one half the power at the stated change is somewhat under 80% (30% against 37.4% in 600 games each:
about 76-78%, tests/report/test_report_power.py). The figure says what the games could have seen, not a guarantee.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from trustme_analysis.stats.balance import POWER, POWER_ALPHA
from trustme_analysis.stats.intervals import CONFIDENCE


def detectable_change(low: float, high: float, confidence: float = CONFIDENCE, power: float = POWER,
                      alpha: float = POWER_ALPHA) -> float:
    """The smallest change (either way) a comparison with the ``confidence`` interval ``[low, high]`` detects with
    probability ``power`` at level ``alpha`` (before a correction over many comparisons, which only raises it); NaN
    when the interval is missing.

    The standard error is read from the interval's half-width (a t or Newcombe interval counts as a normal one: close
    for the hundreds of games a sweep plays).

    >>> round(detectable_change(-0.05, 0.05), 4)  # +-5 points at 95%: a change of 7.1 points is seen 80% of the time
    0.0715
    """
    if low is None or high is None or math.isnan(low) or math.isnan(high):
        return math.nan
    normal = NormalDist()
    se = (high - low) / 2.0 / normal.inv_cdf(0.5 + confidence / 2.0)
    return (normal.inv_cdf(1.0 - alpha / 2.0) + normal.inv_cdf(power)) * se


def _one_sided_n(fair: float, margin: float, z_alpha: float, z_power: float) -> float:
    """Games a one-sided test of "wins more than ``fair``" needs to see a true share of ``fair + margin`` with the
    power ``z_power`` stands for (the normal approximation of the binomial, each hypothesis with its own spread)."""
    high = min(fair + margin, 1.0 - 1e-9)
    spread = z_alpha * math.sqrt(fair * (1.0 - fair)) + z_power * math.sqrt(high * (1.0 - high))
    return (spread / margin) ** 2


def games_to_detect(fair: float, margin: float, tests: int = 1, power: float = POWER,
                    alpha: float = POWER_ALPHA) -> int:
    """The games one challenger needs so that, if it truly wins ``fair + margin`` of them, a one-sided test at level
    ``alpha / tests`` (the first step of Holm's correction over ``tests`` challengers, which every later step only
    eases) finds it with probability ``power``.

    >>> games_to_detect(1 / 3, 0.03)  # 3 points above a fair third, one challenger
    1548
    >>> games_to_detect(1 / 3, 0.03, tests=4)  # four probes, Holm over them
    2373
    """
    if not 0.0 < fair < 1.0 or not margin > 0.0 or tests < 1:
        raise ValueError(f"games_to_detect needs 0 < fair < 1, margin > 0 and tests >= 1, got {fair}, {margin}, "
                         f"{tests}")
    normal = NormalDist()
    n = _one_sided_n(fair, margin, normal.inv_cdf(1.0 - alpha / tests), normal.inv_cdf(power))
    return int(math.ceil(n - 1e-9))


def detectable_excess(fair: float, games: int, tests: int = 1, power: float = POWER,
                      alpha: float = POWER_ALPHA) -> float:
    """The smallest excess over ``fair`` that ``games`` games of one challenger find with probability ``power``
    (:func:`games_to_detect` the other way round); NaN for no games.

    >>> round(detectable_excess(1 / 3, 2373, tests=4), 4)
    0.03
    """
    if games < 1 or not 0.0 < fair < 1.0:
        return math.nan
    normal = NormalDist()
    za, zp = normal.inv_cdf(1.0 - alpha / tests), normal.inv_cdf(power)
    low, high = 1e-6, 1.0 - fair
    if _one_sided_n(fair, high, za, zp) > games:
        return high  # not even a challenger that always wins would be seen reliably
    for _ in range(60):  # bisection: the games needed fall as the excess grows
        mid = 0.5 * (low + high)
        if _one_sided_n(fair, mid, za, zp) > games:
            low = mid
        else:
            high = mid
    return high
