"""Playing one game to its end: chance drawn from a generator, each decision from the bot in the seat to act.

Everything that plays games (sweeps, tests, benchmarks, search players) uses :func:`play_game` and
:func:`sample_chance`, so the order in which random numbers are drawn is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot


def sample_chance(state: pyspiel.State, rng: np.random.Generator) -> int:
    """One chance outcome of ``state`` drawn with ``rng`` by its probability."""
    outcomes = state.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    cumulative = np.cumsum([p for _, p in outcomes])
    # The probabilities may not sum to exactly 1 in floating point; scale the draw instead of renormalising.
    index = int(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"))
    return outcomes[min(index, len(outcomes) - 1)][0]


def play_game(game: pyspiel.Game, bots: Sequence[TrustMeBot], rng: np.random.Generator) -> pyspiel.State:
    """Play one game to its end: chance from ``rng``, each decision from the bot of the seat to act."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif state.is_simultaneous_node():
            actions = []
            for player, bot in enumerate(bots):
                # A seat with nothing to decide at a simultaneous node still has to submit an action (pyspiel's
                # convention is a lone legal action, often 0).
                legal = state.legal_actions(player)
                actions.append(bot.step(state) if len(legal) > 1 else (legal[0] if legal else 0))
            state.apply_actions(actions)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state
