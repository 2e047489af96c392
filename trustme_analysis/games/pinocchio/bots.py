"""A heuristic player for the Pinocchio "Trust Me" card game (``trustme_pinocchio``), with named knobs.

The bot sees only what its seat may see: the legal actions from the pyspiel API and
:meth:`~trustme_analysis.games.pinocchio.state.PinocchioState.player_view` (other hands, the deck's contents and a
face-down tale Character are hidden there). Every random choice comes from the :class:`numpy.random.Generator` it was
given.

Its turn, in order:

1. **Cash Reputation** when a Ticket of value ``cash_at`` or more can be gained, or when the deck holds
   ``cash_before_runout`` Characters or fewer (a run-out discards every Reputation).
2. **Tell a tall tale** with probability ``bluff_rate`` (choosing the pair by ``bluff_cards``).
3. Otherwise **tell a true tale** if a hand Character matches a Park Character.
4. Otherwise a tall tale if ``bluff_when_stuck``, else **take a Character from the Park** (chosen by ``park_pick``).

It votes "I trust you" when its estimate of the chance that the teller holds the claimed value is at least
``trust_threshold``, and (Coin variant) tosses the Coin when the majority went against its vote with probability
``coin_when_disagree``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from math import comb
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.games.pinocchio import actions as A

SHORT_NAME = "trustme_pinocchio"


@dataclass(frozen=True)
class PinocchioKnobs:
    """The heuristic bot's settings (all have defaults; a sweep spec may set any of them).

    Attributes:
        bluff_rate: chance, each turn it can tell a tale, of telling a tall tale instead (0..1).
        bluff_cards: which tall tale: ``"big_gap"`` (largest difference, the biggest Ticket), ``"small_gap"``
            (difference 1, less suspicious), or ``"random"``.
        bluff_when_stuck: with no true tale and no Reputation to cash, bluff rather than take from the Park.
        trust_threshold: votes "I trust you" when its estimated chance of a true tale is at least this (0..1).
        cash_at: uses Reputation as soon as it can gain a Ticket of at least this value (1..9).
        cash_before_runout: also cashes any Ticket when the deck has this many Characters or fewer.
        park_pick: which Park Character to take: ``"fit"`` (the one that best extends a set or run in its
            Reputation), ``"high"`` (highest value), or ``"random"``.
        coin_when_disagree: Coin variant: chance of tossing the Coin when the majority went against its vote.
    """

    bluff_rate: float = 0.3
    bluff_cards: str = "big_gap"
    bluff_when_stuck: bool = False
    trust_threshold: float = 0.5
    cash_at: int = 3
    cash_before_runout: int = 2
    park_pick: str = "fit"
    coin_when_disagree: float = 1.0

    def __post_init__(self) -> None:
        for name in ("bluff_rate", "trust_threshold", "coin_when_disagree"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number 0..1")
        if self.bluff_cards not in ("big_gap", "small_gap", "random"):
            raise ValueError(f"heuristic bot knob bluff_cards={self.bluff_cards!r} is not allowed; allowed: "
                             "'big_gap', 'small_gap', 'random'")
        if self.park_pick not in ("fit", "high", "random"):
            raise ValueError(f"heuristic bot knob park_pick={self.park_pick!r} is not allowed; allowed: "
                             "'fit', 'high', 'random'")
        if not isinstance(self.bluff_when_stuck, bool):
            raise ValueError(f"heuristic bot knob bluff_when_stuck={self.bluff_when_stuck!r} is not allowed; "
                             "allowed: True or False")
        for name, low in (("cash_at", 1), ("cash_before_runout", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: an integer >= {low}")


KNOB_NAMES = tuple(f.name for f in fields(PinocchioKnobs))


def chance_teller_holds(view: dict[str, Any], value: int, per_value: int) -> float:
    """Estimated chance that the teller's hand held ``value`` when it told the tale, from ``view`` alone.

    Characters the viewer cannot see are those not in the Park, any Reputation, the discard pile or its own hand;
    the teller's hand (including the face-down Character) is taken as a uniform draw from them.
    """
    n_values = len(view["stacks_left"])
    seen = [0] * n_values
    for v in view["park"]:
        seen[v - 1] += 1
    for rep in view["reputations"]:
        for v in rep:
            seen[v - 1] += 1
    for v, k in enumerate(view["discard"]):
        seen[v] += k
    for v in view["hands"][view["viewer"]] or []:
        seen[v - 1] += 1
    unseen = [per_value - s for s in seen]
    total = sum(unseen)
    hand = view["hand_sizes"][view["tale"]["player"]] + 1
    k = max(unseen[value - 1], 0)
    if total <= 0 or hand <= 0:
        return 0.0
    hand = min(hand, total)
    return 1.0 - comb(total - k, hand) / comb(total, hand)


class PinocchioHeuristicBot(TrustMeBot):
    """Rule-of-thumb player; see the module docstring for the order of its choices.

    Args:
        game: a loaded ``trustme_pinocchio`` game.
        player_id: its seat.
        rng: the generator for its random choices.
        knobs: its :class:`PinocchioKnobs`.
    """

    kind = "heuristic"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, knobs: PinocchioKnobs):
        super().__init__(player_id, rng)
        self.settings = knobs
        self.codec = game.codec
        self.per_value = game.rules.deck_per_value

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        return asdict(self.settings)

    def choose(self, state: pyspiel.State) -> int:
        """The bot's action in ``state``, read from its own view and the legal actions only."""
        legal = state.legal_actions(self.player_id)
        if len(legal) == 1:
            return legal[0]
        view = state.player_view(self.player_id, include_events=False)
        moves = {a: self.codec.decode(a) for a in legal}
        phase = view["phase"]
        if phase == "vote":
            return self._vote(view, legal)
        if phase == "coin_offer":
            return self._coin_offer(view)
        if phase == "free_reputation":
            return self._best_cash(moves)
        return self._turn(view, moves)

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The exact distribution :meth:`choose` draws from in ``state`` (same view, same order of choices).

        Only the draws of ``choose`` are random (the bluff, which tall or true tale, the Coin toss when outvoted,
        a random Park pick); every other step is a fixed function of the view, so the distribution is built by
        following the same steps with the probabilities in place of the draws.
        """
        legal = state.legal_actions(self.player_id)
        if len(legal) == 1:
            return {int(legal[0]): 1.0}
        view = state.player_view(self.player_id, include_events=False)
        moves = {a: self.codec.decode(a) for a in legal}
        phase = view["phase"]
        if phase == "vote":
            return {int(self._vote(view, legal)): 1.0}
        if phase == "coin_offer":
            tale = view["tale"]
            mine = tale["votes"][self.player_id]
            p = self.settings.coin_when_disagree if mine is not None and mine != tale["majority"] else 0.0
            return _mix({self.codec.toss: p, self.codec.no_toss: 1.0 - p})
        if phase == "free_reputation":
            return {int(self._best_cash(moves)): 1.0}
        return self._turn_probabilities(view, moves)

    def _turn_probabilities(self, view: dict[str, Any], moves: dict[int, A.Move]) -> dict[int, float]:
        """The distribution of :meth:`_turn`."""
        s = self.settings
        cash = [a for a, m in moves.items() if m.kind == A.REPUTATION]
        if cash:
            best = max(moves[a].combo.length for a in cash)
            if best >= s.cash_at or view["deck_size"] <= s.cash_before_runout:
                return {int(self._best_cash({a: moves[a] for a in cash}, view)): 1.0}
        tales = [a for a, m in moves.items() if m.kind == A.TALE]
        true = [a for a in tales if not moves[a].tall]
        tall = [a for a in tales if moves[a].tall]
        out: dict[int, float] = {}
        rest = 1.0
        if tall:
            for a, p in self._bluff_probabilities(tall, moves).items():
                out[a] = out.get(a, 0.0) + s.bluff_rate * p
            rest = 1.0 - s.bluff_rate
        if true:
            for a in true:
                out[a] = out.get(a, 0.0) + rest / len(true)
            return _mix(out)
        if tall and s.bluff_when_stuck:
            for a, p in self._bluff_probabilities(tall, moves).items():
                out[a] = out.get(a, 0.0) + rest * p
            return _mix(out)
        takes = [a for a, m in moves.items() if m.kind == A.TAKE]
        if takes:
            if s.park_pick == "random":
                for a in takes:
                    out[a] = out.get(a, 0.0) + rest / len(takes)
            else:
                a = self._pick_take(takes, moves, view)
                out[a] = out.get(a, 0.0) + rest
            return _mix(out)
        options = tall or cash or list(moves)
        for a in options:
            out[a] = out.get(a, 0.0) + rest / len(options)
        return _mix(out)

    def _bluff_probabilities(self, tall: list[int], moves: dict[int, A.Move]) -> dict[int, float]:
        """The distribution of :meth:`_pick_bluff`."""
        if self.settings.bluff_cards == "random":
            return {a: 1.0 / len(tall) for a in tall}
        gap = {a: abs(moves[a].hand - moves[a].park) for a in tall}
        target = max(gap.values()) if self.settings.bluff_cards == "big_gap" else min(gap.values())
        best = [a for a in tall if gap[a] == target]
        return {a: 1.0 / len(best) for a in best}

    # -- voting and the Coin

    def _vote(self, view: dict[str, Any], legal: list[int]) -> int:
        chance = chance_teller_holds(view, view["tale"]["park_value"], self.per_value)
        return self.codec.trust if chance >= self.settings.trust_threshold else self.codec.distrust

    def _coin_offer(self, view: dict[str, Any]) -> int:
        tale = view["tale"]
        mine = tale["votes"][self.player_id]
        disagree = mine is not None and mine != tale["majority"]
        if disagree and self.rng.random() < self.settings.coin_when_disagree:
            return self.codec.toss
        return self.codec.no_toss

    # -- a turn

    def _turn(self, view: dict[str, Any], moves: dict[int, A.Move]) -> int:
        s = self.settings
        cash = [a for a, m in moves.items() if m.kind == A.REPUTATION]
        if cash:
            best = max(moves[a].combo.length for a in cash)
            if best >= s.cash_at or view["deck_size"] <= s.cash_before_runout:
                return self._best_cash({a: moves[a] for a in cash}, view)
        tales = [a for a, m in moves.items() if m.kind == A.TALE]
        true = [a for a in tales if not moves[a].tall]
        tall = [a for a in tales if moves[a].tall]
        if tall and self.rng.random() < s.bluff_rate:
            return self._pick_bluff(tall, moves)
        if true:
            return true[int(self.rng.integers(len(true)))]
        if tall and s.bluff_when_stuck:
            return self._pick_bluff(tall, moves)
        takes = [a for a, m in moves.items() if m.kind == A.TAKE]
        if takes:
            return self._pick_take(takes, moves, view)
        # Only tales (or only cashing) remain possible.
        rest = tall or cash or list(moves)
        return rest[int(self.rng.integers(len(rest)))]

    def _best_cash(self, moves: dict[int, A.Move], view: dict[str, Any] | None = None) -> int:
        """The largest Ticket; among equal ones keep the hand Character that best matches the Park."""
        options = [a for a, m in moves.items() if m.combo is not None]
        if not options:
            return next(iter(moves))
        best = max(moves[a].combo.length for a in options)
        options = [a for a in options if moves[a].combo.length == best]
        if view is not None:
            options.sort(key=lambda a: self._keep_value(view, moves[a].hand))
        return options[0]

    def _keep_value(self, view: dict[str, Any], played: int) -> int:
        """How useful the hand Character *left* after playing ``played`` is (lower = play this one)."""
        hand = list(view["hands"][self.player_id] or [])
        if played in hand:
            hand.remove(played)
        park = view["park"]
        return -sum(park.count(v) for v in hand)

    def _pick_bluff(self, tall: list[int], moves: dict[int, A.Move]) -> int:
        mode = self.settings.bluff_cards
        if mode == "random":
            return tall[int(self.rng.integers(len(tall)))]
        gap = {a: abs(moves[a].hand - moves[a].park) for a in tall}
        target = max(gap.values()) if mode == "big_gap" else min(gap.values())
        best = [a for a in tall if gap[a] == target]
        return best[int(self.rng.integers(len(best)))]

    def _pick_take(self, takes: list[int], moves: dict[int, A.Move], view: dict[str, Any]) -> int:
        mode = self.settings.park_pick
        if mode == "random":
            return takes[int(self.rng.integers(len(takes)))]
        rep = view["reputations"][self.player_id]
        if mode == "high":
            score = {a: moves[a].park for a in takes}
        else:
            score = {a: _fit(rep, moves[a].park) for a in takes}
        top = max(score.values())
        best = [a for a in takes if score[a] == top]
        best.sort(key=lambda a: self._keep_value(view, moves[a].hand))
        return best[0]


def _mix(probs: dict[int, float]) -> dict[int, float]:
    """A distribution with its zero entries dropped and plain int keys."""
    return {int(a): float(p) for a, p in probs.items() if p > 0}


def _fit(reputation: list[int], value: int) -> int:
    """Size of the largest set or run the Reputation would hold with ``value`` added."""
    counts: dict[int, int] = {}
    for v in reputation + [value]:
        counts[v] = counts.get(v, 0) + 1
    best = max(counts.values())
    run = 0
    v = value
    while counts.get(v - 1):
        v -= 1
    while counts.get(v):
        run += 1
        v += 1
    return max(best, run)


def make_heuristic(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any) -> PinocchioHeuristicBot:
    """Factory registered as bot ``"heuristic"`` for ``trustme_pinocchio``; unknown knobs fail naming the valid ones."""
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the trustme_pinocchio heuristic bot; valid knobs: "
                         + ", ".join(KNOB_NAMES))
    if game.get_type().short_name != SHORT_NAME:
        raise ValueError(f"the Pinocchio heuristic bot plays {SHORT_NAME}, not {game.get_type().short_name}")
    return PinocchioHeuristicBot(game, player_id, rng, PinocchioKnobs(**knobs))


register_bot(SHORT_NAME, "heuristic", make_heuristic)
