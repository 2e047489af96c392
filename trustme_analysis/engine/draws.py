"""How a game draws its random numbers when its compiled kernel could play it: one protocol for both engine paths.

A line-up a game's kernel plays (uniform random and heuristic seats, fixed) gives the same records whether the
kernel or the pyspiel path plays it, because both draw from one :class:`GameStream` per game, in the order of play,
by the same three rules:

- **chance**: a node with one outcome draws nothing; otherwise one integer ``r`` below the total of the outcomes'
  whole-number weights (the state's ``chance_weights()``: a card by how many are left, a die face 1, a Liar split by
  its number of deals) picks the outcome whose block of weight holds it, the outcomes in the engine's order
  (:func:`pick_weighted`). Integers keep this exact, and let a kernel find the outcome without listing them (a Liar
  deal, seat by seat). A state without ``chance_weights`` (another pyspiel game) walks its probabilities with one
  uniform number (:func:`pick`);
- **a uniform random seat**: ``legal[below(len(legal))]`` (one :meth:`GameStream.below` draw, even for one legal
  action);
- **a seat that states its policy** (the heuristic bots): a policy with one action of positive probability draws
  nothing; otherwise one uniform number picks the action by :func:`walk` over the actions in ascending id order.

The pyspiel path follows the rules through :func:`trustme_analysis.players.play.sample_chance`,
:func:`trustme_analysis.players.base.sample_action` and ``UniformRandomBot``; each game's kernel implements them in
its compiled core (numba caches a function per file, so each kernel keeps its own copy of the generator), and
``tests/engine/test_draws.py`` checks every copy against this module draw by draw.

The generator is SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators", OOPSLA
2014), its state the game's seed; integers below ``n`` by D. Lemire's multiply-and-reject on the top 32 bits, or the
whole output from ``n = 2**32`` on ("Fast random integer generation in an interval", ACM TOMACS 29(1), 2019), so each
value is exactly equally likely; uniform
floats from the top 53 bits. The walk over a policy compares before it subtracts, as the kernels do.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_TWO53 = 1.0 / 9007199254740992.0


class GameStream:
    """One game's random numbers: SplitMix64 from ``seed``, drawn by chance and by every seat in play order.

    It offers the two :class:`numpy.random.Generator` methods the seats that follow the protocol call
    (:meth:`random`, :meth:`integers`), so a bot holds it in place of a generator, and remembers where it stood
    before each of its last :data:`KEEP` draws (:meth:`rewound`), for variants scored again from a finished game.

    Args:
        seed: the game's seed (an integer in ``[0, 2**64)``).
    """

    #: Draws remembered by :meth:`rewound`: more than any game's scoring makes.
    KEEP = 8

    def __init__(self, seed: int):
        if not 0 <= int(seed) <= _MASK64:
            raise ValueError(f"seed={seed!r} is not allowed; allowed: an integer from 0 to 2**64 - 1")
        self.state = int(seed)
        self._before: deque[int] = deque(maxlen=self.KEEP)

    def next_u64(self) -> int:
        """The next 64-bit output (advances the state once)."""
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, ``0 < n < 2**63``: one draw (one output, rarely more). Below ``2**32`` the
        top 32 bits of an output times ``n``; from there (a Liar deal of many copies) the whole output times ``n``."""
        if not 0 < n < (1 << 63):
            raise ValueError(f"n={n!r} is not allowed; allowed: 1 to 2**63 - 1")
        self._before.append(self.state)
        if n <= _MASK32:
            m = (self.next_u64() >> 32) * n
            low = m & _MASK32
            if low < n:
                floor = ((1 << 32) - n) % n
                while low < floor:
                    m = (self.next_u64() >> 32) * n
                    low = m & _MASK32
            return m >> 32
        m = self.next_u64() * n
        low = m & _MASK64
        if low < n:
            floor = ((1 << 64) - n) % n
            while low < floor:
                m = self.next_u64() * n
                low = m & _MASK64
        return m >> 64

    def random(self) -> float:
        """A uniform float in ``[0, 1)``: one draw (the top 53 bits of one output)."""
        self._before.append(self.state)
        return (self.next_u64() >> 11) * _TWO53

    def integers(self, low: int, high: int | None = None) -> int:
        """``Generator.integers`` for one integer: in ``[0, low)``, or ``[low, high)`` (by :meth:`below`)."""
        if high is None:
            low, high = 0, low
        return int(low) + self.below(int(high) - int(low))

    def rewound(self, draws: int) -> GameStream:
        """A new stream standing where this one stood ``draws`` draws ago (this one is untouched).

        Raises:
            ValueError: more draws back than are remembered.
        """
        if draws == 0:
            state = self.state
        elif 0 < draws <= len(self._before):
            state = self._before[-draws]
        else:
            raise ValueError(f"draws={draws!r} is not allowed; allowed: 0 to {len(self._before)} (the draws "
                             "remembered)")
        return GameStream(state)


def walk(probabilities: Iterable[float], u: float) -> int:
    """The index that the uniform number ``u`` picks from ``probabilities`` (in order): the first ``i`` with ``u <
    p_i`` after subtracting the ones before it; the last positive one if rounding leaves ``u`` past them all."""
    last = -1
    for i, p in enumerate(probabilities):
        if p > 0.0:
            last = i
            if u < p:
                return i
            u -= p
    if last < 0:
        raise ValueError("no outcome has a positive probability")
    return last


def pick(pairs: Sequence[tuple[int, float]], rng) -> int:
    """One of ``(item, probability)`` pairs by the protocol: with one positive entry, that one without a draw; else
    :func:`walk` with one ``rng.random()``. ``rng`` is a :class:`GameStream` or a :class:`numpy.random.Generator`."""
    positive = [item for item, p in pairs if p > 0.0]
    if len(positive) == 1:
        return positive[0]
    return pairs[walk([p for _, p in pairs], float(rng.random()))][0]


def pick_weighted(pairs: Sequence[tuple[int, int]], rng) -> int:
    """One of ``(item, whole-number weight)`` pairs by the protocol's chance rule: with one positive weight, that item
    without a draw; else ``r = rng.integers(total)`` and the item whose block of weight, in order, holds ``r``."""
    positive = [item for item, w in pairs if w > 0]
    if len(positive) == 1:
        return positive[0]
    r = int(rng.integers(sum(w for _, w in pairs)))
    for item, w in pairs:
        if r < w:
            return item
        r -= w
    raise ValueError("no outcome has a positive weight")
