"""A tuning whose line-up plays trained policies: the rulebook's base policy trained once, every candidate's policy
warm-started from it (and reused when its rule set comes again), the confirmation playing the race's policies, the
cost in the tables, bad ``candidate_iterations`` refused, and the same results on one and two workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustme_analysis.outdir import load_manifest
from trustme_analysis.tune import tables
from trustme_analysis.tune.__main__ import main
from trustme_analysis.tune.evaluate import GameEvaluator
from trustme_analysis.tune.spec import load_tune_spec

# Liar for 2 players with a small deck: a policy trains in a fraction of a second. The rulebook (13 values) is in the
# space and raced first; 3 trials over 2 rule sets propose one of them twice.
SPEC = """
title = "tiny trained Liar"
game = "trustme_liar"
seed = 3
[params]
players = 2
mode = "trustme"
copies = 2
[lineups.trained]
seats = [{ bot = "trained" }]
[train]
iterations = 4000
seed = 0
{candidate}
[search]
values = { choices = [4, 13] }
[[objective]]
name = "starter's share of wins"
table = "ranks_points"
where = { seat = 0 }
column = "points_win"
target = 0.5
[budget]
games = 60
games_per_candidate = 20
chunk_size = 10
racing = "off"
max_trials = 3
[sampler]
kind = "random"
[confirm]
best = 1
games = 10
reports = false
"""


def write_spec(folder: Path, candidate: str = "candidate_iterations = 1000") -> Path:
    path = folder / "liar.toml"
    path.write_text(SPEC.replace("{candidate}", candidate), encoding="utf-8")
    return path


def summaries(folder: Path) -> dict[str, dict]:
    """Every stored policy's summary under ``folder/train/``, by fingerprint."""
    return {p.parent.name: json.loads(p.read_text()) for p in folder.glob("train/*/summary.json")}


def run(spec: Path, out: Path, workers: int) -> None:
    assert main([str(spec), "--out", str(out), "--workers", str(workers), "--quiet", "--no-report"]) == 0


@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("trained")
    spec = write_spec(folder)
    run(spec, folder / "one", 1)
    return spec, folder / "one"


def test_the_base_policy_is_trained_once_and_every_candidate_starts_from_it(tuned):
    _, out = tuned
    base = summaries(out)
    assert len(base) == 1  # OUT/train holds the rulebook's base policy alone
    (fp, summary), = base.items()
    assert summary["iterations"] == 4000 and summary["warm_start_from"] is None
    assert "values=13" in summary["game"]
    candidates = [s for folder in (out / "candidates").iterdir() for s in summaries(folder).values()]
    assert len(candidates) == 2
    for s in candidates:
        assert s["iterations"] == 1000 and s["settings"]["warm_start"]
        assert s["warm_start_from"]["fingerprint"] == fp
        assert s["warm_start_from"]["policy_digest"] == summary["policy_digest"]
    state = json.loads((out / "tune.json").read_text())["summary"]["training"]
    assert state["base_fingerprint"] == fp and state["candidate_policies"] == 2
    assert state["candidate_cpu_seconds"] == pytest.approx(sum(s["cpu_seconds"] for s in candidates), abs=0.2)


def test_a_rule_set_proposed_again_reuses_its_policy(tuned):
    spec_path, out = tuned
    trials = tables.load(out)["tune_trials"]
    assert len(trials) == 3 and trials["candidate"].nunique() == 2
    assert trials["trained_now"].sum() == 2  # one training per rule set, the repeat found it stored
    assert (trials["training_cpu_s"] >= 0).all()
    # Asked again directly: the stored policy is found, nothing is trained.
    spec = load_tune_spec(spec_path)
    folder = next((out / "candidates").iterdir())
    stamp = {p: p.stat().st_mtime_ns for p in folder.glob("train/*/*")}
    evaluator = GameEvaluator(spec, out)
    cand = evaluator.prepare({"values": 4})
    evaluator.play_to(cand, 10)
    assert cand.training is not None and not cand.training["trained_now"]
    assert {p: p.stat().st_mtime_ns for p in folder.glob("train/*/*")} == stamp


def test_the_confirmation_plays_the_race_policies(tuned):
    _, out = tuned
    confirmed = list((out / "confirm").iterdir())
    assert confirmed
    for folder in confirmed:
        assert not (folder / "train").exists()  # nothing trained anew
        race = load_manifest(out / "candidates" / folder.name)["fingerprint"]["policies"]
        assert load_manifest(folder)["fingerprint"]["policies"] == race
        assert list(race) == [f"trained:{fp}" for fp in summaries(out / "candidates" / folder.name)]


def test_two_workers_give_the_same_results(tuned, tmp_path):
    spec, out = tuned
    run(spec, tmp_path / "two", 2)
    cols = ["trial", "candidate", "rules", "games", "obj0", "obj0_loss"]
    one, two = tables.load(out)["tune_trials"][cols], tables.load(tmp_path / "two")["tune_trials"][cols]
    assert one.equals(two)
    for folder in (out / "candidates").iterdir():
        mine = {fp: s["policy_digest"] for fp, s in summaries(folder).items()}
        assert mine == {fp: s["policy_digest"] for fp, s in summaries(tmp_path / "two" / "candidates" /
                                                                      folder.name).items()}
    conf = ["name", "key", "value", "loss"]
    assert tables.load(out)["tune_confirmation"][conf].equals(tables.load(tmp_path / "two")["tune_confirmation"][conf])


def test_check_says_what_is_trained(tuned, capsys, tmp_path):
    spec, _ = tuned
    assert main([str(spec), "--out", str(tmp_path / "new"), "--check"]) == 0
    out = capsys.readouterr().out
    assert "base policy" in out and "4,000 iterations" in out and "1,000 iterations warm-started" in out
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("line, shown", [
    ("candidate_iterations = 0", "candidate_iterations=0"),
    ("candidate_iterations = -3", "candidate_iterations=-3"),
    ('candidate_iterations = "many"', "candidate_iterations='many'"),
    ("candidate_iterations = 1.5", "candidate_iterations=1.5"),
    ("", "missing"),
])
def test_a_bad_candidate_iterations_is_one_line_and_exit_2(tmp_path, capsys, line, shown):
    spec = write_spec(tmp_path, line)
    assert main([str(spec), "--out", str(tmp_path / "out"), "--check"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: train.candidate_iterations: ")
    assert shown in err and (">= 1" in err)
    assert not (tmp_path / "out").exists()


def test_train_needs_a_trained_lineup_and_a_trained_lineup_needs_train(tmp_path, capsys):
    text = SPEC.replace("{candidate}", "candidate_iterations = 10")
    (tmp_path / "a.toml").write_text(text.replace('bot = "trained"', 'bot = "heuristic"'), encoding="utf-8")
    assert main([str(tmp_path / "a.toml"), "--check"]) == 2
    assert capsys.readouterr().err.startswith("error: train: the line-up 'trained' plays no trained policy")
    no_train = text.replace("[train]\niterations = 4000\nseed = 0\ncandidate_iterations = 10\n", "")
    (tmp_path / "b.toml").write_text(no_train, encoding="utf-8")
    assert main([str(tmp_path / "b.toml"), "--check"]) == 2
    assert capsys.readouterr().err.startswith("error: lineups.trained: plays trained policies")
    (tmp_path / "c.toml").write_text(text.replace('bot = "trained" }', 'bot = "trained", knobs = { iterations = 9 } }'),
                                     encoding="utf-8")
    assert main([str(tmp_path / "c.toml"), "--check"]) == 2
    assert "sets its own budget" in capsys.readouterr().err


def test_a_stop_interrupts_a_candidate_training_in_a_trial_thread(tuned, tmp_path):
    # Ctrl-C reaches the main thread only: the search sets the evaluator's stop event, which must end a candidate's
    # training in a trial's thread at once (not after it) and end the trial as interrupted; the next run trains it.
    import threading

    from trustme_analysis.tune.evaluate import Interrupted

    spec_path, _ = tuned
    evaluator = GameEvaluator(load_tune_spec(spec_path), tmp_path / "out")
    evaluator.base_policy()
    cand = evaluator.prepare({"values": 4})
    evaluator.stop_event.set()
    raised: list[BaseException] = []

    def trial():
        try:
            evaluator.play_to(cand, 10)
        except BaseException as exc:  # noqa: BLE001 (the test reads what was raised)
            raised.append(exc)

    thread = threading.Thread(target=trial)
    thread.start()
    thread.join(60)
    assert not thread.is_alive() and len(raised) == 1 and isinstance(raised[0], Interrupted)
    assert cand.training is None and not list(cand.folder.glob("train/*/policy.npz"))
    evaluator.stop_event.clear()
    assert evaluator.play_to(cand, 10) == 10 and cand.training["trained_now"]
