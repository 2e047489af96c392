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

from cfr import kernels, passes
from cfr.tree import TERMINAL, CompiledGame


def _check_policy(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    policy = np.ascontiguousarray(policy, dtype=np.float64)
    if policy.shape != (cg.num_slots,):
        raise ValueError(f"policy has shape {policy.shape}; allowed: ({cg.num_slots},), one entry per slot of {cg.game}")
    return policy


def expected_values(cg: CompiledGame, policy: np.ndarray) -> np.ndarray:
    """Expected utility of every player at the root when everyone plays ``policy``."""
    policy = _check_policy(cg, policy)
    val = np.empty(cg.num_nodes, dtype=np.float64)
    return np.asarray([passes.policy_values(cg, policy, p, out=val)[0] for p in range(cg.num_players)])


def best_response_value(cg: CompiledGame, policy: np.ndarray, player: int, by_level: bool | None = None) -> float:
    """Value to ``player`` of a best response against the others' part of ``policy``.

    Args:
        cg: the compiled game.
        policy: the profile (slot array); ``player``'s own entries are ignored.
        player: the best-responding player.
        by_level: force the general level-by-level method (True) or the single pass (False); by default the single
            pass is used exactly when every information set of ``player`` lies at one depth.
    """
    value, _ = _best_choices(cg, _check_policy(cg, policy), player, by_level)
    return value


def best_response(
    cg: CompiledGame, policy: np.ndarray, player: int, by_level: bool | None = None
) -> tuple[float, np.ndarray]:
    """Best-response value of ``player`` and the pure best response as a slot array (1 on the chosen actions of
    ``player``'s information sets, 0 on the other slots, ``policy`` elsewhere). Ties go to the first action."""
    policy = _check_policy(cg, policy)
    value, chosen = _best_choices(cg, policy, player, by_level)
    out = policy.copy()
    lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
    out[lo:hi] = 0.0
    picks = chosen[cg.player_infosets[player] : cg.player_infosets[player + 1]]
    out[picks[picks >= 0]] = 1.0
    return value, out


def _best_choices(cg: CompiledGame, policy: np.ndarray, player: int, by_level: bool | None) -> tuple[float,
                                                                                                   np.ndarray]:
    """Best-response value of ``player`` and the chosen slot of each information set (``-1`` for the others' and
    unreached ones); the value alone needs no copy of the profile."""
    if not 0 <= player < cg.num_players:
        raise ValueError(f"player={player!r} is not allowed; allowed: 0 to {cg.num_players - 1}")
    reach = passes.policy_reach_excluding(cg, policy, player)
    val = np.empty(cg.num_nodes, dtype=np.float64)
    q = np.zeros(cg.num_slots, dtype=np.float64)
    chosen = np.full(cg.num_infosets, -1, dtype=np.int64)
    if by_level is None:
        by_level = not bool(cg.infoset_uniform_depth[player])
    args = (cg.child_start, cg.child_count, cg.player, cg.infoset, cg.edge_slot, cg.utility_index, cg.utilities,
            policy, cg.chance_prob, cg.infoset_slot_start, int(player))
    if by_level:
        mine = cg.infoset_player == player
        top = int(cg.infoset_level[mine].max(initial=-1))
        for lv in range(top, -1, -1):
            kernels.best_response_values(*args, chosen, val)
            kernels.resolve_level(cg.child_start, cg.child_count, cg.player, cg.infoset, cg.edge_slot,
                                  cg.infoset_level, cg.infoset_slot_start, int(player), lv, reach, val, q, chosen)
        value = kernels.best_response_values(*args, chosen, val)
    else:
        value = kernels.best_response_depthwise(cg.depth_start, cg.child_start, cg.child_count, cg.player, cg.infoset,
                                                cg.edge_slot, cg.utility_index, cg.utilities, policy, cg.chance_prob,
                                                cg.infoset_slot_start, int(player), reach, val, q, chosen)
    del reach, val, q
    return float(value), chosen


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
    used = np.zeros(cg.utilities.shape[0], dtype=bool)
    used[cg.utility_index[cg.kind == TERMINAL]] = True
    terms = cg.utilities[used].sum(axis=1)
    if terms.size and np.ptp(terms) > 1e-9:
        raise ValueError(
            f"{cg.game} is not constant-sum (terminal utility sums range over {terms.min()}..{terms.max()}); "
            "exploitability is defined for constant-sum games; use nash_conv"
        )
    return float(terms[0]) if terms.size else 0.0
