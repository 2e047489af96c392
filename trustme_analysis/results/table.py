"""A results set: every figure a report shows, computed once, as tidy tables that say what they hold.

A :class:`Table` is a pandas DataFrame (one row per variant, or per variant and category) with its estimates and the
ends of their intervals in columns (``m``, ``m_low``, ``m_high`` or ``value``, ``low``, ``high``), plus what a reader
needs to use it without the code: a title, the definition of its figures, how its intervals were computed, and the
unit of each column. A :class:`ResultSet` is the ordered collection of a sweep's tables together with the sweep's
manifest (what was asked, the variants, the assumptions in force).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
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

    def frames(self) -> Iterable[pd.DataFrame]:
        """The table's rows in pieces, in order (their concatenation is :attr:`frame`): what a store writes from."""
        return (self.frame,)


class LazyTable(Table):
    """A table whose frame is read only when asked for (:attr:`frame`): a per-game table of a large sweep, kept on
    disk in pieces while the results set is computed, or a stored table no page reads.

    ``pieces`` gives the rows in order, one frame at a time (each piece's columns as computed; :meth:`frames`
    casts them to one dtype per column, what :func:`pandas.concat` of all of them gives for the usual cases:
    integers with floats become floats); ``rows`` and ``columns`` describe it without reading it.
    """

    def __init__(self, name: str, pieces: Callable[[], Iterable[pd.DataFrame]], title: str, definition: str,
                 interval: str = "", units: Mapping[str, str] | None = None, rows: int = 0,
                 columns: list[str] | None = None, dtypes: Mapping[str, object] | None = None,
                 keep: object = None):
        self.name, self.title, self.definition, self.interval = name, title, definition, interval
        self.units = dict(units or {})
        self._pieces = pieces
        self._rows = int(rows)
        self._columns = list(columns or [])
        self._dtypes = dict(dtypes or {})
        self._frame: pd.DataFrame | None = None
        self._keep = keep  # what the pieces live in (a temporary folder), kept as long as the table

    @property
    def frame(self) -> pd.DataFrame:  # type: ignore[override]
        """The whole table, read (and kept) on first use."""
        if self._frame is None:
            parts = list(self.frames())
            if not parts:
                self._frame = pd.DataFrame({c: pd.Series(dtype=self._dtypes.get(c, object)) for c in self._columns})
            else:
                self._frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
        return self._frame

    @frame.setter
    def frame(self, value: pd.DataFrame) -> None:
        self._frame = value

    def frames(self) -> Iterable[pd.DataFrame]:
        """The rows piece by piece, each cast to the table's dtypes."""
        if self._frame is not None:
            yield self._frame
            return
        for piece in self._pieces():
            casts = {c: t for c, t in self._dtypes.items() if c in piece.columns and piece[c].dtype != t}
            yield piece.astype(casts) if casts else piece

    @property
    def keep(self) -> object:
        """What the pieces live in (a :class:`PieceStore`, or ``None``)."""
        return self._keep

    @property
    def loaded(self) -> pd.DataFrame | None:
        """The whole frame if it has been read, else ``None``."""
        return self._frame

    def describe(self) -> dict[str, Any]:
        """As :meth:`Table.describe`, without reading the table."""
        if self._frame is not None:
            return super().describe()
        return {"name": self.name, "title": self.title, "definition": self.definition, "interval": self.interval,
                "units": dict(self.units), "rows": self._rows, "columns": list(self._columns)}

    def __repr__(self) -> str:
        return f"LazyTable(name={self.name!r}, rows={self._rows}, columns={self._columns!r})"


def common_dtypes(pieces_dtypes: Iterable[Mapping[str, object]]) -> dict[str, object]:
    """One dtype per column for pieces of one table: a column's own when every piece has it, ``float64`` for
    numbers of several kinds (integers, floats: what :func:`pandas.concat` gives), ``object`` otherwise."""
    import numpy as np

    seen: dict[str, set] = {}
    for dtypes in pieces_dtypes:
        for col, dtype in dtypes.items():
            seen.setdefault(col, set()).add(np.dtype(dtype) if not isinstance(dtype, pd.api.extensions.ExtensionDtype)
                                             else dtype)
    out: dict[str, object] = {}
    for col, kinds in seen.items():
        if len(kinds) == 1:
            out[col] = next(iter(kinds))
        elif all(isinstance(k, np.dtype) and k.kind in "iu" for k in kinds):
            out[col] = np.dtype("int64")
        elif all(isinstance(k, np.dtype) and k.kind in "iuf" for k in kinds):
            out[col] = np.dtype("float64")
        else:
            out[col] = np.dtype("object")
    return out


class PieceStore:
    """A per-game table kept on disk while a results set is computed: its pieces (a chunk's games each) written to
    a temporary folder as they come, with each piece's variant, rows and range of game indices, so the table is
    never whole in memory; one variant's pieces (or those of a range of its games) are read back on demand.

    The folder lives as long as the store, or a :class:`LazyTable` made from it (:meth:`table`).
    """

    def __init__(self, name: str):
        self._folder = tempfile.TemporaryDirectory(prefix=f"trustme-{name}-")
        self._paths: list[str] = []
        #: Per piece: (variant, first game index, last game index, rows); ``None`` where unknown.
        self.pieces: list[tuple[str | None, int | None, int | None, int]] = []
        self._dtypes: list[dict[str, Any]] = []
        self._common: dict[str, object] | None = None  # common_dtypes of the pieces so far (read on every piece)
        self.columns: list[str] = []
        self.first_rows: dict[str, pd.DataFrame] = {}

    def add(self, piece: pd.DataFrame) -> None:
        """Write one piece (skipped when empty); a ``variant`` column names its variant (one per piece), a
        ``game_index`` column its games (increasing)."""
        if not len(piece):
            return
        path = f"{self._folder.name}/part-{len(self._paths):06d}.parquet"
        piece.to_parquet(path, index=False)
        self._paths.append(path)
        self._dtypes.append(dict(piece.dtypes))
        self._common = None
        self.columns = self.columns or [str(c) for c in piece.columns]
        vid = str(piece["variant"].iloc[0]) if "variant" in piece.columns else None
        if "game_index" in piece.columns:
            index = piece["game_index"].to_numpy()
            first, last = int(np.min(index)), int(np.max(index))
        else:
            first = last = None
        self.pieces.append((vid, first, last, len(piece)))
        if vid is not None and vid not in self.first_rows:
            self.first_rows[vid] = piece.iloc[:1].copy()

    @property
    def rows(self) -> int:
        """Rows in all pieces."""
        return sum(p[3] for p in self.pieces)

    @property
    def dtypes(self) -> dict[str, object]:
        """One dtype per column (:func:`common_dtypes`): what the whole table's columns are."""
        if self._common is None:
            self._common = common_dtypes(self._dtypes)
        return self._common

    def rows_of(self, variant_id: str) -> int:
        """Rows of one variant."""
        return sum(p[3] for p in self.pieces if p[0] == variant_id)

    @property
    def variant_ids(self) -> list[str]:
        """Variants with rows, sorted."""
        return sorted({p[0] for p in self.pieces if p[0] is not None})

    def read(self, variant_id: str | None = None, columns: Sequence[str] | None = None, first: int | None = None,
             last: int | None = None) -> Iterator[pd.DataFrame]:
        """The pieces in order (only ``variant_id``'s, only those holding games ``first`` to ``last`` when given;
        only ``columns``, those present), each cast to the table's dtypes."""
        dtypes = self.dtypes
        for path, (vid, lo, hi, _) in zip(self._paths, self.pieces):
            if variant_id is not None and vid != variant_id:
                continue
            if first is not None and hi is not None and hi < first:
                continue
            if last is not None and lo is not None and lo > last:
                continue
            piece = pd.read_parquet(path, columns=None if columns is None else
                                    [c for c in self.columns if c in set(columns)])
            casts = {c: t for c, t in dtypes.items() if c in piece.columns and piece[c].dtype != t}
            yield piece.astype(casts) if casts else piece

    def frame(self) -> pd.DataFrame:
        """The whole table (what :func:`pandas.concat` of the pieces gives)."""
        parts = list(self.read())
        if not parts:
            dtypes = self.dtypes
            return pd.DataFrame({c: pd.Series(dtype=dtypes.get(c, object)) for c in self.columns})
        return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]

    def table(self, name: str, title: str, definition: str, interval: str = "",
              units: Mapping[str, str] | None = None) -> LazyTable:
        """The whole table as a :class:`LazyTable` read piece by piece (which keeps this store's folder)."""
        return LazyTable(name, self.read, title, definition, interval, units, rows=self.rows,
                         columns=list(self.columns), dtypes=self.dtypes, keep=self)


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
