"""Pinocchio worlds for search players: resample_from_infostate deals the unseen Characters anew, uniformly, and the
player cannot tell the new state from the real one (OpenSpiel's own clients: tests/games/test_openspiel_clients.py)."""

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance


def _advance(game, rng, steps):
    state = game.new_initial_state()
    bots = [make_bot(game, "random", p, rng) for p in range(game.num_players())]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def test_worlds_keep_what_the_player_saw_and_redeal_the_rest():
    game = pyspiel.load_game("trustme_pinocchio(players=3,voting=simultaneous)")
    rng = np.random.default_rng(1)
    changed = 0
    for steps in range(20, 200, 7):
        state = _advance(game, np.random.default_rng(steps), steps)
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        view = state.player_view(p)
        for _ in range(5):
            world = state.resample_from_infostate(p, rng.random)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.player_view(p)["hands"][p] == view["hands"][p]
            assert world.legal_actions(p) == state.legal_actions(p)
            w = world.snapshot()
            s = state.snapshot()
            # The same Characters overall, the same hand sizes and deck size; only where the unseen ones lie moves.
            assert world.unseen(p) == state.unseen(p)
            assert w["hand_sizes"] == s["hand_sizes"] and w["deck_size"] == s["deck_size"]
            assert (w["park"], w["reputations"], w["tickets"], w["discard"]) == (s["park"], s["reputations"],
                                                                                 s["tickets"], s["discard"])
            changed += w["hands"] != s["hands"]
            # The world plays on like any state.
            while not world.is_terminal() and not world.is_chance_node():
                world.apply_action(world.legal_actions()[0])
    assert changed > 20


def test_every_arrangement_of_the_unseen_characters_is_equally_likely():
    # Two players, one unseen Character per value in the opponent's hand and deck: count where value 1 lands.
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    state = _advance(game, np.random.default_rng(3), 12)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, np.random.default_rng(0)))
    p = state.current_player()
    rng = np.random.default_rng(7)
    unseen = sum(state.unseen(p))
    other = 1 - p
    in_hand = 0
    draws = 4000
    value = next(i for i, c in enumerate(state.unseen(p)) if c)
    for _ in range(draws):
        world = state.resample_from_infostate(p, rng.random)
        in_hand += world.snapshot()["hands"][other].count(value + 1)
    hand_size = len(state.snapshot()["hands"][other])
    # Each of the opponent's hand_size cards is any of the unseen ones with equal chance.
    expected = draws * hand_size * state.unseen(p)[value] / unseen
    assert abs(in_hand - expected) < 5 * np.sqrt(expected)
