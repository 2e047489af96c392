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
import pyarrow as pa
import pyarrow.parquet as pq

from trustme_analysis.outdir import MANIFEST, RECORDS, chunk_identity_problem, chunk_path

#: Marker in the names of chunk files being written (``chunk-00003.parquet.tmp-<pid>``).
TEMP_MARKER = ".tmp-"


#: How chunk files are written: zstd at its fastest level writes as fast as snappy (pandas' default) and a quarter
#: smaller (Pinocchio 4p kernel chunks: 107 against 142 bytes a game); any Parquet reader reads either. No column
#: statistics (min/max per column chunk): nothing reads a chunk by predicate (every reader takes whole chunks or
#: whole columns), and leaving them out takes 7% off encoding a kernel chunk, which costs about as much as playing it.
PARQUET_OPTIONS: dict[str, object] = {"compression": "zstd", "compression_level": 1, "write_statistics": False}


def encode_chunk(frame: pd.DataFrame | pa.Table) -> bytes:
    """A chunk's records (a frame, or an Arrow table with pandas' schema: :func:`with_pandas_schema`) as Parquet
    file contents (done by the worker, so the writing process only copies bytes). A table is written as pandas
    writes a frame (``to_parquet(index=False, **PARQUET_OPTIONS)``), so both give the same bytes."""
    if isinstance(frame, pd.DataFrame):
        if frame.attrs:  # pandas stores attrs in the schema; records frames have none, and a table cannot carry them
            buffer = io.BytesIO()
            frame.to_parquet(buffer, index=False, **PARQUET_OPTIONS)
            return buffer.getvalue()
        frame = _typed_lists(pa.Table.from_pandas(frame, preserve_index=False))
    sink = pa.BufferOutputStream()
    pq.write_table(frame, sink, **PARQUET_OPTIONS)
    return sink.getvalue().to_pybytes()


def _typed_lists(table: pa.Table) -> pa.Table:
    """``table`` with every list column whose elements are all missing typed as a list of float64.

    pandas gives such a column (Pinocchio's ``stack_empty_turn`` in a chunk whose games never emptied a Ticket stack)
    the element type *null*, which reads back as ``None`` where every other chunk reads ``NaN``: the records would
    then depend on how the games were cut into chunks. Only missing values are cast, so nothing is lost."""
    for i, field in enumerate(table.schema):
        if pa.types.is_list(field.type) and pa.types.is_null(field.type.value_type):
            table = table.set_column(i, field.name, table.column(i).cast(pa.list_(pa.float64())))
    return table


#: Schema metadata pandas writes for a table's columns, by their names and types (see :func:`with_pandas_schema`).
_PANDAS_METADATA: dict[tuple[tuple[str, str], ...], dict[bytes, bytes]] = {}


def with_pandas_schema(table: pa.Table) -> pa.Table:
    """``table`` with the schema metadata pandas gives the frame of the same columns (what ``pd.read_parquet``
    reads the dtypes back from). The metadata follows the columns' names and types only, so it is made once per
    layout from a one-row frame."""
    key = tuple((f.name, str(f.type)) for f in table.schema)
    meta = _PANDAS_METADATA.get(key)
    if meta is None:
        one = pa.Table.from_pandas(table.slice(0, 1).to_pandas(), preserve_index=False)
        if [(f.name, str(f.type)) for f in one.schema] != list(key):
            raise ValueError(f"a table's columns do not survive pandas: {one.schema} against {table.schema}")
        meta = _PANDAS_METADATA[key] = dict(one.schema.metadata or {})
    return table.replace_schema_metadata(meta)


def grown_chunk(path: str | Path, data: bytes) -> bytes:
    """The stored chunk at ``path`` with the rows of ``data`` (the chunk's later games, encoded) appended, encoded:
    the bytes a chunk played whole in one run would have."""
    stored = pd.read_parquet(path)
    later = pd.read_parquet(io.BytesIO(data))
    return encode_chunk(pd.concat([stored, later], ignore_index=True))


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


def stored_chunk_indices(outdir: str | Path, variant_ids: Iterable[str]) -> dict[str, set[int]]:
    """The chunk indices whose file is stored in ``outdir``, per variant (a directory listing per variant: the cost
    follows the stored files, not the size of the sweep)."""
    found: dict[str, set[int]] = {}
    for vid in variant_ids:
        folder = Path(outdir) / RECORDS / vid
        indices: set[int] = set()
        if folder.is_dir():
            for entry in os.scandir(folder):
                name = entry.name
                if name.startswith("chunk-") and name.endswith(".parquet") and entry.is_file():
                    try:
                        indices.add(int(name[len("chunk-"):-len(".parquet")]))
                    except ValueError:
                        continue
        found[vid] = indices
    return found


def unrecorded_chunk_problem(
    path: str | Path, variant_id: str, chunk_index: int, game_indices: range, game_seeds: list[int]
) -> str | None:
    """Why a chunk file the manifest has no checksum for (its run was killed before recording it) is not the chunk
    it is named after: its records must be readable and name this variant, this chunk, these games and their seeds."""
    problem = chunk_identity_problem(path, variant_id, chunk_index)
    if problem is not None:
        return problem
    try:
        ids = pd.read_parquet(path, columns=["game_index", "game_seed"]).drop_duplicates("game_index")
    except (OSError, ValueError, KeyError) as exc:
        return f"cannot be read as a chunk of records ({exc})"
    if ids["game_index"].tolist() != list(game_indices):
        return f"holds games {ids['game_index'].min()}..{ids['game_index'].max()}, not {game_indices.start}.." \
               f"{game_indices.stop - 1}"
    if ids["game_seed"].tolist() != list(game_seeds):
        return "holds games of other seeds (another spec or seed)"
    return None


def remove_temp_files(outdir: str | Path) -> int:
    """Delete half-written chunk and manifest files left by an interrupted or killed run; returns how many."""
    stale: list[Path] = []
    records = Path(outdir) / RECORDS
    if records.is_dir():
        stale += [p for p in records.glob(f"*/*{TEMP_MARKER}*") if p.is_file()]
    stale += [p for p in Path(outdir).glob(f"{MANIFEST}{TEMP_MARKER}*") if p.is_file()]
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
