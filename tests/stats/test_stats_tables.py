"""Seat balance, Ludii metrics, comparisons and the Pinocchio tables on small records worked out by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.games.pinocchio import score_breakdown
from trustme_analysis.games.pinocchio.analysis import stats as ps
from trustme_analysis.stats.balance import (
    decisiveness,
    drama,
    equal_seats_test,
    games_table,
    lead_change_rate,
    lead_changes,
    ludii_metrics,
    seat_win_rates,
    sole_leaders,
)
from trustme_analysis.stats.compare import GameMetric, biggest_changes, compare_to_baseline
from trustme_analysis.games.pinocchio.analysis.records import records_from_snapshot


@pytest.fixture
def hand_records(game_a, game_b):
    rows = []
    for index, snap in enumerate((game_a, game_b)):
        for seat, row in enumerate(records_from_snapshot(snap, (1, 3, 6), score_breakdown)):
            rows.append({"variant": "v00", "game_index": index, "seat": seat, **row})
    return pd.DataFrame(rows)


def test_trace_metrics_by_hand():
    trace = np.array([[0, 1, 1, 0, 0], [0, 0, 1, 2, 2]])
    assert sole_leaders(trace).tolist() == [-1, 0, -1, 1, 1]
    assert lead_changes(trace) == 1  # seat 0 leads, a tie, then seat 1: one change
    assert lead_change_rate(trace) == pytest.approx(1 / 4)
    assert drama(trace, 1) == pytest.approx(1 / 2)  # 1 point behind at most, final score 2
    assert decisiveness(trace, 1) == pytest.approx(2 / 5)  # sole leader for good from the 4th of 5 turns
    assert lead_changes(np.array([[1, 0, 1], [0, 0, 0]])) == 0  # A, tie, A: no change
    assert decisiveness(np.array([[0, 2], [0, 2]]), 0) == 0.0  # tied at the end: decided by a tie-break
    assert drama(np.array([[3, 3], [0, 1]]), 0) == 0.0


def test_a_tie_counts_a_win_for_each_tied_seat_and_the_fair_share_with_it():
    # 10 two-player games: seat 0 wins 4 alone, seat 1 wins 4 alone, 2 are ties (both seats win). Both seats win
    # 6 of 10, the fair share is 12 wins / 10 games / 2 seats = 60%, not 50%: no seat wins more than its share.
    outcome = ["0"] * 4 + ["1"] * 4 + ["tie"] * 2
    rows = [{"variant": "v00", "game_index": g, "seat": s, "win": o == "tie" or o == str(s)}
            for g, o in enumerate(outcome) for s in range(2)]
    rates = seat_win_rates(pd.DataFrame(rows))
    assert rates["win_rate"].tolist() == pytest.approx([0.6, 0.6])
    assert rates["fair"].tolist() == pytest.approx([0.6, 0.6])
    assert equal_seats_test(pd.DataFrame(rows)).iloc[0]["first_seat_advantage"] == pytest.approx(0.0)


def test_seat_win_rates_and_chi_square_by_hand():
    wins = [30, 20, 10]
    rows = [{"variant": "v00", "game_index": g, "seat": s, "win": s == w}
            for g, w in enumerate(np.repeat([0, 1, 2], wins)) for s in range(3)]
    records = pd.DataFrame(rows)
    rates = seat_win_rates(records)
    assert rates["wins"].tolist() == wins
    assert rates["win_rate"].tolist() == pytest.approx([0.5, 1 / 3, 1 / 6])
    assert rates["fair"].tolist() == pytest.approx([1 / 3] * 3)
    test = equal_seats_test(records).iloc[0]
    # Expected 20 wins per seat: (100 + 0 + 100) / 20 = 10 with 2 degrees of freedom, p = exp(-5).
    assert test["chi2"] == pytest.approx(10.0)
    assert test["dof"] == 2
    assert test["p_value"] == pytest.approx(math.exp(-5))
    assert test["first_seat_advantage"] == pytest.approx(0.5 - 1 / 3)
    metrics = ludii_metrics(records, np.random.default_rng(0)).set_index("metric")
    assert metrics.loc["Balance", "value"] == pytest.approx(1 - (0.5 - 1 / 6))
    assert metrics.loc["AdvantageP1", "value"] == pytest.approx(0.5)
    assert metrics.loc["Balance", "low"] <= metrics.loc["Balance", "value"] <= metrics.loc["Balance", "high"]


def test_ludii_metrics_of_hand_made_games(hand_records):
    games = games_table(hand_records)
    assert games["winner"].tolist() == [0, 1]
    # Game A: seat 0 leads from turn 1 on; game B: seat 1 leads only in the second of two turns.
    assert games["lead_changes"].tolist() == [0, 0]
    assert games["decisiveness"].tolist() == pytest.approx([1.0, 0.5])
    assert games["drama"].tolist() == [0.0, 0.0]
    m = ludii_metrics(hand_records, np.random.default_rng(0)).set_index("metric")["value"]
    assert m["Balance"] == 1.0 and m["AdvantageP1"] == 0.5
    assert m["Completion"] == 1.0 and m["Drawishness"] == 0.0
    assert m["Duration"] == pytest.approx(3.5)
    assert m["Decisiveness"] == pytest.approx(0.75)


def test_pinocchio_tables_of_hand_made_games(hand_records):
    rng = np.random.default_rng(0)
    games = ps.games(hand_records, games_table(hand_records))
    assert games["mean_score"].tolist() == [4.0, 2.0]
    assert games["winner_score"].tolist() == [6, 4]
    assert games["set_bonus_share"].tolist() == pytest.approx([4 / 8, 1 / 4])
    assert games["end_by_stacks"].tolist() == [1.0, 0.0]
    # Two players: a win is +1/2 over the fair rate, a loss -1/2.
    assert games["seat0_advantage"].tolist() == [0.5, -0.5]
    assert games["last_seat_advantage"].tolist() == [-0.5, 0.5]

    summary = ps.score_summary(hand_records, games).iloc[0]
    assert summary["score_mean"] == 3.0 and summary["winner_score_mean"] == 5.0
    assert (summary["margin_mean"], summary["margin_low"], summary["margin_high"]) == (4.0, 4.0, 4.0)

    shares = ps.chart_shares(hand_records, rng).set_index("group")
    assert shares.loc["all seats", "set_bonus_share"] == pytest.approx(5 / 12)  # (3 + 1 + 1) of (6 + 2 + 4)
    assert shares.loc["winners", "set_bonus_share"] == pytest.approx(4 / 10)  # (3 + 1) of (6 + 4)
    assert shares.loc["all seats", "ticket_face_share"] == pytest.approx(7 / 12)

    dist = ps.different_values(hand_records).set_index("k")
    assert dist["share"].tolist() == pytest.approx([1 / 4, 2 / 4, 1 / 4, 0])
    assert dist["reached"].tolist() == pytest.approx([1, 3 / 4, 1 / 4, 0])
    assert dist.loc[1, "win_rate"] == pytest.approx(1 / 2)  # seat 1 of A lost, seat 1 of B won
    assert dist["step_points"].tolist() == [0, 1, 2, 3]

    tv = ps.ticket_values(hand_records, rng).set_index("value")
    assert tv["per_game"].tolist() == pytest.approx([1.0, 0.5, 0.5])
    assert tv["winner_share"].tolist() == pytest.approx([0.5, 1.0, 1.0])
    assert tv["tale_share"].tolist() == pytest.approx([1.0, 0.0, 0.0])
    assert tv["reputation_share"].tolist() == pytest.approx([0.0, 1.0, 1.0])
    assert tv["stack_out"].tolist() == pytest.approx([0.5, 0.5, 0.5])
    assert tv["stack_out_turn_median"].tolist() == [5.0, 4.0, 2.0]
    assert tv["end_trigger_share"].tolist() == [1.0, 0.0, 0.0]  # only game A ended by the stacks, on stack 1

    tall = ps.tall_tale_tickets(hand_records, rng).iloc[0]
    assert (tall["tall_trusted"], tall["lower_share"], tall["none_share"]) == (2, 0.5, 0.0)

    length = ps.game_length(games).iloc[0]
    assert (length["turns_mean"], length["end_deck"], length["end_stacks"]) == (3.5, 0.5, 0.5)
    # Neither game reached the night; game A had one bonus turn, no Coin was tossed.
    assert (length["reached_night"], length["bonus_turns_mean"], length["coin_tosses_mean"]) == (0.0, 0.5, 0.0)

    tales = ps.tale_table(hand_records, rng).set_index("row")
    assert tales.loc["tall_trusted", "share"] == pytest.approx(2 / 3)
    assert tales.loc["true_distrusted", "share"] == pytest.approx(1 / 3)
    assert tales.loc["true_trusted", "count"] == 0
    assert tales.loc["tall", "share"] == pytest.approx(2 / 3)
    assert tales.loc["trusted|tall", "share"] == 1.0 and tales.loc["trusted|true", "share"] == 0.0
    assert (tales.loc["votes_correct", "count"], tales.loc["votes_correct", "out_of"]) == (0, 3)
    assert tales.loc["tall_trusted", "per_game"] == pytest.approx(1.0)
    # Neither trusted tall tale went without a Ticket; mark one as having found no stack left (tall_tale_no_ticket).
    assert (tales.loc["no_ticket|tall_trusted", "count"], tales.loc["no_ticket|tall_trusted", "out_of"]) == (0, 2)
    marked = hand_records.copy()
    teller = marked.index[marked["row_tall_trusted"] > 0][0]
    marked.loc[teller, "tall_ticket_none"] = 1
    none = ps.tale_table(marked, rng).set_index("row").loc["no_ticket|tall_trusted"]
    assert (none["count"], none["share"], none["per_game"]) == (1, 0.5, pytest.approx(0.5))


def test_compare_to_baseline_with_holm():
    rates = np.r_[np.ones(48), np.zeros(32)], np.r_[np.ones(56), np.zeros(14)]
    means = np.resize([1.0, 2, 3, 4], 80), np.resize([2.0, 3, 4, 5, 6], 70)
    games = pd.DataFrame({
        "variant": ["v00"] * 80 + ["v01"] * 70,
        "won": np.r_[rates[0], rates[1]],
        "turns": np.r_[means[0], means[1]],
    })
    metrics = [GameMetric("won", "won", "rate", "share"), GameMetric("turns", "turns", "mean", "turns"),
               GameMetric("absent", "nope", "mean")]
    comp = compare_to_baseline(games, metrics, "v00").set_index("metric")
    assert list(comp.index) == ["won", "turns"]
    assert comp.loc["won", "difference"] == pytest.approx(0.2)
    assert comp.loc["won", "low"] == pytest.approx(0.0524, abs=1e-4)  # Newcombe's published example
    assert comp.loc["turns", "difference"] == pytest.approx(4.0 - 2.5)
    p = comp["p_value"].to_numpy()
    # Two tests: the smaller p-value doubles, the larger is kept (or raised to the first).
    order = np.argsort(p)
    assert comp["p_holm"].to_numpy()[order[0]] == pytest.approx(min(1, 2 * p[order[0]]))
    assert comp["p_holm"].to_numpy()[order[1]] == pytest.approx(max(p[order[1]], min(1, 2 * p[order[0]])))
    assert bool(comp.loc["turns", "significant"])
    top = biggest_changes(comp.reset_index(), limit=1)
    assert len(top) == 1 and bool(top.loc[0, "significant"])
    with pytest.raises(ValueError, match="baseline='v09'"):
        compare_to_baseline(games, metrics, "v09")
    with pytest.raises(ValueError, match="kind='median'"):
        GameMetric("x", "x", "median")


def test_compare_to_baseline_pairs_games_by_index_and_keeps_the_unpaired_interval():
    rng = np.random.default_rng(3)
    # Game i of both variants shares most of its noise (the same deal): the variant adds 1 turn and a little noise.
    shared = rng.normal(40.0, 8.0, 200)
    won = rng.random(200) < 0.4
    games = pd.DataFrame({
        "variant": ["v00"] * 200 + ["v01"] * 200,
        "game_index": np.r_[np.arange(200), np.arange(200)],
        "turns": np.r_[shared, shared + 1.0 + rng.normal(0.0, 0.5, 200)],
        # The variant flips the winner in 10 games of 200 (5 each way): the paired change is exactly 0.
        "won": np.r_[won, won ^ np.isin(np.arange(200), np.r_[np.flatnonzero(won)[:5], np.flatnonzero(~won)[:5]])]
        .astype(float),
    })
    metrics = [GameMetric("turns", "turns", "mean", "turns"), GameMetric("won", "won", "rate", "share")]
    comp = compare_to_baseline(games, metrics, "v00").set_index("metric")
    turns, won_row = comp.loc["turns"], comp.loc["won"]
    assert bool(turns["paired"]) and turns["pairs"] == 200
    paired_width = turns["high"] - turns["low"]
    unpaired_width = turns["unpaired_high"] - turns["unpaired_low"]
    assert paired_width < unpaired_width / 10
    assert turns["low"] > 0.8 and turns["high"] < 1.2 and bool(turns["significant"])
    assert turns["unpaired_p"] > 0.05  # the same change, unpaired, is lost in the noise of the deals
    assert won_row["difference"] == 0.0
    assert won_row["high"] - won_row["low"] < (won_row["unpaired_high"] - won_row["unpaired_low"]) / 2
    # Without a game index (or with several rows per game) the comparison is the unpaired one.
    plain = compare_to_baseline(games.drop(columns="game_index"), metrics, "v00").set_index("metric")
    assert not plain["paired"].any()
    assert plain.loc["turns", "low"] == pytest.approx(turns["unpaired_low"])


def test_no_evidence_of_a_seat_effect_names_the_edge_its_games_could_see():
    """Silence is not balance: the test of equal seats states the smallest seat edge its games detect 80% of the
    time (one seat above its fair share, the others below it equally), and the report's verdict says it."""
    from trustme_analysis.report.generic import _verdict
    from trustme_analysis.stats.balance import detectable_seat_edge

    # 100 two-player games see only an edge of 14 points; four times the games halve it.
    assert detectable_seat_edge(100, 2) == pytest.approx(0.140, abs=5e-4)
    assert detectable_seat_edge(400, 2) == pytest.approx(0.070, abs=5e-4)
    # The power is what it claims: simulated chi-square tests at that edge reject about 80% of the time.
    rng = np.random.default_rng(3)
    edge = detectable_seat_edge(300, 3)
    wins = rng.multinomial(300, [1 / 3 + edge, 1 / 3 - edge / 2, 1 / 3 - edge / 2], size=4000)
    expected = wins.sum(axis=1, keepdims=True) / 3
    chi2 = ((wins - expected) ** 2 / expected).sum(axis=1)
    assert np.mean(chi2 > 5.991) == pytest.approx(0.80, abs=0.03)
    assert _verdict(0.42, detectable_seat_edge(100, 2)) == (
        "no evidence of a seat effect; these games see only a seat edge of 14 points or more (80% power)")
    assert _verdict(0.01, 0.14) == "some seat wins more often (Holm p < 5%)"
