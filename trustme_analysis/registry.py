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
  each candidate world (the search player's belief model; ``belief_off_for``, data, names the rollout kinds under
  which a search player leaves it off unless told);
- ``search_actions``: ``search_actions(state, player) -> actions``: the legal moves a search player tries, where a
  game has too many to try each (a Liar starter may hold 14,000 legal plays);
- ``narrate``: ``narrate(event) -> text``: one event of the engine's snapshot in the rulebook's words
  (``python -m trustme_analysis.play``);
- ``kernel``: a :class:`~trustme_analysis.engine.kernels.KernelEntry` (data, not a part), where the game has a
  compiled kernel: the kernel class, the seat kinds it plays, the rule parameters and values it plays, its limits,
  the search player's budget, its tree producer and the trained player's hooks. The core reaches the kernel only
  through :meth:`GameEntry.kernel_reason`, :meth:`GameEntry.new_kernel`, :meth:`GameEntry.kernel_part` and
  the Protocols of :mod:`trustme_analysis.engine.kernels`.
- ``rescore``: ``rescore(game, finished) -> Rescored`` (:class:`trustme_analysis.engine.rescored.Rescored`): a finished game of another variant that differs from ``game``
  only in scoring-only parameters, scored again under ``game``'s rules without playing it again: ``Rescored.state``
  is a state of ``game`` at the moment its final scoring begins (terminal, or at a chance node the scoring needs,
  such as a tie-break), ``Rescored.chance_after`` the chance outcomes ``finished`` drew after that moment. A sweep
  plays the rest from there with the chance stream as it stood at that moment, so the records equal those of playing
  the game under ``game``'s rules from the same seed (see :mod:`trustme_analysis.sweep.rescoring`).
- ``findings``: a sequence of :class:`trustme_analysis.findings.Question`: the designer's questions of the game that
  ``python -m trustme_analysis.findings`` answers from a sweep playing heuristic and competent line-ups.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pyspiel

from trustme_analysis.engine.kernels import KernelEntry, Part, unplayed
from trustme_analysis.engine.rescored import Rescored  # noqa: F401  (the rescore part's return type, named here)

#: Entry-point group through which a separately installed package adds its games.
ENTRY_POINT_GROUP = "trustme_analysis.games"
#: The package whose sub-packages are the built-in games.
GAMES_PACKAGE = "trustme_analysis.games"


PARTS = ("records", "bots", "statistics", "pages", "strategy", "simple_strategies", "describe", "belief",
         "search_actions", "narrate", "rescore", "findings")
#: What a kernel is asked to play: whole games (a sweep's line-up), rollouts (a search player's) or a game tree.
KERNEL_USES = ("game", "rollout", "tree")


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
    rescore: Part = None
    #: The designer's questions (a sequence of :class:`trustme_analysis.findings.Question`) that
    #: ``python -m trustme_analysis.findings`` answers from a sweep with heuristic and competent line-ups.
    findings: Part = None
    #: Rollout kinds under which a search player's ``belief`` is off unless its knobs turn it on: where the belief
    #: (a model of other players) was measured to mislead a search whose rollouts model them otherwise.
    belief_off_for: tuple[str, ...] = ()
    #: The game's compiled kernel, where it has one (see the module docstring).
    kernel: KernelEntry | None = None
    #: For every rule parameter of the game, variants that set it to values other than its default (each a dict of
    #: parameters, with whatever else that value needs, e.g. ``{"coin_tossers": "any", "coin_variant": True,
    #: "players": 4}``): the lock-step tests and the kernel's parameter net draw their variants from these.
    parameter_examples: Mapping[str, Sequence[Mapping[str, Any]]] = field(default_factory=dict)

    def part(self, name: str) -> Any | None:
        """The part ``name`` (one of :data:`PARTS`), imported on first use; ``None`` if the game has none."""
        if name not in PARTS:
            raise ValueError(f"part={name!r} is not allowed; allowed: {', '.join(PARTS)}")
        return self._resolve(getattr(self, name))

    def _resolve(self, ref: Part) -> Any | None:
        if ref is None or not isinstance(ref, str):
            return ref
        module_name, _, attribute = ref.partition(":")
        if self.package and not module_name.startswith(self.package):
            module_name = f"{self.package}.{module_name}"
        module = importlib.import_module(module_name)
        return getattr(module, attribute) if attribute else module

    # -- the kernel, through its entry only
    def kernel_part(self, name: str) -> Any | None:
        """The kernel entry's part ``name`` (``"kernel"``, ``"limits"``, ``"tree_producer"``, ``"trained"``, or a
        ``search_budget`` given as a part), imported on first use; ``None`` if the game has no kernel or no such
        part."""
        if self.kernel is None:
            return None
        return self._resolve(getattr(self.kernel, name))

    def kernel_reason(self, game: pyspiel.Game, seat_kinds: Sequence[str] = (), use: str = "game",
                      trained: bool = False) -> str | None:
        """``None`` when the game's kernel plays this variant for ``use`` (one of :data:`KERNEL_USES`) with these
        seat kinds exactly as the engine would, else why not, in one line. ``trained``: a trained policy will be
        handed to the kernel (:meth:`new_kernel`), so whole games also admit the entry's
        :attr:`~trustme_analysis.engine.kernels.KernelEntry.policy_seat_kinds`."""
        if use not in KERNEL_USES:
            raise ValueError(f"use={use!r} is not allowed; allowed: {', '.join(KERNEL_USES)}")
        k = self.kernel
        if k is None:
            return f"{self.short_name} has no compiled kernel"
        if use == "tree":
            if k.tree_producer is None:
                return f"{self.short_name}'s kernel produces no game trees"
        elif not k.plays_games():
            return f"{self.short_name}'s kernel only produces game trees for the solvers; it plays no games"
        else:
            plays = k.game_seat_kinds if use == "game" else k.rollout_seat_kinds
            with_policy = tuple(k.policy_seat_kinds if use == "game" else k.policy_rollout_kinds)
            allowed = (*plays, *with_policy) if trained else plays
            missing = sorted(set(seat_kinds) - set(allowed))
            if missing:
                what = "whole games" if use == "game" else "rollouts"
                # A kind the kernel plays given a policy, asked for without one, says so.
                hint = (f" ({', '.join(sorted(set(missing) & set(with_policy)))} seats only when handed a trained "
                        "policy)") if set(missing) & set(with_policy) else ""
                return (f"{self.short_name}'s kernel plays {what} with {', '.join(plays)} seats only, "
                        f"not {', '.join(missing)}{hint}")
        reason = unplayed(k, game)
        if reason is None and k.limits is not None:
            reason = self._resolve(k.limits)(game)
        return reason

    def new_kernel(self, game: pyspiel.Game, seat_kinds: Sequence[str] = ("random",), knobs: dict | None = None,
                   use: str = "game", trained: tuple[Any, Any, int] | None = None) -> Any:
        """The game's kernel (:class:`~trustme_analysis.engine.kernels.Kernel`) for this variant and seats.

        Args:
            trained: the policy the seats of the entry's ``policy_seat_kinds`` play: ``(keys, avg, detail)``, the
                lookup table :meth:`trustme_analysis.train.TrainedPolicy.lookup` gives and the abstraction level the
                policy was trained at (``TrainSettings.detail``); in rollouts too where the entry's
                ``policy_rollout_kinds`` names them.

        Raises:
            ValueError: the kernel does not play them (the message is :meth:`kernel_reason`'s).
        """
        reason = self.kernel_reason(game, seat_kinds, use, trained=trained is not None)
        if reason is not None:
            raise ValueError(reason)
        make = self.kernel_part("kernel")
        if trained is None:
            return make(game, tuple(seat_kinds), knobs)
        return make(game, tuple(seat_kinds), knobs, trained=trained)

    def search_budget(self, game: pyspiel.Game) -> int | None:
        """The search player's default budget where this kernel plays its rollouts (``None``: it names none)."""
        budget = self.kernel.search_budget if self.kernel is not None else None
        return budget if budget is None or isinstance(budget, int) else int(self._resolve(budget)(game))

    @property
    def label(self) -> str:
        """The game's name for people (its title, else its short name)."""
        return self.title or self.short_name


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
