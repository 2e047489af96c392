"""The report builds from stored records alone and holds the expected pages (text read back with pypdf)."""

import json
import re

import numpy as np
import pandas as pd
import pyspiel
from pypdf import PdfReader

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.report import build_report
from trustme_analysis.report.__main__ import main
from trustme_analysis.games.pinocchio.analysis.records import records
from trustme_analysis.outdir import chunk_path, manifest_path

QUESTION = "Does the first seat win too often with two or three players?"
VARIANTS = {
    "v00": "trustme_pinocchio(players=2,values=4,copies=4,stacks=3/2/2/1,chart=1/3/6/10,runouts_to_end=1)",
    "v01": "trustme_pinocchio(players=3,values=4,copies=4,stacks=3/2/2/1,chart=1/3/6/10,runouts_to_end=1)",
}
GAMES = 12


def _play(game, rng):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def write_sweep(outdir, variants, baseline="v00"):
    """A small stored sweep in the runner's layout: random players, one chunk per variant, and a manifest."""
    entries, assumptions = [], {}
    for vid, game_string in variants.items():
        game = pyspiel.load_game(game_string)
        rng = np.random.default_rng(int(vid[1:]))
        rows = []
        for g in range(GAMES):
            state = _play(game, rng)
            for seat, row in enumerate(records(game, state)):
                rows.append({"variant": vid, "game_string": str(game), "lineup": "random", "chunk": 0,
                             "game_index": g, "game_seed": g, "seat": seat, "bot": "random", "bot_knobs": "{}",
                             **row})
        path = chunk_path(outdir, vid, 0)
        path.parent.mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).to_parquet(path)
        entries.append({"id": vid, "label": f"players={game.num_players()}, lineup=random", "game_string": str(game),
                        "params": {"players": game.num_players()}, "grid": {"players": game.num_players()},
                        "lineup": "random", "seats": [{"bot": "random", "knobs": {}}] * game.num_players()})
        assumptions[vid] = game.assumptions()
    manifest = {
        "title": "Report test sweep", "question": QUESTION, "game": "trustme_pinocchio", "spec": {},
        "spec_path": None, "seed": 11, "games_per_variant": GAMES, "chunk_size": GAMES, "baseline": baseline,
        "variants": entries, "assumptions": assumptions,
        "versions": {"trustme_analysis": trustme_analysis.__version__, "python": "3"},
        "timing": {"started": "2026-01-01T00:00:00", "finished": "2026-01-01T00:00:01", "seconds": 1.0,
                   "games": GAMES * len(variants), "games_per_second": 24.0, "workers": 1, "backend": "local"},
        "complete": True,
    }
    manifest_path(outdir).write_text(json.dumps(manifest), encoding="utf-8")
    return manifest


def _pages(pdf):
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def test_report_from_stored_records_has_the_expected_pages_and_tables(tmp_path, capsys):
    # One test builds one report: under pytest-xdist a shared fixture would be built again on every worker.
    manifest = write_sweep(tmp_path, VARIANTS)
    assert main([str(tmp_path)]) == 0  # python -m trustme_analysis.report OUTDIR
    pdf = tmp_path / "report.pdf"
    assert f"report: {pdf}" in capsys.readouterr().out
    pages = _pages(pdf)

    titles = [
        "Report test sweep",
        "Contents",
        "What changed most: the rules, under the same line-up",
        "Seat balance: win rate per seat",
        "Balance metrics (after Ludii)",
        "Scores",
        "Score over the game",
        "Scoring chart: Ticket face value vs set bonus",
        "Ticket values: how often taken, by whom, and when stacks run out",
        "Ticket routes and tall-tale Tickets",
        "Game length and what ends the game",
        "Tales: bluffing and trust per row of the tale table",
        "The rules, one at a time: differences",
        "The rules, one at a time: all comparisons",
        "Report test sweep: what was run",
        "Glossary",
    ]
    # pypdf returns a page's text in drawing order, so look for each title anywhere on a page.
    first_page = [next((i for i, p in enumerate(pages) if t in p and (t == "Contents" or not p.startswith("Contents"))),
                       None) for t in titles]
    assert None not in first_page, dict(zip(titles, first_page))
    assert first_page == sorted(first_page)
    assert all(f"page {i + 1} of {len(pages)}" in p for i, p in enumerate(pages))

    assert QUESTION in pages[0]
    front = " ".join(p for p in pages if "Report test sweep: what was run" in p[:60])
    assert "Master seed: 11" in front and f"Games played: {2 * GAMES}" in front
    assert "v00 (baseline): 2 players, line-up random" in front and "v01: 3 players, line-up random" in front
    assert f"trustme-analysis {trustme_analysis.__version__}" in front
    for item in manifest["assumptions"]["v00"]:
        # Parameters in words: "empty deck skip", "two player tie coin coin" ...
        assert f"- {item['parameter'].replace('_', ' ')} " in front
    assert "In all variants:" in front
    # Only the 2-player variant reads the rule texts' two-player Coin sentences; it is listed apart, once.
    assert "In variants v00 also:" in front and front.count("two player tie coin") == 1
    summary = next(p for p in pages[2:] if "What changed most: the rules, under the same line-up" in p)
    assert re.search(r"1 rule variant\(s\) were each compared with their reference on \d+ measures", summary)
    assert f"The baseline v00 (2 players) at a glance ({GAMES} games; 95% intervals): seat win rates" in summary

    stats = tmp_path / "stats"
    expected = {"seat_win_rates", "equal_seats_test", "ludii_metrics", "games", "comparisons", "score_summary",
                "chart_shares", "different_values", "ticket_values", "tall_tale_tickets", "game_length",
                "tale_table", "score_trace", "pinocchio_games"}
    assert expected <= {p.stem for p in stats.glob("*.csv")}
    rates = pd.read_csv(stats / "seat_win_rates.csv")
    assert len(rates) == 2 + 3
    assert rates.groupby("variant")["wins"].sum().tolist() == [GAMES, GAMES]
    comp = pd.read_csv(stats / "comparisons.csv")
    assert set(comp["variant"]) == {"v01"} and comp["p_holm"].ge(comp["p_value"] - 1e-12).all()
    # One line-up: every comparison moves the rules only, against the baseline.
    assert set(comp["factor"]) == {"rules"} and set(comp["reference"]) == {"v00"}


def test_single_variant_report_and_a_folder_without_sweep(tmp_path, capsys):
    out = tmp_path / "one"
    out.mkdir()
    write_sweep(out, {"v00": VARIANTS["v01"]})
    pages = _pages(build_report(out))
    summary = next(p for p in pages[2:] if "What changed most" in p and not p.startswith("Contents"))
    assert "Only one variant was played" in summary
    assert "The baseline v00 (3 players, line-up random) at a glance" in summary
    assert not any("one at a time" in p for p in pages)
    assert pd.read_csv(out / "stats" / "seat_win_rates.csv")["seat"].tolist() == [0, 1, 2]
    assert main([str(tmp_path / "empty")]) == 2
    assert "no sweep results here" in capsys.readouterr().err
