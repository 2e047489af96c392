"""Players for the Trust Me games: a uniform random bot for every game and per-game heuristic bots.

Every bot is a :class:`pyspiel.Bot` that takes a :class:`numpy.random.Generator`; see :mod:`.base`. Sweeps create
bots by name through :func:`make_bot`.
"""

from trustme_analysis.bots.base import TrustMeBot, UniformRandomBot
from trustme_analysis.bots.registry import bot_kinds, make_bot, register_bot

# Each game's bot module registers its bots when imported. Keep one import line per game.
from trustme_analysis.bots import pinocchio  # noqa: E402,F401  (trustme_pinocchio heuristic)
from trustme_analysis.bots import board1981  # noqa: E402,F401  (trustme_1981 heuristic)
from trustme_analysis.bots import liar  # noqa: E402,F401  (trustme_liar heuristic)
from trustme_analysis.bots import policy  # noqa: E402,F401  (kind "policy": a stored solved policy, all games)

__all__ = ["TrustMeBot", "UniformRandomBot", "bot_kinds", "make_bot", "register_bot"]
