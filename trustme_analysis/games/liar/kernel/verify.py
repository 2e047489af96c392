"""What each seat knows, compared step by step: the Liar kernel's own addition to the lock-step harness.

The lock-step harness (:func:`trustme_analysis.engine.lockstep.lockstep`) replays kernel games through the engine and
compares the player to act, the legal actions or chance outcomes, the returns and every record field.
:func:`knowledge_extra` is Liar's ``extra=``: after every step the pyspiel state and the
:class:`~trustme_analysis.games.liar.kernel.kernel.KernelState` fed the same action must also agree on what each seat
knows of the others' hands and its own burned cards (what the heuristic reads). ``tests/games/test_liar_kernel.py``
and ``benchmarks/kernels_liar.py --verify N`` pass it.
"""

from __future__ import annotations

import pyspiel

from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel.kernel import KernelState


def knowledge(state: pyspiel.State) -> list[list[int]]:
    """What each seat knows (the engine's ``known``, ``revealed``, ``burned_by``, ``claims_burned``), each flat."""
    t = state._table

    def flat(rows) -> list[int]:
        return [x for row in rows for x in row]

    return [flat(row for viewer in t.known for row in viewer), flat(t.revealed), flat(t.burned_by),
            flat(t.claims_burned)]


def kernel_knowledge(mirror: KernelState) -> list[list[int]]:
    """The same blocks of a kernel state."""
    cfg, S = mirror.kernel.cfg, mirror.array
    n, values = int(cfg[layout.N]), int(cfg[layout.V])
    out = []
    for offset, size in ((layout.O_KNOWN, n * n * values), (layout.O_REVEALED, n * values),
                         (layout.O_BURNBY, n * values), (layout.O_CLAIMBURN, n * values)):
        out.append(S[cfg[offset]: cfg[offset] + size].tolist())
    return out


def knowledge_extra(state: pyspiel.State, mirror: KernelState) -> str | None:
    """The lock-step harness's ``extra``: ``None`` when both sides agree on what each seat knows, else the
    difference in words."""
    engine, compiled = knowledge(state), kernel_knowledge(mirror)
    if engine == compiled:
        return None
    return f"what the seats know (known, revealed, burned_by, claims_burned; engine {engine}, kernel {compiled})"
