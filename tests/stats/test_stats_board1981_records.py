"""Records and statistics of Trust Me (1981): a hand-made game whose every column is worked out by hand, the
investing round alone likewise, and records of real engine games (random and heuristic bots) checked against the
engine's own snapshot.

Hand-made game (2 players, $10 and 10 shares each, wealth 20):
  turn 1: seat 0 looks under A.            turn 2: seat 1 claims B unseen.
  turn 3: seat 0 claims A (looked); draws Bamboozled and escapes.
  turn 4: seat 1 invests in B: seat 0 (had not looked) buys 5 ($5 to the reserve), seat 1 buys 10 of its own claim;
          B is Two Stacks: seat 0 +$30 (15 shares), seat 1 +$40 (20 shares); seat 1 takes the $5 reserve.
          Wealth: seat 0 35 + 15 = 50, seat 1 45 + 20 = 65.
  turn 5: seat 0 draws Challenge with a claim: invests in A: seat 1 divests all 20 (had not looked), seat 0 holds;
          A is You've Been Had!: seat 0 loses its 15 shares. Wealth: seat 0 35, seat 1 65.
  turn 6: seat 0 claims C unseen.
  turn 7: seat 1 draws Challenge, challenges seat 0, wins the roll-off, takes C and sends seat 0 away.
  turn 8: seat 0 looks under D at a Hot Tip. Two briefcases left.
"""

import numpy as np
import pandas as pd
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
import trustme_analysis.players  # noqa: F401  (registers the bots)
from trustme_analysis.players import make_bot
from trustme_analysis.games.board1981.analysis import records as B
from trustme_analysis.games.board1981.analysis import stats as bs
from trustme_analysis.players.play import play_game

ONE, TWO, EMPTY, HAD = B.PAYOFF_ROWS


def ev(kind, **kw):
    return {"kind": kind, **kw}


def hand_game():
    events = [
        ev("first_player", player=0),
        ev("turn", turn=1, player=0), ev("roll", player=0, roll=3), ev("move", player=0, space="a1"),
        ev("look", player=0, property="A"),
        ev("turn", turn=2, player=1), ev("roll", player=1, roll=2), ev("move", player=1, space="b1"),
        ev("claim_unseen", player=1, property="B"), ev("roll", player=1, roll=4), ev("move", player=1, space="w"),
        ev("turn", turn=3, player=0), ev("claim_looked", player=0, property="A"), ev("roll", player=0, roll=1),
        ev("card", player=0, card="Bamboozled"), ev("bamboozled", player=0, roll=5, escaped=True),
        ev("turn", turn=4, player=1), ev("roll", player=1, roll=3), ev("move", player=1, space="company"),
        ev("investing", claimant=1, property="B"),
        ev("invest", player=0, decision="buy 5", money_change=-5, shares_change=5),
        ev("invest", player=1, decision="buy 10", money_change=-10, shares_change=10),
        ev("reveal", claimant=1, property="B", card=TWO),
        ev("payoff", player=0, money=30, shares_change=0), ev("payoff", player=1, money=40, shares_change=0),
        ev("reserve_paid", player=1, amount=5),
        ev("turn", turn=5, player=0), ev("roll", player=0, roll=1),
        ev("card", player=0, card="Challenge Another Player"),
        ev("investing", claimant=0, property="A"),
        ev("invest", player=1, decision="divest all", money_change=20, shares_change=-20),
        ev("invest", player=0, decision="hold", money_change=0, shares_change=0),
        ev("reveal", claimant=0, property="A", card=HAD),
        ev("payoff", player=0, money=0, shares_change=-15),
        ev("reserve_paid", player=0, amount=0),
        ev("turn", turn=6, player=0), ev("roll", player=0, roll=2), ev("move", player=0, space="c1"),
        ev("claim_unseen", player=0, property="C"), ev("roll", player=0, roll=6), ev("move", player=0, space="w2"),
        ev("turn", turn=7, player=1), ev("roll", player=1, roll=1),
        ev("card", player=1, card="Challenge Another Player"), ev("challenge", challenger=1, defender=0),
        ev("roll_off", challenger=1, challenger_roll=5, defender=0, defender_roll=2),
        ev("claim_transfer", **{"from": 0, "to": 1, "property": "C"}),
        ev("send_wgc", by=1, player=0, space="wgc_1"),
        ev("turn", turn=8, player=0), ev("roll", player=0, roll=2), ev("move", player=0, space="tip"),
        ev("hot_tip", player=0, property="D"),
        ev("end", reason="two_cases_left"),
    ]
    return {
        "game": "trustme_1981", "phase": "over", "turn": 8, "money": [35, 65], "shares": [0, 0],
        "end": "two_cases_left", "events": events, "ranks": [2, 1],
        "wealth": [{"money": 35, "shares": 0, "total": 35}, {"money": 65, "shares": 0, "total": 65}],
    }


def test_hand_made_game_records_every_column():
    s0, s1 = B.records_from_snapshot(hand_game(), 10, 10)
    assert (s0["wealth"], s1["wealth"], s0["money"], s0["shares"]) == (35, 65, 35, 0)
    assert (s0["rank"], s1["rank"], s0["win"], s1["win"], s1["winner"], s1["margin"]) == (2, 1, False, True, 1, 30)
    assert (s0["turns"], s0["end_trigger"], s0["completed"], s0["top_shared"]) == (8, "two_cases_left", True, False)
    # Claims: seat 0 claimed A after looking (a known briefcase) and C unseen, then lost C; seat 1 took C.
    assert [s0[k] for k in ("claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost")] == [
        1, 1, 1, 0, 1]
    assert [s1[k] for k in ("claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost")] == [
        1, 0, 0, 1, 0]
    assert (s0["looks"], s0["hot_tips"], s0["peeks"]) == (1, 1, 0)
    # Investing: seat 0 bought 5 of B unseen; seat 1 divested 20 of A unseen and bought 10 of its own B.
    assert (s0["bought_unknown"], s0["decisions_unknown"], s0["bought_known"], s0["decisions_known"]) == (5, 1, 0, 0)
    assert (s0["bought_own"], s0["divested_own"]) == (0, 0)
    assert (s1["divested_unknown"], s1["decisions_unknown"], s1["bought_own"]) == (20, 1, 10)
    # Payoff rows: B (Two Stacks) gave seat 0 +30 unseen and seat 1 +40; A (Been Had) cost seat 0, who had looked, 15.
    assert s0["gain_per_row"] == [0, 30, 0, -15]
    assert s0["gain_known_per_row"] == [0, 0, 0, -15] and s0["gain_unknown_per_row"] == [0, 30, 0, 0]
    assert s1["gain_per_row"] == [0, 40, 0, 0] and s1["gain_unknown_per_row"] == [0, 40, 0, 0]
    assert s0["reveals_known_per_row"] == [0, 0, 0, 1] and s1["reveals_known_per_row"] == [0, 0, 0, 0]
    assert s0["reveals_per_row"] == s1["reveals_per_row"] == [0, 1, 0, 1]
    assert (s0["claimant_rounds"], s0["claimant_rounds_per_row"], s0["reserve_received"]) == (1, [0, 0, 0, 1], 0)
    assert (s1["claimant_rounds"], s1["reserve_per_row"], s1["reserve_received"]) == (1, [0, 5, 0, 0], 5)
    # Cards, sends and the challenge.
    assert (s0["cards_bamboozled"], s0["bamboozled_escaped"], s0["cards_challenge"], s0["cards_move"]) == (1, 1, 1, 0)
    assert (s1["cards_challenge"], s1["challenges_made"], s1["challenges_won"], s1["challenges_lost"]) == (1, 1, 1, 0)
    assert (s0["defences_lost"], s0["defences_won"]) == (1, 0)
    assert (s1["wgc_sent"], s0["wgc_received"], s0["wgc_sent"]) == (1, 1, 0)
    # Wealth after each turn (sampled when the next turn begins, and at the end).
    assert s0["score_trace"] == [20, 20, 20, 50, 35, 35, 35, 35]
    assert s1["score_trace"] == [20, 20, 20, 65, 65, 65, 65, 65]


def test_records_refuse_unfinished_games_and_events_that_disagree():
    snap = hand_game()
    with pytest.raises(ValueError, match="terminal"):
        B.records_from_snapshot({**snap, "phase": "roll"}, 10, 10)
    wrong = {**snap, "wealth": [{"money": 36, "shares": 0, "total": 36}, snap["wealth"][1]]}
    with pytest.raises(ValueError, match="rebuilt from the events"):
        B.records_from_snapshot(wrong, 10, 10)
    with pytest.raises(ValueError, match="not a Payoff card"):
        B.row_of("Three Stacks")


def hand_round():
    """3 players, seat 0 claims; seat 1 (looked) buys 5, seat 2 divests all, seat 0 buys 1 of its own; One Stack.

    Seat 1: $5 + 15 shares, +$15 -> 35 (change +15). Seat 2: $20, 0 shares -> 20 (0). Seat 0: $9 + 11 shares,
    +$11 and the $5 reserve -> 25 + 11 = 36 (+16, of which 11 from the payoff).
    """
    return {
        "game": "trustme_1981_investment", "phase": "over", "claimant": 0, "card": ONE, "seen": [False, True, False],
        "money": [25, 20, 20], "shares": [11, 15, 0], "reserve": 0,
        "events": [{"kind": "invest", "player": 1, "decision": "buy 5"},
                   {"kind": "invest", "player": 2, "decision": "divest all"},
                   {"kind": "invest", "player": 0, "decision": "buy 1"},
                   {"kind": "reveal", "card": ONE}],
        "wealth": [{"money": 25, "shares": 11, "total": 36}, {"money": 20, "shares": 15, "total": 35},
                   {"money": 20, "shares": 0, "total": 20}],
        "ranks": [1, 2, 3],
    }


def test_hand_made_investing_round():
    c, i1, i2 = B.investment_records_from_snapshot(hand_round(), (10, 10, 10), (10, 10, 10))
    assert (c["claimant"], c["row"], c["bought"], c["reserve_received"], c["payoff_gain"]) == (True, 0, 1, 5, 11)
    assert (c["wealth_change"], c["win"], c["winner"], c["margin"]) == (16, True, 0, 1)
    assert (i1["seen"], i1["bought"], i1["divested"], i1["wealth_change"], i1["payoff_gain"]) == (True, 5, 0, 15, 15)
    assert (i2["seen"], i2["bought"], i2["divested"], i2["wealth_change"], i2["reserve_received"]) == (
        False, 0, 10, 0, 0)
    assert c["turns"] == 3 and i2["decision"] == "divest all"
    bad = hand_round()
    bad["events"][0]["decision"] = "sell 5"
    with pytest.raises(ValueError, match="not an investing decision"):
        B.investment_records_from_snapshot(bad, (10, 10, 10), (10, 10, 10))


def _frame(rows_per_game):
    rows = []
    for g, rows_ in enumerate(rows_per_game):
        for seat, r in enumerate(rows_):
            rows.append({"variant": "v00", "game_index": g, "seat": seat, **r})
    return pd.DataFrame(rows)


def test_statistics_of_hand_made_records():
    # Two copies of the hand-made game: every pooled share equals the one game's share, t intervals collapse.
    records = _frame([B.records_from_snapshot(hand_game(), 10, 10)] * 2)
    rng = np.random.default_rng(0)
    claims = bs.claims(records, rng).iloc[0]
    # 3 claims made by action (A looked, B and C unseen): 2/3 unseen, 1/3 of a briefcase the claimer had looked under.
    assert claims["unseen_share"] == pytest.approx(2 / 3) and claims["known_share"] == pytest.approx(1 / 3)
    assert (claims["unseen"], claims["taken"], claims["lost"]) == (2, 1, 1)
    inv = bs.investing(records, rng).set_index("knowledge")
    # Not looked: seat 0 bought 5 and seat 1 divested 20 in two decisions -> 2.5 bought, 10 divested per decision.
    assert inv.loc["not looked", "bought"] == pytest.approx(2.5)
    assert inv.loc["not looked", "divested"] == pytest.approx(10.0)
    assert inv.loc["own claim", "bought"] == pytest.approx(5.0)  # 10 shares over 2 own rounds
    assert np.isnan(inv.loc["looked", "bought"])  # no decision by an investor who had looked
    pay = bs.payoff_rows(records, rng).set_index("label")
    # Two Stacks: 2 seat-reveals, neither seat had looked: (30 + 40) / 2 = 35; reserve 5 per round.
    assert pay.loc["Two Stacks", "gain_unknown"] == pytest.approx(35.0)
    assert pay.loc["Two Stacks", "reserve"] == pytest.approx(5.0)
    # Been Had: seat 0 had looked and lost 15; seat 1 had not looked and held nothing (0).
    assert pay.loc["Been Had", "gain_known"] == pytest.approx(-15.0)
    assert pay.loc["Been Had", "gain_unknown"] == pytest.approx(0.0)
    assert pay.loc["Two Stacks", "share"] == pytest.approx(0.5) and pay.loc["One Stack", "reveals"] == 0
    events = bs.table_events(records, rng).iloc[0]
    assert (events["wgc_sent"], events["cards_challenge"], events["challenger_wins"], events["escaped"]) == (
        1, 2, 1.0, 1.0)
    games = bs.games(records)
    assert list(games["reserve_per_round"]) == [2.5, 2.5] and list(games["seat0_advantage"]) == [-0.5, -0.5]
    wealth = bs.wealth_summary(records, games, rng).iloc[0]
    assert wealth["wealth"] == pytest.approx(50.0) and wealth["money_share"] == pytest.approx(1.0)
    length = bs.game_length(games).iloc[0]
    assert (length["turns"], length["end_cases"], length["end_cap"]) == (8, 1.0, 0.0)


def test_statistics_of_the_investing_round():
    records = _frame([B.investment_records_from_snapshot(hand_round(), (10,) * 3, (10,) * 3)] * 2)
    by_row = bs.investment_by_row(records).set_index("role")
    assert by_row.loc["claimant, not looked", "change"] == pytest.approx(16.0)
    assert by_row.loc["investor, looked", "change"] == pytest.approx(15.0)
    assert by_row.loc["investor, not looked", "payoff"] == pytest.approx(0.0)
    know = bs.investment_by_knowledge(records).set_index("role")
    assert know.loc["investor, looked", "bought"] == pytest.approx(5.0)
    assert know.loc["investor, not looked", "divest_rate"] == pytest.approx(1.0)
    rounds = bs.investment_games(records)
    assert list(rounds["reserve"]) == [5, 5] and list(rounds["investor_change"]) == [7.5, 7.5]
    assert list(rounds["investor_bought"]) == [5, 5]


@pytest.mark.parametrize(
    "game_string, kind",
    [("trustme_1981(players=3,peek=True)", "heuristic"), ("trustme_1981(players=2)", "random"),
     ("trustme_1981(players=4,max_turns=30)", "random")],
)
def test_records_of_engine_games_agree_with_the_snapshot(game_string, kind):
    game = pyspiel.load_game(game_string)
    for i in range(3):
        bots = [make_bot(game, kind, p, np.random.default_rng([i, p])) for p in range(game.num_players())]
        state = play_game(game, bots, np.random.default_rng(i))
        snap = state.snapshot()
        rows = B.records(game, state)  # also checks money and shares rebuilt from the events
        events = snap["events"]
        count = lambda name: sum(1 for e in events if e["kind"] == name)  # noqa: E731
        assert sum(rows[0]["reveals_per_row"]) == count("reveal") == len(snap["cases_revealed"])
        assert sum(r["claimant_rounds"] for r in rows) == count("investing")
        assert sum(r["claims_unseen"] + r["claims_looked"] for r in rows) == count("claim_unseen") + count(
            "claim_looked")
        assert sum(r["cards_move"] + r["cards_bamboozled"] + r["cards_challenge"] for r in rows) == count("card")
        assert sum(r["challenges_won"] + r["challenges_lost"] for r in rows) == count("challenge")
        for p, r in enumerate(rows):
            assert r["wealth"] == snap["wealth"][p]["total"] == r["score_trace"][-1]
            assert len(r["score_trace"]) == snap["turn"]
            # A seat's wealth changes only at reveals: the payoffs of every row plus the reserve it took.
            assert r["wealth"] - r["start_wealth"] == sum(r["gain_per_row"]) + r["reserve_received"]
            assert r["gain_per_row"] == [a + b for a, b in zip(r["gain_known_per_row"], r["gain_unknown_per_row"])]
        assert rows[0]["end_trigger"] == snap["end"]


def test_records_of_engine_investing_rounds():
    game = pyspiel.load_game("trustme_1981_investment(players=3,seen=50)")
    for i in range(20):
        bots = [make_bot(game, "random", p, np.random.default_rng([i, p])) for p in range(3)]
        state = play_game(game, bots, np.random.default_rng(i))
        rows = B.investment_records(game, state)  # also checks the replay against the snapshot
        snap = state.snapshot()
        assert [r["wealth"] for r in rows] == [w["total"] for w in snap["wealth"]]
        assert [r["seen"] for r in rows] == snap["seen"]
        assert sum(r["reserve_received"] for r in rows) == sum(r["bought"] for r in rows if not r["claimant"])
        for r in rows:
            assert r["wealth_change"] == r["payoff_gain"] + r["reserve_received"]
