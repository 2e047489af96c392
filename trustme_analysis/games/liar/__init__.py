"""``trustme_liar``: the Cheat/"Menteur" game of rule text ``004`` with Classique and Trust Me scoring.

Importing this package registers the game with pyspiel::

    import pyspiel
    import trustme_analysis
    game = pyspiel.load_game("trustme_liar(players=4,mode=trustme)")

Modules, in the rule text's order: :mod:`~trustme_analysis.games.liar.engine.rules` (the parameters, :class:`~trustme_analysis.games.liar.engine.rules.Rules`, and the assumptions),
:mod:`~trustme_analysis.games.liar.engine.deal` (set-up: the deal and the pair discards), :mod:`~trustme_analysis.games.liar.engine.plays` (the action encoding), :mod:`~trustme_analysis.games.liar.engine.state` (rounds,
challenges, passing, burning, going out, the turn timer, what each player knows), :mod:`~trustme_analysis.games.liar.engine.events` (the event kinds and
their fields), :mod:`~trustme_analysis.games.liar.engine.game` (the pyspiel game and its observer), :mod:`~trustme_analysis.games.liar.engine.scoring` (Classique ranking, Trust Me points,
utilities), :mod:`~trustme_analysis.games.liar.engine.worlds` (the worlds a search player samples), :mod:`~trustme_analysis.games.liar.engine.variants` (reduced variants for exact
solvers).

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.liar.players.bots` (the heuristic and the search player's belief), :mod:`~trustme_analysis.games.liar.analysis.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.liar.analysis.stats` (the game's
statistics), :mod:`~trustme_analysis.games.liar.analysis.pages` (its report pages) and :mod:`~trustme_analysis.games.liar.analysis.strategy` (statistics of a solved policy).
"""

from trustme_analysis.games.liar.engine.rules import SHORT_NAME, Rules
from trustme_analysis.games.liar.engine.game import LiarGame, LiarObserver, LiarState, timeout_action
from trustme_analysis.games.liar.engine.plays import BURN, LIAR, PASS
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Liar",
        package=__name__,
        # The Trust Me points and the utility score a finished game; they never change the play.
        scoring_only=("points_going_out", "points_card_in_hand", "points_false_card", "points_unmasked",
                      "points_wrongly_accused", "utility"),
        records="analysis.records:records",
        bots="players.bots",
        statistics="analysis.stats:compute",
        pages="analysis.pages:draw",
        strategy="analysis.strategy:strategy_stats",
        simple_strategies="analysis.strategy:simple_strategies",
        belief="players.bots:belief",
        search_actions="players.bots:search_actions",
        kernel="kernel.kernel",
        describe="analysis.describe",
        rescore="engine.rescore:rescore",
    )
)

__all__ = ["BURN", "LIAR", "PASS", "LiarGame", "LiarObserver", "LiarState", "Rules", "SHORT_NAME", "timeout_action"]
