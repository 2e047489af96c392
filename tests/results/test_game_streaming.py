"""Liar's and Trust Me (1981)'s statistics from chunk files, a piece of games at a time: the same tables as from all
records at once, with no per-game table read whole, within and past the bounds up to which the figures are the whole
arrays'; within them, bit for bit the whole-array figures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.stats import streaming
from trustme_analysis.stats.intervals import mean_t, ratio_of_sums
from trustme_analysis.stats.traces import trace_bands

SPECS = {
    "liar": {"game": "trustme_liar", "grid": {"players": [2, 3], "mode": ["classique", "trustme"]}},
    "1981": {"game": "trustme_1981", "grid": {"players": [2, 3]}},
    "1981_investment": {"game": "trustme_1981_investment", "params": {"players": 3}, "grid": {"seen": [25, 75]}},
}


@pytest.fixture(scope="module", params=sorted(SPECS))
def sweep(request, tmp_path_factory):
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    out = tmp_path_factory.mktemp(request.param)
    spec = parse_spec({**SPECS[request.param], "games": 24, "chunk_size": 7, "seed": 5,
                       "lineups": {"random": {"seats": ["random"]}}}, name=request.param)
    run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    return request.param, out


def _whole_array_figures(game: str, records: pd.DataFrame, tables, seed: int) -> None:
    """A few figures of the streamed tables against numpy on the whole arrays of a variant."""
    vid = "v01"
    v = records[records["variant"] == vid]
    if game == "liar":  # v01: 2 players, Trust Me
        first = v[v["turn_order"] == 0]
        row = tables["starter"].query("variant == @vid and turn_order == 0").iloc[0]
        assert (row["rank"], row["rank_low"], row["rank_high"]) == tuple(mean_t(first["rank"]))
        top = v[v["points_win"].astype(bool)]
        src = tables["points_by_source"].query("variant == @vid and source == 'unmasked'").iloc[0]
        assert (src["top"], src["top_low"], src["top_high"]) == tuple(mean_t(top["points_unmasked"]))
        per_game = v.groupby("game_index")[["calls_won", "calls"]].sum().to_numpy(dtype=float)
        rng = np.random.default_rng([seed, 0x5EED])
        assert tables["challenges"].query("variant == @vid").iloc[0]["success"] == (
            ratio_of_sums(per_game[:, 0], per_game[:, 1], rng).estimate)
    elif game == "1981":
        bands = trace_bands(v, [vid], ("richest", "other seats"), horizon_from_winners=False, with_counts=False)
        pd.testing.assert_frame_equal(tables["wealth_trace"].query("variant == @vid").reset_index(drop=True), bands,
                                      check_exact=True)
        wealth = tables["wealth_summary"].query("variant == @vid").iloc[0]
        assert (wealth["wealth_q10"], wealth["wealth_median"], wealth["wealth_q90"]) == tuple(
            np.quantile(v["wealth"].to_numpy(dtype=float), [0.1, 0.5, 0.9]))
    else:
        investors = v[~v["claimant"].astype(bool) & v["seen"].astype(bool)]
        row = tables["investment_by_knowledge"].query("variant == @vid and role == 'investor, looked'").iloc[0]
        assert (row["change"], row["change_low"], row["change_high"]) == tuple(mean_t(investors["wealth_change"]))


@pytest.mark.parametrize("bound,read_rows", [(None, 5), (8, 4)])
def test_game_tables_from_chunk_pieces_are_those_of_all_records(sweep, monkeypatch, bound, read_rows):
    from trustme_analysis.outdir import load_manifest, load_records
    from trustme_analysis.results import build, source
    from trustme_analysis.results.source import ChunkSource
    from trustme_analysis.results.table import PieceStore
    from trustme_analysis.stats import intervals

    game, folder = sweep
    monkeypatch.setattr(source, "READ_ROWS", read_rows)  # chunk files read in pieces of whole games
    if bound is not None:  # past the bounds: moments of exact sums only, bootstraps over blocks of games
        monkeypatch.setattr(streaming, "EXACT_UNITS", bound)
        monkeypatch.setattr(intervals, "MAX_BOOTSTRAP_UNITS", bound)
    manifest = load_manifest(folder)
    records = load_records(folder)
    whole = build.compute_from(manifest, records)

    def refuse(self):
        raise AssertionError("a per-game table was read whole")

    monkeypatch.setattr(PieceStore, "frame", refuse)
    streamed = build.compute_from(manifest, None, source=ChunkSource(folder))
    assert list(streamed) == list(whole)
    for name in whole:
        pd.testing.assert_frame_equal(streamed[name].reset_index(drop=True), whole[name].reset_index(drop=True),
                                      check_exact=True, check_dtype=False, obj=name)
    if bound is None:  # within the bounds, the figures of the whole arrays, bit for bit
        _whole_array_figures(game, records, streamed, int(manifest["seed"]))
