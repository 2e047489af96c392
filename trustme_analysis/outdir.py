"""Where a run's files live in its output folder, and how to read the manifest and the records back.

::

    OUTDIR/manifest.json                              spec, variants, seeds, versions, assumptions, timing
    OUTDIR/records/<variant id>/chunk-00000.parquet   one file per finished chunk (written atomically)
    OUTDIR/solve/<name>/                              solved reduced variants ([[solve]] sections)
    OUTDIR/stats/                                     the results set: every statistic once (Parquet + CSV + index)
    OUTDIR/report.pdf                                 the designer's report, drawn from the results set

The layers below the sweep know a run only through these files: the results layer reads the manifest and the
records, the report layer reads the results set, so ``python -m trustme_analysis.report OUTDIR`` rebuilds the
statistics and the PDF without simulating.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

MANIFEST = "manifest.json"
RECORDS = "records"
STATS = "stats"
REPORT = "report.pdf"
SOLVE = "solve"


def manifest_path(outdir: str | Path) -> Path:
    """Path of the manifest of the sweep stored in ``outdir``."""
    return Path(outdir) / MANIFEST


def chunk_path(outdir: str | Path, variant_id: str, chunk_index: int) -> Path:
    """Path of one chunk's Parquet file."""
    return Path(outdir) / RECORDS / variant_id / f"chunk-{chunk_index:05d}.parquet"


def load_manifest(outdir: str | Path) -> dict[str, Any]:
    """The manifest of the sweep in ``outdir``; a clear error if ``outdir`` holds no sweep."""
    path = manifest_path(outdir)
    if not path.is_file():
        raise FileNotFoundError(f"{outdir}: no sweep results here (missing {MANIFEST})")
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def load_records(outdir: str | Path) -> pd.DataFrame:
    """All stored records of the sweep in ``outdir``, in (variant, chunk) order, as one DataFrame."""
    files = sorted((Path(outdir) / RECORDS).glob("*/chunk-*.parquet"))
    if not files:
        raise FileNotFoundError(f"{outdir}: no record chunks under {RECORDS}/")
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
