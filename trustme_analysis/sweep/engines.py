"""Which engine plays a variant's games: the game's compiled kernel, or the pyspiel API with Python bots.

A spec's ``engine`` key asks for one (default ``"auto"``):

- ``"auto"``: the kernel when the game's kernel plays the variant and its line-up (the registry's
  :meth:`~trustme_analysis.registry.GameEntry.kernel_reason` says so: the seat kinds its whole-game loop plays, and
  every rule parameter declared or at its default), the pyspiel path otherwise, with the reason as the variant's note;
- ``"kernel"``: the kernel for every variant, or a spec error naming what it cannot play;
- ``"pyspiel"``: the pyspiel path for every variant.

Nothing here names a game, and nothing probes a kernel: it is reached through the registry's kernel entry and the
Protocols of :mod:`trustme_analysis.engine.kernels` only (``Kernel.play`` gives a batch whose ``columns()``,
``rows()`` and ``history(g)`` the sweep reads).

Both engines draw a kernel-playable line-up's random numbers from one SplitMix64 stream per game, seeded by the game's
seed, by the draw protocol of :mod:`trustme_analysis.engine.draws` (:mod:`.seeding`), so the same seed gives the same
games, record for record, on either engine, for any worker count and backend.

Probe seats (bot kind ``"probe"``, :mod:`trustme_analysis.players.probe`) play in the kernel where its entry declares
their strategy (:attr:`~trustme_analysis.engine.kernels.KernelEntry.probe_strategies`) and their knobs are the
strategy alone (or with ``base = "heuristic"``): the kernel plays the default heuristic's mixed strategy restricted to
the rule's moves, the Python probe's distribution (``tests/games/test_kernel_probe_seats.py``), drawn by the kernel's
own rule (one uniform number over the restricted weights), so, like trained seats, not record for record the pyspiel
path's games. A probe over another base, or with base knobs, is played by the pyspiel path, with the reason.

Trained seats (bot kind ``"trained"``, :mod:`trustme_analysis.players.trained`) play in the kernel where its entry
declares them (:attr:`~trustme_analysis.engine.kernels.KernelEntry.policy_seat_kinds`): the line-up's trained seats
must share one policy (the same knobs), and the kernel is handed that stored policy's lookup table
(:class:`TrainedSeat`, :class:`KernelPlayer`); the sweep's train stage stores it first. The kernel's trained seat plays
the stored policy's probabilities exactly, but draws them differently from the pyspiel ``TrainedBot`` (a row entry by
one uniform number, then one of the moves the entry describes by one integer, where the bot walks the moves with one
uniform number), so a trained line-up's games are the same for any worker count and backend but not record for record
the same on the two engines (``tests/sweep/test_sweep_trained.py`` checks both).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.kernels import PROBE_KIND_PREFIX, PlayedGames, probe_kind
from trustme_analysis.players.lineup import LineUp
from trustme_analysis.registry import find_game

#: The values of a spec's ``engine`` key.
ENGINES = ("auto", "kernel", "pyspiel")
DEFAULT_ENGINE = "auto"
KERNEL = "kernel"
PYSPIEL = "pyspiel"


@functools.lru_cache(maxsize=64)
def _game(game_string: str) -> pyspiel.Game:
    return pyspiel.load_game(game_string)


#: The bot kind whose seats play a stored trained policy (:mod:`trustme_analysis.players.trained`).
TRAINED = "trained"
#: The knob of a trained seat that says where its policies are stored (``OUTDIR/train/<fingerprint>/``).
TRAINED_OUTDIR = "outdir"


@dataclass(frozen=True)
class TrainedSeat:
    """A trained seat as a kernel plays it (an entry of :func:`seat_kinds`): the folder whose ``train/`` holds its
    policy and the seat's training knobs, which with the variant name the stored policy."""

    outdir: str
    knobs: tuple[tuple[str, Any], ...]
    kind: str = TRAINED

    def __str__(self) -> str:
        return self.kind

    def settings(self, game: Any) -> Any:
        """The training settings the knobs name for ``game`` (:class:`trustme_analysis.train.TrainSettings`)."""
        from trustme_analysis.players.trained import settings_from

        return settings_from(dict(self.knobs), game)


def trained_seat(knobs: Mapping[str, Any]) -> TrainedSeat:
    """The :class:`TrainedSeat` of a trained seat's knobs (its ``outdir`` knob, or the bot's default folder)."""
    from trustme_analysis.players.trained import DEFAULT_OUTDIR

    rest = tuple(sorted((k, v) for k, v in knobs.items() if k != TRAINED_OUTDIR))
    return TrainedSeat(str(knobs.get(TRAINED_OUTDIR, DEFAULT_OUTDIR)), rest)


#: The bot kind of probe seats (:mod:`trustme_analysis.players.probe`), and the one base a kernel plays them over.
PROBE = "probe"
PROBE_BASE = "heuristic"


def probe_reason(knobs: Mapping[str, Any]) -> str | None:
    """``None`` where a probe seat's knobs are the ones a kernel's probe plays (``strategy``, and ``base`` only as
    ``"heuristic"``, the default), else why not, in one line."""
    other = sorted(set(knobs) - {"strategy", "base"})
    if other:
        return (f"kernels play probe seats with knobs strategy and base = {PROBE_BASE!r} only, not "
                f"{', '.join(other)}")
    if knobs.get("base", PROBE_BASE) != PROBE_BASE:
        return f"kernels play probe seats over base {PROBE_BASE!r} only, not base {knobs['base']!r}"
    return None


def _seat_kind(seat: Any) -> str | TrainedSeat:
    if seat.bot == TRAINED:
        return trained_seat(seat.knobs)
    if seat.bot == PROBE and probe_reason(seat.knobs) is None:
        return probe_kind(str(seat.knobs.get("strategy")))
    return seat.bot


def seat_kinds(lineup: LineUp, num_players: int) -> tuple[str | TrainedSeat, ...]:
    """Each seat of a fixed line-up as the kernel plays it: its bot kind, for a trained seat its :class:`TrainedSeat`
    (which policy it plays; ``str()`` of it is the kind), for a probe seat a kernel may play the probe kind of its
    strategy (:func:`~trustme_analysis.engine.kernels.probe_kind`, ``"probe:never trust"``)."""
    return tuple(_seat_kind(seat) for seat in lineup.seats_for(num_players))


def _probe_kinds_reason(entry: Any, kinds: Sequence[str]) -> str | None:
    """``None`` where the game's kernel plays every probe kind in ``kinds``, else why not (one line)."""
    plays = tuple(entry.kernel.probe_strategies)
    asked = [k[len(PROBE_KIND_PREFIX):] for k in kinds if k.startswith(PROBE_KIND_PREFIX)]
    missing = sorted(set(asked) - set(plays))
    if not missing:
        return None
    if not plays:
        return f"{entry.short_name}'s kernel plays no probe seats (probe {', '.join(map(repr, missing))})"
    return (f"{entry.short_name}'s kernel plays probe seats of strategies {', '.join(map(repr, plays))} only, not "
            f"{', '.join(map(repr, missing))}")


def _plain(kinds: Sequence[str]) -> list[str]:
    """The kinds that are not probe kinds (those the registry's seat-kind declarations judge)."""
    return [k for k in kinds if not k.startswith(PROBE_KIND_PREFIX)]


def kernel_reason(game_string: str, lineup: LineUp) -> str | None:
    """``None`` if the game's kernel plays this variant and line-up exactly as the pyspiel path would (the same
    players, the same rules), else why not, in one line."""
    game = _game(game_string)
    short = game.get_type().short_name
    entry = find_game(short)
    if entry is None or entry.kernel is None:
        return f"{short} has no compiled kernel"
    if lineup.pool is not None:
        return f"line-up {lineup.name!r} draws its seats from a pool game by game; kernels play fixed seats"
    seats = lineup.seats_for(game.num_players())
    # A trained seat's knobs name its policy, which the kernel is handed, and a probe seat's its strategy, which the
    # kernel may play; any other kind's knobs it would not take.
    knobbed = sorted({s.bot for s in seats if s.knobs and s.bot not in (TRAINED, PROBE)})
    if knobbed:
        # A kernel would play the kind's default settings.
        return f"seats of kind(s) {', '.join(knobbed)} set knobs, which kernels do not take"
    for s in seats:
        reason = probe_reason(s.knobs) if s.bot == PROBE else None
        if reason is not None:
            return reason
    policies = {trained_seat(s.knobs) for s in seats if s.bot == TRAINED}
    if len(policies) > 1:
        return "its trained seats play different policies (different knobs); a kernel plays one trained policy"
    kinds = [str(k) for k in seat_kinds(lineup, game.num_players())]
    return (_probe_kinds_reason(entry, kinds)
            or entry.kernel_reason(game, _plain(kinds), use="game", trained=bool(policies)))


def resolve_engine(asked: str, game_string: str, lineup: LineUp) -> tuple[str, str]:
    """The engine that plays one variant, and a note saying why when ``"auto"`` chose the pyspiel path.

    Raises:
        ValueError: ``asked`` is ``"kernel"`` and the kernel cannot play the variant (the message says why).
    """
    if asked == PYSPIEL:
        return PYSPIEL, ""
    reason = kernel_reason(game_string, lineup)
    if reason is None:
        return KERNEL, ""
    if asked == KERNEL:
        raise ValueError(reason)
    return PYSPIEL, reason


class KernelPlayer:
    """Plays games of one variant and line-up with the game's kernel and returns their records.

    Args:
        game_string: the variant's game string.
        kinds: each seat as :func:`seat_kinds` gives it: a bot kind, or a :class:`TrainedSeat` (the stored policy
            it names is handed to the kernel).

    Raises:
        ValueError: the game's kernel does not play the variant with these seats, or a trained seat's policy is not
            stored (the reason).
    """

    def __init__(self, game_string: str, kinds: Sequence[str | TrainedSeat]):
        self.game = _game(game_string)
        self.players = self.game.num_players()
        entry = find_game(self.game.get_type().short_name)
        if entry is None:
            raise ValueError(f"{game_string} has no compiled kernel")
        trained = {k for k in kinds if isinstance(k, TrainedSeat)}
        if len(trained) > 1:
            raise ValueError("the trained seats play different policies; a kernel plays one trained policy")
        #: The stored policy the trained seats play (:class:`trustme_analysis.train.TrainedPolicy`), if any.
        self.policy = None
        table = None
        if trained:
            from trustme_analysis.train import stored

            seat = next(iter(trained))
            settings = seat.settings(self.game)
            self.policy = stored(self.game, settings, seat.outdir)
            if self.policy is None:
                raise ValueError(f"no current trained policy for these seats ({dict(seat.knobs)}) is stored under "
                                 f"{seat.outdir}/train yet; the sweep's train stage trains it before the games")
            table = (*self.policy.lookup(), int(settings.detail))
        names = tuple(str(k) for k in kinds)
        if names == tuple(_plain(names)):
            self.kernel = entry.new_kernel(self.game, names, use="game", trained=table)
            return
        # Probe seats: the entry's probe_strategies admit them, its seat kinds the others (what new_kernel checks).
        reason = (_probe_kinds_reason(entry, names)
                  or entry.kernel_reason(self.game, _plain(names), use="game", trained=table is not None))
        if reason is not None:
            raise ValueError(reason)
        make = entry.kernel_part("kernel")
        self.kernel = make(self.game, names, None) if table is None else make(self.game, names, None, trained=table)

    def play(self, seeds: Sequence[int], histories: bool = False) -> PlayedGames:
        """The kernel's batch of one game per seed."""
        return self.kernel.play(np.asarray(seeds, dtype=np.uint64), histories=histories)

    def rows(self, seeds: Sequence[int]) -> list[list[dict[str, Any]]]:
        """One list of rows (one per seat) per game, game ``g`` played from ``seeds[g]`` alone."""
        return self.play(seeds).rows()

    def columns(self, seeds: Sequence[int]) -> dict[str, list[Any]]:
        """The records of one game per seed as columns (one entry per row: game by game, seats in order), the same
        values as :meth:`rows` gives, without building a dict per row."""
        return self.play(seeds).columns()

    def arrays(self, seeds: Sequence[int]) -> dict[str, Any]:
        """The records of one game per seed as Arrow arrays (one entry per row, as :meth:`columns`), built from the
        kernel's arrays without a Python object per value: what a sweep stores (:func:`.play.kernel_tables`)."""
        return self.play(seeds).record_arrays()

    def history(self, seed: int) -> list[int]:
        """The actions of the game of ``seed`` (chance outcomes included), to replay it through the engine."""
        return self.play([seed], histories=True).history(0)


@functools.lru_cache(maxsize=16)
def kernel_player(game_string: str, kinds: tuple[str | TrainedSeat, ...]) -> KernelPlayer:
    """:class:`KernelPlayer` once per variant and line-up per process (its compiled code is loaded once)."""
    return KernelPlayer(game_string, kinds)


def warm_up(game_string: str, kinds: tuple[str | TrainedSeat, ...]) -> None:
    """Compile the kernel's code for this variant (or load it from numba's on-disk cache) by playing two games."""
    kernel_player(game_string, kinds).rows([1, 2])
