"""The small-cell rule on every game's pages: a share resting on fewer than MIN_CELL cases is shown as its counts
("1 of 2"), not as a percentage. Each page is drawn from statistics computed on a tiny hand-made set of records, with
the tables the page draws captured (no sweep, no PDF: fast)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from trustme_analysis.games.board1981.analysis import pages as board_pages
from trustme_analysis.games.board1981.analysis import stats as board_stats
from trustme_analysis.games.liar.analysis import pages as liar_pages
from trustme_analysis.games.liar.analysis import stats as liar_stats
from trustme_analysis.games.pinocchio.analysis import pages as pin_pages
from trustme_analysis.games.pinocchio.analysis import stats as pin_stats
from trustme_analysis.report import panels


class Ctx:
    """The part of :class:`~trustme_analysis.report.context.Report` a game page reads, over given tables."""

    def __init__(self, tables: dict[str, pd.DataFrame], variants=("v00",)):
        self.tables = tables
        self.variant_ids = list(variants)
        self.baseline = self.variant_ids[0]
        self.pages = []

    def __getitem__(self, name):
        return self.tables[name]

    def variant_name(self, v):
        return v

    def add(self, fig, title, kind, findings=(), front=0):
        self.pages.append((title, list(findings), [t.get_text() for t in fig.texts]))
        plt.close(fig)


@pytest.fixture
def drawn(monkeypatch):
    """The tables the pages draw, as lists of cell texts."""
    out = []

    def capture(ax, df, *args, **kwargs):
        out.append(df.astype(str))

    monkeypatch.setattr(panels, "draw_table", capture)
    monkeypatch.setattr(pin_pages, "draw_table", capture)
    return out


def _column(tables, header):
    for t in tables:
        if header in t.columns:
            return list(t[header])
    raise AssertionError(f"no table with the column {header!r}: {[list(t.columns) for t in tables]}")


def _notes(ctx):
    return " ".join(" ".join(texts) for _, _, texts in ctx.pages)


RNG = np.random.default_rng(0)


def test_liar_claim_sizes_and_challenges_show_counts(drawn):
    # Two games, one seat each: 2 plays of one card (1 false), 1 play of two cards (with one false card).
    records = pd.DataFrame({
        "variant": ["v00", "v00"], "game_index": [0, 1], "max_play": [2, 2],
        "plays_by_size": [[1, 1], [1, 0]], "bluffs_by_size": [[1, 1], [0, 0]], "false_cards_by_size": [[1, 1], [0, 0]],
        "mode": ["classique"] * 2, "end_trigger": ["out"] * 2, "plays": [2, 1], "calls": [1, 1], "calls_won": [1, 0],
        "challenged": [1, 1], "challenged_bluffs": [1, 0], "burns": [0, 0], "burned_cards": [0, 0], "pickups": [1, 1],
        "picked_up_cards": [2, 1], "last_cards_plays": [1, 1], "last_cards_caught": [0, 1], "last_cards_held": [1, 0],
        "passes": [0, 0],
    })
    ctx = Ctx({"claim_sizes": liar_stats.claim_sizes(records, RNG), "challenges": liar_stats.challenges(records, RNG)})
    liar_pages._claims_page(ctx)
    liar_pages._challenges_page(ctx)
    assert _column(drawn, "plays with a false card [95%]") == ["1 of 2", "1 of 1"]
    assert _column(drawn, "bluff rate (false cards among cards played) [95%]") == ["1 of 2", "1 of 2"]
    assert _column(drawn, "challenges that caught a liar [95%]") == ["1 of 2"]
    assert _column(drawn, "plays of last cards caught [95%]") == ["1 of 2"]
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)


def test_liar_shares_of_many_cases_stay_percentages(drawn):
    n = 40
    records = pd.DataFrame({
        "variant": ["v00"] * n, "game_index": range(n), "max_play": [1] * n,
        "plays_by_size": [[1]] * n, "bluffs_by_size": [[i % 2] for i in range(n)],
        "false_cards_by_size": [[i % 2] for i in range(n)],
    })
    ctx = Ctx({"claim_sizes": liar_stats.claim_sizes(records, RNG)})
    liar_pages._claims_page(ctx)
    cell = _column(drawn, "plays with a false card [95%]")[0]
    assert cell.startswith("50%") and " of " not in cell
    assert "shown as its counts" not in _notes(ctx)


def test_board1981_rare_events_and_roles_show_counts(drawn):
    events = pd.DataFrame({
        "variant": ["v00"] * 2, "game_index": [0, 1], "wgc_sent": [1, 0], "wgc_received": [0, 1], "cards_move": [1, 1],
        "cards_bamboozled": [1, 2], "cards_challenge": [1, 0], "challenges_made": [1, 0], "challenges_won": [1, 0],
        "bamboozled_escaped": [1, 1],
    })
    seats = pd.DataFrame({
        "variant": ["v00"] * 4, "claimant": [1, 0, 1, 0], "seen": [0, 1, 0, 1], "row": [0, 0, 1, 1],
        "bought": [0, 5, 1, 0], "divested": [0, 0, 0, 5], "wealth_change": [1.0, -1.0, 2.0, -2.0],
        "payoff_gain": [0.0, 0.0, 0.0, 0.0], "reserve_received": [1.0, 0.0, 2.0, 0.0],
    })
    ctx = Ctx({"table_events": board_stats.table_events(events, RNG),
               "investment_by_row": board_stats.investment_by_row(seats),
               "investment_by_knowledge": board_stats.investment_by_knowledge(seats)})
    board_pages._events_page(ctx)
    board_pages.draw_investment(ctx)
    assert _column(drawn, "challenges won by the challenger [95%]") == ["1 of 1"]
    assert _column(drawn, "Bamboozled escaped [95%]") == ["2 of 3"]
    assert _column(drawn, "seats that bought [95%]") == ["1 of 2", "1 of 2"]
    assert _column(drawn, "seats that divested [95%]") == ["0 of 2", "1 of 2"]
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)


def test_pinocchio_tale_rows_show_counts(drawn):
    rows = {f"row_{r}": [1, 0] for r in pin_stats.TALE_ROWS}
    records = pd.DataFrame({
        "variant": ["v00"] * 2, "game_index": [0, 1], **rows, "tales_told": [4, 0], "tales_tall": [2, 0],
        "tales_true": [2, 0], "votes_cast": [8, 0], "votes_correct": [5, 0], "tall_ticket_none": [1, 0],
    })
    ctx = Ctx({"tale_table": pin_stats.tale_table(records, RNG)})
    pin_pages._tales_page(ctx)
    assert _column(drawn, "bluff rate (share of tales that are tall)") == ["2 of 4"]
    assert _column(drawn, "tall tale, caught (tales per game; share of tales)")[0].endswith("; 1 of 4")
    assert _column(drawn, "trusted tall tales with no Ticket left (per game; share)")[0].endswith("; 1 of 1")
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)
