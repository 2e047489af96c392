"""Every tuning preset in reports/ is valid and runs end to end (search, confirmation, tables, report) with a budget of
a few games, into a fresh folder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from trustme_analysis.tune import tables
from trustme_analysis.tune.run import run_tuning
from trustme_analysis.tune.spec import load_tune_spec

PRESETS = sorted((Path(__file__).resolve().parents[2] / "reports").glob("tune_*.toml"))


def test_the_presets_are_found():
    assert {"tune_pinocchio", "tune_liar", "tune_1981"} <= {p.stem for p in PRESETS}


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_preset_runs_with_a_tiny_budget(preset, tmp_path):
    spec = load_tune_spec(preset)
    budget = dataclasses.replace(spec.budget, games=12, games_per_candidate=4, first_rung=2, chunk_size=2,
                                 max_trials=3)
    confirm = dataclasses.replace(spec.confirm, games=2, best=1, reports=False)
    spec = dataclasses.replace(spec, budget=budget, confirm=confirm)
    if spec.trained:  # a trained line-up: a few thousand iterations for the base policy, a few hundred per candidate
        spec = dataclasses.replace(spec, train={**spec.train, "iterations": 2000}, candidate_iterations=500)
    result = run_tuning(spec, workers=1, out=tmp_path / "out", quiet=True)
    assert result.report is not None and result.report.is_file()
    res = tables.load(tmp_path / "out")
    assert len(res["tune_trials"]) >= 1
    confirmed = res["tune_confirmation"]
    assert confirmed["name"].iloc[0] == "rulebook" and (confirmed["games"] == 2).all()
    assert set(confirmed["key"]) == {f"obj{i}" for i in range(len(spec.objectives))} | \
        {f"con{i}" for i in range(len(spec.constraints))}
