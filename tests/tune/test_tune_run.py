"""A whole tuning on a toy game: real games through the sweep's chunks, common random numbers, the confirmation on
fresh seeds, the tables and the report; running again does nothing new; another spec in the folder is refused."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pypdf
import pytest
import sweep_toy_game  # noqa: F401  (registers kuhn_poker's records)

from trustme_analysis import results
from trustme_analysis.outdir import load_manifest
from trustme_analysis.tune import tables
from trustme_analysis.tune.__main__ import main
from trustme_analysis.tune.run import TuneError, run_tuning
from trustme_analysis.tune.spec import load_tune_spec

SPEC = """
title = "toy tuning"
question = "Which player count gives the first seat the most wins?"
game = "kuhn_poker"
seed = 7
[lineups.random]
seats = ["random"]
[search]
players = { low = 2, high = 4 }
[[objective]]
name = "first seat"
table = "ludii_metrics"
where = { metric = "AdvantageP1" }
column = "value"
goal = "maximize"
[[constraint]]
name = "shared first place"
table = "ludii_metrics"
where = { metric = "Drawishness" }
column = "value"
at_most = 0.9
[budget]
games = 1200
games_per_candidate = 200
first_rung = 50
chunk_size = 50
[sampler]
kind = "grid"
[confirm]
best = 2
games = 100
reports = false
"""


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune")
    spec_path = folder / "toy.toml"
    spec_path.write_text(SPEC, encoding="utf-8")
    out = folder / "out"
    assert main([str(spec_path), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    return spec_path, out


def test_every_candidate_plays_the_same_games_and_the_confirmation_fresh_ones(tuned):
    spec_path, out = tuned
    seeds = {}
    for folder in sorted((out / "candidates").iterdir()):
        chunk = pd.read_parquet(folder / "records" / "v00" / "chunk-00000.parquet")
        seeds[folder.name] = list(dict.fromkeys(chunk["game_seed"]))
    assert len(seeds) == 3
    first = next(iter(seeds.values()))
    assert all(s == first for s in seeds.values())  # common random numbers
    confirmed = list((out / "confirm").iterdir())
    assert confirmed
    for folder in confirmed:
        assert load_manifest(folder)["seed"] == load_tune_spec(spec_path).confirm.seed
        fresh = set(pd.read_parquet(folder / "records" / "v00" / "chunk-00000.parquet")["game_seed"])
        assert not fresh & set(first)


def test_tables_match_the_candidates_results_sets(tuned):
    _, out = tuned
    res = tables.load(out)
    trials = res["tune_trials"]
    assert set(trials["rule_players"]) == {"2", "3", "4"}
    for r in trials[trials["state"] == "complete"].itertuples():
        cand = results.load(out / "candidates" / r.candidate)
        ludii = cand["ludii_metrics"].set_index("metric")
        assert r.obj0 == pytest.approx(ludii.loc["AdvantageP1", "value"])
        assert r.obj0_loss == pytest.approx(-r.obj0)
        assert r.con0 == pytest.approx(ludii.loc["Drawishness", "value"])
    conf = res["tune_confirmation"]
    assert conf["name"].iloc[0] == "rulebook" and (conf["games"] == 100).all()
    assert set(conf["verdict"]) <= {"reference", "better", "worse", "no clear difference"}
    rulebook = conf[(conf["name"] == "rulebook") & (conf["key"] == "obj0")].iloc[0]
    confirm = results.load(out / "confirm" / rulebook["candidate"])
    assert rulebook["value"] == pytest.approx(confirm["ludii_metrics"].set_index("metric").loc["AdvantageP1", "value"])


def test_report_pages(tuned):
    _, out = tuned
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(out / "tuning.pdf").pages)
    for heading in ("The answer", "What was searched", "Confirmation on fresh games", "How the search progressed",
                    "Which parameters matter", "Trials"):
        assert heading in text
    assert "fresh games" in text


def test_running_again_plays_nothing_and_another_spec_is_refused(tuned, tmp_path, capsys):
    spec_path, out = tuned
    before = {p: p.stat().st_mtime_ns for p in out.glob("*/*/records/*/chunk-*.parquet")}
    spec = load_tune_spec(spec_path)
    result = run_tuning(spec, out=out, workers=1, quiet=True)
    assert result.search.games_now == 0 and result.search.trials_now == 0
    assert {p: p.stat().st_mtime_ns for p in out.glob("*/*/records/*/chunk-*.parquet")} == before
    other = tmp_path / "other.toml"
    other.write_text(SPEC.replace("seed = 7", "seed = 8"), encoding="utf-8")
    with pytest.raises(TuneError, match="differs in: seed"):
        run_tuning(load_tune_spec(other), out=out, workers=1, quiet=True)
    assert main([str(other), "--out", str(out), "--quiet"]) == 2
    assert "differs in: seed" in capsys.readouterr().err


def test_check_describes_and_writes_nothing(tuned, tmp_path, capsys):
    spec_path, _ = tuned
    out = tmp_path / "never"
    assert main([str(spec_path), "--check", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "search space (3 points)" in text and "interval: low/high" in text and "50, 100, 200" in text
    assert not Path(out).exists()


def test_dask_without_distributed_is_a_clear_error_and_writes_nothing(tuned, tmp_path, monkeypatch, capsys):
    import sys

    spec_path, _ = tuned
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # what a missing package looks like to import
    out = tmp_path / "dask"
    assert main([str(spec_path), "--out", str(out), "--dask", "local"]) == 2
    assert "--dask needs dask's distributed scheduler" in capsys.readouterr().err
    assert not out.exists()
