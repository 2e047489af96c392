"""Expected values, best responses, NashConv and exploitability on the compiled tree.

A policy profile is a slot array (see :mod:`cfr.compile`): one probability per information set and legal action.

The best response of player ``i`` is computed bottom-up. At an information set ``I`` of ``i`` the value of action
``a`` is ``sum over histories h in I of reach_{-i}(h) * v(h a)``; the best action is the argmax and every history of
``I`` takes the value of that action. When each of ``i``'s information sets has all its histories at one tree depth
(true of most games, including every poker and dice game in OpenSpiel), one pass by depth resolves the information
sets of depth ``d`` after their children's values are known. Otherwise (chance nodes interleaved differently on
different histories) the histories of one information set sit at different depths, and the solver falls back to
resolving ``i``'s information sets by *level* (how many own decisions precede them), deepest level first, one full
bottom-up pass per level: by perfect recall everything below a level-``L`` information set belongs to levels above
``L``, whose choices are already fixed.
"""

from __future__ import annotations

import numpy as np

from cfr import passes
from cfr.compile import TERMINAL, CompiledGame


def _check_policy(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    policy = np.asarray(policy, dtype=np.float64)
    if policy.shape != (cg.num_slots,):
        raise ValueError(f"policy has shape {policy.shape}; allowed: ({cg.num_slots},), one entry per slot of {cg.game}")
    return policy


def expected_values(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    """Expected utility of every player at the root when everyone plays ``policy``."""
    policy = _check_policy(cg, policy)
    val = passes.values(cg, passes.edge_probabilities(cg, policy))
    return val[:, 0].copy()


def best_response_value(cg: CompiledGame, policy: np.ndarray, player: int, by_level: bool | None = None) -> float:
    """Value to ``player`` of a best response against the others' part of ``policy``.

    Args:
        cg: the compiled game.
        policy: the profile (slot array); ``player``'s own entries are ignored.
        player: the best-responding player.
        by_level: force the general level-by-level method (True) or the single pass (False); by default the single
            pass is used exactly when every information set of ``player`` lies at one depth.
    """
    value, _ = best_response(cg, policy, player, by_level)
    return value


def best_response(
    cg: CompiledGame, policy: np.ndarray, player: int, by_level: bool | None = None
) -> tuple[float, np.ndarray]:
    """Best-response value of ``player`` and the pure best response as a slot array (1 on the chosen actions of
    ``player``'s information sets, 0 on the other slots, ``policy`` elsewhere)."""
    policy = _check_policy(cg, policy)
    if not 0 <= player < cg.num_players:
        raise ValueError(f"player={player!r} is not allowed; allowed: 0 to {cg.num_players - 1}")
    edge_prob = passes.edge_probabilities(cg, policy)
    reach = passes.reach_excluding(cg, edge_prob, player)
    if by_level is None:
        by_level = not bool(cg.infoset_uniform_depth[player])
    chosen = np.zeros(cg.num_slots, dtype=bool)
    if by_level:
        levels = cg.infoset_level
        mine = cg.infoset_player == player
        top = int(levels[mine].max(initial=-1))
        for lv in range(top, -1, -1):
            val = _backward(cg, edge_prob, player, chosen, reach, resolve_depthwise=False)
            infos = np.flatnonzero(mine & (levels == lv))
            _resolve(cg, val, reach, player, chosen, infos)
        val = _backward(cg, edge_prob, player, chosen, reach, resolve_depthwise=False)
    else:
        val = _backward(cg, edge_prob, player, chosen, reach, resolve_depthwise=True)
    out = policy.copy()
    lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
    out[lo:hi] = chosen[lo:hi]
    return float(val[0]), out


def _backward(cg, edge_prob, player, chosen, reach, resolve_depthwise):
    """One bottom-up pass; ``player``'s edges count with weight 1 when chosen, 0 otherwise. With
    ``resolve_depthwise`` the information sets of each depth are resolved as soon as their children are known."""
    plan = cg.plan()
    starts = cg.depth_start
    mine_edge = cg.edge_owner == player
    val = cg.returns[player].copy()
    for d in range(cg.max_depth - 1, -1, -1):
        nodes = plan["nonterminal"][d]
        if not nodes.size:
            continue
        lo, hi = starts[d + 1], starts[d + 2]
        if resolve_depthwise:
            here = nodes[cg.player[nodes] == player]
            if here.size:
                _resolve(cg, val, reach, player, chosen, np.unique(cg.infoset[here]))
        own = mine_edge[lo:hi]
        weight = np.where(own, chosen[np.maximum(cg.edge_slot[lo:hi], 0)], edge_prob[lo:hi])
        val[nodes] = np.add.reduceat(weight * val[lo:hi], plan["child_offsets"][d])
    return val


def _resolve(cg, val, reach, player, chosen, infos):
    """Fix the best action of each information set in ``infos`` from the children values in ``val``."""
    if not infos.size:
        return
    edges = cg.plan()["player_edges"][player]
    in_set = np.zeros(cg.num_infosets, dtype=bool)
    in_set[infos] = True
    edges = edges[in_set[cg.infoset[cg.parent[edges]]]]
    slots = cg.edge_slot[edges]
    q = np.bincount(slots, weights=reach[cg.parent[edges]] * val[edges], minlength=cg.num_slots)
    starts = cg.infoset_slot_start[infos]
    ends = cg.infoset_slot_start[infos + 1]
    counts = ends - starts
    # Gather each information set's slots into one flat run, then take the first maximum of each run.
    run = np.repeat(starts - np.cumsum(np.concatenate(([0], counts[:-1]))), counts) + np.arange(counts.sum())
    offsets = np.concatenate(([0], np.cumsum(counts)[:-1]))
    qrun = q[run]
    best = np.maximum.reduceat(qrun, offsets)
    is_best = qrun == np.repeat(best, counts)
    position = np.where(is_best, np.arange(run.size), run.size)
    first = np.minimum.reduceat(position, offsets)
    chosen[run[first]] = True


def nash_conv(cg: CompiledGame, policy: np.ndarray) -> float:
    """Sum over players of what a unilateral best response gains against ``policy`` (0 at a Nash equilibrium)."""
    policy = _check_policy(cg, policy)
    ev = expected_values(cg, policy)
    return float(sum(best_response_value(cg, policy, p) - ev[p] for p in range(cg.num_players)))


def exploitability(cg: CompiledGame, policy: np.ndarray) -> float:
    """Mean best-response gain per player, as ``pyspiel.exploitability`` defines it for two-player constant-sum
    games: ``(sum of best-response values - utility sum) / players``."""
    policy = _check_policy(cg, policy)
    utility_sum = _utility_sum(cg)
    total = sum(best_response_value(cg, policy, p) for p in range(cg.num_players))
    return float((total - utility_sum) / cg.num_players)


def _utility_sum(cg: CompiledGame) -> float:
    terms = cg.returns[:, cg.kind == TERMINAL].sum(axis=0)
    if terms.size and np.ptp(terms) > 1e-9:
        raise ValueError(
            f"{cg.game} is not constant-sum (terminal utility sums range over {terms.min()}..{terms.max()}); "
            "exploitability is defined for constant-sum games; use nash_conv"
        )
    return float(terms[0]) if terms.size else 0.0
