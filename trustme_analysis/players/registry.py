"""Which bots exist for which game, by the names a spec uses.

Four kinds exist for every game: ``"random"`` (uniform over the legal actions), ``"policy"`` (a stored, e.g. solved,
policy: :mod:`.policy`), ``"search"`` (information-set search: :mod:`.search`; for games whose states resample their
hidden information) and ``"probe"`` (one of the game's named simple strategies: :mod:`.probe`). A game's own kinds (``"heuristic"``, ...) are registered by its ``bots`` module
(:func:`register_bot`), which the game's registry entry names and which is imported the first time the game's bots
are asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot, UniformRandomBot
from trustme_analysis.players.policy import make_policy_bot
from trustme_analysis.players.probe import make_probe_bot
from trustme_analysis.players.search import make_search_bot
from trustme_analysis.registry import find_game

BotFactory = Callable[..., TrustMeBot]

#: Kinds every game has.
GENERIC_KINDS = ("policy", "probe", "random", "search")

_BOTS: dict[tuple[str, str], BotFactory] = {}


def register_bot(game_short_name: str, kind: str, factory: BotFactory) -> None:
    """Make ``factory(game, player_id, rng, **knobs)`` available as bot ``kind`` for ``game_short_name``."""
    _BOTS[(game_short_name, kind)] = factory


def _load_game_bots(game_short_name: str) -> None:
    entry = find_game(game_short_name)
    if entry is not None and entry.bots is not None:
        entry.part("bots")  # importing the game's bots module registers its kinds


def bot_kinds(game_short_name: str) -> list[str]:
    """The bot kinds a spec may name for this game (always includes the generic kinds)."""
    _load_game_bots(game_short_name)
    kinds = set(GENERIC_KINDS) | {k for (g, k) in _BOTS if g == game_short_name}
    return sorted(kinds)


def make_bot(
    game: pyspiel.Game, kind: str, player_id: int, rng: np.random.Generator, **knobs: Any
) -> TrustMeBot:
    """A bot of ``kind`` for seat ``player_id`` of ``game``; unknown kinds and knobs fail with a clear message."""
    short = game.get_type().short_name
    _load_game_bots(short)
    factory = _BOTS.get((short, kind))
    if factory is not None:
        return factory(game, player_id, rng, **knobs)
    if kind == "random":
        if knobs:
            raise ValueError(f"bot 'random' takes no knobs; got {sorted(knobs)}")
        return UniformRandomBot(player_id, rng)
    if kind == "policy":
        return make_policy_bot(game, player_id, rng, make_bot, **knobs)
    if kind == "search":
        return make_search_bot(game, player_id, rng, make_bot, **knobs)
    if kind == "probe":
        return make_probe_bot(game, player_id, rng, make_bot, bot_kinds(short), **knobs)
    raise ValueError(f"unknown bot kind {kind!r} for game {short!r}; available: {', '.join(bot_kinds(short))}")
