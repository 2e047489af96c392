"""A results set: every figure a report shows, computed once, as tidy tables that say what they hold.

A :class:`Table` is a pandas DataFrame (one row per variant, or per variant and category) with its estimates and the
ends of their intervals in columns (``m``, ``m_low``, ``m_high`` or ``value``, ``low``, ``high``), plus what a reader
needs to use it without the code: a title, the definition of its figures, how its intervals were computed, and the
unit of each column. A :class:`ResultSet` is the ordered collection of a sweep's tables together with the sweep's
manifest (what was asked, the variants, the assumptions in force).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass
class Table:
    """One statistics table of a results set.

    Attributes:
        name: file name without extension (``seat_win_rates``); unique in a results set.
        frame: the table.
        title: what the table holds, in words.
        definition: how its figures are defined (what is counted, over what, what a row is).
        interval: how its intervals were computed ("Wilson 95%", "t 95% over games", ...); empty when it has none.
        units: unit of each column that has one (``{"win_rate": "share of games"}``).
    """

    name: str
    frame: pd.DataFrame
    title: str
    definition: str
    interval: str = ""
    units: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> dict[str, Any]:
        """The table's description as stored in the results set's index (everything but the data)."""
        return {
            "name": self.name,
            "title": self.title,
            "definition": self.definition,
            "interval": self.interval,
            "units": dict(self.units),
            "rows": int(len(self.frame)),
            "columns": [str(c) for c in self.frame.columns],
        }


@dataclass
class ResultSet:
    """The statistics of one sweep: its manifest and its tables in the order they were computed.

    Index a results set by table name to get the DataFrame (``results["seat_win_rates"]``); :meth:`table` gives the
    :class:`Table` with its description.
    """

    manifest: dict[str, Any]
    tables: dict[str, Table] = field(default_factory=dict)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.table(name).frame

    def __contains__(self, name: object) -> bool:
        return name in self.tables

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def table(self, name: str) -> Table:
        """The table ``name``; a clear error lists the tables there are."""
        try:
            return self.tables[name]
        except KeyError:
            raise KeyError(f"no table {name!r} in this results set; tables: {', '.join(self.tables)}") from None

    def add(self, table: Table) -> Table:
        """Add ``table`` (its name must be new)."""
        if table.name in self.tables:
            raise ValueError(f"table {table.name!r} is already in the results set")
        self.tables[table.name] = table
        return table

    # --- what the manifest says, in the form pages use -------------------------------------------------------------

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with games, in order."""
        return [str(v) for v in self["variants"]["variant"]]

    @property
    def baseline(self) -> str:
        """The variant the others are compared with (the spec's baseline if it has games, else the first)."""
        table = self["variants"]
        marked = table.loc[table["baseline"].astype(bool), "variant"]
        return str(marked.iloc[0]) if len(marked) else self.variant_ids[0]

    def variant_label(self, variant_id: str) -> str:
        """The variant's label from the manifest (its id if the manifest has none)."""
        for v in self.manifest.get("variants", []):
            if v.get("id") == variant_id:
                return str(v.get("label") or v.get("game_string") or variant_id)
        return variant_id

    @property
    def game(self) -> str:
        """The swept game's short name."""
        return str(self.manifest.get("game", ""))

    @property
    def title(self) -> str:
        """The sweep's title."""
        return str(self.manifest.get("title") or f"Sweep of {self.manifest.get('game', 'a game')}")
