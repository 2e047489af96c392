"""Line-ups: how the seats of a game are filled with bots, as a spec's ``[lineups.NAME]`` tables write them.

A line-up has fixed ``seats`` (one bot per seat, or one bot sitting in every seat) or a ``pool`` of weighted bots from
which each seat of each game draws its bot. Sweeps, solves (exploiting the bots) and tuning read line-ups the same
way, through :func:`parse_lineups` and :func:`check_bot`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.registry import bot_kinds, make_bot
from trustme_analysis.specfile import SpecError, check_keys, did_you_mean, optional, require_in

SEAT_KEYS = ("bot", "knobs")
POOL_KEYS = ("bot", "knobs", "weight")
LINEUP_KEYS = ("seats", "pool", "games")
#: The line-up of a spec that names none: uniform random bots in every seat.
DEFAULT_LINEUP = "random"


@dataclass(frozen=True)
class Seat:
    """One bot: its ``kind`` (as registered with :func:`trustme_analysis.players.register_bot`) and its knobs."""

    bot: str
    knobs: Mapping[str, Any] = field(default_factory=dict)
    #: Relative weight when the seat is drawn from a pool (unused for fixed seats).
    weight: float = 1.0
    #: Knobs a run adds that depend on where its output folder is (the file of a policy seat's named solve): passed
    #: to the bot but left out of :meth:`describe`, so manifests and reports do not change with ``--out``.
    local: frozenset[str] = frozenset()

    def describe(self, with_weight: bool = False) -> dict[str, Any]:
        """A plain dict for the manifest (the knobs without the :attr:`local` ones)."""
        out: dict[str, Any] = {"bot": self.bot, "knobs": {k: v for k, v in self.knobs.items() if k not in self.local}}
        if with_weight:
            out["weight"] = self.weight
        return out


@dataclass(frozen=True)
class LineUp:
    """How the seats of a game are filled with bots.

    Exactly one of ``seats`` and ``pool`` is set. ``seats`` holds one bot per seat, or a single bot that then sits in
    every seat (so one line-up serves every player count of a grid). ``pool`` holds bots with weights; each seat of
    each game draws its bot from the pool independently, with the game's own generator.
    """

    name: str
    seats: tuple[Seat, ...] | None = None
    pool: tuple[Seat, ...] | None = None
    #: Games per variant this line-up plays, where fewer than the spec's ``games`` (costly players: a search line-up
    #: beside a heuristic one); ``None``: the spec's.
    games: int | None = None

    def seats_for(self, num_players: int) -> tuple[Seat, ...]:
        """The fixed seats for a game of ``num_players`` (only for a ``seats`` line-up)."""
        assert self.seats is not None
        if len(self.seats) == 1:
            return self.seats * num_players
        if len(self.seats) != num_players:
            raise ValueError(f"line-up {self.name!r} has {len(self.seats)} seats; the game has {num_players}")
        return self.seats

    def pool_probabilities(self) -> np.ndarray:
        """The pool's weights normalised to probabilities (only for a ``pool`` line-up)."""
        assert self.pool is not None
        weights = np.array([s.weight for s in self.pool], dtype=float)
        return weights / weights.sum()

    def describe(self, num_players: int) -> list[dict[str, Any]] | dict[str, Any]:
        """The manifest's description: one dict per seat, or ``{"pool": [...]}`` for a pool line-up."""
        if self.pool is not None:
            return {"pool": [s.describe(with_weight=True) for s in self.pool]}
        return [s.describe() for s in self.seats_for(num_players)]

    def as_dict(self) -> dict[str, Any]:
        """The line-up as written in a spec (normalised)."""
        games = {"games": self.games} if self.games is not None else {}
        if self.pool is not None:
            return {"pool": [s.describe(with_weight=True) for s in self.pool], **games}
        assert self.seats is not None
        return {"seats": [s.describe() for s in self.seats], **games}


def parse_seat(key: str, entry: Any, allowed: Sequence[str]) -> Seat:
    if isinstance(entry, str):  # shorthand: "heuristic" == {bot = "heuristic"}
        entry = {"bot": entry}
    if not isinstance(entry, dict):
        raise SpecError(key, f"must be a table such as {{bot = \"random\"}} or a bot name, got {entry!r}")
    check_keys(key, entry, allowed)
    bot = require_in(entry, key, "bot", str)
    knobs = optional(entry, "knobs", dict, {}, where=key)
    weight = float(optional(entry, "weight", float, 1.0, where=key))
    if not 0 < weight < math.inf:  # also refuses nan and inf (TOML writes them nan and inf)
        finite = "" if math.isfinite(weight) else " (a finite one: only the weights' ratios matter)"
        raise SpecError(f"{key}.weight", f"must be a positive number{finite}, got {weight!r}")
    return Seat(bot=bot, knobs=dict(knobs), weight=weight)



def parse_lineups(table: Any) -> dict[str, LineUp]:
    if table is None:
        return {DEFAULT_LINEUP: LineUp(DEFAULT_LINEUP, seats=(Seat("random"),))}
    if not isinstance(table, dict):
        raise SpecError("lineups", f"must be a table of named line-ups, got {table!r}")
    if not table:
        raise SpecError("lineups", "is empty; define at least one line-up or leave lineups out (all random bots)")
    out = {}
    for name, body in table.items():
        key = f"lineups.{name}"
        if not isinstance(body, dict):
            raise SpecError(key, f"must be a table with 'seats' or 'pool', got {body!r}")
        check_keys(key, body, LINEUP_KEYS)
        if ("seats" in body) == ("pool" in body):
            raise SpecError(key, "needs exactly one of 'seats' (bots per seat) or 'pool' (bots drawn per seat)")
        which = "seats" if "seats" in body else "pool"
        entries = body[which]
        if not isinstance(entries, list) or not entries:
            raise SpecError(f"{key}.{which}", f"must be a non-empty list of bots, got {entries!r}")
        allowed = SEAT_KEYS if which == "seats" else POOL_KEYS
        seats = tuple(parse_seat(f"{key}.{which}[{i}]", e, allowed) for i, e in enumerate(entries))
        if which == "pool" and not math.isfinite(sum(s.weight for s in seats)):
            raise SpecError(f"{key}.pool", "the weights add up to more than the largest number (about 1.8e308); "
                            "use smaller weights (only their ratios matter)")
        games = body.get("games")
        if games is not None and (isinstance(games, bool) or not isinstance(games, int) or games < 1):
            raise SpecError(f"{key}.games", f"must be a whole number of games >= 1 (fewer than the spec's games for "
                            f"costly players), got {games!r}")
        out[name] = (LineUp(name, seats=seats, games=games) if which == "seats"
                     else LineUp(name, pool=seats, games=games))
    return out


def check_bot(game: pyspiel.Game, key: str, seat: Seat, player: int) -> None:
    """Refuse, at ``key`` (``lineups.NAME.seats[0]``), a seat whose bot kind the game lacks or whose knobs its bot
    refuses."""
    kinds = bot_kinds(game.get_type().short_name)
    if seat.bot not in kinds:
        raise SpecError(
            f"{key}.bot",
            f"unknown bot kind {seat.bot!r}{did_you_mean(seat.bot, kinds)} (available: {', '.join(kinds)})",
        )
    check_knobs(game, f"{key}.knobs", seat.bot, seat.knobs, player)


def check_knobs(game: pyspiel.Game, key: str, bot: str, knobs: Mapping[str, Any], player: int = 0,
                fixed: Mapping[str, Any] | None = None) -> None:
    """Make bot ``bot`` with ``knobs`` (and the ``fixed`` knobs a check adds, such as a budget) for ``player``.

    A refusal is a :class:`SpecError` at ``key.KNOB`` when one knob alone is refused the same way (so a spec's
    ``rollout = "nonsense"`` is named ``...knobs.rollout``, not only the table), else at ``key``.
    """
    fixed = dict(fixed or {})
    problem = _knob_problem(game, bot, player, {**dict(knobs), **fixed})
    if problem is None:
        return
    for name, value in knobs.items():
        if _knob_problem(game, bot, player, {name: value, **fixed}) == problem:
            raise SpecError(f"{key}.{name}", problem)
    raise SpecError(key, problem)


def _knob_problem(game: pyspiel.Game, bot: str, player: int, knobs: Mapping[str, Any]) -> str | None:
    try:
        make_bot(game, bot, player, np.random.default_rng(0), **knobs)
    except (ValueError, TypeError, KeyError, OSError) as exc:  # OSError: a policy file that cannot be read
        lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
        return "; ".join(lines) or type(exc).__name__
    return None
