"""A finished Liar game scored again under other Trust Me points or another utility, without playing it again.

The scoring-only parameters (the ``points_*`` values and ``utility``: :data:`.rules.SCORING_ONLY`, the game's registry
entry's ``scoring_only``) change nothing during play: the engine reads them only when it counts points, ranks by points
and gives returns. So :func:`rescore` copies the finished table into a state of the other variant, whose engine then scores it under its
own points (the rules stay in one place). Liar's scoring draws no chance outcome.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from trustme_analysis.games.liar.engine.rules import SCORING_ONLY
from trustme_analysis.engine.rescored import Rescored

#: State attributes that hold the game's own fixed objects: the new state keeps its game's.
_GAME_OBJECTS = ("_rules", "_plays", "_deals")


def rescore(game: Any, finished: Any) -> Rescored:
    """``finished`` (a terminal state of a variant that differs from ``game`` only in scoring-only parameters) as a
    terminal state of ``game``, scored by ``game``'s engine.

    Raises:
        ValueError: ``finished`` is not over, or its configuration differs from ``game``'s in more than the
            scoring-only parameters.
    """
    if not finished.is_terminal():
        raise ValueError("rescore needs a finished game (a terminal state)")
    scoring_only = SCORING_ONLY
    old, new = finished._rules, game.rules
    kept = dataclasses.replace(old, **{name: getattr(new, name) for name in scoring_only})
    if kept != new:
        differing = [f.name for f in dataclasses.fields(new) if getattr(kept, f.name) != getattr(new, f.name)]
        raise ValueError(f"rescore: the games differ in {', '.join(differing)}, not only in the scoring-only "
                         f"parameters ({', '.join(scoring_only)}); play the variant instead")
    state = game.new_initial_state()
    for name, value in vars(finished).items():
        if name not in _GAME_OBJECTS:
            setattr(state, name, copy.deepcopy(value))
    return Rescored(state, 0)
