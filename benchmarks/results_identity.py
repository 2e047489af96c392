"""Are the results set's tables byte-identical to a reference checkout's, on the example specs?

Run: ``PYTHONPATH=. python benchmarks/results_identity.py --reference /work/main [--games 10000] [--keep DIR]
[--folder OUTDIR]``.

Each example spec (``reports/chart_comparison.toml``, ``reports/sweep_liar.toml``, ``reports/sweep_1981.toml``) is
swept once with its own chunk size and about ``--games`` games in all (split over its variants; no checks, no
report). The results set is then computed twice from the same records, in fresh processes: by this checkout and by
the reference checkout (``--reference``, e.g. the main branch's). Every table's CSV is compared byte for byte; a
differing table is named with its first differing line and, for numeric columns, the largest relative difference.
Exit status 1 when some table differs. ``--folder OUTDIR`` compares the results sets of a sweep already stored there
instead (e.g. one of ``benchmarks/report_memory.py``'s tiled sweeps of 10^5 games, past the bound up to which the
streamed figures are bit for bit those of the whole arrays); nothing is written into it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

SPECS = ("reports/chart_comparison.toml", "reports/sweep_liar.toml", "reports/sweep_1981.toml")

CHILD = r"""
import sys, shutil, tempfile
from pathlib import Path
import trustme_analysis
from trustme_analysis.results import store
from trustme_analysis.results.build import compute, records_key
out, target = Path(sys.argv[1]), Path(sys.argv[2])
res = compute(out)
store.save(res, target, records_key(out))
print(trustme_analysis.__file__)
"""


def sweep(spec_path: str, folder: Path, games: int) -> None:
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    data = tomllib.loads(Path(spec_path).read_text(encoding="utf-8"))
    data.pop("checks", None)
    spec = parse_spec(data, name=Path(spec_path).stem)
    per_variant = max(1, games // max(1, len(spec.variants)))
    data["games"] = per_variant
    for lineup in (data.get("lineups") or {}).values():
        lineup.pop("games", None)
    spec = parse_spec(data, name=Path(spec_path).stem)
    run_sweep(spec, workers=1, out=folder, report=False, quiet=True)


def results_with(checkout: Path, out: Path, target: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(out), str(target)], cwd=checkout, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"computing the results set with {checkout} failed:\n{done.stderr[-3000:]}")
    return done.stdout.strip().splitlines()[-1]


def compare(a: Path, b: Path) -> list[str]:
    import numpy as np
    import pandas as pd

    problems = []
    names_a = {p.name for p in (a / "stats").glob("*.csv")}
    names_b = {p.name for p in (b / "stats").glob("*.csv")}
    for name in sorted(names_a ^ names_b):
        problems.append(f"{name}: only in {'this checkout' if name in names_a else 'the reference'}")
    for name in sorted(names_a & names_b):
        ta, tb = (a / "stats" / name).read_bytes(), (b / "stats" / name).read_bytes()
        if ta == tb:
            continue
        la, lb = ta.decode().splitlines(), tb.decode().splitlines()
        first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
        worst = ""
        try:
            fa, fb = pd.read_csv(a / "stats" / name), pd.read_csv(b / "stats" / name)
            if fa.shape == fb.shape and list(fa.columns) == list(fb.columns):
                rel = []
                for col in fa.columns:
                    if fa[col].dtype.kind == "f" and fb[col].dtype.kind == "f":
                        x, y = fa[col].to_numpy(), fb[col].to_numpy()
                        d = np.abs(x - y) / np.maximum(np.abs(y), 1e-300)
                        d = d[~(np.isnan(x) & np.isnan(y))]
                        if d.size and np.nanmax(d) > 0:
                            rel.append((float(np.nanmax(d)), col))
                if rel:
                    top = sorted(rel, reverse=True)
                    worst = "; largest relative difference " + ", ".join(f"{d:.2e} in {c}" for d, c in top[:4])
        except Exception as exc:  # the CSVs differ in shape: the line is what is reported
            worst = f" ({type(exc).__name__})"
        problems.append(f"{name}: differs from line {first + 1} ({len(la)} vs {len(lb)} lines){worst}\n"
                        f"    this:      {la[first][:160] if first < len(la) else '<end>'}\n"
                        f"    reference: {lb[first][:160] if first < len(lb) else '<end>'}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", required=True, help="the reference checkout's root (e.g. /work/main)")
    parser.add_argument("--games", type=int, default=10_000, help="games per spec, split over its variants")
    parser.add_argument("--specs", default=",".join(SPECS))
    parser.add_argument("--keep", default=None, help="keep the sweeps and results sets in this folder")
    parser.add_argument("--folder", default=None, help="compare on this stored sweep instead of the example specs")
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1]
    if args.folder:
        out = Path(args.folder)
        if not (out / "manifest.json").is_file():
            print(f"--folder={args.folder!r} is not allowed; allowed: a sweep folder (with manifest.json)")
            sys.exit(2)
        with tempfile.TemporaryDirectory(prefix="identity-") as tmp:
            mine, ref = Path(tmp) / "this", Path(tmp) / "reference"
            results_with(here, out, mine)
            results_with(Path(args.reference), out, ref)
            problems = compare(mine, ref)
            tables = len(list((mine / "stats").glob("*.csv")))
        print(f"{out}: {tables} tables, " + ("all byte-identical" if not problems else f"{len(problems)} differ"))
        for p in problems:
            print("  " + p)
        sys.exit(1 if problems else 0)
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="identity-"))
    failed = False
    try:
        for spec in args.specs.split(","):
            name = Path(spec).stem
            out = root / name / "sweep"
            if not (out / "manifest.json").exists():
                shutil.rmtree(out, ignore_errors=True)
                sweep(str(here / spec), out, args.games)
            mine, ref = root / name / "this", root / name / "reference"
            for target in (mine, ref):
                shutil.rmtree(target, ignore_errors=True)
            results_with(here, out, mine)
            results_with(Path(args.reference), out, ref)
            problems = compare(mine, ref)
            tables = len(list((mine / "stats").glob("*.csv")))
            print(f"{name}: {tables} tables, " + ("all byte-identical" if not problems else
                                                  f"{len(problems)} differ"))
            for p in problems:
                print("  " + p)
            failed |= bool(problems)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
