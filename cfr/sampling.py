"""Monte Carlo CFR on a compiled tree, in compiled code (Lanctot, Waugh, Zinkevich & Bowling 2009).

The same two samplers as :class:`cfr.mccfr.SamplingSolver`, with the same arithmetic and the same order of random
draws, but walking the arrays of a :class:`~cfr.tree.CompiledGame` inside one numba call per ``iterate`` instead of
calling pyspiel for every step:

* External sampling: for each player ``i`` in turn, walk the tree sampling one chance outcome and one action of
  every other player, and try every action of ``i``; ``i``'s regrets get the sampled counterfactual regrets, and
  the other players' average strategies get their current strategy at the nodes visited (section 4.2 of the paper).
* Outcome sampling: for each player ``i`` in turn, sample one trajectory, ``i`` exploring with probability
  ``exploration`` uniformly; regrets and average strategy of ``i`` are updated with importance weights.

Randomness comes from one ``numpy.random.Generator``, which the compiled code draws from directly (numba supports
Generator arguments), so a seed fixes the run, the generator's state is what a checkpoint stores, and a run with the
same seed draws the same numbers as the pyspiel-API solver: the tests compare both step by step.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from cfr import passes
from cfr.tree import CompiledGame

METHODS = ("external", "outcome")


@numba.njit(cache=True)
def _sample(rng, probs, n):
    """Index drawn from the first ``n`` entries of ``probs`` (the same draw as :func:`cfr.mccfr._sample`)."""
    u = rng.random()
    acc = 0.0
    for k in range(n):
        acc += probs[k]
        if u < acc:
            return k
    return n - 1


@numba.njit(cache=True)
def _sample_chance(rng, chance_prob, first, n):
    u = rng.random()
    acc = 0.0
    for k in range(n):
        acc += chance_prob[first + k]
        if u < acc:
            return k
    return n - 1


@numba.njit(cache=True)
def _regret_matching(regrets, lo, n, out):
    """Positive regrets normalised, uniform when none is positive (as :func:`cfr.mccfr._regret_matching`)."""
    total = 0.0
    for k in range(n):
        r = regrets[lo + k]
        pos = max(0.0, r)
        out[k] = pos
        total += pos
    if total > 0.0:
        for k in range(n):
            out[k] = out[k] / total
    else:
        for k in range(n):
            out[k] = 1.0 / n


# The walks keep their own stack of frames (numba's cached recursive functions crashed when loaded from the cache).
# Frames are indexed by tree depth, and so are the scratch rows (current strategy, child values) of the node at that
# depth: a node's rows stay untouched while its subtree is walked.


@numba.njit(cache=True)
def _external(traverser, num_players, child_start, child_count, player, infoset, chance_prob, utility_index,
              utilities, slot_start, regrets, strategy_sum, rng, sigma_rows, value_rows, frame_node, frame_depth,
              frame_next):
    top = 0  # frames in use: decisions of the traverser whose children are being walked
    node = 0
    depth = 0
    while True:
        # Down: follow sampled chance outcomes and other players' actions to a terminal or a traverser decision.
        while True:
            c = child_count[node]
            if c == 0:
                ret = utilities[utility_index[node], traverser]
                break
            first = child_start[node]
            pl = player[node]
            if pl == num_players:
                node = first + _sample_chance(rng, chance_prob, first, c)
                depth += 1
                continue
            lo = slot_start[infoset[node]]
            sigma = sigma_rows[depth]
            _regret_matching(regrets, lo, c, sigma)
            if pl != traverser:
                # Other players: their average gets the current strategy wherever the walk passes (the walk reaches
                # them with probability proportional to their own reach, which makes the plain sum unbiased).
                for k in range(c):
                    strategy_sum[lo + k] += sigma[k]
                node = first + _sample(rng, sigma, c)
                depth += 1
                continue
            frame_node[top] = node
            frame_depth[top] = depth
            frame_next[top] = 0
            top += 1
            node = first
            depth += 1
        # Up: hand the value to the innermost open decision; walk its next child or close it.
        while True:
            if top == 0:
                return ret
            f = top - 1
            d = frame_depth[f]
            parent = frame_node[f]
            values = value_rows[d]
            k = frame_next[f]
            values[k] = ret
            c = child_count[parent]
            if k + 1 < c:
                frame_next[f] = k + 1
                node = child_start[parent] + k + 1
                depth = d + 1
                break
            sigma = sigma_rows[d]
            lo = slot_start[infoset[parent]]
            value = 0.0
            for j in range(c):
                value += sigma[j] * values[j]
            for j in range(c):
                regrets[lo + j] += values[j] - value
            top -= 1
            ret = value


@numba.njit(cache=True)
def _outcome(traverser, num_players, child_start, child_count, player, infoset, chance_prob, utility_index,
             utilities, slot_start, regrets, strategy_sum, rng, sigma_rows, value_rows, exploration, frame_node,
             frame_depth, frame_next, frame_reach):
    node = 0
    depth = 0
    top = 0
    my_reach = 1.0
    other_reach = 1.0
    sample_reach = 1.0
    # Down: one sampled trajectory, the traverser exploring; remember each decision's reaches before its action.
    while True:
        c = child_count[node]
        if c == 0:
            break
        first = child_start[node]
        pl = player[node]
        if pl == num_players:
            k = _sample_chance(rng, chance_prob, first, c)
            prob = chance_prob[first + k]
            other_reach *= prob
            sample_reach *= prob
            node = first + k
            depth += 1
            continue
        sigma = sigma_rows[depth]
        _regret_matching(regrets, slot_start[infoset[node]], c, sigma)
        behaviour = value_rows[depth]
        mine = pl == traverser
        for j in range(c):
            behaviour[j] = exploration / c + (1.0 - exploration) * sigma[j] if mine else sigma[j]
        k = _sample(rng, behaviour, c)
        frame_node[top] = node
        frame_depth[top] = depth
        frame_next[top] = k
        frame_reach[top, 0] = my_reach
        frame_reach[top, 1] = other_reach
        frame_reach[top, 2] = sample_reach
        top += 1
        if mine:
            my_reach *= sigma[k]
        else:
            other_reach *= sigma[k]
        sample_reach *= behaviour[k]
        node = first + k
        depth += 1
    value = utilities[utility_index[node], traverser]
    # Up: importance-weighted action values; only the sampled action has a (re-weighted) estimate.
    for f in range(top - 1, -1, -1):
        d = frame_depth[f]
        k = frame_next[f]
        parent = frame_node[f]
        c = child_count[parent]
        sigma = sigma_rows[d]
        behaviour = value_rows[d]
        sampled = value / behaviour[k]
        value = sigma[k] * sampled
        if player[parent] == traverser:
            lo = slot_start[infoset[parent]]
            w = frame_reach[f, 1] / frame_reach[f, 2]
            for j in range(c):
                regrets[lo + j] += ((sampled if j == k else 0.0) - value) * w
            w = frame_reach[f, 0] / frame_reach[f, 2]
            for j in range(c):
                strategy_sum[lo + j] += sigma[j] * w
    return value


@numba.njit(cache=True)
def _run(iterations, method, exploration, num_players, child_start, child_count, player, infoset, chance_prob,
         utility_index, utilities, slot_start, regrets, strategy_sum, rng, sigma_rows, value_rows):
    rows = sigma_rows.shape[0]
    frame_node = np.empty(rows, dtype=np.int64)
    frame_depth = np.empty(rows, dtype=np.int64)
    frame_next = np.empty(rows, dtype=np.int64)
    frame_reach = np.empty((rows, 3), dtype=np.float64)
    for _ in range(iterations):
        for p in range(num_players):
            if method == 0:
                _external(p, num_players, child_start, child_count, player, infoset, chance_prob, utility_index,
                          utilities, slot_start, regrets, strategy_sum, rng, sigma_rows, value_rows, frame_node,
                          frame_depth, frame_next)
            else:
                _outcome(p, num_players, child_start, child_count, player, infoset, chance_prob, utility_index,
                         utilities, slot_start, regrets, strategy_sum, rng, sigma_rows, value_rows, exploration,
                         frame_node, frame_depth, frame_next, frame_reach)


class CompiledSamplingSolver:
    """External- or outcome-sampling MCCFR over a :class:`~cfr.tree.CompiledGame`, in compiled code.

    Regrets and average-strategy sums are slot arrays, like :class:`cfr.TreeSolver`'s, so the policies plug straight
    into :mod:`cfr.evaluate`. ``cfr.solve(..., algorithm="es-mccfr")`` uses this solver whenever the tree compiles.

    Args:
        compiled: the compiled tree.
        method: ``"external"`` or ``"outcome"``.
        rng: the random generator, or an integer seed for ``numpy.random.default_rng``.
        exploration: outcome sampling's exploration probability at the updating player's nodes.

    Example:
        >>> import cfr
        >>> solver = cfr.CompiledSamplingSolver(cfr.compile_game("kuhn_poker"), "external", rng=1)
        >>> solver.iterate(2000)
        >>> bool(cfr.exploitability(solver.compiled, solver.average_policy()) < 0.05)
        True
    """

    def __init__(
        self,
        compiled: CompiledGame,
        method: str = "external",
        rng: np.random.Generator | int = 0,
        exploration: float = 0.6,
    ):
        if not isinstance(compiled, CompiledGame):
            raise ValueError(f"compiled={compiled!r} is not allowed; allowed: a CompiledGame (cfr.compile_game)")
        if method not in METHODS:
            raise ValueError(f"method={method!r} is not allowed; allowed: {', '.join(METHODS)}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or not 0 < exploration <= 1:
            raise ValueError(f"exploration={exploration!r} is not allowed; allowed: a number in (0, 1]")
        if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
            rng = np.random.default_rng(int(rng))
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng={rng!r} is not allowed; allowed: a numpy.random.Generator or an integer seed")
        self.compiled = compiled
        self.game = compiled.game
        self.method = method
        self.exploration = float(exploration)
        self.rng = rng
        self.iteration = 0
        self.seconds = 0.0
        self.num_players = compiled.num_players
        self.regrets = np.zeros(compiled.num_slots, dtype=np.float64)
        self.strategy_sum = np.zeros(compiled.num_slots, dtype=np.float64)
        width = int(np.diff(compiled.infoset_slot_start).max(initial=1))
        # One row per tree depth of scratch space (current strategy, child values) for the walk's frames.
        self._rows = (np.zeros((compiled.max_depth + 2, width)), np.zeros((compiled.max_depth + 2, width)))

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more iterations (one traversal per player each)."""
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise ValueError(f"iterations={iterations!r} is not allowed; allowed: an integer >= 0")
        start = time.perf_counter()
        cg = self.compiled
        _run(int(iterations), METHODS.index(self.method), self.exploration, cg.num_players, cg.child_start,
             cg.child_count, cg.player, cg.infoset, cg.chance_prob, cg.utility_index, cg.utilities,
             cg.infoset_slot_start, self.regrets, self.strategy_sum, self.rng, self._rows[0], self._rows[1])
        self.iteration += int(iterations)
        self.seconds += time.perf_counter() - start

    def average_policy(self) -> np.ndarray:
        """The average strategy as a slot array (uniform at information sets never updated)."""
        return passes.normalise(self.compiled, self.strategy_sum)

    def current_policy(self) -> np.ndarray:
        """The current (regret-matching) strategy as a slot array."""
        cg = self.compiled
        out = np.empty(cg.num_slots, dtype=np.float64)
        for p in range(cg.num_players):
            lo, hi = cg.player_slots[p], cg.player_slots[p + 1]
            out[lo:hi] = passes.regret_matching(cg, self.regrets[lo:hi], p)
        return out

    # ------------------------------------------------------------ state I/O
    def state_arrays(self) -> dict[str, np.ndarray]:
        """The tables and counters (what a checkpoint stores besides the generator state)."""
        return {
            "iteration": np.asarray(self.iteration, dtype=np.int64),
            "regrets": self.regrets,
            "strategy_sum": self.strategy_sum,
            "seconds": np.asarray(self.seconds, dtype=np.float64),
        }

    def load_state_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """Restore what :meth:`state_arrays` returned (shapes must match the compiled tree)."""
        for key in ("regrets", "strategy_sum"):
            value = np.asarray(arrays[key], dtype=np.float64)
            if value.shape != (self.compiled.num_slots,):
                raise ValueError(
                    f"checkpoint field {key} has shape {value.shape}; allowed: ({self.compiled.num_slots},) for "
                    f"{self.compiled.game}"
                )
            setattr(self, key, value.copy())
        self.iteration = int(arrays["iteration"])
        self.seconds = float(arrays["seconds"])
