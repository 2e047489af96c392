"""Per-game statistics accumulated a piece at a time: the count, sum and sum of squares of a per-game value (or of
the paired difference of two variants' values), merged exactly, so a mean, its t interval, Welch's interval or the
paired t interval over a million games needs no array of them.

A :class:`Moments` keeps the values themselves while there are at most :data:`EXACT_UNITS` of them (a bounded
buffer) and computes its figures from them exactly as the whole-array functions of
:mod:`trustme_analysis.stats.intervals` do (the same floating-point operations, so the same bits); past that it keeps
only the exact sums. The sums are exact whatever the values (every float is an integer times a power of two, and the
integers are added as integers), so merging pieces in any order gives the same sums, and the mean and variance
computed from them are the correctly rounded ones. numpy's mean and standard deviation of the same values round
their partial sums along the way, so past :data:`EXACT_UNITS` values a figure may differ from the whole-array one in
its last bits (a relative difference of the order of 1e-16 to 1e-15; identical for means of whole numbers below
2**53, whose sums are exact either way).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd
from scipy import stats as sps

from trustme_analysis.stats.intervals import (
    CONFIDENCE,
    MAX_BOOTSTRAP_UNITS,
    Difference,
    Interval,
    difference_of_means,
    mean_t,
    paired_difference,
)

#: Values a :class:`Moments` keeps as they are (computing from them as the whole-array functions do); past this many,
#: only their exact sums. The bootstrap's bound (:data:`MAX_BOOTSTRAP_UNITS`): at most that many games per variant,
#: every table is the one the whole arrays give, bit for bit.
EXACT_UNITS = MAX_BOOTSTRAP_UNITS

#: Values summed in one integer pass: the parts of the squared mantissas are below 2**38, so 2**24 of them stay below
#: 2**63 (no int64 overflow).
_SLICE = 1 << 24
#: Whole numbers below this are summed, and squared, in int64 directly.
_WHOLE = float(1 << 20)


def exact_sums(values: np.ndarray) -> tuple[Fraction, Fraction]:
    """The exact sum and sum of squares of finite float64 ``values``, as fractions (no rounding at all).

    Each value is its 53-bit integer mantissa times a power of two; the mantissas of one exponent are added as
    integers (in parts small enough for int64), and the powers of two applied once per exponent, so the result does
    not depend on the order of the values or on how they were split into pieces.
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size <= _SLICE and x.size and float(np.abs(x).max()) < _WHOLE and bool((x == np.trunc(x)).all()):
        # Whole numbers of a few digits (counts, turns, points): int64 sums are exact (squares below 2**40, at
        # most 2**24 of them), and far quicker.
        n = x.astype(np.int64)
        return Fraction(int(n.sum())), Fraction(int((n * n).sum()))
    total, total_sq = Fraction(0), Fraction(0)
    for first in range(0, x.size, _SLICE):
        part = x[first:first + _SLICE]
        if not part.size:
            continue
        mantissa, exponent = np.frexp(part)  # part = mantissa * 2**exponent, 0.5 <= |mantissa| < 1
        m = (mantissa * float(1 << 53)).astype(np.int64)  # exact: |m| < 2**53, part = m * 2**(exponent - 53)
        order = np.argsort(exponent, kind="stable")
        e, m = exponent[order], m[order]
        starts = np.flatnonzero(np.concatenate([[True], e[1:] != e[:-1]]))
        # Sum: m = hi * 2**26 + lo with 0 <= lo < 2**26 (floor shift), both parts small enough to add 2**24 of them.
        hi = np.add.reduceat(m >> 26, starts)
        lo = np.add.reduceat(m & ((1 << 26) - 1), starts)
        # Square: |m| = a * 2**36 + b * 2**18 + c (a < 2**17, b, c < 2**18), so m**2 is a sum of five terms each
        # below 2**38 times a power of two.
        a = np.abs(m)
        c, b, a = a & 0x3FFFF, (a >> 18) & 0x3FFFF, a >> 36
        terms = [np.add.reduceat(t, starts) for t in (a * a, 2 * a * b, 2 * a * c + b * b, 2 * b * c, c * c)]
        for g, start in enumerate(starts):
            power = int(e[start]) - 53
            s = (int(hi[g]) << 26) + int(lo[g])
            sq = ((int(terms[0][g]) << 72) + (int(terms[1][g]) << 54) + (int(terms[2][g]) << 36)
                  + (int(terms[3][g]) << 18) + int(terms[4][g]))
            total += s * Fraction(2) ** power
            total_sq += sq * Fraction(2) ** (2 * power)
    return total, total_sq


class Moments:
    """The count, exact sum and exact sum of squares of a stream of values (NaNs dropped), added a piece at a time
    (:meth:`add`) or merged (:meth:`merge`); the values themselves too while there are at most ``exact_units``.

    The figures (:meth:`mean`, :meth:`std`, :func:`mean_interval`, :func:`welch`, :func:`paired`) are those of the
    whole array while it is kept (the same calls on it), else those of the exact sums (see the module docstring).
    """

    __slots__ = ("_kept", "exact_units", "n", "total", "total_sq")

    def __init__(self, exact_units: int | None = None):
        self.n = 0
        self.total = Fraction(0)
        self.total_sq = Fraction(0)
        self.exact_units = EXACT_UNITS if exact_units is None else int(exact_units)
        self._kept: list[np.ndarray] | None = []

    @classmethod
    def of(cls, values: np.ndarray, exact_units: int | None = None) -> Moments:
        """The moments of ``values`` in one piece."""
        out = cls(exact_units)
        out.add(values)
        return out

    def add(self, values: np.ndarray) -> Moments:
        """Add a piece of values (NaNs dropped, order kept); returns ``self``."""
        x = np.asarray(values, dtype=np.float64).ravel()
        x = x[~np.isnan(x)]
        if not x.size:
            return self
        if not np.isfinite(x).all():
            raise ValueError(f"a per-game value of {x[~np.isfinite(x)][0]} is not allowed; allowed: finite "
                             f"numbers or NaN (no value)")
        s, sq = exact_sums(x)
        self.n += int(x.size)
        self.total += s
        self.total_sq += sq
        if self._kept is not None:
            if self.n <= self.exact_units:
                self._kept.append(x.copy())
            else:  # past the bound: the sums alone from now on (memory stays bounded)
                self._kept = None
        return self

    def merge(self, other: Moments) -> Moments:
        """Add the values of ``other`` (after this one's, for the kept values' order); returns ``self``."""
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq
        if self._kept is not None and other._kept is not None and self.n <= self.exact_units:
            self._kept.extend(other._kept)
        else:
            self._kept = None
        return self

    @property
    def values(self) -> np.ndarray | None:
        """Every value in order while they are kept (at most ``exact_units``), else ``None``."""
        if self._kept is None:
            return None
        if not self._kept:
            return np.zeros(0)
        return np.concatenate(self._kept) if len(self._kept) != 1 else self._kept[0]

    @property
    def sum(self) -> float:
        """The sum: numpy's of the kept values, else the exact sum rounded once (the same for whole numbers below
        2**53, e.g. a count of games)."""
        kept = self.values
        return float(kept.sum()) if kept is not None else float(self.total)

    def mean(self) -> float:
        """The mean (NaN without values): numpy's of the kept values, else the exact sum over n, rounded once."""
        if self.n == 0:
            return math.nan
        kept = self.values
        return float(kept.mean()) if kept is not None else float(self.total / self.n)

    def var(self) -> float:
        """The variance with ``n - 1`` in the denominator (NaN with fewer than two values)."""
        if self.n < 2:
            return math.nan
        kept = self.values
        if kept is not None:
            return float(kept.var(ddof=1))
        return float((self.n * self.total_sq - self.total * self.total) / (self.n * (self.n - 1)))

    def std(self) -> float:
        """The standard deviation with ``n - 1`` in the denominator (NaN with fewer than two values)."""
        # (numpy's std is the correctly rounded square root of its var, as math.sqrt is: the same bits)
        return math.sqrt(self.var()) if self.n >= 2 else math.nan


def mean_interval(m: Moments, confidence: float = CONFIDENCE, floor: float | None = None) -> Interval:
    """Student's t interval for the mean (:func:`trustme_analysis.stats.intervals.mean_t` of the values).

    ``floor``: the least value a game can give (0 for a count per game). The mean of such values cannot be lower,
    but a t interval of a skewed count (a rare event: a few games with one or two, most with none) can reach below
    it; its ends are then raised to ``floor`` instead of showing a negative count."""
    kept = m.values
    if kept is not None:
        out = mean_t(kept, confidence)
    else:
        mean = m.mean()
        sem = m.std() / math.sqrt(m.n)
        if sem == 0.0:
            out = Interval(mean, mean, mean)
        else:
            q = float(sps.t.ppf(0.5 + confidence / 2.0, m.n - 1))
            out = Interval(mean, mean - q * sem, mean + q * sem)
    if floor is None:
        return out
    # (NaN ends stay NaN: max would turn them into the floor)
    return Interval(out.estimate, *(e if math.isnan(e) else max(e, floor) for e in (out.low, out.high)))


def welch(x: Moments, y: Moments, confidence: float = CONFIDENCE) -> Difference:
    """``mean(x) - mean(y)`` with Welch's interval and test
    (:func:`trustme_analysis.stats.intervals.difference_of_means` of the values)."""
    kx, ky = x.values, y.values
    if kx is not None and ky is not None:
        return difference_of_means(kx, ky, confidence)
    if x.n < 2 or y.n < 2:
        return Difference(math.nan, math.nan, math.nan, math.nan)
    d = x.mean() - y.mean()
    vx, vy = x.var() / x.n, y.var() / y.n
    se = math.sqrt(vx + vy)
    if se == 0.0:
        return Difference(d, d, d, 1.0 if d == 0 else 0.0)
    dof = (vx + vy) ** 2 / (vx**2 / (x.n - 1) + vy**2 / (y.n - 1))
    q = float(sps.t.ppf(0.5 + confidence / 2.0, dof))
    return Difference(d, d - q * se, d + q * se, float(2.0 * sps.t.sf(abs(d) / se, dof)))


def paired(d: Moments, confidence: float = CONFIDENCE) -> Difference:
    """The paired t interval and test from the moments of the per-pair differences
    (:func:`trustme_analysis.stats.intervals.paired_difference` of the pairs)."""
    kept = d.values
    if kept is not None:
        # x - 0.0 is x exactly: the whole-array function sees the same differences.
        return paired_difference(kept, np.zeros_like(kept), confidence)
    if d.n < 2:
        return Difference(d.mean(), math.nan, math.nan, math.nan)
    mean = d.mean()
    se = d.std() / math.sqrt(d.n)
    if se == 0.0:
        return Difference(mean, mean, mean, 1.0 if mean == 0 else 0.0)
    q = float(sps.t.ppf(0.5 + confidence / 2.0, d.n - 1))
    return Difference(mean, mean - q * se, mean + q * se, float(2.0 * sps.t.sf(abs(mean) / se, d.n - 1)))


#: Rows of a per-game frame handed out as one piece (a frame in memory is read in pieces of this many games, so no
#: per-metric copy of a whole variant is made).
PIECE_ROWS = 1 << 16


class GameRows:
    """A per-game table (one row per game: ``variant``, ``game_index`` and per-game measures) read a variant and a
    piece at a time, with the moments of its columns (:meth:`moments`) and of the paired differences of two
    variants' columns (:meth:`paired`), each from one pass over the pieces, cached.

    Build it from a frame (:meth:`from_frame`) or from a function giving a variant's pieces (the pieces of a per-game
    table on disk); ``pieces(variant, columns)`` yields frames of those columns (those present), in game order.
    """

    def __init__(self, variant_ids: Sequence[str], columns: Sequence[str],
                 pieces: Callable[[str, Sequence[str]], Iterable[pd.DataFrame]]):
        self.variant_ids = sorted(str(v) for v in variant_ids)
        self.columns = [str(c) for c in columns]
        self._pieces = pieces
        self._moments: dict[str, dict[str, Moments]] = {}
        self._rows: dict[str, int] = {}
        self._paired: dict[tuple[str, str], dict[str, Moments] | None] = {}

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, piece_rows: int = PIECE_ROWS) -> GameRows:
        """The rows of ``frame`` (a ``variant`` column), each variant's in the frame's order."""
        at = frame.groupby("variant", sort=False).indices if len(frame) else {}

        def pieces(vid: str, columns: Sequence[str]) -> Iterator[pd.DataFrame]:
            rows = at.get(vid)
            if rows is None:
                return
            cols = [c for c in columns if c in frame.columns]
            for first in range(0, len(rows), piece_rows):
                yield frame.iloc[rows[first:first + piece_rows]][cols]

        return cls(list(at), list(frame.columns), pieces)

    def __contains__(self, variant_id: object) -> bool:
        return variant_id in self.variant_ids

    def pieces(self, variant_id: str, columns: Sequence[str]) -> Iterator[pd.DataFrame]:
        """One variant's rows, only ``columns`` (those present), a piece at a time in the table's order."""
        yield from self._pieces(variant_id, [c for c in columns if c in self.columns])

    def moments(self, variant_id: str, columns: Sequence[str]) -> dict[str, Moments]:
        """The :class:`Moments` of each of ``columns`` (present ones) over the variant's games, in its order."""
        have = self._moments.setdefault(variant_id, {})
        missing = [c for c in dict.fromkeys(columns) if c in self.columns and c not in have]
        if missing or variant_id not in self._rows:
            fresh = {c: Moments() for c in missing}
            rows = 0
            for piece in self.pieces(variant_id, missing or self.columns[:1]):
                rows += len(piece)
                for c in missing:
                    fresh[c].add(piece[c].to_numpy(dtype=float))
            have.update(fresh)
            self._rows[variant_id] = rows
        return {c: have[c] for c in columns if c in have}

    def rows_of(self, variant_id: str) -> int:
        """The variant's rows (games), NaNs or not."""
        if variant_id not in self._rows:
            self.moments(variant_id, [])
        return self._rows[variant_id]

    def paired(self, variant_id: str, reference: str, columns: Sequence[str]) -> dict[str, Moments] | None:
        """The :class:`Moments` of each column's per-game difference (variant minus reference, game by game; pairs
        with a NaN dropped), or ``None`` when the two cannot be paired: no ``game_index`` column, a game index twice
        in one of them, or not the same games.

        One pass over both variants' pieces in game order, matched piece by piece, so memory holds a piece of each.
        """
        key = (variant_id, reference)
        cols = [c for c in dict.fromkeys(columns) if c in self.columns and c != "game_index"]
        cached = self._paired.get(key, {})
        if cached is None:
            return None
        missing = [c for c in cols if c not in cached]
        if missing:
            fresh = self._pair_pass(variant_id, reference, missing)
            if fresh is None:
                self._paired[key] = None
                return None
            cached.update(fresh)
            self._paired[key] = cached
        return {c: cached[c] for c in cols}

    def _ordered(self, variant_id: str, columns: list[str]) -> Iterator[dict[str, np.ndarray]]:
        """The variant's game indices and ``columns`` (float64) in pieces of increasing game index; a piece with a
        game index not above the previous one (an unsorted table, or a game twice) raises :class:`_Unordered`."""
        last = None
        for piece in self.pieces(variant_id, ["game_index", *columns]):
            keys = piece["game_index"].to_numpy(dtype=np.int64)
            if not keys.size:
                continue
            if (keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1]))) or (last is not None and keys[0] <= last):
                raise _Unordered
            last = int(keys[-1])
            yield {"game_index": keys, **{c: piece[c].to_numpy(dtype=float) for c in columns}}

    def _sorted(self, variant_id: str, columns: list[str]) -> Iterator[dict[str, np.ndarray]]:
        """The variant's rows sorted by game index in one piece (the fallback for a table not in game order); a game
        index twice raises :class:`_Repeated`."""
        parts = list(self.pieces(variant_id, ["game_index", *columns]))
        if not parts:
            return
        whole = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        keys = whole["game_index"].to_numpy(dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        keys = keys[order]
        if keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1])):
            raise _Repeated
        yield {"game_index": keys, **{c: whole[c].to_numpy(dtype=float)[order] for c in columns}}

    def _pair_pass(self, variant_id: str, reference: str, columns: list[str]) -> dict[str, Moments] | None:
        if "game_index" not in self.columns:
            return None
        try:
            try:
                return _match(self._ordered(variant_id, columns), self._ordered(reference, columns), columns)
            except _Unordered:
                return _match(self._sorted(variant_id, columns), self._sorted(reference, columns), columns)
        except _Repeated:
            return None


class _Unordered(Exception):
    """A variant's rows are not in increasing game order."""


class _Repeated(Exception):
    """A variant has a game index twice (several rows per game: not pairable)."""


def _match(left: Iterator[dict[str, np.ndarray]], right: Iterator[dict[str, np.ndarray]],
           columns: list[str]) -> dict[str, Moments] | None:
    """The moments of ``left - right`` per column over the games both have, from pieces in increasing game order;
    ``None`` when a game is in one and not the other."""
    out = {c: Moments() for c in columns}
    a = b = None
    while True:
        if a is None or not a["game_index"].size:
            a = next(left, None)
        if b is None or not b["game_index"].size:
            b = next(right, None)
        if a is None and b is None:
            return out
        if a is None or b is None:
            return None  # one has games the other has not
        # Everything up to the smaller of the two pieces' last games is in both pieces, or the sets differ.
        upto = min(int(a["game_index"][-1]), int(b["game_index"][-1]))
        ka = int(np.searchsorted(a["game_index"], upto, side="right"))
        kb = int(np.searchsorted(b["game_index"], upto, side="right"))
        if ka != kb or not np.array_equal(a["game_index"][:ka], b["game_index"][:kb]):
            return None
        for c in columns:
            x, y = a[c][:ka], b[c][:kb]
            keep = ~(np.isnan(x) | np.isnan(y))
            out[c].add((x - y)[keep])
        a = {k: v[ka:] for k, v in a.items()}
        b = {k: v[kb:] for k, v in b.items()}


class BlockSums:
    """Per-game values of a variant's ``n`` games (rows in game order, a few columns), added a piece of games at a
    time and kept as the units a bootstrap over games resamples: the per-game rows themselves while ``n`` is at most
    :data:`~trustme_analysis.stats.intervals.MAX_BOOTSTRAP_UNITS`, else their sums over the blocks of consecutive
    games :func:`~trustme_analysis.stats.intervals.blocks` cuts (what
    :func:`~trustme_analysis.stats.intervals.ratio_of_sums` resamples), so memory stays bounded however many games.

    With whole-number values (counts, points) the block sums are exact, so
    ``ratio_of_sums(units[:, 0], units[:, 1], rng)`` is bit for bit the interval of the per-game arrays.
    """

    def __init__(self, n: int, width: int):
        from trustme_analysis.stats.intervals import blocks

        self.n, self.width = int(n), int(width)
        self.starts = blocks(self.n)
        self._kept: list[np.ndarray] = []
        self._sums = np.zeros((0 if self.starts is None else self.starts.size, self.width))
        self.done = 0

    def add(self, values: np.ndarray) -> None:
        """Add the next games' rows (``games x width``), in game order."""
        x = np.asarray(values, dtype=float).reshape(-1, self.width)
        if self.done + x.shape[0] > self.n:
            raise ValueError(f"BlockSums of {self.n} games: {self.done + x.shape[0]} games added; allowed: at most "
                             f"{self.n}")
        if self.starts is None:
            self._kept.append(x)
        elif x.shape[0]:
            block = np.searchsorted(self.starts, self.done + np.arange(x.shape[0]), side="right") - 1
            cut = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
            self._sums[block[cut]] += np.add.reduceat(x, cut, axis=0)
        self.done += x.shape[0]

    @property
    def units(self) -> np.ndarray:
        """The resampled units (``units x width``): the per-game rows, or the blocks' sums."""
        if self.done != self.n:
            raise ValueError(f"BlockSums of {self.n} games: {self.done} games added; allowed: exactly {self.n}")
        if self.starts is not None:
            return self._sums
        return np.concatenate(self._kept) if self._kept else np.zeros((0, self.width))


class Tally:
    """How many times each value of a stream was seen (NaNs dropped), added a piece at a time: the quantiles of all
    the values from a memory that grows with the distinct values only (turns, counts: a few hundred), not with the
    games."""

    def __init__(self) -> None:
        self.counts: dict[float, int] = {}

    def add(self, values: np.ndarray) -> Tally:
        """Add a piece of values; returns ``self``."""
        x = np.asarray(values, dtype=np.float64).ravel()
        for value, count in zip(*np.unique(x[~np.isnan(x)], return_counts=True)):
            self.counts[float(value)] = self.counts.get(float(value), 0) + int(count)
        return self

    @property
    def n(self) -> int:
        """The values counted."""
        return sum(self.counts.values())

    def quantile(self, q: Sequence[float]) -> np.ndarray:
        """``np.quantile`` of every value counted (NaNs without values)."""
        if not self.counts:
            return np.full(len(q), math.nan)
        # A quantile depends only on the sorted values: rebuilt from the tally for this call, then dropped.
        values = sorted(self.counts)
        return np.quantile(np.repeat(np.array(values), [self.counts[v] for v in values]), q)


class GameSums:
    """Per-game sums of a few columns of one variant's ``n`` games (whole numbers: counts, dollars), added a piece of
    games at a time: each column's moments over the games (a per-game mean and its t interval), its total, and the
    units a bootstrap over games resamples (:class:`BlockSums`), so memory stays bounded however many games."""

    def __init__(self, n: int, columns: Sequence[str]):
        self.columns = [str(c) for c in columns]
        self.blocks = BlockSums(n, len(self.columns))
        self.moments = {c: Moments() for c in self.columns}
        self.games = 0

    def add(self, per_game: pd.DataFrame) -> GameSums:
        """Add the next games' sums (one row per game, in game order, holding :attr:`columns`); returns ``self``."""
        values = per_game[self.columns].to_numpy(dtype=float)
        self.blocks.add(values)
        for i, c in enumerate(self.columns):
            self.moments[c].add(values[:, i])
        self.games += values.shape[0]
        return self

    def unit(self, column: str) -> np.ndarray:
        """The column's bootstrap units (the per-game sums, or their block sums; all games added)."""
        return self.blocks.units[:, self.columns.index(column)]

    def total(self, column: str) -> int:
        """The column's total over the games (a whole number)."""
        return int(self.moments[column].total)


def accumulate_records(records: pd.DataFrame, start: Callable[[str, int], object]) -> pd.DataFrame:
    """A table of every variant of a records frame from its accumulator (``acc = start(variant, games)``, then
    ``acc.add(rows)`` and ``acc.rows()``), each variant's records added in one piece, the variants' rows joined in
    sorted order: the whole-frame twin of ``Builder.accumulate_variants``, which adds a chunk at a time."""
    parts = []
    for variant in sorted(records["variant"].unique()):
        rv = records[records["variant"] == variant]
        acc = start(variant, int(rv["game_index"].nunique()) if "game_index" in rv.columns else 0)
        acc.add(rv)
        parts.append(acc.rows())
    filled = [p for p in parts if len(p)]
    return pd.concat(filled, ignore_index=True) if filled else pd.DataFrame()


class Group:
    """The rows of one group of a :class:`Groups`: their number, the count of nonzero values of each flag column
    (yes/no: won, bought any) and the moments of each mean column."""

    __slots__ = ("counts", "moments", "n")

    def __init__(self, flags: Sequence[str], means: Sequence[str], exact_units: int):
        self.n = 0
        self.counts = dict.fromkeys(flags, 0)
        self.moments = {c: Moments(exact_units) for c in means}

    def add(self, rows: pd.DataFrame) -> None:
        """Add a piece of the group's rows."""
        self.n += len(rows)
        for c in self.counts:
            self.counts[c] += int(rows[c].astype(bool).sum())
        for c, m in self.moments.items():
            m.add(rows[c].to_numpy(dtype=float))


class Groups:
    """Rows (seat records) grouped by the values of ``keys`` and added a piece at a time: a :class:`Group` per key
    tuple, each keeping its rows' order; :meth:`items` lists them sorted, as ``groupby(keys, sort=True)`` does.

    A group's means keep their values for up to :data:`EXACT_UNITS` games: ``seats`` names the column holding the
    rows per game (the players), else one row per game is assumed. :attr:`first` is the first row added (what is
    the same in every row of a variant: its mode, its players)."""

    def __init__(self, keys: Sequence[str], flags: Sequence[str] = (), means: Sequence[str] = (),
                 seats: str | None = None):
        self.keys, self.flags, self.means, self.seats = list(keys), tuple(flags), tuple(means), seats
        self.first: pd.Series | None = None
        self.groups: dict[tuple, Group] = {}
        self._units = EXACT_UNITS

    def add(self, rows: pd.DataFrame) -> Groups:
        """Add a piece of rows (holding the keys, flags and means); returns ``self``."""
        if not len(rows):
            return self
        if self.first is None:
            self.first = rows.iloc[0]
            if self.seats is not None and self.seats in rows.columns:
                self._units = EXACT_UNITS * int(self.first[self.seats])
        for value, part in rows.groupby(self.keys, sort=True):
            key = value if isinstance(value, tuple) else (value,)
            group = self.groups.get(key)
            if group is None:
                group = self.groups[key] = Group(self.flags, self.means, self._units)
            group.add(part)
        return self

    def items(self) -> list[tuple[tuple, Group]]:
        """``(key tuple, group)`` pairs in sorted key order."""
        return sorted(self.groups.items(), key=lambda item: item[0])


class Accumulated:
    """An accumulator as ``Builder.accumulate_variants`` and :func:`accumulate_records` take it, made of a plain
    aggregate fed pieces of rows (``state.add(rows)``: a :class:`Groups`, ...) and the function making a table's rows
    from it (``finish(state)``: a list of dicts); ``prepare`` derives columns of a piece before it is added."""

    def __init__(self, state: object, finish: Callable[[object], list[dict]],
                 prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None):
        self.state, self.finish, self.prepare = state, finish, prepare

    def add(self, rows: pd.DataFrame) -> None:
        """Add a piece of rows to the aggregate."""
        if len(rows):
            self.state.add(self.prepare(rows) if self.prepare is not None else rows)

    def rows(self) -> pd.DataFrame:
        """The table's rows."""
        return pd.DataFrame(self.finish(self.state))
