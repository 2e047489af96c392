"""Compiled (numba) loops over the nodes of a :class:`~cfr.tree.CompiledGame`.

Breadth-first numbering puts every parent before its children, so a pass down the tree is one loop over the nodes
in increasing order and a pass up one loop in decreasing order; no per-depth temporaries are needed, only one
float64 per history for reaches and one for values.

The probability of the edge into node ``i`` is ``policy[edge_slot[i]]`` for a decision edge and ``chance_prob[i]``
otherwise; the kernels read it on the fly (``use_policy=True``) rather than keep an edge-probability array. With
``use_policy=False`` the caller's ``chance_prob`` argument is a full edge-probability array and ``policy`` is unused.

The hot loops spell that expression out instead of calling a helper: a numba function taking arrays, called once per
history, costs reference counting on every call (measured 20x slower on liars_dice).
"""

from __future__ import annotations

import numba


@numba.njit(cache=True)
def edge_probs(edge_slot, policy, chance_prob, out):
    """``out[i]``: probability of the edge into node ``i`` under ``policy``."""
    for i in range(edge_slot.shape[0]):
        s = edge_slot[i]
        out[i] = policy[s] if s >= 0 else chance_prob[i]


@numba.njit(cache=True)
def forward_reach(parent, edge_owner, edge_slot, policy, chance_prob, use_policy, skip_player, out):
    """Reach probability of every node; the edges of ``skip_player``'s decisions count as 1 (``-1``: none skipped),
    which gives that player's counterfactual reach."""
    n = parent.shape[0]
    if n == 0:
        return
    out[0] = 1.0
    for i in range(1, n):
        if skip_player >= 0 and edge_owner[i] == skip_player and edge_slot[i] >= 0:
            p = 1.0
        else:
            s = edge_slot[i]
            p = policy[s] if use_policy and s >= 0 else chance_prob[i]
        out[i] = out[parent[i]] * p


@numba.njit(cache=True)
def backward_values(child_start, child_count, utility_index, utilities, edge_slot, policy, chance_prob, use_policy,
                    player, out):
    """Expected utility of ``player`` at every node."""
    for i in range(child_start.shape[0] - 1, -1, -1):
        c = child_count[i]
        if c == 0:
            out[i] = utilities[utility_index[i], player]
        else:
            lo = child_start[i]
            v = 0.0
            for j in range(lo, lo + c):
                s = edge_slot[j]
                v += (policy[s] if use_policy and s >= 0 else chance_prob[j]) * out[j]
            out[i] = v


@numba.njit(cache=True)
def cfr_regrets(parent, child_start, child_count, player_of, edge_owner, edge_slot, utility_index, utilities,
                policy, chance_prob, player, slot_lo, reach, val, inst):
    """One CFR evaluation for ``player``: counterfactual reach down, values up, and every slot's instantaneous
    counterfactual regret ``sum over histories h of reach_-i(h) * (v(h a) - v(h))`` added into ``inst`` (indexed
    from the player's first slot ``slot_lo``)."""
    n = parent.shape[0]
    if n == 0:
        return
    reach[0] = 1.0
    for i in range(1, n):
        s = edge_slot[i]
        if s < 0:
            p = chance_prob[i]
        elif edge_owner[i] == player:
            p = 1.0
        else:
            p = policy[s]
        reach[i] = reach[parent[i]] * p
    for i in range(child_start.shape[0] - 1, -1, -1):
        c = child_count[i]
        if c == 0:
            val[i] = utilities[utility_index[i], player]
            continue
        lo = child_start[i]
        v = 0.0
        for j in range(lo, lo + c):
            s = edge_slot[j]
            v += (policy[s] if s >= 0 else chance_prob[j]) * val[j]
        val[i] = v
        if player_of[i] == player:
            r = reach[i]
            for j in range(lo, lo + c):
                inst[edge_slot[j] - slot_lo] += r * (val[j] - v)


@numba.njit(cache=True)
def own_reach(slot_infoset, infoset_parent_slot, policy, lo, hi, out):
    """Sequence-form strategy over slots ``lo:hi`` (one player's): own reach of the information set times the
    action probability. Relies on every parent slot preceding its children's slots (see :mod:`cfr.compile`)."""
    for s in range(lo, hi):
        ps = infoset_parent_slot[slot_infoset[s]]
        w = 1.0 if ps < 0 else out[ps]
        out[s] = w * policy[s]


@numba.njit(cache=True)
def normalise_segments(pos, starts, end, totals, lo, out):
    """``out[s - lo] = pos[s] / totals[k]`` for the slots ``s`` of segment ``k`` (``starts[k]`` to the next start,
    the last one to ``end``); a segment whose total is not positive gets the uniform distribution."""
    m = starts.shape[0]
    for k in range(m):
        a = starts[k]
        b = starts[k + 1] if k + 1 < m else end
        t = totals[k]
        if t > 0:
            for s in range(a, b):
                out[s - lo] = pos[s] / t
        else:
            u = 1.0 / (b - a)
            for s in range(a, b):
                out[s - lo] = u


@numba.njit(cache=True)
def scale_by_sign(values, positive, negative):
    """Multiply every entry of ``values`` in place by ``positive`` where it is > 0, else by ``negative``."""
    for i in range(values.shape[0]):
        v = values[i]
        values[i] = v * (positive if v > 0 else negative)


@numba.njit(cache=True)
def _choose(q, infoset_slot_start, info, chosen):
    lo = infoset_slot_start[info]
    hi = infoset_slot_start[info + 1]
    best = lo
    for s in range(lo + 1, hi):
        if q[s] > q[best]:
            best = s
    chosen[info] = best


@numba.njit(cache=True)
def best_response_depthwise(depth_start, child_start, child_count, player_of, infoset, edge_slot, utility_index,
                            utilities, policy, chance_prob, infoset_slot_start, player, reach, val, q, chosen):
    """Best response of ``player`` when each of its information sets lies at one depth: resolve the information sets
    of each depth (deepest first) from their children's values, first maximum on ties. ``chosen[I]`` receives the
    best slot of each of the player's information sets; returns the root value."""
    num_depths = depth_start.shape[0] - 1
    for d in range(num_depths - 1, -1, -1):
        lo, hi = depth_start[d], depth_start[d + 1]
        for i in range(lo, hi):
            c = child_count[i]
            if c == 0:
                val[i] = utilities[utility_index[i], player]
            elif player_of[i] == player:
                r = reach[i]
                first = child_start[i]
                for j in range(first, first + c):
                    q[edge_slot[j]] += r * val[j]
            else:
                first = child_start[i]
                v = 0.0
                for j in range(first, first + c):
                    s = edge_slot[j]
                    v += (policy[s] if s >= 0 else chance_prob[j]) * val[j]
                val[i] = v
        for i in range(lo, hi):
            if child_count[i] > 0 and player_of[i] == player:
                info = infoset[i]
                if chosen[info] < 0:
                    _choose(q, infoset_slot_start, info, chosen)
                val[i] = val[child_start[i] + chosen[info] - infoset_slot_start[info]]
    return val[0]


@numba.njit(cache=True)
def best_response_values(child_start, child_count, player_of, infoset, edge_slot, utility_index, utilities, policy,
                         chance_prob, infoset_slot_start, player, chosen, val):
    """Values with ``player`` playing its chosen slots; an information set not chosen yet is worth 0 (only used
    for information sets deeper than the level being resolved, whose values are not read)."""
    for i in range(child_start.shape[0] - 1, -1, -1):
        c = child_count[i]
        if c == 0:
            val[i] = utilities[utility_index[i], player]
        elif player_of[i] == player:
            info = infoset[i]
            val[i] = 0.0 if chosen[info] < 0 else val[child_start[i] + chosen[info] - infoset_slot_start[info]]
        else:
            first = child_start[i]
            v = 0.0
            for j in range(first, first + c):
                s = edge_slot[j]
                v += (policy[s] if s >= 0 else chance_prob[j]) * val[j]
            val[i] = v
    return val[0] if val.shape[0] else 0.0


@numba.njit(cache=True)
def resolve_level(child_start, child_count, player_of, infoset, edge_slot, infoset_level, infoset_slot_start,
                  player, level, reach, val, q, chosen):
    """Choose the best slot of every information set of ``player`` at ``level`` from the children's values."""
    n = child_start.shape[0]
    for i in range(n):
        if child_count[i] > 0 and player_of[i] == player and infoset_level[infoset[i]] == level:
            r = reach[i]
            first = child_start[i]
            for j in range(first, first + child_count[i]):
                q[edge_slot[j]] += r * val[j]
    for i in range(n):
        if child_count[i] > 0 and player_of[i] == player:
            info = infoset[i]
            if infoset_level[info] == level and chosen[info] < 0:
                _choose(q, infoset_slot_start, info, chosen)


@numba.njit(cache=True)
def gather_segments(src, src_offsets, order, dst_offsets, out):
    """Copy byte segment ``order[k]`` of ``src`` to segment ``k`` of ``out`` (reordering a key table)."""
    for k in range(order.shape[0]):
        a = src_offsets[order[k]]
        b = dst_offsets[k]
        for j in range(dst_offsets[k + 1] - b):
            out[b + j] = src[a + j]
