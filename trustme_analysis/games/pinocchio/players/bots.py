"""A heuristic player for the Pinocchio "Trust Me" card game (``trustme_pinocchio``), with named knobs, and the belief
model search players use in this game.

The heuristic is written once, compiled (:mod:`trustme_analysis.games.pinocchio.kernel.heuristic`): the bot, the
kernel's heuristic seats, rollouts and probes all play that one. It reads only what its seat may see (its hand, the
Park, every Reputation, the Tickets and stacks, the discard pile, the deck's size, hand sizes, the tale's claim). The
bot has one policy, :meth:`PinocchioHeuristicBot.action_probabilities` (a distribution over the legal actions); it
plays by drawing from it, so the strategy that is measured (best responses, exploitability) is the strategy that
plays. This module holds its knobs (validated here), the bot and the search player's belief model.

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
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME
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
        self.game = game
        self._kernel: Any = None  # the compiled heuristic over this game, made on the first decision

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        return asdict(self.settings)

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The bot's policy in ``state``: a distribution over the legal actions (zero entries dropped), from its own
        view only: the compiled heuristic's (:func:`~trustme_analysis.games.pinocchio.kernel.heuristic.heuristic_policy`)
        at the kernel image of ``state``, the one heuristic the kernel's seats, rollouts and probes play too."""
        legal = state.legal_actions(self.player_id)
        if len(legal) == 1:
            return {int(legal[0]): 1.0}
        if self._kernel is None:
            self._kernel = _heuristic_kernel(self.game, self.settings)
        return self._kernel.heuristic_policy(self._kernel.state_from(state, models=False))


#: Kernels with heuristic seats, by (variant, knobs): a bot per seat and game would otherwise build the rules array
#: each time (about 12 ms, more than a whole game's decisions).
_KERNELS: dict[tuple[str, PinocchioKnobs], Any] = {}


def _heuristic_kernel(game: pyspiel.Game, knobs: PinocchioKnobs) -> Any:
    key = (str(game), knobs)
    kernel = _KERNELS.get(key)
    if kernel is None:
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel  # (compiled: load on first use)

        if len(_KERNELS) >= 64:
            _KERNELS.clear()
        kernel = _KERNELS[key] = Kernel(game, ("heuristic",), asdict(knobs))
    return kernel


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
