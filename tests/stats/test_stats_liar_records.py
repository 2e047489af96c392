"""Records and statistics of ``trustme_liar``: a hand-made game whose every column is worked out by hand, and
records of real engine games (random and heuristic bots, both modes) checked against the engine's snapshot.

Hand-made game (3 players, max_play 2, Trust Me mode). After the discards seat 0 holds 4 cards, seat 1 2, seat 2 1.
  1 seat 0 plays 2 as "1s", one false.  2 seat 1 passes.  3 seat 2 plays its last card as a 1 (false).
  4 seat 0 calls liar: caught; seat 2 picks up the pile of 3.  5 seat 2 plays one 4 as "4" (true).
  6-7 seats 0 and 1 pass.  8 seat 2 burns the pile (1 card).
  9 seat 0 plays its last 2 cards as "2s" (one false).  10 seat 1 calls liar: caught; seat 0 picks up 2.
  11 seat 0 plays its last 2 cards as "6s" (one false).  12-13 seats 1 and 2 pass: seat 0 is out.
Hands at the end: 0, 2, 2 -> ranks 1, 2.5, 2.5.
"""

import numpy as np
import pandas as pd
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
import trustme_analysis.players  # noqa: F401  (registers the bots)
from trustme_analysis.players import make_bot
from trustme_analysis.games.liar.analysis import records as L
from trustme_analysis.games.liar.analysis import stats as ls
from trustme_analysis.players.play import play_game


def play(p, announced, cards, false):
    return {"kind": "play", "player": p, "announced": announced, "count": len(cards), "cards": cards, "false": false}


def liar(accuser, p, cards, false, caught, picker, pile):
    return {"kind": "liar", "accuser": accuser, "player": p, "announced": 1, "cards": cards, "false": false,
            "caught": caught, "picked_up_by": picker, "pile_size": pile, "pile_cards": []}


def hand_game():
    events = [
        {"kind": "first_player", "player": 0},
        {"kind": "discard", "player": 1, "cards": [1, 1]}, {"kind": "discard", "player": 2, "cards": [3, 3]},
        play(0, 1, [1, 5], 1), {"kind": "pass", "player": 1}, play(2, 1, [4], 1),
        liar(0, 2, [4], 1, True, 2, 3), play(2, 4, [4], 0),
        {"kind": "pass", "player": 0}, {"kind": "pass", "player": 1}, {"kind": "burn", "player": 2, "pile_size": 1},
        play(0, 2, [2, 6], 1), liar(1, 0, [2, 6], 1, True, 0, 2), play(0, 6, [2, 6], 1),
        {"kind": "pass", "player": 1}, {"kind": "pass", "player": 2}, {"kind": "out", "player": 0},
    ]
    zero = {"going_out": 0, "cards_in_hand": 0, "false_cards": 0, "unmasked": 0, "wrongly_accused": 0}
    return {
        "game": "trustme_liar", "mode": "trustme", "players": 3, "phase": "over", "turns": 13, "first_player": 0,
        "dealt": [[1, 2, 5, 6], [1, 1, 2, 4], [3, 3, 4]], "discards": [[], [1, 1], [3, 3]],
        "hands": [[], [2, 4], [1, 5]], "cards_left": [0, 2, 2], "events": events, "end": "out", "out": [0],
        "ranks": [1.0, 2.5, 2.5],
        "points_by_source": [{**zero, "going_out": 10, "false_cards": 25, "unmasked": 10},
                             {**zero, "cards_in_hand": -2, "unmasked": 10}, {**zero, "cards_in_hand": -2}],
        "scores": [45, 8, -2],
    }


def test_hand_made_game_records_every_column():
    s0, s1, s2 = L.records_from_snapshot(hand_game(), 2)
    assert [s["start_hand"] for s in (s0, s1, s2)] == [4, 2, 1]
    assert [(s["first_player"], s["started"], s["turn_order"]) for s in (s0, s1, s2)] == [
        (0, True, 0), (0, False, 1), (0, False, 2)]
    assert (s0["rank"], s1["rank"], s0["win"], s1["win"], s0["winner"], s0["top_shared"]) == (
        1.0, 2.5, True, False, 0, False)
    assert (s0["went_out"], s1["went_out"], s0["end_trigger"], s0["completed"], s0["turns"]) == (
        True, False, "out", True, 13)
    assert [s["points"] for s in (s0, s1, s2)] == [45, 8, -2]
    assert (s0["points_going_out"], s1["points_cards_in_hand"], s0["points_rank"], s2["points_rank"]) == (
        10, -2, 1.0, 3.0)
    assert (s0["points_win"], s1["points_win"]) == (True, False)
    # Plays: seat 0 made three 2-card plays, each with one false card; seat 2 two 1-card plays, one false.
    assert (s0["plays"], s0["cards_played"], s0["false_cards_played"]) == (3, 6, 3)
    assert (s0["plays_by_size"], s0["bluffs_by_size"], s0["false_cards_by_size"]) == ([0, 3], [0, 3], [0, 3])
    assert (s2["plays_by_size"], s2["bluffs_by_size"], s2["false_cards_by_size"]) == ([2, 0], [1, 0], [1, 0])
    assert (s0["passes"], s1["passes"], s2["passes"]) == (1, 3, 1)
    assert (s0["calls"], s0["calls_won"], s1["calls"], s1["calls_won"], s2["calls"]) == (1, 1, 1, 1, 0)
    assert (s0["challenged"], s0["caught"], s0["challenged_bluffs"], s2["caught"]) == (1, 1, 1, 1)
    assert (s2["burns"], s2["burned_cards"], s0["burns"]) == (1, 1, 0)
    assert (s2["pickups"], s2["picked_up_cards"], s0["pickups"], s0["picked_up_cards"]) == (1, 3, 1, 2)
    # Last cards: seat 2 once (caught); seat 0 twice (caught, then held and out).
    assert (s2["last_cards_plays"], s2["last_cards_caught"], s2["last_cards_held"]) == (1, 1, 0)
    assert (s0["last_cards_plays"], s0["last_cards_caught"], s0["last_cards_held"]) == (2, 1, 1)
    # Cards shed after each of the 13 player turns.
    assert s0["score_trace"] == [2, 2, 2, 2, 2, 2, 2, 2, 4, 2, 4, 4, 4]
    assert s2["score_trace"] == [0, 0, 1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1]
    assert s1["score_trace"] == [0] * 13


def test_a_wrong_call_on_last_cards_lets_the_player_out():
    snap = hand_game()
    # Replace the final passes by a wrong call: seat 1 accuses the honest last play and picks up the pile.
    snap["events"][-4] = play(0, 6, [2, 6], 0)
    snap["events"][-3:] = [liar(1, 0, [2, 6], 0, False, 1, 2), {"kind": "out", "player": 0}]
    snap["cards_left"] = [0, 4, 2]
    snap["turns"] = 12
    s0, s1, _ = L.records_from_snapshot(snap, 2)
    assert (s0["last_cards_plays"], s0["last_cards_caught"], s0["last_cards_held"]) == (2, 1, 1)
    assert (s1["calls"], s1["calls_lost"], s1["pickups"], s1["picked_up_cards"]) == (2, 1, 1, 2)
    assert s0["challenged_bluffs"] == 1 and s0["challenged"] == 2


def test_last_cards_covered_by_another_play_are_held():
    """last_cards=until_covered: "Quand tu poses tes dernières cartes, les autres peuvent encore crier menteur. Si ça
    tient, tu es sorti" -- a play on top of the last cards ends their challenge window, so they held: the player went
    out on them (this once counted 0 held, in the records and in the kernel alike)."""
    game = pyspiel.load_game("trustme_liar(players=2,values=6,last_cards=until_covered,first_player=seat0)")
    state = game.new_initial_state()
    for action in game.deal_actions([[1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6], [1, 1, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6]]):
        state.apply_action(action)
    state.apply_action(game.play_action([2, 3, 5, 6], 2))  # seat 0's last cards
    state.apply_action(game.play_action([2], 2))  # seat 1 covers them
    assert state.is_terminal() and state.snapshot()["out"] == [0]
    rows = L.records(game, state)
    assert (rows[0]["last_cards_plays"], rows[0]["last_cards_caught"], rows[0]["last_cards_held"]) == (1, 0, 1)
    assert rows[1]["last_cards_held"] == 0
    from trustme_analysis.games.liar.kernel.kernel import Kernel

    kernel = Kernel(game)
    mirror = kernel.new_state()
    for action in state.history():
        mirror.apply_action(action)
    assert mirror.is_terminal() and mirror.rows() == L.records(game, state)
    recs = kernel.play(np.arange(400, dtype=np.uint64), histories=True)
    # Every kernel game that ended by a covering play: the covered player held its last cards.
    covered = 0
    for rows in recs.rows():
        out = [r for r in rows if r["went_out"]]
        if out and sum(r["last_cards_held"] for r in rows) == 1 and out[0]["last_cards_held"] == 1:
            covered += 1
        assert all(r["last_cards_held"] == int(r["went_out"] and r["end_trigger"] == "out"
                                                and r["last_cards_plays"] > 0) for r in rows)
    assert covered > 0


def test_records_refuse_unfinished_or_inconsistent_snapshots():
    snap = hand_game()
    with pytest.raises(ValueError, match="not over"):
        L.records_from_snapshot({k: v for k, v in snap.items() if k != "end"}, 2)
    with pytest.raises(ValueError, match="differ from the snapshot"):
        L.records_from_snapshot({**snap, "cards_left": [0, 2, 3]}, 2)
    with pytest.raises(ValueError, match="max_play=1"):
        L.records_from_snapshot(snap, 1)


def test_statistics_of_hand_made_records():
    rows = []
    for g in range(2):
        for seat, r in enumerate(L.records_from_snapshot(hand_game(), 2)):
            rows.append({"variant": "v00", "game_index": g, "seat": seat, **r})
    records = pd.DataFrame(rows)
    rng = np.random.default_rng(0)
    sizes = ls.claim_sizes(records, rng).set_index("size")
    # Size 1: 2 plays of 1 card, 1 false -> bluff rate 1/2; size 2: 3 plays of 2 cards, 3 false -> 3/6.
    assert sizes.loc[1, "bluff_rate"] == pytest.approx(0.5) and sizes.loc[2, "bluff_rate"] == pytest.approx(0.5)
    assert sizes.loc[2, "bluff_plays"] == pytest.approx(1.0) and sizes.loc[1, "share"] == pytest.approx(0.4)
    ch = ls.challenges(records, rng).iloc[0]
    # 2 calls on 5 plays, both caught; 2 of 4 bluffing plays challenged; the one honest play was not.
    assert ch["challenge_rate"] == pytest.approx(0.4) and ch["success"] == pytest.approx(1.0)
    assert ch["bluffs_challenged"] == pytest.approx(0.5) and ch["honest_challenged"] == pytest.approx(0.0)
    assert ch["last_caught"] == pytest.approx(2 / 3) and ch["last_held"] == pytest.approx(1 / 3)
    assert (ch["burns"], ch["cards_per_burn"], ch["pickups"], ch["cards_per_pickup"]) == (1, 1.0, 2, 2.5)
    src = ls.points_by_source(records).set_index("source")
    assert src.loc["unmasked", "all"] == pytest.approx(20 / 3)
    assert src.loc["going_out", "top"] == pytest.approx(10.0)
    assert src.loc["false_cards", "share_of_points"] == pytest.approx(25 / 51)
    rp = ls.ranks_points(records).set_index("seat")
    assert (rp.loc[1, "rank"], rp.loc[0, "went_out"], rp.loc[2, "points"]) == (2.5, 1.0, -2.0)
    games = ls.games(records)
    assert list(games["bluff_share"]) == [pytest.approx(4 / 8)] * 2
    assert list(games["first_player_advantage"]) == [pytest.approx(1 - 1 / 3)] * 2
    starter = ls.starter(records).set_index("turn_order")
    assert starter.loc[0, "win"] == 1.0 and starter.loc[1, "win"] == 0.0 and starter.loc[0, "fair"] == pytest.approx(1 / 3)
    assert starter.loc[0, "advantage"] == pytest.approx(2 / 3) and starter.loc[0, "games"] == 2
    assert starter.loc[0, "sentence"].startswith("The first player has the most points in 100% of games [")
    assert "against a fair 33%: +67 points" in starter.loc[0, "sentence"]
    length = ls.game_length(games).iloc[0]
    assert (length["turns"], length["end_out"], length["end_turn_cap"]) == (13, 1.0, 0.0)


@pytest.mark.parametrize(
    "game_string, kind",
    [("trustme_liar(players=3,mode=trustme)", "heuristic"), ("trustme_liar(players=4,values=8)", "random"),
     ("trustme_liar(players=2,values=6,max_turns=12)", "random")],
)
def test_records_of_engine_games_agree_with_the_snapshot(game_string, kind):
    game = pyspiel.load_game(game_string)
    for i in range(4):
        bots = [make_bot(game, kind, p, np.random.default_rng([i, p])) for p in range(game.num_players())]
        state = play_game(game, bots, np.random.default_rng(i))
        snap = state.snapshot()
        rows = L.records(game, state)  # also checks the hand sizes followed through the events
        events = snap["events"]
        count = lambda name: sum(1 for e in events if e["kind"] == name)  # noqa: E731
        assert sum(r["plays"] for r in rows) == count("play")
        assert sum(r["calls"] for r in rows) == sum(r["challenged"] for r in rows) == count("liar")
        assert sum(r["pickups"] for r in rows) == count("liar")
        assert sum(r["burns"] for r in rows) == count("burn")
        assert sum(r["last_cards_held"] for r in rows) == (1 if snap["end"] == "out" else 0)
        for p, r in enumerate(rows):
            assert r["rank"] == snap["ranks"][p] and r["cards_left"] == snap["cards_left"][p]
            assert len(r["score_trace"]) == snap["turns"]
            settled = r["last_cards_caught"] + r["last_cards_held"]
            # Only the turn cap can stop a game while a last-cards play is still open to a challenge.
            assert settled == r["last_cards_plays"] or (snap["end"] == "turn_cap" and settled == r[
                "last_cards_plays"] - 1)
            if snap["mode"] == "trustme":
                assert r["points"] == snap["scores"][p]
        assert rows[0]["end_trigger"] == snap["end"]
