"""The action encoding of ``trustme_liar``: calls, passes, burns and plays of cards with an announced value.

Suits play no part in the rules (a challenge only asks whether each card *has the announced value*), so a hand is a
count of cards per value and a play is a *multiset of values*: ``(2, 2, 9)`` is "two 2s and a 9". Values are numbered
``1..values`` in everything a person reads (action strings, snapshots, helper arguments) and ``0..values-1`` inside the
engine.

Action ids:

- ``0`` :data:`LIAR` -- call "menteur" on the last play;
- ``1`` :data:`PASS` -- play nothing;
- ``2`` :data:`BURN` -- (last player, after all the others passed) burn the face-down pile and start a new round;
- ``3 + index * values + announced`` -- play the multiset ``multisets[index]`` and announce value ``announced``
  (0-based). The multisets of 1 to ``max_play`` cards, each value at most ``copies`` times, are listed once per game,
  by size and then lexicographically.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

LIAR = 0
PASS = 1
BURN = 2
FIRST_PLAY = 3

Counts = tuple[int, ...]


def all_multisets(values: int, copies: int, max_play: int) -> tuple[tuple[int, ...], ...]:
    """Every sorted tuple of 1..``max_play`` values in ``0..values-1`` using no value more than ``copies`` times."""
    out = []
    for size in range(1, max_play + 1):
        for combo in itertools.combinations_with_replacement(range(values), size):
            if max(combo.count(v) for v in set(combo)) <= copies:
                out.append(combo)
    return tuple(out)


def sub_multisets(hand: Counts, max_play: int) -> list[tuple[int, ...]]:
    """The sorted tuples of 1..``max_play`` values that ``hand`` (counts per value) can play."""
    out: list[tuple[int, ...]] = []
    held = [v for v, n in enumerate(hand) if n]

    def extend(prefix: tuple[int, ...], start: int) -> None:
        for i in range(start, len(held)):
            v = held[i]
            # Take the same value again only while the hand still has another copy of it.
            if prefix.count(v) >= hand[v]:
                continue
            grown = prefix + (v,)
            out.append(grown)
            if len(grown) < max_play:
                extend(grown, i)

    extend((), 0)
    return out


def to_counts(cards: Sequence[int], values: int) -> Counts:
    """A multiset of 0-based values as counts per value."""
    counts = [0] * values
    for v in cards:
        counts[v] += 1
    return tuple(counts)


def counts_to_cards(counts: Sequence[int]) -> list[int]:
    """Counts per value as the sorted list of 0-based values."""
    return [v for v, n in enumerate(counts) for _ in range(n)]


def labels(cards: Sequence[int]) -> str:
    """0-based values as the 1-based labels people read, e.g. ``(0, 0, 4)`` -> ``"1,1,5"``."""
    return ",".join(str(v + 1) for v in cards)


class PlayTable:
    """The play actions of one variant: every multiset of 1..``max_play`` values, numbered once, with the numpy table
    that lists a hand's legal plays in one comparison. Shared by every state of a game (never copied by a clone).

    Args:
        values, copies, max_play: the variant's deck and largest play (:class:`~trustme_analysis.games.liar.engine.rules.Rules`).
    """

    def __init__(self, values: int, copies: int, max_play: int):
        self.values = values
        self.copies = copies
        self.max_play = max_play
        self.multisets = all_multisets(values, copies, max_play)
        self.multiset_index = {m: i for i, m in enumerate(self.multisets)}
        # Counts per value of each multiset: a hand can play a multiset when it holds every count (one numpy test).
        self.multiset_counts = np.array(
            [to_counts(m, values) for m in self.multisets], dtype=np.int16
        ).reshape(len(self.multisets), values)

    def __deepcopy__(self, memo: dict) -> PlayTable:
        return self

    @property
    def num_actions(self) -> int:
        """Distinct action ids: liar, pass, burn and every (multiset, announced value)."""
        return FIRST_PLAY + len(self.multisets) * self.values

    def playable(self, hand: Sequence[int]) -> np.ndarray:
        """Indices (ascending) of the multisets ``hand`` (counts per value) can play."""
        return np.flatnonzero((self.multiset_counts <= np.asarray(hand, dtype=np.int16)).all(axis=1))

    def play_actions(self, hand: Sequence[int], announced: Sequence[int] | np.ndarray) -> list[int]:
        """The play actions (ascending) of ``hand`` with each announced value in ``announced`` (ascending)."""
        index = self.playable(hand)
        ids = FIRST_PLAY + index[:, None] * self.values + np.asarray(announced, dtype=np.int64)[None, :]
        return ids.ravel().tolist()

    def play_action(self, cards: Sequence[int], announced: int) -> int:
        """The action id of playing 0-based ``cards`` and announcing 0-based ``announced``."""
        index = self.multiset_index.get(tuple(sorted(cards)))
        if index is None or not 0 <= announced < self.values:
            raise ValueError(
                f"not a play: cards {[v + 1 for v in cards]} announced as {announced + 1}; a play is 1 to "
                f"{self.max_play} cards of values 1..{self.values} (each at most {self.copies} times) and a value "
                f"1..{self.values}"
            )
        return FIRST_PLAY + index * self.values + announced

    def decode_play(self, action: int) -> tuple[tuple[int, ...], int]:
        """``(cards, announced)``, 0-based, of a play action."""
        index, announced = divmod(action - FIRST_PLAY, self.values)
        return self.multisets[index], announced
