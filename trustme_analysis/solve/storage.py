"""Where a solution lives: ``OUTDIR/solve/<name>/``, beside the sweep data of the same spec.

Files of one solution:

- ``policy.json``: ``{"game", "algorithm", "metric", "value", "fingerprint", "made_by", "policy": {information
  state: [[action, prob], ...]}}`` (the :func:`cfr.to_dict` form; :func:`~trustme_analysis.players.policy.load_policy`
  reads it back, :class:`~trustme_analysis.players.policy.PolicyBot` plays it). ``fingerprint`` identifies the
  policy's contents (:func:`~trustme_analysis.players.policy.policy_fingerprint`); ``made_by`` is the solve that made
  it: ``solve`` (the section's name), ``section`` (:meth:`~trustme_analysis.solve.spec.SolveSpec.policy_inputs`: game,
  algorithm, stopping rule, seed, tree limit), ``reached`` (metric, value, iterations, stop reason) and ``versions``
  (of this package, OpenSpiel, numpy and numba);
- ``result.json``: the summary (game, sizes, timing, metric and its final value, seat values, stop reason, the
  section as given, the exploitation and simple-strategy summaries, the variant's assumptions);
- ``curve.csv``: ``iteration, seconds, exploitability|nash_conv``;
- ``decisions.csv``: one row per information set and action (player, information state, the situation and the
  action in the game's words where it describes them, reach, action, probability, action value);
- ``strategy/<table>.csv``: the game's strategy statistics (:mod:`trustme_analysis.solve.strategy`);
- ``exploitation.csv``, ``best_response/<lineup>_seat<i>.csv``, ``simple.csv``: exploiting the bots and the simple
  strategies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from trustme_analysis.atomic import atomic_path
from trustme_analysis.players.policy import POLICY, load_policy  # the policy file belongs to the bot

SOLVE_DIR = "solve"
RESULT = "result.json"
CURVE = "curve.csv"
DECISIONS = "decisions.csv"
STRATEGY = "strategy"
EXPLOITATION = "exploitation.csv"
BEST_RESPONSE = "best_response"
SIMPLE = "simple.csv"
#: Pairs of solutions whose varied rule parameters changed nothing (:mod:`trustme_analysis.solve.compare`).
COMPARISON = "comparison.json"


def solution_dir(outdir: str | Path, name: str) -> Path:
    """``OUTDIR/solve/<name>``."""
    return Path(outdir) / SOLVE_DIR / name


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (a reader never sees half a file)."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, default=_plain)


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} as JSON")


def write_csv(path: Path, table: pd.DataFrame) -> None:
    """Write a table as CSV (folders created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False)


def solutions(outdir: str | Path) -> list[Path]:
    """The solution folders stored under ``OUTDIR/solve/`` (those with a ``result.json``), in the order of their
    spec's ``[[solve]]`` sections (then by name)."""
    root = Path(outdir) / SOLVE_DIR
    if not root.is_dir():
        return []
    found = [p for p in root.iterdir() if (p / RESULT).is_file()]

    def order(p: Path) -> tuple[int, str]:
        with open(p / RESULT, encoding="utf-8") as fh:
            value = json.load(fh).get("order")
        return (value if isinstance(value, int) else 1_000_000, p.name)

    return sorted(found, key=order)


def stored_policy(outdir: str | Path, spec: Any) -> tuple[str | None, str]:
    """Whether ``OUTDIR/solve/<name>/policy.json`` is the policy of the ``[[solve]]`` section ``spec``.

    Returns ``(fingerprint, "")`` when the stored policy was made by the same policy inputs
    (:meth:`~trustme_analysis.solve.spec.SolveSpec.policy_inputs`), else ``(None, why)``: no policy is stored, it
    carries no ``made_by`` (stored before policies carried one), or it was made by other inputs (naming them).
    """
    path = solution_dir(outdir, spec.name) / POLICY
    if not path.is_file():
        return None, f"no policy is stored at {path}"
    try:
        data = load_policy(path)
    except ValueError as exc:
        return None, str(exc)
    section = (data.get("made_by") or {}).get("section")
    if not isinstance(section, dict):
        return None, f"the policy at {path} does not say which solve made it"
    wanted = json.loads(json.dumps(spec.policy_inputs()))
    differing = sorted(k for k in set(section) | set(wanted) if section.get(k) != wanted.get(k))
    if differing:
        return None, (f"the policy at {path} was made by another [[solve]] section (differs in: "
                      + ", ".join(f"{k} {section.get(k)!r} -> {wanted.get(k)!r}" for k in differing) + ")")
    return data["fingerprint"], ""


def load_solution(folder: str | Path) -> dict[str, Any]:
    """Everything stored for one solution: ``result`` (dict), ``curve``, ``decisions``, ``exploitation``,
    ``simple`` (DataFrames or None), ``strategy`` and ``best_response`` ({name: DataFrame})."""
    folder = Path(folder)
    with open(folder / RESULT, encoding="utf-8") as fh:
        result = json.load(fh)

    def table(name: str) -> pd.DataFrame | None:
        p = folder / name
        return pd.read_csv(p) if p.is_file() and p.stat().st_size > 1 else None

    def tables(sub: str) -> dict[str, pd.DataFrame]:
        d = folder / sub
        if not d.is_dir():
            return {}
        return {p.stem: pd.read_csv(p) for p in sorted(d.glob("*.csv")) if p.stat().st_size > 1}

    return {
        "folder": folder,
        "result": result,
        "curve": table(CURVE),
        "decisions": table(DECISIONS),
        "exploitation": table(EXPLOITATION),
        "simple": table(SIMPLE),
        "strategy": tables(STRATEGY),
        "best_response": tables(BEST_RESPONSE),
    }
