"""The progress line's time left: each variant's games left at its own measured cost (sweep/progress.py WorkLeft)."""

from __future__ import annotations

import dataclasses
import io
import math
import re
import time

import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)

from trustme_analysis.sweep import chunking, runner
from trustme_analysis.sweep.progress import Progress, WorkLeft
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec


def eta_seconds(line: str) -> int:
    """The ETA of a progress line, in seconds."""
    clock = re.search(r"ETA (\d+:)?(\d\d):(\d\d)$", line)
    assert clock, line
    hours = int(clock.group(1)[:-1]) if clock.group(1) else 0
    return 3600 * hours + 60 * int(clock.group(2)) + int(clock.group(3))


def test_a_costly_variant_dominates_the_time_left():
    # As many games left of each, one a hundred times costlier: the cheap one is a rounding error, and the games-left
    # over games-a-second estimate (which sees 2,000 games) would say nothing of it.
    work = WorkLeft({"kernel": 1_000, "search": 1_000}, {"kernel": 0.001, "search": 0.1}, workers=2)
    assert work.seconds() == pytest.approx((1_000 * 0.001 + 1_000 * 0.1) / 2)
    progress = Progress(2_000, stream=io.StringIO(), work=work)
    assert eta_seconds(progress.line()) == 50  # 50.5 s of play on two workers
    # The kernel's games all back: what is left is the search line-up's, the half of the games that is all the time.
    work.chunk_done("kernel", 1_000, 1.0)
    progress.update(1_000)
    assert work.seconds() == pytest.approx(50.0)


def test_a_returned_chunk_corrects_the_cost_and_scales_the_predictions():
    work = WorkLeft({"search2": 100, "search4": 100, "unmeasured": 10}, {"search2": 0.1, "search4": 0.2}, workers=1)
    # Nothing back yet, and a variant without a prediction: no time left can be stated.
    assert math.isnan(work.seconds())
    assert Progress(210, stream=io.StringIO(), work=work).line().endswith("ETA --:--")
    # A chunk back at three times its predicted cost: its own cost from now on, and the others' predictions scaled
    # by the same factor (a busier machine than the one measured); the unpredicted one counts at the returned cost.
    work.chunk_done("search2", 10, 3.0)
    assert work.cost_of("search2") == pytest.approx(0.3)
    assert work.ratio() == pytest.approx(3.0)
    assert work.cost_of("search4") == pytest.approx(0.6)
    assert work.cost_of("unmeasured") == pytest.approx(0.3)
    assert work.seconds() == pytest.approx(90 * 0.3 + 100 * 0.6 + 10 * 0.3)
    # Its own chunks are what counts for a variant once any has come back, whatever the others do.
    work.chunk_done("search4", 50, 5.0)
    assert work.cost_of("search4") == pytest.approx(0.1)
    assert work.seconds() == pytest.approx(90 * 0.3 + 50 * 0.1 + 10 * (8.0 / 60))
    for unit, left in (("search2", 90), ("search4", 50), ("unmeasured", 10)):
        work.chunk_done(unit, left, 1.0)
    assert work.seconds() == 0


def test_a_kernel_chunks_fixed_cost_does_not_scale_the_search_predictions():
    kinds = {"kernel": "kernel", "kernel4": "kernel", "search": "pyspiel", "search4": "pyspiel"}
    work = WorkLeft({"kernel": 20_000, "kernel4": 20_000, "search": 100, "search4": 100},
                    {"kernel": 1e-5, "kernel4": 1e-5, "search": 0.5, "search4": 1.0}, workers=1, kinds=kinds)
    work.chunk_done("kernel", 20_000, 2.0)  # ten times its prediction: the chunk's file and task, not its games
    assert work.cost_of("kernel4") == pytest.approx(1e-4)
    # No search chunk back: the search games take their prediction as it is ...
    assert work.cost_of("search4") == pytest.approx(1.0)
    # ... until one is back: then scaled as their own kind's chunks stray.
    work.chunk_done("search", 4, 2.4)
    assert work.ratio("search4") == pytest.approx(1.2) and work.cost_of("search4") == pytest.approx(1.2)
    assert work.ratio("kernel4") == pytest.approx(10.0)


def test_predicted_costs_come_from_the_measurement_or_the_chosen_chunk_size():
    spec = parse_spec({"game": "trustme_pinocchio", "games": 30, "grid": {"players": [2, 3]},
                       "lineups": {"random": {"seats": ["random"]}}}, name="p")
    v2, v3 = spec.variants
    resumed = dataclasses.replace(spec, chunk_sizes={v2.id: 10, v3.id: 1})
    assert chunking.predicted_costs(resumed, {chunking.cost_key(v2): 0.05}) == {
        v2.id: 0.05,
        # No measurement (a resumed sweep): chunks of 1 game are chosen for games of two core-seconds or more.
        v3.id: chunking.TARGET_CHUNK_SECONDS,
    }
    # A size between two steps stands for a cost between theirs.
    cost = chunking.predicted_costs(resumed, {})[v2.id]
    assert chunking.size_for(cost) == 10
    assert chunking.TARGET_CHUNK_SECONDS / 20 < cost < chunking.TARGET_CHUNK_SECONDS / 10


def test_each_player_count_is_measured_apart():
    spec = parse_spec({"game": "trustme_pinocchio", "games": 30, "grid": {"players": [2, 4]},
                       "lineups": {"random": {"seats": ["random"]}, "heuristic": {"seats": ["heuristic"]}}}, name="p")
    calls = []

    def measure(s, v):
        calls.append((v.lineup.name, v.num_players))
        return 0.3 * v.num_players / 2

    sizes, measured = chunking.choose_chunk_sizes(spec, measure)
    assert sorted(calls) == [("heuristic", 2), ("heuristic", 4), ("random", 2), ("random", 4)]
    assert measured == {"random/kernel/2p": 0.3, "heuristic/kernel/2p": 0.3, "random/kernel/4p": 0.6,
                        "heuristic/kernel/4p": 0.6}
    assert {spec.variants[i].num_players: n for i, n in enumerate(sizes.values())} == {2: 5, 4: 2}


def test_a_small_sweeps_progress_lines_state_the_time_left_from_the_costs(tmp_path, monkeypatch):
    # A cheap line-up and one predicted at a second a game (its real games are far cheaper): the line after the
    # cheap chunk states the costly games' predicted time; the line after the first costly chunk, their real cost.
    predicted = {"cheap": 1e-4, "costly": 1.0}
    monkeypatch.setattr(chunking, "seconds_per_game", lambda s, v: predicted[v.lineup.name])
    real_encoded = runner.encoded_chunk

    def encoded(task):
        time.sleep(0.05 if task.lineup.name == "cheap" else 0.001 * task.num_games)
        return real_encoded(task)

    monkeypatch.setattr(runner, "encoded_chunk", encoded)

    class EveryUpdate(Progress):  # a line per returned chunk (a real one draws every 5 s off a terminal)
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._interval = 0.0

    monkeypatch.setattr(runner, "Progress", EveryUpdate)
    spec = parse_spec({"game": "kuhn_poker", "games": 40, "seed": 1,
                       "lineups": {"cheap": {"seats": ["random"]}, "costly": {"seats": ["random"]}}}, name="eta")
    stream = io.StringIO()
    run_sweep(spec, workers=1, out=tmp_path / "o", report=False, stream=stream)
    lines = [line for line in stream.getvalue().splitlines() if line.startswith("[")]
    run_line = next(line for line in stream.getvalue().splitlines() if line.startswith("sweep "))
    assert "chunks of 2 games (v01); one chunk of all 40 games (v00)" in run_line
    assert len(lines) == 1 + 20  # the cheap chunk, the 20 costly ones (the last is the closing line)
    assert "40/80 games" in lines[0]
    # 40 games predicted at a second each, times the cheap chunk's real over predicted time (well over 1: it slept
    # 0.05 s for a predicted 0.004 s); the rate so far would have said well under a second.
    assert eta_seconds(lines[0]) >= 40
    # One costly chunk back (2 games in a few ms): the 38 left cost what it cost.
    assert "42/80 games" in lines[1] and eta_seconds(lines[1]) <= 2
    assert lines[-1].endswith("ETA 00:00")
