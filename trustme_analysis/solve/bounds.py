"""A lower bound on a policy's exploitability (or NashConv) when its tree is too large to compile.

Exact evaluation needs a best response for every player, which needs the whole tree. Without it, any strategy ``t``
of player ``i`` still bounds the best response from below: ``u_i(t, s_-i) <= max_t' u_i(t', s_-i)``. So
:func:`lower_bound` *searches* for a good response of each player against the fixed profile ``s`` and measures it
by playing games:

1. Search: external-sampling regret minimisation for player ``i`` alone (Lanctot, Waugh, Zinkevich & Bowling 2009,
   *Monte Carlo sampling for regret minimization in extensive games*, NIPS), chance and the other players sampled
   from ``s``. Against fixed opponents an action's cumulative regret is its summed sampled value less that of the
   current strategy, so the action of largest cumulative regret tends to the best action as the search runs. The
   response ``t_i`` plays that action wherever the search visited the information state, and ``s_i`` elsewhere.
2. Measure: ``games`` games of ``t_i`` against ``s_-i`` with fresh draws give an unbiased estimate of
   ``u_i(t_i, s_-i)`` and its standard error; in a general-sum game, ``games`` games of ``s`` itself estimate
   ``sum_i u_i(s)`` (in a zero- or constant-sum game it is the declared constant).

For two-player constant-sum games the estimate is ``(u_0(t_0, s_1) + u_1(s_0, t_1) - utility sum) / 2`` (the
exploitability as :func:`cfr.exploitability` defines it); otherwise ``sum_i u_i(t_i, s_-i) - u_i(s)`` (NashConv). The
true value is at least the expected estimate; the one-sided 95% figure ``max(0, estimate - 1.645 * standard error)``
is what the pages call the lower bound. It is a *bound from below*: a small figure does not show that the policy is
close to an equilibrium, only a large one shows that it is not.

The policy is a table ``{information state: [(action, probability), ...]}`` (the stored ``policy.json`` form);
information states it does not list are played uniformly, as the policy bot's default ``random`` fallback does.
Everything goes through the pyspiel API and one seed fixes the result.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np
import pyspiel

#: z of the one-sided 95% lower bound.
Z_ONE_SIDED_95 = 1.645

PolicyTable = Mapping[str, Sequence[tuple[int, float]]]


@dataclass(frozen=True)
class SeatBound:
    """One player's part of the bound.

    Attributes:
        player: the responding seat.
        search_iterations: iterations of the search (one sampled walk each).
        search_seconds: wall seconds of the search.
        infosets: information states of the player the search visited.
        response_value: estimated value of the found response against the others' policy.
        response_se: its standard error.
        policy_value: estimated value of the policy itself for this player (general-sum games only, else NaN).
        policy_se: its standard error.
    """

    player: int
    search_iterations: int
    search_seconds: float
    infosets: int
    response_value: float
    response_se: float
    policy_value: float
    policy_se: float


@dataclass(frozen=True)
class LowerBound:
    """A lower bound on ``metric`` (``"exploitability"`` or ``"nash_conv"``) of a policy, from best-response search.

    Attributes:
        metric: what is bounded.
        estimate: unbiased estimate of the searched responses' total gain (the true metric is at least its mean).
        standard_error: of ``estimate``.
        games: games played per measured profile.
        seats: each player's search and measurement.
    """

    metric: str
    estimate: float
    standard_error: float
    games: int
    seats: tuple[SeatBound, ...]

    @property
    def bound(self) -> float:
        """The one-sided 95% lower bound ``max(0, estimate - 1.645 * standard_error)`` (the metric is never negative, so
        0 means the search found no evidence of exploitability at this number of games)."""
        return max(0.0, self.estimate - Z_ONE_SIDED_95 * self.standard_error)

    def as_dict(self) -> dict:
        """Plain data for ``result.json``."""
        return {
            "metric": self.metric,
            "estimate": self.estimate,
            "standard_error": self.standard_error,
            "bound_95": self.bound,
            "games": self.games,
            "seats": [asdict(s) for s in self.seats],
        }


def metric_for(game: pyspiel.Game) -> str:
    """``"exploitability"`` for two-player zero- or constant-sum games (as declared), ``"nash_conv"`` otherwise."""
    kinds = (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
    return "exploitability" if game.num_players() == 2 and game.get_type().utility in kinds else "nash_conv"


def _sample(rng: np.random.Generator, probs) -> int:
    u = rng.random()
    acc = 0.0
    for k, p in enumerate(probs):
        acc += p
        if u < acc:
            return k
    return len(probs) - 1


def _policy_row(policy: PolicyTable, key: str, state: pyspiel.State) -> tuple[list[int], list[float]]:
    row = policy.get(key)
    if row is None:
        actions = state.legal_actions()
        return actions, [1.0 / len(actions)] * len(actions)
    return [int(a) for a, _ in row], [float(p) for _, p in row]


def _regret_matching(regret: np.ndarray) -> np.ndarray:
    pos = np.maximum(regret, 0.0)
    total = pos.sum()
    return pos / total if total > 0 else np.full(regret.shape[0], 1.0 / regret.shape[0])


class _Search:
    """External-sampling regret minimisation of one player against a fixed profile."""

    def __init__(self, game: pyspiel.Game, policy: PolicyTable, player: int, rng: np.random.Generator):
        self.game, self.policy, self.player, self.rng = game, policy, player, rng
        self.regrets: dict[str, np.ndarray] = {}
        self.legal: dict[str, list[int]] = {}

    def iterate(self) -> None:
        self._walk(self.game.new_initial_state())

    def _walk(self, state: pyspiel.State) -> float:
        while True:
            if state.is_terminal():
                return state.player_return(self.player)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[_sample(self.rng, [p for _, p in outcomes])][0])
                continue
            cur = state.current_player()
            key = state.information_state_string(cur)
            if cur != self.player:
                actions, probs = _policy_row(self.policy, key, state)
                state.apply_action(actions[_sample(self.rng, probs)])
                continue
            actions = self.legal.get(key)
            if actions is None:
                actions = self.legal[key] = state.legal_actions()
                self.regrets[key] = np.zeros(len(actions))
            regret = self.regrets[key]
            sigma = _regret_matching(regret)
            values = np.array([self._walk(state.child(a)) for a in actions])
            value = float(sigma @ values)
            regret += values - value
            return value

    def response(self) -> dict[str, list[tuple[int, float]]]:
        """The action of largest cumulative regret at every visited information state (probability 1)."""
        out = {}
        for key, actions in self.legal.items():
            probs = [0.0] * len(actions)
            probs[int(np.argmax(self.regrets[key]))] = 1.0
            out[key] = list(zip(actions, probs))
        return out


def play_games(game: pyspiel.Game, tables: Sequence[PolicyTable], games: int,
               rng: np.random.Generator) -> np.ndarray:
    """Returns of ``games`` games (one row per game), seat ``p`` playing ``tables[p]`` (uniform where a table does
    not list the information state)."""
    returns = np.empty((games, game.num_players()))
    for g in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[_sample(rng, [p for _, p in outcomes])][0])
                continue
            cur = state.current_player()
            actions, probs = _policy_row(tables[cur], state.information_state_string(cur), state)
            state.apply_action(actions[_sample(rng, probs)])
        returns[g] = state.returns()
    return returns


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))


def lower_bound(
    game: pyspiel.Game,
    policy: PolicyTable,
    *,
    search_iterations: int,
    games: int,
    seed: int = 0,
) -> LowerBound:
    """Lower-bound the exploitability (two-player constant-sum) or NashConv of ``policy`` by best-response search.

    Args:
        game: the game (any sequential pyspiel game with explicit chance).
        policy: ``{information state: [(action, probability), ...]}``; unlisted states are played uniformly.
        search_iterations: sampled walks of each player's search.
        games: games played to measure each searched response (and the policy itself, for NashConv).
        seed: seed of every draw (search and measurement use separate streams).
    """
    if search_iterations < 1 or games < 2:
        raise ValueError(f"search_iterations={search_iterations!r}, games={games!r}; allowed: >= 1 and >= 2")
    metric = metric_for(game)
    n = game.num_players()
    constant = game.get_type().utility in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM)
    own = None
    if not constant:
        # General-sum: the policy's own values are estimated too (from one set of games, so their sum's error is
        # that of the per-game sums).
        own = play_games(game, [policy] * n, games, np.random.default_rng([seed, 1]))
    seats = []
    for p in range(n):
        search = _Search(game, policy, p, np.random.default_rng([seed, 2, p]))
        start = time.perf_counter()
        for _ in range(search_iterations):
            search.iterate()
        seconds = time.perf_counter() - start
        response = dict(policy)
        response.update(search.response())
        tables = [policy] * n
        tables[p] = response
        value, se = _mean_se(play_games(game, tables, games, np.random.default_rng([seed, 3, p]))[:, p])
        own_value, own_se = _mean_se(own[:, p]) if own is not None else (float("nan"), float("nan"))
        seats.append(SeatBound(player=p, search_iterations=search_iterations, search_seconds=seconds,
                               infosets=len(search.legal), response_value=value, response_se=se,
                               policy_value=own_value, policy_se=own_se))
    gains = sum(s.response_value for s in seats)
    variance = sum(s.response_se ** 2 for s in seats)
    if constant:
        # The policy's values sum to the constant: NashConv = sum of best-response values - the constant, and the
        # exploitability (two players) is that over the number of players.
        estimate = gains - float(game.utility_sum())
    else:
        mean, se = _mean_se(own.sum(axis=1))
        estimate = gains - mean
        variance += se ** 2
    scale = n if metric == "exploitability" else 1
    return LowerBound(metric=metric, estimate=float(estimate / scale), standard_error=float(np.sqrt(variance) / scale),
                      games=games, seats=tuple(seats))
