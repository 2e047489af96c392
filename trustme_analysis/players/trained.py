"""A bot that plays a trained policy (:mod:`trustme_analysis.train`): kind ``"trained"`` for games with a trainer.

Knobs:

- ``iterations`` (default 400,000) or ``seconds``: the training budget; ``seed`` (default 0) its seed; ``detail``
  (default 0) the level of the game's abstraction; ``epsilon``: the traverser's exploration. Together with the game
  variant they name the stored policy (``OUTDIR/train/<fingerprint>/``);
- ``outdir``: where policies are stored (default ``reports/out/trained``); a missing policy is trained there on the
  bot's first decision (progress is quiet), a stored one is reused, a stale one trained again.

The bot states its mixed strategy (:meth:`TrainedBot.action_probabilities`), so a best response against it is exact
where the tree compiles (:mod:`trustme_analysis.solve`), and draws its actions from it with its generator only:
the same generator gives the same game. :func:`tabular_policy` exports the policy as an OpenSpiel ``TabularPolicy``
for a variant whose tree compiles.

A game gets this kind by registering :func:`make_trained_bot` (its ``bots`` module) and giving its registry entry a
``trained`` kernel part whose trainer also implements ``bot_context(game)``, ``action_probabilities(ctx, table, state,
player, detail) -> (probs, known)`` and ``tree_policy(cg, table, states=None, detail=0)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.train import TrainedPolicy, TrainSettings, game_settings, train, trainer_for

KNOB_NAMES = ("iterations", "seconds", "seed", "detail", "epsilon", "baseline", "shaping", "warm_start", "prior",
              "population", "opponents", "outdir")
#: Where policies are stored when no ``outdir`` knob is given.
DEFAULT_OUTDIR = "reports/out/trained"

# Contexts and tables by (game string, policy folder): many bots of a sweep share one policy.
_CONTEXTS: dict[str, Any] = {}


def settings_from(knobs: dict[str, Any], game: pyspiel.Game | str) -> TrainSettings:
    """The training settings a ``trained`` bot's knobs name for ``game`` (knobs not given take the game's trainer's
    defaults, :func:`trustme_analysis.train.game_settings`; unknown knobs fail with the valid ones)."""
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the trained bot; valid knobs: {', '.join(KNOB_NAMES)}")
    kw = {k: knobs[k] for k in KNOB_NAMES if k in knobs and k != "outdir"}
    if "seconds" in kw and "iterations" not in kw:
        kw["iterations"] = None
    return game_settings(game, **kw)


class TrainedBot(TrustMeBot):
    """Plays the stored trained policy of its game variant; see the module docstring.

    Attributes:
        misses: decisions at positions the training never met (each game's trainer plays the default
            heuristic's row there).
    """

    kind = "trained"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, settings: TrainSettings,
                 outdir: str = DEFAULT_OUTDIR):
        super().__init__(player_id, rng)
        self.game = game
        self.settings = settings
        self.outdir = str(outdir)
        self.trainer = trainer_for(game)
        self._policy: TrainedPolicy | None = None
        self.misses = 0

    @property
    def policy(self) -> TrainedPolicy:
        """The stored policy (trained on first use when missing or stale)."""
        if self._policy is None:
            self._policy = train(self.game, self.settings, self.outdir)
        return self._policy

    def _context(self) -> tuple[Any, tuple[np.ndarray, np.ndarray]]:
        key = f"{self.game}|{self.policy.folder}"
        if key not in _CONTEXTS:
            _CONTEXTS[key] = (self.trainer.bot_context(self.game), self.policy.lookup())
        return _CONTEXTS[key]

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The trained policy's distribution at ``state`` (where the training never met the position, the default
        heuristic's, as each game's trainer plays an unseen row)."""
        ctx, table = self._context()
        probs, known = self.trainer.action_probabilities(ctx, table, state, self.player_id, self.settings.detail)
        if not known:
            self.misses += 1
        return probs

    def knobs(self) -> dict:
        """The settings and the stored policy's fingerprint."""
        out = {k: v for k, v in self.settings.inputs().items() if v is not None}
        out["outdir"] = self.outdir
        if self._policy is not None:
            out["fingerprint"] = self._policy.fingerprint
        return out


def make_trained_bot(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any) -> TrainedBot:
    """The bot kind ``"trained"`` (a game registers it for itself with ``register_bot``)."""
    outdir = knobs.get("outdir", DEFAULT_OUTDIR)
    if not isinstance(outdir, str) or not outdir:
        raise ValueError(f"trained bot knob outdir={outdir!r} is not allowed; allowed: a folder path")
    return TrainedBot(game, player_id, rng, settings_from(knobs, game), outdir)


def tabular_policy(game: pyspiel.Game, settings: TrainSettings, outdir: str, compiled: Any | None = None):
    """The trained policy as an OpenSpiel ``TabularPolicy`` (every seat playing it), for a variant whose tree
    compiles (``compiled``: its :class:`cfr.CompiledGame`, compiled here when not given)."""
    import cfr
    from cfr.policy_io import to_tabular_policy

    cg = compiled if compiled is not None else cfr.compile_game(game)
    trainer = trainer_for(game)
    stored = train(game, settings, outdir)
    return to_tabular_policy(cg, trainer.tree_policy(cg, stored.lookup(), detail=settings.detail))
