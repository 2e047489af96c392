"""A results set on disk: ``OUTDIR/stats/`` holds one Parquet file per table (exact, typed), the same table as CSV
(for spreadsheets; list cells joined with "/"), and ``index.json`` (the manifest, each table's description, and the
key of the records the tables were computed from).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from trustme_analysis.atomic import atomic_path
from trustme_analysis.outdir import STATS, DamagedFileError
from trustme_analysis.results.table import LazyTable, ResultSet, Table

INDEX = "index.json"
#: Stored tables of more rows than this are read when a page asks for them, not when the set is loaded: the per-game
#: tables of a large sweep (no page draws from them) would otherwise fill the memory of every report.
LAZY_ROWS = 50_000
#: Bumped whenever a statistic's definition changes, so stored results sets of older code are recomputed.
# 2: comparisons by factor, headline line-up, stability; streamed tables; 3: tie-aware fair share; 4: trust verdicts
# decided by the probes (Holm, power), the search player's gain apart.
RESULTS_VERSION = 4


def index_path(outdir: str | Path) -> Path:
    """``OUTDIR/stats/index.json``."""
    return Path(outdir) / STATS / INDEX


def _csv_frame(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == object and len(out) and isinstance(out[col].iloc[0], (list, tuple, np.ndarray)):
            out[col] = ["/".join(str(x) for x in v) for v in out[col]]
    return out


def save(results: ResultSet, outdir: str | Path, records_key: dict[str, Any]) -> Path:
    """Write ``results`` under ``OUTDIR/stats/`` (tables first, the index last, each atomically); returns the index.

    ``records_key`` identifies the records the tables were computed from (see
    :func:`trustme_analysis.results.build.records_key`); :func:`is_current` compares it.
    """
    folder = Path(outdir) / STATS
    folder.mkdir(parents=True, exist_ok=True)
    remove_temp_files(folder)
    for table in results.tables.values():
        _write_table(table, folder)
    index = {
        "results_version": RESULTS_VERSION,
        "records": records_key,
        "manifest": results.manifest,
        "tables": [t.describe() for t in results.tables.values()],
    }
    path = folder / INDEX
    with atomic_path(path) as tmp:
        Path(tmp).write_text(json.dumps(index, indent=1, default=str) + "\n", encoding="utf-8")
    return path


def _write_table(table: Table, folder: Path) -> None:
    """``<name>.parquet`` and ``<name>.csv`` of ``table``, written piece by piece (:meth:`Table.frames`), so a table
    kept on disk in pieces is never whole in memory; the CSV is the one ``to_csv`` of the whole frame writes."""
    pieces = iter(table.frames())
    first = next(pieces, None)
    second = next(pieces, None) if first is not None else None
    with atomic_path(folder / f"{table.name}.parquet") as tmp_parquet, \
            atomic_path(folder / f"{table.name}.csv") as tmp_csv:
        if second is None:  # one piece: exactly what pandas writes for the frame
            whole = table.frame if first is None else first
            whole.to_parquet(tmp_parquet, index=False)
            _csv_frame(whole).to_csv(tmp_csv, index=False)
            return
        arrow = pa.Table.from_pandas(first, preserve_index=False)
        with pq.ParquetWriter(tmp_parquet, arrow.schema) as writer, \
                open(tmp_csv, "w", encoding="utf-8", newline="") as csv:
            writer.write_table(arrow)
            _csv_frame(first).to_csv(csv, index=False)
            for part in itertools.chain((second,), pieces):
                writer.write_table(pa.Table.from_pandas(part, schema=arrow.schema, preserve_index=False))
                _csv_frame(part).to_csv(csv, index=False, header=False)


def remove_temp_files(folder: str | Path) -> int:
    """Delete the temporary files a killed run left in ``OUTDIR/stats/`` (``atomic_path`` names them ``.<name>-*``
    beside the file they were to replace); returns how many."""
    stale = [p for p in Path(folder).glob(".*-*") if p.is_file()]
    for p in stale:
        p.unlink()
    return len(stale)


def read_index(outdir: str | Path, strict: bool = False) -> dict[str, Any] | None:
    """The stored index, or ``None`` when there is none (or, unless ``strict``, when it cannot be read: the records
    are there to compute it again).

    Raises:
        DamagedFileError: ``strict`` and the index is there but is not a JSON table (named, so a damaged file is never
            reported as a missing results set).
    """
    path = index_path(outdir)
    if not path.is_file():
        return None
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        if not strict:
            return None
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DamagedFileError(f"{path} is damaged ({first}) and the records it was computed from are gone; "
                               "nothing here to read it back from") from None
    if not isinstance(index, dict):
        if strict:
            raise DamagedFileError(f"{path} is damaged (a JSON {type(index).__name__}, not a table) and the records "
                                   "it was computed from are gone; nothing here to read it back from")
        return None
    return index


def is_current(index: dict[str, Any] | None, records_key: dict[str, Any] | None) -> bool:
    """Whether a stored index was computed by this code from these records (``records_key`` None: records gone,
    so the stored results are all there is)."""
    if index is None or index.get("results_version") != RESULTS_VERSION:
        return False
    return records_key is None or index.get("records") == records_key


def load(outdir: str | Path) -> ResultSet:
    """Read the results set stored under ``OUTDIR/stats/``.

    Raises:
        FileNotFoundError: there is no stored results set.
        DamagedFileError: the index or a table file is damaged (named).
    """
    index = read_index(outdir, strict=True)
    if index is None:
        raise FileNotFoundError(f"{outdir}: no results set here (missing {STATS}/{INDEX})")
    folder = Path(outdir) / STATS
    try:
        results = ResultSet(manifest=index["manifest"])
        tables = [(m["name"], m["title"], m["definition"], m.get("interval", ""), m.get("units") or {})
                  for m in index["tables"]]
    except (KeyError, TypeError) as exc:
        raise DamagedFileError(f"{index_path(outdir)} is damaged (no {exc}); delete {folder} to compute the "
                               "results set again from the records") from None
    rows = {m["name"]: m for m in index["tables"]}
    for name, title, definition, interval, units in tables:
        path = folder / f"{name}.parquet"
        meta = rows[name]
        try:
            if int(meta.get("rows", 0)) > LAZY_ROWS:
                # Checked now (its footer), read when a page asks for it.
                pq.read_metadata(path)
                results.add(LazyTable(name, _reader(path), title, definition, interval, units, rows=meta["rows"],
                                      columns=meta.get("columns")))
                continue
            frame = pd.read_parquet(path)
        except (OSError, ValueError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise DamagedFileError(f"{path} cannot be read ({first}); delete {folder} to compute the results set "
                                   "again from the records") from None
        results.add(Table(name, frame, title, definition, interval, units))
    return results


def _reader(path: Path):
    def pieces():
        yield pd.read_parquet(path)
    return pieces
