"""The small-cell rule on the shares of games and of all plays or seats: a variant of fewer than MIN_CELL games (a
costly line-up's few) shows its games' shares on every game's pages as counts ("2 of 6"), from statistics computed on
a tiny sweep of each game (random players, no PDF)."""

from __future__ import annotations

import re

import pytest
from test_small_cells import RNG, Ctx, _column, _notes, drawn  # noqa: F401  (drawn: the fixture)

from trustme_analysis import results
from trustme_analysis.games.board1981.analysis import pages as board_pages
from trustme_analysis.games.liar.analysis import pages as liar_pages
from trustme_analysis.games.liar.analysis import stats as liar_stats
from trustme_analysis.games.pinocchio.analysis import pages as pin_pages
from trustme_analysis.report.words import MIN_CELL
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

COUNTS = re.compile(r"^\d+ of (\d+)$")


def _tables(tmp_path_factory, game: str, games: int) -> Ctx:
    out = tmp_path_factory.mktemp(f"{game}-{games}")
    spec = parse_spec({"game": game, "games": games, "seed": 4, "lineups": {"random": {"seats": ["random"]}}})
    run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    res = results.compute(out)
    return Ctx({name: res[name] for name in res})


@pytest.fixture(scope="module")
def few(tmp_path_factory):
    """Each game's results tables from 6 games per variant."""
    return {game: _tables(tmp_path_factory, game, 6) for game in ("trustme_pinocchio", "trustme_liar", "trustme_1981")}


def _all_counts_of(cells, n):
    return all(COUNTS.match(c) and int(COUNTS.match(c).group(1)) == n for c in cells)


def test_pinocchio_shares_of_few_games_and_seats_show_counts(few, drawn):
    ctx = few["trustme_pinocchio"]
    pin_pages._length_page(ctx)
    for header in ("ended by the deck [95%]", "ended by the stacks [95%]", "reached the night [95%]"):
        assert _all_counts_of(_column(drawn, header), 6), (header, _column(drawn, header))
    pin_pages._chart_page(ctx)
    # reach: a share of all the variant's seats (6 games x its players).
    seats = 6 * int((ctx["seat_win_rates"]["variant"] == "v00").sum())
    reach = [c for t in drawn for col in t.columns if col.endswith(" values") for c in t[col] if c]
    assert reach and all(re.search(rf"; \d+ of {seats} reach; ", c) for c in reach), reach
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)


def test_liar_shares_of_few_games_show_counts(few, drawn):
    ctx = few["trustme_liar"]
    liar_pages._starter_page(ctx)
    liar_pages._ranks_page(ctx)
    liar_pages._length_page(ctx)
    liar_pages._challenges_page(ctx)
    for header in ("first player wins [95%]", "went out first [95%]", "ended by a player going out [95%]",
                   "ended at the set-up [95%]", "ended by the turn cap [95%]"):
        cells = [c for c in _column(drawn, header) if c != "–"]
        assert cells and _all_counts_of(cells, 6), (header, cells)
    # The turn cap on the challenges page too (that table counts plays; the games come from the game length).
    capped = [t for t in drawn if "challenges per game [95%]" in t.columns][0]["ended by the turn cap [95%]"]
    assert _all_counts_of(list(capped), 6)
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)


def test_liar_share_of_few_plays_shows_counts(drawn):
    # Two games: 2 plays of one card, 1 play of two cards (3 plays in all).
    import pandas as pd

    records = pd.DataFrame({"variant": ["v00", "v00"], "game_index": [0, 1], "max_play": [2, 2],
                            "plays_by_size": [[1, 1], [1, 0]], "bluffs_by_size": [[1, 1], [0, 0]],
                            "false_cards_by_size": [[1, 1], [0, 0]]})
    ctx = Ctx({"claim_sizes": liar_stats.claim_sizes(records, RNG)})
    liar_pages._claims_page(ctx)
    assert _column(drawn, "share of plays [95%]") == ["2 of 3", "1 of 3"]


def test_board1981_shares_of_few_games_show_counts(few, drawn):
    ctx = few["trustme_1981"]
    board_pages._length_page(ctx)
    for header in ("ended with two briefcases left [95%]", "ended by the turn cap [95%]"):
        assert _all_counts_of(_column(drawn, header), 6), (header, _column(drawn, header))
    assert "fewer than 30 cases is shown as its counts" in _notes(ctx)


def test_shares_of_enough_games_stay_percentages(tmp_path_factory, drawn):
    ctx = _tables(tmp_path_factory, "trustme_pinocchio", MIN_CELL)
    pin_pages._length_page(ctx)
    cells = _column(drawn, "ended by the deck [95%]")
    assert all("%" in c and " of " not in c for c in cells), cells
    assert "shown as its counts" not in _notes(ctx)
