"""trustme-analysis: game-theory analysis of the three "Trust Me" bluffing games.

Importing this package registers every Trust Me game with OpenSpiel and with :mod:`trustme_analysis.registry`, so
that after ``import trustme_analysis`` ``pyspiel.load_game("trustme_pinocchio(players=3)")`` works. Worker processes
of a sweep import it for the same reason before they load a game.
"""

from trustme_analysis.registry import load_games

load_games()

__version__ = "0.1.0"

__all__ = ["__version__"]
