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
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.kernels import PlayedGames
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


def seat_kinds(lineup: LineUp, num_players: int) -> tuple[str, ...]:
    """The bot kind of each seat of a fixed line-up."""
    return tuple(seat.bot for seat in lineup.seats_for(num_players))


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
    knobbed = sorted({s.bot for s in seats if s.knobs})
    if knobbed:
        # A kernel would play the kind's default settings.
        return f"seats of kind(s) {', '.join(knobbed)} set knobs, which kernels do not take"
    return entry.kernel_reason(game, [s.bot for s in seats], use="game")


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
        kinds: the bot kind of each seat.

    Raises:
        ValueError: the game's kernel does not play the variant with these seats (the reason).
    """

    def __init__(self, game_string: str, kinds: Sequence[str]):
        self.game = _game(game_string)
        self.players = self.game.num_players()
        entry = find_game(self.game.get_type().short_name)
        if entry is None:
            raise ValueError(f"{game_string} has no compiled kernel")
        self.kernel = entry.new_kernel(self.game, tuple(kinds), use="game")

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
def kernel_player(game_string: str, kinds: tuple[str, ...]) -> KernelPlayer:
    """:class:`KernelPlayer` once per variant and line-up per process (its compiled code is loaded once)."""
    return KernelPlayer(game_string, kinds)


def warm_up(game_string: str, kinds: tuple[str, ...]) -> None:
    """Compile the kernel's code for this variant (or load it from numba's on-disk cache) by playing two games."""
    kernel_player(game_string, kinds).rows([1, 2])
