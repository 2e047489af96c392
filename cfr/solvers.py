"""Full-tree CFR solvers over a compiled game: CFR, CFR+, Linear CFR, Discounted CFR and Predictive CFR+.

All five share one iteration: compute the current strategy by regret matching, compute every node's counterfactual
reach and value for the updating player and sum each slot's counterfactual regret (one compiled pass down and one up,
see :mod:`cfr.passes` and :mod:`cfr.kernels`), and add the reach-weighted sequence-form strategy to the average. They differ in how regrets are accumulated and how iterations are weighted in the average:

=============  ==========================================  ==============================  ============
algorithm      regrets                                     average weight of step t        updates
=============  ==========================================  ==============================  ============
``cfr``        sum (Zinkevich et al. 2007)                 1                               simultaneous
``cfr+``       sum, floored at 0 (Tammelin 2014)           t                               alternating
``linear``     sum, both signs scaled by t/(t+1)           t                               alternating
``dcfr``       positive x t^a/(t^a+1), negative x          t^gamma                         alternating
               t^b/(t^b+1) (Brown & Sandholm 2019)
``pcfr+``      CFR+ regrets; strategy from                 t^2 (``averaging_exponent``)    alternating
               [R + last instantaneous regret]^+
               (Farina, Kroer & Sandholm 2021)
=============  ==========================================  ==============================  ============

Zinkevich et al. describe simultaneous updates; Tammelin's CFR+ and the experiments of the Linear/Discounted CFR and
Predictive CFR+ papers use alternating updates (player 0 updates, then player 1 sees player 0's new strategy, ...).
``alternating=`` overrides the default. With alternating updates CFR+ here performs exactly the arithmetic of
OpenSpiel's ``CFRPlusSolver`` (its tests compare the two to 1e-12).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from cfr import kernels, passes
from cfr.tree import CompiledGame

#: Algorithm names accepted by :class:`TreeSolver` (and ``cfr.solve``), with their default update scheme.
ALGORITHMS: dict[str, bool] = {
    "cfr": False,
    "cfr+": True,
    "linear": True,
    "dcfr": True,
    "pcfr+": True,
}
#: Other spellings accepted for the names above.
ALIASES = {"cfrplus": "cfr+", "linear-cfr": "linear", "lcfr": "linear", "pcfrplus": "pcfr+", "vanilla": "cfr"}


def canonical_algorithm(name: str) -> str:
    """The canonical name of a full-tree algorithm; raises ``ValueError`` naming the allowed values."""
    key = str(name).lower()
    key = ALIASES.get(key, key)
    if key not in ALGORITHMS:
        allowed = ", ".join(list(ALGORITHMS) + sorted(ALIASES))
        raise ValueError(f"algorithm={name!r} is not allowed; allowed: {allowed}")
    return key


@dataclass
class SolverConfig:
    """Parameters of a full-tree solver (stored in checkpoints).

    Attributes:
        algorithm: one of :data:`ALGORITHMS`.
        alternating: alternating (True) or simultaneous (False) updates.
        alpha, beta, gamma: Discounted CFR parameters (used by ``dcfr`` only); defaults 1.5, 0, 2 as in the paper.
        averaging_exponent: PCFR+ averages iteration t with weight t**averaging_exponent.
    """

    algorithm: str = "cfr+"
    alternating: bool = True
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    averaging_exponent: float = 2.0


class TreeSolver:
    """A CFR-family solver over a :class:`~cfr.compile.CompiledGame`.

    Args:
        compiled: the compiled tree.
        algorithm: ``"cfr"``, ``"cfr+"``, ``"linear"``, ``"dcfr"`` or ``"pcfr+"`` (see the module docstring).
        alternating: override the algorithm's default update scheme.
        alpha: DCFR positive-regret discount exponent.
        beta: DCFR negative-regret discount exponent.
        gamma: DCFR average-strategy exponent.
        averaging_exponent: PCFR+ average-strategy exponent.

    Example:
        >>> from cfr import compile_game, TreeSolver
        >>> solver = TreeSolver(compile_game("kuhn_poker"), "cfr+")
        >>> solver.iterate(200)
        >>> round(float(solver.average_policy().sum()), 6)  # one distribution per information set
        12.0
    """

    def __init__(
        self,
        compiled: CompiledGame,
        algorithm: str = "cfr+",
        alternating: bool | None = None,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        averaging_exponent: float = 2.0,
    ):
        name = canonical_algorithm(algorithm)
        for label, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma), ("averaging_exponent",
                                                                                    averaging_exponent)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
                raise ValueError(f"{label}={value!r} is not allowed; allowed: a finite number")
        self.compiled = compiled
        self.config = SolverConfig(
            algorithm=name,
            alternating=ALGORITHMS[name] if alternating is None else bool(alternating),
            alpha=float(alpha),
            beta=float(beta),
            gamma=float(gamma),
            averaging_exponent=float(averaging_exponent),
        )
        s = compiled.num_slots
        self.iteration = 0
        self.regrets = np.zeros(s, dtype=np.float64)
        self.strategy_sum = np.zeros(s, dtype=np.float64)
        #: PCFR+ prediction: the last instantaneous regret of every slot (empty for the other algorithms, which do
        #: not read it; checkpoints store zeros for them, as before).
        self.prediction = np.zeros(s if name == "pcfr+" else 0, dtype=np.float64)
        self.seconds = 0.0
        # Cache of the current strategy (rebuilt from the regrets when missing, e.g. after loading a checkpoint).
        self._policy: np.ndarray | None = None
        # Two float64 work arrays per history (counterfactual reach, values), allocated on the first iteration.
        # Between the passes they are free, and a history-sized array holds every slot-sized temporary of an
        # iteration (there are fewer slots than histories), so the peak stays at these two plus the slot tables.
        self._work: tuple[np.ndarray, np.ndarray] | None = None

    # ------------------------------------------------------------- policies
    def _player_strategy(self, player: int, out: np.ndarray, scratch: np.ndarray | None) -> None:
        """Write ``player``'s current strategy into ``out`` (its slots); ``scratch`` is a free work array or None."""
        lo, hi = self.compiled.player_slots[player], self.compiled.player_slots[player + 1]
        base = self.regrets[lo:hi]
        if self.config.algorithm == "pcfr+":
            if scratch is None:
                base = base + self.prediction[lo:hi]
            else:
                base = np.add(base, self.prediction[lo:hi], out=scratch[lo:hi])
        passes.regret_matching(self.compiled, base, player, out=out, scratch=scratch)

    def current_policy(self) -> np.ndarray:
        """The strategy the next iteration will play, as a slot array (see :mod:`cfr.compile`)."""
        cg = self.compiled
        out = np.empty(cg.num_slots, dtype=np.float64)
        scratch = self._work[1] if self._work is not None else None
        for p in range(cg.num_players):
            self._player_strategy(p, out[cg.player_slots[p] : cg.player_slots[p + 1]], scratch)
        return out

    def average_policy(self) -> np.ndarray:
        """The average strategy (what converges to equilibrium in two-player zero-sum games), as a slot array."""
        return passes.normalise(self.compiled, self.strategy_sum)

    # ------------------------------------------------------------ iterations
    def _average_weight(self, t: int) -> float:
        algo = self.config.algorithm
        if algo == "cfr":
            return 1.0
        if algo in ("cfr+", "linear"):
            return float(t)
        if algo == "dcfr":
            return float(t) ** self.config.gamma
        return float(t) ** self.config.averaging_exponent

    def _update_regrets(self, player: int, inst: np.ndarray, t: int) -> None:
        cg = self.compiled
        lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
        reg = self.regrets[lo:hi]
        reg += inst
        algo = self.config.algorithm
        if algo in ("cfr+", "pcfr+"):
            np.maximum(reg, 0.0, out=reg)
            if algo == "pcfr+":
                self.prediction[lo:hi] = inst
        elif algo == "linear":
            reg *= t / (t + 1.0)
        elif algo == "dcfr":
            ta = float(t) ** self.config.alpha
            tb = float(t) ** self.config.beta
            kernels.scale_by_sign(reg, ta / (ta + 1.0), tb / (tb + 1.0))

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` more iterations."""
        if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 0:
            raise ValueError(f"iterations={iterations!r} is not allowed; allowed: an integer >= 0")
        start = time.perf_counter()
        cg = self.compiled
        players = range(cg.num_players)
        if self._work is None:
            self._work = (np.empty(cg.num_nodes, dtype=np.float64), np.empty(cg.num_nodes, dtype=np.float64))
        # The strategy carries over between iterations; only the updated player's part changes. The passes read
        # edge probabilities straight from it, so no per-history array besides the two work arrays is kept.
        if self._policy is None:
            self._policy = self.current_policy()
        policy = self._policy
        # The sequence-form strategy and the regret-matching temporaries live in the work arrays (free between
        # passes): the sequence form in the reach array, the positive regrets in the value array.
        seq = self._work[0][: cg.num_slots]
        scratch = self._work[1]

        def refresh(p: int) -> None:
            self._player_strategy(p, policy[cg.player_slots[p] : cg.player_slots[p + 1]], scratch)

        def accumulate(p: int, weight: float) -> None:
            lo, hi = cg.player_slots[p], cg.player_slots[p + 1]
            passes.own_reach(cg, policy, p, out=seq)
            part = seq[lo:hi]
            np.multiply(part, weight, out=part)
            self.strategy_sum[lo:hi] += part

        for _ in range(int(iterations)):
            t = self.iteration + 1
            weight = self._average_weight(t)
            if self.config.alternating:
                for p in players:
                    inst = self._player_regret(policy, p)
                    accumulate(p, weight)
                    self._update_regrets(p, inst, t)
                    refresh(p)
            else:
                insts = [self._player_regret(policy, p) for p in players]
                for p in players:
                    accumulate(p, weight)
                    self._update_regrets(p, insts[p], t)
                for p in players:
                    refresh(p)
            self.iteration = t
        self.seconds += time.perf_counter() - start

    def _player_regret(self, policy: np.ndarray, player: int) -> np.ndarray:
        reach, val = self._work
        return passes.player_regret(self.compiled, policy, player, reach, val)

    # ------------------------------------------------------------ state I/O
    def state_arrays(self) -> dict[str, np.ndarray]:
        """Everything that determines future iterations, as arrays (what a checkpoint stores)."""
        return {
            "iteration": np.asarray(self.iteration, dtype=np.int64),
            "regrets": self.regrets,
            "strategy_sum": self.strategy_sum,
            "prediction": self.prediction if self.prediction.size else np.zeros(self.compiled.num_slots),
            "seconds": np.asarray(self.seconds, dtype=np.float64),
        }

    def load_state_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """Restore what :meth:`state_arrays` returned (shapes must match the compiled tree)."""
        for key in ("regrets", "strategy_sum", "prediction"):
            value = np.asarray(arrays[key], dtype=np.float64)
            if value.shape != (self.compiled.num_slots,):
                raise ValueError(
                    f"checkpoint field {key} has shape {value.shape}; allowed: ({self.compiled.num_slots},) for "
                    f"{self.compiled.game}"
                )
            if key == "prediction" and self.config.algorithm != "pcfr+":
                continue  # read by PCFR+ only
            setattr(self, key, value.copy())
        self._policy = None
        self.iteration = int(arrays["iteration"])
        self.seconds = float(arrays["seconds"])
