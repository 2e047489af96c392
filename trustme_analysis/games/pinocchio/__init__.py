"""Trust Me, the Pinocchio card game (rule text ``000_0a67680c9204e9f0.txt``) as the pyspiel game
``trustme_pinocchio``.

Importing this package registers the game. The pieces, in the rulebook's words:

- :mod:`~trustme_analysis.games.pinocchio.rules`: every rule number as a parameter, the assumptions, and Final Scoring (:func:`score_breakdown`).
- :mod:`~trustme_analysis.games.pinocchio.actions`: how Tell a Tale, Use Reputation, Take from the Park, votes and Coin tosses are numbered.
- :mod:`~trustme_analysis.games.pinocchio.state`: a turn, step by step, and :meth:`~trustme_analysis.games.pinocchio.state.PinocchioState.snapshot`.
- :mod:`~trustme_analysis.games.pinocchio.observer`: information states and observation tensors.
- :mod:`~trustme_analysis.games.pinocchio.game`: the pyspiel game type and registration.
- :mod:`~trustme_analysis.games.pinocchio.script`: scripted deals for scenario tests.

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.pinocchio.bots` (the heuristic), :mod:`~trustme_analysis.games.pinocchio.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.pinocchio.stats` (the game's
statistics), :mod:`~trustme_analysis.games.pinocchio.pages` (its report pages) and :mod:`~trustme_analysis.games.pinocchio.strategy` (statistics of a solved policy).
"""

from trustme_analysis.games.pinocchio.actions import ActionCodec, Combo, Move
from trustme_analysis.games.pinocchio.game import GAME_TYPE, PinocchioGame
from trustme_analysis.games.pinocchio.rules import DEFAULTS, PARAMETERS, SCORING_ONLY, SHORT_NAME, Rules, score_breakdown
from trustme_analysis.games.pinocchio.state import PHASE_NAMES, PinocchioState
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Pinocchio",
        package=__name__,
        scoring_only=SCORING_ONLY,
        records="records:records",
        bots="bots",
        statistics="stats:compute",
        pages="pages:draw",
        strategy="strategy:strategy_stats",
        simple_strategies="strategy:simple_strategies",
        belief="bots:belief",
        narrate="narrate:narrate",
        kernel="kernel",
        describe="describe",
        rescore="rescore:rescore",
        training="training:TRAINER",
    )
)

Game = PinocchioGame
State = PinocchioState

__all__ = [
    "ActionCodec", "Combo", "DEFAULTS", "GAME_TYPE", "Game", "Move", "PARAMETERS", "PHASE_NAMES", "PinocchioGame",
    "PinocchioState", "Rules", "SHORT_NAME", "State", "score_breakdown",
]
