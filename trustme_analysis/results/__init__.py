"""The results set of a sweep: every statistic its report shows, computed once from the stored records.

A designer with a notebook, the tuning layer and the report all read the same tables::

    from trustme_analysis import results
    res = results.load("reports/out/default")      # computed and stored on first use, read back after
    res["seat_win_rates"]                            # a pandas DataFrame
    res.table("seat_win_rates").definition           # what its figures mean; .interval, .units

Tables live under ``OUTDIR/stats/`` (Parquet, CSV, ``index.json``); see :mod:`.store` and :mod:`.build`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trustme_analysis.outdir import CHUNKS, MANIFEST, DamagedFileError, load_manifest, manifest_path
from trustme_analysis.registry import game_names
from trustme_analysis.results import store
from trustme_analysis.results.build import Builder, compute, records_key
from trustme_analysis.results.table import ResultSet, Table
from trustme_analysis.specfile import SpecError, did_you_mean


class ResultsError(SpecError, DamagedFileError):
    """The one exception :func:`load` raises: ``outdir`` holds no sweep, or a file of it is damaged.

    It is a ``ValueError`` (through :class:`~trustme_analysis.specfile.SpecError`, the library's refusals, and
    :class:`~trustme_analysis.outdir.DamagedFileError`). ``folder`` is the output folder, ``file`` the file inside it
    (``manifest.json``, ``records/v00/chunk-00000.parquet``, ``stats/index.json``) and ``field`` the part of it that
    is wrong (``chunks``, ``game``; empty when the whole file is); the message names all three and the remedy.
    """

    def __init__(self, folder: str | Path, file: str, field: str, message: str):
        self.folder = str(folder)
        self.file = file
        self.field = field
        self.key = field
        # The message already names the file and the field: not prefixed with the key as a spec's errors are.
        ValueError.__init__(self, message)


def _file_named(folder: Path, text: str) -> str:
    """The file of ``folder`` a message of the lower layers names (the manifest when it names none)."""
    for word in text.replace("(", " ").replace(")", " ").split():
        word = word.rstrip(":;,")
        try:
            inside = Path(word).relative_to(folder).as_posix()
        except ValueError:
            continue
        if inside != ".":
            return inside
    return MANIFEST


def check_manifest(outdir: str | Path) -> dict[str, Any]:
    """The manifest of ``outdir``, with the fields the results layer reads checked.

    Raises:
        ResultsError: no manifest, or a damaged one (naming the field: a ``chunks`` that is not a table of tables, a
            ``game`` that is no registered game, a variant that is not a table with an ``id``, ...).
    """
    folder = Path(outdir)
    try:
        manifest = load_manifest(folder)
    except FileNotFoundError as exc:
        raise ResultsError(folder, MANIFEST, "", str(exc)) from None
    except DamagedFileError as exc:
        raise ResultsError(folder, MANIFEST, "", str(exc)) from None
    path = manifest_path(folder)
    remedy = "restore it from a copy, or run the sweep into a new folder"

    def bad(field: str, what: str) -> ResultsError:
        return ResultsError(folder, MANIFEST, field, f"{path} is damaged: its {field!r} {what}; {remedy}")

    games = game_names()
    if manifest["game"] not in games:
        # A foreign or misspelt game would draw a report from the generic tables alone, without a word.
        raise bad("game", f"names no registered game: {manifest['game']!r}{did_you_mean(manifest['game'], games)} "
                  f"(games: {', '.join(games)})")
    for i, variant in enumerate(manifest["variants"]):
        if not isinstance(variant, dict) or not isinstance(variant.get("id"), str):
            raise bad(f"variants[{i}]", f"must be a table with an 'id' string, got {_short(variant)}")
    chunks = manifest.get(CHUNKS)
    if chunks is not None:
        if not isinstance(chunks, dict):
            raise bad(CHUNKS, f"must be a table of variant -> chunk entries, got {_short(chunks)}")
        for vid, entries in chunks.items():
            if not isinstance(entries, dict):
                raise bad(f"{CHUNKS}.{vid}", f"must be a table of chunk number -> entry, got {_short(entries)}")
            for number, entry in entries.items():
                if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str):
                    raise bad(f"{CHUNKS}.{vid}.{number}", f"must be a table with a 'sha256' string, got "
                              f"{_short(entry)}")
    if not isinstance(manifest.get("seed", 0), int) or isinstance(manifest.get("seed"), bool):
        raise bad("seed", f"must be an integer, got {_short(manifest.get('seed'))}")
    return manifest


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load(outdir: str | Path, recompute: bool = False) -> ResultSet:
    """The results set of the sweep in ``outdir``.

    The stored set is used when it was computed by this code from the records now stored (or when the records are
    gone); otherwise it is computed from the records, stored, and read back, so a report drawn now and one drawn
    later from the stored set are the same.

    Raises:
        ResultsError: the only exception for what is in ``outdir`` (a ``ValueError``): no sweep there (no manifest,
            or neither records nor a stored results set), or a damaged file (the manifest, a chunk of records, the
            stored index or a table); its message names the folder, the file and the field. Nothing is changed
            before it is raised.
        OSError: the results set cannot be written into ``outdir`` (read-only, full).
    """
    folder = Path(outdir)
    try:
        if manifest_path(folder).exists() or not store.index_path(folder).exists():
            check_manifest(folder)  # (a results set copied without its sweep is read as it is)
        return _load(folder, recompute)
    except ResultsError:
        raise
    except FileNotFoundError as exc:
        raise ResultsError(folder, _file_named(folder, str(exc)), "", str(exc)) from None
    except DamagedFileError as exc:
        raise ResultsError(folder, _file_named(folder, str(exc)), "", str(exc)) from None


def _load(outdir: Path, recompute: bool) -> ResultSet:
    key = records_key(outdir)
    # With the records gone the stored index is all there is: a damaged one is named, not taken for a missing one.
    if recompute or not store.is_current(store.read_index(outdir, strict=key is None), key):
        if key is None:
            raise FileNotFoundError(f"{outdir}: no records and no stored results set to build from")
        store.save(compute(outdir), outdir, key)
    try:
        return store.load(outdir)
    except DamagedFileError:
        if key is None:
            raise  # the stored tables are all there is
        # A damaged stored table: the records are there, so compute the set again.
        store.save(compute(outdir), outdir, key)
        return store.load(outdir)


__all__ = ["Builder", "ResultSet", "ResultsError", "Table", "check_manifest", "compute", "load", "store"]
