"""A heuristic player for the Pinocchio "Trust Me" card game (``trustme_pinocchio``), with named knobs, and the belief
model search players use in this game.

The bot sees only what its seat may see: the legal actions from the pyspiel API and
:meth:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState.player_view` (other hands, the deck's contents and a
face-down tale Character are hidden there). It has one policy, :meth:`PinocchioHeuristicBot.action_probabilities`
(a distribution over the legal actions); it plays by drawing from it, so the strategy that is measured (best
responses, exploitability) is the strategy that plays.

Its turn, in order:

1. **Cash Reputation** for the Ticket that adds most to its score, counted with the scoring chart (face value plus
   the set bonus the new value brings), when that gain is ``cash_at`` points or more, or when the deck holds
   ``cash_before_runout`` Characters or fewer (a run-out discards every Reputation).
2. **Tell a tall tale** with probability ``bluff_rate`` (choosing the pair by ``bluff_cards``).
3. Otherwise **tell a true tale** if a hand Character matches a Park Character.
4. Otherwise a tall tale if ``bluff_when_stuck``, else **take a Character from the Park** (chosen by ``park_pick``).

Its vote weighs what each mistake costs (``vote = "expected_value"``, the default). It estimates the chance that the
tale is true from the Characters it has not seen *and* from the teller's choice: a teller who holds the claimed
Character tells the truth with probability 1 - b, any teller tells a tall tale about it with probability b
(b = ``assumed_bluff_rate``), so P(true) = rho (1 - b) / (rho (1 - b) + b), where rho is the chance that the teller's
hand held the claimed value. Distrusting a true tale gives the teller a bonus turn (worth ``bonus_turn_value``
points); trusting a tall tale gives it the Ticket at stake (the value of the expected card difference, or the next
lower value left). It trusts when P(true) x bonus turn >= P(tall) x Ticket. With ``vote = "threshold"`` it trusts
when rho alone is at least ``trust_threshold`` (the first version's rule). With the 4-Player Coin Variant it tosses
the Coin when the majority went against its vote, with probability ``coin_when_disagree``.

``remembers_discards`` (default false, the human reading of "Players may not check the discard pile"): whether it
counts the discard pile's Characters as seen when it estimates what the teller holds.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from math import comb
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A
from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME, score_breakdown, ticket_for_tale
from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.players.trained import make_trained_bot

VOTE_RULES = ("expected_value", "threshold")


@dataclass(frozen=True)
class PinocchioKnobs:
    """The heuristic bot's settings (all have defaults; a sweep spec may set any of them).

    The defaults of ``bluff_rate``, ``assumed_bluff_rate`` and ``bonus_turn_value`` were chosen on a grid (0.1-0.3,
    0.15-0.3, 1-4) as the setting no probe ("never/always tell a tall tale", "always/never trust") beats in 2-player
    games (``benchmarks/players.py`` measures it).

    Attributes:
        bluff_rate: chance, each turn it can tell a tale, of telling a tall tale instead (0..1).
        bluff_cards: which tall tale: ``"big_gap"`` (largest difference, the biggest Ticket), ``"small_gap"``
            (difference 1, less suspicious), or ``"random"``.
        bluff_when_stuck: with no true tale and no Reputation to cash, bluff rather than take from the Park.
        vote: ``"expected_value"`` (weigh a bonus turn against the Ticket at stake, from the teller's choice) or
            ``"threshold"`` (trust when the chance the teller held the value is at least ``trust_threshold``).
        trust_threshold: with ``vote = "threshold"``: the chance of a true tale from which it trusts (0..1).
        assumed_bluff_rate: how often it believes the others tell tall tales (0..1), for the expected-value vote.
        bonus_turn_value: what it believes a bonus turn is worth to the teller, in points, for the same vote.
        cash_at: uses Reputation as soon as a Ticket adds at least this many points to its score (chart included).
        cash_before_runout: also cashes any Ticket when the deck has this many Characters or fewer.
        park_pick: which Park Character to take: ``"fit"`` (the one that best extends a set or run in its
            Reputation), ``"high"`` (highest value), or ``"random"``.
        coin_when_disagree: Coin variant: chance of tossing the Coin when the majority went against its vote.
        remembers_discards: counts the discard pile's Characters as seen (the text says players may not check it).
    """

    bluff_rate: float = 0.2
    bluff_cards: str = "big_gap"
    bluff_when_stuck: bool = False
    vote: str = "expected_value"
    trust_threshold: float = 0.5
    assumed_bluff_rate: float = 0.3
    bonus_turn_value: float = 4.0
    cash_at: int = 3
    cash_before_runout: int = 2
    park_pick: str = "fit"
    coin_when_disagree: float = 1.0
    remembers_discards: bool = False

    def __post_init__(self) -> None:
        for name in ("bluff_rate", "trust_threshold", "assumed_bluff_rate", "coin_when_disagree"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number 0..1")
        value = self.bonus_turn_value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"heuristic bot knob bonus_turn_value={value!r} is not allowed; allowed: a number >= 0")
        for name, allowed in (("bluff_cards", ("big_gap", "small_gap", "random")), ("vote", VOTE_RULES),
                              ("park_pick", ("fit", "high", "random"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"heuristic bot knob {name}={getattr(self, name)!r} is not allowed; allowed: "
                                 + ", ".join(repr(a) for a in allowed))
        for name in ("bluff_when_stuck", "remembers_discards"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"heuristic bot knob {name}={getattr(self, name)!r} is not allowed; allowed: "
                                 "True or False")
        for name, low in (("cash_at", 1), ("cash_before_runout", 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: an integer >= {low}")


KNOB_NAMES = tuple(f.name for f in fields(PinocchioKnobs))


def unseen_counts(view: dict[str, Any], remembers_discards: bool = True) -> list[int]:
    """Characters of each value the viewer cannot locate: the engine's count (``view["unseen"]``: the deck, the other
    hands, a face-down tale Character it did not play), plus the discard pile when it does not remember it."""
    if remembers_discards:
        return list(view["unseen"])
    return [u + d for u, d in zip(view["unseen"], view["discard"])]


def chance_teller_holds(view: dict[str, Any], value: int, remembers_discards: bool = True) -> float:
    """Estimated chance that the teller's hand held ``value`` when it told the tale, from ``view`` alone.

    The teller's hand (including the face-down Character) is taken as a uniform draw from the Characters the viewer
    has not seen (:func:`unseen_counts`).
    """
    unseen = unseen_counts(view, remembers_discards)
    total = sum(unseen)
    hand = view["hand_sizes"][view["tale"]["player"]] + 1
    k = unseen[value - 1]
    if total <= 0 or hand <= 0:
        return 0.0
    hand = min(hand, total)
    return 1.0 - comb(total - k, hand) / comb(total, hand)


def chance_tale_true(rho: float, bluff_rate: float) -> float:
    """P(the tale is true | the teller chose this claim), from rho = P(the teller held the claimed value) and the
    believed bluff rate b: rho (1 - b) / (rho (1 - b) + b) (see the module docstring)."""
    truthful = rho * (1.0 - bluff_rate)
    total = truthful + bluff_rate
    return truthful / total if total > 0 else 0.0


class PinocchioHeuristicBot(TrustMeBot):
    """Rule-of-thumb player; see the module docstring for its choices.

    Args:
        game: a loaded ``trustme_pinocchio`` game.
        player_id: its seat.
        rng: the generator its draws come from.
        knobs: its :class:`PinocchioKnobs`.
    """

    kind = "heuristic"
    #: Cashing weighs the chart's set bonus; nothing else it decides on is a scoring-only parameter.
    reads = ("chart",)

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, knobs: PinocchioKnobs):
        super().__init__(player_id, rng)
        self.settings = knobs
        self.codec = game.codec
        self.chart = game.rules.chart

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        return asdict(self.settings)

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The bot's policy in ``state``: a distribution over the legal actions, from its own view only."""
        legal = state.legal_actions(self.player_id)
        if len(legal) == 1:
            return {int(legal[0]): 1.0}
        view = state.player_view(self.player_id, include_events=False)
        moves = {a: self.codec.decode(a) for a in legal}
        phase = view["phase"]
        if phase == "vote":
            return {int(self.vote(view)): 1.0}
        if phase == "coin_offer":
            tale = view["tale"]
            mine = tale["votes"][self.player_id]
            p = self.settings.coin_when_disagree if mine is not None and mine != tale["majority"] else 0.0
            return _mix({self.codec.toss: p, self.codec.no_toss: 1.0 - p})
        if phase == "free_reputation":
            return {int(self._best_cash(moves, view)): 1.0}
        return self._turn(view, moves)

    # -- voting

    def vote(self, view: dict[str, Any]) -> int:
        """"I trust you" or "I do not trust you" for the tale in ``view`` (see the module docstring)."""
        s = self.settings
        claimed = view["tale"]["park_value"]
        rho = chance_teller_holds(view, claimed, s.remembers_discards)
        if s.vote == "threshold":
            return self.codec.trust if rho >= s.trust_threshold else self.codec.distrust
        p_true = chance_tale_true(rho, s.assumed_bluff_rate)
        stake = self.expected_ticket(view, claimed)
        trust = p_true * s.bonus_turn_value >= (1.0 - p_true) * stake
        return self.codec.trust if trust else self.codec.distrust

    def expected_ticket(self, view: dict[str, Any], claimed: int) -> float:
        """The Ticket value a trusted tall tale about ``claimed`` would gain, averaged over the unseen Characters
        the face-down one could be."""
        unseen = unseen_counts(view, self.settings.remembers_discards)
        weights = [(k, ticket_for_tale(view["stacks_left"], abs(claimed - (v + 1))))
                   for v, k in enumerate(unseen) if v + 1 != claimed and k]
        total = sum(k for k, _ in weights)
        return sum(k * t for k, t in weights) / total if total else 0.0

    # -- a turn

    def _turn(self, view: dict[str, Any], moves: dict[int, A.Move]) -> dict[int, float]:
        s = self.settings
        cash = [a for a, m in moves.items() if m.kind == A.REPUTATION]
        if cash:
            best = max(self._cash_gain(view, moves[a]) for a in cash)
            if best >= s.cash_at or view["deck_size"] <= s.cash_before_runout:
                return {int(self._best_cash({a: moves[a] for a in cash}, view)): 1.0}
        tales = [a for a, m in moves.items() if m.kind == A.TALE]
        true = [a for a in tales if not moves[a].tall]
        tall = [a for a in tales if moves[a].tall]
        out: dict[int, float] = {}
        rest = 1.0
        if tall:
            for a, p in self._bluffs(tall, moves).items():
                out[a] = out.get(a, 0.0) + s.bluff_rate * p
            rest = 1.0 - s.bluff_rate
        if true:
            for a in true:
                out[a] = out.get(a, 0.0) + rest / len(true)
            return _mix(out)
        if tall and s.bluff_when_stuck:
            for a, p in self._bluffs(tall, moves).items():
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
        # Only tales (or only cashing) remain possible.
        options = tall or cash or list(moves)
        for a in options:
            out[a] = out.get(a, 0.0) + rest / len(options)
        return _mix(out)

    def _cash_gain(self, view: dict[str, Any], move: A.Move) -> int:
        """Points a Ticket of this set or run adds to the bot's score, the chart's set bonus included."""
        tickets = list(view["tickets"][self.player_id])
        before = score_breakdown(tickets, self.chart)["total"]
        tickets[move.combo.length - 1] += 1
        return score_breakdown(tickets, self.chart)["total"] - before

    def _best_cash(self, moves: dict[int, A.Move], view: dict[str, Any]) -> int:
        """The Ticket that adds most points; among equal ones keep the hand Character that best matches the Park."""
        options = [a for a, m in moves.items() if m.combo is not None]
        if not options:
            return next(iter(moves))
        gain = {a: self._cash_gain(view, moves[a]) for a in options}
        best = max(gain.values())
        options = [a for a in options if gain[a] == best]
        options.sort(key=lambda a: self._keep_value(view, moves[a].hand))
        return options[0]

    def _keep_value(self, view: dict[str, Any], played: int) -> int:
        """How useful the hand Character *left* after playing ``played`` is (lower = play this one)."""
        hand = list(view["hands"][self.player_id] or [])
        if played in hand:
            hand.remove(played)
        park = view["park"]
        return -sum(park.count(v) for v in hand)

    def _bluffs(self, tall: list[int], moves: dict[int, A.Move]) -> dict[int, float]:
        """Which tall tale, when it bluffs (``bluff_cards``)."""
        if self.settings.bluff_cards == "random":
            return {a: 1.0 / len(tall) for a in tall}
        gap = {a: abs(moves[a].hand - moves[a].park) for a in tall}
        target = max(gap.values()) if self.settings.bluff_cards == "big_gap" else min(gap.values())
        best = [a for a in tall if gap[a] == target]
        return {a: 1.0 / len(best) for a in best}

    def _pick_take(self, takes: list[int], moves: dict[int, A.Move], view: dict[str, Any]) -> int:
        rep = view["reputations"][self.player_id]
        if self.settings.park_pick == "high":
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


#: The weight, in tales, of the heuristic's ``assumed_bluff_rate`` in a search player's model of a teller: after a
#: teller was seen telling ``n`` tales (each is revealed when it resolves), ``t`` of them tall, the model's chance of a
#: tall tale is ``(m b + t) / (m + n)`` (b = ``assumed_bluff_rate``, m = this number). A teller who never bluffs is
#: soon believed, one who always bluffs soon doubted.
TELLER_PRIOR_TALES = 2


def teller_bluff_rate(told: int, tall: int, prior: float = PinocchioKnobs.assumed_bluff_rate) -> float:
    """A search player's chance that a teller's pending tale is tall, from the ``told`` tales it was seen telling this
    game, ``tall`` of them tall (see :data:`TELLER_PRIOR_TALES`)."""
    return (TELLER_PRIOR_TALES * prior + tall) / (TELLER_PRIOR_TALES + told)


def tales_seen(state: pyspiel.State, teller: int) -> tuple[int, int]:
    """The tales ``teller`` told so far in ``state`` that were revealed (every resolved tale is), and how many were
    tall: public, so any seat may count them."""
    told = tall = 0
    for event in state.player_view(teller, include_events=True)["events"]:
        if event["kind"] == "tale" and event["player"] == teller:
            told += 1
            tall += int(event["tall"])
    return told, tall


def belief(state: pyspiel.State, player: int, worlds: list[pyspiel.State]) -> list[float]:
    """The search player's belief (the game's registry ``belief`` part): weights on candidate worlds so that a world
    whose pending tale (told by another player) is tall is picked with the teller's modelled bluff rate
    (:func:`teller_bluff_rate` of what it was seen telling), a true one otherwise, each kind's worlds equally. Only a
    tale told and not yet revealed says anything; otherwise, or when every candidate has the same kind of tale, all
    weigh 1."""
    view = state.player_view(player, include_events=False)
    tale = view["tale"]
    if tale is None or tale["player"] == player:
        return [1.0] * len(worlds)
    b = teller_bluff_rate(*tales_seen(state, tale["player"]))
    true = [world.player_view(tale["player"], include_events=False)["tale"]["hidden_value"] == tale["park_value"]
            for world in worlds]
    k = sum(true)
    if k in (0, len(worlds)):
        return [1.0] * len(worlds)
    return [(1.0 - b) / k if t else b / (len(worlds) - k) for t in true]


def make_heuristic(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any) -> PinocchioHeuristicBot:
    """Factory registered as bot ``"heuristic"`` for ``trustme_pinocchio``; unknown knobs fail naming the valid ones."""
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the trustme_pinocchio heuristic bot; valid knobs: "
                         + ", ".join(KNOB_NAMES))
    if game.get_type().short_name != SHORT_NAME:
        raise ValueError(f"the Pinocchio heuristic bot plays {SHORT_NAME}, not {game.get_type().short_name}")
    if "trust_threshold" in knobs and knobs.get("vote", "expected_value") != "threshold":
        # A knob that would silently do nothing is refused.
        raise ValueError("heuristic bot knob trust_threshold applies only with vote='threshold'; allowed: add "
                         "vote = 'threshold', or drop trust_threshold")
    return PinocchioHeuristicBot(game, player_id, rng, PinocchioKnobs(**knobs))


register_bot(SHORT_NAME, "heuristic", make_heuristic)
# The trained player (trustme_analysis.players.trained; its abstraction and traversal: .abstraction, .training).
register_bot(SHORT_NAME, "trained", make_trained_bot)
