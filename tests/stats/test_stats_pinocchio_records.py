"""Pinocchio records from terminal snapshots: hand-made games checked field by field, and real games."""

import copy
import math

import numpy as np
import pandas as pd
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.pinocchio import score_breakdown
from trustme_analysis.games.pinocchio.analysis.records import records, records_from_snapshot, score_trace
from trustme_analysis.registry import game_entry

CHART = (1, 3, 6)


def test_records_of_hand_made_game(game_a):
    p0, p1 = records_from_snapshot(game_a, CHART, score_breakdown)
    assert (p0["score"], p0["score_ticket_face"], p0["score_set_bonus"]) == (6, 3, 3)
    assert (p1["score"], p1["score_ticket_face"], p1["score_set_bonus"]) == (2, 1, 1)
    assert p0["tickets_per_value"] == [1, 1, 0] and p1["tickets_per_value"] == [1, 0, 0]
    assert p0["tickets_tale_per_value"] == [1, 0, 0] and p0["tickets_reputation_per_value"] == [0, 1, 0]
    assert p1["tickets_tale_per_value"] == [1, 0, 0] and p1["tickets_reputation_per_value"] == [0, 0, 0]
    assert (p0["different_values"], p1["different_values"]) == (2, 1)
    assert (p0["rank"], p0["win"], p1["rank"], p1["win"]) == (1, True, 2, False)
    for r in (p0, p1):
        assert (r["winner"], r["turns"], r["end_trigger"], r["end_stack_value"]) == (0, 5, "stacks", 1)
        assert (r["days"], r["runouts"], r["ended_at_night"]) == (1, 0, False)
        assert r["stack_empty_turn"][:2] == [5.0, 4.0] and math.isnan(r["stack_empty_turn"][2])
        assert (r["completed"], r["top_shared"], r["tie_break"], r["margin"]) == (True, False, "", 4)
    # Tales as the teller: seat 0 told a trusted tall tale and a distrusted true one; seat 1 a trusted tall tale.
    assert (p0["tales_told"], p0["tales_true"], p0["tales_tall"], p0["tales_trusted"]) == (2, 1, 1, 1)
    assert (p0["row_tall_trusted"], p0["row_true_distrusted"], p0["row_true_trusted"]) == (1, 1, 0)
    assert (p1["tales_told"], p1["row_tall_trusted"]) == (1, 1)
    # Seat 1's tall tale asked for a 2 (stack empty) and got a 1.
    assert (p0["tall_ticket_lower"], p1["tall_ticket_lower"], p1["tall_ticket_none"]) == (0, 1, 0)
    # Votes: seat 1 trusted a tall tale and distrusted a true one (both wrong); seat 0 trusted a tall tale (wrong).
    assert (p0["votes_cast"], p0["votes_trust"], p0["votes_correct"]) == (1, 1, 0)
    assert (p1["votes_cast"], p1["votes_trust"], p1["votes_correct"]) == (2, 1, 0)
    assert (p0["bonus_turns"], p1["park_takes"], p0["park_takes"]) == (1, 1, 0)
    # Score after each of the 5 turns: seat 0 scores 1+1 after turn 1, 3+3 after turn 4; seat 1 1+1 after turn 5.
    assert p0["score_trace"] == [2, 2, 2, 6, 6]
    assert p1["score_trace"] == [0, 0, 0, 0, 2]


def test_records_need_a_terminal_and_consistent_snapshot(game_a):
    running = dict(game_a, scores=None, winner=None)
    with pytest.raises(ValueError, match="terminal"):
        records_from_snapshot(running, CHART, score_breakdown)
    broken = copy.deepcopy(game_a)
    broken["tickets"][1] = [0, 0, 1]
    with pytest.raises(ValueError, match="seat 1: Tickets from events"):
        records_from_snapshot(broken, CHART, score_breakdown)


def test_score_trace_counts_a_turn_per_turn_event(game_b):
    traces = score_trace(game_b["events"], 2, 3, CHART, score_breakdown)
    assert traces == [[0, 0], [0, 4]]
    assert score_trace([], 2, 3, CHART, score_breakdown) == [[], []]


def _play(game, seed):
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


@pytest.mark.parametrize(
    "game_string",
    [
        "trustme_pinocchio(players=2,values=3,copies=4,stacks=1/1/1,chart=1/3/6,runouts_to_end=1,stacks_to_end=2)",
        "trustme_pinocchio(players=3)",
        "trustme_pinocchio(players=4,coin_variant=True,voting=sequential)",
    ],
)
def test_records_of_real_games_agree_with_the_engine(game_string):
    game = pyspiel.load_game(game_string)
    registered_records = game_entry("trustme_pinocchio").part("records")
    for seed in range(3):
        state = _play(game, seed)
        snap = state.snapshot()
        rows = registered_records(game, state)
        assert rows == records(game, state)
        assert len(rows) == game.num_players()
        assert sum(r["win"] for r in rows) == 1
        for p, r in enumerate(rows):
            assert r["score"] == snap["scores"][p]["total"]
            assert r["score_trace"][-1] == r["score"]
            assert len(r["score_trace"]) == snap["turn"]
            # Scores only grow: Tickets are never lost.
            assert all(a <= b for a, b in zip(r["score_trace"], r["score_trace"][1:]))
            assert r["tickets"] == snap["scores"][p]["tickets"]
            assert r["score_ticket_face"] + r["score_set_bonus"] == r["score"]
        assert sum(r["tales_told"] for r in rows) == sum(1 for e in snap["events"] if e["kind"] == "tale")
        # Every value column stores as Parquet.
        pd.DataFrame(rows).to_parquet(pd.io.common.BytesIO())


def test_coins_votes_and_tie_break_of_a_hand_made_three_player_game():
    def tale(t, p, park, hidden, votes, coin, coin_by):
        tall = park != hidden
        return {"kind": "tale", "turn": t, "player": p, "park_value": park, "hidden_value": hidden, "tall": tall,
                "votes": votes, "coin": coin, "coin_by": coin_by, "trusted": True,
                "row": ("tall" if tall else "true") + "_trusted"}

    events = [
        {"kind": "turn", "turn": 1, "player": 0, "bonus": False, "day": "day"},
        # Split vote in a 3-player game: the Coin is tossed by chance (coin_by None) and lands kid side up.
        tale(1, 0, 2, 2, [None, True, False], "kid", None),
        {"kind": "turn", "turn": 2, "player": 1, "bonus": False, "day": "day"},
        # Both voters distrust the tall tale; seat 0 tosses its Coin and overturns the majority.
        tale(2, 1, 1, 2, [False, None, False], "kid", 0),
        {"kind": "ticket", "turn": 2, "player": 1, "value": 1, "requested": 1, "route": "tale"},
        {"kind": "turn", "turn": 3, "player": 2, "bonus": False, "day": "night"},
        {"kind": "ticket", "turn": 3, "player": 2, "value": 1, "requested": 1, "route": "reputation"},
        {"kind": "day_end", "turn": 3},
        {"kind": "game_end", "turn": 3, "trigger": "deck"},
        {"kind": "tie_break", "players": [1, 2], "by": "coin", "winner": 2},
    ]
    scores = [{"ticket_face": 0, "set_bonus": 0, "total": 0, "tickets": 0, "rank": 3},
              {"ticket_face": 1, "set_bonus": 1, "total": 2, "tickets": 1, "rank": 2},
              {"ticket_face": 1, "set_bonus": 1, "total": 2, "tickets": 1, "rank": 1}]
    snap = {"players": 3, "turn": 3, "day": "night", "runouts": 1, "stacks_left": [0, 1, 1],
            "tickets": [[0, 0, 0], [1, 0, 0], [1, 0, 0]], "scores": scores, "winner": 2, "end_trigger": "deck",
            "events": events}
    p0, p1, p2 = records_from_snapshot(snap, CHART, score_breakdown)
    assert (p0["coin_tosses"], p1["coin_tosses"], p2["coin_tosses"]) == (1, 0, 0)
    assert all(r["coin_chance_tosses"] == 1 for r in (p0, p1, p2))
    assert (p0["tales_coin"], p1["tales_coin"], p2["tales_coin"]) == (1, 1, 0)
    # Seat 1 trusted a true tale (right); seat 2 distrusted it (wrong) and the tall one (right); seat 0 the tall one.
    assert (p0["votes_cast"], p0["votes_correct"]) == (1, 1)
    assert (p1["votes_cast"], p1["votes_trust"], p1["votes_correct"]) == (1, 1, 1)
    assert (p2["votes_cast"], p2["votes_trust"], p2["votes_correct"]) == (2, 0, 1)
    assert (p2["win"], p2["rank"], p1["rank"]) == (True, 1, 2)
    for r in (p0, p1, p2):
        assert (r["top_shared"], r["tie_break"], r["margin"], r["days"], r["ended_at_night"]) == (
            True, "coin", 0, 2, True)
    assert p2["score_trace"] == [0, 0, 2] and p1["score_trace"] == [0, 2, 2]


def test_a_one_entry_chart_the_engine_accepts_gives_records_and_statistics():
    # chart=5/ is the game-string spelling of a one-entry chart; records and statistics read the engine's parsed chart.
    from trustme_analysis.games.pinocchio.analysis.stats import different_values
    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import play_game

    game = pyspiel.load_game("trustme_pinocchio(players=2,values=1,copies=8,stacks=3/,chart=5/,two_player_removed=0)")
    rng = np.random.default_rng(0)
    rows = []
    for g in range(3):
        state = play_game(game, [make_bot(game, "random", p, rng) for p in range(2)], rng)
        rows += [{**r, "variant": "v00", "game_index": g, "seat": s} for s, r in enumerate(records(game, state))]
    assert {r["chart"] for r in rows} == {"5"}
    table = different_values(pd.DataFrame(rows))
    assert list(table["k"]) == [0, 1] and table.loc[table["k"] == 1, "step_points"].iloc[0] == 5
