"""Where every random number of a sweep comes from.

One master seed fans out with :class:`numpy.random.SeedSequence`, so the records never depend on which worker played
which chunk, or in what order:

- chunk ``c`` of variant ``v``: ``SeedSequence(master_seed, spawn_key=(v, c))``;
- the chunk's sequence yields one 63-bit integer per game: the game's own seed, stored in the ``game_seed`` column;
- a game's seed alone replays it: ``SeedSequence(game_seed).spawn(1 + players)`` gives the game's generator (chance
  outcomes and seats drawn from a pool) and one generator per seat's bot.
"""

from __future__ import annotations

import numpy as np

#: Bump when the derivation below changes: stored chunks made under another scheme are not resumed into.
SEEDING_SCHEME = 1

_SEED_MASK = (1 << 63) - 1  # game seeds fit a signed 64-bit Parquet column


def chunk_seed_sequence(master_seed: int, variant_index: int, chunk_index: int) -> np.random.SeedSequence:
    """The seed sequence of one chunk."""
    return np.random.SeedSequence(master_seed, spawn_key=(variant_index, chunk_index))


def game_seeds(master_seed: int, variant_index: int, chunk_index: int, count: int) -> list[int]:
    """The seeds of the ``count`` games of a chunk, in order."""
    words = chunk_seed_sequence(master_seed, variant_index, chunk_index).generate_state(count, dtype=np.uint64)
    return [int(w) & _SEED_MASK for w in words]


def game_generators(game_seed: int, num_players: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """The game's generator and one generator per seat, all derived from ``game_seed``."""
    children = np.random.SeedSequence(game_seed).spawn(1 + num_players)
    return np.random.default_rng(children[0]), [np.random.default_rng(c) for c in children[1:]]
