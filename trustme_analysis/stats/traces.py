"""The score (or wealth) over a game: the mean after each turn for the winner and the other seats, with t bands.

Records carry each seat's ``score_trace`` (its score after each turn begun) and ``win``. For each variant, seats are
split into the winner(s) and the others; each turn averages the seats whose game was still running (a game's trace
ends with the game), up to a horizon: the median length of the winners' traces (or of all traces).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from trustme_analysis.stats.intervals import mean_t, mean_t_sums


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


#: Traces whose turns are summed together in :func:`trace_part` (their values are held at once, several times over).
TRACE_ROWS = 4096


def trace_part(records: pd.DataFrame) -> dict[str, np.ndarray]:
    """What one chunk of a variant's records adds to its trace bands (:func:`trace_rows`): per group (winners,
    others) and turn, the traces running, their sum and sum of squares, and how many traces have each length.

    Integer traces (scores) are summed as integers, exactly, so the chunks' parts add up to the variant's in any
    order.
    """
    cells = records["score_trace"].to_numpy()
    won_all = records["win"].to_numpy(dtype=bool)
    pieces = [_trace_piece(cells[a:a + TRACE_ROWS], won_all[a:a + TRACE_ROWS])
              for a in range(0, len(cells), TRACE_ROWS)] or [_trace_piece(cells[:0], won_all[:0])]
    out = {key: _added(pieces, key) for key in pieces[0] if key != "exact"}
    out["exact"] = np.array(all(bool(p["exact"]) for p in pieces))
    return out


def _trace_piece(cells: np.ndarray, won: np.ndarray) -> dict[str, np.ndarray]:
    traces = [np.asarray(t) for t in cells]
    lengths = np.fromiter((t.size for t in traces), dtype=np.int64, count=len(traces))
    values = np.concatenate(traces) if traces else np.zeros(0, dtype=np.int64)
    exact = values.dtype.kind in "iub" or bool(np.all(np.mod(values, 1) == 0))
    turn = np.arange(values.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    winner_value = np.repeat(won, lengths)
    size = int(lengths.max(initial=0))
    out: dict[str, np.ndarray] = {"exact": np.array(exact),
                                  "winner_lengths": np.bincount(lengths[won], minlength=1),
                                  "all_lengths": np.bincount(lengths, minlength=1)}
    for name, mask in (("winners", winner_value), ("others", ~winner_value)):
        t, v = turn[mask], values[mask]
        out[f"{name}_n"] = np.bincount(t, minlength=size)
        if exact:
            v = v.astype(np.int64)
            # Float sums of integers below 2**53 are exact; int64 keeps them so when added over the chunks.
            out[f"{name}_sum"] = np.bincount(t, weights=v, minlength=size).astype(np.int64)
            out[f"{name}_sq"] = np.bincount(t, weights=v * v, minlength=size).astype(np.int64)
        else:
            out[f"{name}_sum"] = np.bincount(t, weights=v, minlength=size)
            out[f"{name}_sq"] = np.bincount(t, weights=v * v, minlength=size)
    return out


def _added(parts: list[dict[str, np.ndarray]], key: str) -> np.ndarray:
    arrays = [p[key] for p in parts]
    size = max((a.size for a in arrays), default=0)
    dtype = np.result_type(*arrays) if arrays else np.int64
    out = np.zeros(size, dtype=dtype)
    for a in arrays:
        out[: a.size] += a
    return out


def trace_rows(variant: str, parts: list[dict[str, np.ndarray]], labels: tuple[str, str] = ("winner", "other seats"),
               horizon_from_winners: bool = True, with_counts: bool = True) -> pd.DataFrame:
    """:func:`trace_bands`' rows of one variant from its chunks' :func:`trace_part`: the same horizon, counts and
    means; the ends of the intervals come from the exact sums of squares (:func:`mean_t_sums`), so they may differ
    from :func:`trace_bands`' in the last bits (relative 1e-15)."""
    lengths = _added(parts, "winner_lengths" if horizon_from_winners else "all_lengths")
    total = int(lengths.sum())
    if total == 0:
        horizon = 0
    else:  # the middle element of the sorted lengths, as trace_bands takes it
        horizon = int(np.searchsorted(np.cumsum(lengths), total // 2, side="right"))
    exact = all(bool(p["exact"]) for p in parts)
    rows = []
    for label, name in ((labels[0], "winners"), (labels[1], "others")):
        n, sums, squares = (_added(parts, f"{name}_{k}") for k in ("n", "sum", "sq"))
        for turn in range(horizon):
            count = int(n[turn]) if turn < n.size else 0
            if exact:
                total_t = int(sums[turn]) if turn < sums.size else 0
                square_t = int(squares[turn]) if turn < squares.size else 0
            else:
                total_t = float(sums[turn]) if turn < sums.size else 0.0
                square_t = float(squares[turn]) if turn < squares.size else 0.0
            iv = mean_t_sums(count, total_t, square_t)
            row = {"variant": variant, "group": label, "turn": turn + 1, "mean": iv.estimate, "low": iv.low,
                   "high": iv.high}
            if with_counts:
                row["seats"] = count
            rows.append(row)
    return pd.DataFrame(rows)
