"""Findings in sentences: the plain statements a page opens with, made from the results set's figures.

Pages compute nothing: these helpers only read estimates and interval ends from a table row and phrase them (which
variant is highest, whether an interval lies above a reference). Every sentence carries its 95% interval, so a reader
can tell a clear difference from noise.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from trustme_analysis.report.words import estimate, figure, missing

def capital(text: str) -> str:
    """``text`` with its first letter in upper case."""
    return text[:1].upper() + text[1:] if text else text


def versus(value: float, low: float, high: float, reference: float) -> str:
    """"more than", "less than" or "in line with": where an estimate's interval lies against ``reference``."""
    if missing(low) or missing(high) or missing(reference):
        return "compared with"
    if low > reference:
        return "more than"
    if high < reference:
        return "less than"
    return "in line with"


def overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two intervals overlap (or either is missing)."""
    if any(missing(x) for x in (*a, *b)):
        return True
    return not (a[1] < b[0] or b[1] < a[0])


def value_of(row: pd.Series | dict, column: str, unit: str, low: str | None = None, high: str | None = None,
             signed: bool = False) -> str:
    """The figure of ``column`` in ``row`` with its interval (columns ``low``/``high``, default ``column_low`` and
    ``column_high``)."""
    low = low or f"{column}_low"
    high = high or f"{column}_high"
    get = row.get if isinstance(row, dict) else (lambda k, d=None: row[k] if k in row.index else d)
    return estimate(get(column), get(low), get(high), unit, signed)


def extremes(ctx, table: pd.DataFrame, column: str, subject: str, unit: str, low: str | None = None,
             high: str | None = None, variants: Sequence[str] | None = None) -> str:
    """A sentence on ``subject`` across the variants: its value when there is one variant, else where it is lowest
    and highest, with a caveat when the two intervals overlap (the difference may be chance).

    ``table`` has one row per variant (column ``variant``); rows with no figure are left out.
    """
    low = low or f"{column}_low"
    high = high or f"{column}_high"
    variants = list(ctx.variant_ids if variants is None else variants)
    t = table[table["variant"].isin(variants)]
    t = t[~t[column].isna()]
    if t.empty:
        return ""
    if len(t) == 1:
        r = t.iloc[0]
        return f"{capital(subject)}: {value_of(r, column, unit, low, high)}."
    lo_row = t.loc[t[column].idxmin()]
    hi_row = t.loc[t[column].idxmax()]
    if lo_row["variant"] == hi_row["variant"] or lo_row[column] == hi_row[column]:
        return f"{capital(subject)} is {figure(hi_row[column], unit)} in every variant."
    clear = not overlap((lo_row[low], lo_row[high]), (hi_row[low], hi_row[high]))
    tail = "" if clear else " (the intervals overlap: these variants may not differ)"
    return (f"{capital(subject)} is lowest in {ctx.variant_name(lo_row['variant'])}: "
            f"{value_of(lo_row, column, unit, low, high)}, and highest in {ctx.variant_name(hi_row['variant'])}: "
            f"{value_of(hi_row, column, unit, low, high)}{tail}.")
