"""A sweep's stored records, read a variant at a time and only the columns asked for.

Building a results set needs every record only where a game's statistics ask for them all (``Builder.records``); the
tables every game gets need a few columns, one variant at a time, so their memory is that of one variant's few
columns instead of the whole sweep's records.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from trustme_analysis.outdir import RECORDS, read_chunk, stored_chunk_files


def _load_trim():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to trim
        return None


_MALLOC_TRIM = _load_trim()

#: Rows of a chunk file read at a time (:meth:`ChunkSource.iter_chunks`); a chunk of more rows comes in pieces.
READ_ROWS = 4_096


def _load_converter():
    # What pandas.read_parquet turns an Arrow table into a frame with (the same dtypes); without it, whole chunks.
    try:
        from pandas.io._util import arrow_table_to_pandas

        return arrow_table_to_pandas
    except ImportError:
        return None


_arrow_to_pandas = _load_converter()


def _trim_heap() -> None:
    """Give the C heap's free pages back to the system (glibc keeps those of freed small blocks)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


class ChunkSource:
    """The chunk files of the sweep stored in ``outdir`` (in variant, chunk order), read on demand.

    Raises:
        FileNotFoundError: ``outdir`` holds no chunk files.
    """

    def __init__(self, outdir: str | Path):
        self.outdir = Path(outdir)
        files = stored_chunk_files(outdir)
        if not files:
            raise FileNotFoundError(f"{outdir}: no record chunks under {RECORDS}/")
        self.files: dict[str, list[Path]] = {}
        for path in files:
            self.files.setdefault(path.parent.name, []).append(path)
        self._columns: list[str] | None = None

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with stored chunks, sorted."""
        return sorted(self.files)

    @property
    def columns(self) -> list[str]:
        """Every column some chunk has, in the order :func:`pandas.concat` of all chunks would give them."""
        if self._columns is None:
            seen: dict[str, None] = {}
            for paths in self.files.values():
                for path in paths:
                    for name in _schema_names(path):
                        seen.setdefault(name)
            self._columns = list(seen)
        return self._columns

    def present(self, wanted: Sequence[str]) -> list[str]:
        """Those of ``wanted`` that the records have, in the records' column order."""
        return [c for c in self.columns if c in set(wanted)]

    def read_variant(self, variant_id: str, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One variant's records (only ``columns`` when given), in chunk order."""
        frames = [self._read(path, columns) for path in self.files.get(variant_id, [])]
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(columns or []))

    def iter_chunks(self, variant_id: str, columns: Sequence[str] | None = None) -> Iterator[pd.DataFrame]:
        """One variant's records chunk by chunk (only ``columns`` when given), in chunk order.

        A chunk file of more than :data:`READ_ROWS` rows comes in pieces of whole games (its rows read
        :data:`READ_ROWS` at a time, the last game of a piece held back for the next): every statistic merges
        pieces of whole consecutive games exactly, and memory then holds a piece, not a chunk, however large the
        chunks a sweep chose."""
        for path in self.files.get(variant_id, []):
            yield from self._pieces(path, columns)
            # Arrow keeps the buffers of a read chunk for the next, and the C heap the many small arrays of its list
            # cells (one per row); handing both back keeps memory at one chunk's, not at the sum of their leftovers.
            pa.default_memory_pool().release_unused()
            _trim_heap()

    def _pieces(self, path: Path, columns: Sequence[str] | None) -> Iterator[pd.DataFrame]:
        try:
            handle = pq.ParquetFile(path)
            rows = handle.metadata.num_rows
        except (OSError, ValueError):
            yield self._read(path, columns)  # (names the damaged file)
            return
        names = handle.schema_arrow.names
        wanted = names if columns is None else [c for c in columns if c in set(names)]
        if rows <= READ_ROWS or "game_index" not in names or _arrow_to_pandas is None:
            yield self._read(path, columns)
            return
        games = pq.read_table(path, columns=["game_index"]).column(0).to_numpy()
        if games.size > 1 and not bool((games[1:] >= games[:-1]).all()):  # a game's rows not consecutive
            yield self._read(path, columns)
            return
        read = list(wanted) if "game_index" in wanted else [*wanted, "game_index"]
        metadata = handle.schema_arrow.metadata
        held: pd.DataFrame | None = None
        for batch in handle.iter_batches(batch_size=READ_ROWS, columns=read, use_threads=False):
            table = pa.Table.from_batches([batch]).replace_schema_metadata(metadata)
            frame = _arrow_to_pandas(table)
            if held is not None:
                frame = pd.concat([held, frame], ignore_index=True)
            index = frame["game_index"].to_numpy()
            cut = int(np.searchsorted(index, index[-1], side="left"))  # the last game may go on in the next batch
            held = frame.iloc[cut:].reset_index(drop=True)
            if cut:
                yield frame.iloc[:cut].reset_index(drop=True)[list(wanted)]
        if held is not None and len(held):
            yield held[list(wanted)]

    def read_all(self) -> pd.DataFrame:
        """Every record, as :func:`trustme_analysis.outdir.load_records` reads them."""
        return pd.concat([read_chunk(p) for v in self.variant_ids for p in self.files[v]], ignore_index=True)

    def _read(self, path: Path, columns: Sequence[str] | None) -> pd.DataFrame:
        if columns is None:
            return read_chunk(path)
        # A chunk of an older run may lack a column added later; pandas.concat fills it with NaN as for all records.
        names = set(_schema_names(path))
        return read_chunk(path, [c for c in columns if c in names])


def _schema_names(path: Path) -> list[str]:
    """A chunk file's column names; a file that is not Parquet is the :class:`DamagedFileError` naming it."""
    try:
        return list(pq.read_schema(path).names)
    except (OSError, ValueError):  # pyarrow's ArrowInvalid is a ValueError; read_chunk says which file
        read_chunk(path)
        raise
