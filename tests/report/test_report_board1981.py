"""Sweeps of the two Trust Me (1981) games through their registry entries, and reports built from the stored records alone,
holding the games' pages (text read back with pypdf)."""

from __future__ import annotations

import pandas as pd
import pytest
from pypdf import PdfReader

from trustme_analysis.report import build_report
from trustme_analysis.outdir import load_records
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

BOARD = {
    "title": "small 1981",
    "question": "Does the optional peek change the game?",
    "game": "trustme_1981",
    "games": 6,
    "chunk_size": 6,
    "seed": 5,
    "params": {"players": 2},
    "grid": {"peek": [False, True]},
    "lineups": {"mixed": {"seats": [{"bot": "heuristic"}, {"bot": "random"}]}},
    "baseline": {"peek": False},
}

ROUND = {
    "title": "small investing round",
    "question": "What does looking buy an investor?",
    "game": "trustme_1981_investment",
    "games": 40,
    "chunk_size": 40,
    "seed": 6,
    "params": {"players": 3},
    "grid": {"seen": [0, 100]},
    "lineups": {"random": {"seats": [{"bot": "random"}]}},
}


def _pages(pdf):
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def _page(pages, title):
    # The contents page lists every title; the page itself is the first other page that holds it.
    hits = [p for p in pages if title in p and not p.startswith("Contents")]
    assert hits, f"no page titled {title!r}"
    return hits[0]


def test_board_game_sweep_and_report(tmp_path):
    run_sweep(parse_spec(BOARD, name="b1981"), workers=1, out=tmp_path, report=False, quiet=True)
    records = load_records(tmp_path)
    assert len(records) == 2 * 6 * 2
    assert {"gain_per_row", "bought_known", "score_trace", "param_peek"} <= set(records.columns)
    # Tied richest seats all count as winners; otherwise exactly one.
    wins = records.groupby(["variant", "game_index"])["win"].sum()
    shared = records.groupby(["variant", "game_index"])["top_shared"].first()
    assert ((wins == 1) | shared).all()
    pdf = build_report(tmp_path)
    pages = _pages(pdf)
    for title in ("Final wealth: money and shares", "Wealth over the game", "Game length and what ends the game",
                  "Claims: made unseen, after looking, taken",
                  "Investing rounds: shares bought and divested by what the investor had seen",
                  "Payoff rows: what each seat gained or lost per reveal",
                  "Wild Goose Chase, Trust Me cards and challenges", "Balance metrics (after Ludii)"):
        _page(pages, title)
    assert "Lead changes per turn" in _page(pages, "Balance metrics (after Ludii)")  # from the wealth trace
    payoff = _page(pages, "Payoff rows: what each seat gained or lost per reveal")
    for label in ("One Stack", "Two Stacks", "Empty", "Been Had", "gain of a seat that had looked, dollars [95%]",
                  "claimant's reserve per round"):
        assert label in payoff
    assert "reserve per investing round" in _page(pages, "The rules, one at a time: all comparisons")
    stats = tmp_path / "stats"
    for name in ("wealth_summary", "wealth_trace", "claims", "investing", "payoff_rows", "table_events"):
        assert (stats / f"{name}.csv").is_file()
    # The report's numbers are the statistics of the stored records: the claims table matches a direct count.
    claims = pd.read_csv(stats / "claims.csv").set_index("variant")
    per_game = records.groupby(["variant", "game_index"])["claims_unseen"].sum().groupby("variant").mean()
    assert claims["unseen"].to_numpy() == pytest.approx(per_game.reindex(claims.index).to_numpy())


def test_investing_round_sweep_and_report(tmp_path):
    run_sweep(parse_spec(ROUND, name="inv"), workers=1, out=tmp_path, report=False, quiet=True)
    records = load_records(tmp_path)
    # seen=0: nobody has looked; seen=100: everyone has.
    assert set(records.groupby("param_seen")["seen"].all().items()) == {(0, False), (100, True)}
    pages = _pages(build_report(tmp_path))
    title = "Investing round: wealth change by payoff row and by what the seat had seen"
    _page(pages, title)
    # The page holds the baseline's rows (every role and payoff row); every variant's are in the results set's CSV.
    row_page = _page(pages, title)
    for text in ("claimant, looked", "claimant, not looked", "investor, looked", "investor, not looked",
                 "Been Had", "payoff gain, dollars [95%]", "stats/investment_by_row.csv"):
        assert text in row_page
    _page(pages, "Investing round: shares bought and divested by what the seat had seen")
    assert "claimant's wealth change" in _page(pages, "The rules, one at a time: all comparisons")


def test_a_sweep_over_payoff_mixes_states_how_far_each_measure_moves(tmp_path):
    # Two line-ups: the page compares each mix with the baseline's under the baseline's line-up only.
    spec = dict(BOARD, title="1981 payoff mixes", grid={"payoff_mix": ["6/4/4/2", "8/4/2/2", "4/2/8/2"]},
                lineups={"mixed": {"seats": [{"bot": "heuristic"}, {"bot": "random"}]},
                         "random": {"seats": [{"bot": "random"}]}},
                baseline={"payoff_mix": "6/4/4/2", "lineup": "mixed"})
    run_sweep(parse_spec(spec, name="mix1981"), workers=1, out=tmp_path, report=False, quiet=True)
    pages = _pages(build_report(tmp_path))
    page = _page(pages, "How much the Payoff mix moves the figures")
    for text in ("baseline (6/4/4/2)", "8/4/2/2: change [95%]", "4/2/8/2: change [95%]", "largest move",
                 "mean final wealth per seat", "The Payoff mix moves"):
        assert text in page
    # One column per other mix (the random line-up's variants, which differ in the line-up too, are not in it).
    assert page.count("8/4/2/2: change") == 1 and page.count("6/4/4/2: change") == 0
    # A sweep whose variants differ in something else has no such page.
    assert not [p for p in _pages(_report_of_peek(tmp_path / "peek")) if "How much the Payoff mix" in p
                and not p.startswith("Contents")]


def _report_of_peek(out):
    run_sweep(parse_spec(BOARD, name="peek1981"), workers=1, out=out, report=False, quiet=True)
    return build_report(out)
