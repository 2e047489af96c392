"""Playing one game to its end: chance drawn from a generator, each decision from the bot in the seat to act.

Everything that plays games (sweeps, tests, benchmarks, search players) uses :func:`play_game` and
:func:`sample_chance`, so the order in which random numbers are drawn is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pyspiel

from trustme_analysis.engine.draws import GameStream, pick, pick_weighted
from trustme_analysis.players.base import TrustMeBot


def sample_chance(state: pyspiel.State, rng: np.random.Generator | GameStream) -> int:
    """One chance outcome of ``state`` drawn with ``rng`` by its probability, by the draw protocol
    (:mod:`trustme_analysis.engine.draws`): one outcome draws nothing; otherwise an integer below the total of the
    state's whole-number ``chance_weights()`` picks one (every game with a kernel states them, and its kernel draws
    the same way), or, for a game that states none, one uniform number walks the probabilities."""
    weights = getattr(state, "chance_weights", None)
    if weights is not None:
        return int(pick_weighted(weights(), rng))
    return int(pick(state.chance_outcomes(), rng))


def joint_action(state: pyspiel.State, pick: Callable[[pyspiel.State, int], int],
                 fixed: Mapping[int, int] | None = None) -> list[int]:
    """One action per seat at a simultaneous node: ``fixed`` seats as given; a seat with nothing to decide submits its
    lone legal action (pyspiel's convention, often 0); the others ``pick(state, seat)``, in seat order."""
    actions = []
    for player in range(state.num_players()):
        legal = state.legal_actions(player)
        if fixed is not None and player in fixed:
            actions.append(int(fixed[player]))
        elif len(legal) > 1:
            actions.append(int(pick(state, player)))
        else:
            actions.append(legal[0] if legal else 0)
    return actions


def play_out(state: pyspiel.State, bots: Sequence[TrustMeBot], rng: np.random.Generator) -> pyspiel.State:
    """Play ``state`` on to its end (in place): chance from ``rng``, each decision from the bot of the seat to act."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        elif state.is_simultaneous_node():
            state.apply_actions(joint_action(state, lambda s, p: bots[p].step(s)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return state


def play_game(game: pyspiel.Game, bots: Sequence[TrustMeBot], rng: np.random.Generator) -> pyspiel.State:
    """Play one game to its end: chance from ``rng``, each decision from the bot of the seat to act."""
    return play_out(game.new_initial_state(), bots, rng)
