"""Conversion between slot arrays and OpenSpiel policies.

A slot array holds one probability per (information set, legal action) of a :class:`~cfr.compile.CompiledGame`.
OpenSpiel's :class:`open_spiel.python.policy.TabularPolicy` holds one row per information-state string over all
``num_distinct_actions`` columns; both are keyed by ``information_state_string``, so conversion is one gather or
scatter through the row index of every information set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from cfr.compile import CompiledGame

if TYPE_CHECKING:
    # OpenSpiel's policy module imports all its Python games (about 0.2 s at every process start: sweep workers,
    # command lines), so it is imported only where a TabularPolicy is built.
    from open_spiel.python import policy as policy_lib


def _rows(cg: CompiledGame, tabular: policy_lib.TabularPolicy) -> np.ndarray:
    lookup = tabular.state_lookup
    rows = np.empty(cg.num_infosets, dtype=np.int64)
    for i, key in enumerate(cg.infoset_keys):
        row = lookup.get(key)
        if row is None:
            raise ValueError(f"information state {key!r} of {cg.game} is not in the TabularPolicy; was it built for "
                             "the same game?")
        rows[i] = row
    return rows


def to_tabular_policy(
    cg: CompiledGame, policy: np.ndarray, tabular: policy_lib.TabularPolicy | None = None
) -> policy_lib.TabularPolicy:
    """Write a slot array into a ``TabularPolicy`` (a new one for ``cg.game`` unless ``tabular`` is given).

    Building a new ``TabularPolicy`` makes OpenSpiel enumerate every state again (slow for Python games); pass one in
    to reuse it.
    """
    policy = np.asarray(policy, dtype=np.float64)
    if policy.shape != (cg.num_slots,):
        raise ValueError(f"policy has shape {policy.shape}; allowed: ({cg.num_slots},)")
    if tabular is None:
        from open_spiel.python import policy as policy_lib  # here, not at the top: see the imports

        tabular = policy_lib.TabularPolicy(cg.game)
    rows = _rows(cg, tabular)
    table = tabular.action_probability_array
    table[rows] = 0.0
    table[rows[cg.slot_infoset], cg.slot_action] = policy
    return tabular


def from_tabular_policy(cg: CompiledGame, tabular: policy_lib.TabularPolicy) -> np.ndarray:
    """Read a ``TabularPolicy`` into a slot array."""
    rows = _rows(cg, tabular)
    return np.asarray(tabular.action_probability_array[rows[cg.slot_infoset], cg.slot_action], dtype=np.float64)


def to_dict(cg: CompiledGame, policy: np.ndarray) -> dict[str, list[tuple[int, float]]]:
    """A slot array as ``{information-state string: [(action, probability), ...]}``, the form
    ``pyspiel.exploitability`` and ``pyspiel.nash_conv`` accept."""
    starts = cg.infoset_slot_start
    actions = cg.slot_action.tolist()
    probs = np.asarray(policy, dtype=np.float64).tolist()
    return {
        key: list(zip(actions[starts[i] : starts[i + 1]], probs[starts[i] : starts[i + 1]]))
        for i, key in enumerate(cg.infoset_keys)
    }


def from_dict(cg: CompiledGame, table: Mapping[str, Sequence[tuple[int, float]]], default: str = "uniform") -> np.ndarray:
    """A ``{key: [(action, probability), ...]}`` table as a slot array; information sets missing from ``table`` get
    the uniform distribution (``default="uniform"``) or raise (``default="error"``)."""
    if default not in ("uniform", "error"):
        raise ValueError(f"default={default!r} is not allowed; allowed: 'uniform', 'error'")
    out = cg.uniform_policy()
    starts = cg.infoset_slot_start
    for i, key in enumerate(cg.infoset_keys):
        entry = table.get(key)
        if entry is None:
            if default == "error":
                raise ValueError(f"information state {key!r} is missing from the policy table")
            continue
        probs = dict(entry)
        for s in range(starts[i], starts[i + 1]):
            out[s] = float(probs.get(int(cg.slot_action[s]), 0.0))
    return out
