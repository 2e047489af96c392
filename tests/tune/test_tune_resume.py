"""kill -9 in the middle of a study, then the same command again: the study continues, no trial is lost or counted
twice, and no game is played twice."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import optuna
import sweep_toy_game

from trustme_analysis.tune.__main__ import main
from trustme_analysis.tune.study import storage_url, trial_info

SPEC = """
title = "toy kill"
game = "kuhn_poker"
seed = 11
[lineups.random]
seats = ["random"]
[search]
players = { low = 2, high = 6 }
[[objective]]
name = "first seat"
table = "ludii_metrics"
where = { metric = "AdvantageP1" }
column = "value"
goal = "maximize"
[budget]
games = 100000
games_per_candidate = 100
first_rung = 25
chunk_size = 25
max_trials = 7
[sampler]
kind = "random"
rulebook_first = false
"""

CLI = ("import sys; sys.path.insert(0, {here!r}); import sweep_toy_game; "
       "from trustme_analysis.tune.__main__ import main; sys.exit(main(sys.argv[1:]))")


def trial_states(out: Path) -> list[tuple[int, str]]:
    db = out / "study.db"
    if not db.is_file():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return list(conn.execute("SELECT number, state FROM trials ORDER BY number"))
    except sqlite3.OperationalError:  # the tables are not created yet
        return []


def chunks(out: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in out.glob("candidates/*/records/*/chunk-*.parquet")}


def test_kill_mid_study_and_resume(tmp_path):
    spec = tmp_path / "kill.toml"
    spec.write_text(SPEC, encoding="utf-8")
    out = tmp_path / "out"
    args = [str(spec), "--out", str(out), "--workers", "1", "--no-confirm", "--no-report", "--quiet"]
    proc = subprocess.Popen([sys.executable, "-c", CLI.format(here=str(sweep_toy_game.HERE)), *args],
                            env={**os.environ, "SWEEP_TOY_DELAY": "0.02"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300
    try:
        while True:
            assert proc.poll() is None, f"the study ended before it could be killed: {proc.communicate()}"
            assert time.monotonic() < deadline, "the study did not get going"
            # Look while the study is stopped, so that what is seen is what the kill finds: a trial seen running
            # could otherwise finish between the look and the kill (seen on a loaded CI machine).
            os.killpg(proc.pid, signal.SIGSTOP)
            states = trial_states(out)
            finished = [n for n, s in states if s in ("COMPLETE", "PRUNED")]
            running = [n for n, s in states if s == "RUNNING"]
            # Kill while a trial is half-way: at least one of its chunks stored.
            if len(finished) >= 2 and running and len(chunks(out)) > len(finished):
                break
            os.killpg(proc.pid, signal.SIGCONT)
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()

    killed_states = trial_states(out)
    orphans = [n for n, s in killed_states if s == "RUNNING"]
    assert len(orphans) == 1
    storage = optuna.storages.RDBStorage(storage_url(out))
    before = {t.number: t for t in optuna.load_study(study_name="tune", storage=storage).trials}
    stored_before = chunks(out)
    del storage

    assert main(args) == 0

    study = optuna.load_study(study_name="tune", storage=optuna.storages.RDBStorage(storage_url(out)))
    trials = study.trials
    numbers = [t.number for t in trials]
    assert numbers == list(range(len(trials)))
    finished = [t for t in trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)]
    assert len(finished) == 7  # max_trials: the interrupted trial is not counted, nor counted twice
    # Trials finished before the kill are unchanged.
    for number, old in before.items():
        if old.state.is_finished():
            assert trials[number].state == old.state and trials[number].values == old.values
    # The orphan is marked failed and its rule set re-run exactly once, as a new trial that finished.
    orphan = trials[orphans[0]]
    assert orphan.state == optuna.trial.TrialState.FAIL
    retries = [t for t in trials if t.user_attrs.get("retry_of") == orphan.number]
    if orphan.params:
        assert len(retries) == 1 and retries[0].params == orphan.params and retries[0] in finished
    else:  # killed before it drew its rule set (a loaded machine): it played nothing, so nothing is re-run
        assert retries == []
    # No chunk stored before the kill was played again.
    after = chunks(out)
    assert all(after[p] == mtime for p, mtime in stored_before.items())
    # Games: what is stored, what the study says it spent, and what its trials played add up.
    stored_games = 25 * len(after)
    summary = json.loads((out / "tune.json").read_text())["summary"]
    assert summary["games_spent"] == stored_games
    per_candidate = {}
    for t in finished:
        info = trial_info(t)
        per_candidate[info["candidate"]] = max(per_candidate.get(info["candidate"], 0), info["games"])
    assert sum(per_candidate.values()) == stored_games
