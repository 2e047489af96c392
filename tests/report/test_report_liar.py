"""A Liar sweep through its registry entry (both scoring modes, random and heuristic bots), and the report built from the
stored records alone, holding the game's pages (text read back with pypdf)."""

from __future__ import annotations

import pandas as pd
import pytest
from pypdf import PdfReader

from trustme_analysis.report import build_report
from trustme_analysis.outdir import load_records
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

LIAR = {
    "title": "small Liar",
    "question": "Where do the Trust Me points come from?",
    "game": "trustme_liar",
    "games": 8,
    "chunk_size": 8,
    "seed": 7,
    "params": {"players": 3, "values": 6},
    "grid": {"mode": ["classique", "trustme"]},
    "lineups": {"mixed": {"seats": [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]}},
    "baseline": {"mode": "classique"},
}


def _pages(pdf):
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def _page(pages, title):
    # The contents page lists every title; the page itself is the first other page that holds it.
    hits = [p for p in pages if title in p and not p.startswith("Contents")]
    assert hits, f"no page titled {title!r}"
    return hits[0]


def test_liar_sweep_and_report(tmp_path):
    run_sweep(parse_spec(LIAR, name="liar"), workers=1, out=tmp_path, report=False, quiet=True)
    records = load_records(tmp_path)
    assert len(records) == 2 * 8 * 3
    assert set(records["mode"]) == {"classique", "trustme"}
    assert {"plays_by_size", "false_cards_by_size", "points_unmasked", "param_mode"} <= set(records.columns)
    assert {"first_player", "started", "turn_order"} <= set(records.columns)
    pdf = build_report(tmp_path)
    pages = _pages(pdf)
    assert "first player wins [95%]" in _page(pages, "The first player's advantage")
    ranks = _page(pages, "Ranks and points by seat and mode")
    assert "Classique" in ranks and "Trust Me" in ranks
    sources = _page(pages, "Trust Me points by source")
    for label in ("going out (+10)", "cards in hand (-1 each)", "false cards accepted or burned (+25)",
                  "liar unmasked (+10)", "wrongly accused (+10)"):
        assert label in sources
    _page(pages, "Game length and how games end")
    claims = _page(pages, "Plays and claim sizes: how often players bluff")
    assert "bluff rate (false cards among cards played) [95%]" in claims
    challenges = _page(pages, "Challenges, burns, pickups and going out")
    assert "plays of last cards caught [95%]" in challenges and "ended by the turn cap [95%]" in challenges
    assert "challenges per play" in _page(pages, "The rules, one at a time: all comparisons")
    stats = tmp_path / "stats"
    sizes = pd.read_csv(stats / "claim_sizes.csv")
    # The bluff rate per size is the pooled share of false cards among the cards played at that size.
    v = records[records["variant"] == "v01"]
    false = sum(x[0] for x in v["false_cards_by_size"])
    played = sum(x[0] for x in v["plays_by_size"])
    row = sizes[(sizes["variant"] == "v01") & (sizes["size"] == 1)].iloc[0]
    assert row["bluff_rate"] == pytest.approx(false / played)
    for name in ("ranks_points", "points_by_source", "game_length", "challenges", "liar_games"):
        assert (stats / f"{name}.csv").is_file()
