"""Confidence intervals and tests used by every statistic of a sweep.

- rates (a win, a trusted tale): the Wilson score interval, which stays inside [0, 1] and behaves with few games;
- means (score, game length): Student's t interval;
- ratios of sums and statistics without a closed form (share of the score from the set bonus, Balance): a percentile
  bootstrap over games, drawn from a ``numpy.random.Generator`` passed in (deterministic);
- differences versus a baseline: paired (the same games under both variants: Student's t interval and test on the
  per-game differences), and unpaired beside them (Newcombe's hybrid score interval for two rates, Welch's interval
  for two means), with Holm's step-down correction for the many comparisons a sweep makes.
"""

from __future__ import annotations

import math
from fractions import Fraction
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats as sps

#: Confidence level of every interval in the report unless stated otherwise.
CONFIDENCE = 0.95


class Interval(NamedTuple):
    """A point estimate with the lower and upper ends of its confidence interval (NaN where undefined)."""

    estimate: float
    low: float
    high: float


def _z(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence={confidence!r} is not allowed; allowed: a number strictly between 0 and 1")
    return float(sps.norm.ppf(0.5 + confidence / 2.0))


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> Interval:
    """Wilson score interval for a rate of ``successes`` out of ``n`` trials (NaN for ``n == 0``).

    >>> round(wilson(8, 10).low, 4), round(wilson(8, 10).high, 4)
    (0.4902, 0.9433)
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"successes={successes!r}, n={n!r} is not allowed; allowed: 0 <= successes <= n")
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    z = _z(confidence)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # The interval contains p; at p = 0 or 1 that end is exactly 0 or 1 (the formula gives it up to rounding).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_t(values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE) -> Interval:
    """Student's t interval for the mean of ``values`` (NaNs dropped; ends NaN with fewer than two values)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if x.size == 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if x.size < 2:
        return Interval(mean, math.nan, math.nan)
    sem = float(x.std(ddof=1)) / math.sqrt(x.size)
    if sem == 0.0:
        return Interval(mean, mean, mean)
    q = float(sps.t.ppf(0.5 + confidence / 2.0, x.size - 1))
    return Interval(mean, mean - q * sem, mean + q * sem)


def mean_t_sums(n: int, total: float, total_sq: float, confidence: float = CONFIDENCE) -> Interval:
    """Student's t interval for a mean from the count, sum and sum of squares of its values: what per-chunk
    partial sums merge into, so a mean over a million games needs no array of them.

    With integer values (scores, counts) and integer sums the variance is computed exactly (rational arithmetic)
    and rounded once, so the interval is the correctly rounded one; :func:`mean_t` on the values themselves sums
    rounded squares and may differ from it in the last bits (a relative difference of about 1e-15 in the ends; the
    estimate, an exact sum divided by ``n``, is identical).
    """
    if n <= 0:
        return Interval(math.nan, math.nan, math.nan)
    mean = float(total) / n if not isinstance(total, int) else _div(total, n)
    if n < 2:
        return Interval(mean, math.nan, math.nan)
    if isinstance(total, int) and isinstance(total_sq, int):
        var = float(Fraction(n * total_sq - total * total, n * (n - 1)))
    else:
        var = max(0.0, (float(total_sq) - float(total) * float(total) / n) / (n - 1))
    sem = math.sqrt(var) / math.sqrt(n)
    if sem == 0.0:
        return Interval(mean, mean, mean)
    q = float(sps.t.ppf(0.5 + confidence / 2.0, n - 1))
    return Interval(mean, mean - q * sem, mean + q * sem)


def _div(total: int, n: int) -> float:
    # numpy's mean of integer-valued floats: their (exact, below 2**53) float sum divided by n.
    return float(total) / n


#: Above this many games a bootstrap resamples blocks of consecutive games (:func:`blocks`) instead of single games,
#: so its cost and memory stay bounded however many games a sweep plays; at or below it, it resamples games.
MAX_BOOTSTRAP_UNITS = 10_000


def blocks(n: int, max_units: int | None = None) -> np.ndarray | None:
    """The first unit of each block a bootstrap over ``n`` independent units resamples when ``n > max_units``:
    ``max_units`` blocks of consecutive units, of sizes differing by at most one (``None``: resample the units).

    Games of a sweep are independent and identically distributed, so the sums over blocks of them are too, and
    resampling blocks with replacement estimates the spread of a statistic of sums (a ratio of sums, the seats' win
    rates) as resampling the games does, at a cost bounded by ``max_units``.
    """
    max_units = MAX_BOOTSTRAP_UNITS if max_units is None else max_units
    if n <= max_units:
        return None
    return (np.arange(max_units, dtype=np.int64) * n) // max_units


def _resample_indices(n: int, rng: np.random.Generator, n_resamples: int) -> np.ndarray:
    return rng.integers(0, n, size=(n_resamples, n))


def bootstrap(
    n: int,
    statistic: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    n_resamples: int = 1000,
    confidence: float = CONFIDENCE,
) -> Interval:
    """Percentile bootstrap over ``n`` independent units (games).

    Args:
        n: number of units.
        statistic: maps an index array of shape ``(k, n)`` (each row one resample, or ``arange(n)[None]`` for the
            estimate itself) to ``k`` statistic values; vectorised so a thousand resamples stay cheap.
        rng: the only source of randomness.
        n_resamples: bootstrap resamples.
        confidence: two-sided level.
    """
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    estimate = float(statistic(np.arange(n)[None, :])[0])
    # Resample in blocks so that a sweep of many games does not allocate one huge index matrix.
    block = max(1, min(n_resamples, 2_000_000 // max(n, 1)))
    values: list[np.ndarray] = []
    done = 0
    while done < n_resamples:
        k = min(block, n_resamples - done)
        values.append(np.asarray(statistic(_resample_indices(n, rng, k)), dtype=float))
        done += k
    boot = np.concatenate(values)
    boot = boot[~np.isnan(boot)]
    if boot.size == 0:
        return Interval(estimate, math.nan, math.nan)
    alpha = 1.0 - confidence
    low, high = np.quantile(boot, [alpha / 2.0, 1.0 - alpha / 2.0])
    return Interval(estimate, float(low), float(high))


def ratio_of_sums(
    numerators: Sequence[float] | np.ndarray,
    denominators: Sequence[float] | np.ndarray,
    rng: np.random.Generator,
    n_resamples: int = 1000,
    confidence: float = CONFIDENCE,
) -> Interval:
    """``sum(numerators) / sum(denominators)`` with a bootstrap interval that resamples games (the pairs).

    Used for shares pooled over games (e.g. the share of all points that came from the set bonus), where the units
    inside one game are not independent. Of more than :data:`MAX_BOOTSTRAP_UNITS` games, the resamples draw blocks
    of consecutive games (:func:`blocks`); the estimate is the ratio of all sums either way.
    """
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if num.shape != den.shape:
        raise ValueError(f"numerators and denominators differ in length: {num.shape} vs {den.shape}")
    starts = blocks(num.size)
    if starts is not None:
        num, den = np.add.reduceat(num, starts), np.add.reduceat(den, starts)

    def stat(idx: np.ndarray) -> np.ndarray:
        d = den[idx].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(d > 0, num[idx].sum(axis=1) / np.where(d > 0, d, 1.0), np.nan)

    return bootstrap(num.size, stat, rng, n_resamples, confidence)


class Difference(NamedTuple):
    """A variant's value minus the baseline's, its confidence interval and the p-value of "no difference"."""

    estimate: float
    low: float
    high: float
    p_value: float


def difference_of_rates(
    successes: int, n: int, base_successes: int, base_n: int, confidence: float = CONFIDENCE
) -> Difference:
    """``successes/n - base_successes/base_n`` with Newcombe's hybrid score interval (his method 10).

    The p-value is the two-sided pooled two-proportion z-test. Newcombe (1998), "Interval estimation for the
    difference between independent proportions", Statistics in Medicine 17: 873-890.
    """
    if n == 0 or base_n == 0:
        return Difference(math.nan, math.nan, math.nan, math.nan)
    p1, l1, u1 = wilson(successes, n, confidence)
    p2, l2, u2 = wilson(base_successes, base_n, confidence)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    pooled = (successes + base_successes) / (n + base_n)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / base_n))
    if se == 0.0:
        p_value = 1.0 if d == 0 else 0.0
    else:
        p_value = float(2.0 * sps.norm.sf(abs(d) / se))
    return Difference(d, low, high, p_value)


def difference_of_means(
    values: Sequence[float] | np.ndarray, base_values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> Difference:
    """``mean(values) - mean(base_values)`` with Welch's t interval and test (unequal variances)."""
    x = np.asarray(values, dtype=float)
    y = np.asarray(base_values, dtype=float)
    x = x[~np.isnan(x)]
    y = y[~np.isnan(y)]
    if x.size < 2 or y.size < 2:
        return Difference(math.nan, math.nan, math.nan, math.nan)
    d = float(x.mean() - y.mean())
    vx = x.var(ddof=1) / x.size
    vy = y.var(ddof=1) / y.size
    se = math.sqrt(vx + vy)
    if se == 0.0:
        return Difference(d, d, d, 1.0 if d == 0 else 0.0)
    # Welch-Satterthwaite degrees of freedom.
    dof = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    q = float(sps.t.ppf(0.5 + confidence / 2.0, dof))
    p_value = float(2.0 * sps.t.sf(abs(d) / se, dof))
    return Difference(d, d - q * se, d + q * se, p_value)


def paired_difference(
    values: Sequence[float] | np.ndarray, base_values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> Difference:
    """``mean(values - base_values)`` over pairs (game ``i`` under a variant and under the baseline, from the same
    seed) with Student's t interval and the paired t-test; pairs with a NaN are dropped.

    Pairing removes the noise the two variants share (the same deals, the same chance): when most games come out
    the same, the interval is far narrower than an unpaired one. Every difference zero gives ``(0, 0, 0, 1.0)``.

    >>> paired_difference([3, 4, 5], [2, 3, 4])
    Difference(estimate=1.0, low=1.0, high=1.0, p_value=0.0)
    """
    x = np.asarray(values, dtype=float)
    y = np.asarray(base_values, dtype=float)
    if x.shape != y.shape:
        raise ValueError(f"values and base_values differ in length: {x.shape} vs {y.shape}; pairs need both")
    d = (x - y)[~(np.isnan(x) | np.isnan(y))]
    if d.size < 2:
        return Difference(float(d.mean()) if d.size else math.nan, math.nan, math.nan, math.nan)
    mean = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(d.size)
    if se == 0.0:
        return Difference(mean, mean, mean, 1.0 if mean == 0 else 0.0)
    q = float(sps.t.ppf(0.5 + confidence / 2.0, d.size - 1))
    p_value = float(2.0 * sps.t.sf(abs(mean) / se, d.size - 1))
    return Difference(mean, mean - q * se, mean + q * se, p_value)


def holm(p_values: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaNs stay NaN and do not count as tests).

    Holm (1979), "A simple sequentially rejective multiple test procedure", Scand. J. Statistics 6: 65-70.
    Rejecting where the adjusted p-value is below alpha controls the family-wise error rate at alpha.

    >>> holm([0.01, 0.04, 0.03, 0.005]).round(3).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    m = valid.size
    if m == 0:
        return out
    order = valid[np.argsort(p[valid], kind="stable")]
    running = 0.0
    for rank, i in enumerate(order):
        # The k-th smallest p-value is multiplied by the number of hypotheses not yet rejected, and the adjusted
        # values are made monotone so a later hypothesis is never "more significant" than an earlier one.
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out
