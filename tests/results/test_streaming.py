"""The results set computed in passes over the chunks: partial aggregates merge exactly, a table kept in pieces is
stored as the whole frame would be, and large stored tables are read only when asked for."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.results import store
from trustme_analysis.results.table import LazyTable, ResultSet, Table, common_dtypes
from trustme_analysis.stats.intervals import mean_t, mean_t_sums
from trustme_analysis.stats.traces import trace_bands, trace_part, trace_rows


def _traces(rng: np.random.Generator, seats: int, variant: str = "v00") -> pd.DataFrame:
    rows = []
    for game in range(seats // 2):
        length = int(rng.integers(1, 12))
        winner = int(rng.integers(0, 2))
        for seat in range(2):
            rows.append({"variant": variant, "game_index": game, "seat": seat, "win": seat == winner,
                         "score_trace": np.cumsum(rng.integers(0, 4, size=length))})
    return pd.DataFrame(rows)


def test_mean_t_sums_has_the_mean_of_mean_t_and_its_ends_to_the_last_bits():
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 17, 1000):
        x = rng.integers(-50, 200, size=n)
        exact = mean_t_sums(n, int(x.sum()), int((x * x).sum()))
        ref = mean_t(x.astype(float))
        assert exact.estimate == ref.estimate
        if n < 2:
            assert math.isnan(exact.low) and math.isnan(ref.low)
        else:
            assert exact.low == pytest.approx(ref.low, rel=1e-13)
            assert exact.high == pytest.approx(ref.high, rel=1e-13)
    assert mean_t_sums(4, 8, 16) == (2.0, 2.0, 2.0)  # no spread: the interval is the point
    assert all(math.isnan(v) for v in mean_t_sums(0, 0, 0))


def test_trace_bands_from_chunk_parts_match_those_from_all_records():
    rng = np.random.default_rng(11)
    records = _traces(rng, 400)
    whole = trace_bands(records, ["v00"])
    # Parts of uneven chunks of whole games, merged: the same rows as one part of all records.
    cuts = [0, 18, 19, 100, 125, 200]  # games
    games = records["game_index"].to_numpy()
    parts = [trace_part(records[(games >= a) & (games < b)]) for a, b in zip(cuts, cuts[1:])]
    merged = trace_rows("v00", parts)
    single = trace_rows("v00", [trace_part(records)])
    pd.testing.assert_frame_equal(merged, single, check_exact=True)
    assert list(merged.columns) == list(whole.columns)
    pd.testing.assert_frame_equal(merged[["variant", "group", "turn", "seats"]],
                                  whole[["variant", "group", "turn", "seats"]])
    np.testing.assert_array_equal(merged["mean"].to_numpy(), whole["mean"].to_numpy())
    np.testing.assert_allclose(merged[["low", "high"]].to_numpy(), whole[["low", "high"]].to_numpy(),
                               rtol=1e-13, equal_nan=True)


def test_a_table_stored_in_pieces_is_the_table_stored_whole(tmp_path):
    pieces = [
        pd.DataFrame({"variant": ["v00"] * 3, "game_index": [0, 1, 2], "winner": [0, 1, 0], "x": [0.5, 1.0, 2.5],
                      "trigger": ["deck", "stacks", "deck"]}),
        # A later piece with a missing winner: the column becomes float, as pandas.concat makes it.
        pd.DataFrame({"variant": ["v01"] * 2, "game_index": [0, 1], "winner": [np.nan, 1.0], "x": [1e-17, 3.0],
                      "trigger": ["deck", "deck"]}),
        pd.DataFrame({"variant": ["v01"], "game_index": [2], "winner": [1], "x": [float("nan")],
                      "trigger": ["stacks"]}),
    ]
    whole = pd.concat(pieces, ignore_index=True)
    lazy = LazyTable("per_game", lambda: iter(pieces), "t", "d", rows=len(whole), columns=list(whole.columns),
                     dtypes=common_dtypes(dict(p.dtypes) for p in pieces))
    a, b = ResultSet(manifest={}), ResultSet(manifest={})
    a.add(lazy)
    b.add(Table("per_game", whole, "t", "d"))
    store.save(a, tmp_path / "a", {"k": 1})
    store.save(b, tmp_path / "b", {"k": 1})
    for ext in ("csv",):
        assert (tmp_path / "a" / "stats" / f"per_game.{ext}").read_bytes() == \
            (tmp_path / "b" / "stats" / f"per_game.{ext}").read_bytes()
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / "stats" / "per_game.parquet"),
                                  pd.read_parquet(tmp_path / "b" / "stats" / "per_game.parquet"))
    assert lazy.describe()["rows"] == 6
    pd.testing.assert_frame_equal(lazy.frame, whole)


def test_large_stored_tables_are_read_when_asked_for(tmp_path, monkeypatch):
    big = pd.DataFrame({"variant": ["v00"] * 10, "game_index": range(10), "turns": range(10, 20)})
    small = pd.DataFrame({"variant": ["v00"], "games": [10]})
    res = ResultSet(manifest={"game": "x"})
    res.add(Table("games", big, "t", "d"))
    res.add(Table("variants", small, "t", "d"))
    store.save(res, tmp_path, {"k": 1})
    monkeypatch.setattr(store, "LAZY_ROWS", 5)
    back = store.load(tmp_path)
    assert isinstance(back.table("games"), LazyTable) and not isinstance(back.table("variants"), LazyTable)
    assert back.table("games").describe()["rows"] == 10
    pd.testing.assert_frame_equal(back["games"], big)
    # A damaged large table is still named when the set is loaded, not when a page first reads it.
    (tmp_path / "stats" / "games.parquet").write_bytes(b"PAR1 not a table")
    with pytest.raises(store.DamagedFileError, match=r"games\.parquet cannot be read"):
        store.load(tmp_path)


def test_the_per_game_table_of_all_games_at_once_is_the_one_game_at_a_time():
    from trustme_analysis.stats.balance import _games_table_by_game, games_table

    rng = np.random.default_rng(3)
    rows = []
    for game in range(300):
        seats = int(rng.integers(2, 5)) if game % 50 else 2
        length = int(rng.integers(0, 9))
        winner = int(rng.integers(-1, seats))  # -1: a game without a sole winner
        for seat in range(seats):
            # Ties are common (small steps), some traces shorter than the game's others.
            trace = np.cumsum(rng.integers(0, 3, size=max(0, length - (seat == 1 and game % 7 == 0))))
            rows.append({"variant": f"v0{game % 2}", "game_index": game, "seat": seat, "win": seat == winner,
                         "turns": length, "completed": bool(game % 3), "top_shared": bool(game % 5 == 0),
                         "score_trace": trace})
    records = pd.DataFrame(rows).sample(frac=1.0, random_state=1)  # any row order
    pd.testing.assert_frame_equal(games_table(records), _games_table_by_game(records), check_exact=True)
    plain = records.drop(columns=["score_trace"])
    pd.testing.assert_frame_equal(games_table(plain), _games_table_by_game(plain), check_exact=True)


def test_a_bootstrap_of_many_games_resamples_blocks_with_the_same_estimate_and_a_like_spread(monkeypatch):
    from trustme_analysis.stats import intervals
    from trustme_analysis.stats.intervals import blocks, ratio_of_sums

    assert blocks(10) is None and blocks(intervals.MAX_BOOTSTRAP_UNITS) is None
    starts = blocks(25, max_units=4)
    assert starts.tolist() == [0, 6, 12, 18]
    rng = np.random.default_rng(8)
    den = rng.integers(0, 20, size=6000).astype(float)
    num = rng.binomial(den.astype(int), 0.3).astype(float)
    by_game = ratio_of_sums(num, den, np.random.default_rng(1))
    monkeypatch.setattr(intervals, "MAX_BOOTSTRAP_UNITS", 500)
    by_block = ratio_of_sums(num, den, np.random.default_rng(1))
    assert by_block.estimate == pytest.approx(num.sum() / den.sum(), rel=1e-15)
    width_game, width_block = by_game.high - by_game.low, by_block.high - by_block.low
    assert width_block == pytest.approx(width_game, rel=0.2)
    assert by_block.low < by_block.estimate < by_block.high
    assert (by_block.low, by_block.high) != (by_game.low, by_game.high)  # blocks were drawn, not games
