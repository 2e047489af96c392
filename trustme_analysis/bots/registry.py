"""Which bots exist for which game, by the names a sweep spec uses.

A game's bot module calls :func:`register_bot` at import time; the sweep builds seats with :func:`make_bot`. The
uniform random bot is available for every game under the kind ``"random"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.bots.base import TrustMeBot, UniformRandomBot

BotFactory = Callable[..., TrustMeBot]

_BOTS: dict[tuple[str, str], BotFactory] = {}


def register_bot(game_short_name: str, kind: str, factory: BotFactory) -> None:
    """Make ``factory(game, player_id, rng, **knobs)`` available as bot ``kind`` for ``game_short_name``."""
    _BOTS[(game_short_name, kind)] = factory


def bot_kinds(game_short_name: str) -> list[str]:
    """The bot kinds a spec may name for this game (always includes ``"random"``)."""
    kinds = {"random"} | {k for (g, k) in _BOTS if g == game_short_name}
    return sorted(kinds)


def make_bot(
    game: pyspiel.Game, kind: str, player_id: int, rng: np.random.Generator, **knobs: Any
) -> TrustMeBot:
    """A bot of ``kind`` for seat ``player_id`` of ``game``; unknown kinds and knobs fail with a clear message."""
    short = game.get_type().short_name
    if kind == "random" and (short, kind) not in _BOTS:
        if knobs:
            raise ValueError(f"bot 'random' takes no knobs; got {sorted(knobs)}")
        return UniformRandomBot(player_id, rng)
    try:
        factory = _BOTS[(short, kind)]
    except KeyError:
        raise ValueError(
            f"unknown bot kind {kind!r} for game {short!r}; available: {', '.join(bot_kinds(short))}"
        ) from None
    return factory(game, player_id, rng, **knobs)
