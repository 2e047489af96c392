"""Tiny registry entries for OpenSpiel's ``kuhn_poker`` and ``goofspiel`` so the sweep tests need no Trust Me engine.

Imported by the sweep tests (and by the subprocesses they start); registering it makes ``game = "kuhn_poker"`` a valid
spec. Setting ``SWEEP_TOY_DELAY`` (seconds per game) slows the records down so a test can stop a sweep half-way;
setting ``SWEEP_TOY_DIE`` makes every pool worker die at its first game.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pyspiel

from trustme_analysis.players import TrustMeBot, register_bot
from trustme_analysis.registry import GameEntry, register_game

HERE = Path(__file__).resolve().parent


def kuhn_records(game: pyspiel.Game, state: pyspiel.State) -> list[dict]:
    """One row per seat: the seat's return (also as ``score``), whether it won (``win``), the game's length."""
    delay = float(os.environ.get("SWEEP_TOY_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)
    if os.environ.get("SWEEP_TOY_DIE") and multiprocessing.parent_process() is not None:
        os._exit(9)  # a pool worker dying as if killed (SWEEP_TOY_DIE set): the pool breaks every time
    returns = state.returns()
    best = max(returns)
    history = state.history()
    return [
        {
            "return": float(r),
            "score": float(r),
            "win": bool(r == best),
            "moves": len(history),
            "cards": [int(a) for a in history[: game.num_players()]],
        }
        for r in returns
    ]


class EdgeBot(TrustMeBot):
    """Plays the first or the last legal action (knob ``end``), so its choices are easy to check."""

    kind = "edge"

    def __init__(self, player_id: int, rng, end: str = "first"):
        super().__init__(player_id, rng)
        if end not in ("first", "last"):
            raise ValueError(f"edge bot: knob end={end!r} is not allowed; allowed: 'first', 'last'")
        self.end = end

    def choose(self, state: pyspiel.State) -> int:
        legal = state.legal_actions(self.player_id)
        return legal[0] if self.end == "first" else legal[-1]

    def knobs(self) -> dict:
        return {"end": self.end}


def make_edge_bot(game: pyspiel.Game, player_id: int, rng, **knobs) -> EdgeBot:
    """Factory for :class:`EdgeBot`; unknown knobs fail listing the valid ones."""
    unknown = sorted(set(knobs) - {"end"})
    if unknown:
        raise ValueError(f"edge bot: unknown knob(s) {unknown}; valid knobs: end")
    return EdgeBot(player_id, rng, **knobs)


def goofspiel_records(game: pyspiel.Game, state: pyspiel.State) -> list[dict]:
    """One row per seat of a Goofspiel game (simultaneous moves): the seat's return and whether it won."""
    returns = state.returns()
    return [{"score": float(r), "win": bool(r == max(returns) and returns.count(r) == 1)} for r in returns]


register_bot("kuhn_poker", "edge", make_edge_bot)
def kuhn_simple_strategies(game: pyspiel.Game) -> dict:
    """Two probes for the checks' tests: always bet (action 1) and always pass (action 0)."""
    return {"always bet": lambda state, player, legal: [1] if 1 in legal else None,
            "always pass": lambda state, player, legal: [0] if 0 in legal else None}


register_game(GameEntry("kuhn_poker", records=kuhn_records, simple_strategies=kuhn_simple_strategies))
register_game(GameEntry("goofspiel", records=goofspiel_records))
