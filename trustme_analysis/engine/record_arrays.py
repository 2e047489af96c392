"""A kernel's records as Arrow arrays, built from its numpy arrays with no Python object per game or seat.

The sweep stores each chunk of kernel games as one Arrow table (:func:`trustme_analysis.sweep.play.kernel_tables`),
and the stored file must be byte for byte the one pandas would write from the records as rows. So each array here has
the type pandas gives the rows' Python values: ``int64`` for integers, ``bool``, ``float64`` with NaN as null,
``large_string`` for text, a list type for list fields. A game's batch of played games
(:meth:`trustme_analysis.engine.kernels.PlayedGames.record_arrays`) calls :func:`record_arrays` with its own arrays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
from numba import njit


def arrow_type(values: Sequence[Any]) -> pa.DataType | None:
    """The Arrow type pandas gives a column of these Python values (strings are ``large_string`` in pandas 3)."""
    inferred = pa.array(list(values), from_pandas=True).type
    return pa.large_string() if pa.types.is_string(inferred) else inferred


def flat_array(values: np.ndarray) -> pa.Array:
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


def list_array(values: np.ndarray) -> pa.Array:
    """A 2-d numpy array (one row per record) as a list array over one flat buffer."""
    rows, width = values.shape
    starts = np.arange(0, rows * width + 1, width, dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(starts), flat_array(values.reshape(-1)))


@njit(cache=True)
def _seat_major(trace: np.ndarray, offsets: np.ndarray, games: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    # One pass over the batch's traces: row (game g, seat p) reads down seat p of game g's turn-major slice. Compiled
    # because the gather indices built with numpy cost the sweep as much as a fifth of playing the games.
    starts = np.empty(games * players + 1, np.int32)
    values = np.empty(offsets[games] - offsets[0], np.int64)
    starts[0] = 0
    k = 0
    for g in range(games):
        first = offsets[g]
        turns = (offsets[g + 1] - first) // players
        for p in range(players):
            at = first + p
            for _ in range(turns):
                values[k] = trace[at]
                at += players
                k += 1
            starts[g * players + p + 1] = k
    return starts, values[:k]


def trace_lists(trace: np.ndarray, offsets: np.ndarray, games: int, players: int) -> pa.Array:
    """Each row's score trace (game ``g``'s turn-major ``[turn][seat]`` slice ``trace[offsets[g]:offsets[g+1]]``, read
    down seat ``p``) as one list array over one flat buffer."""
    starts, values = _seat_major(np.asarray(trace), np.asarray(offsets, dtype=np.int64), games, players)
    return pa.ListArray.from_arrays(pa.array(starts), pa.array(values))


def record_arrays(names: Sequence[str], arrays: Mapping[str, np.ndarray], games: int, players: int,
                  trace: np.ndarray | None = None, trace_offsets: np.ndarray | None = None,
                  trace_name: str = "score_trace") -> dict[str, pa.Array]:
    """The record fields ``names`` (in record order) as Arrow arrays, one entry per row (game by game, seats in
    order).

    Args:
        names: the fields, in the order the records give them.
        arrays: field -> numpy array shaped ``[games, seats, ...]`` or ``[games * seats, ...]`` (a second axis for a
            list field of fixed width).
        games, players: the batch's size.
        trace, trace_offsets: the score traces (turn-major per game, ``games + 1`` offsets), for the field
            ``trace_name``.
    """
    rows = games * players
    out: dict[str, pa.Array] = {}
    for name in names:
        if name == trace_name and trace is not None:
            out[name] = trace_lists(trace, trace_offsets, games, players)
            continue
        values = np.asarray(arrays[name])
        if values.shape[0] == games and values.ndim >= 2 and values.shape[1] == players:
            values = values.reshape(rows, *values.shape[2:])
        if values.shape[0] != rows:
            raise ValueError(f"record field {name}: {values.shape[0]} rows for {games} games of {players} seats")
        out[name] = flat_array(values) if values.ndim == 1 else list_array(values)
    return out


__all__ = ["arrow_type", "flat_array", "list_array", "record_arrays", "trace_lists"]
