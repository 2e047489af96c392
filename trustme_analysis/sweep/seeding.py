"""Where every random number of a sweep comes from.

One master seed fans out with :class:`numpy.random.SeedSequence`, so the records never depend on which worker played
which chunk, or in what order:

- game ``i`` (counted within a variant, from 0) belongs to block ``i // 1024``: a PCG64 generator seeded with
  ``SeedSequence(master_seed, spawn_key=(i // 1024,))`` gives the block's 1024 raw 64-bit words, and word
  ``i % 1024`` (its low 63 bits) is the game's own seed, stored in the ``game_seed`` column (blocks of a fixed size,
  because hashing one seed sequence per game costs more than a compiled kernel's whole game);
- a game's seed alone replays it. A line-up the game's compiled kernel can play (uniform random and heuristic seats,
  fixed) draws chance and every seat from one :class:`~trustme_analysis.engine.draws.GameStream` seeded with the
  game's seed, by the draw protocol of :mod:`trustme_analysis.engine.draws`, on either engine path, so the kernel and
  the pyspiel path give the same records; any other line-up draws from ``SeedSequence(game_seed).spawn(1 +
  players)``: the game's generator (chance outcomes and seats drawn from a pool) and one generator per seat's bot.

The seed of game ``i`` depends on nothing but the master seed and ``i``: not on the variant, the chunk size or the
number of games. So every variant of a sweep plays the same game seeds (common random numbers: game ``i`` of every
variant starts from the same chance stream, and deals the same cards where the variants' decks allow it), the
variants' differences can be measured game by game (paired), and a sweep grown from 100 to 200 games plays the same
first 100 games.
"""

from __future__ import annotations

import numpy as np

#: Bump when the derivation below changes: stored chunks made under another scheme are not resumed into.
#: 1: seeds per (variant, chunk); 2: seeds per game index, the same in every variant; 3: line-ups a kernel can play
#: draw from the game's SplitMix64 stream by the draw protocol on both engine paths.
SEEDING_SCHEME = 3

_SEED_MASK = (1 << 63) - 1  # game seeds fit a signed 64-bit Parquet column


#: Games per seed block (fixed: part of the scheme).
SEED_BLOCK = 1024


def _block(master_seed: int, block: int) -> np.ndarray:
    bits = np.random.PCG64(np.random.SeedSequence(master_seed, spawn_key=(block,)))
    return bits.random_raw(SEED_BLOCK) & np.uint64(_SEED_MASK)


def game_seeds(master_seed: int, first_game: int, count: int) -> list[int]:
    """The seeds of games ``first_game`` to ``first_game + count - 1``, in order (a chunk's games)."""
    if first_game < 0 or count < 0:
        raise ValueError(f"first_game={first_game!r}, count={count!r} is not allowed; allowed: both >= 0")
    out: list[int] = []
    index, stop = first_game, first_game + count
    while index < stop:
        block, offset = divmod(index, SEED_BLOCK)
        take = min(SEED_BLOCK - offset, stop - index)
        out += _block(master_seed, block)[offset : offset + take].tolist()
        index += take
    return out


def game_seed(master_seed: int, game_index: int) -> int:
    """The seed of game ``game_index`` (of every variant) of a sweep with ``master_seed``."""
    return game_seeds(master_seed, game_index, 1)[0]


def game_generators(game_seed: int, num_players: int) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """The game's generator and one generator per seat, all derived from ``game_seed``.

    The game's generator is the first child of the seed's sequence whatever the number of players, so variants with
    different player counts still share game ``i``'s chance stream.
    """
    children = np.random.SeedSequence(game_seed).spawn(1 + num_players)
    return np.random.default_rng(children[0]), [np.random.default_rng(c) for c in children[1:]]


class ChanceStream:
    """A game's generator, handed to :func:`~trustme_analysis.players.play.play_game` in its place, that remembers
    where it stood before each of its last few draws.

    A variant re-scored from a finished game (:mod:`trustme_analysis.sweep.rescoring`) must draw its own scoring's
    chance outcomes (a tie-break Coin) from the stream as it stood when the scoring began, exactly as playing that
    variant from the same seed would; :meth:`rewound` gives that stream. Chance nodes draw with ``random()`` only
    (:func:`~trustme_analysis.players.play.sample_chance`), the one method offered here, so no draw goes unseen.
    (A :class:`~trustme_analysis.engine.draws.GameStream` remembers its own draws and needs no wrapper.)
    """

    #: Draws remembered: more than any game's scoring makes.
    KEEP = 8

    def __init__(self, rng: np.random.Generator):
        self._rng = rng
        self._before: list[dict] = []

    def random(self) -> float:
        """One uniform number in [0, 1), as ``Generator.random()``."""
        self._before.append(self._rng.bit_generator.state)
        if len(self._before) > self.KEEP:
            del self._before[0]
        return float(self._rng.random())

    def rewound(self, draws_after: int) -> np.random.Generator:
        """A new generator standing where this stream stood ``draws_after`` draws ago (the original is untouched), as
        :meth:`~trustme_analysis.engine.draws.GameStream.rewound`.

        Raises:
            ValueError: more draws back than are remembered.
        """
        if draws_after == 0:
            state = self._rng.bit_generator.state
        elif 0 < draws_after <= len(self._before):
            state = self._before[-draws_after]
        else:
            raise ValueError(f"draws_after={draws_after!r} is not allowed; allowed: 0 to {len(self._before)} (the "
                             "draws remembered)")
        bits = type(self._rng.bit_generator)()
        bits.state = state
        return np.random.Generator(bits)
