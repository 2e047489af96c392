"""Objectives and constraints: a figure of a candidate's results set, and how far it is from what the designer wants.

A *measure* names a table of the results set (:mod:`trustme_analysis.results`), optionally the rows to keep
(``where``), a column, and how the kept rows become one figure (``aggregate``); for example the Balance row of
``ludii_metrics``, the set-bonus share of all seats in ``chart_shares``, or the spread of the seat win rates.

An **objective** turns the figure into a *loss* the search minimises: ``goal = "minimize"`` / ``"maximize"``,
``target = t`` (loss ``|x - t|``) or ``range = [a, b]`` (loss: the distance outside the range, 0 inside). A
**constraint** says where the figure must lie (``at_most``, ``at_least`` or ``range``); its *violation* is the
distance outside (0 when met).

Every figure carries an interval when its table gives one: the columns ``<column>_low``/``<column>_high``, ``low``/
``high`` beside ``value`` or a rate, or those of the column's stem (``turns_mean`` -> ``turns_low``), or the columns
named by ``interval = [low, high]``. Aggregates bound the interval from the rows' intervals (the maximum of several
estimates lies between the maximum of their lows and the maximum of their highs, and so on), which is conservative;
``mean`` over a table without interval columns (one row per game, such as ``pinocchio_games``) takes Student's t
interval over the rows. Losses and violations get the interval of all values the figure's interval allows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from trustme_analysis.results import ResultSet
from trustme_analysis.specfile import SpecError, check_keys, did_you_mean, optional, require_in, type_ok
from trustme_analysis.stats.intervals import mean_t

AGGREGATES = ("value", "mean", "min", "max", "spread", "max_abs")
MEASURE_KEYS = ("name", "table", "column", "where", "aggregate", "relative_to", "interval")
OBJECTIVE_KEYS = MEASURE_KEYS + ("goal", "target", "range")
CONSTRAINT_KEYS = MEASURE_KEYS + ("at_most", "at_least", "range")
GOALS = ("minimize", "maximize")
#: Column names whose interval is the plain ``low``/``high`` pair of their table.
_PLAIN_ESTIMATES = ("value", "estimate", "win_rate", "share", "mean", "rate")


class Figure(NamedTuple):
    """A measured figure with its interval (NaN ends when the table gives none)."""

    value: float
    low: float
    high: float
    rows: int = 1


@dataclass(frozen=True)
class Measure:
    """Which figure of a results set: table, rows, column and aggregate."""

    name: str
    table: str
    column: str
    where: Mapping[str, Any] = field(default_factory=dict)
    aggregate: str = "value"
    relative_to: str | None = None
    interval: tuple[str, str] | None = None

    def describe(self) -> str:
        """``aggregate of table.column [where ...] [- relative_to]`` in words."""
        where = ", ".join(f"{k} = {v}" for k, v in self.where.items())
        rel = f" minus {self.relative_to}" if self.relative_to else ""
        what = f"{self.table}.{self.column}{rel}" + (f" where {where}" if where else "")
        return what if self.aggregate == "value" else f"{self.aggregate.replace('_', ' ')} of {what}"

    # --- reading the figure ----------------------------------------------------------------------------------------

    def rows(self, res: ResultSet) -> pd.DataFrame:
        """The rows of the table the measure reads."""
        frame = res[self.table]
        for col, wanted in self.where.items():
            frame = frame[_matches(frame[col], wanted)]
        return frame

    def interval_columns(self, frame: pd.DataFrame) -> tuple[str, str] | None:
        """The table's interval columns for the measure's column, or ``None``."""
        if self.interval is not None:
            return self.interval
        return interval_columns(frame.columns, self.column)

    def read(self, res: ResultSet) -> Figure:
        """The figure and its interval from a results set."""
        frame = self.rows(res)
        if frame.empty:
            return Figure(math.nan, math.nan, math.nan, 0)
        x = frame[self.column].to_numpy(dtype=float)
        cols = self.interval_columns(frame)
        if cols is not None:
            lo, hi = frame[cols[0]].to_numpy(dtype=float), frame[cols[1]].to_numpy(dtype=float)
        else:
            lo = hi = np.full_like(x, math.nan)
        if self.relative_to:
            shift = frame[self.relative_to].to_numpy(dtype=float)
            x, lo, hi = x - shift, lo - shift, hi - shift
        return aggregate(self.aggregate, x, lo, hi, has_interval=cols is not None)


def _matches(column: pd.Series, wanted: Any) -> pd.Series:
    if isinstance(wanted, bool):
        return column.astype(bool) == wanted
    if isinstance(wanted, (int, float)):
        return pd.to_numeric(column, errors="coerce") == wanted
    return column.astype(str) == str(wanted)


def interval_columns(columns: Sequence[str], column: str) -> tuple[str, str] | None:
    """The interval columns a results-set table gives for ``column`` by the tables' naming conventions."""
    cols = set(map(str, columns))
    candidates = [(f"{column}_low", f"{column}_high")]
    for suffix in ("_mean", "_share", "_rate"):
        if column.endswith(suffix):
            candidates.append((f"{column[: -len(suffix)]}_low", f"{column[: -len(suffix)]}_high"))
    if column in _PLAIN_ESTIMATES:
        candidates.append(("low", "high"))
    for lo, hi in candidates:
        if lo in cols and hi in cols:
            return lo, hi
    return None


def aggregate(how: str, x: np.ndarray, lo: np.ndarray, hi: np.ndarray, has_interval: bool) -> Figure:
    """Rows' estimates ``x`` (with interval ends ``lo``, ``hi``) as one figure.

    >>> aggregate("spread", np.array([0.3, 0.2]), np.array([0.25, 0.15]), np.array([0.35, 0.25]), True)
    Figure(value=0.09999999999999998, low=0.0, high=0.19999999999999998, rows=2)
    """
    n = len(x)
    if how == "value":
        if n != 1:
            raise ValueError(f"aggregate 'value' needs exactly one row, the table has {n} (narrow it with 'where', "
                             f"or choose an aggregate: {', '.join(AGGREGATES[1:])})")
        return Figure(float(x[0]), float(lo[0]), float(hi[0]), 1)
    if how == "mean":
        if not has_interval:
            iv = mean_t(x)
            return Figure(iv.estimate, iv.low, iv.high, n)
        return Figure(float(np.mean(x)), float(np.mean(lo)), float(np.mean(hi)), n)
    if how == "max":
        return Figure(float(np.max(x)), float(np.max(lo)), float(np.max(hi)), n)
    if how == "min":
        return Figure(float(np.min(x)), float(np.min(lo)), float(np.min(hi)), n)
    if how == "spread":
        low = max(0.0, float(np.max(lo) - np.min(hi)))
        return Figure(float(np.max(x) - np.min(x)), low, float(np.max(hi) - np.min(lo)), n)
    if how == "max_abs":
        nearest = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(np.abs(lo), np.abs(hi)))
        return Figure(float(np.max(np.abs(x))), float(np.max(nearest)),
                      float(np.max(np.maximum(np.abs(lo), np.abs(hi)))), n)
    raise ValueError(f"unknown aggregate {how!r}; allowed: {', '.join(AGGREGATES)}")


# ------------------------------------------------------------------------------------------------ losses and limits


def distance_outside(x: float, low: float, high: float) -> float:
    """How far ``x`` lies outside ``[low, high]`` (0 inside; either end may be infinite)."""
    return max(low - x, 0.0, x - high)


def distance_interval(lo: float, hi: float, a: float, b: float) -> tuple[float, float]:
    """The smallest and largest :func:`distance_outside` ``[a, b]`` of a value in ``[lo, hi]`` (the distance is
    convex, so the largest is at an end)."""
    if math.isnan(lo) or math.isnan(hi):
        return math.nan, math.nan
    nearest = 0.0 if lo <= b and hi >= a else min(distance_outside(lo, a, b), distance_outside(hi, a, b))
    return nearest, max(distance_outside(lo, a, b), distance_outside(hi, a, b))


def mover(a: float, a_low: float, a_high: float, b: float, b_low: float, b_high: float) -> tuple[float, float, float]:
    """The difference ``a - b`` of two estimates with the interval built from their own intervals (MOVER: Zou and
    Donner, "Construction of confidence limits about effect measures: a general approach", Statistics in Medicine
    27, 2008). Conservative when ``a`` and ``b`` are positively correlated (common random numbers).

    >>> [round(x, 3) for x in mover(0.5, 0.4, 0.6, 0.3, 0.2, 0.4)]
    [0.2, 0.059, 0.341]
    """
    d = a - b
    if any(math.isnan(x) for x in (a_low, a_high, b_low, b_high)):
        return d, math.nan, math.nan
    low = d - math.sqrt((a - a_low) ** 2 + (b_high - b) ** 2)
    high = d + math.sqrt((a_high - a) ** 2 + (b - b_low) ** 2)
    return d, low, high


@dataclass(frozen=True)
class Objective:
    """A measure and what the designer wants of it; :meth:`loss` is what the search minimises."""

    measure: Measure
    goal: str | None = None
    target: float | None = None
    range: tuple[float, float] | None = None

    @property
    def name(self) -> str:
        return self.measure.name

    def wanted(self) -> str:
        """What the designer asked, in words."""
        if self.goal is not None:
            return f"as {'high' if self.goal == 'maximize' else 'low'} as possible"
        if self.target is not None:
            return f"near {self.target:g}"
        assert self.range is not None
        return f"between {self.range[0]:g} and {self.range[1]:g}"

    def bounds(self) -> tuple[float, float]:
        """The figure's wanted interval: a target is a range of width 0; a goal has no finite range."""
        if self.target is not None:
            return self.target, self.target
        if self.range is not None:
            return self.range
        return -math.inf, math.inf

    def loss(self, fig: Figure) -> Figure:
        """The loss of a figure, with the interval of the losses its interval allows."""
        if self.goal == "minimize":
            return Figure(fig.value, fig.low, fig.high, fig.rows)
        if self.goal == "maximize":
            return Figure(-fig.value, -fig.high, -fig.low, fig.rows)
        a, b = self.bounds()
        lo, hi = distance_interval(fig.low, fig.high, a, b)
        return Figure(distance_outside(fig.value, a, b), lo, hi, fig.rows)


@dataclass(frozen=True)
class Constraint:
    """A measure that must lie in ``[at_least, at_most]`` (either end may be open)."""

    measure: Measure
    at_least: float = -math.inf
    at_most: float = math.inf

    @property
    def name(self) -> str:
        return self.measure.name

    def wanted(self) -> str:
        """The limit, in words."""
        if math.isinf(self.at_least):
            return f"at most {self.at_most:g}"
        if math.isinf(self.at_most):
            return f"at least {self.at_least:g}"
        return f"between {self.at_least:g} and {self.at_most:g}"

    def violation(self, fig: Figure) -> Figure:
        """How far the figure lies outside the limit (0: met), with its interval."""
        lo, hi = distance_interval(fig.low, fig.high, self.at_least, self.at_most)
        return Figure(distance_outside(fig.value, self.at_least, self.at_most), lo, hi, fig.rows)


# ---------------------------------------------------------------------------------------------------------- parsing


def _float(key: str, value: Any) -> float:
    # TOML writes nan and inf: a target of nan is never met and a bound of inf says nothing, so both are refused.
    if not type_ok(value, float) or not math.isfinite(value):
        raise SpecError(key, f"must be a finite number, got {value!r}")
    return float(value)


def _pair(key: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise SpecError(key, f"must be a list of two numbers [low, high], got {value!r}")
    low, high = _float(f"{key}[0]", value[0]), _float(f"{key}[1]", value[1])
    if high < low:
        raise SpecError(key, f"must be [low, high] with low <= high, got {value!r}")
    return low, high


def _parse_measure(key: str, body: Mapping[str, Any], names: set[str]) -> Measure:
    name = require_in(body, key, "name", str)
    if not name.strip():
        raise SpecError(f"{key}.name", "must be a non-empty name")
    if name in names:
        raise SpecError(f"{key}.name", f"{name!r} is used twice; every objective and constraint needs its own name")
    names.add(name)
    table = require_in(body, key, "table", str)
    column = require_in(body, key, "column", str)
    where = optional(body, "where", dict, {}, where=key)
    for col, value in where.items():
        if not isinstance(value, (str, int, float, bool)):
            raise SpecError(f"{key}.where.{col}", f"must be a text, number or true/false, got {value!r}")
    how = optional(body, "aggregate", str, "value", where=key)
    if how not in AGGREGATES:
        raise SpecError(f"{key}.aggregate", f"unknown aggregate {how!r}{did_you_mean(how, AGGREGATES)} "
                        f"(aggregates: {', '.join(AGGREGATES)})")
    relative_to = optional(body, "relative_to", str, None, where=key)
    interval = body.get("interval")
    if interval is not None:
        if not isinstance(interval, list) or len(interval) != 2 or not all(isinstance(c, str) for c in interval):
            raise SpecError(f"{key}.interval", f"must name two columns [low, high], got {interval!r}")
        interval = (interval[0], interval[1])
    return Measure(name, table, column, dict(where), how, relative_to, interval)


def parse_objectives(items: Any, names: set[str]) -> tuple[Objective, ...]:
    """The ``[[objective]]`` tables."""
    if items is None:
        raise SpecError("objective", "missing (required): give at least one [[objective]] table")
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) for i in items):
        raise SpecError("objective", "must be one or more [[objective]] tables")
    out = []
    for i, body in enumerate(items):
        key = f"objective[{i}]"
        check_keys(key, body, OBJECTIVE_KEYS)
        measure = _parse_measure(key, body, names)
        given = [k for k in ("goal", "target", "range") if k in body]
        if len(given) != 1:
            raise SpecError(key, "needs exactly one of goal = \"minimize\"/\"maximize\", target = NUMBER or "
                            f"range = [LOW, HIGH]; got {', '.join(given) or 'none'}")
        if "goal" in body:
            goal = body["goal"]
            if goal not in GOALS:
                raise SpecError(f"{key}.goal", f"must be one of {', '.join(GOALS)}, got {goal!r}")
            out.append(Objective(measure, goal=goal))
        elif "target" in body:
            out.append(Objective(measure, target=_float(f"{key}.target", body["target"])))
        else:
            out.append(Objective(measure, range=_pair(f"{key}.range", body["range"])))
    return tuple(out)


def parse_constraints(items: Any, names: set[str]) -> tuple[Constraint, ...]:
    """The ``[[constraint]]`` tables (optional)."""
    if items is None:
        return ()
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise SpecError("constraint", "must be [[constraint]] tables")
    out = []
    for i, body in enumerate(items):
        key = f"constraint[{i}]"
        check_keys(key, body, CONSTRAINT_KEYS)
        measure = _parse_measure(key, body, names)
        if "range" in body:
            if "at_most" in body or "at_least" in body:
                raise SpecError(key, "give range = [LOW, HIGH] or at_least/at_most, not both")
            low, high = _pair(f"{key}.range", body["range"])
        elif "at_most" in body or "at_least" in body:
            low = _float(f"{key}.at_least", body["at_least"]) if "at_least" in body else -math.inf
            high = _float(f"{key}.at_most", body["at_most"]) if "at_most" in body else math.inf
            if high < low:
                raise SpecError(key, f"at_least ({low:g}) is above at_most ({high:g})")
        else:
            raise SpecError(key, "needs at_most = NUMBER, at_least = NUMBER or range = [LOW, HIGH]")
        out.append(Constraint(measure, low, high))
    return tuple(out)


def check_measure(key: str, measure: Measure, res: ResultSet, game: str) -> tuple[str, str] | None:
    """Check that ``measure`` can be read from a results set of ``game`` (a probe of a few games); the first
    problem raises :class:`SpecError` naming ``key``. Returns the interval columns it will read (``None``: none)."""
    if measure.table not in res:
        tables = list(res)
        raise SpecError(f"{key}.table", f"no table {measure.table!r} in a {game} results set"
                        f"{did_you_mean(measure.table, tables)} (tables: {', '.join(tables)})")
    frame = res[measure.table]
    columns = [str(c) for c in frame.columns]

    def need(where: str, col: str) -> None:
        if col not in columns:
            raise SpecError(where, f"table {measure.table} has no column {col!r}{did_you_mean(col, columns)} "
                            f"(columns: {', '.join(columns)})")

    need(f"{key}.column", measure.column)
    if measure.relative_to:
        need(f"{key}.relative_to", measure.relative_to)
    for col, wanted in measure.where.items():
        need(f"{key}.where.{col}", col)
        if not _matches(frame[col], wanted).any():
            values = ", ".join(sorted({str(v) for v in frame[col]}))
            raise SpecError(f"{key}.where.{col}", f"no row of {measure.table} has {col} = {wanted!r} (values: "
                            f"{values})")
    if measure.interval is not None:
        for i, col in enumerate(measure.interval):
            need(f"{key}.interval[{i}]", col)
    rows = measure.rows(res)
    if not pd.api.types.is_numeric_dtype(rows[measure.column]) and not pd.api.types.is_bool_dtype(rows[measure.column]):
        raise SpecError(f"{key}.column", f"{measure.table}.{measure.column} is not a number column")
    try:
        measure.read(res)
    except ValueError as exc:
        raise SpecError(f"{key}.aggregate", str(exc)) from None
    return measure.interval_columns(rows)
