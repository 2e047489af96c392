"""The findings page's claims, re-played: a reduced copy of each findings spec in ``reports/`` (fewer games, a smaller
training budget, no search line-up) is swept, answered with :func:`trustme_analysis.findings.answer`, and each claim
docs/guide/findings.rst makes in words is checked in direction on it.

The reduced copies play the same rules, seeds and line-ups as the published specs; only the sizes shrink, so a claim
that fails here has stopped holding for the rules or the players (or was a small effect the page should not lean on),
not for the sample. Only claims whose effect is many standard errors wide at the reduced size are checked; the small
seat effects (a first seat's few points) are left to the full specs.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

from trustme_analysis.findings import answer
from trustme_analysis.sweep.__main__ import main as sweep_main

REPORTS = Path(__file__).resolve().parents[2] / "reports"

#: Games per variant and line-up, and training iterations, of the reduced copies.
GAMES = 400
ITERATIONS = 100_000
#: The grid of each reduced copy: the rule variants the claims below are about (each trained policy costs seconds).
GRIDS = {
    "findings_pinocchio.toml": {"players": [2, 3]},
    "findings_liar.toml": {"players": [2, 4], "copies": [4]},
    "findings_1981.toml": {"players": [2], "payoff_mix": ["6/4/4/2", "4/2/8/2"]},
}


@dataclass(frozen=True)
class Claim:
    """One sentence of the findings page: the question's key, the rule variant (the table's ``rules`` cell) and a
    test on the heuristic and the competent figures."""

    says: str
    key: str
    rules: str
    holds: Callable[[float, float], bool]


CLAIMS = {
    "findings_pinocchio.toml": (
        Claim("trained players tell more tall tales than the heuristic (2 players)", "pinocchio-tall-tales",
              "players=2", lambda h, c: c > h + 0.05),
        Claim("trained players tell more tall tales than the heuristic (3 players)", "pinocchio-tall-tales",
              "players=3", lambda h, c: c > h + 0.05),
        Claim("trained players trust a tall tale less often than the heuristic", "pinocchio-tall-trusted",
              "players=2", lambda h, c: c < h - 0.05),
        Claim("the set bonus brings a third to a half of the score under both line-ups", "pinocchio-set-bonus",
              "players=3", lambda h, c: 0.3 < h < 0.5 and 0.3 < c < 0.5),
    ),
    "findings_liar.toml": (
        Claim("with 2 players and 4 copies the heuristic starter never wins; trained starters do",
              "liar-starter", "players=2, copies=4", lambda h, c: h < -0.45 and c > -0.2),
        Claim("with 4 players and 4 copies the heuristic starter wins far above a fair share, the trained one "
              "much less", "liar-starter", "players=4, copies=4", lambda h, c: h > 0.2 and c < h - 0.1),
        # How much the trained players bluff grows with their training (31-52% of cards at the spec's 400,000
        # iterations, about 8% at the reduced copy's 100,000): the reduced copy checks the direction only.
        Claim("the heuristic never plays a false card; trained players bluff", "liar-false-cards",
              "players=4, copies=4", lambda h, c: h == 0.0 and c > 0.02),
    ),
    "findings_1981.toml": (
        Claim("trained players end poorer than heuristic ones (the heuristic exaggerates the runaway)",
              "1981-wealth", "players=2, payoff_mix=6/4/4/2", lambda h, c: c < 0.8 * h),
        Claim("competent players still end far above their $20 with the default mix", "1981-wealth",
              "players=2, payoff_mix=6/4/4/2", lambda h, c: c > 1000),
        Claim("about three claims in five are made unseen under both line-ups", "1981-unseen",
              "players=2, payoff_mix=6/4/4/2", lambda h, c: 0.5 < h < 0.72 and 0.5 < c < 0.75),
    ),
}

#: The poorer Payoff mix's claim compares two variants of one line-up (not a row of the table).
MIX_CLAIM = "the poorer mix 4/2/8/2 brings trained players' final wealth below a fifth of the default mix's"


def reduced(spec_name: str, tmp_path: Path) -> Path:
    """A copy of ``reports/<spec_name>`` with :data:`GAMES` games a variant, :data:`ITERATIONS` training iterations,
    the grid of :data:`GRIDS` and no line-up but the heuristic and the trained ones; its output folder in
    ``tmp_path``."""
    with open(REPORTS / spec_name, "rb") as fh:
        data = tomllib.load(fh)
    data["games"] = GAMES
    data["chunk_size"] = GAMES // 2
    data["train"] = {**data["train"], "iterations": ITERATIONS}
    data["grid"] = GRIDS[spec_name]
    data["lineups"] = {k: v for k, v in data["lineups"].items() if k in ("heuristic", "trained")}
    data["out"] = str(tmp_path / "out")
    path = tmp_path / spec_name
    path.write_text(_toml(data), encoding="utf-8")
    return path


def _toml(data: dict) -> str:
    """The few TOML forms the findings specs use (strings, numbers, lists, inline tables, tables of tables)."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + " }"
        return repr(v)

    top = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict) or k == "train"]
    for k, v in data.items():
        if isinstance(v, dict) and k != "train":
            if all(isinstance(x, dict) for x in v.values()) and v:
                for name, sub in v.items():
                    top.append(f"[{k}.{name}]")
                    top += [f"{a} = {value(b)}" for a, b in sub.items()]
            else:
                top.append(f"[{k}]")
                top += [f"{a} = {value(b)}" for a, b in v.items()]
    return "\n".join(top) + "\n"


def _row(table: pd.DataFrame, key: str, rules: str) -> pd.Series:
    rows = table[(table["key"] == key) & (table["rules"] == rules)]
    assert len(rows) == 1, f"no single row {key} / {rules} in {sorted(set(table['rules']))}"
    return rows.iloc[0]


@pytest.mark.parametrize("spec_name", sorted(CLAIMS))
def test_the_findings_pages_claims_hold_in_direction_on_a_reduced_copy(spec_name, tmp_path):
    spec = reduced(spec_name, tmp_path)
    assert sweep_main([str(spec), "--no-report", "--quiet", "--workers", "1"]) == 0
    table = answer(str(tmp_path / "out"))
    failed = []
    for claim in CLAIMS[spec_name]:
        r = _row(table, claim.key, claim.rules)
        if not claim.holds(float(r["heuristic"]), float(r["competent"])):
            failed.append(f"{claim.says}: heuristic {r['heuristic']:.4g}, competent {r['competent']:.4g}")
    if spec_name == "findings_1981.toml":
        rich = _row(table, "1981-wealth", "players=2, payoff_mix=6/4/4/2")["competent"]
        poor = _row(table, "1981-wealth", "players=2, payoff_mix=4/2/8/2")["competent"]
        if not poor < rich / 5:
            failed.append(f"{MIX_CLAIM}: {poor:.4g} against {rich:.4g}")
    assert not failed, "; ".join(failed)
