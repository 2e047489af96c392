"""Scripted scenarios for ``trustme_liar``: each rule sentence of text 004 played with exact deals and actions.

Most scenarios use the same two-player deal of a 24-card deck (values 1-6, four copies each), chosen so that the pair
discards show every case and both players keep the same four values:

- value 1: two cards each -> both pairs discarded (all four copies publicly gone);
- value 2: three with seat 0 (one stays), one with seat 1;
- values 3, 5, 6: one with seat 0, three with seat 1 (one stays);
- value 4: all four with seat 0 -> all discarded.

After the set-up both hands are {2, 3, 5, 6}.
"""


import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from liar_table import P0, P1, act, play, table
from trustme_analysis.games.liar import BURN, LIAR, PASS

G2 = "trustme_liar(players=2,values=6)"


def hands(state):
    return state.snapshot()["hands"]


# ---------------------------------------------------------------- set-up


def test_pairs_are_discarded_face_up_two_go_three_leave_one_four_all_go():
    _, state = table(G2)
    snap = state.snapshot()
    assert snap["dealt"] == [P0, P1]
    assert snap["discards"] == [[1, 1, 2, 2, 4, 4, 4, 4], [1, 1, 3, 3, 5, 5, 6, 6]]
    assert snap["hands"] == [[2, 3, 5, 6], [2, 3, 5, 6]]
    assert snap["events"][:3] == [
        {"kind": "first_player", "player": 0},
        {"kind": "discard", "player": 0, "cards": [1, 1, 2, 2, 4, 4, 4, 4]},
        {"kind": "discard", "player": 1, "cards": [1, 1, 3, 3, 5, 5, 6, 6]},
    ]
    assert (snap["phase"], snap["to_act"], snap["round_starter"]) == ("start", 0, 0)
    # The discards are public: seat 1's information state shows seat 0's discards, but not seat 0's hand.
    info1 = state.information_state_string(1)
    assert "D0[1,1,2,2,4,4,4,4]" in info1
    assert info1.startswith("p1 dealt:213033")


def test_the_whole_deck_is_dealt_from_the_first_players_left():
    """"Tout le paquet est distribué" (the whole deck is dealt). The text does not say who starts or where the deal
    begins: the deal goes round the table from the first player's left, so the seats after the first player get any
    extra card and the first player never does (the starter's advantage apart from a seat's)."""
    game = pyspiel.load_game("trustme_liar(players=3,values=5,copies=2,first_player=seat0)")
    assert game.rules.hand_sizes(0) == (3, 4, 3)
    assert game.rules.hand_sizes(2) == (4, 3, 3)
    six = pyspiel.load_game("trustme_liar(players=6,first_player=seat4)")
    # 52 cards between 6 players: the four seats after seat 4 get 9, seat 3 and seat 4 get 8.
    assert six.rules.hand_sizes(4) == (9, 9, 9, 8, 8, 9)
    state = six.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert [len(d) for d in state.snapshot()["dealt"]] == [9, 9, 9, 8, 8, 9]
    with pytest.raises(ValueError, match=r"hands must hold \(3, 4, 3\) cards per seat \(seat 0 starts\)"):
        game.deal_actions([[1, 1, 2, 2], [3, 3, 4], [4, 5, 5]])


def test_first_player_is_drawn_by_a_chance_node_or_fixed():
    """The text does not say who starts the first round ("Celui qui commence..."). first_player="random" (the
    default) draws the starter at a chance node before the deal, every seat equally likely; "seatN" fixes it."""
    game = pyspiel.load_game("trustme_liar(players=3,values=5,copies=2)")
    assert game.rules.first_player == "random" and game.rules.starter_seat is None
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "First player: seat 2"
    assert state.snapshot()["first_player"] is None
    state.apply_action(2)
    # Seat 2 starts: the deal begins at seat 0, its left, so seat 0 gets the extra card.
    assert state.snapshot()["first_player"] == 2 and state.snapshot()["events"] == [{"kind": "first_player",
                                                                                       "player": 2}]
    for action in game.deal_actions([[1, 2, 3, 4], [1, 2, 3], [4, 5, 5]], first=2)[1:]:
        state.apply_action(action)
    assert (state.current_player(), state.snapshot()["round_starter"]) == (2, 2)
    fixed = pyspiel.load_game("trustme_liar(players=3,values=5,copies=2,first_player=seat1)")
    state = fixed.new_initial_state()
    assert state.snapshot()["first_player"] == 1 and len(state.chance_outcomes()) == len(fixed.deal_table.splits)
    for action in fixed.deal_actions([[1, 2, 4], [1, 2, 3], [3, 4, 5, 5]]):
        state.apply_action(action)
    assert state.current_player() == 1
    with pytest.raises(ValueError, match="seat 1 always starts"):
        fixed.deal_actions([[1, 2, 4], [1, 2, 3], [3, 4, 5, 5]], first=0)


def test_deal_probabilities_match_shuffling_card_by_card():
    import itertools
    from collections import Counter

    game = pyspiel.load_game("trustme_liar(players=2,values=3,copies=2,first_player=seat0)")
    # Every ordering of the 6 cards dealt round the table, counted by the resulting hands.
    deck = [0, 0, 1, 1, 2, 2]
    orders = list(itertools.permutations(range(6)))
    truth = Counter(
        tuple(tuple(sorted(deck[o[i]] for i in range(seat, 6, 2))) for seat in range(2)) for o in orders
    )
    for hands_dealt, count in truth.items():
        state = game.new_initial_state()
        prob = 1.0
        for action in game.deal_actions([[v + 1 for v in h] for h in hands_dealt]):
            prob *= dict(state.chance_outcomes())[action]
            state.apply_action(action)
        assert prob == pytest.approx(count / len(orders))


def test_a_player_with_no_card_after_discarding_is_out_at_once():
    # Seat 0 is dealt four pairs and holds nothing after the discards (a fixed reading, listed as an assumption).
    hands3 = [[1, 1, 2, 2, 3, 3, 4, 4], [1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 5, 5, 5, 6]]
    _, state = table("trustme_liar(players=3,values=6)", hands3)
    snap = state.snapshot()
    assert state.is_terminal()
    assert (snap["end"], snap["out"], snap["cards_left"]) == ("setup", [0], [0, 6, 6])
    assert snap["ranks"] == [1.0, 2.5, 2.5]  # the two others hold six cards each and share second and third


# ---------------------------------------------------------------- a round


def test_starter_plays_one_to_four_cards_and_announces_any_value_and_cannot_pass():
    game, state = table(G2)
    legal = state.legal_actions()
    assert PASS not in legal and LIAR not in legal and BURN not in legal
    # Only the value can be a lie: any announcement, but only cards from the hand ({2, 3, 5, 6}).
    assert game.play_action([2], 4) in legal
    assert game.play_action([2, 3, 5, 6], 1) in legal
    assert game.play_action([1], 1) not in legal
    # 15 non-empty sub-multisets of a 4-card hand x 6 announced values.
    assert len(legal) == 15 * 6


def test_max_play_limits_the_cards_in_one_play():
    game, state = table("trustme_liar(players=2,values=6,max_play=2)")
    assert game.play_action([2, 3], 2) in state.legal_actions()
    assert len(state.legal_actions()) == (4 + 6) * 6


def test_each_player_in_turn_calls_liar_plays_the_same_value_or_passes():
    game, state = table(G2)
    play(game, state, [2], 5)
    legal = state.legal_actions()
    assert state.current_player() == 1
    assert LIAR in legal and PASS in legal and BURN not in legal
    # Plays must announce the round's value, 5.
    assert game.play_action([3], 5) in legal
    assert game.play_action([3], 3) not in legal
    play(game, state, [3, 6], 5)
    snap = state.snapshot()
    assert [(p["player"], p["announced"], p["count"], p["cards"]) for p in snap["pile"]] == [
        (0, 5, 1, [2]),
        (1, 5, 2, [3, 6]),
    ]
    assert (snap["round_value"], snap["last_player"], snap["to_act"]) == (5, 1, 0)


def test_what_others_see_of_a_play_is_count_and_value_not_the_cards():
    game, state = table(G2)
    play(game, state, [2, 6], 5)
    assert "P0:2x5[2,6]" in state.information_state_string(0)
    info1 = state.information_state_string(1)
    assert "P0:2x5" in info1 and "[2,6]" not in info1


# ---------------------------------------------------------------- calling liar


def test_wrong_accusation_accuser_picks_up_the_pile_and_the_honest_player_starts():
    game, state = table(G2)
    play(game, state, [5], 5)
    act(state, LIAR)
    snap = state.snapshot()
    assert snap["hands"] == [[2, 3, 6], [2, 3, 5, 5, 6]]
    assert snap["events"][-1] == {
        "kind": "liar", "accuser": 1, "player": 0, "announced": 5, "cards": [5], "false": 0, "caught": False,
        "picked_up_by": 1, "pile_size": 1, "pile_cards": [5],
    }
    assert (snap["phase"], snap["to_act"], snap["round_starter"], snap["pile"]) == ("start", 0, 0, [])
    assert snap["counts"]["wrongly_accused"] == [1, 0]


def test_challenge_turns_over_only_the_last_play_and_finds_one_bad_card_among_three():
    game, state = table(G2)
    play(game, state, [5], 5)
    act(state, LIAR)  # seat 1 is wrong and now holds two 5s; seat 0 starts
    play(game, state, [2], 5)  # a lie, covered next
    play(game, state, [3, 5, 5], 5)  # two good cards and one bad
    act(state, LIAR)
    snap = state.snapshot()
    liar = snap["events"][-1]
    # Only seat 1's three cards are turned over, not seat 0's covered lie.
    assert (liar["cards"], liar["false"], liar["caught"], liar["picked_up_by"], liar["pile_size"]) == (
        [3, 5, 5], 1, True, 1, 4)
    # The liar picks up the whole pile (seat 0's 2 as well) and the accuser starts.
    assert snap["hands"] == [[3, 6], [2, 2, 3, 5, 5, 6]]
    assert (snap["to_act"], snap["round_starter"]) == (0, 0)
    assert snap["counts"] == {"false_cards": [1, 0], "unmasked": [1, 0], "wrongly_accused": [1, 0]}
    assert liar["pile_cards"] == [2, 3, 5, 5]
    # The turned-over cards are public; what the pile held is seen by the picker only.
    info0, info1 = state.information_state_string(0), state.information_state_string(1)
    assert "L0>1[3,5,5]F^1:4 " in info0 and "[2,3,5,5]" not in info0
    assert "L0>1[3,5,5]F^1:4[2,3,5,5]" in info1


def test_a_challenge_after_passes_still_hits_the_last_play():
    game, state = table("trustme_liar(players=3,values=6)", THREE)
    play(game, state, [4], 1)  # seat 0 lies
    act(state, PASS)  # seat 1 passes; the play stays open
    act(state, LIAR)  # seat 2 calls
    snap = state.snapshot()
    assert snap["events"][-1]["accuser"] == 2 and snap["events"][-1]["caught"]
    assert (snap["to_act"], snap["cards_left"]) == (2, [2, 6, 4])


# ---------------------------------------------------------------- passing and burning


def test_when_all_others_pass_the_last_player_adds_or_burns_and_starts_a_new_round():
    game, state = table("trustme_liar(players=3,values=6)", THREE)
    play(game, state, [4], 4)
    act(state, PASS)
    act(state, PASS)
    assert state.current_player() == 0
    legal = state.legal_actions()
    # Passing again is not offered; adding must announce the same value.
    assert PASS not in legal and LIAR not in legal and BURN in legal
    assert game.play_action([5], 4) in legal and game.play_action([5], 5) not in legal
    act(state, BURN)
    snap = state.snapshot()
    assert snap["burned"] == [4]
    assert snap["events"][-1] == {"kind": "burn", "player": 0, "pile_size": 1}
    assert (snap["phase"], snap["to_act"], snap["round_starter"], snap["pile"]) == ("start", 0, 0, [])
    assert PASS not in state.legal_actions()


def test_the_last_player_may_add_cards_after_all_pass():
    game, state = table(G2)
    play(game, state, [2], 2)
    act(state, PASS)
    play(game, state, [3], 2)
    snap = state.snapshot()
    assert [p["cards"] for p in snap["pile"]] == [[2], [3]]
    assert (snap["to_act"], snap["passes_in_a_row"]) == (1, 0)
    assert LIAR in state.legal_actions()


# ---------------------------------------------------------------- going out


def test_going_out_that_holds_ends_the_game():
    game, state = table(G2)
    play(game, state, [2, 3, 5, 6], 5)  # seat 0 plays their last cards (three are false)
    assert state.snapshot()["phase"] == "last_cards"
    assert state.legal_actions() == [LIAR, PASS]  # default last_cards=call_or_pass
    act(state, PASS)
    snap = state.snapshot()
    assert state.is_terminal()
    assert (snap["end"], snap["out"], snap["ranks"], snap["cards_left"]) == ("out", [0], [1.0, 2.0], [0, 4])
    assert state.returns() == [1.0, -1.0]


def test_going_out_that_is_caught_gives_the_cards_back_and_play_goes_on():
    game, state = table(G2)
    play(game, state, [2, 3, 5, 6], 5)
    act(state, LIAR)
    snap = state.snapshot()
    assert not state.is_terminal()
    assert snap["hands"] == [[2, 3, 5, 6], [2, 3, 5, 6]]
    assert (snap["phase"], snap["to_act"], snap["going_out"]) == ("start", 1, None)


def test_going_out_with_true_cards_survives_a_wrong_accusation():
    game, state = table(G2)
    play(game, state, [2, 3, 5], 2)
    act(state, PASS)
    act(state, BURN)  # seat 0 starts again, holding only the 6
    play(game, state, [6], 6)
    act(state, LIAR)
    snap = state.snapshot()
    assert state.is_terminal()
    assert snap["events"][-2]["picked_up_by"] == 1 and snap["events"][-1] == {"kind": "out", "player": 0}
    assert (snap["end"], snap["out"], snap["hands"]) == ("out", [0], [[], [2, 3, 5, 6, 6]])


def test_covering_the_last_cards_ends_the_window_when_last_cards_is_until_covered():
    game, state = table("trustme_liar(players=2,values=6,last_cards=until_covered)")
    play(game, state, [2, 3, 5, 6], 2)
    legal = state.legal_actions()
    assert LIAR in legal and PASS in legal and game.play_action([5], 2) in legal
    play(game, state, [5], 2)
    snap = state.snapshot()
    assert (snap["end"], snap["out"], snap["cards_left"]) == ("out", [0], [0, 3])


THREE = [[1, 1, 2, 2, 3, 3, 4, 5], [1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 4, 5, 5, 6]]
