"""Where a run's files live in its output folder, and how to read the manifest and the records back.

::

    OUTDIR/manifest.json                              spec, variants, seeds, versions, assumptions, timing, and
                                                      each stored chunk's checksum
    OUTDIR/records/<variant id>/chunk-00000.parquet   one file per finished chunk (written atomically)
    OUTDIR/solve/<name>/                              solved reduced variants ([[solve]] sections)
    OUTDIR/stats/                                     the results set: every statistic once (Parquet + CSV + index)
    OUTDIR/report.pdf                                 the designer's report, drawn from the results set

The layers below the sweep know a run only through these files: the results layer reads the manifest and the
records, the report layer reads the results set, so ``python -m trustme_analysis.report OUTDIR`` rebuilds the
statistics and the PDF without simulating.
"""

from __future__ import annotations

import hashlib
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


class DamagedFileError(ValueError):
    """A file of the output folder cannot be used as it is (damaged, replaced, unreadable); the message names it."""


#: Keys every manifest has (what the readers of a sweep folder rely on).
_MANIFEST_KEYS = {"game": str, "variants": list}


def load_manifest(outdir: str | Path) -> dict[str, Any]:
    """The manifest of the sweep in ``outdir``; a clear error if ``outdir`` holds no sweep.

    Raises:
        FileNotFoundError: there is no manifest.
        DamagedFileError: the manifest cannot be read, is not JSON (e.g. truncated) or is not a sweep manifest.
    """
    path = manifest_path(outdir)
    if not path.is_file():
        raise FileNotFoundError(f"{outdir}: no sweep results here (missing {MANIFEST})")
    remedy = ("it records which spec made the chunks beside it: restore it from a copy, or run the sweep into a new "
              "folder")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise DamagedFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise DamagedFileError(f"{path} is damaged (not UTF-8 text); {remedy}") from None
    except json.JSONDecodeError as exc:
        raise DamagedFileError(
            f"{path} is damaged (not valid JSON: {exc.msg}, line {exc.lineno}, column {exc.colno}); {remedy}"
        ) from None
    if not isinstance(data, dict):
        raise DamagedFileError(
            f"{path} is not a sweep manifest (it holds a JSON {type(data).__name__}, not an object); {remedy}")
    for key, kind in _MANIFEST_KEYS.items():
        if not isinstance(data.get(key), kind):
            raise DamagedFileError(f"{path} is not a sweep manifest (its {key!r} is missing or not a "
                                   f"{'list' if kind is list else 'string'}); {remedy}")
    return data


def stored_chunk_files(outdir: str | Path) -> list[Path]:
    """Every chunk file under ``OUTDIR/records/``, in (variant, chunk) order (chunk numbers compared as numbers: past
    chunk 99999 the names grow a digit)."""
    return sorted((Path(outdir) / RECORDS).glob("*/chunk-*.parquet"), key=_chunk_order)


def _chunk_order(path: Path) -> tuple[str, int, str]:
    number = path.name[len("chunk-"):-len(".parquet")]
    return path.parent.name, int(number) if number.isdigit() else -1, path.name


def load_records(outdir: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """All stored records of the sweep in ``outdir``, in (variant, chunk) order, as one DataFrame.

    Args:
        outdir: the sweep's output folder.
        columns: read only these columns (all when ``None``).
    """
    files = stored_chunk_files(outdir)
    if not files:
        raise FileNotFoundError(f"{outdir}: no record chunks under {RECORDS}/")
    return pd.concat([read_chunk(f, columns) for f in files], ignore_index=True)


def read_chunk(path: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """One chunk file's records; a damaged file is a :class:`DamagedFileError` naming it."""
    try:
        return pd.read_parquet(path, columns=columns)
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise DamagedFileError(f"{path} cannot be read as a chunk of records ({_first_line(exc)}); run the sweep "
                               "again to play it again") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


# ----------------------------------------------------------------------------------------------- chunk checksums

#: The manifest key holding one entry per stored chunk: ``{variant id: {chunk index: {"sha256", "games"}}}``.
CHUNKS = "chunks"


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, as hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_entry(data: bytes, games: int) -> dict[str, Any]:
    """The manifest's entry of a chunk written with ``data``: its checksum and number of games."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "games": int(games)}


def recorded_chunk(manifest: dict[str, Any], variant_id: str, chunk_index: int) -> dict[str, Any] | None:
    """The manifest's entry for one chunk (``None`` when it records none: an older sweep, or a killed run)."""
    entry = ((manifest.get(CHUNKS) or {}).get(variant_id) or {}).get(str(chunk_index))
    return entry if isinstance(entry, dict) else None


def chunk_problem(outdir: str | Path, manifest: dict[str, Any], variant_id: str, chunk_index: int) -> str | None:
    """Why the stored chunk file does not match what the manifest recorded for it (``None``: it matches, or the
    manifest records nothing for it)."""
    entry = recorded_chunk(manifest, variant_id, chunk_index)
    if entry is None:
        return None
    try:
        actual = file_sha256(chunk_path(outdir, variant_id, chunk_index))
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if actual != entry.get("sha256"):
        return f"its checksum differs from the one {MANIFEST} recorded when it was written (changed or damaged since)"
    return None


def verify_chunks(outdir: str | Path, manifest: dict[str, Any]) -> None:
    """Check every stored chunk file against the manifest's checksums, and that each names its own variant and chunk.

    Raises:
        DamagedFileError: naming the first bad chunk file and how many there are.
    """
    bad: list[str] = []
    for path in stored_chunk_files(outdir):
        variant_id = path.parent.name
        try:
            index = int(path.name[len("chunk-"):-len(".parquet")])
        except ValueError:
            continue
        problem = chunk_problem(outdir, manifest, variant_id, index)
        if problem is None and recorded_chunk(manifest, variant_id, index) is None:
            problem = chunk_identity_problem(path, variant_id, index)
        if problem is not None:
            bad.append(f"{path} {problem}")
    if bad:
        more = f" (and {len(bad) - 1} more chunk file(s))" if len(bad) > 1 else ""
        raise DamagedFileError(f"{bad[0]}{more}; run the sweep again to play the bad chunks again")


def chunk_identity_problem(path: str | Path, variant_id: str, chunk_index: int) -> str | None:
    """Why a chunk file's records are not those of ``variant_id`` chunk ``chunk_index`` (``None``: they are)."""
    try:
        ids = pd.read_parquet(path, columns=["variant", "chunk"])
    except (OSError, ValueError, KeyError) as exc:
        return f"cannot be read as a chunk of records ({_first_line(exc)})"
    if len(ids) == 0:
        return "holds no records"
    variants = set(ids["variant"].astype(str))
    if variants != {variant_id}:
        return f"holds the records of variant {', '.join(sorted(variants))}, not {variant_id}"
    chunks = set(int(c) for c in ids["chunk"])
    if chunks != {chunk_index}:
        return f"holds the records of chunk {', '.join(str(c) for c in sorted(chunks))}, not {chunk_index}"
    return None
