"""The records of kernel games: the fields of the game's records function, computed from the final states.

:class:`RawRecords` holds a batch's record fields as :func:`~trustme_analysis.games.pinocchio.kernel.play.record_rows` computes them in compiled code
(one row per seat); :func:`record_columns` names them, one array per record field; :func:`rows_of_game` gives one
game's rows as the list of dicts :func:`trustme_analysis.games.pinocchio.analysis.records.records` returns. Tests compare
every field with the engine's records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from trustme_analysis.games.pinocchio.kernel import core as K

#: The record fields in the order the records function writes them (``score_trace`` last).
FIELDS = (
    "players", "values", "chart", "score", "score_ticket_face", "score_set_bonus", "tickets", "tickets_per_value",
    "tickets_tale_per_value", "tickets_reputation_per_value", "tickets_free_per_value", "different_values", "rank",
    "win", "winner", "turns", "runouts", "days", "ended_at_night", "end_trigger", "end_stack_value",
    "stack_empty_turn", "completed", "top_shared", "tie_break", "margin", "tales_told", "tales_true", "tales_tall",
    "tales_trusted", "tales_distrusted", "row_true_trusted", "row_true_distrusted", "row_tall_trusted",
    "row_tall_distrusted", "tales_coin", "tall_ticket_lower", "tall_ticket_none", "votes_cast", "votes_trust",
    "votes_correct", "coin_tosses", "coin_chance_tosses", "park_takes", "bonus_turns", "bonus_forfeited",
    "score_trace",
)
# Text columns are object arrays of these few strings (NumPy's fixed-width text arrays are slow to concatenate),
# indexed by the END_* and TIE_* codes.
_END_TRIGGERS = np.array(["", "deck", "stacks"], dtype=object)
_TIE_BREAKS = np.array(["", "tickets", "coin"], dtype=object)
_BOOL_FIELDS = frozenset(("win", "ended_at_night", "completed", "top_shared"))
_TEXT_FIELDS = {"end_trigger": _END_TRIGGERS, "tie_break": _TIE_BREAKS}


@dataclass
class RawRecords:
    """Record fields of games as :func:`~trustme_analysis.games.pinocchio.kernel.play.record_rows` writes them (row ``g * players + p``: seat ``p`` of
    game ``g``)."""

    ints: np.ndarray  # (rows, len(INT_FIELDS)) int32
    lists: np.ndarray  # (rows, len(LIST_FIELDS), values) int32
    empty_turn: np.ndarray  # (rows, values) float64

    @classmethod
    def empty(cls, rows: int, V: int) -> RawRecords:
        return cls(np.empty((rows, len(K.INT_FIELDS)), np.int32), np.empty((rows, len(K.LIST_FIELDS), V), np.int32),
                   np.empty((rows, V), np.float64))

    def fill(self, start: int, finals: np.ndarray, R: np.ndarray) -> None:
        """Rows from ``start`` on, computed in compiled code from final states (games, STATE_SIZE)."""
        end = start + finals.shape[0] * int(R[K.R_PLAYERS])
        K.record_rows(finals, R, self.ints[start:end], self.lists[start:end], self.empty_turn[start:end])


def record_columns(raw: RawRecords, chart: str = "") -> dict[str, np.ndarray]:
    """Every record field except ``score_trace`` as an array with a row per seat (game-major, seat minor).

    Integer fields are views into ``raw``; true/false fields bool arrays; text fields object arrays of str; list
    fields (one entry per Character value) 2-D arrays.

    Args:
        raw: the games' record fields.
        chart: the ``chart`` column's text (the same for every row).
    """
    index = {name: j for j, name in enumerate(K.INT_FIELDS)}
    cols: dict[str, np.ndarray] = {}
    for name in FIELDS[:-1]:
        if name == "chart":
            cols[name] = np.full(raw.ints.shape[0], chart, dtype=object)
        elif name == "stack_empty_turn":
            cols[name] = raw.empty_turn
        elif name in K.LIST_FIELDS:
            cols[name] = raw.lists[:, K.LIST_FIELDS.index(name)]
        elif name in _BOOL_FIELDS:
            cols[name] = raw.ints[:, index[name]] != 0
        elif name in _TEXT_FIELDS:
            cols[name] = _TEXT_FIELDS[name][raw.ints[:, index[name]]]
        else:
            cols[name] = raw.ints[:, index[name]]
    return cols


def _plain(value: Any) -> Any:
    """A NumPy scalar or row as a Python value (text columns already hold Python strings)."""
    return value if isinstance(value, str) else value.tolist()


def rows_of_game(cols: dict[str, np.ndarray], trace: np.ndarray, trace_offsets: np.ndarray, g: int,
                 n: int) -> list[dict[str, Any]]:
    """Game ``g``'s rows as plain Python values (ints, bools, strings, floats, lists), as the records give them."""
    game_trace = trace[trace_offsets[g]:trace_offsets[g + 1]].reshape(-1, n)
    out = []
    for p in range(n):
        i = g * n + p
        row = {name: _plain(cols[name][i]) for name in FIELDS[:-1]}
        row["score_trace"] = game_trace[:, p].tolist()
        out.append(row)
    return out


def record_lists(cols: dict[str, np.ndarray], trace: np.ndarray, trace_offsets: np.ndarray,
                 n: int) -> dict[str, list[Any]]:
    """Every game's records as columns of plain Python values: field -> one value per row (game-major, seat minor),
    in :data:`FIELDS` order, the values and types :func:`rows_of_game` gives (one ``tolist`` per field)."""
    out = {name: cols[name].tolist() for name in FIELDS[:-1]}
    games = len(trace_offsets) - 1
    out["score_trace"] = [seat for g in range(games)
                          for seat in trace[trace_offsets[g]:trace_offsets[g + 1]].reshape(-1, n).T.tolist()]
    return out
