"""The heuristic player's strategy for ``trustme_liar``, as one pure function of what a seat sees and knows.

:func:`policy` is the heuristic bot's whole strategy (:mod:`~trustme_analysis.games.liar.players.bots` wraps it in a pyspiel bot; the compiled kernel
plays the same policy in its rollouts and is tested equal to it). The rules it follows are described in
:mod:`~trustme_analysis.games.liar.players.bots`; the card counting is :func:`unseen_copies`, :func:`bluff_chance` and :func:`room_for_claims`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from trustme_analysis.games.liar.engine.plays import BURN, LIAR, PASS


@dataclass(frozen=True)
class LiarKnobs:
    """The heuristic bot's settings (all have defaults; a sweep spec may set any of them).

    Attributes:
        bluff_start: chance of adding false cards when starting a round (0..1).
        bluff_per_card: added to ``bluff_start`` per card in hand: bigger hands bluff more (0..1).
        bluff_extra: the most false cards added to a starting play (0..6).
        bluff_rate: chance of bluffing one card when responding without a card of the round's value (0..1).
        bluff_max_pile: no bluff when responding or adding to a pile of more cards than this (>= 0).
        bluff_slack: how many cards a bluff may claim beyond what another player could disprove, were it to hold
            every copy this player cannot place (>= 0; 0 = only bluffs nobody can prove false).
        assumed_bluff: the prior chance that another player's claim is a bluff (0..1).
        call_threshold: calls liar on a claim whose bluff chance is at least this (0..1; above 1: never).
        call_last_threshold: the same for another player's last cards (0..1; above 1: never).
        call_rate: chance of calling liar on a claim below the threshold (0..1).
        burn_rate: chance of burning when everyone else passed and it has no true card to add (0..1).
        timeout_rate: chance of letting the turn time out (the rule's default action) (0..1).
    """

    bluff_start: float = 0.3
    bluff_per_card: float = 0.0
    bluff_extra: int = 1
    bluff_rate: float = 0.3
    bluff_max_pile: int = 8
    bluff_slack: int = 0
    assumed_bluff: float = 0.3
    call_threshold: float = 0.5
    call_last_threshold: float = 0.3
    call_rate: float = 0.0
    burn_rate: float = 0.8
    timeout_rate: float = 0.0

    def __post_init__(self) -> None:
        for name in ("bluff_start", "bluff_per_card", "bluff_rate", "assumed_bluff", "call_rate", "burn_rate",
                     "timeout_rate"):
            _check_number(name, getattr(self, name), 0.0, 1.0, "a number 0..1")
        for name in ("call_threshold", "call_last_threshold"):
            _check_number(name, getattr(self, name), 0.0, None, "a number >= 0 (above 1: never)")
        _check_int("bluff_extra", self.bluff_extra, 0, 6)
        _check_int("bluff_max_pile", self.bluff_max_pile, 0, None)
        _check_int("bluff_slack", self.bluff_slack, 0, None)

    def array(self) -> np.ndarray:
        """The knobs as floats in field order (what the compiled heuristic reads)."""
        return np.array([float(getattr(self, name)) for name in KNOB_NAMES], dtype=np.float64)


KNOB_NAMES = tuple(LiarKnobs.__dataclass_fields__)


def _check_number(name: str, value: Any, low: float, high: float | None, allowed: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low or (high is not None
                                                                                          and value > high):
        raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: {allowed}")


def _check_int(name: str, value: Any, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"an integer {low}..{high}" if high is not None else f"an integer >= {low}"
        raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: {allowed}")


# --- card counting --------------------------------------------------------------------------------------------------


def unseen_copies(view: dict) -> list[int]:
    """Copies of each value the viewer cannot place: not discarded, not in its hand, not its own in the pile or burned,
    not known to be in another hand."""
    known = [sum(col) for col in zip(*view["known"])]
    return [view["copies"] - d - h - o - b - k for d, h, o, b, k in
            zip(view["discarded"], view["hand"], view["own_in_pile"], view["own_burned"], known)]


def _binom(a: int, b: int) -> float:
    """C(a, b) as a float, by the same multiplications as the compiled heuristic."""
    if b < 0 or b > a:
        return 0.0
    out = 1.0
    for i in range(1, b + 1):
        out = out * (a - b + i) / i
    return out


def holds_at_least(pool: int, good: int, drawn: int, k: int) -> float:
    """P(X >= k) for X hypergeometric: ``drawn`` cards from ``pool`` of which ``good`` are good."""
    if k <= 0:
        return 1.0
    drawn = min(drawn, pool)
    if good < k or drawn < k:
        return 0.0
    total = _binom(pool, drawn)
    below = 0.0
    for x in range(max(0, drawn - (pool - good)), k):
        below += _binom(good, x) * _binom(pool - good, drawn - x) / total
    return max(0.0, 1.0 - below)


def bluff_chance(view: dict, prior: float) -> float:
    """The chance the play open to a challenge is a bluff (module docstring), from ``view``'s player's knowledge.

    The cards the others claimed earlier in this round and in burned piles are taken to be what they claimed: they
    are not in the claimant's hand.
    """
    player, count = view["last"]
    value = view["round_value"] - 1
    unseen = unseen_copies(view)
    if count > unseen[value]:
        return 1.0  # impossible: more than the copies this player cannot place
    earlier = sum(c for p, c in view["pile"][:-1] if p != view["player"])
    good = max(0, unseen[value] - earlier - view["others_claims_burned"][value])
    pool = max(good, sum(unseen) - earlier - view["others_burned"])
    drawn = view["hand_sizes"][player] + count
    held = holds_at_least(pool, good, drawn, count)
    if len(view["pile"]) == 1:
        # The starter chose the value: an honest starter announces one it holds, so only holding ``count`` copies
        # rather than one tells honest from false.
        one = holds_at_least(pool, good, drawn, 1)
        if held <= 0.0 or one <= 0.0:
            return 1.0
        return prior / (prior + (1.0 - prior) * (held / one))
    # A responder who holds the value plays it; one who does not bluffs (at the prior rate) or passes.
    if held <= 0.0:
        return 1.0
    return prior * (1.0 - held) / (prior * (1.0 - held) + held)


def bluff_room(view: dict, value: int, slack: int) -> int:
    """How many more cards of ``value`` (0-based) this player may claim this round before another player could prove
    the round's claims false, were that player to hold every copy this player cannot place (plus ``slack``).

    That player would see at most the copies in this player's hand, its own in the pile and its own burned."""
    return (view["hand"][value] + view["own_in_pile"][value] + view["own_burned"][value] + slack
            - view["pile_size"])


#: An intended move: ``(LIAR | PASS | BURN, -1)`` or ``(cards (0-based, sorted), announced value (0-based))``.
Move = tuple[Any, int]


def policy(view: dict, k: LiarKnobs) -> dict[Move, float]:
    """The heuristic's moves at ``view`` (its player's turn) with their probabilities (the module docstring's rules)."""
    phase = view["phase"]
    hand = view["hand"]
    out: dict[Move, float] = {}
    if phase == "start":
        unseen = unseen_copies(view)
        most = max(hand)
        held = [v for v, n in enumerate(hand) if n == most]
        fewest = min(unseen[v] for v in held)
        chosen = [v for v in held if unseen[v] == fewest]
        chance = min(1.0, k.bluff_start + k.bluff_per_card * sum(hand))
        for value in chosen:
            true = (value,) * min(most, view["max_play"])
            share = 1.0 / len(chosen)
            room = bluff_room(view, value, k.bluff_slack)
            extra = min(k.bluff_extra, view["max_play"] - len(true), room - len(true))
            outcomes = _false_card_outcomes(hand, value, extra) if extra > 0 else []
            if not outcomes:
                _add(out, (true, value), share)
                continue
            _add(out, (true, value), share * (1.0 - chance))
            for false, p in outcomes:
                _add(out, (tuple(sorted(true + false)), value), share * chance * p)
        return out
    if phase == "last_cards":
        call = 1.0 if bluff_chance(view, k.assumed_bluff) >= k.call_last_threshold else k.call_rate
        _add(out, (LIAR, -1), call)
        _add(out, (PASS, -1), 1.0 - call)
        return out
    value = view["round_value"] - 1
    rest = 1.0
    if phase == "respond":
        call = 1.0 if bluff_chance(view, k.assumed_bluff) >= k.call_threshold else k.call_rate
        _add(out, (LIAR, -1), call)
        rest = 1.0 - call
    true = (value,) * min(hand[value], view["max_play"])
    if true:
        _add(out, (true, value), rest)
        return out
    falses = _false_card_outcomes(hand, value, 1) if bluff_room(view, value, k.bluff_slack) >= 1 else []
    if phase == "respond":
        stop, bluff = (PASS, -1), (k.bluff_rate if view["pile_size"] <= k.bluff_max_pile else 0.0)
    else:
        stop, bluff = (BURN, -1), (1.0 - k.burn_rate if view["pile_size"] <= k.bluff_max_pile else 0.0)
    if not falses:
        bluff = 0.0
    _add(out, stop, rest * (1.0 - bluff))
    for false, p in falses:
        _add(out, (false, value), rest * bluff * p)
    return out


def _add(dist: dict, key: Any, p: float) -> None:
    if p > 0.0:
        dist[key] = dist.get(key, 0.0) + p


def _false_card_outcomes(hand: list[int], value: int, count: int) -> list[tuple[tuple[int, ...], float]]:
    """The false cards of a bluff, each with its probability: one card of each of ``count`` different values chosen
    uniformly among the values held other than ``value`` (all of them, one card each, when fewer are held)."""
    others = [v for v, n in enumerate(hand) if n and v != value]
    if not others or count <= 0:
        return []
    take = min(count, len(others))
    p = 1.0 / comb(len(others), take)
    return [(combo, p) for combo in itertools.combinations(others, take)]
