"""The results set: every statistic computed once, stored under OUTDIR/stats/ with its description, read back by a
notebook and drawn by the report; a report drawn from the stored set alone (records deleted) is the same PDF."""

import shutil

import pandas as pd
import pytest
from test_report_build import VARIANTS, write_sweep

from trustme_analysis import results
from trustme_analysis.report import build_report
from trustme_analysis.results import store


@pytest.fixture()
def sweep(tmp_path):
    out = tmp_path / "sweep"
    write_sweep(out, VARIANTS)
    return out


def test_results_set_holds_every_table_with_its_description(sweep):
    res = results.load(sweep)
    for name in ("variants", "seat_win_rates", "equal_seats_test", "ludii_metrics", "games", "pinocchio_games",
                 "score_summary", "score_trace", "chart_shares", "ticket_values", "tale_table", "comparisons",
                 "headlines"):
        table = res.table(name)
        assert len(table.frame) > 0, name
        assert table.title and table.definition, name
        assert (sweep / "stats" / f"{name}.parquet").is_file() and (sweep / "stats" / f"{name}.csv").is_file()
    assert res.table("seat_win_rates").interval == "Wilson 95%"
    assert res.table("seat_win_rates").units["win_rate"] == "share of games"
    assert res.baseline == "v00" and res.variant_ids == ["v00", "v01"]
    # What a notebook reads back equals what was computed.
    fresh = results.compute(sweep)
    for name in res:
        pd.testing.assert_frame_equal(res[name], fresh[name], check_dtype=False)
    # The headline findings start with the baseline's seat win rates.
    head = res["headlines"]
    assert head["kind"].iloc[0] == "seat" and head["variant"].iloc[0] == "v00"


def test_stored_results_are_reused_and_recomputed_when_the_records_change(sweep):
    results.load(sweep)
    index = store.read_index(sweep)
    assert store.is_current(index, results.records_key(sweep))
    (sweep / "records" / "v01" / "chunk-00000.parquet").unlink()
    assert not store.is_current(index, results.records_key(sweep))
    assert results.load(sweep).variant_ids == ["v00"]


def test_report_from_the_stored_results_alone_is_the_same_pdf(sweep, tmp_path):
    first = build_report(sweep).read_bytes()
    shutil.rmtree(sweep / "records")
    again = build_report(sweep).read_bytes()
    assert again == first


def test_no_page_reads_records(sweep, monkeypatch):
    results.load(sweep)

    def refuse(*args, **kwargs):
        raise AssertionError("a page read the records")

    monkeypatch.setattr("trustme_analysis.results.source.read_chunk", refuse)
    monkeypatch.setattr("trustme_analysis.outdir.read_chunk", refuse)
    build_report(sweep)


def test_variants_that_differ_only_in_what_no_player_reads_are_marked_same_play(tmp_path):
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    spec = parse_spec({"game": "trustme_pinocchio",
                       "params": {"players": 2, "values": 3, "copies": 2, "two_player_removed": 0, "park_size": 2,
                                  "stacks": [1, 1, 1], "runouts_to_end": 1},
                       "grid": {"chart": [[1, 3, 6], [1, 2, 3]]},
                       "lineups": {"random": {"seats": ["random"]}, "heuristic": {"seats": ["heuristic"]}},
                       "games": 6, "chunk_size": 6})
    run_sweep(spec, workers=1, out=tmp_path / "s", report=False, quiet=True)
    table = results.load(tmp_path / "s")["variant_differences"].set_index("variant")
    by = {(v.grid["chart"], v.lineup.name): v.id for v in spec.variants}
    # The baseline is v00 (chart 1/3/6, random players).
    assert table.loc[by[("1/2/3", "random")], "differs_in"] == "chart"
    assert bool(table.loc[by[("1/2/3", "random")], "same_play"])  # random players never read the chart
    # Each chart is set against the baseline's chart under its own line-up.
    assert table.loc[by[("1/2/3", "random")], "reference"] == by[("1/3/6", "random")]
    assert table.loc[by[("1/2/3", "heuristic")], "reference"] == by[("1/3/6", "heuristic")]
    # Under the heuristic the chart is still a scoring-only change, but the heuristic weighs the chart when it cashes,
    # so its games are not the reference's; and a line-up change is not a rule change at all.
    assert bool(table.loc[by[("1/2/3", "heuristic")], "scoring_only"])
    assert not bool(table.loc[by[("1/2/3", "heuristic")], "same_play"])
    assert not bool(table.loc[by[("1/3/6", "heuristic")], "scoring_only"])
    assert table.loc[by[("1/3/6", "heuristic")], "reference"] == ""



def test_seat_tables_from_chunk_tallies_equal_those_from_all_records(tmp_path):
    """The seat tables are computed from per-chunk tallies (games and wins per seat) summed exactly; ``fold``
    streams any statistic of exact partial aggregates chunk by chunk."""
    import numpy as np

    from trustme_analysis.outdir import load_manifest, load_records
    from trustme_analysis.results.build import Builder
    from trustme_analysis.results.source import ChunkSource
    from trustme_analysis.stats.balance import equal_seats_test, merge_seat_tallies, seat_tallies, seat_win_rates
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    spec = parse_spec({"game": "trustme_pinocchio", "games": 60, "chunk_size": 7, "seed": 5,
                       "grid": {"players": [2, 3]}, "lineups": {"random": {"seats": ["random"]}}}, name="tally")
    run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    records = load_records(tmp_path)
    source = ChunkSource(tmp_path)
    chunks = [seat_tallies(c) for v in source.variant_ids for c in source.iter_chunks(v, ["variant", "seat", "win"])]
    assert len(chunks) == 2 * 9
    merged = merge_seat_tallies(chunks)
    pd.testing.assert_frame_equal(seat_win_rates(tallies=merged), seat_win_rates(records), check_exact=True)
    pd.testing.assert_frame_equal(equal_seats_test(tallies=merged), equal_seats_test(records), check_exact=True)
    streamed = Builder(load_manifest(tmp_path), None, np.random.default_rng(0), source=source)
    whole = Builder(load_manifest(tmp_path), records, np.random.default_rng(0))
    for b in (streamed, whole):
        pd.testing.assert_frame_equal(b.seat_tallies, seat_tallies(records), check_exact=True)
        assert b.fold(lambda r: r[["win"]].sum().to_frame().T, lambda parts: int(pd.concat(parts)["win"].sum()),
                      ["win"]) == int(records["win"].sum())
