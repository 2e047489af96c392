"""The draw protocol's compiled primitives (numba), the one copy every game's kernel imports.

:mod:`.draws` states the protocol in Python (:class:`~.draws.GameStream`); these are the same draws in compiled code,
checked against it draw by draw by ``tests/engine/test_draws.py``:

- :func:`next_u64`: SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators", OOPSLA
  2014), its 64-bit state in a one-element uint64 array;
- :func:`below`: a uniform integer in ``[0, n)`` for ``0 < n < 2**63``, exactly: D. Lemire's multiply-and-reject ("Fast
  random integer generation in an interval", ACM TOMACS 29(1), 2019) on the top 32 bits of one output below
  ``2**32`` (a division only in the rare rejection), on the whole output (a 128-bit product) from there;
- :func:`uniform01`: a uniform float in ``[0, 1)`` from the top 53 bits of one output;
- :func:`walk`: the index a uniform number picks from a row of probabilities, comparing before it subtracts.

Every function is inlined into its compiled callers (``inline="always"``) and compiled without numba's reference
counting: the play loops call them at every step. A kernel whose functions inline these must tie its numba cache to
this file's source as well as its own (:func:`cfr.numba_cache.tie_cache_to_sources`), since numba checks only the
caller's file.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: Inlined into each compiled caller, cached, no reference counting (see the module docstring).
inlined = njit(cache=True, _nrt=False, inline="always")

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_TWO53 = 1.0 / 9007199254740992.0


@inlined
def next_u64(rng):
    """The next SplitMix64 output; ``rng`` is a one-element uint64 array holding the generator's state."""
    z = rng[0] + _GOLDEN
    rng[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@inlined
def mul128(a, b):
    """``(high, low)`` 64-bit halves of the 128-bit product of two uint64 (numba has no 128-bit integers)."""
    a_lo, a_hi = a & _LOW32, a >> _S32
    b_lo, b_hi = b & _LOW32, b >> _S32
    lolo = a_lo * b_lo
    hilo = a_hi * b_lo
    cross = (lolo >> _S32) + (hilo & _LOW32) + a_lo * b_hi
    high = (hilo >> _S32) + (cross >> _S32) + a_hi * b_hi
    low = (cross << _S32) | (lolo & _LOW32)
    return high, low


@inlined
def below(rng, n):
    """A uniform integer in ``[0, n)`` for ``0 < n < 2**63``, exactly, as :meth:`.draws.GameStream.below` draws it."""
    un = np.uint64(n)
    if un <= _LOW32:
        m = (next_u64(rng) >> _S32) * un
        low = m & _LOW32
        if low < un:
            floor = (_TWO32 - un) % un
            while low < floor:
                m = (next_u64(rng) >> _S32) * un
                low = m & _LOW32
        return np.int64(m >> _S32)
    high, low = mul128(next_u64(rng), un)
    if low < un:
        threshold = (np.uint64(0) - un) % un
        while low < threshold:
            high, low = mul128(next_u64(rng), un)
    return np.int64(high)


@inlined
def uniform01(rng):
    """A uniform float in ``[0, 1)`` from the top 53 bits of one output."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * _TWO53


@inlined
def walk(probs, n, u):
    """The index ``u`` (uniform in [0, 1)) picks from ``probs[:n]``: the first ``i`` with ``u < p_i`` after
    subtracting the ones before it; the last positive one if rounding leaves ``u`` past them all (as
    :func:`.draws.walk`)."""
    last = -1
    for i in range(n):
        p = probs[i]
        if p > 0.0:
            last = i
            if u < p:
                return i
            u -= p
    return last
