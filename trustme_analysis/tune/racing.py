"""Racing: more games only for candidates that may still be the best.

A candidate is looked at after the games of each rung (``first_rung``, ``x reduction``, ..., ``games_per_candidate``).
At each look before the last, the ``interval`` rule stops it when the games so far already show that it cannot win
(Maron and Moore's Hoeffding races, 1994; Birattari et al.'s F-Race, 2002, with intervals in place of their tests):

- it misses a constraint with confidence (the whole 95% interval of the constraint's figure lies outside the limit),
  or
- a finished candidate that meets the constraints is better on every objective with confidence: for each objective,
  the 95% interval of the difference in loss (this candidate's minus the finished one's), built from the two losses'
  own intervals (MOVER, :func:`~trustme_analysis.tune.measures.mover`), lies above 0.

The intervals are the results set's; both candidates played the same game seeds, whose positive correlation the
difference's interval ignores, so a stop is a conservative call. A figure without an interval never stops a
candidate. ``halving`` instead asks Optuna's successive-halving pruner (keep the best ``1/reduction`` at each rung,
by estimate alone).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trustme_analysis.tune.measures import Constraint, Figure, Objective, mover


@dataclass(frozen=True)
class Look:
    """A candidate's figures after some games: per objective its loss, per constraint its violation."""

    games: int
    figures: Mapping[str, Figure]
    losses: tuple[Figure, ...]
    violations: tuple[Figure, ...]
    trial: int | None = None

    @property
    def feasible(self) -> bool:
        """Every constraint met by its estimate."""
        return all(v.value <= 0 for v in self.violations)

    @property
    def surely_infeasible(self) -> bool:
        """Some constraint missed with confidence (its whole interval lies outside the limit)."""
        return any(v.low > 0 for v in self.violations)

    def as_attr(self) -> dict[str, Any]:
        """As stored with the trial (JSON)."""
        return {
            "games": self.games,
            "figures": {k: list(f[:3]) for k, f in self.figures.items()},
            "losses": [list(f[:3]) for f in self.losses],
            "violations": [list(f[:3]) for f in self.violations],
        }

    @classmethod
    def from_attr(cls, data: Mapping[str, Any], trial: int | None = None) -> Look:
        """A look stored by :meth:`as_attr`."""
        return cls(
            games=int(data["games"]),
            figures={k: Figure(*v) for k, v in data["figures"].items()},
            losses=tuple(Figure(*v) for v in data["losses"]),
            violations=tuple(Figure(*v) for v in data["violations"]),
            trial=trial,
        )


def look(games: int, figures: Mapping[str, Figure], objectives: Sequence[Objective],
         constraints: Sequence[Constraint], trial: int | None = None) -> Look:
    """The losses and violations of a candidate's figures."""
    return Look(
        games=games,
        figures=dict(figures),
        losses=tuple(o.loss(figures[o.name]) for o in objectives),
        violations=tuple(c.violation(figures[c.name]) for c in constraints),
        trial=trial,
    )


def surely_better(a: Look, b: Look) -> bool:
    """``a`` beats ``b`` on every objective with confidence (the interval of each difference in loss, ``b``'s minus
    ``a``'s, lies above 0)."""
    # NaN ends (no interval) compare False: a figure without an interval never decides.
    return bool(a.losses) and all(mover(*y[:3], *x[:3])[1] > 0 for x, y in zip(a.losses, b.losses))


def stop_reason(candidate: Look, finished: Iterable[Look]) -> str | None:
    """Why the race stops ``candidate`` now, or ``None`` to play its next rung (the ``interval`` rule)."""
    for c, v in enumerate(candidate.violations):
        if v.low > 0:
            return f"misses constraint {c} with confidence after {candidate.games} games"
    for other in finished:
        if other.feasible and surely_better(other, candidate):
            who = f"trial {other.trial}" if other.trial is not None else "a finished candidate"
            return f"{who} is better on every objective with confidence after {candidate.games} games"
    return None


def pareto_front(points: Sequence[Sequence[float]]) -> list[bool]:
    """Which of ``points`` (losses, lower is better) no other point dominates.

    >>> pareto_front([[1, 2], [2, 1], [2, 2], [1, 2]])
    [True, True, False, True]
    """
    flags = []
    for i, p in enumerate(points):
        dominated = any(
            all(q[k] <= p[k] for k in range(len(p))) and any(q[k] < p[k] for k in range(len(p)))
            for j, q in enumerate(points) if j != i
        )
        flags.append(not dominated)
    return flags
