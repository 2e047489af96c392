"""Intervals and tests of trustme_analysis.stats.intervals against values computed by hand (or published)."""

import math

import numpy as np
import pytest
from scipy import stats as sps

from trustme_analysis.stats.intervals import (
    bootstrap,
    difference_of_means,
    difference_of_rates,
    holm,
    mean_t,
    ratio_of_sums,
    wilson,
)


def test_wilson_matches_hand_computation():
    # p = 0.8, n = 10, z = 1.959964: centre (0.8 + z^2/20) / (1 + z^2/10) = 0.716744,
    # half-width z sqrt(0.016 + z^2/400) / (1 + z^2/10) = 0.226582.
    est, low, high = wilson(8, 10)
    assert est == 0.8
    assert low == pytest.approx(0.490162, abs=1e-6)
    assert high == pytest.approx(0.943318, abs=1e-6)


def test_wilson_edges():
    assert wilson(0, 5).low == 0.0
    assert wilson(5, 5).high == 1.0
    assert all(math.isnan(x) for x in wilson(0, 0))
    with pytest.raises(ValueError, match="successes"):
        wilson(6, 5)


def test_mean_t_matches_hand_computation():
    # mean 2.5, sd sqrt(5/3), sem 0.645497, t(0.975, 3) = 3.182446 -> half-width 2.054260.
    est, low, high = mean_t([1, 2, 3, 4])
    assert est == 2.5
    assert low == pytest.approx(2.5 - 2.054260, abs=1e-5)
    assert high == pytest.approx(2.5 + 2.054260, abs=1e-5)
    assert mean_t([3, 3, 3]) == (3.0, 3.0, 3.0)
    assert math.isnan(mean_t([7]).low)


def test_ratio_of_sums_estimate_and_deterministic_interval():
    num = np.array([1, 0, 3, 2])
    den = np.array([2, 1, 4, 3])
    a = ratio_of_sums(num, den, np.random.default_rng(1))
    b = ratio_of_sums(num, den, np.random.default_rng(1))
    assert a.estimate == pytest.approx(6 / 10)
    assert a == b
    assert a.low <= a.estimate <= a.high
    # With every game identical there is nothing to resample.
    same = ratio_of_sums([1, 1, 1], [2, 2, 2], np.random.default_rng(0))
    assert same == (0.5, 0.5, 0.5)


def test_bootstrap_of_mean_is_close_to_t_interval():
    x = np.random.default_rng(3).normal(10, 2, size=400)
    boot = bootstrap(x.size, lambda idx: x[idx].mean(axis=1), np.random.default_rng(4), n_resamples=2000)
    t = mean_t(x)
    assert boot.estimate == pytest.approx(t.estimate)
    assert boot.low == pytest.approx(t.low, abs=0.05)
    assert boot.high == pytest.approx(t.high, abs=0.05)


def test_newcombe_difference_matches_published_example():
    # Newcombe (1998), Table II example (56/70 vs 48/80), method 10: 0.0524 to 0.3339.
    d = difference_of_rates(56, 70, 48, 80)
    assert d.estimate == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=1e-4)
    assert d.high == pytest.approx(0.3339, abs=1e-4)
    # Pooled z-test: p = 104/150, se = sqrt(p (1-p) (1/70 + 1/80)).
    p = 104 / 150
    z = 0.2 / math.sqrt(p * (1 - p) * (1 / 70 + 1 / 80))
    assert d.p_value == pytest.approx(2 * sps.norm.sf(z))


def test_welch_difference_matches_hand_computation_and_scipy():
    x, y = [2, 3, 4, 5, 6], [1, 2, 3, 4]
    d = difference_of_means(x, y)
    # var(x)/5 = 0.5, var(y)/4 = 5/12, se = sqrt(11/12), dof = (11/12)^2 / (0.25/4 + (5/12)^2/3) = 6.9807.
    se = math.sqrt(11 / 12)
    dof = (11 / 12) ** 2 / (0.25 / 4 + (5 / 12) ** 2 / 3)
    q = sps.t.ppf(0.975, dof)
    assert d.estimate == pytest.approx(1.5)
    assert d.low == pytest.approx(1.5 - q * se)
    assert d.high == pytest.approx(1.5 + q * se)
    assert d.p_value == pytest.approx(sps.ttest_ind(x, y, equal_var=False).pvalue)


def test_holm_matches_hand_computation():
    # Sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06 (monotone).
    assert holm([0.01, 0.04, 0.03, 0.005]).tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    adjusted = holm([0.2, float("nan"), 0.01])
    assert adjusted[0] == pytest.approx(0.2)
    assert math.isnan(adjusted[1])
    assert adjusted[2] == pytest.approx(0.02)
    # 0.8 * 2 = 1.6 is capped at 1, and 0.9 cannot be adjusted below it.
    assert holm([0.9, 0.8]).tolist() == [1.0, 1.0]
