"""The ``trustme_liar`` heuristic bot: registry, knob checks, each decision rule on a scripted table, seeding, and
that it beats the uniform random bot."""

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers games and bots)
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.games.liar.bots import LiarHeuristicBot
from trustme_analysis.games.liar import BURN, LIAR, PASS, timeout_action

# After the pair discards both hands are {2, 3, 5, 6}; values 1 and 4 are entirely discarded; of the 5s, two are
# discarded (seat 1's pair), so seat 1 sees one 5 it cannot account for.
P0 = [1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6]
P1 = [1, 1, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6]
G2 = "trustme_liar(players=2,values=6)"

QUIET = {"bluff_rate": 0.0, "bluff_per_card": 0.0, "call_rate": 0.0, "call_last_cards": 0.0}


def table(game_string=G2):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    for action in game.deal_actions([P0, P1]):
        state.apply_action(action)
    return game, state


def bot(game, seat, seed=0, **knobs):
    return make_bot(game, "heuristic", seat, np.random.default_rng(seed), **knobs)


def test_registered_with_knobs_checked():
    game = pyspiel.load_game(G2)
    assert bot_kinds("trustme_liar") == ["heuristic", "policy", "probe", "random", "search"]
    b = bot(game, 0, bluff_rate=0.5)
    assert isinstance(b, LiarHeuristicBot) and b.knobs()["bluff_rate"] == 0.5
    with pytest.raises(ValueError, match=r"bluff_rate=1.5 is not allowed; allowed: a number 0..1"):
        bot(game, 0, bluff_rate=1.5)
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['nerve'\]"):
        bot(game, 0, nerve=1)
    with pytest.raises(ValueError, match="bluff_extra"):
        bot(game, 0, bluff_extra=-1)


def test_honest_starter_plays_one_true_card():
    game, state = table()
    state.apply_action(bot(game, 0, **QUIET).step(state))
    play = state.snapshot()["pile"][0]
    assert (play["count"], play["false"]) == (1, 0) and play["cards"] == [play["announced"]]


def test_bluffing_starter_adds_false_cards_up_to_bluff_extra():
    game, state = table()
    state.apply_action(bot(game, 0, bluff_rate=1.0, bluff_extra=2).step(state))
    play = state.snapshot()["pile"][0]
    assert (play["count"], play["false"]) == (3, 2)


def test_calls_liar_on_an_impossible_claim():
    game, state = table()
    state.apply_action(game.play_action([2, 3], 5))  # two 5s claimed; seat 1 can account for all but one
    assert bot(game, 1, **QUIET).step(state) == LIAR
    game, state = table()
    state.apply_action(game.play_action([2], 1))  # every 1 was discarded
    assert bot(game, 1, **QUIET).step(state) == LIAR


def test_plausible_claim_is_answered_with_true_cards_or_a_pass():
    game, state = table()
    state.apply_action(game.play_action([2], 5))
    assert bot(game, 1, **QUIET).step(state) == game.play_action([5], 5)  # holds a 5: adds it truthfully
    game, state = table()
    state.apply_action(game.play_action([2], 2))  # seat 0's true 2
    state.apply_action(game.play_action([3], 2))
    # Of the 2s, seat 0 saw two discarded and played one itself: one is out of sight, seat 1 claims one. Plausible,
    # and seat 0 has no 2 left to add and does not bluff.
    assert bot(game, 0, **QUIET).step(state) == PASS


def test_suspicion_calls_when_the_round_claims_more_than_can_be_out_of_sight():
    game, state = table()
    state.apply_action(game.play_action([2], 5))
    state.apply_action(PASS)
    state.apply_action(game.play_action([3], 5))  # seat 0 adds: two 5s claimed this round, seat 1 sees one unseen
    assert bot(game, 1, **QUIET).step(state) == LIAR  # suspicion 1.0: more claimed than can exist
    assert bot(game, 1, **QUIET, suspicion=3.0).step(state) == game.play_action([5], 5)


def test_add_or_burn():
    game, state = table()
    state.apply_action(game.play_action([3], 2))
    state.apply_action(PASS)
    assert bot(game, 0, **QUIET).step(state) == game.play_action([2], 2)  # adds its true 2
    game, state = table()
    state.apply_action(game.play_action([2], 2))
    state.apply_action(PASS)
    assert bot(game, 0, **QUIET, burn_rate=1.0).step(state) == BURN
    action = bot(game, 0, **QUIET, burn_rate=0.0).step(state)
    assert action not in (BURN, PASS, LIAR) and state.action_to_string(0, action).endswith("as 1x2")


def test_last_cards_are_called_when_impossible_or_by_chance():
    game, state = table()
    state.apply_action(game.play_action([2, 3, 5, 6], 2))  # seat 0's last cards: four 2s claimed, impossible
    assert state.snapshot()["phase"] == "last_cards"
    assert bot(game, 1, **QUIET).step(state) == LIAR
    game, state = table()
    state.apply_action(game.play_action([2, 3, 5], 2))
    state.apply_action(PASS)
    state.apply_action(BURN)
    state.apply_action(game.play_action([6], 6))  # seat 0's last card; one 6 is out of seat 1's sight: plausible
    assert state.snapshot()["phase"] == "last_cards"
    assert bot(game, 1, **QUIET).step(state) == PASS
    assert bot(game, 1, **dict(QUIET, call_last_cards=1.0)).step(state) == LIAR


def test_timeout_rate_lets_the_turn_time_out():
    game, state = table()
    assert bot(game, 0, timeout_rate=1.0).step(state) == timeout_action(state)


def test_same_seed_same_game():
    game = pyspiel.load_game("trustme_liar(players=3,values=8,mode=trustme)")

    def run(seed):
        rng = np.random.default_rng(seed)
        bots = [make_bot(game, "heuristic", s, rng, bluff_rate=0.5) for s in range(3)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_heuristic_beats_random_in_classique():
    game = pyspiel.load_game("trustme_liar(players=2,values=8)")
    rng = np.random.default_rng(2024)
    wins = 0
    for g in range(40):
        seats = [make_bot(game, "heuristic" if (s + g) % 2 == 0 else "random", s, rng) for s in range(2)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
            else:
                state.apply_action(seats[state.current_player()].step(state))
        heuristic_seat = g % 2
        wins += state.returns()[heuristic_seat] > 0
    assert wins >= 30
