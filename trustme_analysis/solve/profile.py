"""A policy profile on a compiled tree, seen from the game: replayed states, decision points, bots as policies.

The solvers work on :class:`cfr.CompiledGame` slot arrays and never keep pyspiel states. Statistics in the
rulebook's words and bots that read ``player_view`` need real states, so :func:`replay` rebuilds the states of chosen
histories from the recorded actions, sharing common prefixes (each history is one ``child``/``apply_action`` away from
its parent, never replayed from the root on its own).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pyspiel

from cfr import passes
from cfr.compile import DECISION, CompiledGame
from trustme_analysis.solve.strategy import DecisionPoint


def replay(cg: CompiledGame, nodes: Iterable[int]) -> dict[int, pyspiel.State]:
    """Fresh pyspiel states of the given histories (node indices of ``cg``), replayed from the root.

    Every returned state is its own object (nothing else holds or mutates it).
    """
    targets = {int(n) for n in nodes}
    needed: set[int] = set()
    for n in targets:
        while n >= 0 and n not in needed:
            needed.add(n)
            n = int(cg.parent[n])
    children: dict[int, list[int]] = {}
    for n in sorted(needed):
        if n:
            children.setdefault(int(cg.parent[n]), []).append(n)
    out: dict[int, pyspiel.State] = {}
    stack = [(0, cg.game.new_initial_state())]
    while stack:
        node, state = stack.pop()
        kids = children.get(node, [])
        if node in targets:
            out[node] = state
            # The stored state must stay as it is: every child is a new clone.
            for kid in kids:
                stack.append((kid, state.child(int(cg.edge_action[kid]))))
            continue
        for kid in kids[:-1]:
            stack.append((kid, state.child(int(cg.edge_action[kid]))))
        if kids:
            # The last child reuses this (no longer needed) state: one clone saved per branching node.
            state.apply_action(int(cg.edge_action[kids[-1]]))
            stack.append((kids[-1], state))
    return out


class Representatives:
    """Replayed states of the first history of information sets, replayed once and shared by the functions below
    (each otherwise replays its own; a solve calls them once per line-up, seat and simple strategy). Read-only: the
    states are handed to bots and rules, which must not change them."""

    def __init__(self, cg: CompiledGame):
        self.cg = cg
        self.by_infoset = infoset_nodes(cg)
        self._states: dict[int, pyspiel.State] = {}

    def states(self, infosets: Iterable[int]) -> dict[int, pyspiel.State]:
        """Node -> state of the first history of each of ``infosets`` (replaying the missing ones together)."""
        nodes = [int(self.by_infoset[i][0]) for i in infosets]
        missing = [n for n in nodes if n not in self._states]
        if missing:
            self._states.update(replay(self.cg, missing))
        return {n: self._states[n] for n in nodes}


def infoset_nodes(cg: CompiledGame) -> list[np.ndarray]:
    """The histories (decision nodes) of every information set, in node order."""
    dec = np.flatnonzero(cg.kind == DECISION)
    order = np.argsort(cg.infoset[dec], kind="stable")
    dec = dec[order]
    bounds = np.searchsorted(cg.infoset[dec], np.arange(cg.num_infosets + 1))
    return [dec[bounds[i] : bounds[i + 1]] for i in range(cg.num_infosets)]


def decision_points(
    cg: CompiledGame, policy: np.ndarray, players: Iterable[int] | None = None, histories: str = "all",
    shared: Representatives | None = None,
) -> list[DecisionPoint]:
    """One :class:`DecisionPoint` per information set of ``players`` (default: all) under the profile ``policy``.

    Args:
        cg: the compiled tree.
        policy: the profile as a slot array.
        players: whose decisions to list.
        histories: ``"all"`` replays every history of every information set (what statistics that condition on
            hidden facts need), ``"reached"`` only those with positive reach (plus one representative), ``"one"``
            a single representative per information set (cheapest).
        shared: representative states already replayed (used with ``histories="one"``).

    Returns:
        The decision points in information-set order; ``action_values`` hold the expected utility to the acting
        player of each action, the histories weighted by everyone else's reach (for an information set the policy
        reaches, that is the conditional expected value of taking the action there).
    """
    if histories not in ("all", "reached", "one"):
        raise ValueError(f"histories={histories!r} is not allowed; allowed: 'all', 'reached', 'one'")
    policy = np.asarray(policy, dtype=np.float64)
    wanted = set(range(cg.num_players)) if players is None else {int(p) for p in players}
    edge_prob = passes.edge_probabilities(cg, policy)
    reach = passes.reach_of(cg, edge_prob)
    values = passes.values(cg, edge_prob)
    by_infoset = infoset_nodes(cg)
    action_values = np.full(cg.num_slots, np.nan)
    plan = cg.plan()
    for p in sorted(wanted):
        others = passes.reach_excluding(cg, edge_prob, p)
        edges = plan["player_edges"][p]
        par = cg.parent[edges]
        slots = cg.edge_slot[edges]
        num = np.bincount(slots, weights=others[par] * values[p, edges], minlength=cg.num_slots)
        den = np.bincount(slots, weights=others[par], minlength=cg.num_slots)
        lo, hi = cg.player_slots[p], cg.player_slots[p + 1]
        ok = den[lo:hi] > 0
        action_values[lo:hi][ok] = num[lo:hi][ok] / den[lo:hi][ok]
    infos = [i for i in range(cg.num_infosets) if int(cg.infoset_player[i]) in wanted]
    chosen: dict[int, list[int]] = {}
    for i in infos:
        nodes = by_infoset[i]
        if histories == "one":
            keep = nodes[:1]
        elif histories == "reached":
            keep = nodes[reach[nodes] > 0]
            if not keep.size:
                keep = nodes[:1]
        else:
            keep = nodes
        chosen[i] = [int(n) for n in keep]
    if histories == "one" and shared is not None:
        states = shared.states(infos)
    else:
        states = replay(cg, (n for ns in chosen.values() for n in ns))
    out = []
    for i in infos:
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        nodes = by_infoset[i]
        out.append(
            DecisionPoint(
                player=int(cg.infoset_player[i]),
                info_state=cg.infoset_keys[i],
                actions=[int(a) for a in cg.slot_action[lo:hi]],
                probs=policy[lo:hi].copy(),
                reach=float(reach[nodes].sum()),
                histories=[(states[n], float(reach[n])) for n in chosen[i]],
                action_values=action_values[lo:hi].copy(),
            )
        )
    return out


def bots_policy(
    cg: CompiledGame,
    bots: Mapping[int, object],
    base: np.ndarray | None = None,
    shared: Representatives | None = None,
) -> np.ndarray:
    """The profile in which each seat in ``bots`` plays its bot's stated mixed strategy.

    Args:
        cg: the compiled tree.
        bots: seat -> a :class:`~trustme_analysis.players.base.TrustMeBot` that implements ``action_probabilities``.
        base: the slot array for the seats not in ``bots`` (default uniform).
        shared: representative states already replayed.

    Raises:
        NotImplementedError: a bot does not state its action probabilities.
        ValueError: a bot's probabilities name an illegal action or do not sum to 1.
    """
    out = cg.uniform_policy() if base is None else np.array(base, dtype=np.float64)
    shared = shared if shared is not None else Representatives(cg)
    by_infoset = shared.by_infoset
    seats = {int(p) for p in bots}
    infos = [i for i in range(cg.num_infosets) if int(cg.infoset_player[i]) in seats]
    states = shared.states(infos)
    for i in infos:
        p = int(cg.infoset_player[i])
        bot = bots[p]
        state = states[int(by_infoset[i][0])]
        probs = bot.action_probabilities(state)
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        legal = [int(a) for a in cg.slot_action[lo:hi]]
        extra = sorted(set(int(a) for a in probs) - set(legal))
        if extra:
            raise ValueError(f"bot {getattr(bot, 'kind', bot)!r} (seat {p}) gives probability to illegal action(s) "
                             f"{extra} at {cg.infoset_keys[i]!r}; legal: {legal}")
        row = np.array([float(probs.get(a, 0.0)) for a in legal])
        if np.any(row < -1e-12) or abs(row.sum() - 1.0) > 1e-9:
            raise ValueError(f"bot {getattr(bot, 'kind', bot)!r} (seat {p}) states probabilities summing to "
                             f"{row.sum()!r} at {cg.infoset_keys[i]!r}; they must be >= 0 and sum to 1")
        out[lo:hi] = row
    return out


def rule_choices(cg: CompiledGame, player: int, rule,
                 shared: Representatives | None = None) -> dict[int, list[int]]:
    """Where a simple rule applies to ``player``'s decisions: information set index -> the legal actions it prefers
    there (information sets where it says nothing, or prefers no legal action, are left out; ``shared``:
    representative states already replayed)."""
    shared = shared if shared is not None else Representatives(cg)
    by_infoset = shared.by_infoset
    lo_i, hi_i = cg.player_infosets[player], cg.player_infosets[player + 1]
    states = shared.states(range(lo_i, hi_i))
    out: dict[int, list[int]] = {}
    for i in range(lo_i, hi_i):
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        legal = [int(a) for a in cg.slot_action[lo:hi]]
        preferred = rule(states[int(by_infoset[i][0])], player, legal)
        if preferred is None:
            continue
        preferred = [a for a in legal if a in set(preferred)]
        if preferred:
            out[i] = preferred
    return out


def rule_policy(cg: CompiledGame, base: np.ndarray, player: int, rule,
                choices: dict[int, list[int]] | None = None) -> tuple[np.ndarray, int]:
    """``base`` with ``player``'s decisions replaced by a simple rule where the rule applies.

    Args:
        choices: the rule's :func:`rule_choices` for ``player``, when already computed.

    Returns:
        The new profile and the number of ``player``'s information sets where the rule applied.
    """
    out = np.array(base, dtype=np.float64)
    if choices is None:
        choices = rule_choices(cg, player, rule)
    for i, preferred in choices.items():
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        legal = [int(a) for a in cg.slot_action[lo:hi]]
        # Among the preferred actions, keep the base policy's own proportions (uniform where it gives them none):
        # "never bluff" then means the solved policy with its tall tales removed, not a new policy.
        mask = np.array([a in preferred for a in legal])
        kept = np.where(mask, out[lo:hi], 0.0)
        out[lo:hi] = kept / kept.sum() if kept.sum() > 0 else mask / mask.sum()
    return out, len(choices)
