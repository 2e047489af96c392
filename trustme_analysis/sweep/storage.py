"""Chunk files on disk: atomic writes, and which chunks a sweep folder already holds (for resuming).

A chunk's Parquet file is first written under a temporary name beside its final path and then renamed with
:func:`os.replace`, which is atomic on one file system: a chunk file either exists complete or not at all, whatever
moment a sweep is interrupted or killed. Temporary files left by a killed run are removed when the sweep resumes.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from trustme_analysis.outdir import RECORDS, chunk_path

#: Marker in the names of chunk files being written (``chunk-00003.parquet.tmp-<pid>``).
TEMP_MARKER = ".tmp-"


def encode_chunk(frame: pd.DataFrame) -> bytes:
    """A chunk's records as Parquet file contents (done by the worker, so the writing process only copies bytes)."""
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def write_chunk(outdir: str | Path, variant_id: str, chunk_index: int, data: pd.DataFrame | bytes) -> Path:
    """Store one chunk's records (a DataFrame, or its :func:`encode_chunk` bytes) atomically; returns its path."""
    final = chunk_path(outdir, variant_id, chunk_index)
    final.parent.mkdir(parents=True, exist_ok=True)
    temp = final.with_name(f"{final.name}{TEMP_MARKER}{os.getpid()}")
    if isinstance(data, pd.DataFrame):
        data = encode_chunk(data)
    try:
        temp.write_bytes(data)
        os.replace(temp, final)
    finally:
        # Only left behind if writing failed (or was interrupted) before the rename.
        if temp.exists():
            temp.unlink()
    return final


def finished_chunks(outdir: str | Path, chunks: Iterable[tuple[str, int]]) -> set[tuple[str, int]]:
    """Those of ``chunks`` (variant id, chunk index) whose file is already stored in ``outdir``."""
    return {(v, c) for v, c in chunks if chunk_path(outdir, v, c).is_file()}


def remove_temp_files(outdir: str | Path) -> int:
    """Delete half-written chunk files left by an interrupted run; returns how many there were."""
    records = Path(outdir) / RECORDS
    if not records.is_dir():
        return 0
    stale = [p for p in records.glob(f"*/*{TEMP_MARKER}*") if p.is_file()]
    for p in stale:
        p.unlink()
    return len(stale)


def stray_chunks(outdir: str | Path, expected: Iterable[tuple[str, int]]) -> list[Path]:
    """Chunk files in ``outdir`` that the sweep would not write (another spec's leftovers)."""
    wanted = {chunk_path(outdir, v, c) for v, c in expected}
    records = Path(outdir) / RECORDS
    if not records.is_dir():
        return []
    return sorted(p for p in records.glob("*/chunk-*.parquet") if p not in wanted)
