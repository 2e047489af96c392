"""A heuristic player for the Cheat/"Menteur" game (``trustme_liar``), with named knobs.

The bot sees only what its seat may see: the legal actions and
:meth:`~trustme_analysis.games.liar.game.LiarState.player_view` (its own hand, hand sizes, the public discards, the
round's value, the size of the pile and of the last play). Every random choice comes from the
:class:`numpy.random.Generator` it was given.

Its turn, by phase:

- **Start a round**: announce the value it holds most of and play all of those cards (up to ``max_play``); with
  probability ``bluff_rate + bluff_per_card * cards in hand`` (capped at 1) add up to ``bluff_extra`` false cards,
  taken from the values it holds only once.
- **Respond** to a play: call liar when the claim is impossible (more cards than the copies not discarded and not in
  its own hand), when the cards claimed this round exceed ``suspicion`` times those copies, or by chance
  ``call_rate``; otherwise add the true cards it holds of the value, else bluff one card with probability
  ``bluff_rate``, else pass.
- **Add or burn** (everyone else passed): add true cards if it has any, else burn with probability ``burn_rate``
  (else bluff one card).
- **Last cards** of another player: call liar with probability ``call_last_cards`` (or always when the claim is
  impossible), else pass.

With probability ``timeout_rate`` it lets its turn time out instead (the rule's default action,
:func:`~trustme_analysis.games.liar.game.timeout_action`), to model slow players.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.games.liar import BURN, LIAR, PASS, timeout_action

SHORT_NAME = "trustme_liar"


@dataclass(frozen=True)
class LiarKnobs:
    """The heuristic bot's settings (all have defaults; a sweep spec may set any of them).

    Attributes:
        bluff_rate: base chance of adding false cards when starting, and of bluffing one card when it holds none
            of the round's value (0..1).
        bluff_per_card: added to the starting bluff chance per card in hand: bigger hands bluff more (0..1).
        bluff_extra: the most false cards it adds to a starting play (0..6).
        call_rate: chance of calling liar on a plausible claim (0..1).
        suspicion: calls liar when the cards announced as the value this round exceed this multiple of the copies
            that could still be out of its sight (>= 0; 1.0 = "more than can exist").
        call_last_cards: chance of calling liar on another player's last cards (0..1).
        burn_rate: chance of burning, when everyone else passed and it has no true card to add (0..1).
        timeout_rate: chance of letting the turn time out (the rule's default action) (0..1).
    """

    bluff_rate: float = 0.3
    bluff_per_card: float = 0.02
    bluff_extra: int = 1
    call_rate: float = 0.1
    suspicion: float = 1.0
    call_last_cards: float = 0.5
    burn_rate: float = 0.8
    timeout_rate: float = 0.0

    def __post_init__(self) -> None:
        for name in ("bluff_rate", "bluff_per_card", "call_rate", "call_last_cards", "burn_rate", "timeout_rate"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number 0..1")
        extra = self.bluff_extra
        if isinstance(extra, bool) or not isinstance(extra, int) or not 0 <= extra <= 6:
            raise ValueError(f"heuristic bot knob bluff_extra={self.bluff_extra!r} is not allowed; allowed: 0..6")
        if isinstance(self.suspicion, bool) or not isinstance(self.suspicion, (int, float)) or self.suspicion < 0:
            raise ValueError(f"heuristic bot knob suspicion={self.suspicion!r} is not allowed; allowed: a number >= 0")


class LiarHeuristicBot(TrustMeBot):
    """The heuristic player described in this module's docstring.

    Args:
        game: the ``trustme_liar`` game.
        player_id: the seat it plays.
        rng: the generator of all its random choices.
        **knobs: any field of :class:`LiarKnobs`.
    """

    kind = "heuristic"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any):
        super().__init__(player_id, rng)
        unknown = set(knobs) - set(LiarKnobs.__dataclass_fields__)
        if unknown:
            raise ValueError(
                f"unknown knob(s) {sorted(unknown)} for the trustme_liar heuristic bot; "
                f"allowed: {', '.join(LiarKnobs.__dataclass_fields__)}"
            )
        self.settings = LiarKnobs(**knobs)
        self.game = game

    def knobs(self) -> dict:
        """The settings as a plain dict."""
        return asdict(self.settings)

    def choose(self, state: pyspiel.State) -> int:
        """The action for ``state``, where it is this bot's turn."""
        k = self.settings
        if k.timeout_rate and self.rng.random() < k.timeout_rate:
            return timeout_action(state)
        view = state.player_view(self.player_id)
        phase = view["phase"]
        if phase == "start":
            action = self._start(view)
        elif phase == "last_cards":
            action = LIAR if self._impossible(view) or self.rng.random() < k.call_last_cards else PASS
        elif phase == "add_or_burn":
            action = self._add_or_burn(view)
        else:
            action = self._respond(view)
        legal = state.legal_actions(self.player_id)
        # A heuristic choice is always one of the legal moves; the check guards rule parameters it ignores.
        return action if action in legal else int(legal[self.rng.integers(len(legal))])

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The probability of each legal action that :meth:`choose` takes in ``state`` (this bot's turn).

        The same rules as :meth:`choose`, with every random draw replaced by its probabilities: the tie-break among
        the values held most often, the bluff chance, the random order among equally rare values when false cards are
        picked, the call, bluff and burn rates, the time-out rate, and the uniform fallback on an illegal choice.
        """
        k = self.settings
        view = state.player_view(self.player_id)
        phase = view["phase"]
        intended: dict[int, float] = {}
        if phase == "start":
            hand = view["hand"]
            most = max(hand)
            tied = [v for v, n in enumerate(hand) if n == most]
            bluff_chance = min(1.0, k.bluff_rate + k.bluff_per_card * sum(hand))
            for value in tied:
                cards = [value] * min(most, view["max_play"])
                count = min(k.bluff_extra, view["max_play"] - len(cards))
                outcomes = [((), 1.0)] if count <= 0 else _false_card_outcomes(hand, value, count)
                for extra, p in outcomes:
                    for add, q in (((), 1.0 - bluff_chance), (extra, bluff_chance)):
                        action = self.game.play_action([v + 1 for v in cards + list(add)], value + 1)
                        _add(intended, action, p * q / len(tied))
        elif phase == "last_cards":
            call = 1.0 if self._impossible(view) else k.call_last_cards
            _add(intended, LIAR, call)
            _add(intended, PASS, 1.0 - call)
        else:
            value = view["round_value"] - 1
            true = self._true_cards(view)
            rest = 1.0
            if phase != "add_or_burn":
                call = 1.0 if self._impossible(view) or self._suspicious(view) else k.call_rate
                _add(intended, LIAR, call)
                rest = 1.0 - call
            if true:
                _add(intended, self.game.play_action(true, value + 1), rest)
            else:
                # Responding: bluff one card at bluff_rate, else pass; adding or burning: burn at burn_rate, else bluff.
                if phase == "add_or_burn":
                    stop, bluff = BURN, 1.0 - k.burn_rate
                else:
                    stop, bluff = PASS, k.bluff_rate
                _add(intended, stop, rest * (1.0 - bluff))
                for extra, p in _false_card_outcomes(view["hand"], value, 1):
                    _add(intended, self.game.play_action([v + 1 for v in extra], value + 1), rest * bluff * p)
        if k.timeout_rate:
            intended = {a: p * (1.0 - k.timeout_rate) for a, p in intended.items()}
            _add(intended, timeout_action(state), k.timeout_rate)
        legal = state.legal_actions(self.player_id)
        out: dict[int, float] = {int(a): 0.0 for a in legal}
        for action, p in intended.items():
            if p <= 0.0:
                continue
            if action in out:
                out[action] += p
            else:  # choose() falls back to a uniform legal move
                for a in out:
                    out[a] += p / len(out)
        return out

    # --- the phases ----------------------------------------------------------------------------------------------

    def _start(self, view: dict) -> int:
        k = self.settings
        hand = view["hand"]
        most = max(hand)
        value = int(self.rng.choice([v for v, n in enumerate(hand) if n == most]))
        cards = [value] * min(most, view["max_play"])
        bluff_chance = min(1.0, k.bluff_rate + k.bluff_per_card * sum(hand))
        if self.rng.random() < bluff_chance:
            cards += self._false_cards(hand, value, min(k.bluff_extra, view["max_play"] - len(cards)))
        return self.game.play_action([v + 1 for v in cards], value + 1)

    def _respond(self, view: dict) -> int:
        k = self.settings
        if self._impossible(view) or self._suspicious(view) or self.rng.random() < k.call_rate:
            return LIAR
        value = view["round_value"] - 1
        true = self._true_cards(view)
        if true:
            return self.game.play_action(true, value + 1)
        if self.rng.random() < k.bluff_rate:
            return self.game.play_action([v + 1 for v in self._false_cards(view["hand"], value, 1)], value + 1)
        return PASS

    def _add_or_burn(self, view: dict) -> int:
        value = view["round_value"] - 1
        true = self._true_cards(view)
        if true:
            return self.game.play_action(true, value + 1)
        if self.rng.random() < self.settings.burn_rate:
            return BURN
        return self.game.play_action([v + 1 for v in self._false_cards(view["hand"], value, 1)], value + 1)

    # --- reading the table ---------------------------------------------------------------------------------------

    def _unseen(self, view: dict) -> int:
        """Copies of the round's value not publicly discarded, not in this bot's hand, not played by it this round."""
        value = view["round_value"] - 1
        return view["copies"] - view["discarded"][value] - view["hand"][value] - view["own_in_pile"][value]

    def _impossible(self, view: dict) -> bool:
        """The last play claims more cards of the value than could be anywhere but here."""
        return view["last"] is not None and view["last"][1] > self._unseen(view)

    def _suspicious(self, view: dict) -> bool:
        """This round's claims exceed ``suspicion`` times the copies that could be out of sight."""
        others_claims = view["pile_size"] - sum(view["own_in_pile"])
        return others_claims > self.settings.suspicion * self._unseen(view)

    def _true_cards(self, view: dict) -> list[int]:
        value = view["round_value"] - 1
        return [value + 1] * min(view["hand"][value], view["max_play"])

    def _false_cards(self, hand: list[int], value: int, count: int) -> list[int]:
        """Up to ``count`` cards not of ``value``, singletons first (they are the hardest to play truthfully)."""
        others = [v for v, n in enumerate(hand) if n and v != value]
        others.sort(key=lambda v: (hand[v], self.rng.random()))
        out: list[int] = []
        for v in others:
            out += [v] * min(hand[v], count - len(out))
            if len(out) >= count:
                break
        return out


def _add(dist: dict[int, float], action: int, p: float) -> None:
    if p > 0.0:
        dist[action] = dist.get(action, 0.0) + p


def _false_card_outcomes(hand: list[int], value: int, count: int) -> list[tuple[tuple[int, ...], float]]:
    """Every result of :meth:`LiarHeuristicBot._false_cards` with its probability.

    That method orders the other values held by how many are held, ties in a uniformly random order, and takes
    cards greedily; here the next value is drawn uniformly among the rarest values not yet taken, until ``count``
    cards are taken or none is left.
    """
    out: dict[tuple[int, ...], float] = {}

    def walk(taken: tuple[int, ...], left: list[int], p: float) -> None:
        if len(taken) >= count or not left:
            key = tuple(sorted(taken))
            out[key] = out.get(key, 0.0) + p
            return
        rarest = min(hand[v] for v in left)
        group = [v for v in left if hand[v] == rarest]
        for v in group:
            grown = taken + (v,) * min(hand[v], count - len(taken))
            walk(grown, [u for u in left if u != v], p / len(group))

    walk((), [v for v, n in enumerate(hand) if n and v != value], 1.0)
    return sorted(out.items())


register_bot(SHORT_NAME, "heuristic", LiarHeuristicBot)
