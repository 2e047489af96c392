"""Columnar records of kernel-played ``trustme_liar`` games (the contract's played games,
:class:`trustme_analysis.engine.kernels.PlayedGames`): the columns of :mod:`trustme_analysis.games.liar.analysis.records`,
one array each.

:meth:`KernelRecords.rows` gives exactly what :func:`trustme_analysis.games.liar.analysis.records.records` returns for
the same finished games (same keys in the same order, equal values and Python types), which the lock-step tests check;
:meth:`KernelRecords.columns` the same values as columns, read off the arrays with ``tolist()`` (the sweep's storage
path).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from trustme_analysis.engine.record_arrays import record_arrays
from trustme_analysis.games.liar.kernel.layout import END_NAMES, REC_FIELDS, SEAT_INTS, SIZE_FIELDS

#: Record columns in the order ``records.records_from_snapshot`` builds a row.
COLUMNS = (
    "players", "mode", "max_play", "first_player", "started", "turn_order", "dealt", "start_hand", "cards_left", "rank", "win", "winner", "top_shared",
    "went_out", "points", "points_going_out", "points_cards_in_hand", "points_false_cards", "points_unmasked",
    "points_wrongly_accused", "points_rank", "points_win", "turns", "end_trigger", "completed", *REC_FIELDS,
    *SIZE_FIELDS, "score_trace",
)


@dataclass
class KernelRecords:
    """Record fields of ``games`` finished games, every seat.

    Attributes:
        seeds: the seed of each game (uint64, shape ``(games,)``).
        arrays: every column but ``score_trace``, shape ``(games, players)`` (per-size lists:
            ``(games, players, max_play)``).
        trace: the ``score_trace`` values of all games, flat: game ``g``'s are ``trace[trace_offsets[g]:
            trace_offsets[g + 1]]``, turn-major (all seats after turn 1, then after turn 2, ...).
        trace_offsets: shape ``(games + 1,)``.
        returns: each seat's utility (the engine's ``returns()``), shape ``(games, players)``.
        histories: with ``histories=True``, every action (deal included) flat, sliced like ``trace`` by
            ``history_offsets``; else None.
    """

    seeds: np.ndarray
    arrays: dict[str, np.ndarray]
    trace: np.ndarray
    trace_offsets: np.ndarray
    returns: np.ndarray
    histories: np.ndarray | None
    history_offsets: np.ndarray | None

    def __len__(self) -> int:
        """Number of games."""
        return len(self.seeds)

    @property
    def players(self) -> int:
        """Seats per game."""
        return self.returns.shape[1]

    def history(self, game: int) -> list[int]:
        """The action sequence of game ``game`` (chance included); needs ``histories=True``."""
        if self.histories is None:
            raise ValueError("no histories: call Kernel.play(..., histories=True)")
        return self.histories[self.history_offsets[game] : self.history_offsets[game + 1]].tolist()

    def columns(self) -> dict[str, list[Any]]:
        """Every record field as one list: one value per row, game by game, seats in order (the values and types of
        :meth:`rows`), in the order of :data:`COLUMNS`."""
        games, n = self.returns.shape
        out: dict[str, list[Any]] = {}
        for name in COLUMNS:
            if name == "score_trace":
                trace, offsets = self.trace, self.trace_offsets.tolist()
                out[name] = [trace[offsets[g] + p: offsets[g + 1]: n].tolist() for g in range(games) for p in range(n)]
            else:
                values = self.arrays[name]
                out[name] = values.reshape(games * n, *values.shape[2:]).tolist()
        return out

    def record_arrays(self) -> dict[str, Any]:
        """The records as Arrow arrays (the sweep's storage path; see the kernel contract)."""
        games, n = self.returns.shape
        return record_arrays(COLUMNS, self.arrays, games, n, self.trace, self.trace_offsets)

    def rows(self) -> list[list[dict[str, Any]]]:
        """One list per game of one dict per seat, as ``records.records`` gives for each game."""
        columns = self.columns()
        n = self.players
        return [[{name: values[g * n + p] for name, values in columns.items()} for p in range(n)]
                for g in range(len(self))]


def build_records(rules, seeds, raw, histories: bool) -> KernelRecords:
    """Columns from the arrays of :func:`~trustme_analysis.games.liar.kernel.trained.play_games` (booleans and winners
    derived here)."""
    (game_ints, seat_ints, seat_floats, by_size, returns, trace, trace_offsets, hist, hist_offsets, _) = raw
    games, n = returns.shape
    cols: dict[str, np.ndarray] = {}

    def per_game(values: np.ndarray) -> np.ndarray:
        return np.repeat(values[:, None], n, axis=1)

    cols["players"] = np.full((games, n), n, dtype=np.int64)
    cols["mode"] = np.full((games, n), rules.mode)
    cols["max_play"] = np.full((games, n), rules.max_play, dtype=np.int64)
    first = game_ints[:, 2]
    cols["first_player"] = per_game(first)
    cols["started"] = np.arange(n)[None, :] == first[:, None]
    cols["turn_order"] = (np.arange(n)[None, :] - first[:, None]) % n
    for j, name in enumerate(SEAT_INTS):
        cols[name] = seat_ints[:, :, j]
    cols["went_out"] = cols["went_out"].astype(bool)
    rank = seat_floats[:, :, 0]
    points_rank = seat_floats[:, :, 1]
    cols["rank"] = rank
    win = rank == rank.min(axis=1, keepdims=True)
    sole = win.sum(axis=1) == 1
    cols["win"] = win
    cols["winner"] = per_game(np.where(sole, win.argmax(axis=1), -1))
    cols["top_shared"] = per_game(~sole)
    cols["points_rank"] = points_rank
    cols["points_win"] = points_rank == points_rank.min(axis=1, keepdims=True)
    cols["turns"] = per_game(game_ints[:, 0])
    end = np.asarray(END_NAMES)[game_ints[:, 1]]
    cols["end_trigger"] = per_game(end)
    cols["completed"] = per_game(end != "turn_cap")
    base = len(SEAT_INTS)
    for j, name in enumerate(REC_FIELDS):
        cols[name] = seat_ints[:, :, base + j]
    for j, name in enumerate(SIZE_FIELDS):
        cols[name] = by_size[:, :, j, :]
    return KernelRecords(
        seeds=np.asarray(seeds, dtype=np.uint64),
        arrays=cols,
        trace=trace,
        trace_offsets=trace_offsets,
        returns=returns,
        histories=hist if histories else None,
        history_offsets=hist_offsets if histories else None,
    )
