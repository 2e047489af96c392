"""trustme_liar strategy statistics on a hand-checkable variant (one bluff decision, one challenge decision).

The variant: two players, values 1 and 2 with one copy each, one card a play, a cap of two turns. Each player is
dealt one card (seat 0 holds 1 or 2 with chance 1/2). Seat 0 starts: it plays its card announcing its true value or
the other one (a bluff). That is its last card, so seat 1 may only call liar or pass. Passing lets seat 0 go out; a
call on an honest play also lets it go out (seat 1 picks the card up); a call on a bluff gives seat 0 its card back,
and the turn cap ends the game with one card each.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import cfr
from trustme_analysis.games.liar import LIAR, PASS
from trustme_analysis.games.liar.engine.variants import TINY_VARIANTS
from trustme_analysis.solve.profile import decision_points, infoset_nodes, replay
from trustme_analysis.solve.strategy import simple_strategies_for, strategy_stats_for
from trustme_analysis.games.liar.analysis.strategy import classify_play, compare_modes, strategy_stats

ONE_BLUFF = "trustme_liar(players=2,values=2,copies=1,max_play=1,max_turns=2,first_player=seat0{})"
BLUFF, CALL_HONEST = 1 / 4, 1 / 3


def _hand_policy(cg):
    """Seat 0 bluffs with chance 1/4; seat 1 calls a claim it knows is false, and an honest-looking one with 1/3."""
    game = cg.game
    policy = np.zeros(cg.num_slots)
    nodes = infoset_nodes(cg)
    states = replay(cg, [int(n[0]) for n in nodes])
    for i in range(cg.num_infosets):
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        actions = [int(a) for a in cg.slot_action[lo:hi]]
        view = states[int(nodes[i][0])].player_view(int(cg.infoset_player[i]))
        if view["phase"] == "start":
            policy[lo:hi] = [BLUFF if classify_play(game, a)[1] else 1 - BLUFF for a in actions]
        else:
            own = view["hand"][view["round_value"] - 1]
            call = 1.0 if own else CALL_HONEST  # holding the announced value's only copy: the claim is false
            policy[lo:hi] = [call if a == LIAR else 1 - call for a in actions]
    return policy


def _tables(mode=""):
    cg = cfr.compile_game(ONE_BLUFF.format(mode))
    return strategy_stats(cg.game, decision_points(cg, _hand_policy(cg)))


def test_bluff_and_challenge_tables_equal_hand_computed_values():
    tables = _tables()
    size = tables["bluff_by_claim_size"]
    assert size[["phase", "claim_size"]].values.tolist() == [["start", 1]]
    assert size[["play_reach", "bluff_share", "false_cards_per_play"]].iloc[0].tolist() == pytest.approx(
        [1.0, BLUFF, BLUFF])
    hand = tables["bluff_by_hand"]
    assert hand[["phase", "hand_size", "held_of_value"]].values.tolist() == [["start", 1, -1]]
    assert hand[["reach", "play_rate", "bluff_rate"]].iloc[0].tolist() == pytest.approx([1.0, 1.0, BLUFF])
    calls = tables["challenge_rate"].set_index("unseen")
    assert calls["phase"].unique().tolist() == ["last_cards"] and calls["public_count"].unique().tolist() == [1]
    # Seat 1 holds the announced value's only copy after a bluff: nothing unseen, always called.
    assert calls.loc[0, ["reach", "challenge_rate", "reach_bluff", "reach_honest"]].tolist() == pytest.approx(
        [BLUFF, 1.0, BLUFF, 0.0])
    assert calls.loc[1, ["reach", "challenge_rate", "reach_honest", "challenge_rate_honest"]].tolist() == (
        pytest.approx([1 - BLUFF, CALL_HONEST, 1 - BLUFF, CALL_HONEST]))
    summary = tables["summary"].iloc[0]
    assert summary["bluff_share_of_plays"] == pytest.approx(BLUFF)
    assert summary["challenge_rate"] == pytest.approx(BLUFF + (1 - BLUFF) * CALL_HONEST)


def test_seat_values_in_classique_and_trust_me():
    # Classique (rank): an honest play always goes out (+1); a called bluff ends level at the cap (0).
    classique = _tables()
    seats = classique["seat_value"].set_index("player")
    assert seats["value"].tolist() == pytest.approx([3 / 4, -3 / 4])
    assert seats["decision_reach"].tolist() == pytest.approx([1.0, 1.0])
    assert classique["summary"]["first_seat_advantage"].iloc[0] == pytest.approx(3 / 2)
    # Trust Me (point difference): honest and passed 10 - (-1) = 11 (chance 1/2); honest and called: out +10 and
    # wrongly accused +10 against seat 1's two cards, 20 - (-2) = 22 (1/4); bluff called: -1 against 10 - 1 = 9,
    # so -10 (1/4). Seat 0: 11/2 + 22/4 - 10/4 = 8.5.
    trustme = _tables(",mode=trustme")
    assert trustme["seat_value"]["value"].tolist() == pytest.approx([8.5, -8.5])
    both = compare_modes(classique, trustme).set_index("measure")
    assert both.loc["first_seat_value"].tolist() == pytest.approx([3 / 4, 8.5])
    assert both.loc["bluff_share_of_plays"].tolist() == pytest.approx([BLUFF, BLUFF])
    assert both.loc["utility"].tolist() == ["rank", "difference"]
    with pytest.raises(ValueError, match="Classique and a Trust Me"):
        compare_modes(trustme, classique)


def test_solved_tiny_preset_tables_are_consistent():
    result = cfr.solve(TINY_VARIANTS["tiny"], algorithm="dcfr", target_exploitability=0.02)
    tables = strategy_stats_for("trustme_liar")(result.compiled.game, decision_points(result.compiled, result.average))
    values = tables["seat_value"]["value"].to_numpy()
    assert values == pytest.approx(np.asarray(cfr.expected_values(result.compiled, result.average)), abs=1e-9)
    calls = tables["challenge_rate"]
    assert (calls["reach_honest"] + calls["reach_bluff"]).to_numpy() == pytest.approx(calls["reach"].to_numpy())
    # The starter plays at every first turn: the start rows cover at least the one first play per game.
    assert tables["bluff_by_hand"].query("phase == 'start'")["reach"].sum() >= 1.0 - 1e-9


def test_simple_strategies():
    game = pyspiel.load_game(ONE_BLUFF.format(""))
    rules = simple_strategies_for(game)
    assert set(rules) == {"always bluff", "never bluff", "always challenge", "never challenge"}
    state = game.new_initial_state()
    for a in game.deal_actions([[1], [2]]):
        state.apply_action(a)
    legal = state.legal_actions()
    assert rules["always bluff"](state, 0, legal) == [game.play_action([1], 2)]
    assert rules["never bluff"](state, 0, legal) == [game.play_action([1], 1)]
    assert rules["never challenge"](state, 0, legal) is None
    state.apply_action(game.play_action([1], 2))
    legal = state.legal_actions()
    assert rules["always challenge"](state, 1, legal) == [LIAR]
    assert rules["never challenge"](state, 1, legal) == [PASS]
    assert rules["always bluff"](state, 1, legal) is None


def test_seat_values_count_set_up_ends_and_match_the_solver():
    # Three players, values 1-2 in two copies, seat 0 first: the deal starts at its left, so seat 1 is dealt 2 of
    # the 4 cards, a pair (discarded, hand empty, game over at the set-up) with chance 2/6. Seat 2 may never act
    # before the cap ends the game: its value is NaN.
    result = cfr.solve("trustme_liar(players=3,values=2,copies=2,max_play=1,max_turns=4,first_player=seat0)",
                       algorithm="dcfr", iterations=30)
    tables = strategy_stats(result.compiled.game, decision_points(result.compiled, result.average))
    seats = tables["seat_value"]
    assert seats["setup_end"].tolist() == pytest.approx([1 / 3] * 3)
    expected = cfr.expected_values(result.compiled, result.average)
    assert seats["value"].iloc[:2].tolist() == pytest.approx(list(expected[:2]), abs=1e-9)
    assert seats["decision_reach"].iloc[2] < 2 / 3 and np.isnan(seats["value"].iloc[2])
    # Rank utility is zero-sum: the first seat's advantage over the others' mean is 3/2 of its value.
    assert tables["summary"]["first_seat_advantage"].iloc[0] == pytest.approx(1.5 * expected[0], abs=1e-9)
