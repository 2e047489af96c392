"""Compiled functions that only *borrow* arrays: numba's reference counting switched off for them.

numba counts references to every array a compiled function holds, and each count is an atomic increment or
decrement (``NRT_incref`` / ``NRT_decref``). Its pruning pass removes the pairs it can match, but not those with
loops or several exits between them: a function that takes a dozen scratch arrays and inlines helpers reading them
(each inlined helper's parameters are new references) keeps two dozen atomic operations per call. Measured with
``perf`` on 2026-12-05: Pinocchio's trained seats spent 28-32% of the CPU time of whole kernel games, and its
training 26%, in those two functions; heuristic and random seats spent none.

:func:`borrowing` compiles a function without them (numba's ``_nrt`` target option off). Such a function must not
allocate or return an array (no ``np.zeros``, no lists); it may take arrays, slice and reshape them, and call other
compiled functions that borrow too or are inlined (``inline="always"``). A callee that states neither would be
compiled with the options of whichever caller compiles it first, one version for every caller after (and in the
cache): whether a callee that allocates fails to compile, or a counting caller gets a borrowing version, would hang
on the order a process happens to compile things in (1981's heuristic allocated, and only a fresh clone showed it).
``tests/cfr/test_numba_borrowing.py`` walks the calls and holds every kernel to that. Results are the same bit for
bit: only the counting goes.
``_nrt`` is a target option numba's own test suite uses but does not document; where a numba release lacks it,
:func:`borrowing` compiles with counting (slower, the same results).
"""

from __future__ import annotations

from typing import Any

from numba import njit

try:  # the option's declaration; a release without it gets plain njit
    from numba.core.cpu import CPUTargetOptions

    SUPPORTED = hasattr(CPUTargetOptions, "_nrt")
except ImportError:  # pragma: no cover - numba's layout changed
    SUPPORTED = False


def borrowing(**options: Any):
    """``njit(cache=True, **options)`` without reference counting where numba offers it (see the module docstring):
    for hot compiled functions that take arrays and allocate none."""
    if SUPPORTED:
        options["_nrt"] = False
    options.setdefault("cache", True)
    return njit(**options)
