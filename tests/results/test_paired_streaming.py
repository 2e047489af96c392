"""Per-game statistics accumulated a piece at a time (trustme_analysis.stats.streaming): exact sums merged in any
order, the paired and unpaired comparisons of pieces equal to those of the whole arrays, the Ludii metrics of pieces
equal to those of the whole per-game table, and a Builder reading chunk files keeping no per-game table in memory."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.results.comparisons import measure_value
from trustme_analysis.stats import streaming
from trustme_analysis.stats.balance import ludii_metrics
from trustme_analysis.stats.compare import GameMetric, compare_pairs
from trustme_analysis.stats.intervals import difference_of_means, mean_t, paired_difference
from trustme_analysis.stats.streaming import GameRows, Moments, exact_sums, mean_interval, paired, welch

METRICS = (
    GameMetric("won", "won", "rate", "share of games"),
    GameMetric("turns", "turns", "mean", "turns"),
    GameMetric("share", "share", "mean", "share"),
)


def _games(rng: np.random.Generator, n: int, variants=("v00", "v01", "v02")) -> pd.DataFrame:
    """Per-game rows of a few variants that played the same games (shared noise, so pairing matters)."""
    frames = []
    base_turns = rng.integers(10, 40, size=n)
    base_share = rng.random(n)
    for k, vid in enumerate(variants):
        share = np.clip(base_share + rng.normal(0.02 * k, 0.05, size=n), 0, 1) / 3.0  # thirds: not dyadic
        share[rng.random(n) < 0.05] = np.nan  # some games without a value
        frames.append(pd.DataFrame({"variant": vid, "game_index": np.arange(n),
                                    "won": (rng.random(n) < 0.4 + 0.05 * k).astype(float),
                                    "turns": base_turns + rng.integers(0, 3 + k, size=n),
                                    "share": share}))
    return pd.concat(frames, ignore_index=True)


def _pieces_of(frame: pd.DataFrame, cuts: list[int]) -> GameRows:
    """The frame as GameRows read in pieces cut at ``cuts`` (game indices), as chunk files would give them."""
    def pieces(vid, columns):
        mine = frame[frame["variant"] == vid]
        index = mine["game_index"].to_numpy()
        for a, b in zip(cuts, cuts[1:]):
            yield mine[(index >= a) & (index < b)][list(columns)]
    return GameRows(sorted(frame["variant"].unique()), list(frame.columns), pieces)


def test_exact_sums_are_the_sums_of_the_floats_as_fractions_whatever_the_order():
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.normal(0, 1e6, 500), rng.random(500) / 3.0, [0.0, -0.0, 5e-300, -2.0**60, 1e300]])
    total, total_sq = exact_sums(x)
    assert total == sum(Fraction(float(v)) for v in x)
    assert total_sq == sum(Fraction(float(v)) ** 2 for v in x)
    shuffled = rng.permutation(x)
    assert exact_sums(shuffled) == (total, total_sq)
    halves = [exact_sums(shuffled[:123]), exact_sums(shuffled[123:])]
    assert (halves[0][0] + halves[1][0], halves[0][1] + halves[1][1]) == (total, total_sq)


def test_moments_kept_are_the_whole_array_figures_bit_for_bit():
    rng = np.random.default_rng(4)
    x, y = rng.random(300) / 3.0, rng.random(300) / 7.0
    mx = Moments().add(x[:100]).add(x[100:250]).add(x[250:])
    my = Moments.of(y)
    assert mean_interval(mx) == mean_t(x)
    assert welch(mx, my) == difference_of_means(x, y)
    d = Moments.of(x - y)
    assert paired(d) == paired_difference(x, y)
    assert mx.sum == float(x.sum()) and mx.std() == float(x.std(ddof=1))


def test_moments_past_the_bound_keep_exact_sums_only_and_agree_with_the_whole_array(monkeypatch):
    monkeypatch.setattr(streaming, "EXACT_UNITS", 50)
    rng = np.random.default_rng(5)
    x = rng.random(2000) / 3.0
    x[::17] = np.nan
    m = Moments()
    for a in range(0, x.size, 333):
        m.add(x[a:a + 333])
    assert m.values is None  # nothing per game is kept
    finite = x[~np.isnan(x)]
    assert m.n == finite.size
    # The mean and variance of the exact sums are the correctly rounded ones ...
    exact_mean = sum(Fraction(float(v)) for v in finite) / finite.size
    assert m.mean() == float(exact_mean)
    # ... and agree with numpy's to the last bits.
    assert m.mean() == pytest.approx(float(finite.mean()), rel=1e-15)
    assert m.std() == pytest.approx(float(finite.std(ddof=1)), rel=1e-14)
    ours, ref = mean_interval(m), mean_t(finite)
    np.testing.assert_allclose(ours, ref, rtol=1e-14)
    # Whole numbers: the mean is exactly numpy's (their sums are exact either way).
    whole = rng.integers(0, 90, size=3000).astype(float)
    mw = Moments()
    for a in range(0, whole.size, 700):
        mw.add(whole[a:a + 700])
    assert mw.values is None and mw.mean() == float(whole.mean()) and mw.sum == float(whole.sum())


@pytest.mark.parametrize("kept", [True, False])
def test_a_count_mean_interval_with_a_floor_never_reaches_below_it(monkeypatch, kept):
    # A rare event: 3 games of 2,000 with one burn. The t interval reaches below 0; with floor=0 its low end is 0,
    # its estimate and high end unchanged, whether the values are kept or only their sums.
    if not kept:
        monkeypatch.setattr(streaming, "EXACT_UNITS", 50)
    counts = np.zeros(2000)
    counts[[5, 700, 1900]] = 1.0
    m = Moments()
    for a in range(0, counts.size, 500):
        m.add(counts[a:a + 500])
    assert (m.values is not None) == kept
    plain, floored = mean_interval(m), mean_interval(m, floor=0.0)
    assert plain.low < 0.0
    assert floored == (plain.estimate, 0.0, plain.high)
    # an interval wholly above the floor is left alone; NaN ends stay NaN
    common = Moments.of(np.array([3.0, 4.0, 5.0, 4.0]))
    assert mean_interval(common, floor=0.0) == mean_interval(common)
    one = mean_interval(Moments.of(np.array([2.0])), floor=0.0)
    assert one.estimate == 2.0 and math.isnan(one.low) and math.isnan(one.high)


def test_moments_refuse_infinite_values():
    with pytest.raises(ValueError, match="not allowed; allowed: finite"):
        Moments.of(np.array([1.0, np.inf]))


def test_paired_statistics_of_pieces_equal_the_whole_array_computation():
    games = _games(np.random.default_rng(6), 400)
    pairs = [("v01", "v00"), ("v02", "v00")]
    whole = compare_pairs(games, METRICS, pairs)
    pieces = compare_pairs(_pieces_of(games, [0, 7, 8, 150, 151, 399, 400]), METRICS, pairs)
    pd.testing.assert_frame_equal(pieces, whole, check_exact=True)
    assert pieces["paired"].all()
    # The paired figures are those of the per-game differences as whole arrays.
    for (vid, ref), metric in [(p, m) for m in METRICS for p in pairs]:
        x = games[games["variant"] == vid].set_index("game_index")[metric.column]
        y = games[games["variant"] == ref].set_index("game_index")[metric.column]
        keep = x.notna() & y.notna()
        diff = paired_difference(x[keep].to_numpy(), y[keep].to_numpy())
        row = pieces[(pieces["variant"] == vid) & (pieces["metric"] == metric.name)].iloc[0]
        assert (row["difference"], row["low"], row["high"], row["p_value"]) == tuple(diff)
        assert row["pairs"] == int(keep.sum())


def test_paired_statistics_past_the_bound_agree_with_the_whole_array_to_the_last_bits(monkeypatch):
    games = _games(np.random.default_rng(7), 900)
    pairs = [("v01", "v00"), ("v02", "v01")]
    whole = compare_pairs(games, METRICS, pairs)
    monkeypatch.setattr(streaming, "EXACT_UNITS", 64)  # every variant and pair past the bound: sums only
    streamed = compare_pairs(_pieces_of(games, [0, 100, 333, 334, 900]), METRICS, pairs)
    pd.testing.assert_frame_equal(streamed.drop(columns=streamed.columns[5:]), whole.drop(columns=whole.columns[5:]))
    assert streamed["paired"].tolist() == whole["paired"].tolist()
    assert streamed["pairs"].tolist() == whole["pairs"].tolist()
    assert streamed["significant"].tolist() == whole["significant"].tolist()
    numbers = ["baseline_value", "value", "difference", "low", "high", "p_value", "p_holm", "effect",
               "unpaired_low", "unpaired_high", "unpaired_p"]
    np.testing.assert_allclose(streamed[numbers].to_numpy(float), whole[numbers].to_numpy(float), rtol=1e-12)
    # Counts and whole-number means are exact either way.
    rates = streamed["kind"] == "rate"
    assert streamed.loc[rates, "value"].tolist() == whole.loc[rates, "value"].tolist()
    turns = streamed["metric"] == "turns"
    assert streamed.loc[turns, "difference"].tolist() == whole.loc[turns, "difference"].tolist()


def test_different_games_or_several_rows_per_game_are_compared_unpaired():
    games = _games(np.random.default_rng(8), 200)
    fewer = games[~((games["variant"] == "v01") & (games["game_index"] == 150))]
    for frame in (fewer, pd.concat([games, games[games["variant"] == "v01"].head(3)], ignore_index=True)):
        for rows in (frame, _pieces_of(frame, [0, 50, 200])):
            comp = compare_pairs(rows, METRICS, [("v01", "v00")])
            assert not comp["paired"].any() and (comp["pairs"] == 0).all()
            assert (comp["difference"] == comp["value"] - comp["baseline_value"]).loc[comp["kind"] == "mean"].all()


def test_a_frame_out_of_game_order_is_still_paired():
    games = _games(np.random.default_rng(9), 300)
    shuffled = games.sample(frac=1.0, random_state=1).reset_index(drop=True)
    comp = compare_pairs(shuffled, METRICS, [("v01", "v00")])
    ref = compare_pairs(games, METRICS, [("v01", "v00")])
    assert comp["paired"].all() and comp["pairs"].tolist() == ref["pairs"].tolist()
    np.testing.assert_allclose(comp["difference"].to_numpy(float), ref["difference"].to_numpy(float), rtol=1e-14)


def test_a_measure_value_of_pieces_is_the_one_of_the_variants_games():
    games = _games(np.random.default_rng(10), 250)
    rows = _pieces_of(games, [0, 90, 250])
    for metric in METRICS:
        assert measure_value(rows, metric, "v02") == measure_value(games[games["variant"] == "v02"], metric)
    assert measure_value(rows, METRICS[1], "v09")[3] == 0  # a variant without games counts none


def _game_table(rng: np.random.Generator, n: int, variant: str) -> pd.DataFrame:
    winner = rng.integers(-1, 3, size=n)
    return pd.DataFrame({"variant": variant, "game_index": np.arange(n), "seats": 3, "winner": winner,
                         "turns": rng.integers(5, 60, size=n), "completed": rng.random(n) < 0.9,
                         "top_shared": winner < 0, "lead_changes": rng.integers(0, 5, size=n),
                         "lead_change_rate": rng.random(n) / 3.0,
                         "drama": np.where(rng.random(n) < 0.1, np.nan, rng.random(n) / 7.0),
                         "decisiveness": rng.random(n)})


@pytest.mark.parametrize("n", [3_000, 12_001])  # resampling games; resampling blocks of games (past 10,000)
def test_ludii_metrics_of_pieces_are_those_of_the_whole_table(n):
    rng = np.random.default_rng(n)
    table = pd.concat([_game_table(rng, n, "v00"), _game_table(rng, n // 3, "v01")], ignore_index=True)
    whole = ludii_metrics(None, np.random.default_rng(1), games=table)
    cuts = [0, 1, 999, 5000, 7777, n]
    pieces = [(vid, len(grp), [grp.iloc[a:b] for a, b in zip(cuts, cuts[1:])])
              for vid, grp in table.groupby("variant", sort=True)]
    streamed = ludii_metrics(None, np.random.default_rng(1), pieces=pieces)
    if n <= streaming.EXACT_UNITS:
        pd.testing.assert_frame_equal(streamed, whole, check_exact=True)
        # ... and the means are those of the whole arrays.
        grp = table[table["variant"] == "v00"]
        row = streamed[(streamed["variant"] == "v00") & (streamed["metric"] == "Drama")].iloc[0]
        assert (row["value"], row["low"], row["high"]) == tuple(mean_t(grp["drama"].to_numpy(float)))
    else:
        # Past the bound both are computed from exact sums: the same whatever the pieces.
        pd.testing.assert_frame_equal(streamed, whole, check_exact=True)
        grp = table[table["variant"] == "v00"]
        row = streamed[(streamed["variant"] == "v00") & (streamed["metric"] == "Drama")].iloc[0]
        np.testing.assert_allclose((row["value"], row["low"], row["high"]),
                                   tuple(mean_t(grp["drama"].to_numpy(float))), rtol=1e-14)
        # Balance resamples blocks of games: the interval the one-hot array of all games gives, drawn alike.
        from trustme_analysis.stats.intervals import blocks, bootstrap

        winners = grp["winner"].to_numpy()
        onehot = np.zeros((winners.size, 3))
        onehot[np.flatnonzero(winners >= 0), winners[winners >= 0]] = 1.0
        starts = blocks(winners.size)
        wins = np.add.reduceat(onehot, starts, axis=0)
        sizes = np.diff(np.append(starts, winners.size)).astype(float)

        def stat(idx):
            rates = wins[idx].sum(axis=1) / sizes[idx].sum(axis=1)[:, None]
            return 1.0 - (rates.max(axis=1) - rates.min(axis=1))

        expected = bootstrap(starts.size, stat, np.random.default_rng(1))
        row = streamed[(streamed["variant"] == "v00") & (streamed["metric"] == "Balance")].iloc[0]
        assert (row["value"], row["low"], row["high"]) == tuple(expected)


@pytest.fixture(scope="module")
def small_sweep(tmp_path_factory):
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    out = tmp_path_factory.mktemp("paired")
    spec = parse_spec({"game": "trustme_pinocchio", "games": 40, "chunk_size": 7, "seed": 9,
                       "grid": {"players": [2, 3]},
                       "lineups": {"random": {"seats": ["random"]}, "heuristic": {"seats": ["heuristic"]}}},
                      name="paired")
    run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    return out


@pytest.mark.parametrize("own_statistics,bound,read_rows", [(True, None, None), (False, None, None), (True, 8, None),
                                                             (True, None, 5), (False, 8, 4)])
def test_a_results_set_from_chunk_files_reads_no_per_game_table_whole_and_equals_the_one_from_all_records(
        small_sweep, monkeypatch, own_statistics, bound, read_rows):
    from trustme_analysis.outdir import load_manifest, load_records
    from trustme_analysis.results import build, source
    from trustme_analysis.results.source import ChunkSource
    from trustme_analysis.results.table import PieceStore
    from trustme_analysis.stats import intervals

    if read_rows is not None:  # chunk files read in pieces of whole games, a few rows at a time
        monkeypatch.setattr(source, "READ_ROWS", read_rows)

    if bound is not None:  # past the bounds: moments of exact sums only, bootstraps over blocks of games
        monkeypatch.setattr(streaming, "EXACT_UNITS", bound)
        monkeypatch.setattr(intervals, "MAX_BOOTSTRAP_UNITS", bound)
    if not own_statistics:  # the generic comparisons (seat 0 wins, ...) from the generic per-game table
        monkeypatch.setattr(build, "find_game", lambda name: None)
    manifest = load_manifest(small_sweep)
    whole = build.compute_from(manifest, load_records(small_sweep))

    def refuse(self):
        raise AssertionError("a per-game table was read whole")

    monkeypatch.setattr(PieceStore, "frame", refuse)
    streamed = build.compute_from(manifest, None, source=ChunkSource(small_sweep))
    assert list(streamed) == list(whole)
    for name in whole:
        pd.testing.assert_frame_equal(streamed[name].reset_index(drop=True), whole[name].reset_index(drop=True),
                                      check_exact=True, check_dtype=False, obj=name)
    comp = streamed["comparisons"]
    assert len(comp) and comp["paired"].any()  # the same seeds: rule variants are paired game by game


def test_the_stability_and_headline_rows_of_pieces_are_those_of_the_frame():
    from trustme_analysis.results.comparisons import headline_rows, lineup_table, stability
    from trustme_analysis.results.table import ResultSet, Table

    seats = {"trained": [{"bot": "trained"}], "searchtrained": [{"bot": "search", "knobs": {"rollout": "trained"}}]}
    variants = [{"id": f"v0{k}", "params": {"players": p}, "grid": {"players": p}, "lineup": name,
                 "seats": seats[name] * p} for k, (p, name) in enumerate([(2, "trained"), (2, "searchtrained"),
                                                                          (3, "trained"), (3, "searchtrained")])]
    manifest = {"variants": variants, "baseline": "v02"}
    games = _games(np.random.default_rng(12), 300, ("v00", "v01", "v02", "v03"))
    games = games[(games["variant"] != "v03") | (games["game_index"] < 200)]  # fewer stronger games: paired 200
    ids = ["v00", "v01", "v02", "v03"]
    counts = games.groupby("variant").size().to_dict()
    lineups = lineup_table(manifest, ids, counts, None, "v02")
    rows = _pieces_of(games, [0, 64, 65, 200, 300])
    table = stability(rows, METRICS, lineups)
    assert len(table) == len(METRICS) and not table["paired"].any()  # 200 games against 300: unpaired
    pd.testing.assert_frame_equal(table, stability(games, METRICS, lineups), check_exact=True)
    res = ResultSet(manifest=manifest)
    res.add(Table("seat_win_rates", pd.DataFrame(columns=["variant", "seat", "win_rate", "low", "high", "fair",
                                                          "games"]), "", ""))
    res.add(Table("equal_seats_test", pd.DataFrame(columns=["variant", "p_value", "p_holm", "games"]), "", ""))
    empty = compare_pairs(games, METRICS, [])
    lineup_of = {v["id"]: v["lineup"] for v in variants}
    pd.testing.assert_frame_equal(headline_rows(res, rows, METRICS, empty, lineups, table, "v02", 6, lineup_of),
                                  headline_rows(res, games, METRICS, empty, lineups, table, "v02", 6, lineup_of),
                                  check_exact=True)


def test_block_sums_of_pieces_are_the_blocks_of_the_per_game_rows_and_give_the_same_bootstrap(monkeypatch):
    from trustme_analysis.stats import intervals
    from trustme_analysis.stats.intervals import blocks, ratio_of_sums
    from trustme_analysis.stats.streaming import BlockSums

    rng = np.random.default_rng(13)
    per_game = np.column_stack([rng.integers(0, 5, 1000), rng.integers(5, 20, 1000)]).astype(float)
    monkeypatch.setattr(intervals, "MAX_BOOTSTRAP_UNITS", 64)
    acc = BlockSums(1000, 2)
    for a, b in [(0, 3), (3, 64), (64, 65), (65, 700), (700, 1000)]:
        acc.add(per_game[a:b])
    np.testing.assert_array_equal(acc.units, np.add.reduceat(per_game, blocks(1000), axis=0))
    ours = ratio_of_sums(acc.units[:, 0], acc.units[:, 1], np.random.default_rng(2))
    assert ours == ratio_of_sums(per_game[:, 0], per_game[:, 1], np.random.default_rng(2))
    small = BlockSums(40, 2)  # within the bound: the per-game rows themselves
    small.add(per_game[:40])
    np.testing.assert_array_equal(small.units, per_game[:40])
    with pytest.raises(ValueError, match="40 games: 41 games added"):
        small.add(per_game[:1])
    short = BlockSums(10, 2)
    short.add(per_game[:9])
    with pytest.raises(ValueError, match="allowed: exactly 10"):
        short.units


def test_a_chunk_file_read_in_pieces_of_whole_games_is_the_chunk(small_sweep, monkeypatch):
    from trustme_analysis.results import source
    from trustme_analysis.results.source import ChunkSource

    monkeypatch.setattr(source, "READ_ROWS", 4)
    chunks = ChunkSource(small_sweep)
    vid = chunks.variant_ids[-1]
    for columns in (None, ["variant", "win", "score_trace"], ["game_index", "seat", "nonexistent"]):
        pieces = list(chunks.iter_chunks(vid, columns))
        whole = chunks.read_variant(vid, columns)
        assert len(pieces) > len(chunks.files[vid])  # chunks of 7 games (14 or 21 rows) come in several pieces
        pd.testing.assert_frame_equal(pd.concat(pieces, ignore_index=True), whole, check_exact=True)
        if columns is None or "game_index" in columns:
            for a, b in zip(pieces, pieces[1:]):  # no game is split between two pieces
                assert a["game_index"].iloc[-1] != b["game_index"].iloc[0]
