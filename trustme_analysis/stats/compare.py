"""Variants against their references: differences with confidence intervals, corrected for many comparisons.

A sweep compares each variant with a reference (the baseline's rules under the same line-up, or the reference line-up
under the same rules: :mod:`trustme_analysis.results.comparisons` chooses) on several metrics at once, so some
differences look "significant" by chance alone. Every comparison gets an unadjusted 95% interval and a p-value, and the
p-values of one family (its pairs x its metrics) are adjusted with Holm's method; ``significant`` is ``p_holm <
alpha``.

Metrics are computed per game (one value per game, so the games are the independent units): a ``rate`` metric is a
0/1 column (e.g. "seat 0 won"); a ``mean`` metric is a numeric column (e.g. turns).

A sweep plays game ``i`` of every variant from the same seed (common random numbers), so with a ``game_index`` column
two variants that played the same games are paired game by game: the interval and test are those of the per-game
differences (Student's t), and the noise both variants share cancels. The unpaired interval (Newcombe's for a rate,
Welch's for a mean) is kept beside it (``unpaired_low``, ``unpaired_high``, ``unpaired_p``) to show what pairing
gained; without a ``game_index`` column, or when the two played different games, the comparison is unpaired.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from trustme_analysis.stats.intervals import CONFIDENCE, difference_of_rates, holm
from trustme_analysis.stats.streaming import GameRows, welch
from trustme_analysis.stats.streaming import paired as paired_moments

KINDS = ("rate", "mean")


@dataclass(frozen=True)
class GameMetric:
    """A per-game column compared between variants.

    Attributes:
        name: what the report calls it ("first seat wins", "turns per game").
        column: the column of the per-game table.
        kind: ``"rate"`` (0/1 values) or ``"mean"`` (numbers).
        unit: unit shown next to values ("share of games", "turns", "points").
    """

    name: str
    column: str
    kind: str
    unit: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"GameMetric {self.name!r}: kind={self.kind!r} is not allowed; allowed: {KINDS}")


COLUMNS = (
    "variant", "reference", "metric", "unit", "kind", "baseline_value", "value", "difference", "low", "high",
    "p_value", "p_holm", "significant", "effect", "paired", "pairs", "unpaired_low", "unpaired_high", "unpaired_p",
)


def compare_pairs(
    games: pd.DataFrame | GameRows,
    metrics: Sequence[GameMetric],
    pairs: Sequence[tuple[str, str]],
    alpha: float = 1.0 - CONFIDENCE,
) -> pd.DataFrame:
    """Differences of each ``(variant, reference)`` pair on each metric, with Holm-adjusted p-values over the family.

    The family is every pair x every metric given here: a report that compares two kinds of thing (rule variants
    under one line-up, line-ups under one set of rules) calls this once per kind, so each kind is corrected and
    ranked on its own.

    A pair is compared game by game (paired) when both variants have one row per game (a ``game_index`` column,
    unique) and played the same games (the same set of indices: game ``i`` of every variant of a sweep starts from
    the same seed). Otherwise, or with fewer than two pairs, the interval and test are the unpaired ones (Newcombe's
    for a rate, Welch's for a mean): a 100-game line-up set against a 1,000-game one uses all 1,100 games
    independently rather than the 100 pairs.

    Every figure comes from one pass over each variant's games and one over each pair's (:class:`GameRows`): the
    count, sum and sum of squares of the values and of the paired differences, merged exactly
    (:mod:`trustme_analysis.stats.streaming`), so a table of a million games is never copied per metric; up to
    :data:`~trustme_analysis.stats.streaming.EXACT_UNITS` games a variant, the figures are those of the whole
    arrays bit for bit.

    Args:
        games: one row per game with a ``variant`` column and the metrics' columns (a frame, or a
            :class:`GameRows` reading them a piece at a time).
        metrics: what to compare; metrics whose column is missing are skipped.
        pairs: ``(variant, reference)`` ids, each present in ``games``.
        alpha: family-wise error rate for ``significant``; intervals are at level ``1 - alpha``.

    Returns:
        Columns :data:`COLUMNS`: variant, reference (what it is compared with), metric, unit, kind, baseline_value
        (the reference's value), value, difference (variant minus reference), low, high, p_value, p_holm,
        significant, effect (difference over the reference's standard deviation, or a rate's pooled one, to rank
        what changed most), paired (whether difference, low, high and p_value are the paired ones), pairs (games
        paired), unpaired_low, unpaired_high, unpaired_p (the unpaired interval and test).

    Raises:
        ValueError: a pair names a variant ``games`` does not hold.
    """
    rows_of = games if isinstance(games, GameRows) else GameRows.from_frame(games)
    present = rows_of.variant_ids
    for variant, reference in pairs:
        for vid in (variant, reference):
            if vid not in present:
                raise ValueError(f"comparison {variant!r} against {reference!r}: variant {vid!r} is not allowed; "
                                 f"allowed: one of the variants {present}")
    columns = [m.column for m in metrics if m.column in rows_of.columns]
    rows = []
    for metric in metrics:
        if metric.column not in rows_of.columns:
            continue
        for variant, reference in pairs:
            # Moments of each variant's values (NaNs dropped), from one pass over its games for all metrics.
            x = rows_of.moments(variant, columns)[metric.column]
            y = rows_of.moments(reference, columns)[metric.column]
            if metric.kind == "rate":
                diff = difference_of_rates(int(x.sum), x.n, int(y.sum), y.n, 1.0 - alpha)
                # A rate's natural spread is sqrt(p (1 - p)); use the pooled rate so a baseline at 0 still scales.
                pooled = (x.sum + y.sum) / max(x.n + y.n, 1)
                scale = math.sqrt(pooled * (1 - pooled))
            else:
                diff = welch(x, y, 1.0 - alpha)
                scale = y.std() if y.n > 1 else math.nan
            n_pairs = 0
            paired = None
            # Pairs are games: a table of several rows per game (rounds, seats) is compared unpaired, and so are two
            # variants that played different games (a line-up of fewer games than its reference).
            both = rows_of.paired(variant, reference, columns)
            if both is not None:
                d = both[metric.column]
                n_pairs = d.n
                if n_pairs >= 2:
                    paired = paired_moments(d, 1.0 - alpha)
            main = paired if paired is not None else diff
            rows.append(
                {
                    "variant": variant,
                    "reference": reference,
                    "metric": metric.name,
                    "unit": metric.unit,
                    "kind": metric.kind,
                    "baseline_value": y.mean() if y.n else math.nan,
                    "value": x.mean() if x.n else math.nan,
                    "difference": main.estimate,
                    "low": main.low,
                    "high": main.high,
                    "p_value": main.p_value,
                    "paired": paired is not None,
                    "pairs": n_pairs if paired is not None else 0,
                    "unpaired_low": diff.low,
                    "unpaired_high": diff.high,
                    "unpaired_p": diff.p_value,
                    "effect": main.estimate / scale if scale and scale > 0 else math.nan,
                }
            )
    out = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_holm", "significant")])
    out["p_holm"] = holm(out["p_value"].to_numpy(dtype=float)) if len(out) else []
    out["significant"] = out["p_holm"] < alpha
    return out[list(COLUMNS)]


def compare_to_baseline(
    games: pd.DataFrame | GameRows,
    metrics: Sequence[GameMetric],
    baseline: str,
    alpha: float = 1.0 - CONFIDENCE,
) -> pd.DataFrame:
    """Every other variant against ``baseline`` on each metric (:func:`compare_pairs` with one reference), with
    Holm-adjusted p-values over the whole family.

    A sweep report compares one factor at a time instead (:mod:`trustme_analysis.results.comparisons`); this is the
    plain form, for a table whose variants differ in one factor only.

    Raises:
        ValueError: ``baseline`` is not one of the variants of ``games``.
    """
    variants = games.variant_ids if isinstance(games, GameRows) else sorted(games["variant"].unique())
    if baseline not in variants:
        raise ValueError(f"baseline={baseline!r} is not allowed; allowed: one of the variants {variants}")
    return compare_pairs(games, metrics, [(v, baseline) for v in variants if v != baseline], alpha)


def biggest_changes(comparisons: pd.DataFrame, limit: int = 12) -> pd.DataFrame:
    """The comparisons that changed most: significant ones first, then by the size of the standardised effect."""
    if comparisons.empty:
        return comparisons
    ranked = comparisons.assign(_abs=comparisons["effect"].abs().fillna(0.0))
    ranked = ranked.sort_values(["significant", "_abs", "p_holm"], ascending=[False, False, True], kind="stable")
    return ranked.drop(columns="_abs").head(limit).reset_index(drop=True)
