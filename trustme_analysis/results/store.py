"""A results set on disk: ``OUTDIR/stats/`` holds one Parquet file per table (exact, typed), the same table as CSV
(for spreadsheets; list cells joined with "/"), and ``index.json`` (the manifest, each table's description, and the
key of the records the tables were computed from).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from trustme_analysis.atomic import atomic_path
from trustme_analysis.outdir import STATS, DamagedFileError
from trustme_analysis.results.table import ResultSet, Table

INDEX = "index.json"
#: Bumped whenever a statistic's definition changes, so stored results sets of older code are recomputed.
RESULTS_VERSION = 1


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
        with atomic_path(folder / f"{table.name}.parquet") as tmp:
            table.frame.to_parquet(tmp, index=False)
        with atomic_path(folder / f"{table.name}.csv") as tmp:
            _csv_frame(table.frame).to_csv(tmp, index=False)
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


def remove_temp_files(folder: str | Path) -> int:
    """Delete the temporary files a killed run left in ``OUTDIR/stats/`` (``atomic_path`` names them ``.<name>-*``
    beside the file they were to replace); returns how many."""
    stale = [p for p in Path(folder).glob(".*-*") if p.is_file()]
    for p in stale:
        p.unlink()
    return len(stale)


def read_index(outdir: str | Path) -> dict[str, Any] | None:
    """The stored index, or ``None`` when there is none (or it cannot be read)."""
    path = index_path(outdir)
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


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
    index = read_index(outdir)
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
    for name, title, definition, interval, units in tables:
        path = folder / f"{name}.parquet"
        try:
            frame = pd.read_parquet(path)
        except (OSError, ValueError) as exc:
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise DamagedFileError(f"{path} cannot be read ({first}); delete {folder} to compute the results set "
                                   "again from the records") from None
        results.add(Table(name, frame, title, definition, interval, units))
    return results
