"""Trust Me, the Pinocchio card game (rule text ``000_0a67680c9204e9f0.txt``) as the pyspiel game
``trustme_pinocchio``.

Importing this package registers the game. The pieces, in the rulebook's words:

- :mod:`~trustme_analysis.games.pinocchio.engine.rules`: every rule number as a parameter, the assumptions, and Final Scoring (:func:`score_breakdown`).
- :mod:`~trustme_analysis.games.pinocchio.engine.actions`: how Tell a Tale, Use Reputation, Take from the Park, votes and Coin tosses are numbered.
- :mod:`~trustme_analysis.games.pinocchio.engine.state`: a turn, step by step, and :meth:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState.snapshot`.
- :mod:`~trustme_analysis.games.pinocchio.engine.observer`: information states and observation tensors.
- :mod:`~trustme_analysis.games.pinocchio.engine.game`: the pyspiel game type and registration.
- :mod:`~trustme_analysis.games.pinocchio.engine.script`: scripted deals for scenario tests.

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.pinocchio.players.bots` (the heuristic), :mod:`~trustme_analysis.games.pinocchio.analysis.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.pinocchio.analysis.stats` (the game's
statistics), :mod:`~trustme_analysis.games.pinocchio.analysis.pages` (its report pages) and :mod:`~trustme_analysis.games.pinocchio.analysis.strategy` (statistics of a solved policy).
"""

from trustme_analysis.games.pinocchio.engine.actions import ActionCodec, Combo, Move
from trustme_analysis.games.pinocchio.engine.game import GAME_TYPE, PinocchioGame
from trustme_analysis.games.pinocchio.engine.rules import DEFAULTS, PARAMETERS, SCORING_ONLY, SHORT_NAME, Rules, score_breakdown
from trustme_analysis.games.pinocchio.engine.state import PHASE_NAMES, PinocchioState
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Pinocchio",
        package=__name__,
        scoring_only=SCORING_ONLY,
        records="analysis.records:records",
        bots="players.bots",
        statistics="analysis.stats:compute",
        pages="analysis.pages:draw",
        strategy="analysis.strategy:strategy_stats",
        simple_strategies="analysis.strategy:simple_strategies",
        belief="players.bots:belief",
        narrate="analysis.narrate:narrate",
        kernel="kernel.kernel",
        describe="analysis.describe",
        rescore="engine.rescore:rescore",
    )
)

Game = PinocchioGame
State = PinocchioState

__all__ = [
    "ActionCodec", "Combo", "DEFAULTS", "GAME_TYPE", "Game", "Move", "PARAMETERS", "PHASE_NAMES", "PinocchioGame",
    "PinocchioState", "Rules", "SHORT_NAME", "State", "score_breakdown",
]
