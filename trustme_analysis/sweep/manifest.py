"""The sweep's manifest (``OUTDIR/manifest.json``): what was asked, how it was run, and with which versions.

The report layer reads it to print the first page (question, variants, games, seed, versions, assumptions); the
runner reads it back when a sweep resumes, to check that the stored chunks belong to the same spec.
"""

from __future__ import annotations

import json
import os
import platform
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from trustme_analysis.outdir import CHUNKS, manifest_path
from trustme_analysis.sweep.play import cached_game
from trustme_analysis.sweep.seeding import SEEDING_SCHEME
from trustme_analysis.sweep.spec import Spec

#: Distribution names reported in ``versions`` (key -> distribution).
_DISTRIBUTIONS = {
    "trustme_analysis": "trustme-analysis",
    "open_spiel": "open_spiel",
    "numpy": "numpy",
    "pandas": "pandas",
    "scipy": "scipy",
    "matplotlib": "matplotlib",
    "pyarrow": "pyarrow",
}


def versions() -> dict[str, str]:
    """Installed versions of the packages that decide the results."""
    out = {}
    for key, dist in _DISTRIBUTIONS.items():
        try:
            out[key] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[key] = "not installed"
    out["python"] = platform.python_version()
    return out


def now_iso() -> str:
    """The current UTC time as an ISO 8601 string."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def assumptions(game_string: str) -> list[dict[str, Any]]:
    """The rule assumptions in force for a variant (``game.assumptions()``; games without it have none)."""
    game = cached_game(game_string)
    listed = getattr(game, "assumptions", None)
    return [dict(a) for a in listed()] if callable(listed) else []


def build_manifest(
    spec: Spec,
    outdir: str | Path,
    timing: dict[str, Any],
    complete: bool,
    chunks: dict[str, dict[int, dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The manifest dict for ``spec`` stored in ``outdir``.

    ``chunks`` holds, per variant id and chunk index, the checksum and games of every chunk stored so far (see
    :func:`trustme_analysis.outdir.chunk_entry`); the sweep checks a chunk against it before counting it as done, and
    the results layer before reading it.
    """
    spec_dict = spec.as_dict()
    spec_dict["out"] = str(outdir)
    return {
        "title": spec.title,
        "question": spec.question,
        "game": spec.game,
        "spec": spec_dict,
        "spec_path": spec.path,
        "seed": spec.seed,
        "games_per_variant": spec.games,
        # "auto": the spec sets none, and each variant's was chosen from the measured cost of its games (chunk_sizes).
        "chunk_size": "auto" if spec.chunk_auto else spec.chunk_size,
        **({"chunk_sizes": {v.id: spec.chunk_size_of(v) for v in spec.variants}} if spec.chunk_auto else {}),
        "baseline": spec.baseline,
        "variants": [
            {
                "id": v.id,
                "label": v.label,
                "game_string": v.game_string,
                "params": dict(v.params),
                "grid": dict(v.grid),
                "lineup": v.lineup.name,
                "seats": v.lineup.describe(v.num_players),
                "players": v.num_players,
                "games": spec.games_of(v),
                "engine": v.engine,
                **({"engine_note": v.engine_note} if v.engine_note else {}),
            }
            for v in spec.variants
        ],
        "assumptions": {v.id: assumptions(v.game_string) for v in spec.variants},
        "versions": versions(),
        "timing": timing,
        "complete": complete,
        "seeding_scheme": SEEDING_SCHEME,
        "fingerprint": spec.data_fingerprint(),
        # Last: the longest part, one entry per chunk in (variant, chunk) order.
        CHUNKS: {
            vid: {str(c): entries[c] for c in sorted(entries)}
            for vid, entries in sorted((chunks or {}).items()) if entries
        },
    }


def write_manifest(outdir: str | Path, manifest: dict[str, Any]) -> Path:
    """Write the manifest atomically (temp file + rename), like the chunks."""
    path = manifest_path(outdir)
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        temp.write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8")
        os.replace(temp, path)
    finally:
        # Left only when writing failed (a full disk, a folder turned read-only) or was interrupted.
        if temp.exists():
            try:
                temp.unlink()
            except OSError:
                pass  # the folder refuses changes; the next run removes it (storage.remove_temp_files)
    return path
