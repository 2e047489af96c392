"""Scripted scenarios for the results of ``trustme_liar``: each Trust Me point source, the secret bluff points, the
Classique ranking with shared places, the turn cap and the utilities given to solvers.

Same deals as ``test_liar_rules.py``: with ``P0``/``P1`` both hands are {2, 3, 5, 6} after the pair discards; with
``THREE`` the hands are {4, 5}, {1, 2, 3, 4, 5, 6} and {1, 2, 3, 6}.
"""

import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from liar_table import T2, act, play, table
from trustme_analysis.games.liar import BURN, LIAR, PASS

THREE = [[1, 1, 2, 2, 3, 3, 4, 5], [1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 4, 5, 5, 6]]


def every_source_game(game_string):
    """Seat 0 is wrongly accused, has a lie covered, unmasks seat 1, then goes out on a partly false play."""
    game, state = table(game_string)
    play(game, state, [5], 5)
    act(state, LIAR)  # wrong accusation: +10 to seat 0; seat 1 picks up the 5
    play(game, state, [2], 5)  # a lie ...
    play(game, state, [3, 5, 5], 5)  # ... covered by seat 1: accepted, +25 to seat 0
    act(state, LIAR)  # seat 0 unmasks seat 1 (the 3): +10; seat 1 picks up 4 cards
    play(game, state, [3, 6], 3)  # seat 0's last cards, the 6 false
    act(state, PASS)  # it holds: seat 0 is out (+10) and the 6 is accepted (+25)
    return state


def test_each_trust_me_point_source():
    state = every_source_game(T2)
    snap = state.snapshot()
    assert snap["points_by_source"] == [
        {"going_out": 10, "cards_in_hand": 0, "false_cards": 50, "unmasked": 10, "wrongly_accused": 10},
        {"going_out": 0, "cards_in_hand": -6, "false_cards": 0, "unmasked": 0, "wrongly_accused": 0},
    ]
    assert (snap["scores"], snap["ranks"]) == ([80, -6], [1.0, 2.0])
    assert state.returns() == [80.0, -6.0]


def test_point_values_are_parameters():
    state = every_source_game(
        "trustme_liar(players=2,values=6,mode=trustme,utility=points,points_going_out=3,points_card_in_hand=-2,"
        "points_false_card=7,points_unmasked=5,points_wrongly_accused=4)"
    )
    assert state.snapshot()["scores"] == [3 + 2 * 7 + 5 + 4, -2 * 6]


def test_two_player_trust_me_utility_is_the_point_difference():
    game = pyspiel.load_game("trustme_liar(players=2,values=6,mode=trustme)")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = every_source_game("trustme_liar(players=2,values=6,mode=trustme)")
    assert state.returns() == [86.0, -86.0]


def test_a_burned_false_card_scores_for_its_player():
    game, state = table(T2)
    play(game, state, [2, 3, 5], 2)  # two false cards
    act(state, PASS)
    act(state, BURN)
    assert state.snapshot()["counts"]["false_cards"] == [2, 0]
    assert state.snapshot()["burned"] == [2, 3, 5]


def test_bluff_points_are_secret_until_the_end():
    game, state = table(T2)
    play(game, state, [2], 5)
    play(game, state, [5], 5)  # covers seat 0's lie
    assert "bluffs:1" in state.observation_string(0)
    assert "bluffs:0" in state.observation_string(1)
    assert "[2]" not in state.information_state_string(1)
    # The referee's snapshot sees it; the public observation does not.
    assert state.snapshot()["counts"]["false_cards"] == [1, 0]


@pytest.mark.parametrize("reading, seat0_false", [("covered", 1), ("round_end", 0)])
def test_when_a_false_card_counts_as_accepted(reading, seat0_false):
    game, state = table(f"trustme_liar(players=2,values=6,mode=trustme,false_card_accepted={reading})")
    play(game, state, [2], 5)  # a lie
    play(game, state, [5], 5)  # covered by a true card
    act(state, LIAR)  # seat 0 accuses wrongly and picks up the pile, its own lie included
    assert state.snapshot()["counts"]["false_cards"] == [seat0_false, 0]


@pytest.mark.parametrize("reading", ["covered", "round_end"])
def test_a_burned_round_scores_every_false_card_in_it_under_both_readings(reading):
    game, state = table(f"trustme_liar(players=2,values=6,mode=trustme,false_card_accepted={reading})")
    play(game, state, [2], 5)
    play(game, state, [3], 5)
    act(state, PASS)
    act(state, BURN)
    assert state.snapshot()["counts"]["false_cards"] == [1, 1]


def test_classique_first_out_wins_and_the_others_share_places_by_cards_left():
    game, state = table("trustme_liar(players=3,values=6)", THREE)
    play(game, state, [4], 4)
    play(game, state, [1, 2], 4)  # seat 1 down to four cards
    act(state, PASS)
    play(game, state, [5], 4)  # seat 0's last card
    act(state, PASS)
    act(state, PASS)
    snap = state.snapshot()
    assert (snap["end"], snap["out"], snap["cards_left"]) == ("out", [0], [0, 4, 4])
    assert snap["ranks"] == [1.0, 2.5, 2.5]
    assert snap["scores"] is None  # no points in Classique
    assert state.returns() == [1.0, -0.5, -0.5]


def test_classique_ranks_the_others_by_cards_left():
    game, state = table("trustme_liar(players=3,values=6)", THREE)
    play(game, state, [4, 5], 4)  # seat 0 goes out at once
    act(state, PASS)
    act(state, PASS)
    snap = state.snapshot()
    assert (snap["cards_left"], snap["ranks"]) == ([0, 6, 4], [1.0, 3.0, 2.0])
    assert state.returns() == [1.0, -1.0, 0.0]


def test_the_turn_cap_ends_a_game_as_it_stands():
    game, state = table("trustme_liar(players=2,values=6,mode=trustme,utility=points,max_turns=3)")
    play(game, state, [2], 2)
    act(state, PASS)
    play(game, state, [3], 2)  # the third turn: the cap
    snap = state.snapshot()
    assert state.is_terminal()
    assert (snap["end"], snap["out"], snap["events"][-1]) == ("turn_cap", [], {"kind": "turn_cap"})
    # The last play was never challenged: its false card counts; nobody gets the going-out points.
    assert snap["counts"]["false_cards"] == [1, 0]
    assert snap["scores"] == [25 - 2, -4]
    assert state.returns() == [23.0, -4.0]


def test_utility_bounds_hold_and_zero_sum_utilities_sum_to_zero():
    for game_string in ("trustme_liar(players=3,values=6)", "trustme_liar(players=3,values=6,mode=trustme)"):
        game = pyspiel.load_game(game_string)
        assert game.min_utility() <= -1 and game.max_utility() >= 1
    game = pyspiel.load_game("trustme_liar(players=3,values=6,mode=trustme,utility=difference)")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("trustme_liar(players=3,mode=trustme)").get_type().utility == (
        pyspiel.GameType.Utility.GENERAL_SUM
    )
