"""Monte Carlo CFR through the pyspiel API, for trees too large to compile (Lanctot et al. 2009).

On a tree that compiles, :class:`cfr.sampling.CompiledSamplingSolver` runs the same arithmetic with the same random
draws in compiled code, tens of times faster; this module is the reference it is tested against.

* External sampling: for each player ``i`` in turn, walk the tree sampling one chance outcome and one action of
  every other player, and try every action of ``i``; ``i``'s regrets get the sampled counterfactual regrets, and the
  other players' average strategies get their current strategy at the nodes visited (Lanctot et al., section 4.2).
* Outcome sampling: for each player ``i`` in turn, sample one trajectory, ``i`` exploring with probability
  ``exploration`` uniformly; regrets and average strategy of ``i`` are updated with importance weights (the
  sampled counterfactual value of the trajectory divided by the probability of sampling it).

Tables are keyed by ``information_state_string``; a state is stepped in place once it is no longer needed, so
Python games are cloned only where external sampling branches. Randomness comes from one
``numpy.random.Generator``; the same seed gives the same tables.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from cfr.gameload import load_game

METHODS = ("external", "outcome")


def _sample(rng: np.random.Generator, probs) -> int:
    u = rng.random()
    acc = 0.0
    last = len(probs) - 1
    for index, p in enumerate(probs):
        acc += p
        if u < acc:
            return index
    return last


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """``a @ b`` summed left to right, so that the compiled solver (:mod:`cfr.sampling`) rounds the same way (BLAS
    may sum in another order, and one different last bit can change a later sample)."""
    total = 0.0
    for x, y in zip(a.tolist(), b.tolist()):
        total += x * y
    return total


def _regret_matching(regret: np.ndarray) -> np.ndarray:
    pos = np.maximum(regret, 0.0)
    total = pos.sum()
    if total > 0:
        return pos / total
    return np.full(regret.shape[0], 1.0 / regret.shape[0])


class SamplingSolver:
    """External- or outcome-sampling MCCFR on any sequential pyspiel game.

    Args:
        game: a pyspiel game or game string.
        method: ``"external"`` or ``"outcome"``.
        rng: the random generator, or an integer seed for ``numpy.random.default_rng``.
        exploration: outcome sampling's exploration probability at the updating player's nodes.
    """

    def __init__(
        self,
        game: pyspiel.Game | str,
        method: str = "external",
        rng: np.random.Generator | int = 0,
        exploration: float = 0.6,
    ):
        if isinstance(game, str):
            game = load_game(game)
        if method not in METHODS:
            raise ValueError(f"method={method!r} is not allowed; allowed: {', '.join(METHODS)}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not 0 < exploration <= 1:
            raise ValueError(f"exploration={exploration!r} is not allowed; allowed: a number in (0, 1]")
        if game.get_type().dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            from cfr.compile import _TURN_BASED_HINT

            raise ValueError(f"{game}: only sequential (turn-based) games are supported; {_TURN_BASED_HINT}")
        if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
            rng = np.random.default_rng(int(rng))
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng={rng!r} is not allowed; allowed: a numpy.random.Generator or an integer seed")
        self.game = game
        self.method = method
        self.exploration = float(exploration)
        self.rng = rng
        self.iteration = 0
        self.seconds = 0.0
        self.num_players = game.num_players()
        self.regrets: dict[str, np.ndarray] = {}
        self.strategy_sum: dict[str, np.ndarray] = {}
        self.legal: dict[str, tuple[int, ...]] = {}

    # ---------------------------------------------------------------- tables
    def _lookup(self, key: str, state) -> tuple[tuple[int, ...], np.ndarray, np.ndarray]:
        actions = self.legal.get(key)
        if actions is None:
            actions = tuple(state.legal_actions())
            self.legal[key] = actions
            self.regrets[key] = np.zeros(len(actions))
            self.strategy_sum[key] = np.zeros(len(actions))
        return actions, self.regrets[key], self.strategy_sum[key]

    def average_policy(self) -> dict[str, list[tuple[int, float]]]:
        """The average strategy of every information set visited so far, as ``{key: [(action, prob), ...]}``
        (information sets never visited are absent; :func:`cfr.policy_io.from_dict` fills them uniformly)."""
        out = {}
        for key, actions in self.legal.items():
            weights = self.strategy_sum[key]
            total = weights.sum()
            probs = weights / total if total > 0 else np.full(len(actions), 1.0 / len(actions))
            out[key] = list(zip(actions, probs.tolist()))
        return out

    def current_policy(self) -> dict[str, list[tuple[int, float]]]:
        """The current (regret-matching) strategy of every visited information set."""
        return {key: list(zip(actions, _regret_matching(self.regrets[key]).tolist()))
                for key, actions in self.legal.items()}

    # ------------------------------------------------------------ iterations
    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more iterations (one traversal per player each)."""
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise ValueError(f"iterations={iterations!r} is not allowed; allowed: an integer >= 0")
        start = time.perf_counter()
        for _ in range(int(iterations)):
            for player in range(self.num_players):
                state = self.game.new_initial_state()
                if self.method == "external":
                    self._external(state, player)
                else:
                    self._outcome(state, player, 1.0, 1.0, 1.0)
            self.iteration += 1
        self.seconds += time.perf_counter() - start

    def _external(self, state, player: int) -> float:
        while True:
            if state.is_terminal():
                return state.player_return(player)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[_sample(self.rng, [p for _, p in outcomes])][0])
                continue
            current = state.current_player()
            actions, regret, strategy_sum = self._lookup(state.information_state_string(current), state)
            sigma = _regret_matching(regret)
            if current != player:
                # Other players: their average gets the current strategy wherever the walk passes (the walk reaches
                # them with probability proportional to their own reach, which makes the plain sum unbiased).
                strategy_sum += sigma
                state.apply_action(actions[_sample(self.rng, sigma)])
                continue
            values = np.array([self._external(state.child(a), player) for a in actions])
            value = _dot(sigma, values)
            regret += values - value
            return value

    def _outcome(self, state, player: int, my_reach: float, other_reach: float, sample_reach: float) -> float:
        if state.is_terminal():
            return state.player_return(player)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            index = _sample(self.rng, [p for _, p in outcomes])
            action, prob = outcomes[index]
            state.apply_action(action)
            return self._outcome(state, player, my_reach, other_reach * prob, sample_reach * prob)
        current = state.current_player()
        actions, regret, strategy_sum = self._lookup(state.information_state_string(current), state)
        sigma = _regret_matching(regret)
        if current == player:
            behaviour = self.exploration / len(actions) + (1.0 - self.exploration) * sigma
        else:
            behaviour = sigma
        index = _sample(self.rng, behaviour)
        state.apply_action(actions[index])
        if current == player:
            child = self._outcome(state, player, my_reach * sigma[index], other_reach,
                                  sample_reach * behaviour[index])
        else:
            child = self._outcome(state, player, my_reach, other_reach * sigma[index],
                                  sample_reach * behaviour[index])
        # Importance-weighted action values: only the sampled action has a (re-weighted) estimate.
        action_values = np.zeros(len(actions))
        action_values[index] = child / behaviour[index]
        value = float(sigma @ action_values)
        if current == player:
            regret += (action_values - value) * (other_reach / sample_reach)
            strategy_sum += sigma * (my_reach / sample_reach)
        return value

    # ------------------------------------------------------------ state I/O
    def get_state(self) -> dict:
        """Everything needed to continue exactly where this solver stands (used by :mod:`cfr.checkpoint`)."""
        return {
            "game": str(self.game),
            "method": self.method,
            "exploration": self.exploration,
            "iteration": self.iteration,
            "seconds": self.seconds,
            "regrets": self.regrets,
            "strategy_sum": self.strategy_sum,
            "legal": self.legal,
            "bit_generator": type(self.rng.bit_generator).__name__,
            "rng_state": self.rng.bit_generator.state,
        }

    @classmethod
    def from_state(cls, state: dict) -> SamplingSolver:
        """Rebuild a solver from :meth:`get_state`'s dict."""
        bit_generator = getattr(np.random, state["bit_generator"])()
        bit_generator.state = state["rng_state"]
        solver = cls(state["game"], state["method"], np.random.Generator(bit_generator), state["exploration"])
        solver.iteration = state["iteration"]
        solver.seconds = state["seconds"]
        solver.regrets = {k: v.copy() for k, v in state["regrets"].items()}
        solver.strategy_sum = {k: v.copy() for k, v in state["strategy_sum"].items()}
        solver.legal = dict(state["legal"])
        return solver
