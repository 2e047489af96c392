"""The score (or wealth) over a game: the mean after each turn for the winner and the other seats, with t bands.

Records carry each seat's ``score_trace`` (its score after each turn begun) and ``win``. For each variant, seats are
split into the winner(s) and the others; each turn averages the seats whose game was still running (a game's trace
ends with the game), up to a horizon: the median length of the winners' traces (or of all traces).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from trustme_analysis.stats.intervals import mean_t


def trace_bands(
    records: pd.DataFrame,
    variants: Sequence[str],
    labels: tuple[str, str] = ("winner", "other seats"),
    horizon_from_winners: bool = True,
    with_counts: bool = True,
) -> pd.DataFrame:
    """Mean trace per turn with its 95% t interval, per variant and group (winner(s) / others).

    Args:
        records: rows with ``variant``, ``win`` and ``score_trace``.
        variants: the variants, in the order the rows should come (the report puts the baseline first).
        labels: names of the two groups (winners first).
        horizon_from_winners: the horizon is the median length of the winners' traces (else of every trace).
        with_counts: add ``seats``, the number of traces still running at each turn.

    Returns:
        Columns: variant, group, turn (1-based), mean, low, high (and seats).
    """
    rows = []
    for v in variants:
        rv = records[records["variant"] == v]
        traces = [np.asarray(t, dtype=float) for t in rv["score_trace"]]
        won = rv["win"].to_numpy(dtype=bool)
        basis = [len(t) for t, w in zip(traces, won) if w] if horizon_from_winners else [len(t) for t in traces]
        lengths = sorted(basis) or [0]
        horizon = int(lengths[len(lengths) // 2])
        for label, mask in ((labels[0], won), (labels[1], ~won)):
            # Seats x turns, NaN after a game's end, so each turn averages the games still running.
            grid = np.full((int(mask.sum()), horizon), np.nan)
            for row, t in enumerate(t for t, m in zip(traces, mask) if m):
                grid[row, : min(len(t), horizon)] = t[:horizon]
            counts = (~np.isnan(grid)).sum(axis=0)
            for turn in range(horizon):
                iv = mean_t(grid[:, turn])
                row = {"variant": v, "group": label, "turn": turn + 1, "mean": iv.estimate, "low": iv.low,
                       "high": iv.high}
                if with_counts:
                    row["seats"] = int(counts[turn])
                rows.append(row)
    return pd.DataFrame(rows)
