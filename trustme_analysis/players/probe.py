"""Probes (bot kind ``"probe"``): a named fixed strategy ("never bluff", "always trust", ...) played wherever it
applies, a base bot everywhere else.

A probe is how a report tests whether a line-up can be trusted: if one seat playing "never bluff" wins far more than
its fair share against the line-up, the line-up's statistics describe exploitable players. The strategies are the
game's simple strategies (the ``simple_strategies`` part of its registry entry, also used by the solve layer's
near-optimality check): a rule ``rule(state, player, legal) -> preferred actions or None``. Where the rule prefers
some actions, the probe plays the base bot's mixed strategy restricted to them (uniform among them when the base bot
states none or gives them no weight); where it says nothing (``None``), the base bot plays.

Knobs: ``strategy`` (one of the game's simple strategies), ``base`` (the bot kind elsewhere; default ``heuristic``
where the game has one, else ``random``), ``base_knobs`` (that bot's knobs, a table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.draws import GameStream
from trustme_analysis.players.base import TrustMeBot, sample_action
from trustme_analysis.registry import find_game

KNOBS = ("strategy", "base", "base_knobs")

#: ``rule(state, player, legal_actions) -> preferred actions, or None where the rule says nothing``.
Rule = Callable[[pyspiel.State, int, list[int]], "list[int] | None"]
BotMaker = Callable[..., TrustMeBot]


def probe_strategies(game: pyspiel.Game) -> dict[str, Rule]:
    """The game's named simple strategies (empty when it has none)."""
    entry = find_game(game.get_type().short_name)
    fn = entry.part("simple_strategies") if entry is not None else None
    return dict(fn(game)) if fn is not None else {}


class ProbeBot(TrustMeBot):
    """Plays ``rule`` where it applies and ``base`` elsewhere; see the module docstring."""

    kind = "probe"

    def __init__(self, player_id: int, rng: np.random.Generator, strategy: str, rule: Rule, base: TrustMeBot,
                 base_kind: str, base_knobs: dict | None = None):
        super().__init__(player_id, rng)
        self.strategy = strategy
        self.rule = rule
        self.base = base
        self.base_kind = base_kind
        self.base_knobs = dict(base_knobs or {})
        self.reads = base.reads

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        out: dict[str, Any] = {"strategy": self.strategy, "base": self.base_kind}
        if self.base_knobs:
            out["base_knobs"] = dict(self.base_knobs)
        return out

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The probe's mixed strategy: the base bot's, restricted to the rule's preferred actions where it has any."""
        legal = list(state.legal_actions(self.player_id))
        preferred = self.rule(state, self.player_id, legal)
        base = self.base.action_probabilities(state)
        if not preferred:
            return base
        weights = {a: float(base.get(a, 0.0)) for a in preferred}
        total = sum(weights.values())
        if total <= 0:
            return {int(a): 1.0 / len(preferred) for a in preferred}
        return {int(a): w / total for a, w in weights.items()}

    def choose(self, state: pyspiel.State) -> int:
        legal = list(state.legal_actions(self.player_id))
        preferred = self.rule(state, self.player_id, legal)
        if not preferred:
            return int(self.base.choose(state))
        try:
            probs = self.action_probabilities(state)
        except NotImplementedError:  # the base bot states no mixed strategy: uniform among the preferred actions
            return int(preferred[int(self.rng.integers(len(preferred)))])
        if isinstance(self.rng, GameStream):
            # A line-up a kernel plays draws by the protocol (trustme_analysis.engine.draws), which has no choice().
            return sample_action(probs, self.rng)
        actions = list(probs)
        weights = np.array([probs[a] for a in actions], dtype=float)
        return int(actions[int(self.rng.choice(len(actions), p=weights / weights.sum()))])


def make_probe_bot(game: pyspiel.Game, player_id: int, rng: np.random.Generator, make_bot: BotMaker,
                   kinds: list[str], **knobs: Any) -> ProbeBot:
    """The bot kind ``"probe"`` (``kinds``: the game's bot kinds, to choose the default base)."""
    unknown = sorted(set(knobs) - set(KNOBS))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the probe bot; valid knobs: {', '.join(KNOBS)}")
    strategies = probe_strategies(game)
    name = knobs.get("strategy")
    if name not in strategies:
        allowed = ", ".join(repr(s) for s in strategies) or "none (this game defines no simple strategies)"
        raise ValueError(f"probe bot knob strategy={name!r} is not allowed; allowed: {allowed}")
    base_kind = knobs.get("base", "heuristic" if "heuristic" in kinds else "random")
    if base_kind in ("probe", "search") or not isinstance(base_kind, str):
        raise ValueError(f"probe bot knob base={base_kind!r} is not allowed; allowed: a bot kind that states its "
                         "strategy, e.g. 'heuristic' or 'random'")
    base_knobs = knobs.get("base_knobs", {})
    if not isinstance(base_knobs, dict):
        raise ValueError(f"probe bot knob base_knobs={base_knobs!r} is not allowed; allowed: a table of the base "
                         "bot's knobs")
    base = make_bot(game, base_kind, player_id, rng, **base_knobs)
    return ProbeBot(player_id, rng, name, strategies[name], base, base_kind, base_knobs)
