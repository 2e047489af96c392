"""The one registry of games: what each game package gives the core, looked up by the game's short name.

The core (players, sweep, stats, results, report, solve) never imports a game package: it asks this registry. Each
game package (``trustme_analysis/games/<game>/``) registers one :class:`GameEntry` per pyspiel game it defines when it
is imported, and :func:`load_games` imports every game package: the sub-packages of :mod:`trustme_analysis.games`,
plus any installed package that declares an entry point in the group ``trustme_analysis.games`` (a game kept outside
this repository). ``import trustme_analysis`` calls :func:`load_games`, so after it every game is registered with
pyspiel and here.

An entry names each part as ``"module:attribute"`` relative to its package (or gives the object itself); a part is
imported the first time it is asked for, so importing the games loads only their engines, and matplotlib, say, loads
only when a report is drawn. The parts:

- ``records``: ``records(game, terminal_state) -> [row per seat]`` (a game without it cannot be swept);
- ``bots``: a module that registers the game's bot kinds with :func:`trustme_analysis.players.register_bot`;
- ``statistics``: ``compute(builder)`` adds the game's tables to a results set (:mod:`trustme_analysis.results`);
- ``pages``: ``draw(report)`` adds the game's report pages, drawn from the results set only;
- ``strategy``: ``strategy_stats(game, decision_points) -> {name: table}`` for solved policies;
- ``simple_strategies``: ``simple_strategies(game) -> {name: rule}`` ("always bluff", ...);
- ``describe``: a module that puts a solved policy in the game's own words: ``info_state(state, player) -> str``
  (what the player knows at its decision, e.g. "investor (seat 1), has not looked, first to decide; $10 and 10
  shares"), ``action(state, player, action) -> str``, ``COLUMNS`` (strategy-table column -> (header, unit)),
  ``TABLES`` (strategy table -> title and note), ``cell(column, value) -> str | None`` and
  ``strategy_findings(tables) -> [sentence]``; the solve layer stores the descriptions beside the information-state
  strings, and the solve pages print them instead of the strings.
- ``belief``: ``belief(state, player, worlds) -> weights``: how likely the other players' observed choices were in
  each candidate world (the search player's belief model);
- ``search_actions``: ``search_actions(state, player) -> actions``: the legal moves a search player tries, where a
  game has too many to try each (a Liar starter may hold 14,000 legal plays);
- ``narrate``: ``narrate(event) -> text``: one event of the engine's snapshot in the rulebook's words
  (``python -m trustme_analysis.play``);
- ``kernel``: the compiled kernel module (``kernel_supports(game, seat_kinds)``, ``Kernel(game)``), where the game has
  one; it may also offer a tree producer for the solvers (``compile_tree(game, max_histories)``, ``TREE_PRODUCER``),
  or be that producer alone (no ``Kernel``: sweeps and search players then use the pyspiel path).
- ``rescore``: ``rescore(game, finished) -> Rescored``: a finished game of another variant that differs from ``game``
  only in scoring-only parameters, scored again under ``game``'s rules without playing it again: ``Rescored.state``
  is a state of ``game`` at the moment its final scoring begins (terminal, or at a chance node the scoring needs,
  such as a tie-break), ``Rescored.chance_after`` the chance outcomes ``finished`` drew after that moment. A sweep
  plays the rest from there with the chance stream as it stood at that moment, so the records equal those of playing
  the game under ``game``'s rules from the same seed (see :mod:`trustme_analysis.sweep.rescoring`).
- ``training``: the game's trainer for :mod:`trustme_analysis.train` (a ``GameTrainer``: its information abstraction
  and Monte Carlo CFR traversal), where the game has a trained player.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata
from typing import Any, NamedTuple

#: Entry-point group through which a separately installed package adds its games.
ENTRY_POINT_GROUP = "trustme_analysis.games"
#: The package whose sub-packages are the built-in games.
GAMES_PACKAGE = "trustme_analysis.games"

#: A part: ``"module:attribute"`` relative to the entry's package, the object itself, or ``None`` (not provided).
Part = str | Callable[..., Any] | None

PARTS = ("records", "bots", "statistics", "pages", "strategy", "simple_strategies", "describe", "belief",
         "search_actions", "narrate", "kernel", "rescore", "training")


@dataclass(frozen=True)
class GameEntry:
    """What one pyspiel game provides to sweeps, statistics, reports and solves (see the module docstring)."""

    short_name: str
    title: str = ""
    package: str = ""
    #: Rule parameters that change only how a finished game is scored (a chart, points, the utility), never the
    #: play: variants that differ only in them, played by players that do not read them, are the same games.
    scoring_only: tuple[str, ...] = ()
    records: Part = None
    bots: Part = None
    statistics: Part = None
    pages: Part = None
    strategy: Part = None
    simple_strategies: Part = None
    describe: Part = None
    belief: Part = None
    search_actions: Part = None
    narrate: Part = None
    kernel: Part = None
    rescore: Part = None
    training: Part = None

    def part(self, name: str) -> Any | None:
        """The part ``name`` (one of :data:`PARTS`), imported on first use; ``None`` if the game has none."""
        if name not in PARTS:
            raise ValueError(f"part={name!r} is not allowed; allowed: {', '.join(PARTS)}")
        ref = getattr(self, name)
        if ref is None or not isinstance(ref, str):
            return ref
        module_name, _, attribute = ref.partition(":")
        if self.package and not module_name.startswith(self.package):
            module_name = f"{self.package}.{module_name}"
        module = importlib.import_module(module_name)
        return getattr(module, attribute) if attribute else module

    @property
    def label(self) -> str:
        """The game's name for people (its title, else its short name)."""
        return self.title or self.short_name


class Rescored(NamedTuple):
    """What a game's ``rescore`` part returns (see the module docstring)."""

    #: A state of the variant's game at the moment its final scoring begins.
    state: Any
    #: Chance outcomes the finished game drew after that moment (its own scoring's draws, e.g. a tie-break Coin).
    chance_after: int = 0


_GAMES: dict[str, GameEntry] = {}
_loaded = False


def register_game(entry: GameEntry) -> None:
    """Register ``entry`` under its short name (a later registration replaces an earlier one)."""
    _GAMES[entry.short_name] = entry


def load_games() -> None:
    """Import every game package once (built-in sub-packages of :mod:`trustme_analysis.games` and entry points)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    games = importlib.import_module(GAMES_PACKAGE)
    for info in sorted(pkgutil.iter_modules(games.__path__), key=lambda i: i.name):
        if info.ispkg:
            importlib.import_module(f"{GAMES_PACKAGE}.{info.name}")
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if not ep.value.startswith(GAMES_PACKAGE + "."):
            ep.load()


def game_entry(short_name: str) -> GameEntry:
    """The entry registered for ``short_name``; a clear error lists the games that have one."""
    load_games()
    try:
        return _GAMES[short_name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise ValueError(f"game={short_name!r} is not registered; registered games: {known}") from None


def find_game(short_name: str) -> GameEntry | None:
    """The entry registered for ``short_name``, or ``None``."""
    load_games()
    return _GAMES.get(short_name)


def game_names(part: str | None = None) -> list[str]:
    """Short names of the registered games (those providing ``part`` when given), sorted."""
    load_games()
    return sorted(name for name, e in _GAMES.items() if part is None or getattr(e, part) is not None)
