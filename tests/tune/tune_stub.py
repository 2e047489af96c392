"""A stubbed evaluator for the tuning tests: candidates' figures come from a known function of the rules plus game
noise, so the best rule set is planted and known, and games cost no time.

Game ``k`` of every candidate draws the same noise (common random numbers) plus a small noise of its own; a figure
after ``n`` games is the mean over those games with its t interval, as a results set's per-game mean would be.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from trustme_analysis.stats.intervals import mean_t
from trustme_analysis.tune.evaluate import Candidate, InvalidRules
from trustme_analysis.tune.measures import Figure


class StubEvaluator:
    """Plays nothing: figure ``name`` of a candidate after ``n`` games is ``truth[name](rules)`` plus noise."""

    def __init__(self, truth: Mapping[str, Callable[[Mapping[str, Any]], float]], seed: int = 0, noise: float = 1.0,
                 own_noise: float = 0.3, invalid: Callable[[Mapping[str, Any]], bool] | None = None,
                 max_games: int = 10_000):
        self.truth = dict(truth)
        self.noise = noise
        self.own_noise = own_noise
        self.invalid = invalid
        self.seed = seed
        rng = np.random.default_rng(seed)
        # The common part of each game's noise, one column per figure.
        self.common = rng.standard_normal((max_games, len(self.truth)))
        self.stored: dict[str, int] = {}
        self.played_log: list[tuple[str, int, int]] = []

    def prepare(self, rules: Mapping[str, Any]) -> Candidate:
        if self.invalid is not None and self.invalid(rules):
            raise InvalidRules(f"stub rejects {dict(rules)}")
        cid = "c-" + json.dumps(dict(rules), sort_keys=True, default=str)
        cand = Candidate(dict(rules), cid, Path("/nonexistent") / cid)
        cand.games_stored = self.stored.get(cid, 0)
        return cand

    def play_to(self, cand: Candidate, games: int) -> int:
        have = self.stored.get(cand.id, 0)
        played = max(0, games - have)
        if played:
            self.played_log.append((cand.id, have, games))
        self.stored[cand.id] = max(have, games)
        cand.games_stored = self.stored[cand.id]
        return played

    def figures(self, cand: Candidate) -> dict[str, Figure]:
        n = cand.games_stored
        own = np.random.default_rng([self.seed, zlib.crc32(cand.id.encode())]).standard_normal((n, len(self.truth)))
        out = {}
        for j, (name, f) in enumerate(self.truth.items()):
            values = f(cand.rules) + self.noise * self.common[:n, j] + self.own_noise * own[:, j]
            iv = mean_t(values)
            out[name] = Figure(iv.estimate, iv.low, iv.high, n)
        return out

    def games_spent(self, exclude: Collection[str] = ()) -> int:
        return sum(n for cid, n in self.stored.items() if cid not in exclude)
