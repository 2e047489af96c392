"""The records of kernel games: the columns of the game's records function, computed with NumPy from final states.

:func:`record_columns` turns a batch of final state arrays (one row per game, laid out as :mod:`.kernel_core`
describes) into one array per record field with a row per seat; :func:`rows_of_game` gives one game's rows as the
list of dicts :func:`trustme_analysis.games.pinocchio.records.records` returns. Scores are read from the kernel's
totals (Final Scoring done in compiled code with the game's chart); the face value and set-bonus split is recomputed
here from the Tickets held. Tests compare every field with the engine's records.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from trustme_analysis.games.pinocchio import kernel_core as K

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
# Text columns are object arrays of these few strings (NumPy's fixed-width text arrays are slow to concatenate).
_END_TRIGGERS = np.array(["", "deck", "stacks"], dtype=object)
_TIE_BREAKS = np.array(["", "tickets", "coin"], dtype=object)


def _seat(F: np.ndarray, offset: int, n: int) -> np.ndarray:
    """A per-seat block of the states, (games, n) (int32, as the states hold it)."""
    return F[:, offset:offset + n]


def record_columns(F: np.ndarray, n: int, V: int, R: np.ndarray, chart: str = "") -> dict[str, np.ndarray]:
    """Every record field except ``score_trace`` as an array with ``games * n`` rows (game-major, seat minor).

    Args:
        F: final states, shape (games, STATE_SIZE).
        n: players; V: Character values; R: the rules array.
        chart: the ``chart`` column's text.
    """
    G = F.shape[0]

    def per_game(x: np.ndarray) -> np.ndarray:
        return np.repeat(x, n)

    def flat(x: np.ndarray) -> np.ndarray:
        return x.reshape(G * n, *x.shape[2:])

    tickets = F[:, K.TICKETS:K.TICKETS + K.MAXP * K.MAXV].reshape(G, K.MAXP, K.MAXV)[:, :n, :V].astype(np.int64)
    face = (tickets * np.arange(1, V + 1)).sum(-1)
    different = (tickets > 0).sum(-1)
    chart_values = R[K.R_CHART:K.R_CHART + V]
    bonus = np.where(different > 0, chart_values[np.maximum(different - 1, 0)], 0)
    totals = _seat(F, K.TOTALS, n)
    held = tickets.sum(-1)
    winner = F[:, K.WINNER].astype(np.int64)
    seats = np.arange(n)

    # Rank: 1 + players ahead on (points, Tickets); the tie-break winner is alone in first place.
    t_p, t_q = totals[:, :, None], totals[:, None, :]
    c_p, c_q = held[:, :, None], held[:, None, :]
    same = (t_q == t_p) & (c_q == c_p)
    is_winner_q = (seats[None, None, :] == winner[:, None, None]) & (seats[None, None, :] != seats[None, :, None])
    ahead = (t_q > t_p) | ((t_q == t_p) & (c_q > c_p)) | (is_winner_q & same)
    rank = 1 + ahead.sum(-1)

    best = totals.max(1)
    others = np.where(seats[None, :] == winner[:, None], np.iinfo(np.int64).min, totals).max(1)
    routes = F[:, K.TIX_ROUTE:K.TIX_ROUTE + K.MAXP * 3 * K.MAXV].reshape(G, K.MAXP, 3, K.MAXV)[:, :n, :, :V]
    rows = F[:, K.ROWS:K.ROWS + K.MAXP * 4].reshape(G, K.MAXP, 4)[:, :n, :]
    empty_turn = F[:, K.STACK_EMPTY_TURN:K.STACK_EMPTY_TURN + V].astype(np.float64)
    empty_turn[empty_turn < 0] = np.nan
    trigger = F[:, K.END_TRIGGER].astype(np.int64)
    days_ended = F[:, K.DAYS_ENDED].astype(np.int64)
    tt, td, lt, ld = (rows[:, :, i] for i in range(4))

    cols: dict[str, np.ndarray] = {
        "players": np.full(G * n, n, np.int64),
        "values": np.full(G * n, V, np.int64),
        "chart": np.full(G * n, chart, dtype=object),
        "score": flat(totals),
        "score_ticket_face": flat(face),
        "score_set_bonus": flat(bonus),
        "tickets": flat(held),
        "tickets_per_value": flat(tickets),
        "tickets_tale_per_value": flat(routes[:, :, K.ROUTE_TALE]),
        "tickets_reputation_per_value": flat(routes[:, :, K.ROUTE_REPUTATION]),
        "tickets_free_per_value": flat(routes[:, :, K.ROUTE_FREE]),
        "different_values": flat(different),
        "rank": flat(rank),
        "win": flat(seats[None, :] == winner[:, None]),
        "winner": per_game(winner),
        "turns": per_game(F[:, K.TURN]),
        "runouts": per_game(F[:, K.RUNOUTS]),
        "days": per_game(1 + days_ended),
        "ended_at_night": per_game(days_ended % 2 == 1),
        "end_trigger": per_game(_END_TRIGGERS[trigger]),
        "end_stack_value": per_game(np.where(trigger == K.END_STACKS, F[:, K.LAST_EMPTIED], -1).astype(np.int64)),
        "stack_empty_turn": np.repeat(empty_turn, n, axis=0),
        "completed": per_game(trigger != K.END_NONE),
        "top_shared": per_game((totals == best[:, None]).sum(1) > 1),
        "tie_break": per_game(_TIE_BREAKS[F[:, K.TIE_BREAK_BY]]),
        "margin": per_game(totals[np.arange(G), winner] - others),
        "tales_told": flat(tt + td + lt + ld),
        "tales_true": flat(tt + td),
        "tales_tall": flat(lt + ld),
        "tales_trusted": flat(tt + lt),
        "tales_distrusted": flat(td + ld),
        "row_true_trusted": flat(tt),
        "row_true_distrusted": flat(td),
        "row_tall_trusted": flat(lt),
        "row_tall_distrusted": flat(ld),
    }
    for name, offset in (("tales_coin", K.TALES_COIN), ("tall_ticket_lower", K.TALL_LOWER),
                         ("tall_ticket_none", K.TALL_NONE), ("votes_cast", K.VOTES_CAST),
                         ("votes_trust", K.VOTES_TRUST), ("votes_correct", K.VOTES_CORRECT),
                         ("coin_tosses", K.COIN_TOSSES)):
        cols[name] = flat(_seat(F, offset, n))
    cols["coin_chance_tosses"] = per_game(F[:, K.COIN_CHANCE])
    for name, offset in (("park_takes", K.PARK_TAKES), ("bonus_turns", K.BONUS_TURNS),
                         ("bonus_forfeited", K.BONUS_FORFEITED)):
        cols[name] = flat(_seat(F, offset, n))
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
