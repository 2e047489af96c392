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
