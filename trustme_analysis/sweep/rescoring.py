"""Variants evaluated by scoring the same games again: which variant's games another can reuse, and the reuse itself.

Two variants of a sweep that differ only in rule parameters the game declares scoring-only (its registry entry's
``scoring_only``: Pinocchio's chart), played by the same line-up whose bots read none of those parameters (each bot's
``reads``), play the same game from the same seed move for move (common random numbers, :mod:`.seeding`): only the
final scoring differs. Such a variant's games are therefore not played again: each game of the variant it follows
(its *source*) is handed to the game's ``rescore`` part, which scores the finished table under the variant's rules,
and the few chance outcomes the scoring itself draws (a tie-break Coin) come from the game's chance stream as it stood
when the scoring began (:class:`.seeding.ChanceStream`). The records are those of playing the variant itself from the
same seed (``tests/sweep/test_sweep_rescore.py`` checks this game by game); the sweep only saves the play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.registry import find_game
from trustme_analysis.sweep.spec import Spec, Variant


@dataclass(frozen=True)
class Follower:
    """A variant whose games are its source variant's, scored again (what a source's chunk task also records)."""

    variant_id: str
    game_string: str
    params: Mapping[str, Any]


def _reads(game: pyspiel.Game, variant: Variant) -> set[str] | None:
    """The rule parameters any bot of the variant's line-up reads (``None``: some bot may read any)."""
    seats = variant.lineup.pool if variant.lineup.pool is not None else variant.lineup.seats_for(variant.num_players)
    read: set[str] = set()
    for seat in seats:
        bot = make_bot(game, seat.bot, 0, np.random.default_rng(0), **seat.knobs)
        if bot.reads is None:
            return None
        read |= set(bot.reads)
    return read


def sources(spec: Spec) -> dict[str, str]:
    """For each variant of ``spec`` whose games can be another's scored again: that other variant's id (the first
    such variant in spec order, itself played). Variants missing from the result are played."""
    entry = find_game(spec.game)
    scoring_only = set(entry.scoring_only) if entry is not None else set()
    if entry is None or entry.rescore is None or not scoring_only:
        return {}
    out: dict[str, str] = {}
    played: list[Variant] = []
    for variant in spec.variants:
        source = None
        for other in played:
            if other.lineup != variant.lineup or other.num_players != variant.num_players:
                continue
            keys = set(variant.params) | set(other.params)
            differs = {k for k in keys if variant.params.get(k) != other.params.get(k)}
            if not differs or not differs <= scoring_only:
                continue
            read = _reads(pyspiel.load_game(variant.game_string), variant)
            if read is not None and not read & differs:
                source = other
                break
        if source is None:
            played.append(variant)
        else:
            out[variant.id] = source.id
    return out


def followers(spec: Spec) -> dict[str, tuple[Follower, ...]]:
    """For each played variant, the variants scored again from its games (see :func:`sources`)."""
    by_id = {v.id: v for v in spec.variants}
    out: dict[str, list[Follower]] = {}
    for vid, source in sources(spec).items():
        v = by_id[vid]
        out.setdefault(source, []).append(Follower(v.id, v.game_string, dict(v.params)))
    return {k: tuple(v) for k, v in out.items()}


def score_again(game_name: str, game: pyspiel.Game, finished: pyspiel.State, stream: Any,
                bots: Sequence[Any] = ()) -> pyspiel.State:
    """``finished`` (a game of the source variant, played with ``stream`` as its chance) scored under ``game``'s rules
    by the game's ``rescore`` part, the scoring's own chance outcomes drawn as playing ``game`` would have drawn them.

    Raises:
        ValueError: the scoring asks a player for a decision (a rescore part must leave only chance to play).
    """
    entry = find_game(game_name)
    rescore = entry.part("rescore") if entry is not None else None
    if rescore is None:
        raise ValueError(f"game {game_name!r} has no rescore part")
    rescored = rescore(game, finished)
    state, rng = rescored.state, stream.rewound(rescored.chance_after)
    while not state.is_terminal():
        if not state.is_chance_node():
            raise ValueError(f"{game_name}: scoring a finished game again reached a decision of player "
                             f"{state.current_player()}; only chance may remain after a rescore")
        state.apply_action(sample_chance(state, rng))
    return state
