"""Bots are created by name; unknown names fail with the list of valid ones."""

import numpy as np
import pyspiel
import pytest

from trustme_analysis.players import UniformRandomBot, make_bot


def test_random_bot_exists_for_any_game_and_is_seeded():
    game = pyspiel.load_game("kuhn_poker")
    picks = []
    for _ in range(2):
        bot = make_bot(game, "random", 0, np.random.default_rng(7))
        assert isinstance(bot, UniformRandomBot)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        picks.append([bot.step(state) for _ in range(20)])
    assert picks[0] == picks[1]


def test_unknown_bot_kind_names_the_choices():
    # tic_tac_toe: a game no module of this project registers bots for, so only the generic kinds are offered.
    game = pyspiel.load_game("tic_tac_toe")
    with pytest.raises(ValueError, match=r"unknown bot kind 'clever' for game 'tic_tac_toe'; available: policy, probe, random, search$"):
        make_bot(game, "clever", 0, np.random.default_rng(0))
