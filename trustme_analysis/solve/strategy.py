"""Strategy statistics of a solved policy, in each rulebook's words: the contract between solver and games.

The solve layer walks a solved (or any fixed) policy profile over a reduced variant and hands each game's statistics
function one :class:`DecisionPoint` per information state, with how often it is reached. The game's function (the
``strategy`` part of its registry entry, in ``trustme_analysis/games/<game>/strategy.py``) classifies decisions by what the acting player knows (through
``player_view``/``snapshot`` of a representative state and the action strings) and returns named tables, e.g.
Pinocchio's "tale rate by card difference". It never re-implements a rule: it only reads states and actions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.registry import find_game


@dataclass
class DecisionPoint:
    """One information state of one player under a fixed policy profile.

    Attributes:
        player: the acting player.
        info_state: the information-state string (unique per player).
        actions: the legal actions, in the order of ``probs``.
        probs: the policy's probability of each legal action here.
        reach: probability that play reaches this information state (chance and every player's policy included);
            the sum of ``histories``' weights.
        histories: each history of the information state with its own reach probability, as (state, reach); the
            states are fresh pyspiel states replayed from the root, so ``snapshot()`` shows the hidden truth (e.g.
            whether a tale is tall) for statistics that condition on it.
        action_values: optional counterfactual value of each action for ``player`` (the expected utility of taking
            the action, weighted over the histories by their reach), when the solve layer computes it; ``None``
            otherwise.
    """

    player: int
    info_state: str
    actions: list[int]
    probs: np.ndarray
    reach: float
    histories: list[tuple[pyspiel.State, float]] = field(default_factory=list)
    action_values: np.ndarray | None = None

    @property
    def state(self) -> pyspiel.State:
        """A representative history (the first) of this information state."""
        return self.histories[0][0]


#: ``fn(game, decision_points) -> {table name: DataFrame}``; tables are small and labelled in the rulebook's words.
StrategyStatsFn = Callable[[pyspiel.Game, list[DecisionPoint]], dict[str, pd.DataFrame]]


def strategy_stats_for(short_name: str) -> StrategyStatsFn | None:
    """The game's strategy-statistics function (its registry entry's ``strategy``), or ``None`` if it has none."""
    entry = find_game(short_name)
    return entry.part("strategy") if entry is not None else None


# ------------------------------------------------------------------------------------------------ simple strategies

#: ``rule(state, player, legal_actions) -> preferred actions`` at a decision of ``player`` in ``state``: the actions
#: the simple strategy plays there (in the proportions of the strategy it modifies, uniformly where that gives
#: them none), or ``None`` where the rule has nothing to say (the player then keeps
#: the strategy it is compared with, e.g. the solved one). Example: "always tell a tall tale" returns the tall-tale
#: actions when one is legal and ``None`` otherwise.
SimpleRule = Callable[[pyspiel.State, int, list[int]], "list[int] | None"]

#: ``fn(game) -> {name: rule}``: a game's named simple strategies (e.g. "always bluff", "always trust").
SimpleStrategiesFn = Callable[[pyspiel.Game], dict[str, SimpleRule]]


def simple_strategies_for(game: pyspiel.Game) -> dict[str, SimpleRule]:
    """The named simple strategies of ``game`` (its registry entry's ``simple_strategies``; empty if it has none, and
    then there is no "simple strategy near-optimal" check)."""
    entry = find_game(game.get_type().short_name)
    fn = entry.part("simple_strategies") if entry is not None else None
    return dict(fn(game)) if fn is not None else {}
