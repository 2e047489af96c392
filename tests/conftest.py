"""Fixtures every test folder shares."""

from collections.abc import Sequence

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import play_game


def play(game: pyspiel.Game | str, seed: int | np.random.Generator = 0, kinds: Sequence[str] | str = "random",
         **knobs) -> pyspiel.State:
    """Play one game to its end with bots of ``kinds`` (one kind for every seat, or one per seat), chance and bots
    drawn from one generator (``seed``), as sweeps play: the one play loop of the tests."""
    game = pyspiel.load_game(game) if isinstance(game, str) else game
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = game.num_players()
    kinds = [kinds] * n if isinstance(kinds, str) else list(kinds)
    return play_game(game, [make_bot(game, kinds[p], p, rng, **knobs) for p in range(n)], rng)


@pytest.fixture()
def play_to_end():
    """:func:`play` as a fixture: ``play_to_end(game, seed, kinds)`` -> the terminal state."""
    return play
