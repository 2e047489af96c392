"""What a game's ``rescore`` registry part returns: a finished game scored again under a variant that differs only in
scoring-only rules (see :mod:`trustme_analysis.registry` and :mod:`trustme_analysis.sweep.rescoring`). It lives with
the shared engine helpers because rescoring is the engine's own work (Final Scoring is a rule)."""

from __future__ import annotations

from typing import Any, NamedTuple


class Rescored(NamedTuple):
    """A finished game at the moment its final scoring begins, under the variant's rules."""

    #: A state of the variant's game at the moment its final scoring begins.
    state: Any
    #: Chance outcomes the finished game drew after that moment (its own scoring's draws, e.g. a tie-break Coin).
    chance_after: int = 0
