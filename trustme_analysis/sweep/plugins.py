"""How a game plugs into sweeps and reports.

The sweep machinery is game-agnostic. A game contributes a :class:`GamePlugin`: a function that turns a finished game
into one record (a flat dict of game-specific columns) per seat, and a function that writes its statistics pages into
the PDF report. The sweep adds the common columns (variant, seed, seat, bot, ...) to every record itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pyspiel

#: ``records(game, terminal_state) -> [row for seat 0, row for seat 1, ...]``; values are scalars (int, float, bool,
#: str, None) or lists of numbers (e.g. a per-turn score trace), so rows store as Parquet columns.
RecordsFn = Callable[[pyspiel.Game, pyspiel.State], list[dict[str, Any]]]

#: ``pages(context) -> None``: adds the game's statistics pages to the report being built; ``context`` is the report
#: layer's object carrying the records DataFrame, the manifest and the open PDF.
PagesFn = Callable[[Any], None]


@dataclass(frozen=True)
class GamePlugin:
    """What a game provides to sweeps (``records``) and to the report (``pages``, optional)."""

    short_name: str
    records: RecordsFn
    pages: PagesFn | None = None


_PLUGINS: dict[str, GamePlugin] = {}


def register_plugin(plugin: GamePlugin) -> None:
    """Make ``plugin`` the sweep/report plug-in for its game (a later registration replaces an earlier one)."""
    _PLUGINS[plugin.short_name] = plugin


def get_plugin(short_name: str) -> GamePlugin:
    """The plug-in registered for ``short_name``; a clear error lists the games that have one."""
    _load_builtin_plugins()
    try:
        return _PLUGINS[short_name]
    except KeyError:
        known = ", ".join(sorted(_PLUGINS)) or "none"
        raise ValueError(f"no sweep plug-in for game {short_name!r}; games with one: {known}") from None


def plugin_games() -> list[str]:
    """Short names of the games that can be swept."""
    _load_builtin_plugins()
    return sorted(_PLUGINS)


def _load_builtin_plugins() -> None:
    # The per-game statistics modules register their plug-ins on import; importing here (not at module import time)
    # keeps trustme_analysis.sweep importable without the heavier statistics stack.
    import trustme_analysis.stats  # noqa: F401
