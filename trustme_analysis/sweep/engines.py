"""Which engine plays a variant's games: the game's compiled kernel, or the pyspiel API with Python bots.

A spec's ``engine`` key asks for one (default ``"auto"``):

- ``"auto"``: the kernel when the game's kernel plays the variant's line-up (its ``kernel_supports`` says so), the
  pyspiel path otherwise;
- ``"kernel"``: the kernel for every variant, or a spec error naming what it cannot play;
- ``"pyspiel"``: the pyspiel path for every variant.

Nothing here names a game. A game's kernel is its registry part ``kernel``: a module with
``kernel_supports(game, seat_kinds) -> None | reason``, a class ``Kernel`` and ``GAME_SEAT_KINDS``: the seat kinds
its whole-game loop plays (``("random",)`` when absent). The sweep builds ``Kernel(game,
seat_kinds)`` when the class takes ``seat_kinds`` (else ``Kernel(game)``, which plays random seats), plays a chunk with
its ``play(seeds)`` when it has one (else ``play_random(seeds)``), and reads the chunk's records with ``to_rows()``
(every game's rows in game order, seats in order; a list per game is flattened).

Both engines draw a kernel-playable line-up's random numbers from one SplitMix64 stream per game, seeded by the game's
seed, by the draw protocol of :mod:`trustme_analysis.engine.draws` (:mod:`.seeding`), so the same seed gives the same
games, record for record, on either engine, for any worker count and backend.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pyspiel

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


def kernel_module(short_name: str) -> Any | None:
    """The game's kernel module (its registry part ``kernel``) when it plays games (has a ``Kernel`` class), or
    ``None`` where it has none or only compiles game trees for the solvers."""
    entry = find_game(short_name)
    module = entry.part(KERNEL) if entry is not None else None
    return module if hasattr(module, "Kernel") else None


def seat_kinds(lineup: LineUp, num_players: int) -> tuple[str, ...]:
    """The bot kind of each seat of a fixed line-up."""
    return tuple(seat.bot for seat in lineup.seats_for(num_players))


def kernel_reason(game_string: str, lineup: LineUp) -> str | None:
    """``None`` if the game's kernel plays this variant and line-up exactly as the pyspiel path would (the same
    players, the same rules), else why not, in one line."""
    game = _game(game_string)
    short = game.get_type().short_name
    module = kernel_module(short)
    if module is None:
        return f"{short} has no compiled kernel"
    if lineup.pool is not None:
        return f"line-up {lineup.name!r} draws its seats from a pool game by game; kernels play fixed seats"
    seats = lineup.seats_for(game.num_players())
    knobbed = sorted({s.bot for s in seats if s.knobs})
    if knobbed:
        # kernel_supports is asked about kinds only: a kernel would play the kind's default settings.
        return f"seats of kind(s) {', '.join(knobbed)} set knobs, which kernels do not take"
    kinds = [s.bot for s in seats]
    reason = module.kernel_supports(game, kinds)
    if reason is not None:
        return reason
    # kernel_supports speaks for every use of the kernel (a search player's rollouts too); whole games of a sweep are
    # played only with the seat kinds the kernel module declares its game loop plays (uniform random when it declares
    # none), so a kernel whose heuristic serves only rollouts never plays a heuristic line-up as random seats.
    plays = tuple(getattr(module, "GAME_SEAT_KINDS", ("random",)))
    missing = sorted(set(kinds) - set(plays))
    if missing:
        return (f"{short}'s kernel plays whole games with {', '.join(plays)} seats only, not {', '.join(missing)} "
                "(its other seat kinds serve the search player's rollouts)")
    return None


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
    """Plays games of one variant and line-up with the game's kernel and returns their records as rows.

    Args:
        game_string: the variant's game string.
        kinds: the bot kind of each seat.
    """

    def __init__(self, game_string: str, kinds: Sequence[str]):
        self.game = _game(game_string)
        self.players = self.game.num_players()
        module = kernel_module(self.game.get_type().short_name)
        if module is None:
            raise ValueError(f"{game_string} has no compiled kernel")
        reason = module.kernel_supports(self.game, list(kinds))
        if reason is not None:
            raise ValueError(reason)
        if "seat_kinds" in inspect.signature(module.Kernel).parameters:
            self.kernel = module.Kernel(self.game, seat_kinds=list(kinds))
        elif all(k == "random" for k in kinds):
            self.kernel = module.Kernel(self.game)
        else:  # kernel_supports accepted the kinds but the class cannot be told them: a bug in the game's kernel
            raise ValueError(f"{module.__name__}.Kernel takes no seat_kinds, so it plays only random seats")
        self._play = getattr(self.kernel, "play", None) or self.kernel.play_random

    def play(self, seeds: Sequence[int], histories: bool = False) -> Any:
        """The kernel's result for one game per seed (what its ``play``/``play_random`` returns)."""
        return self._play(np.asarray(seeds, dtype=np.uint64), histories=histories)

    def rows(self, seeds: Sequence[int]) -> list[list[dict[str, Any]]]:
        """One list of rows (one per seat) per game, game ``g`` played from ``seeds[g]`` alone."""
        return game_rows(self.play(seeds), len(seeds), self.players)

    def columns(self, seeds: Sequence[int]) -> dict[str, list[Any]]:
        """The records of one game per seed as columns (one entry per row: game by game, seats in order), the same
        values as :meth:`rows` gives, without building a dict per row (most of a kernel chunk's time otherwise).

        Read from the kernel result's ``columns`` (field -> array, ``[game, seat, ...]`` or ``[game * seat,
        ...]``) and its score trace (``trace`` with ``trace_offsets`` or ``trace_off``, turn-major); the field order
        and the values of the first game are checked against its ``to_rows()``, and a result laid out otherwise is
        read row by row.
        """
        played = self.play(seeds)
        first = game_rows(self.play(seeds[:1]), 1, self.players)[0]
        names = list(first[0])
        out = _columns_of(played, names, len(seeds), self.players)
        if out is None or any(not _same(out[k][p], first[p][k]) for k in names for p in range(self.players)):
            rows = [row for game in game_rows(played, len(seeds), self.players) for row in game]
            out = {k: [row[k] for row in rows] for k in names}
        return out

    def arrays(self, seeds: Sequence[int]) -> dict[str, pa.Array]:
        """The records of one game per seed as Arrow arrays (one entry per row, as :meth:`columns`), built from the
        kernel's arrays without a Python object per value: what a sweep stores (:func:`.play.kernel_tables`).

        Each array has the type pandas would give the rows' values (``int64`` for integers, ``large_string`` for
        strings, a list type for lists, NaN as null), so the stored file is the one the row path writes. The first
        game's values are checked against its ``to_rows()`` (one compiled call of one game), and a result laid out
        otherwise is read row by row.
        """
        played = self.play(seeds)
        first = game_rows(self.play(seeds[:1]), 1, self.players)[0]
        names = list(first[0])
        out = _arrow_of(played, names, len(seeds), self.players)
        if out is None or not _same_rows(out, names, first):
            listed = self.columns(seeds)
            out = {k: pa.array(listed[k], type=_arrow_type(listed[k][:self.players]), from_pandas=True)
                   for k in names}
        return out

    def history(self, seed: int) -> list[int]:
        """The actions of the game of ``seed`` (chance outcomes included), to replay it through the engine."""
        return game_history(self.play([seed], histories=True), 0)


def game_rows(played: Any, games: int, players: int) -> list[list[dict[str, Any]]]:
    """A kernel result's records as one list of rows per game (kernels give them flat or per game)."""
    rows = played.to_rows()
    if rows and isinstance(rows[0], list):
        return rows
    if len(rows) != players * games:
        raise ValueError(f"the kernel gave {len(rows)} rows for {games} games of {players} players")
    return [rows[i:i + players] for i in range(0, len(rows), players)]


def _columns_of(played: Any, names: list[str], games: int, players: int) -> dict[str, list[Any]] | None:
    """The columns of a kernel result laid out as :meth:`KernelPlayer.columns` reads them, else ``None``."""
    columns = getattr(played, "columns", None)
    trace = getattr(played, "trace", None)
    offsets = getattr(played, "trace_offsets", getattr(played, "trace_off", None))
    if not isinstance(columns, dict) or trace is None or offsets is None or set(names) != {*columns, "score_trace"}:
        return None
    out: dict[str, list[Any]] = {}
    for name in names:
        if name == "score_trace":
            out[name] = [seat for g in range(games)
                         for seat in trace[offsets[g]:offsets[g + 1]].reshape(-1, players).T.tolist()]
            continue
        values = np.asarray(columns[name])
        if values.shape[0] == games and values.ndim >= 2 and values.shape[1] == players:
            values = values.reshape(games * players, *values.shape[2:])
        elif values.shape[0] != games * players:
            return None
        out[name] = values.tolist()
    return out


def _arrow_type(values: Sequence[Any]) -> pa.DataType | None:
    """The Arrow type pandas gives a column of these Python values (strings are ``large_string`` in pandas 3)."""
    inferred = pa.array(list(values), from_pandas=True).type
    return pa.large_string() if pa.types.is_string(inferred) else inferred


def _flat_array(values: np.ndarray) -> pa.Array:
    """A 1-d numpy array as the Arrow array pandas makes of its values as Python objects."""
    kind = values.dtype.kind
    if kind in "iu":
        return pa.array(values.astype(np.int64, copy=False))
    if kind == "b":
        return pa.array(values)
    if kind == "f":
        return pa.array(values.astype(np.float64, copy=False), from_pandas=True)  # NaN is null, as from pandas
    if kind in "OU":
        return pa.array(values.astype(object, copy=False), type=pa.large_string())
    raise TypeError(f"no Arrow column for numpy dtype {values.dtype}")


def _arrow_of(played: Any, names: list[str], games: int, players: int) -> dict[str, pa.Array] | None:
    """The columns of a kernel result laid out as :meth:`KernelPlayer.columns` reads them, as Arrow arrays (lists
    as list arrays over one flat buffer, the score trace gathered seat by seat in one index array), else ``None``."""
    columns = getattr(played, "columns", None)
    trace = getattr(played, "trace", None)
    offsets = getattr(played, "trace_offsets", getattr(played, "trace_off", None))
    if not isinstance(columns, dict) or trace is None or offsets is None or set(names) != {*columns, "score_trace"}:
        return None
    rows = games * players
    out: dict[str, pa.Array] = {}
    try:
        for name in names:
            if name == "score_trace":
                out[name] = _trace_array(np.asarray(trace), np.asarray(offsets, dtype=np.int64), games, players)
                continue
            values = np.asarray(columns[name])
            if values.shape[0] == games and values.ndim >= 2 and values.shape[1] == players:
                values = values.reshape(rows, *values.shape[2:])
            elif values.shape[0] != rows:
                return None
            if values.ndim == 1:
                out[name] = _flat_array(values)
            elif values.ndim == 2:
                width = values.shape[1]
                starts = np.arange(0, rows * width + 1, width, dtype=np.int32)
                out[name] = pa.ListArray.from_arrays(pa.array(starts), _flat_array(values.reshape(-1)))
            else:
                return None
    except TypeError:
        return None
    return out


def _trace_array(trace: np.ndarray, offsets: np.ndarray, games: int, players: int) -> pa.Array:
    """Each row's score trace (game ``g``'s turn-major ``[turn][seat]`` slice, read down seat ``p``) as one list
    array: the whole chunk's values gathered with one index array."""
    turns = (offsets[1:games + 1] - offsets[:games]) // players  # per game
    lengths = np.repeat(turns, players)  # per row
    starts = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    # Value k of the output (row r = game g, seat p, turn t = k - starts[r]) is trace[offsets[g] + t * players + p]
    # = trace[(offsets[g] + p - starts[r] * players) + k * players]: one repeat of a per-row base, one arange.
    base = np.repeat(offsets[:games], players) + np.tile(np.arange(players, dtype=np.int64), games) - starts[:-1] * players
    index = np.repeat(base, lengths)
    index += np.arange(starts[-1], dtype=np.int64) * players
    return pa.ListArray.from_arrays(pa.array(starts.astype(np.int32)), _flat_array(trace[index]))


def _same_rows(out: dict[str, pa.Array], names: list[str], first: list[dict[str, Any]]) -> bool:
    """Whether the first game's rows of ``out`` are ``first`` (its ``to_rows()``), value for value and type for type
    (NaN read as the null it is stored as)."""
    for name in names:
        got = out[name].slice(0, len(first)).to_pylist()
        want = [_nan_as_none(row[name]) for row in first]
        if any(not _same(a, b) for a, b in zip(got, want)):
            return False
    return True


def _nan_as_none(value: Any) -> Any:
    if isinstance(value, list):
        return [_nan_as_none(v) for v in value]
    return None if isinstance(value, float) and value != value else value


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same types, lists element by element, NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b or (isinstance(a, float) and a != a and b != b)


def game_history(played: Any, g: int) -> list[int]:
    """Game ``g``'s actions from a kernel result played with ``histories=True`` (its ``history(g)``, or its
    ``histories[g]``)."""
    history = getattr(played, "history", None)
    if callable(history):
        return [int(a) for a in history(g)]
    return [int(a) for a in played.histories[g]]


@functools.lru_cache(maxsize=16)
def kernel_player(game_string: str, kinds: tuple[str, ...]) -> KernelPlayer:
    """:class:`KernelPlayer` once per variant and line-up per process (its compiled code is loaded once)."""
    return KernelPlayer(game_string, kinds)


def warm_up(game_string: str, kinds: tuple[str, ...]) -> None:
    """Compile the kernel's code for this variant (or load it from numba's on-disk cache) by playing two games."""
    kernel_player(game_string, kinds).rows([1, 2])
