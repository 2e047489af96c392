"""Regret and average-strategy tables for Monte Carlo CFR, as numba functions over numpy arrays.

One open-addressing hash table (linear probing) holds every *slot*: a pair (abstract information key, action).
Keying by the pair instead of by the information key alone lets the legal actions of one abstract key vary from
visit to visit (an abstraction that caps a count merges positions whose legal actions differ): each visit reads the
slots of the actions legal there and ignores the others.

Arrays (created by :class:`Tables`):

- ``keys`` (int64, a power of two long): the slot's 64-bit key (:func:`slot_key`), :data:`EMPTY` where free;
- ``regret`` (float64): cumulative (discounted) counterfactual regret of the slot;
- ``avg`` (float64): cumulative (weighted) average-strategy mass of the slot;
- ``used`` (int64, one entry): slots in use;
- ``base`` and ``visits`` (float64, optional: games whose traversal uses a baseline): the slot's baseline, the
  running mean of the traverser's sampled value after that move (VR-MCCFR, Schmid, Burch, Lanctot, Moravcik, Kadlec
  and Bowling, "Variance Reduction in Monte Carlo Counterfactual Regret Minimization", AAAI 2019), and how many
  samples it averages.

Regret matching (Hart and Mas-Colell 2000; its use in CFR: Zinkevich et al. 2007) turns a key's regrets into the
current strategy; the average strategy is the normalised ``avg``. Discounting (DCFR, Brown and Sandholm,
"Solving Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019) scales positive regrets by
``t^a / (t^a + 1)``, negative ones by ``t^b / (t^b + 1)`` and the average mass by ``(t / (t + 1))^g`` once per epoch
``t`` (as Pluribus applied linear weighting once per fixed stretch of training; Brown and Sandholm, Science 2019).

A game's traversal (e.g. :mod:`trustme_analysis.games.pinocchio.kernel.training`) calls these functions from its own
compiled loop; they are inlined there, so that module must tie its numba cache to this file's source
(:func:`cfr.numba_cache.tie_cache_to_sources`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.engine.compiled_draws import below, uniform01

compiled = njit(cache=True)
inlined = njit(cache=True, inline="always")

#: The key of a free slot (no :func:`slot_key` returns it).
EMPTY = np.int64(-(2**63))
#: Below this fill ratio a table is used; above it :meth:`Tables.ensure_room` doubles it first.
MAX_LOAD = 0.6
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@inlined
def mix64(x):
    """SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014) of a uint64: a bijection that spreads every input
    bit over the output."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@inlined
def combine(h, value):
    """Fold one integer ``value`` into the running uint64 hash ``h`` (order matters)."""
    return mix64(h ^ (np.uint64(value) + _GOLDEN + (h << np.uint64(6)) + (h >> np.uint64(2))))


@inlined
def slot_key(info_key, action):
    """The table key of (abstract information key, action); never :data:`EMPTY`."""
    k = np.int64(mix64(np.uint64(info_key) * np.uint64(0x100000001B3) ^ mix64(np.uint64(action) + _GOLDEN)))
    return np.int64(1) if k == EMPTY else k


@inlined
def find(keys, key):
    """Index of ``key`` in ``keys``, or -1."""
    mask = keys.shape[0] - 1
    i = np.int64(np.uint64(key) & np.uint64(mask))
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == EMPTY:
            return np.int64(-1)
        i = (i + 1) & mask


@inlined
def insert(keys, used, key):
    """Index of ``key`` in ``keys``, added if absent (the caller keeps the table below full: :meth:`Tables.
    ensure_room`)."""
    mask = keys.shape[0] - 1
    i = np.int64(np.uint64(key) & np.uint64(mask))
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == EMPTY:
            keys[i] = key
            used[0] += 1
            return i
        i = (i + 1) & mask


@inlined
def regret_matching(regret, idx, n, out):
    """The current strategy over ``n`` slots ``idx`` into ``out``: positive regrets normalised, uniform if none."""
    total = 0.0
    for j in range(n):
        r = regret[idx[j]]
        if r > 0.0:
            total += r
    if total > 0.0:
        for j in range(n):
            r = regret[idx[j]]
            out[j] = r / total if r > 0.0 else 0.0
    else:
        for j in range(n):
            out[j] = 1.0 / n


@inlined
def average_row(keys, avg, row, m, out):
    """The average strategy over the ``m`` slot keys ``row`` into ``out`` (uniform where the table holds no mass for
    them); returns whether the table knew the row (any mass found)."""
    total = 0.0
    for j in range(m):
        i = find(keys, row[j])
        v = avg[i] if i >= 0 else 0.0
        out[j] = v
        total += v
    if total > 0.0:
        for j in range(m):
            out[j] /= total
        return True
    for j in range(m):
        out[j] = 1.0 / m
    return False



@inlined
def known_row(keys, avg, row, m, probs):
    """The stored average strategy over the ``m`` slot keys ``row`` into ``probs``, which holds the row's prior (the
    game's default heuristic's row) on entry and keeps it, normalised, where the table never saw the row; returns
    whether it did. Every game's trained seats play an unseen row as the heuristic plays it, not uniformly."""
    # The table's mass is summed first, so that the prior stays in probs until the table is known to hold the row
    # (no copy of it per decision); average_row then reads the slots again, from the cache, and divides by the same
    # sum.
    mass = 0.0
    for j in range(m):
        i = find(keys, row[j])
        if i >= 0:
            mass += avg[i]
    known = mass > 0.0
    if known:
        average_row(keys, avg, row, m, probs)
    else:
        total = 0.0
        for j in range(m):
            total += probs[j]
        for j in range(m):
            probs[j] = probs[j] / total if total > 0.0 else 1.0 / m
    return known


@inlined
def draw_entry(probs, m, rng):
    """The row entry a trained seat plays: one of ``probs[:m]`` drawn by its probability with one uniform number,
    none drawn when one entry holds all the mass (the last positive entry when rounding runs past the sum)."""
    u = m - 1
    positive = 0
    for j in range(m):
        if probs[j] > 0.0:
            positive += 1
            u = j
    if positive > 1:
        x = uniform01(rng)
        for j in range(m):
            if probs[j] > 0.0:
                if x < probs[j]:
                    return j
                x -= probs[j]
    return u


@inlined
def concrete(which, na, u, rng):
    """One of the legal moves ``0 .. na - 1`` whose row entry is ``u``, uniformly (moves described alike are one
    move to the trained player; no draw when one move has the entry): the trained seat's move, and the training's
    ``play``, in a game whose rows describe its legal moves."""
    c = 0
    for j in range(na):
        if which[j] == u:
            c += 1
    k = below(rng, c) if c > 1 else 0
    for j in range(na):
        if which[j] == u:
            if k == 0:
                return j
            k -= 1
    return 0


@borrowing()
def discount(keys, regret, avg, positive, negative, average):
    """Scale every used slot's regret (by ``positive`` where > 0, ``negative`` where < 0) and average mass."""
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            r = regret[i]
            regret[i] = r * positive if r > 0.0 else r * negative
            avg[i] *= average


@compiled
def rehash(keys, values, new_keys, new_values):
    """Copy every used slot of ``keys``/``values`` (values: 2-d, one row per slot) into the empty larger table."""
    used = np.zeros(1, np.int64)
    for i in range(keys.shape[0]):
        k = keys[i]
        if k != EMPTY:
            j = insert(new_keys, used, k)
            for c in range(values.shape[1]):
                new_values[j, c] = values[i, c]
    return used[0]


@compiled
def seed_slots(keys, used, regret, avg, slot_keys, mass):
    """Add slots ``slot_keys`` with ``mass`` as both their regret and their average mass (a warm start)."""
    for j in range(slot_keys.shape[0]):
        i = insert(keys, used, slot_keys[j])
        regret[i] += mass[j]
        avg[i] += mass[j]


@compiled
def positive_regret_sum(keys, regret):
    """Sum of the positive regrets of the used slots (the driver's quality proxy)."""
    total = 0.0
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY and regret[i] > 0.0:
            total += regret[i]
    return total


def dcfr_factors(epoch: int, alpha: float, beta: float, gamma: float) -> tuple[float, float, float]:
    """The three DCFR multipliers applied after epoch ``epoch`` (>= 1)."""
    t = float(epoch)
    return t**alpha / (t**alpha + 1.0), t**beta / (t**beta + 1.0), (t / (t + 1.0)) ** gamma


def _capacity_for(n: int) -> int:
    cap = 1 << 12
    while n > MAX_LOAD * cap:
        cap <<= 1
    return cap


@dataclass
class Tables:
    """The training tables (see the module docstring); :meth:`ensure_room` grows them between batches."""

    keys: np.ndarray
    regret: np.ndarray
    avg: np.ndarray
    used: np.ndarray
    base: np.ndarray | None = None
    visits: np.ndarray | None = None

    def __post_init__(self):
        # Tables made before baselines existed (old checkpoints, other games' code) get empty ones.
        if self.base is None:
            self.base = np.zeros(self.keys.shape[0])
        if self.visits is None:
            self.visits = np.zeros(self.keys.shape[0])

    @classmethod
    def empty(cls, capacity: int = 1 << 16) -> Tables:
        """Empty tables of ``capacity`` slots (rounded up to a power of two)."""
        cap = 1 << max(int(capacity - 1).bit_length(), 4)
        return cls(np.full(cap, EMPTY, np.int64), np.zeros(cap), np.zeros(cap), np.zeros(1, np.int64))

    @property
    def capacity(self) -> int:
        """Slots the table holds."""
        return int(self.keys.shape[0])

    @property
    def size(self) -> int:
        """Slots in use."""
        return int(self.used[0])

    def room(self) -> int:
        """How many slots may be added before the table passes :data:`MAX_LOAD`."""
        return int(MAX_LOAD * self.capacity) - self.size

    def ensure_room(self, slots: int) -> None:
        """Double the table until ``slots`` more fit under :data:`MAX_LOAD`. Values per key are unchanged, so the
        training's results do not depend on when it grows."""
        cap = self.capacity
        while self.size + slots > MAX_LOAD * cap:
            cap <<= 1
        if cap == self.capacity:
            return
        new_keys = np.full(cap, EMPTY, np.int64)
        values = np.stack([self.regret, self.avg, self.base, self.visits], axis=1)
        new_values = np.zeros((cap, 4))
        self.used[0] = rehash(self.keys, values, new_keys, new_values)
        self.keys = new_keys
        self.regret, self.avg, self.base, self.visits = (np.ascontiguousarray(new_values[:, c]) for c in range(4))

    def discount(self, positive: float, negative: float, average: float) -> None:
        """Apply one set of DCFR multipliers to every slot."""
        discount(self.keys, self.regret, self.avg, positive, negative, average)

    def policy_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The used slots' keys and average mass (slots without mass dropped), sorted by key: the stored policy."""
        used = (self.keys != EMPTY) & (self.avg > 0.0)
        keys, avg = self.keys[used], self.avg[used]
        order = np.argsort(keys, kind="stable")
        return keys[order], avg[order]


def policy_table(keys: np.ndarray, avg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A lookup table (``keys``, ``avg`` arrays for :func:`average_row`) holding a stored policy's slots."""
    cap = _capacity_for(len(keys))
    table_keys = np.full(cap, EMPTY, np.int64)
    values = np.zeros((cap, 1))
    rehash(np.asarray(keys, np.int64), np.asarray(avg, np.float64).reshape(-1, 1), table_keys, values)
    return table_keys, np.ascontiguousarray(values[:, 0])


def empty_policy() -> tuple[np.ndarray, np.ndarray, int]:
    """A policy (lookup keys, average strategy, abstraction level 0) that holds no row, so every trained-seat lookup
    misses: what a kernel's one whole-game loop and its rollout loops are handed when no seat is trained."""
    return (*policy_table(np.zeros(0, np.int64), np.zeros(0)), 0)
