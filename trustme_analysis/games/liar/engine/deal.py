"""Set-up of ``trustme_liar``: the whole deck dealt, then every player's pairs discarded face up.

The deal is modelled one *value* at a time: a chance node decides how the ``copies`` cards of that value split
between the seats. With each seat's hand size fixed (:meth:`~trustme_analysis.games.liar.engine.rules.Rules.hand_sizes`), the split ``(k_0, ..., k_n)``
has the multivariate hypergeometric probability ``prod_s C(room_s, k_s) / C(room, copies)``, where ``room_s`` is the
number of cards seat ``s`` has still to receive. This gives exactly the distribution of shuffling and dealing card by
card, in ``values`` chance nodes instead of one per card.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from math import comb


def splits(copies: int, players: int) -> tuple[tuple[int, ...], ...]:
    """Every way to share ``copies`` cards of one value between ``players`` seats (the chance outcomes)."""
    return tuple(
        split
        for split in itertools.product(range(copies + 1), repeat=players)
        if sum(split) == copies
    )


def split_weights(
    all_splits: Sequence[tuple[int, ...]], room: Sequence[int]
) -> list[tuple[int, int]]:
    """``(index into all_splits, deals)`` for the splits possible when seat ``s`` has ``room[s]`` cards to get: the
    number of card orders giving each, ``prod_s C(room_s, k_s)``; they add up to ``C(sum(room), copies)``."""
    out = []
    for index, split in enumerate(all_splits):
        ways = 1
        for k, r in zip(split, room):
            ways *= comb(r, k)
            if not ways:
                break
        if ways:
            out.append((index, ways))
    return out


def split_outcomes(
    all_splits: Sequence[tuple[int, ...]], room: Sequence[int], copies: int
) -> list[tuple[int, float]]:
    """``(index into all_splits, probability)`` for the splits possible when seat ``s`` has ``room[s]`` cards to get."""
    total = comb(sum(room), copies)
    return [(index, ways / total) for index, ways in split_weights(all_splits, room)]


def discard_pairs(count: int) -> tuple[int, int]:
    """``(kept, discarded)`` for ``count`` cards of one value: pairs go (2 -> both, 3 -> one stays, 4 -> all go)."""
    kept = count % 2
    return kept, count - kept


class DealTable:
    """The deal's chance outcomes of one variant (every way to share one value's copies between the seats), shared by
    every state of a game (never copied by a clone)."""

    def __init__(self, copies: int, players: int):
        self.copies = copies
        self.splits = splits(copies, players)

    def __deepcopy__(self, memo: dict) -> DealTable:
        return self

    def weights(self, room: Sequence[int]) -> list[tuple[int, int]]:
        """``(split index, deals)`` of the next value's deal when seat ``s`` has ``room[s]`` cards to get."""
        return split_weights(self.splits, room)

    def outcomes(self, room: Sequence[int]) -> list[tuple[int, float]]:
        """``(split index, probability)`` of the next value's deal when seat ``s`` has ``room[s]`` cards to get."""
        return split_outcomes(self.splits, room, self.copies)
