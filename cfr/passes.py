"""The array passes every solver and evaluator is built from.

Each pass walks the compiled tree by depth (a short Python loop over depths, never over histories): going down,
``reach[child] = reach[parent] * p(edge)``; going up, ``value[node] = sum over children of p(edge) * value[child]``
with one ``np.add.reduceat`` per depth, because the children of consecutive nodes are consecutive.
"""

from __future__ import annotations

import numpy as np

from cfr.compile import CompiledGame


def edge_probabilities(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    """Probability of the edge into every node: the policy's for decision edges, the chance probability otherwise."""
    probs = cg.chance_prob.copy()
    edges = cg.plan()["decision_edges"]
    probs[edges] = policy[cg.edge_slot[edges]]
    return probs


def reach_excluding(cg: CompiledGame, edge_prob: np.ndarray, player: int) -> np.ndarray:
    """Counterfactual reach of every node for ``player``: the product of everyone else's (and chance's) edge
    probabilities on the path from the root."""
    mult = edge_prob.copy()
    mult[cg.plan()["player_edges"][player]] = 1.0
    return _forward(cg, mult)


def reach_of(cg: CompiledGame, edge_prob: np.ndarray) -> np.ndarray:
    """Probability of reaching every node when everyone (and chance) plays by ``edge_prob``."""
    return _forward(cg, edge_prob)


def _forward(cg: CompiledGame, mult: np.ndarray) -> np.ndarray:
    reach = np.empty(cg.num_nodes, dtype=np.float64)
    reach[0] = 1.0
    starts = cg.depth_start
    parent = cg.parent
    for d in range(1, starts.shape[0] - 1):
        lo, hi = starts[d], starts[d + 1]
        np.multiply(reach[parent[lo:hi]], mult[lo:hi], out=reach[lo:hi])
    return reach


def values(cg: CompiledGame, edge_prob: np.ndarray, player: int | None = None) -> np.ndarray:
    """Expected utility of every node under ``edge_prob``: shape ``(N,)`` for one player, ``(P, N)`` for all."""
    plan = cg.plan()
    starts = cg.depth_start
    val = cg.returns[player].copy() if player is not None else cg.returns.copy()
    for d in range(cg.max_depth - 1, -1, -1):
        nodes = plan["nonterminal"][d]
        if not nodes.size:
            continue
        lo, hi = starts[d + 1], starts[d + 2]
        weighted = edge_prob[lo:hi] * val[..., lo:hi]
        val[..., nodes] = np.add.reduceat(weighted, plan["child_offsets"][d], axis=-1)
    return val


def regret_matching(cg: CompiledGame, base: np.ndarray, player: int) -> np.ndarray:
    """Regret matching over ``player``'s slots: positive part of ``base`` normalised per information set, uniform
    where an information set has no positive entry. ``base`` holds that player's slots only."""
    offsets, local_info, uniform_prob = _player_segments(cg, player)
    if not offsets.size:
        return np.zeros(0)
    pos = np.maximum(base, 0.0)
    total = np.add.reduceat(pos, offsets)[local_info]
    out = np.divide(pos, total, out=np.empty_like(pos), where=total > 0)
    empty = total <= 0
    if empty.any():
        out[empty] = uniform_prob[empty]
    return out


def _player_segments(cg: CompiledGame, player: int):
    """Cached per player: information-set offsets within the player's slots, each slot's local information set,
    and each slot's uniform probability."""
    cache = cg.plan().setdefault("segments", {})
    if player not in cache:
        lo = cg.player_slots[player]
        ilo, ihi = cg.player_infosets[player], cg.player_infosets[player + 1]
        offsets = cg.infoset_slot_start[ilo:ihi] - lo
        local_info = cg.slot_infoset[lo : cg.player_slots[player + 1]] - ilo
        counts = np.diff(cg.infoset_slot_start[ilo : ihi + 1])
        cache[player] = (offsets, local_info, 1.0 / counts[local_info] if counts.size else np.zeros(0))
    return cache[player]


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
    set times the probability of the action. Computed on information sets level by level (perfect recall makes the
    own reach the same for every history of an information set). Returns a full-length slot array; only
    ``player``'s slots are filled."""
    if out is None:
        out = np.zeros(cg.num_slots, dtype=np.float64)
    # One extra trailing entry fixed at 1 stands for "no own previous action" (parent slot -1 maps to it).
    work = cg.plan().setdefault("own_reach_work", np.ones(cg.num_slots + 1))
    for slots, parents in cg.plan()["level_slots"][player]:
        work[slots] = work[parents] * policy[slots]
    lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
    out[lo:hi] = work[lo:hi]
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
