"""``trustme_liar``: the Cheat/"Menteur" game of rule text ``004`` with Classique and Trust Me scoring.

Importing this package registers the game with pyspiel::

    import pyspiel
    import trustme_analysis
    game = pyspiel.load_game("trustme_liar(players=4,mode=trustme)")

Modules, in the rule text's order: :mod:`.config` (parameters and assumptions), :mod:`.deal` (set-up: the deal and
the pair discards), :mod:`.plays` (the action encoding), :mod:`.game` (rounds, challenges, passing, burning, going
out, the turn timer), :mod:`.scoring` (Classique ranking, Trust Me points, utilities), :mod:`.variants` (reduced
variants for exact solvers).
"""

from trustme_analysis.games.liar.config import LiarConfig
from trustme_analysis.games.liar.game import LiarGame, LiarObserver, LiarState, timeout_action
from trustme_analysis.games.liar.plays import BURN, LIAR, PASS

__all__ = ["BURN", "LIAR", "PASS", "LiarConfig", "LiarGame", "LiarObserver", "LiarState", "timeout_action"]
