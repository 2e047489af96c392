"""Kernel-played ``trustme_1981`` games and their records (the contract's
:class:`~trustme_analysis.engine.kernels.PlayedGames`): NumPy arrays, the columns of a sweep and the rows of
:mod:`~trustme_analysis.games.board1981.analysis.records`.

The compiled state carries the per-seat counters that
:func:`~trustme_analysis.games.board1981.analysis.records.records_from_snapshot` derives from the engine's events;
this module reads them out of the final states and adds the outcome columns (rank, win, winner, top_shared, margin)
and the score traces. :meth:`KernelGames.rows` gives exactly the rows ``records.records`` gives for the engine's
terminal state of the same game (same keys in the same order, equal values and types), and :meth:`KernelGames.columns`
the same values column by column.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trustme_analysis.engine.record_arrays import record_arrays
from trustme_analysis.games.board1981.kernel import layout as L

#: The end reasons by the kernel's code (the engine's ``end`` strings; "" while a game runs).
END_NAMES = {L.END_NONE: "", L.END_TWO_CASES_LEFT: "two_cases_left", L.END_TURN_CAP: "turn_cap"}


class KernelGames:
    """Every seat's record fields of a batch of finished games (one per seed), and their action sequences.

    Attributes:
        seeds: the seed of each game.
        arrays: record field -> array indexed ``[game, seat]`` (list fields ``[game, seat, payoff row]``); game-level
            fields (``turns``, ``end_trigger``, ``reveals_per_row``...) are repeated for every seat, as in the rows.
        trace, trace_off: the score traces, flat as ``[turn][seat]``; game ``g``'s are
            ``trace[trace_off[g]:trace_off[g + 1]]``.
        returns: ``[game, seat]`` the returns by the game's utility.
    """

    def __init__(
        self,
        game: Any,
        seeds: np.ndarray,
        finals: np.ndarray,
        trace: np.ndarray,
        trace_off: np.ndarray,
        history: np.ndarray | None = None,
        hist_off: np.ndarray | None = None,
    ):
        n = game.rules.players
        games = finals.shape[0]
        self.seeds = seeds
        self.num_games = games
        self.num_players = n
        self.trace = trace
        self.trace_off = trace_off
        self._history = history
        self._hist_off = hist_off

        def seats(offset: int) -> np.ndarray:
            return finals[:, offset : offset + n]

        def per_game(values: np.ndarray) -> np.ndarray:
            return np.broadcast_to(values[:, None, ...], (games, n) + values.shape[1:])

        money, shares = seats(L.MONEY), seats(L.SHARES)
        wealth = money + shares
        best = wealth.max(axis=1, keepdims=True)
        top = wealth == best
        tied = top.sum(axis=1)
        others = np.where(top, np.iinfo(np.int64).min, wealth).max(axis=1)
        margin = np.where(tied == 1, best[:, 0] - others, 0)  # a sole leader's lead; 0 when shared
        winner = np.where(tied == 1, wealth.argmax(axis=1), -1)
        rank = 1 + (wealth[:, None, :] > wealth[:, :, None]).sum(axis=2)
        end = finals[:, L.END]
        counts = finals[:, L.COUNTS : L.ROWS].reshape(games, L.NUM_COUNTERS, L.MAX_PLAYERS)
        rows = finals[:, L.ROWS : L.REVEALS_PER_ROW].reshape(games, L.NUM_ROW_LISTS, L.NUM_PAYOFF_KINDS, L.MAX_PLAYERS)

        cols: dict[str, np.ndarray] = {
            "players": np.full((games, n), n, np.int64),
            "start_wealth": np.full((games, n), game.rules.start_wealth, np.int64),
            "money": money,
            "shares": shares,
            "wealth": wealth,
            "rank": rank,
            "win": top,
            "winner": per_game(winner),
            "top_shared": per_game(tied > 1),
            "margin": per_game(margin),
            "turns": per_game(finals[:, L.TURNS]),
            "end_trigger": per_game(np.asarray([END_NAMES[int(e)] for e in end], dtype=object)),
            "completed": per_game(end == L.END_TWO_CASES_LEFT),
        }
        for c, name in enumerate(L.COUNTERS):
            cols[name] = counts[:, c, :n]
        for i, name in enumerate(L.ROW_LISTS):
            cols[name] = np.transpose(rows[:, i, :, :n], (0, 2, 1))
        cols["reveals_per_row"] = per_game(finals[:, L.REVEALS_PER_ROW : L.REVEALS_PER_ROW + L.NUM_PAYOFF_KINDS])
        self.arrays = cols
        self.returns = _returns(game.rules.utility, wealth, top, tied)

    def __len__(self) -> int:
        return self.num_games

    def history(self, g: int) -> list[int]:
        """Game ``g``'s actions, chance outcomes included (kept only when played with ``histories=True``)."""
        if self._history is None:
            raise ValueError("the games were played without histories=True")
        return self._history[self._hist_off[g] : self._hist_off[g + 1]].tolist()

    def score_trace(self, g: int) -> np.ndarray:
        """Game ``g``'s score trace as ``[turn, seat]`` (each seat's wealth after each turn begun)."""
        return self.trace[self.trace_off[g] : self.trace_off[g + 1]].reshape(-1, self.num_players)

    def columns(self, games: range | None = None) -> dict[str, list[Any]]:
        """The records as columns: field -> one value per row, game by game, seats in order (``games``: those games
        only), the values and types :meth:`rows` holds."""
        games = range(self.num_games) if games is None else games
        sl = slice(games.start, games.stop)
        out = {name: values[sl].reshape(-1, *values.shape[2:]).tolist() for name, values in self.arrays.items()}
        out["score_trace"] = [seat for g in games for seat in self.score_trace(g).T.tolist()]
        return out

    def record_arrays(self) -> dict[str, Any]:
        """The records as Arrow arrays (the sweep's storage path; see the kernel contract)."""
        return record_arrays([*self.arrays, "score_trace"], self.arrays, self.num_games, self.num_players, self.trace,
                             self.trace_off)

    def game_rows(self, g: int) -> list[dict[str, Any]]:
        """The rows of game ``g``: one per seat, as ``records.records`` gives them."""
        return self._rows(range(g, g + 1))

    def rows(self) -> list[list[dict[str, Any]]]:
        """Every game's rows: one list per game of one row per seat, as ``records.records`` gives them."""
        flat = self._rows(range(self.num_games))
        n = self.num_players
        return [flat[i : i + n] for i in range(0, len(flat), n)]

    def _rows(self, games: range) -> list[dict[str, Any]]:
        columns = self.columns(games)
        names = list(columns)
        # One flat list per column over (game, seat), zipped into the rows (much faster than a dict per lookup).
        return [dict(zip(names, values)) for values in zip(*columns.values())]


def _returns(utility: str, wealth: np.ndarray, top: np.ndarray, tied: np.ndarray) -> np.ndarray:
    """investing.wealth_returns for every game at once."""
    n = wealth.shape[1]
    if utility == "wealth":
        return wealth.astype(np.float64)
    if utility == "wealth_diff":
        diff = (wealth[:, 0] - wealth[:, 1]).astype(np.float64)
        return np.stack([diff, -diff], axis=1)
    share = 1.0 / tied[:, None]
    loss = -1.0 / np.maximum(n - tied, 1)[:, None]
    out = np.where(top, share, loss)
    out[tied == n] = 0.0
    return out
