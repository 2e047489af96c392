"""The common shape of every player in this library.

A bot is a :class:`pyspiel.Bot` (so OpenSpiel's ``evaluate_bots`` and friends can drive it) that draws all of its
randomness from one :class:`numpy.random.Generator` handed to it, never from global state, so a sweep that seeds the
generator replays the same game exactly. From plain Python, call :meth:`TrustMeBot.choose` (or ``step``) with a state.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from trustme_analysis.engine.draws import GameStream, pick


class TrustMeBot(pyspiel.Bot):
    """Base class: subclasses implement :meth:`choose`; ``step`` is the pyspiel entry point.

    Args:
        player_id: the seat this bot plays.
        rng: the generator every random choice of the bot is drawn from.
    """

    #: Short name used in sweep specs and records (e.g. ``"random"``, ``"heuristic"``).
    kind: str = "bot"
    #: The game's scoring-only rule parameters (its registry entry's ``scoring_only``) this bot's decisions use;
    #: ``None``: it may use any (the safe default). A comparison of variants that differ only in parameters no
    #: bot of the line-up reads compares the same play, scored differently.
    reads: tuple[str, ...] | None = None

    def __init__(self, player_id: int, rng: np.random.Generator):
        pyspiel.Bot.__init__(self)
        self.player_id = int(player_id)
        self.rng = rng

    def choose(self, state: pyspiel.State) -> int:
        """The action this bot takes in ``state`` (where it is this bot's turn to act).

        By default a draw from :meth:`action_probabilities`, so a bot that states its mixed strategy plays exactly
        the strategy that is measured (exploitability, best responses); bots without one override this.
        """
        return sample_action(self.action_probabilities(state), self.rng)

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The probability with which this bot takes each legal action in ``state`` (its own turn).

        Bots that can state their mixed strategy exactly implement this (and then draw ``choose`` from it), so a best
        response against them can be computed exactly; the default says the bot cannot.
        """
        raise NotImplementedError(f"bot {self.kind!r} does not state its action probabilities")

    def step(self, state: pyspiel.State) -> int:  # pyspiel.Bot API
        return int(self.choose(state))

    def restart_at(self, state: pyspiel.State) -> None:  # pyspiel.Bot API; bots here keep no per-game memory
        pass

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:  # pyspiel.Bot API
        pass

    def knobs(self) -> dict:
        """The bot's tunable settings as a plain dict (recorded with sweep results)."""
        return {}


def sample_action(probs: dict[int, float], rng: np.random.Generator | GameStream) -> int:
    """One action drawn from ``{action: probability}`` by the draw protocol (:mod:`trustme_analysis.engine.draws`):
    a sure action draws nothing; otherwise one uniform number walks the actions in ascending id order, as every
    game's compiled kernel draws its heuristic seats' actions."""
    return int(pick(sorted(probs.items()), rng))


class UniformRandomBot(TrustMeBot):
    """Picks uniformly among the legal actions; works for every game."""

    kind = "random"
    reads = ()

    def choose(self, state: pyspiel.State) -> int:
        legal = state.legal_actions(self.player_id)
        return int(legal[self.rng.integers(len(legal))])

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        legal = state.legal_actions(self.player_id)
        return {int(a): 1.0 / len(legal) for a in legal}
