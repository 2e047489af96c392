"""A finished Pinocchio game scored again under another chart or utility, without playing it again.

The scoring-only parameters (:data:`~trustme_analysis.games.pinocchio.engine.rules.SCORING_ONLY`: the chart of Final Scoring and the utility) change nothing
before the game ends, so a game played under one chart is, move for move, the game played under another, up to Final
Scoring. :func:`rescore` copies the finished position into a state of the other variant, takes back the final scoring
(the tie-break and its Coin, if any) and runs the engine's own Final Scoring again (``PinocchioState._score``: the
rules stay in one place). A tie the new chart creates ends at the tie-break Coin, a chance node the sweep plays from
the chance stream as it stood when the scoring began, so the records equal those of playing the variant itself from
the same seed (``tests/sweep/test_sweep_rescore.py`` checks this game by game).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from trustme_analysis.games.pinocchio.engine.rules import SCORING_ONLY
from trustme_analysis.registry import Rescored

#: State attributes that hold the game's own fixed objects: the new state keeps its game's.
_GAME_OBJECTS = ("_rules", "_codec")


def rescore(game: Any, finished: Any) -> Rescored:
    """``finished`` (a terminal state of a variant that differs from ``game`` only in the chart or the utility) as a
    state of ``game`` at the start of its Final Scoring, scored by the engine; see the module docstring.

    Raises:
        ValueError: ``finished`` is not over, or its rules differ from ``game``'s in more than the scoring-only
            parameters.
    """
    if not finished.is_terminal():
        raise ValueError("rescore needs a finished game (a terminal state)")
    old, new = finished._rules, game.rules
    kept = dataclasses.replace(old, **{name: getattr(new, name) for name in SCORING_ONLY})
    if kept != new:
        differing = [f.name for f in dataclasses.fields(new) if getattr(kept, f.name) != getattr(new, f.name)]
        raise ValueError(f"rescore: the games differ in {', '.join(differing)}, not only in the scoring-only "
                         f"parameters ({', '.join(SCORING_ONLY)}); play the variant instead")
    state = game.new_initial_state()
    for name, value in vars(finished).items():
        if name not in _GAME_OBJECTS:
            setattr(state, name, copy.deepcopy(value))
    # Take back the final scoring: the tie-break (on Tickets, or by the Coin, which is the game's last chance outcome
    # and its last log entry).
    events = state._events
    coin = False
    while events and events[-1][0] == "tie_break":
        coin = coin or events[-1][2] == "coin"
        events.pop()
    if coin:
        if not (state._log and state._log[-1][2].startswith("tiecoin:")):
            raise ValueError("rescore: the tie-break Coin is not the finished game's last log entry")
        state._log.pop()
    state._tied = ()
    state._winner = -1
    state._totals = None
    state._score()
    return Rescored(state, 1 if coin else 0)
