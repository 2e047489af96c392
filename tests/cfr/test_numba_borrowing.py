"""Borrowing compiled functions (cfr.numba_borrowing): no reference counts, the same results."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit

from cfr.numba_borrowing import SUPPORTED, borrowing


def _body(values, scratch, n):
    """Slices, a dtype view and a loop with two exits: the shape numba's pruning leaves counted."""
    head = scratch[:n]
    tail = scratch[n:2 * n].view(np.float64)
    for i in range(n):
        head[i] = values[i] * 2
        tail[i] = values[i] / 4.0
        if head[i] > 100:
            return -1.0
    total = 0.0
    for i in range(n):
        total += head[i] + tail[i]
    return total


def _counts_in_body(dispatcher, *args) -> int:
    """Reference-count calls in the compiled function itself (not in the wrapper that boxes its arguments)."""
    dispatcher(*args)
    ir = dispatcher.inspect_llvm(dispatcher.signatures[0])
    functions = ir.split("\ndefine ")[1:]
    names = [re.search(r"@([\w.$\"]+)", f).group(1) for f in functions]
    body = [f for f, name in zip(functions, names) if "_body" in name and "cpython" not in name and "cfunc" not in name]
    assert len(body) == 1
    return body[0].count("@NRT_incref(") + body[0].count("@NRT_decref(")


def test_the_installed_numba_offers_the_option():
    # Without it trained seats, trainings and Liar's heuristic seats run 25-60% slower (cfr/numba_borrowing.py).
    assert SUPPORTED


def test_a_borrowing_function_counts_no_references_and_computes_the_same():
    values = np.arange(6, dtype=np.int64)
    counted = njit(cache=False)(_body)
    borrowed = borrowing(cache=False)(_body)
    a, b = np.zeros(12, np.int64), np.zeros(12, np.int64)
    assert _counts_in_body(counted, values, a, 6) > 0  # the shape this module is for: numba's pruning gives up
    assert _counts_in_body(borrowed, values, b, 6) == 0
    assert counted(values, a, 6) == borrowed(values, b, 6) == 30.0 + 15 / 4
    np.testing.assert_array_equal(a, b)


def _hot_functions():
    from trustme_analysis.games.board1981.kernel import trained as T81
    from trustme_analysis.games.board1981.kernel import trained_rollouts as R81
    from trustme_analysis.games.board1981.kernel import training as TR81
    from trustme_analysis.games.liar.kernel import heuristic as HL
    from trustme_analysis.games.liar.kernel import moves as ML
    from trustme_analysis.games.liar.kernel import play as PL
    from trustme_analysis.games.liar.kernel import trained as TL
    from trustme_analysis.games.liar.kernel import trained_rollouts as RL
    from trustme_analysis.games.liar.kernel import training as TRL
    from trustme_analysis.games.pinocchio.kernel import abstraction as PA
    from trustme_analysis.games.pinocchio.kernel import trained as PT
    from trustme_analysis.games.pinocchio.kernel import trained_rollouts as PR
    from trustme_analysis.games.pinocchio.kernel import training as PTR

    return [PT.trained_action, PT.play_batch_trained, PA.row_of, PR.play_out_trained, PR.rollouts_trained,
            PR.action_rollouts_trained, PTR.run_iterations, PTR.policy_at, TL.trained_action, TRL.run_iterations,
            TL.probe_action, HL.heuristic_sample, HL.heuristic_distribution, PL.choose,
            T81.play_out_trained, T81.trained_action_compiled, TR81.run_iterations, R81.play_out_trained,
            R81.rollouts_trained, R81.action_rollouts_trained, RL.play_out_trained, RL.rollouts_trained,
            RL.action_rollouts_trained, ML.results]


@pytest.mark.parametrize("fn", _hot_functions(), ids=lambda f: f"{f.py_func.__module__}.{f.__name__}")
def test_the_hot_functions_borrow(fn):
    assert fn.targetoptions.get("_nrt") is False


def _compiled_callees(fn) -> list:
    """Compiled functions ``fn``'s code calls by name (its globals, and attributes of the modules among them)."""
    import types

    from numba.core.registry import CPUDispatcher

    names = set(fn.py_func.__code__.co_names)
    space = fn.py_func.__globals__
    candidates = [space[n] for n in names if n in space]
    candidates += [getattr(m, a) for m in list(candidates) if isinstance(m, types.ModuleType)
                   for a in names if hasattr(m, a)]
    return [c for c in candidates if isinstance(c, CPUDispatcher)]


# numba compiles a callee that does not set ``_nrt`` itself with its caller's setting: a plain njit function first
# compiled for a borrowing caller borrows, one first compiled for a counting caller counts, and every later caller
# gets that one version (the cache keeps it too). Which one depends on the order a process happens to compile them
# in, so a callee that allocates fails to compile only when a borrowing caller comes first (Liar's training failed
# so on a fresh machine while the suite passed), and a view returned by a borrowing version to a counting caller
# would be freed once too often. Every function a borrowing one reaches therefore states its own setting: it
# borrows too, or is inlined (compiled inside each caller, with the caller's setting). Then no order matters, and a
# callee that allocates fails wherever it compiles. (This replaces three fresh-process compiles of the trainings,
# 290 s of CPU a test run, that could only catch the order they happened to try.)
def _not_stating_their_own(borrowers) -> set[str]:
    """The compiled functions ``borrowers`` reach (directly or through inlined callees) that neither borrow nor are
    inlined, each with a caller."""
    offending, seen = set(), set()
    stack = list(borrowers)
    while stack:
        fn = stack.pop()
        for callee in _compiled_callees(fn):
            if id(callee) in seen:
                continue
            seen.add(id(callee))
            stack.append(callee)  # an inlined callee's own callees are compiled for the same caller
            if callee.targetoptions.get("_nrt") is not False and callee.targetoptions.get("inline") != "always":
                offending.add(f"{callee.py_func.__module__}.{callee.__name__} (called by "
                              f"{fn.py_func.__module__}.{fn.__name__})")
    return offending


def test_every_function_a_borrowing_function_reaches_borrows_or_is_inlined():
    from numba.core.registry import CPUDispatcher

    import trustme_analysis.train.tables as tables

    everything = _kernel_dispatchers(with_inlined=True)
    everything += [fn for fn in vars(tables).values() if isinstance(fn, CPUDispatcher)]
    borrowers = [fn for fn in everything if fn.targetoptions.get("_nrt") is False]
    assert len(borrowers) > 50  # the walk found the kernels' borrowing functions
    assert not _not_stating_their_own(borrowers)


def _first(a):
    return a[0]


_plain_first = njit(cache=False)(_first)


def _calls_plain(a):
    return _plain_first(a) + 1


def test_the_walk_finds_a_plain_callee_of_a_borrowing_function():
    # The rule above can fail: a plain function called by a borrowing one is named, and one that borrows is not.
    caller = borrowing(cache=False)(_calls_plain)
    assert _not_stating_their_own([caller]) == {f"{__name__}._first (called by {__name__}._calls_plain)"}
    assert caller(np.arange(3)) == 1
    assert not _not_stating_their_own([borrowing(cache=False)(_first)])


def _kernel_dispatchers(with_inlined: bool = False):
    """Every compiled function defined in a game's kernel package, inlined ones only when ``with_inlined`` (all
    modules imported first: some tie their callers' caches at import)."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import trustme_analysis  # noqa: F401  (registers the games)

    modules = []
    for game in ("pinocchio", "liar", "board1981"):
        package = importlib.import_module(f"trustme_analysis.games.{game}.kernel")
        modules += [importlib.import_module(f"{package.__name__}.{m.name}")
                    for m in pkgutil.iter_modules(package.__path__)]
    return [fn for module in modules for fn in vars(module).values()
            if isinstance(fn, CPUDispatcher) and fn.py_func.__module__ == module.__name__
            and (with_inlined or fn.targetoptions.get("inline") != "always")]


def _calls_elsewhere(fn, seen=None) -> list[str]:
    """Compiled functions of other modules that ``fn``'s code calls, directly or through inlined functions
    (:func:`_compiled_callees`)."""
    seen = set() if seen is None else seen
    found = []
    for callee in _compiled_callees(fn):
        if id(callee) in seen:
            continue
        seen.add(id(callee))
        if callee.py_func.__module__ != fn.py_func.__module__:
            found.append(f"{callee.py_func.__module__}.{callee.__name__}")
        if callee.targetoptions.get("inline") == "always":
            found += _calls_elsewhere(callee, seen)
    return found


def test_a_cached_kernel_function_that_calls_other_modules_is_keyed_by_their_sources():
    # numba keys a function's cache by its own file only: one calling another module's code would load its stale
    # compiled version after an edit there (cfr.numba_cache.tie_cache_to_sources adds those sources to the key).
    untied = []
    for fn in _kernel_dispatchers():
        stamp = getattr(getattr(getattr(fn, "_cache", None), "_cache_file", None), "_source_stamp", None)
        tied = isinstance(stamp, tuple) and len(stamp) == 2 and isinstance(stamp[1], str)
        elsewhere = _calls_elsewhere(fn)
        if elsewhere and not tied:
            untied.append(f"{fn.py_func.__module__}.{fn.__name__} (calls {', '.join(sorted(elsewhere)[:3])})")
    assert not untied, untied
