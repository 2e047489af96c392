"""The array passes every solver and evaluator is built from.

Going down, ``reach[child] = reach[parent] * p(edge)``; going up, ``value[node] = sum over children of p(edge) *
value[child]``. Both run as compiled loops over the breadth-first node arrays (:mod:`cfr.kernels`); the functions
here are the numpy-facing API (they take and return full per-history arrays) and the slot-array helpers the
solvers share.
"""

from __future__ import annotations

import numpy as np

from cfr import kernels
from cfr.tree import CompiledGame

_NO_POLICY = np.zeros(0)


def edge_probabilities(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    """Probability of the edge into every node: the policy's for decision edges, the chance probability otherwise."""
    out = np.empty(cg.num_nodes, dtype=np.float64)
    kernels.edge_probs(cg.edge_slot, np.asarray(policy, dtype=np.float64), cg.chance_prob, out)
    return out


def reach_excluding(cg: CompiledGame, edge_prob: np.ndarray, player: int) -> np.ndarray:
    """Counterfactual reach of every node for ``player``: the product of everyone else's (and chance's) edge
    probabilities on the path from the root."""
    out = np.empty(cg.num_nodes, dtype=np.float64)
    kernels.forward_reach(cg.parent, cg.edge_owner, cg.edge_slot, _NO_POLICY, _f64(edge_prob), False, int(player), out)
    return out


def reach_of(cg: CompiledGame, edge_prob: np.ndarray) -> np.ndarray:
    """Probability of reaching every node when everyone (and chance) plays by ``edge_prob``."""
    out = np.empty(cg.num_nodes, dtype=np.float64)
    kernels.forward_reach(cg.parent, cg.edge_owner, cg.edge_slot, _NO_POLICY, _f64(edge_prob), False, -1, out)
    return out


def values(cg: CompiledGame, edge_prob: np.ndarray, player: int | None = None) -> np.ndarray:
    """Expected utility of every node under ``edge_prob``: shape ``(N,)`` for one player, ``(P, N)`` for all."""
    edge_prob = _f64(edge_prob)
    players = range(cg.num_players) if player is None else [int(player)]
    out = np.empty((len(players), cg.num_nodes), dtype=np.float64)
    for row, p in enumerate(players):
        kernels.backward_values(cg.child_start, cg.child_count, cg.utility_index, cg.utilities, cg.edge_slot,
                                _NO_POLICY, edge_prob, False, p, out[row])
    return out if player is None else out[0]


def policy_values(cg: CompiledGame, policy: np.ndarray, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """Expected utility of ``player`` at every node when everyone plays the slot array ``policy`` (no
    edge-probability array is built)."""
    if out is None:
        out = np.empty(cg.num_nodes, dtype=np.float64)
    kernels.backward_values(cg.child_start, cg.child_count, cg.utility_index, cg.utilities, cg.edge_slot,
                            _f64(policy), cg.chance_prob, True, int(player), out)
    return out


def policy_reach_excluding(cg: CompiledGame, policy: np.ndarray, player: int,
                           out: np.ndarray | None = None) -> np.ndarray:
    """:func:`reach_excluding` straight from a slot array."""
    if out is None:
        out = np.empty(cg.num_nodes, dtype=np.float64)
    kernels.forward_reach(cg.parent, cg.edge_owner, cg.edge_slot, _f64(policy), cg.chance_prob, True, int(player),
                          out)
    return out


def _f64(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float64)


def regret_matching(cg: CompiledGame, base: np.ndarray, player: int, out: np.ndarray | None = None,
                    scratch: np.ndarray | None = None) -> np.ndarray:
    """Regret matching over ``player``'s slots: positive part of ``base`` normalised per information set, uniform
    where an information set has no positive entry. ``base`` holds that player's slots only.

    ``out`` (the player's slots) receives the strategy; ``scratch``, a float64 array of at least
    ``player_slots[player + 1]`` entries, holds the positive parts (the solvers pass a free per-history work array),
    so nothing the size of the slots is allocated when both are given.
    """
    lo, hi = int(cg.player_slots[player]), int(cg.player_slots[player + 1])
    if out is None:
        out = np.empty(hi - lo, dtype=np.float64)
    if hi == lo:
        return out
    if scratch is None:
        scratch = np.empty(hi, dtype=np.float64)
    # The positive parts sit at their global slot positions, so the information sets' own slot offsets segment
    # them for np.add.reduceat (the per-set sums stay numpy's, bit for bit) without a table of local offsets.
    np.maximum(base, 0.0, out=scratch[lo:hi])
    starts = cg.infoset_slot_start[cg.player_infosets[player] : cg.player_infosets[player + 1]]
    totals = np.add.reduceat(scratch[:hi], starts)
    kernels.normalise_segments(scratch, starts, hi, totals, lo, out)
    return out


def normalise(cg: CompiledGame, weights: np.ndarray) -> np.ndarray:
    """Normalise a non-negative slot array per information set (uniform where an information set sums to zero)."""
    sums = np.add.reduceat(weights, cg.infoset_slot_start[:-1]) if weights.size else weights
    total = sums[cg.slot_infoset]
    counts = np.diff(cg.infoset_slot_start)[cg.slot_infoset]
    out = np.empty_like(weights)
    np.divide(weights, total, out=out, where=total > 0)
    zero = total <= 0
    out[zero] = 1.0 / counts[zero]
    return out


def own_reach(cg: CompiledGame, policy: np.ndarray, player: int, out: np.ndarray | None = None) -> np.ndarray:
    """Sequence-form strategy of ``player``: for each of its slots, its own probability of reaching the information
    set times the probability of the action (perfect recall makes the own reach the same for every history of an
    information set). Returns a full-length slot array; only ``player``'s slots are filled."""
    if out is None:
        out = np.zeros(cg.num_slots, dtype=np.float64)
    lo, hi = int(cg.player_slots[player]), int(cg.player_slots[player + 1])
    kernels.own_reach(cg.slot_infoset, cg.infoset_parent_slot, _f64(policy), lo, hi, out)
    return out


def instantaneous_regret(cg: CompiledGame, reach_others: np.ndarray, val: np.ndarray, player: int) -> np.ndarray:
    """Counterfactual regret of every slot of ``player`` for one iteration (array over that player's slots)."""
    plan = cg.plan()
    edges = plan["player_edges"][player]
    par = plan["player_edge_parent"][player]
    lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
    parent_val = val[par]
    weights = reach_others[par] * (val[edges] - parent_val)
    return np.bincount(plan["player_edge_local_slot"][player], weights=weights, minlength=hi - lo)


def player_regret(cg: CompiledGame, policy: np.ndarray, player: int, reach: np.ndarray, val: np.ndarray) -> np.ndarray:
    """Instantaneous counterfactual regret of ``player``'s slots under the slot array ``policy``, computed in one
    compiled pass down and one up; ``reach`` and ``val`` are per-history work arrays (overwritten)."""
    lo, hi = int(cg.player_slots[player]), int(cg.player_slots[player + 1])
    inst = np.zeros(hi - lo, dtype=np.float64)
    kernels.cfr_regrets(cg.parent, cg.child_start, cg.child_count, cg.player, cg.edge_owner, cg.edge_slot,
                        cg.utility_index, cg.utilities, _f64(policy), cg.chance_prob, int(player), lo, reach, val, inst)
    return inst
