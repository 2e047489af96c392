"""The training driver: deterministic from the seed, resumable, stored under a fingerprint, reused, stale."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyspiel
import pytest

from trustme_analysis.train import StalePolicyError, TrainSettings, train
from trustme_analysis.train.driver import CHECKPOINT, POLICY_FILE, SUMMARY, fingerprint

SMALL = ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,"
         "runouts_to_end=1)")
SETTINGS = TrainSettings(iterations=30_000, seed=5, epoch=5_000)


def test_same_seed_same_policy_other_seed_other(tmp_path):
    a = train(SMALL, SETTINGS, tmp_path / "a")
    b = train(SMALL, SETTINGS, tmp_path / "b")
    c = train(SMALL, TrainSettings(iterations=30_000, seed=6, epoch=5_000), tmp_path / "a")
    assert a.summary["policy_digest"] == b.summary["policy_digest"]
    assert c.summary["policy_digest"] != a.summary["policy_digest"]
    assert a.folder.name == fingerprint(str(pyspiel.load_game(SMALL)), SETTINGS, a.summary["version"])
    assert c.folder != a.folder and a.summary["iterations"] == 30_000 and not a.reused


def test_interrupted_training_resumes_to_the_same_policy(tmp_path):
    whole = train(SMALL, SETTINGS, tmp_path / "whole")
    lines = []
    with pytest.raises(KeyboardInterrupt):
        train(SMALL, SETTINGS, tmp_path / "cut", lines.append, stop_after=12_345)
    folder = tmp_path / "cut" / "train" / whole.folder.name
    assert (folder / CHECKPOINT).is_file() and not (folder / POLICY_FILE).exists()
    resumed = train(SMALL, SETTINGS, tmp_path / "cut", lines.append)
    assert any("resuming at iteration 12,345" in line for line in lines)
    assert resumed.summary["policy_digest"] == whole.summary["policy_digest"]
    assert not (folder / CHECKPOINT).exists()


def test_kill_9_then_resume_gives_the_same_policy(tmp_path):
    # A million iterations: some 2.5 CPU s of this variant (about 400,000 it/s), seven times the 0.35 s the child
    # runs past its first checkpoint before the kill, so it is killed mid-training; the resumed and the whole
    # training each run the budget again in this process, so a bigger one only costs time.
    settings = TrainSettings(iterations=1_000_000, seed=5, epoch=5_000)
    code = (f"from trustme_analysis.train import TrainSettings, train\n"
            f"train({SMALL!r}, TrainSettings(iterations=1_000_000, seed=5, epoch=5_000), {str(tmp_path / 'k')!r}, "
            f"checkpoint_seconds=0.0)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).parents[2],
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    folder = tmp_path / "k" / "train"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not list(folder.glob(f"*/{CHECKPOINT}")):
            assert proc.poll() is None, "the training ended before a checkpoint was seen"
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    (ckpt,) = folder.glob(f"*/{CHECKPOINT}")
    resumed = train(SMALL, settings, tmp_path / "k")
    whole = train(SMALL, settings, tmp_path / "whole")
    assert resumed.summary["policy_digest"] == whole.summary["policy_digest"]


def test_reused_then_stale(tmp_path):
    first = train(SMALL, SETTINGS, tmp_path)
    again = train(SMALL, SETTINGS, tmp_path)
    assert again.reused and again.folder == first.folder
    summary = json.loads((first.folder / SUMMARY).read_text())
    summary["code"] = "other"
    (first.folder / SUMMARY).write_text(json.dumps(summary))
    with pytest.raises(StalePolicyError):
        train(SMALL, SETTINGS, tmp_path, retrain_stale=False)
    lines = []
    fresh = train(SMALL, SETTINGS, tmp_path, lines.append)
    assert not fresh.reused and any("stale" in line for line in lines)
    assert fresh.summary["policy_digest"] == first.summary["policy_digest"]


def test_progress_and_evaluator(tmp_path):
    values = []
    result = train(SMALL, TrainSettings(iterations=20_000, seed=1), tmp_path,
                   evaluate=lambda table: values.append(len(table[0])) or 0.5, eval_every=5_000)
    assert [t for t, _ in result.summary["curve"]] == [5_000, 10_000, 15_000, 20_000] and len(values) == 4


@pytest.mark.parametrize("bad", [dict(iterations=None), dict(iterations=10, seconds=1.0), dict(iterations=0),
                                 dict(epsilon=0.0), dict(averaging="odd"), dict(epoch=-1),
                                 dict(shaping=-1.0)])
def test_settings_refuse_nonsense(bad):
    with pytest.raises(ValueError):
        TrainSettings(**bad)


def test_a_game_without_training_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no trained player"):
        train("kuhn_poker", TrainSettings(iterations=10), tmp_path)  # every Trust Me game has one now


OTHER = SMALL.replace("park_size=2", "park_size=1")


def test_warm_start_from_the_nearest_stored_variant(tmp_path):
    warm = TrainSettings(iterations=20_000, seed=5, epoch=5_000, warm_start=True)
    alone = train(SMALL, warm, tmp_path / "empty")  # nothing else stored: starts empty, says so
    assert alone.summary["warm_start_from"] is None
    cold = train(SMALL, TrainSettings(iterations=20_000, seed=5, epoch=5_000), tmp_path)
    other = train(OTHER, SETTINGS, tmp_path)
    lines = []
    started = train(SMALL, warm, tmp_path, lines.append)
    source = started.summary["warm_start_from"]
    # Two policies stored: the same variant under other settings (no parameter differs) is nearer than the variant
    # with another park_size, so it is the source.
    assert source["fingerprint"] == cold.fingerprint and source["game"] == cold.summary["game"]
    assert any("warm start from" in line for line in lines)
    assert started.fingerprint == alone.fingerprint  # the same settings: the folder name does not name the source
    assert started.summary["policy_digest"] not in (cold.summary["policy_digest"], alone.summary["policy_digest"])
    # Only the other variant stored: it is the source.
    only_other = tmp_path / "other"
    other2 = train(OTHER, SETTINGS, only_other)
    assert train(SMALL, warm, only_other).summary["warm_start_from"]["fingerprint"] == other2.fingerprint
    assert other.fingerprint == other2.fingerprint


def test_warm_started_training_resumes_to_the_same_policy(tmp_path):
    warm = TrainSettings(iterations=20_000, seed=5, epoch=5_000, warm_start=True)
    for folder in (tmp_path / "a", tmp_path / "b"):
        train(OTHER, SETTINGS, folder)
    whole = train(SMALL, warm, tmp_path / "a")
    with pytest.raises(KeyboardInterrupt):
        train(SMALL, warm, tmp_path / "b", stop_after=7_000)
    resumed = train(SMALL, warm, tmp_path / "b")
    assert resumed.summary["policy_digest"] == whole.summary["policy_digest"]
    assert resumed.summary["warm_start_from"] == whole.summary["warm_start_from"]


def test_a_warm_start_continues_its_source(tmp_path):
    """A short warm-started training stays close to its source: the source's mass is seeded as it is and the DCFR
    clock resumes at the source's iterations (before, the mass was rescaled to 1 a slot and the first epochs'
    discounting wiped it out)."""
    import numpy as np

    from trustme_analysis.train.driver import TrainedPolicy

    source = train(SMALL, TrainSettings(iterations=40_000, seed=5, epoch=5_000), tmp_path / "source")
    short = TrainSettings(iterations=5_000, seed=5, epoch=1_000, warm_start=True)
    warm = train(SMALL, short, tmp_path / "warm", warm_from=TrainedPolicy(source.folder, source.summary))
    cold = train(SMALL, TrainSettings(iterations=5_000, seed=5, epoch=1_000), tmp_path / "cold")
    assert warm.summary["warm_start_from"]["clock"] == 40_000
    assert warm.summary["iterations"] == 5_000
    assert warm.fingerprint != cold.fingerprint  # the warm scheme is part of a warm-started policy's fingerprint

    def arrays(policy):
        with np.load(policy.folder / POLICY_FILE) as data:
            return {int(k): float(v) for k, v in zip(data["keys"], data["avg"])}

    src, w, c = arrays(source), arrays(warm), arrays(cold)
    # The source's mass is still there (its last epochs' discount since, plus the new iterations' mass), where the
    # earlier scheme left about one visit a slot; a cold start of the same length has a fraction of it.
    total = sum(src.values())
    kept = sum(w.get(k, 0.0) for k in src) / total
    assert kept > 0.5 and sum(c.values()) / total < 0.5 * kept, (kept, sum(c.values()) / total)
    # And its strategy is the source's, row by row, far closer than the cold start's.
    keys = sorted(src)
    ref = np.array([src[k] for k in keys])
    near = np.corrcoef(ref, [w.get(k, 0.0) for k in keys])[0, 1]
    far = np.corrcoef(ref, [c.get(k, 0.0) for k in keys])[0, 1]
    assert near > 0.99 and near > far, (near, far)


def test_baseline_shaping_prior_and_opponents_change_the_policy(tmp_path):
    kw = {"iterations": 30_000, "seed": 5, "epoch": 5_000}
    runs = [train(SMALL, TrainSettings(**kw, **extra), tmp_path)
            for extra in ({}, {"baseline": True}, {"shaping": 1.0}, {"prior": 20.0}, {"opponents": "average"},
                          {"population": 0.3})]
    assert len({r.summary["policy_digest"] for r in runs}) == len(runs)


def test_game_defaults_and_settings_a_trainer_does_not_play(tmp_path):
    from trustme_analysis.train import game_settings, trainer_for
    from trustme_analysis.train.driver import refuse_unplayed

    pin = game_settings("trustme_pinocchio(players=2)", iterations=10)
    assert (pin.prior, pin.opponents, pin.beta, pin.baseline) == (20.0, "average", 1.5, True)
    assert game_settings("trustme_pinocchio(players=2)", prior=0.0).prior == 0.0  # given wins
    liar = game_settings("trustme_liar(players=2)")
    assert (liar.prior, liar.opponents, liar.beta, liar.baseline) == (200000.0, "average", 1.5, False)
    # a small deck (the solve presets' reduced variants) trains as plain MCCFR; given fields still win
    tiny = "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6)"
    assert (game_settings(tiny).prior, game_settings(tiny).opponents, game_settings(tiny).beta) == (0.0, "current", 0.0)
    assert game_settings(tiny, prior=7.0).prior == 7.0
    # Liar's traversal plays the prior and the average opponents (each changes the policy), and refuses the rest
    small = "trustme_liar(players=2,values=6,copies=3)"
    runs = [train(small, TrainSettings(iterations=300, seed=1, **extra), tmp_path)
            for extra in ({}, {"prior": 50.0}, {"opponents": "average"})]
    assert len({r.summary["policy_digest"] for r in runs}) == len(runs)
    for extra in ({"baseline": True}, {"shaping": 1.0}, {"population": 0.2}):
        name = next(iter(extra))
        with pytest.raises(ValueError, match=f"^{name}=.* is not allowed for this game's trainer"):
            train("trustme_liar(players=2)", TrainSettings(iterations=10, **extra), "/nonexistent")
    # 1981's traversal plays the same two (each changes the policy) with the same defaults, and refuses the rest
    board = game_settings("trustme_1981(players=2)")
    assert (board.prior, board.opponents, board.beta, board.baseline) == (200000.0, "average", 1.5, False)
    # the investing round alone (the solve presets' reduced variants) trains as plain MCCFR
    round_alone = game_settings("trustme_1981_investment(players=2,lots=1/5)")
    assert (round_alone.prior, round_alone.opponents, round_alone.beta) == (0.0, "current", 0.0)
    short = "trustme_1981(players=2,max_turns=20)"
    runs = [train(short, TrainSettings(iterations=200, seed=1, **extra), tmp_path)
            for extra in ({}, {"prior": 50.0}, {"opponents": "average"})]
    assert len({r.summary["policy_digest"] for r in runs}) == len(runs)
    for extra in ({"baseline": True}, {"shaping": 1.0}, {"population": 0.2}):
        name = next(iter(extra))
        with pytest.raises(ValueError, match=f"^{name}="):
            refuse_unplayed(trainer_for(pyspiel.load_game("trustme_1981")), TrainSettings(iterations=10, **extra))
    with pytest.raises(ValueError, match="opponents='best' is not allowed; allowed: current, average"):
        TrainSettings(opponents="best")
    with pytest.raises(ValueError, match="population=1.0 is not allowed"):
        TrainSettings(population=1.0)


def test_game_defaults_by_abstraction_level():
    """A trainer's ``detail_defaults`` apply at their level only, over its ``defaults``; given fields still win."""
    from trustme_analysis.train import game_settings

    two = "trustme_pinocchio(players=2)"
    assert game_settings(two).opponents == "average"
    fine = game_settings(two, detail=1)
    assert (fine.opponents, fine.prior, fine.beta) == ("current", 20.0, 1.5)
    assert game_settings(two, detail=1, opponents="average").opponents == "average"


def test_a_stop_event_interrupts_a_training_in_another_thread_and_it_resumes_to_the_same_policy(tmp_path):
    # A training outside the main thread never sees Ctrl-C; its stop event stops it between batches (a tuning sets
    # it on Ctrl-C for its candidates' trainings), with a checkpoint that resumes to the uninterrupted policy. The
    # event is set by the first evaluation (at iteration 12,000), so the stop lands at the same iteration every run.
    stop = threading.Event()
    lines: list[str] = []
    raised: list[BaseException] = []

    def first_evaluation_stops(_table) -> float:
        stop.set()
        return 0.0

    def run():
        try:
            train(SMALL, SETTINGS, tmp_path / "cut", lines.append, stop=stop, evaluate=first_evaluation_stops,
                  eval_every=12_000)
        except BaseException as exc:  # noqa: BLE001 (the test reads what was raised)
            raised.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    assert not worker.is_alive() and len(raised) == 1 and isinstance(raised[0], KeyboardInterrupt)
    (folder,) = (tmp_path / "cut" / "train").iterdir()
    assert (folder / CHECKPOINT).is_file() and not (folder / POLICY_FILE).exists()
    assert any("interrupted at iteration 12,000" in line for line in lines)
    resumed = train(SMALL, SETTINGS, tmp_path / "cut", lines.append)
    assert any("resuming at iteration 12,000" in line for line in lines)
    assert resumed.summary["policy_digest"] == train(SMALL, SETTINGS, tmp_path / "whole").summary["policy_digest"]


def test_a_training_stopped_before_its_first_iteration_leaves_no_checkpoint(tmp_path):
    # (A checkpoint of iteration 0 would hold a warm start's tables, which the resumed run would seed again.)
    stop = threading.Event()
    stop.set()
    with pytest.raises(KeyboardInterrupt):
        train(SMALL, SETTINGS, tmp_path / "a", stop=stop)
    (folder,) = (tmp_path / "a" / "train").iterdir()
    assert not (folder / CHECKPOINT).exists() and not (folder / POLICY_FILE).exists()
    assert train(SMALL, SETTINGS, tmp_path / "a").summary["policy_digest"] == \
        train(SMALL, SETTINGS, tmp_path / "b").summary["policy_digest"]
