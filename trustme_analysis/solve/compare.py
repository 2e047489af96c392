"""Solved variants compared: does the rule parameter they differ in change anything at all?

A reduced variant can be too small for the question asked of it: with three Character values and one Ticket each, a
steeper set-bonus chart may never change who wins, so the solved policy and the seat values come out identical and
the pair of solves says nothing about the chart. :func:`compare_solutions` finds such pairs among the solutions
stored under ``OUTDIR/solve/`` and stores them in ``OUTDIR/solve/comparison.json``; the solve command and the sweep
print them as warnings and the report puts them first on each affected solution's page.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

from trustme_analysis.solve import storage

#: Probabilities and seat values closer than this are the same (a solver run on the same tree with the same utilities
#: gives bit-identical results; anything larger is a real difference).
SAME = 1e-6


def _policy(folder: Path) -> dict[str, dict[int, float]]:
    with open(folder / storage.POLICY, encoding="utf-8") as fh:
        table = json.load(fh)["policy"]
    return {key: {int(a): float(p) for a, p in pairs} for key, pairs in table.items()}


def same_policy(a: dict[str, dict[int, float]], b: dict[str, dict[int, float]], tol: float = SAME) -> bool:
    """Whether two policy tables (information state -> action -> probability) have the same information states and
    actions and probabilities within ``tol``."""
    if a.keys() != b.keys():
        return False
    for key, row in a.items():
        other = b[key]
        if row.keys() != other.keys() or any(abs(p - other[act]) > tol for act, p in row.items()):
            return False
    return True


def varied(a: dict[str, Any], b: dict[str, Any]) -> dict[str, list[Any]]:
    """The game parameters two solutions' ``result.json`` differ in: name -> [value in a, value in b]."""
    pa, pb = a.get("parameters") or {}, b.get("parameters") or {}
    return {k: [pa.get(k), pb.get(k)] for k in sorted(set(pa) | set(pb)) if pa.get(k) != pb.get(k)}


def warning_text(names: list[str], changed: dict[str, list[Any]]) -> str:
    """The warning for two solutions whose varied parameters changed nothing, in words."""
    what = "; ".join(f"{k} from {va} to {vb}" for k, (va, vb) in changed.items())
    return (f"Solves {names[0]} and {names[1]}: changing {what} leaves the solved policy and the seat values "
            "unchanged. This variant is too small for this question: in it the change never alters what a player "
            "should do or can expect. Solve a larger variant (more values, Tickets or days) to answer it.")


def compare_solutions(outdir: str | Path) -> list[dict[str, Any]]:
    """Every pair of stored solutions of the same game that differ only in rule parameters yet have the same solved
    policy and seat values; written to ``OUTDIR/solve/comparison.json`` (an empty list when there is none).

    Each entry: ``solves`` (the two names), ``varied`` (parameter -> the two values) and ``text`` (the warning).
    """
    found = []
    loaded = []
    for folder in storage.solutions(outdir):
        if not (folder / storage.POLICY).is_file():
            continue
        with open(folder / storage.RESULT, encoding="utf-8") as fh:
            loaded.append((folder, json.load(fh)))
    policies: dict[Path, dict[str, dict[int, float]]] = {}
    for (fa, ra), (fb, rb) in combinations(loaded, 2):
        changed = varied(ra, rb)
        if ra.get("short_name") != rb.get("short_name") or not changed:
            continue
        va, vb = ra.get("seat_values") or [], rb.get("seat_values") or []
        if len(va) != len(vb) or any(abs(x - y) > SAME for x, y in zip(va, vb)):
            continue
        for f in (fa, fb):
            if f not in policies:
                policies[f] = _policy(f)
        if same_policy(policies[fa], policies[fb]):
            names = [str(ra.get("name", fa.name)), str(rb.get("name", fb.name))]
            found.append({"solves": names, "varied": changed, "text": warning_text(names, changed)})
    path = Path(outdir) / storage.SOLVE_DIR / storage.COMPARISON
    if loaded:
        storage.write_json(path, found)
    return found


def load_comparison(outdir: str | Path) -> list[dict[str, Any]]:
    """The stored comparison (``[]`` when none is stored)."""
    path = Path(outdir) / storage.SOLVE_DIR / storage.COMPARISON
    if not path.is_file():
        return []
    with open(path, encoding="utf-8") as fh:
        return list(json.load(fh))
