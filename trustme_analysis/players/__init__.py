"""Players for every game: the uniform random bot, the policy bot (a stored policy), and the registry of bot kinds.

Every bot is a :class:`pyspiel.Bot` that takes a :class:`numpy.random.Generator`; see :mod:`.base`. Sweeps create
bots by name through :func:`make_bot`; each game's own bots (its heuristic, ...) live in its package and register
through :func:`register_bot`.
"""

from trustme_analysis.players.base import TrustMeBot, UniformRandomBot
from trustme_analysis.players.registry import bot_kinds, make_bot, register_bot

__all__ = ["TrustMeBot", "UniformRandomBot", "bot_kinds", "make_bot", "register_bot"]
