"""``trustme_liar``: the Cheat/"Menteur" game of rule text ``004`` with Classique and Trust Me scoring.

Importing this package registers the game with pyspiel::

    import pyspiel
    import trustme_analysis
    game = pyspiel.load_game("trustme_liar(players=4,mode=trustme)")

Modules, in the rule text's order: :mod:`~trustme_analysis.games.liar.config` (the parameters, :class:`~trustme_analysis.games.liar.config.Rules`, and the assumptions),
:mod:`~trustme_analysis.games.liar.deal` (set-up: the deal and the pair discards), :mod:`~trustme_analysis.games.liar.plays` (the action encoding), :mod:`~trustme_analysis.games.liar.state` (rounds,
challenges, passing, burning, going out, the turn timer, what each player knows), :mod:`~trustme_analysis.games.liar.events` (the event kinds and
their fields), :mod:`~trustme_analysis.games.liar.game` (the pyspiel game and its observer), :mod:`~trustme_analysis.games.liar.scoring` (Classique ranking, Trust Me points,
utilities), :mod:`~trustme_analysis.games.liar.worlds` (the worlds a search player samples), :mod:`~trustme_analysis.games.liar.variants` (reduced variants for exact
solvers).

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.liar.bots` (the heuristic and the search player's belief), :mod:`~trustme_analysis.games.liar.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.liar.stats` (the game's
statistics), :mod:`~trustme_analysis.games.liar.pages` (its report pages) and :mod:`~trustme_analysis.games.liar.strategy` (statistics of a solved policy).
"""

from trustme_analysis.games.liar.config import SHORT_NAME, Rules
from trustme_analysis.games.liar.game import LiarGame, LiarObserver, LiarState, timeout_action
from trustme_analysis.games.liar.plays import BURN, LIAR, PASS
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Liar",
        package=__name__,
        # The Trust Me points and the utility score a finished game; they never change the play.
        scoring_only=("points_going_out", "points_card_in_hand", "points_false_card", "points_unmasked",
                      "points_wrongly_accused", "utility"),
        records="records:records",
        bots="bots",
        statistics="stats:compute",
        pages="pages:draw",
        strategy="strategy:strategy_stats",
        simple_strategies="strategy:simple_strategies",
        belief="bots:belief",
        search_actions="bots:search_actions",
        kernel="kernel",
        describe="describe",
        rescore="rescore:rescore",
    )
)

__all__ = ["BURN", "LIAR", "PASS", "LiarGame", "LiarObserver", "LiarState", "Rules", "SHORT_NAME", "timeout_action"]
