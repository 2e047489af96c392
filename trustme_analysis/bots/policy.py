"""A bot that plays a stored (e.g. solved) policy: kind ``"policy"`` for every Trust Me game.

Knobs:

- ``policy``: path to a stored ``policy.json`` (as written by ``python -m trustme_analysis.solve``, under
  ``OUTDIR/solve/<name>/``) or to the folder holding it;
- ``fallback``: what the bot does at an information state the policy does not list (a state the solved variant never
  reaches, or a different variant): ``"random"`` (default: uniform over the legal actions) or any other bot kind
  registered for the game (e.g. ``"heuristic"``, with its default knobs).

The policy must have been solved for exactly the game being played (the canonical game string is compared), because
information-state strings of another variant would silently mean something else. The file is read lazily, at the
first decision, so a sweep spec can name a policy its own ``[[solve]]`` section is about to write; a missing file then
fails at that first decision with a message saying to run the solve.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.bots.base import TrustMeBot, UniformRandomBot
from trustme_analysis.bots.registry import make_bot, register_bot

KNOB_NAMES = ("policy", "fallback")

# Loaded policies by (absolute path, modification time): workers of a sweep build many bots from one file.
_CACHE: dict[tuple[str, float], dict[str, Any]] = {}


def _load(path: str) -> dict[str, Any]:
    from trustme_analysis.solve.storage import POLICY, load_policy

    full = os.path.abspath(path)
    if os.path.isdir(full):
        full = os.path.join(full, POLICY)
    key = (full, os.path.getmtime(full) if os.path.exists(full) else -1.0)
    if key not in _CACHE:
        _CACHE[key] = load_policy(full)
    return _CACHE[key]


class PolicyBot(TrustMeBot):
    """Plays a stored policy; see the module docstring.

    Args:
        game: the game being played.
        player_id: its seat.
        rng: the generator its draws come from.
        policy: path of the stored policy.
        fallback: the bot kind used at information states the policy does not list.

    Attributes:
        misses: information states met that the policy does not list (each handled by the fallback).
    """

    kind = "policy"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, policy: str,
                 fallback: str = "random"):
        super().__init__(player_id, rng)
        self.game = game
        self.path = policy
        self.fallback_kind = fallback
        self.fallback: TrustMeBot = (UniformRandomBot(player_id, rng) if fallback == "random"
                                     else make_bot(game, fallback, player_id, rng))
        self._table: dict[str, dict[int, float]] | None = None
        self.misses = 0
        if os.path.exists(policy):
            self._policy_table()  # check the game at once when the file is already there

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        return {"policy": self.path, "fallback": self.fallback_kind}

    def _policy_table(self) -> dict[str, dict[int, float]]:
        if self._table is None:
            data = _load(self.path)
            if data["game"] != str(self.game):
                raise ValueError(f"the policy at {self.path!r} was solved for {data['game']}, not for {self.game}; "
                                 "a policy bot plays only the variant it was solved for")
            self._table = data["policy"]
        return self._table

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The stored policy's distribution at this information state (the fallback's where it has none)."""
        key = state.information_state_string(self.player_id)
        row = self._policy_table().get(key)
        legal = state.legal_actions(self.player_id)
        if row is None:
            return self.fallback.action_probabilities(state)
        probs = {int(a): max(float(row.get(int(a), 0.0)), 0.0) for a in legal}
        total = sum(probs.values())
        if total <= 0:
            return {int(a): 1.0 / len(legal) for a in legal}
        return {a: p / total for a, p in probs.items()}

    def choose(self, state: pyspiel.State) -> int:
        """Draw the action from the stored policy (or play the fallback at an unlisted information state)."""
        key = state.information_state_string(self.player_id)
        if key not in self._policy_table():
            self.misses += 1
            return int(self.fallback.choose(state))
        probs = self.action_probabilities(state)
        actions = list(probs)
        weights = np.array([probs[a] for a in actions])
        return int(actions[int(self.rng.choice(len(actions), p=weights / weights.sum()))])


def make_policy_bot(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any) -> PolicyBot:
    """Factory registered as bot ``"policy"`` for every Trust Me game."""
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the policy bot; valid knobs: {', '.join(KNOB_NAMES)}")
    path = knobs.get("policy")
    if not isinstance(path, str) or not path:
        raise ValueError(f"policy bot knob policy={path!r} is not allowed; allowed: the path of a stored policy.json "
                         "(OUTDIR/solve/<name>/policy.json)")
    fallback = knobs.get("fallback", "random")
    if not isinstance(fallback, str) or fallback == "policy":
        raise ValueError(f"policy bot knob fallback={fallback!r} is not allowed; allowed: 'random' or another bot "
                         "kind of the game")
    return PolicyBot(game, player_id, rng, path, fallback)


for _game in ("trustme_pinocchio", "trustme_1981", "trustme_1981_investment", "trustme_liar"):
    register_bot(_game, "policy", make_policy_bot)
