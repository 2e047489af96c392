"""The contract between the core and a game's compiled kernel: what a kernel must offer, and what it declares it plays.

A game may ship a second implementation of its rules in compiled code (a *kernel*: numba over integer arrays) so
that whole games, rollouts and game trees run at machine speed. The core (sweeps, the search player, the solver, the
trainer) uses a kernel only through what this module writes down:

- :class:`KernelEntry`: the registry's kernel entry of a game (:attr:`trustme_analysis.registry.GameEntry.kernel`),
  plain data: the kernel class, the seat kinds its whole-game loop and its rollouts play, **the rule parameters and
  values it plays** (:attr:`KernelEntry.parameters`), the seat kinds it plays when handed a trained policy, its limits, the search player's default budget, its tree
  producer for the solvers and the trained player's hooks;
- :class:`Kernel`, :class:`KernelState` and :class:`PlayedGames`: the Protocols the kernel class, its positions and its
  batches of played games follow (one naming for every game);
- :func:`unplayed`: the net. A kernel plays a variant only when every parameter of the variant is either declared
  with that value or left at its default, so a house rule added to the engine alone is never played wrong by the
  kernel: ``engine = "auto"`` sends such a variant to the engine and says why, ``engine = "kernel"`` refuses it.

The kernel is proven identical to the engine step by step by the lock-step harness (:mod:`.lockstep`), over variants
drawn from the games' parameter examples (``tests/games/test_kernel_parameters.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pyspiel

#: A part of an entry: ``"module:attribute"`` relative to the game's package, the object itself, or ``None``.
Part = str | Callable[..., Any] | None


@dataclass(frozen=True)
class Plays:
    """The values of one rule parameter a kernel plays: ``values=None`` means every value the engine accepts (within
    the kernel's :attr:`KernelEntry.limits`)."""

    values: tuple[Any, ...] | None = None

    def admits(self, value: Any) -> bool:
        """Whether the kernel plays the parameter at ``value``."""
        return self.values is None or value in self.values

    def allowed(self) -> str:
        """The values in words (for a refusal)."""
        return "any value" if self.values is None else ", ".join(repr(v) for v in self.values)


#: Every value the engine accepts.
EVERY_VALUE = Plays()

#: A probe seat's kind in a kernel's whole games: this prefix and the name of the simple strategy it plays
#: (``"probe:never trust"``; :attr:`KernelEntry.probe_strategies`).
PROBE_KIND_PREFIX = "probe:"


def probe_kind(strategy: str) -> str:
    """The kernel seat kind of a probe that plays ``strategy`` over the heuristic (:data:`PROBE_KIND_PREFIX`)."""
    return PROBE_KIND_PREFIX + strategy


def only(*values: Any) -> Plays:
    """The kernel plays the parameter at these values only."""
    return Plays(tuple(values))


@dataclass(frozen=True)
class KernelEntry:
    """What a game's compiled kernel plays and offers, as data (the registry's ``kernel`` entry of a game).

    Parts (``"module:attribute"`` strings) are relative to the game's package and imported on first use, through
    :meth:`trustme_analysis.registry.GameEntry.kernel_part`.
    """

    #: The rule parameters the kernel plays, each with the values it plays. A parameter of the game that is not named
    #: here is played only at its default (the net: :func:`unplayed`).
    parameters: Mapping[str, Plays]
    #: The kernel class (:class:`Kernel`): ``Kernel(game, seat_kinds, knobs=None)``; ``None`` for a kernel that only
    #: produces game trees (sweeps and search players then use the pyspiel path).
    kernel: Part = None
    #: Seat kinds the whole-game loop plays (:meth:`Kernel.play`: a sweep's line-ups).
    game_seat_kinds: tuple[str, ...] = ()
    #: Seat kinds the rollouts play (:meth:`Kernel.rollouts`: a search player's ``rollout`` knob).
    rollout_seat_kinds: tuple[str, ...] = ()
    #: Seat kinds the whole-game loop plays only when it is handed a trained policy (``Kernel(game, seat_kinds,
    #: knobs, trained=(keys, avg, detail))``, the stored policy's lookup table and abstraction level, see
    #: :class:`trustme_analysis.train.TrainedPolicy`): a sweep's ``trained`` seats, alone or mixed with the kinds of
    #: :attr:`game_seat_kinds`. Every such seat of one kernel plays the one policy it was handed.
    policy_seat_kinds: tuple[str, ...] = ()
    #: The probes the whole-game loop plays, by the names of the game's simple strategies: a sweep's probe seat
    #: (bot kind ``"probe"``, :mod:`trustme_analysis.players.probe`) whose knobs are ``strategy`` alone, or with
    #: ``base = "heuristic"``, plays there as seat kind :func:`probe_kind` of its strategy (the default heuristic's
    #: mixed strategy restricted to the moves the rule prefers), beside the kinds of :attr:`game_seat_kinds` and
    #: :attr:`policy_seat_kinds`. Another base, or base knobs, is played by the pyspiel path.
    probe_strategies: tuple[str, ...] = ()
    #: Seat kinds the rollouts play only when handed a trained policy (as :attr:`policy_seat_kinds` for whole
    #: games): a search player whose ``rollout`` is ``"trained"`` plays its rollouts in the kernel.
    policy_rollout_kinds: tuple[str, ...] = ()
    #: ``limits(game) -> reason | None``: what the kernel's arrays hold (sizes, integer ranges), beyond the values.
    limits: Part = None
    #: The search player's default budget (rollouts per decision) where this kernel plays the rollouts: a number, or
    #: a part ``search_budget(game) -> int`` where it depends on the variant.
    search_budget: int | Part = None
    #: ``compile_tree(game, max_histories) -> cfr.CompiledGame``: the same tree as :func:`cfr.compile_game`.
    tree_producer: Part = None
    #: The tree producer's name on the solve summary.
    tree_producer_name: str = ""
    #: The trained player's hooks (its abstraction and self-play traversal), where the game has them.
    trained: Part = None
    #: Variants ``benchmarks/kernels.py`` measures and verifies (label -> game string).
    benchmark_variants: Mapping[str, str] = field(default_factory=dict)

    def plays_games(self) -> bool:
        """Whether the kernel plays whole games (it has a kernel class), not only game trees."""
        return self.kernel is not None


@runtime_checkable
class KernelState(Protocol):
    """A position of the kernel with the pyspiel state calls the lock-step harness and the search player use."""

    def current_player(self) -> int:
        """The seat to act, ``-1`` at a chance node, ``-4`` at the end (pyspiel's numbers)."""

    def is_terminal(self) -> bool:
        """Whether the game is over."""

    def is_chance_node(self) -> bool:
        """Whether chance moves next."""

    def legal_actions(self) -> list[int]:
        """The seat's legal actions (at a chance node: the outcomes), ascending, the engine's numbers."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs, exactly as the engine gives them (empty off a chance node)."""

    def apply_action(self, action: int) -> None:
        """Play a legal action or chance outcome (anything else raises ValueError)."""

    def returns(self) -> list[float]:
        """Each seat's return, as the engine's ``returns()``."""

    def history(self) -> list[int]:
        """Every action and chance outcome applied so far."""

    def clone(self) -> KernelState:
        """An independent copy."""

    def rows(self) -> list[dict[str, Any]]:
        """The records of this finished game, exactly as the game's ``records`` part gives them for the engine's
        terminal state (a game the kernel state followed from its start)."""


@runtime_checkable
class PlayedGames(Protocol):
    """A batch of whole games played by :meth:`Kernel.play`, one per seed, with their records."""

    #: The seed of each game.
    seeds: np.ndarray

    def __len__(self) -> int:
        """The number of games."""

    def history(self, g: int) -> list[int]:
        """Game ``g``'s actions, chance outcomes included (kept only when played with ``histories=True``)."""

    def rows(self) -> list[list[dict[str, Any]]]:
        """Every game's records: one list per game of one row per seat, exactly as the game's ``records`` part gives
        them for the engine's terminal state."""

    def columns(self) -> dict[str, list[Any]]:
        """The same records as columns: field -> one value per row, game by game, seats in order (the values and
        types :meth:`rows` holds)."""

    def record_arrays(self) -> dict[str, Any]:
        """The same records as Arrow arrays (field -> ``pyarrow.Array``, one entry per row, in record order), of the
        types pandas gives the rows' values, built without a Python object per value
        (:func:`trustme_analysis.engine.record_arrays.record_arrays`): the sweep stores them as they are."""


@runtime_checkable
class Kernel(Protocol):
    """A game's kernel for one loaded variant: ``Kernel(game, seat_kinds=("random",), knobs=None)``, or
    ``Kernel(game, seat_kinds, knobs, trained=(keys, avg, detail))`` for a kernel that declares
    :attr:`KernelEntry.policy_seat_kinds`.

    ``seat_kinds`` names the kind of each seat (one kind for all, or one per seat) that :meth:`play` and
    :meth:`rollouts` play, from :attr:`KernelEntry.game_seat_kinds` / :attr:`KernelEntry.rollout_seat_kinds` (and,
    in whole games with a trained policy handed over, :attr:`KernelEntry.policy_seat_kinds`); ``knobs`` the
    heuristic seats' knobs; ``trained`` the policy the trained seats play (its lookup table, as
    :meth:`trustme_analysis.train.TrainedPolicy.lookup` gives it, and the abstraction level it was trained at).
    """

    #: The loaded variant.
    game: pyspiel.Game

    def new_state(self) -> KernelState:
        """The start of a game, as ``game.new_initial_state()``."""

    def state_from(self, state: pyspiel.State) -> KernelState:
        """The kernel position of an engine state (a world a search player sampled), hidden part included."""

    def play(self, seeds: np.ndarray, histories: bool = False) -> PlayedGames:
        """One whole game per uint64 seed, each depending on its seed alone, seats of the kernel's kinds."""

    def rollouts(self, state: KernelState, n: int, seed: int) -> np.ndarray:
        """Mean returns (one per seat) of ``n`` play-outs from ``state`` by the kernel's seats."""

    def action_rollouts(self, state: KernelState, actions: Sequence[int], worlds: int, per_world: int, seed: int,
                        viewer: int, belief: bool = True) -> np.ndarray:
        """Mean returns (``len(actions) x players``) of each action over the same ``worlds`` worlds dealt from what
        ``viewer`` has seen, ``per_world`` play-outs each (a search player's round of sequential halving)."""

    def heuristic_policy(self, state: KernelState) -> dict[int, float]:
        """The compiled heuristic's distribution for the seat to act (the Python heuristic bot's, checked by tests)."""


def parameter_defaults(game: pyspiel.Game) -> dict[str, Any]:
    """The defaults of every rule parameter of ``game``'s type (its parameter table)."""
    return dict(game.get_type().parameter_specification)


def unplayed(entry: KernelEntry, game: pyspiel.Game) -> str | None:
    """``None`` when every rule parameter of the variant is one the kernel plays at its value (declared, or left at
    its default), else one line naming the first parameter that is not: the net that keeps a house rule added to the
    engine alone off the kernel."""
    defaults = parameter_defaults(game)
    for name, value in sorted(game.get_parameters().items()):
        plays = entry.parameters.get(name)
        if plays is None:
            if name in defaults and value != defaults[name]:
                return (f"the kernel plays parameter {name} only at its default {defaults[name]!r}, not {value!r} "
                        "(the parameter is not in its declaration)")
        elif not plays.admits(value):
            return f"the kernel plays {name} at {plays.allowed()} only, not {value!r}"
    return None


__all__ = [
    "EVERY_VALUE", "Kernel", "KernelEntry", "KernelState", "PROBE_KIND_PREFIX", "Part", "PlayedGames", "Plays", "only",
    "parameter_defaults", "probe_kind", "unplayed",
]
