"""How many histories a game tree has, estimated in about a second before compiling it.

Compiling walks every history of the tree; a tree larger than the section's ``max_histories`` is refused only once
the walk reaches the limit, which for a Python game can take minutes. Knuth's estimator (D. E. Knuth, "Estimating the
efficiency of backtrack programs", Mathematics of Computation 29 (1975): 121-136) gives an unbiased estimate of the
number of nodes from random root-to-leaf walks: a walk that meets branching factors b1, b2, ... estimates
1 + b1 + b1*b2 + ...; the mean over walks estimates the size. Its error is large on lopsided trees, and tends to be
an underestimate with few walks, so the solve layer refuses early only when the estimate is well above the limit.

This reads the game through the pyspiel API only (it does not depend on how ``cfr`` compiles).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pyspiel

#: Seconds spent on random walks at most (at least :data:`MIN_WALKS` walks are made).
SECONDS = 1.0
MIN_WALKS = 8
MAX_WALKS = 5000
QUICK_WALKS = 100


@dataclass(frozen=True)
class TreeEstimate:
    """An estimate of a tree's number of histories."""

    histories: float
    #: A conservative figure for refusing: the median of five batch means (a rare huge walk cannot inflate it).
    low: float
    walks: int
    seconds: float


def estimate_histories(
    game: pyspiel.Game, seed: int = 0, seconds: float = SECONDS, enough_below: float | None = None
) -> TreeEstimate | None:
    """Knuth's estimate of the number of histories of ``game`` (every node: chance, decisions and terminals).

    Args:
        game: a sequential game with explicit chance.
        seed: seed of the walks' generator.
        seconds: time spent on walks at most.
        enough_below: stop after :data:`QUICK_WALKS` walks if the estimate is below this (small trees need no more).

    Returns ``None`` for games the estimate does not cover (simultaneous moves, sampled chance).
    """
    info = game.get_type()
    if info.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL or (
        info.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    ):
        return None
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    sizes: list[float] = []
    while len(sizes) < MAX_WALKS and (len(sizes) < MIN_WALKS or time.perf_counter() - start < seconds):
        sizes.append(_walk(game, rng))
        if enough_below is not None and len(sizes) == QUICK_WALKS and np.mean(sizes) < enough_below:
            break
    batches = np.array_split(np.array(sizes), 5)
    return TreeEstimate(
        histories=float(np.mean(sizes)),
        low=float(np.median([b.mean() for b in batches if b.size])),
        walks=len(sizes),
        seconds=time.perf_counter() - start,
    )


def _walk(game: pyspiel.Game, rng: np.random.Generator) -> float:
    state = game.new_initial_state()
    total = weight = 1.0
    while not state.is_terminal():
        if state.is_chance_node():
            choices = [a for a, _ in state.chance_outcomes()]
        else:
            choices = state.legal_actions()
        weight *= len(choices)
        total += weight
        state.apply_action(choices[int(rng.integers(len(choices)))])
    return total
