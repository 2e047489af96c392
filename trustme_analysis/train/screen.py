"""A probe screen's bookkeeping, shared by the games' trainers (their ``screen_probes``): one challenger seat
rotating through the table against trained seats, each rotation its own block of seeds, a win counted where the
challenger's return is the best (ties count for every tied seat)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np


def rotating_screen(names: Sequence[str], players: int, games: int, seed: int, trained: int,
                    code_of: Callable[[str], int | None],
                    play: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> dict[str, float]:
    """Each name's win rate over ``games`` games (split as evenly as the rotations allow) in one seat of ``players``,
    the others of seat kind ``trained``; ``code_of(name)`` is the name's seat kind in the game's kernel (``None``:
    left out), ``play(kinds, seeds)`` plays one game per seed and returns their returns (games x players). Rotation
    ``r`` plays the seeds ``seed + r * games`` on, the same for every name (common random numbers)."""
    out = {}
    for name in names:
        code = code_of(name)
        if code is None:
            continue
        wins = 0
        for rot in range(players):
            kinds = np.full(players, trained, np.int64)
            kinds[rot] = code
            m = games // players + (1 if rot < games % players else 0)
            seeds = np.arange(seed + rot * games, seed + rot * games + m, dtype=np.uint64)
            rets = play(kinds, seeds)
            wins += int((rets[:, rot] == rets.max(axis=1)).sum())
        out[name] = wins / games
    return out
