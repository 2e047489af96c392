"""Peak memory of building a sweep's results set and its PDF report as the number of games grows.

Run: ``PYTHONPATH=. python benchmarks/report_memory.py [--sizes 10000,100000,1000000] [--chunk 20000] [--no-pdf]
[--at-once] [--stages] [--game trustme_pinocchio|trustme_liar|trustme_1981]``.

A small sweep of the game (two variants, heuristic bots; Pinocchio by default) is played once; its records are then tiled (copied with new
game and chunk numbers into chunks of ``--chunk`` games, the size the automatic chunking picks for kernel line-ups,
their checksums recorded in the manifest) into sweeps of each size, so the large sizes cost no simulation. Each
figure comes from a fresh process:

- **results MB**: ``results.load(outdir)`` (computing the results set from the chunks and storing it), its peak
  resident memory (VmHWM) minus its resident memory once the libraries are imported, i.e. what the results set
  itself added; **peak MB** beside it is the process's whole peak (libraries included);
- **PDF MB**: then drawing the report from the stored set (``report.build.build_report``), the peak again (what
  the results and the PDF together added);
- **stages** (``--stages``): where the memory goes, from one more fresh process per size: each stage of
  ``compute_from`` (the generic per-game rows, the seat and Ludii tables, the game's own statistics, the
  comparisons, ..., storing and reading back the set, the PDF), its peak over the resident memory at its start
  (the kernel's high-water mark is reset before each stage) and what it left resident;
- **all at once** (``--at-once``): ``compute_from(manifest, load_records(outdir))`` with every table computed from
  all records in one frame, the way results sets were computed before (identical tables), for reference.

The first size is the reference: "x ref" divides each figure by the reference's; "KB/game" is the growth per added
game from the previous size (the slope; 0 is flat).
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
    "games": 200,
    "chunk_size": 200,
    "seed": 2026,
    "params": {"chart": [1, 3, 6, 10, 15, 21]},
    "grid": {"players": [2, 3]},
    "lineups": {"heuristic": {"seats": [{"bot": "heuristic"}]}},
}

#: The seed sweep of each game (``--game``): two variants of heuristic players, as Pinocchio's above.
SEED_SPECS = {
    "trustme_pinocchio": SEED_SPEC,
    "trustme_liar": {**SEED_SPEC, "game": "trustme_liar", "params": {}, "grid": {"players": [2, 4]}},
    "trustme_1981": {**SEED_SPEC, "game": "trustme_1981", "params": {}, "grid": {"players": [2, 3]}},
}
#: Each game's package (its analysis modules are imported before the baseline is read, as Pinocchio's).
PACKAGES = {"trustme_pinocchio": "pinocchio", "trustme_liar": "liar", "trustme_1981": "board1981"}

CHILD = r"""
import json, sys
import trustme_analysis, scipy.stats, matplotlib  # noqa: F401 (imports not measured)
import importlib
for _part in ("stats", "pages"):
    importlib.import_module(f"trustme_analysis.games.{sys.argv[-1]}.analysis.{_part}")
import trustme_analysis.report.build
from trustme_analysis import results
from trustme_analysis.results.build import Builder, compute_from
from trustme_analysis.outdir import load_manifest, load_records

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024  # kB -> MB

base = status("VmRSS")
out, how = sys.argv[1], sys.argv[2]
figures = {"base_mb": base}
if how == "compute":
    res = results.load(out, recompute=True)
    figures["results_mb"] = status("VmHWM")
    if sys.argv[3] == "pdf":
        del res
        trustme_analysis.report.build.build_report(out)
        figures["pdf_mb"] = status("VmHWM")
else:  # as before: every record in one frame, each table computed from all of it
    Builder.per_variant = lambda self, table, columns=None, variants=None: table(self.records)
    res = compute_from(load_manifest(out), load_records(out), outdir=out)
    figures["results_mb"] = status("VmHWM")
print(json.dumps(figures))
"""


STAGES_CHILD = r"""
import json, sys
import trustme_analysis, scipy.stats, matplotlib  # noqa: F401 (imports not measured)
import importlib
for _part in ("stats", "pages"):
    importlib.import_module(f"trustme_analysis.games.{sys.argv[-1]}.analysis.{_part}")
import trustme_analysis.report.build
from trustme_analysis.results import build, store

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024  # kB -> MB

stages, open_stages = [], []

def seen_peak():
    # The high-water mark so far counts for every stage still open (a stage inside another resets it).
    hwm = status("VmHWM")
    for s in open_stages:
        s["peak"] = max(s["peak"], hwm)

def staged(name, fn):
    def run(*args, **kwargs):
        seen_peak()
        with open("/proc/self/clear_refs", "w") as f:  # resets VmHWM to the resident size now
            f.write("5")
        mine = {"stage": name, "start": status("VmRSS")}
        mine["peak"] = mine["start"]
        stages.append(mine)
        open_stages.append(mine)
        try:
            return fn(*args, **kwargs)
        finally:
            seen_peak()
            open_stages.pop()
            mine["after"] = status("VmRSS")
    return run

for name in ("_variants", "_balance", "_comparisons", "_what_differs", "_lineup_comparison", "_checks",
             "_headlines"):
    setattr(build, name, staged(name.strip("_"), getattr(build, name)))
build.Builder.__init__ = staged("per-game rows", build.Builder.__init__)
found = build.find_game

class Entry:
    def __init__(self, entry):
        self._entry = entry
    def __getattr__(self, key):
        return getattr(self._entry, key)
    def part(self, key):
        fn = self._entry.part(key)
        return staged("game statistics", fn) if fn is not None and key == "statistics" else fn

build.find_game = lambda name: (lambda e: Entry(e) if e is not None else None)(found(name))
out = sys.argv[1]
res = staged("compute", build.compute)(out)
staged("store", store.save)(res, out, build.records_key(out))
del res
staged("read back", store.load)(out)
if sys.argv[2] == "pdf":
    staged("PDF", trustme_analysis.report.build.build_report)(out)
print(json.dumps(stages))
"""


def tile(seed: Path, out: Path, games: int, size: int) -> None:
    """A sweep folder of ``games`` games (split over the seed's variants), in chunks of ``size`` games, made of
    copies of the seed's records."""
    manifest = load_manifest(seed)
    per_variant = games // len(manifest["variants"])
    shutil.rmtree(out, ignore_errors=True)
    entries: dict[str, dict[str, dict]] = {}
    for v in manifest["variants"]:
        vid = v["id"]
        source = pd.concat([pd.read_parquet(p) for p in sorted((seed / RECORDS / vid).glob("chunk-*.parquet"))],
                           ignore_index=True)
        source["game_index"] -= source["game_index"].min()
        seed_games = int(source["game_index"].max()) + 1
        copies = -(-size // seed_games)
        block = pd.concat([source.assign(game_index=source["game_index"] + k * seed_games) for k in range(copies)],
                          ignore_index=True)
        entries[vid] = {}
        for c in range(-(-per_variant // size)):
            first = c * size
            frame = block[block["game_index"] < min(size, per_variant - first)].copy()
            frame["game_index"] += first
            frame["chunk"] = c
            path = chunk_path(out, vid, c)
            path.parent.mkdir(parents=True, exist_ok=True)
            frame.to_parquet(path, index=False)
            entries[vid][str(c)] = chunk_entry(path.read_bytes(), frame["game_index"].nunique())
    manifest["games_per_variant"] = per_variant
    manifest["chunk_size"] = size
    manifest["fingerprint"] = {**manifest["fingerprint"], "games": per_variant}
    manifest[CHUNKS] = entries
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def measure(out: Path, how: str, pdf: bool, package: str = "pinocchio") -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), how, "pdf" if pdf else "-", package],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"measuring {out} ({how}) failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_stages(out: Path, pdf: bool, package: str = "pinocchio") -> list[dict]:
    done = subprocess.run([sys.executable, "-c", STAGES_CHILD, str(out), "pdf" if pdf else "-", package],
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"measuring the stages of {out} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def print_stages(games: int, stages: list[dict]) -> None:
    print(f"  stages at {games:,} games (MB): peak over its start / left resident after / resident at its start")
    for s in stages:
        inner = s["stage"] not in ("compute", "store", "read back", "PDF")
        print(f"    {'  ' if inner else ''}{s['stage']:<20} {s['peak'] - s['start']:>8.1f} "
              f"{s['after'] - s['start']:>+8.1f} {s['start']:>8.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000", help="games per sweep, the first is the reference")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per tiled chunk")
    parser.add_argument("--no-pdf", action="store_true", help="measure the results set only, not the PDF")
    parser.add_argument("--at-once", action="store_true", help="also the all-at-once reference (large memory)")
    parser.add_argument("--stages", action="store_true", help="also where the memory goes, stage by stage")
    parser.add_argument("--game", default="trustme_pinocchio", choices=sorted(SEED_SPECS),
                        help="the game whose sweep is tiled (default: Pinocchio)")
    args = parser.parse_args()
    package = PACKAGES[args.game]
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        seed = Path(tmp) / "seed"
        run_sweep(parse_spec(SEED_SPECS[args.game], name="seed"), workers=1, out=seed, report=False, quiet=True)
        rows = []
        for games in sizes:
            folder = Path(tmp) / f"g{games}"
            tile(seed, folder, games, args.chunk)
            m = measure(folder, "compute", not args.no_pdf, package)
            row = {"games": games, "base": m["base_mb"], "results": m["results_mb"] - m["base_mb"],
                   "results_peak": m["results_mb"]}
            if "pdf_mb" in m:
                row["pdf"], row["pdf_peak"] = m["pdf_mb"] - m["base_mb"], m["pdf_mb"]
            if args.at_once:
                a = measure(folder, "at_once", False, package)
                row["at_once"] = a["results_mb"] - a["base_mb"]
            rows.append(row)
            if args.stages:
                print_stages(games, measure_stages(folder, not args.no_pdf, package))
            print(f"  {games:,} games: " + ", ".join(f"{k} {v:.1f}" for k, v in row.items() if k != "games"),
                  flush=True)
            shutil.rmtree(folder)
    ref = rows[0]
    ways = [w for w in ("results", "pdf", "at_once") if w in ref]
    print(f"peak memory added (MB) over the imported libraries ({ref['base']:.0f} MB); reference: "
          f"{ref['games']:,} games; peak = the whole process")
    header = f"{'games':>9}"
    for how in ways:
        header += f" | {how + ' MB':>12} {'x ref':>6} {'KB/game':>8}"
        if how + "_peak" in ref:
            header += f" {'peak MB':>8}"
    print(header)
    for i, row in enumerate(rows):
        line = f"{row['games']:>9,}"
        for how in ways:
            mb = row[how]
            slope = (mb - rows[i - 1][how]) * 1024 / (row["games"] - rows[i - 1]["games"]) if i else float("nan")
            line += f" | {mb:>12.1f} {mb / ref[how]:>6.2f} {slope:>8.3f}"
            if how + "_peak" in row:
                line += f" {row[how + '_peak']:>8.0f}"
        print(line)


if __name__ == "__main__":
    main()
