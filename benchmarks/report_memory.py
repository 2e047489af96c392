"""Peak memory of building a sweep's results set (``results.build.compute``) as the number of games grows.

Run: ``python benchmarks/report_memory.py [--sizes 1000,10000,100000] [--no-at-once]``.

A small Pinocchio sweep (two variants, heuristic bots) is played once; its chunks are then tiled (copied with new game
and chunk numbers, and their checksums recorded in the manifest) into sweeps of each size, so the large sizes cost
no simulation. Each figure comes from a fresh process: its peak resident memory (VmHWM) minus its resident memory
once the libraries are imported, i.e. what computing the results set itself added.

Two ways of computing are measured on the same folders:

- **compute**: ``compute(outdir)`` as the report runs it (the tables every game gets a variant at a time from the
  columns they need; the records read whole only when the game's statistics ask for them);
- **all at once**: ``compute_from(manifest, load_records(outdir))`` with every table computed from all records at
  once (``Builder.per_variant`` replaced by one call on the whole frame): the way results sets were computed before,
  kept as the reference (both give identical tables; see ``tests/report/test_report_failures.py``).

The first size is the reference: the "x ref" columns divide each figure by the reference's; "KB/game" is the growth
per added game from the previous size (fixed costs, such as the bootstrap's resampling blocks of up to 2,000,000
indices, are paid once the variants have a few thousand games, so the growth between the larger sizes is the slope).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.outdir import CHUNKS, MANIFEST, RECORDS, chunk_entry, chunk_path, load_manifest
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

SEED_SPEC = {
    "title": "report memory",
    "game": "trustme_pinocchio",
    "games": 100,
    "chunk_size": 50,
    "seed": 2026,
    "params": {"chart": [1, 3, 6, 10, 15, 21]},
    "grid": {"players": [2, 3]},
    "lineups": {"heuristic": {"seats": [{"bot": "heuristic"}]}},
}

CHILD = r"""
import json, sys
import trustme_analysis, scipy.stats, trustme_analysis.games.pinocchio.analysis.stats  # noqa: F401 (imports not measured)
from trustme_analysis.results.build import Builder, compute, compute_from
from trustme_analysis.outdir import load_manifest, load_records

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024  # kB -> MB

base = status("VmRSS")
out, how = sys.argv[1], sys.argv[2]
if how == "compute":
    res = compute(out)
else:  # as before: every record in one frame, each table computed from all of it
    Builder.per_variant = lambda self, table, columns=None, variants=None: table(self.records)
    res = compute_from(load_manifest(out), load_records(out), outdir=out)
print(json.dumps({"base_mb": base, "peak_mb": status("VmHWM"), "tables": len(list(res))}))
"""


def tile(seed: Path, out: Path, games: int) -> None:
    """A sweep folder of ``games`` games (split over the seed's variants) made of copies of the seed's chunks."""
    manifest = load_manifest(seed)
    per_variant = games // len(manifest["variants"])
    size = int(manifest["chunk_size"])
    shutil.rmtree(out, ignore_errors=True)
    entries: dict[str, dict[str, dict]] = {}
    for v in manifest["variants"]:
        vid = v["id"]
        source = [pd.read_parquet(p) for p in sorted((seed / RECORDS / vid).glob("chunk-*.parquet"))]
        entries[vid] = {}
        for c in range(-(-per_variant // size)):
            frame = source[c % len(source)].copy()
            first = c * size
            frame["game_index"] = frame["game_index"] - frame["game_index"].min() + first
            frame["chunk"] = c
            frame = frame[frame["game_index"] < per_variant]
            path = chunk_path(out, vid, c)
            path.parent.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(path, index=False)
            entries[vid][str(c)] = chunk_entry(path.read_bytes(), frame["game_index"].nunique())
    manifest["games_per_variant"] = per_variant
    manifest["fingerprint"] = {**manifest["fingerprint"], "games": per_variant}
    manifest[CHUNKS] = entries
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def measure(out: Path, how: str) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), how], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="games per sweep, the first is the reference")
    parser.add_argument("--no-at-once", action="store_true", help="skip the all-at-once reference computation")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ways = ["compute"] + ([] if args.no_at_once else ["at_once"])
    with tempfile.TemporaryDirectory() as tmp:
        seed = Path(tmp) / "seed"
        run_sweep(parse_spec(SEED_SPEC, name="seed"), workers=1, out=seed, report=False, quiet=True)
        rows = []
        for games in sizes:
            folder = Path(tmp) / f"g{games}"
            tile(seed, folder, games)
            row = {"games": games}
            for how in ways:
                m = measure(folder, how)
                row[f"{how}_mb"] = m["peak_mb"] - m["base_mb"]
            rows.append(row)
            shutil.rmtree(folder)
    ref = rows[0]
    print(f"peak memory added by computing the results set (MB); reference: {ref['games']:,} games")
    header = f"{'games':>9}"
    for how in ways:
        header += f" | {how + ' MB':>14} {'x ref':>7} {'KB/game':>8}"
    print(header)
    for i, row in enumerate(rows):
        line = f"{row['games']:>9,}"
        for how in ways:
            mb = row[f"{how}_mb"]
            slope = ((mb - rows[i - 1][f"{how}_mb"]) * 1024 / (row["games"] - rows[i - 1]["games"])
                     if i else float("nan"))
            line += f" | {mb:>14.1f} {mb / ref[f'{how}_mb']:>7.2f} {slope:>8.2f}"
        print(line)


if __name__ == "__main__":
    main()
