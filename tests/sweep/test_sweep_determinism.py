"""The same spec gives identical records in-process, on a process pool and on Dask; each game replays from its seed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry and the "edge" bot)

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.sweep.play import COMMON_COLUMNS, replay_game
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.seeding import game_generators, game_seeds
from trustme_analysis.sweep.spec import parse_spec

SPEC = {
    "title": "toy determinism",
    "question": "Is the sweep deterministic?",
    "game": "kuhn_poker",
    "games": 24,
    "chunk_size": 7,
    "seed": 11,
    "grid": {"players": [2, 3]},
    "lineups": {
        "random": {"seats": ["random"]},
        "mixed": {"pool": [{"bot": "random", "weight": 1}, {"bot": "edge", "knobs": {"end": "last"}}]},
    },
}


def chunk_bytes(outdir):
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted((outdir / RECORDS).rglob("*.parquet"))}


@pytest.fixture(scope="module")
def in_process(tmp_path_factory):
    out = tmp_path_factory.mktemp("one")
    run_sweep(parse_spec(SPEC, name="det"), workers=1, out=out, report=False, quiet=True)
    return out


def test_records_have_the_common_columns_then_the_game_columns(in_process):
    frame = load_records(in_process)
    params = ["param_players"]
    expected = ["variant", "game_string", *params, *COMMON_COLUMNS[2:], "return", "score", "win", "moves", "cards"]
    assert list(frame.columns) == expected
    # 4 variants x 24 games, one row per seat: 2 seats for the first two variants, 3 for the others.
    assert len(frame) == 24 * (2 + 2 + 3 + 3)
    assert frame.groupby("variant")["game_index"].nunique().tolist() == [24] * 4
    assert sorted(frame["chunk"].unique().tolist()) == [0, 1, 2, 3]  # 7 + 7 + 7 + 3 games
    # Seats of a game share its seed; seeds differ between the games of a variant.
    per_game = frame.groupby(["variant", "game_index"])["game_seed"].nunique()
    assert (per_game == 1).all()
    assert frame.drop_duplicates(["variant", "game_index"]).groupby("variant")["game_seed"].nunique().eq(24).all()
    knobs = set(frame.loc[frame["bot"] == "edge", "bot_knobs"])
    assert knobs == {json.dumps({"end": "last"})}
    assert set(frame["bot"]) == {"random", "edge"}


def test_game_seeds_follow_the_documented_derivation(in_process):
    frame = load_records(in_process)
    v02 = frame[(frame["variant"] == "v02") & (frame["seat"] == 0)].sort_values("game_index")
    assert v02["game_seed"].tolist() == game_seeds(11, 0, 24)
    words = np.random.PCG64(np.random.SeedSequence(11, spawn_key=(0,))).random_raw(24)
    assert v02["game_seed"].tolist() == [int(w) & ((1 << 63) - 1) for w in words]
    # Common random numbers: game i of every variant has the same seed.
    seeds = frame[frame["seat"] == 0].pivot(index="game_index", columns="variant", values="game_seed")
    assert (seeds.nunique(axis=1) == 1).all()


def test_every_game_replays_from_its_stored_seed(in_process):
    spec = parse_spec(SPEC)
    frame = load_records(in_process)
    for variant in spec.variants:
        rows = frame[frame["variant"] == variant.id]
        for index in (0, 13, 23):
            game_rows = rows[rows["game_index"] == index].sort_values("seat")
            state = replay_game(variant.game_string, variant.lineup, int(game_rows["game_seed"].iloc[0]))
            assert state.returns() == game_rows["return"].tolist()
            assert len(state.history()) == game_rows["moves"].iloc[0]


def test_pool_seats_are_drawn_per_game_with_the_game_generator(in_process):
    spec = parse_spec(SPEC)
    frame = load_records(in_process)
    mixed = spec.variants[3]
    rows = frame[frame["variant"] == mixed.id]
    for index in range(24):
        game_rows = rows[rows["game_index"] == index].sort_values("seat")
        rng, _ = game_generators(int(game_rows["game_seed"].iloc[0]), 3)
        picks = rng.choice(2, size=3, p=[0.5, 0.5])
        assert game_rows["bot"].tolist() == [["random", "edge"][i] for i in picks]
    # Over 24 games x 3 seats both kinds were drawn (each seat independently).
    assert rows["bot"].value_counts().to_dict().keys() == {"random", "edge"}


def test_two_worker_pool_writes_byte_identical_chunks(in_process, tmp_path):
    result = run_sweep(parse_spec(SPEC, name="det"), workers=2, out=tmp_path, report=False, quiet=True)
    assert result.chunks_run == 16
    assert chunk_bytes(tmp_path) == chunk_bytes(in_process)
    pd.testing.assert_frame_equal(load_records(tmp_path), load_records(in_process))
    assert load_manifest(tmp_path)["timing"]["backend"] == "local"


def test_dask_local_cluster_writes_identical_records(in_process, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    # One in-process worker with one thread: a LocalCluster of processes takes seconds to start.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            run_sweep(parse_spec(SPEC, name="det"), dask=client, out=tmp_path, report=False, quiet=True)
    assert chunk_bytes(tmp_path) == chunk_bytes(in_process)
    pd.testing.assert_frame_equal(load_records(tmp_path), load_records(in_process))
    manifest = load_manifest(tmp_path)
    assert manifest["timing"]["backend"] == "dask" and manifest["complete"] is True
    assert manifest["timing"]["workers"] == 1  # the cluster's one thread, not this machine's cores


def test_another_master_seed_changes_the_games(in_process, tmp_path):
    run_sweep(parse_spec({**SPEC, "seed": 12}), workers=1, out=tmp_path, report=False, quiet=True)
    a, b = load_records(in_process), load_records(tmp_path)
    assert not set(a["game_seed"]) & set(b["game_seed"])


def test_simultaneous_move_games_sweep_and_replay(tmp_path):
    """Goofspiel's bids are simultaneous: every seat's bot acts at once; string grid values become columns."""
    spec = parse_spec(
        {
            "game": "goofspiel",
            "games": 6,
            "chunk_size": 4,
            "params": {"num_cards": 4},
            "grid": {"players": [2, 3], "points_order": ["random", "descending"]},
        }
    )
    run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    frame = load_records(tmp_path)
    assert sorted(set(frame["param_points_order"])) == ["descending", "random"]
    assert len(frame) == 6 * (2 + 2 + 3 + 3)
    for variant in spec.variants:
        rows = frame[(frame["variant"] == variant.id) & (frame["game_index"] == 5)].sort_values("seat")
        state = replay_game(variant.game_string, variant.lineup, int(rows["game_seed"].iloc[0]))
        assert state.returns() == rows["score"].tolist()
        assert len(state.history()) >= 4  # four rounds of bids were played


def test_a_string_parameter_the_engine_rejects_names_its_grid_key():
    from trustme_analysis.sweep.spec import SpecError

    with pytest.raises(SpecError, match=r"^grid\.points_order: goofspiel rejects these parameters: .*sideways"):
        parse_spec({"game": "goofspiel", "grid": {"points_order": ["random", "sideways"]}})


def test_a_list_column_reads_back_alike_however_the_games_were_chunked():
    # A chunk whose games all miss every value of a list column (Pinocchio's stack_empty_turn when no Ticket stack
    # ran out) read back as None where other chunks give NaN: the records then depended on the chunk size.
    import io

    from trustme_analysis.sweep.storage import encode_chunk

    nan = float("nan")
    alone = pd.DataFrame({"game_index": [0], "stack_empty_turn": [[nan, nan, nan]]})
    beside = pd.DataFrame({"game_index": [0, 1], "stack_empty_turn": [[nan, nan, nan], [nan, 12.0, nan]]})
    a = pd.read_parquet(io.BytesIO(encode_chunk(alone)))["stack_empty_turn"][0]
    b = pd.read_parquet(io.BytesIO(encode_chunk(beside)))["stack_empty_turn"][0]
    assert a.dtype == b.dtype == np.float64
    np.testing.assert_array_equal(a, b)  # (NaN equals NaN here)
