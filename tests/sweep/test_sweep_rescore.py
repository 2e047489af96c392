"""Variants that differ only in scoring-only rules the line-up does not read are the same games scored again: the
sweep records them from one play, and the records equal those of playing each variant itself from the same seed."""

from __future__ import annotations

import pandas as pd
import pytest

from trustme_analysis.outdir import load_records
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep.play import chunk_task, iter_chunk_tasks, run_chunk, run_chunk_all
from trustme_analysis.sweep.rescoring import sources
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

# Flat charts make many ties on points (tie-breaks on Tickets, some by the Coin, a chance outcome of the scoring).
SPEC = {
    "title": "charts scored again",
    "game": "trustme_pinocchio",
    "games": 60,
    "chunk_size": 25,
    "seed": 9,
    "params": {"players": 3, "values": 3, "copies": 4, "stacks": [1, 1, 1], "runouts_to_end": 1},
    "grid": {"chart": [[1, 3, 6], [1, 1, 1], [0, 0, 0], [2, 3, 4]]},
    "lineups": {"random": {"seats": ["random"]}, "heuristic": {"seats": [{"bot": "heuristic"}]}},
}


@pytest.fixture(scope="module")
def spec():
    return parse_spec(SPEC, name="rescore")


def test_only_chart_blind_line_ups_are_scored_again(spec):
    by_label = {v.id: (v.params["chart"], v.lineup.name) for v in spec.variants}
    found = sources(spec)
    # Random players read no rule: every other chart of theirs follows the first; the heuristic reads the chart.
    assert {by_label[k] for k in found} == {(c, "random") for c in ("1/1/1", "0/0/0", "2/3/4")}
    assert {by_label[v] for v in found.values()} == {("1/3/6", "random")}
    records = game_entry("trustme_pinocchio").part("records")
    tasks = list(iter_chunk_tasks(spec, records, rescore=True))
    assert len(tasks) == 3 * (1 + 4)  # 3 chunks: one task for the random line-up's 4 charts, 4 heuristic ones


def test_games_scored_again_equal_the_games_played(spec):
    records = game_entry("trustme_pinocchio").part("records")
    grouped = [t for t in iter_chunk_tasks(spec, records, rescore=True) if t.followers]
    ties = 0
    by_id = {v.id: v for v in spec.variants}
    for task in grouped:
        frames = run_chunk_all(task)
        for f in task.followers:
            played = run_chunk(chunk_task(spec, by_id[f.variant_id], task.chunk_index, records))
            pd.testing.assert_frame_equal(frames[f.variant_id], played)
            ties += int((played["tie_break"] == "coin").sum())
    # Some scoring drew the tie-break Coin: its chance outcome came from the stream as playing the variant draws it.
    assert ties > 0


def test_a_sweep_records_every_variant_once(spec, tmp_path):
    result = run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    assert result.chunks_run == 8 * 3
    frame = load_records(tmp_path)
    assert frame.groupby("variant")["game_index"].nunique().tolist() == [60] * 8
    seat0 = frame[frame["seat"] == 0].pivot(index="game_index", columns="variant", values="turns")
    random_ids = [v.id for v in spec.variants if v.lineup.name == "random"]
    assert (seat0[random_ids].nunique(axis=1) == 1).all()


def test_liar_points_scored_again_equal_the_games_played():
    spec = parse_spec({"game": "trustme_liar", "games": 30, "chunk_size": 30, "seed": 2,
                       "params": {"players": 3, "values": 6, "mode": "trustme"},
                       "grid": {"points_false_card": [1, 3]}, "lineups": {"random": {"seats": ["random"]}}},
                      name="liar")
    assert sources(spec) == {"v01": "v00"}
    records = game_entry("trustme_liar").part("records")
    (task,) = iter_chunk_tasks(spec, records, rescore=True)
    frames = run_chunk_all(task)
    played = run_chunk(chunk_task(spec, spec.variants[1], 0, records))
    pd.testing.assert_frame_equal(frames["v01"], played)
    # The points changed the scores of some game (the test is not comparing two copies of one scoring).
    assert not frames["v00"]["points"].equals(played["points"])
