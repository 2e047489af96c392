"""A bot that plays a stored (e.g. solved) policy: kind ``"policy"`` for every Trust Me game.

Knobs (give ``solve`` or ``policy``):

- ``solve``: the name of a ``[[solve]]`` section of the sweep's own spec. The sweep resolves it to
  ``OUTDIR/solve/<name>/policy.json`` inside the run's output folder, wherever ``--out`` puts it (see
  :mod:`trustme_analysis.sweep.policies`); outside a sweep the name means nothing and the bot refuses to play;
- ``policy``: path to a stored ``policy.json`` (as written by ``python -m trustme_analysis.solve``) or to the folder
  holding it, for a policy from elsewhere;
- ``fingerprint``: the fingerprint the stored policy must have (:func:`policy_fingerprint`); a sweep sets it, so a
  policy file replaced while the sweep runs is refused instead of played;
- ``fallback``: what the bot does at an information state the policy does not list (a state the solved variant never
  reaches, or a different variant): ``"random"`` (default: uniform over the legal actions) or any other bot kind
  registered for the game (e.g. ``"heuristic"``, with its default knobs).

The policy must have been solved for exactly the game being played (the canonical game string is compared), because
information-state strings of another variant would silently mean something else. The file is read lazily, at the
first decision (or at once when it already exists), so a spec can be checked before its policies are solved.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.outdir import SOLVE
from trustme_analysis.players.base import TrustMeBot, UniformRandomBot

KNOB_NAMES = ("solve", "policy", "fingerprint", "fallback")
#: The file name of a stored policy inside a solution folder.
POLICY = "policy.json"

#: ``make_bot(game, kind, player_id, rng)``: how the policy bot builds its fallback bot (handed in by the registry).
BotMaker = Callable[..., TrustMeBot]


def policy_fingerprint(game: str, table: Mapping[str, Any]) -> str:
    """The fingerprint of a policy: 16 hex digits of the SHA-256 of its game string and its table, written
    canonically (information states sorted, each row's ``(action, probability)`` pairs sorted by action).

    ``table`` maps information states to ``[[action, probability], ...]`` (as stored) or ``{action: probability}``
    (as :func:`load_policy` returns it); both give the same fingerprint. Two policies with equal fingerprints play
    identically, so the sweep keys its stored games by it.
    """
    rows = {
        key: sorted([int(a), float(p)] for a, p in (row.items() if isinstance(row, Mapping) else row))
        for key, row in table.items()
    }
    text = json.dumps({"game": game, "policy": rows}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_policy(path: str | Path) -> dict[str, Any]:
    """Read a stored ``policy.json`` (or the folder holding one): the dict with ``game``, ``policy`` and
    ``fingerprint`` keys (and ``made_by`` when the solve layer wrote it), the policy as
    ``{information state: {action: probability}}``.

    The fingerprint is computed from the contents; a file whose stored fingerprint differs (edited after it was
    written) is refused.
    """
    p = Path(path)
    if p.is_dir():
        p = p / POLICY
    if not p.is_file():
        raise FileNotFoundError(f"no stored policy at {str(p)!r}; run the solve first "
                                "(python -m trustme_analysis.solve SPEC.toml)")
    with open(p, encoding="utf-8") as fh:
        data = json.load(fh)
    if not isinstance(data, dict) or "game" not in data or "policy" not in data:
        raise ValueError(f"{str(p)!r} is not a stored policy (needs 'game' and 'policy' keys)")
    fingerprint = policy_fingerprint(data["game"], data["policy"])
    if data.get("fingerprint", fingerprint) != fingerprint:
        raise ValueError(f"the policy at {str(p)!r} was changed after it was stored: its contents have fingerprint "
                         f"{fingerprint}, the file says {data['fingerprint']}")
    data["fingerprint"] = fingerprint
    data["policy"] = {k: {int(a): float(q) for a, q in v} for k, v in data["policy"].items()}
    return data


# Loaded policies by (absolute path, modification time): workers of a sweep build many bots from one file.
_CACHE: dict[tuple[str, float], dict[str, Any]] = {}


def _load(path: str) -> dict[str, Any]:
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
        policy: path of the stored policy (``None`` for a ``solve`` the sweep has not resolved: the bot then refuses
            to play).
        fallback: the bot kind used at information states the policy does not list.
        make_fallback: builds the fallback bot (``make_bot`` of :mod:`trustme_analysis.players.registry`).
        solve: the ``[[solve]]`` section the policy comes from, when the spec named one.
        fingerprint: the fingerprint the stored policy must have (``None``: any).

    Attributes:
        misses: information states met that the policy does not list (each handled by the fallback).
    """

    kind = "policy"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, policy: str | None,
                 fallback: str = "random", make_fallback: BotMaker | None = None, *, solve: str | None = None,
                 fingerprint: str | None = None):
        super().__init__(player_id, rng)
        self.game = game
        self.path = policy
        self.solve = solve
        self.fingerprint = fingerprint
        self.fallback_kind = fallback
        if fallback != "random" and make_fallback is None:
            raise ValueError(f"fallback={fallback!r} needs make_fallback (the bot registry's make_bot)")
        self.fallback: TrustMeBot = (UniformRandomBot(player_id, rng) if fallback == "random"
                                     else make_fallback(game, fallback, player_id, rng))
        self._table: dict[str, dict[int, float]] | None = None
        self.misses = 0
        if policy is not None and os.path.exists(policy):
            self._policy_table()  # check the game at once when the file is already there

    def knobs(self) -> dict:
        """The knobs as a plain dict.

        For a named solve, ``policy`` is given inside the output folder (``OUTDIR/solve/<name>/policy.json``), so
        the stored records do not depend on where the output folder is; ``fingerprint`` says which policy it was.
        """
        out: dict[str, Any] = {"policy": self.path, "fallback": self.fallback_kind}
        if self.solve is not None:
            out = {"solve": self.solve, "policy": f"OUTDIR/{SOLVE}/{self.solve}/{POLICY}",
                   "fallback": self.fallback_kind}
        if self.fingerprint is not None:
            out["fingerprint"] = self.fingerprint
        return out

    def _policy_table(self) -> dict[str, dict[int, float]]:
        if self._table is None:
            if self.path is None:
                raise ValueError(f"policy bot knob solve={self.solve!r} names a [[solve]] section of a sweep spec; "
                                 f"only a sweep resolves it (to OUTDIR/{SOLVE}/{self.solve}/{POLICY}); outside a "
                                 "sweep give policy=PATH")
            data = _load(self.path)
            if data["game"] != str(self.game):
                raise ValueError(f"the policy at {self.path!r} was solved for {data['game']}, not for {self.game}; "
                                 "a policy bot plays only the variant it was solved for")
            if self.fingerprint is not None and data["fingerprint"] != self.fingerprint:
                raise ValueError(f"the policy at {self.path!r} has fingerprint {data['fingerprint']}, not "
                                 f"{self.fingerprint} as expected: it was replaced (solved again?) after the sweep "
                                 "started; run the sweep again")
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


def make_policy_bot(game: pyspiel.Game, player_id: int, rng: np.random.Generator, make_fallback: BotMaker,
                    **knobs: Any) -> PolicyBot:
    """The bot kind ``"policy"`` of every game (``make_fallback`` builds the fallback bot).

    With both ``solve`` and ``policy``, ``policy`` is the file the sweep resolved the named solve to.
    """
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the policy bot; valid knobs: {', '.join(KNOB_NAMES)}")
    solve = knobs.get("solve")
    path = knobs.get("policy")
    if solve is None and path is None:
        raise ValueError("the policy bot needs knob solve (the name of a [[solve]] section of the sweep's spec) or "
                         "policy (the path of a stored policy.json)")
    if solve is not None and (not isinstance(solve, str) or not solve):
        raise ValueError(f"policy bot knob solve={solve!r} is not allowed; allowed: the name of a [[solve]] section "
                         "of the sweep's spec")
    if path is not None and (not isinstance(path, str) or not path):
        raise ValueError(f"policy bot knob policy={path!r} is not allowed; allowed: the path of a stored policy.json "
                         "(OUTDIR/solve/<name>/policy.json)")
    fingerprint = knobs.get("fingerprint")
    if fingerprint is not None and (not isinstance(fingerprint, str) or not fingerprint):
        raise ValueError(f"policy bot knob fingerprint={fingerprint!r} is not allowed; allowed: the fingerprint of "
                         "a stored policy (its 'fingerprint' key)")
    fallback = knobs.get("fallback", "random")
    if not isinstance(fallback, str) or fallback == "policy":
        raise ValueError(f"policy bot knob fallback={fallback!r} is not allowed; allowed: 'random' or another bot "
                         "kind of the game")
    return PolicyBot(game, player_id, rng, path, fallback, make_fallback, solve=solve, fingerprint=fingerprint)
