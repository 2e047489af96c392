"""Compile a pyspiel game tree once into flat numpy arrays.

Every history of the game becomes one *node*. Nodes are numbered breadth first, so the nodes of one depth form a
contiguous block and the children of one node are contiguous inside the next depth's block. That layout lets one CFR
pass run as a handful of numpy operations per depth: a gather through ``parent`` going down, an ``np.add.reduceat``
over each node's children going up, and an ``np.bincount`` over the *slots* (information-set/action pairs) to
aggregate the histories of an information set.

The walk uses only the generic pyspiel API (``current_player``, ``legal_actions``, ``chance_outcomes``,
``information_state_string``, ``returns``, ``child``), so C++ games and Python games (the Trust Me engines) compile
the same way. A Python game pays one Python call per pyspiel call, which is why the tree is walked exactly once and
everything a solver needs later is recorded here.

Slots are ordered by player (all of player 0's slots, then player 1's, ...), and an information set's slots are
contiguous in the order of its legal actions, so a player's strategy is one contiguous slice of a flat array.
"""

from __future__ import annotations

import time
from array import array
from dataclasses import dataclass, field

import numpy as np
import pyspiel

#: Default refusal threshold for :func:`compile_game` (number of histories).
DEFAULT_MAX_HISTORIES = 5_000_000

TERMINAL = 0
CHANCE = 1
DECISION = 2


class TreeTooLargeError(ValueError):
    """The game tree has more histories than the configured limit."""


class UnsupportedGameError(ValueError):
    """The game is not a sequential, perfect-recall game with explicit chance that the compiler can walk."""


@dataclass
class CompiledGame:
    """A game tree as flat arrays (see the module docstring for the layout).

    Attributes:
        game: the pyspiel game that was compiled.
        num_players: number of players ``P``; index ``P`` stands for chance in ``edge_owner``.
        depth_start: ``depth_start[d]:depth_start[d + 1]`` are the nodes at depth ``d``.
        parent: parent node of every node (``-1`` for the root).
        kind: ``TERMINAL``, ``CHANCE`` or ``DECISION`` per node.
        player: acting player per node (``-1`` for terminal, ``P`` for chance).
        infoset: information set of every decision node (``-1`` elsewhere).
        child_start: first child of every node (children are contiguous; ``-1`` for terminals); ``child_count``
            how many.
        edge_owner: who chose the edge into each node (the parent's player; ``-1`` for the root).
        edge_slot: slot of the edge into each node when the parent is a decision node, else ``-1``.
        edge_action: the pyspiel action of the edge into each node (``-1`` for the root).
        chance_prob: probability of the edge into each node when the parent is a chance node, else ``1``.
        returns: ``(P, N)`` utilities of every terminal node (zero elsewhere).
        infoset_player, infoset_keys, infoset_slot_start: owner, information-state string and first slot of every
            information set; ``infoset_slot_start[-1]`` is the number of slots.
        slot_infoset, slot_action: the information set and pyspiel action of every slot.
        player_slots: ``player_slots[p]:player_slots[p + 1]`` are player ``p``'s slots (likewise ``player_infosets``).
        infoset_parent_slot: the player's own previous slot before reaching the information set (``-1`` if none).
        infoset_level: how many own decisions the player made before reaching the information set.
        infoset_uniform_depth: per player, whether every information set's histories share one tree depth (then a
            best response needs a single bottom-up pass).
        compile_seconds: wall time of the walk.
    """

    game: pyspiel.Game
    num_players: int
    depth_start: np.ndarray
    parent: np.ndarray
    kind: np.ndarray
    player: np.ndarray
    infoset: np.ndarray
    child_start: np.ndarray
    child_count: np.ndarray
    edge_owner: np.ndarray
    edge_slot: np.ndarray
    edge_action: np.ndarray
    chance_prob: np.ndarray
    returns: np.ndarray
    infoset_player: np.ndarray
    infoset_keys: list[str]
    infoset_slot_start: np.ndarray
    slot_infoset: np.ndarray
    slot_action: np.ndarray
    player_slots: np.ndarray
    player_infosets: np.ndarray
    infoset_parent_slot: np.ndarray
    infoset_level: np.ndarray
    infoset_uniform_depth: np.ndarray
    compile_seconds: float
    _plan: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ sizes
    @property
    def num_nodes(self) -> int:
        """Number of histories (nodes) in the tree."""
        return int(self.parent.shape[0])

    @property
    def num_infosets(self) -> int:
        """Number of information sets, all players together."""
        return int(self.infoset_player.shape[0])

    @property
    def num_slots(self) -> int:
        """Number of (information set, legal action) pairs, all players together."""
        return int(self.slot_infoset.shape[0])

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (the root has depth 0)."""
        return int(self.depth_start.shape[0] - 2)

    @property
    def nbytes(self) -> int:
        """Bytes held by the numpy arrays of the compiled tree (the information-state strings not counted)."""
        return _nbytes(list(self.__dict__.values()))

    def summary(self) -> dict:
        """Counts, compile time and memory as a plain dict (what ``python -m cfr`` prints)."""
        return {
            "game": str(self.game),
            "histories": self.num_nodes,
            "terminals": int(np.count_nonzero(self.kind == TERMINAL)),
            "infosets_per_player": [int(n) for n in np.diff(self.player_infosets)],
            "slots": self.num_slots,
            "max_depth": self.max_depth,
            "compile_seconds": round(self.compile_seconds, 4),
            "bytes": self.nbytes,
        }

    def infoset_index(self) -> dict[str, int]:
        """Map from information-state string to information-set index."""
        return {key: i for i, key in enumerate(self.infoset_keys)}

    def uniform_policy(self) -> np.ndarray:
        """The uniform random profile as a slot array."""
        counts = np.diff(self.infoset_slot_start)
        return 1.0 / counts[self.slot_infoset]

    # ---------------------------------------------------------- pass planning
    def plan(self) -> dict:
        """Index arrays reused by every pass (built lazily, once)."""
        if self._plan:
            return self._plan
        plan = self._plan
        starts = self.depth_start
        # For depth d: the non-terminal nodes at d and the offsets of their child blocks inside depth d + 1.
        nonterm, offsets = [], []
        for d in range(self.max_depth + 1):
            nodes = np.arange(starts[d], starts[d + 1])
            nodes = nodes[self.kind[nodes] != TERMINAL]
            nonterm.append(nodes)
            offsets.append(self.child_start[nodes] - starts[d + 1] if nodes.size else nodes)
        plan["nonterminal"] = nonterm
        plan["child_offsets"] = offsets
        plan["decision_edges"] = np.flatnonzero(self.edge_slot >= 0)
        plan["terminals"] = np.flatnonzero(self.kind == TERMINAL)
        # Edges out of each player's decision nodes (child node indices), for regret and best-response sums.
        plan["player_edges"] = [
            np.flatnonzero((self.edge_owner == p) & (self.edge_slot >= 0)) for p in range(self.num_players)
        ]
        plan["player_edge_parent"] = [self.parent[e] for e in plan["player_edges"]]
        plan["player_edge_local_slot"] = [
            self.edge_slot[e] - self.player_slots[p] for p, e in enumerate(plan["player_edges"])
        ]
        # A representative history for each information set (all share the owner's own reach by perfect recall).
        rep = np.full(self.num_infosets, -1, dtype=np.int64)
        dec = np.flatnonzero(self.kind == DECISION)
        rep[self.infoset[dec][::-1]] = dec[::-1]
        plan["infoset_rep"] = rep
        # Slots grouped by the owner's level, for the sequence-form (own reach) computation.
        slot_level = self.infoset_level[self.slot_infoset]
        plan["level_slots"] = []
        slot_parent = self.infoset_parent_slot[self.slot_infoset]
        slot_player = self.infoset_player[self.slot_infoset]
        for p in range(self.num_players):
            groups = []
            for lv in range(int(self.infoset_level.max(initial=0)) + 1):
                slots = np.flatnonzero((slot_level == lv) & (slot_player == p))
                if slots.size:
                    groups.append((slots, np.where(slot_parent[slots] >= 0, slot_parent[slots], self.num_slots)))
            plan["level_slots"].append(groups)
        return plan


def _nbytes(value) -> int:
    """Bytes of the numpy arrays inside ``value`` (nested lists, tuples and dicts followed)."""
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(v) for v in value)
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    return 0


def _check_game(game: pyspiel.Game) -> None:
    gtype = game.get_type()
    if gtype.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise UnsupportedGameError(f"{game}: only sequential (turn-based) games compile; got dynamics {gtype.dynamics}")
    if gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise UnsupportedGameError(
            f"{game}: chance outcomes are only sampled, so the tree cannot be enumerated; use the sampling solvers "
            "(algorithm='es-mccfr' or 'os-mccfr')"
        )
    if not gtype.provides_information_state_string:
        raise UnsupportedGameError(f"{game}: the game provides no information_state_string")


def compile_game(
    game: pyspiel.Game | str,
    max_histories: int = DEFAULT_MAX_HISTORIES,
) -> CompiledGame:
    """Walk the whole game tree once and record it as flat arrays.

    Args:
        game: a pyspiel game or a game string such as ``"leduc_poker"``.
        max_histories: refuse (``TreeTooLargeError``) once the walk has seen more histories than this.

    Returns:
        The compiled tree.

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        UnsupportedGameError: the game is simultaneous-move, has only sampled chance, or lacks perfect recall.
    """
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    if not isinstance(max_histories, int) or isinstance(max_histories, bool) or max_histories < 1:
        raise ValueError(f"max_histories={max_histories!r} is not allowed; allowed: an integer >= 1")
    _check_game(game)
    t0 = time.perf_counter()
    num_players = game.num_players()
    chance_index = num_players

    # Depth-first walk: only the states on the current path and their pending siblings are alive at any time (a
    # breadth-first walk would hold a whole level of states, which for Python games can be gigabytes). Nodes are
    # recorded in preorder, then renumbered breadth first below.
    parent = array("q")
    kind = array("b")
    player = array("q")
    infoset = array("q")
    depth = array("q")
    num_children = array("q")
    edge_action = array("q")
    edge_local = array("q")  # index of the action among the parent's legal actions / chance outcomes
    chance_prob = array("d")
    term_nodes = array("q")
    term_returns = array("d")
    key_to_infoset: dict[str, int] = {}
    infoset_player_l: list[int] = []
    infoset_actions: list[list[int]] = []
    infoset_keys: list[str] = []

    # Stack entries: (state, parent id, local index, action, chance probability, depth).
    stack = [(game.new_initial_state(), -1, -1, -1, 1.0, 0)]
    while stack:
        state, par, local, act, prob, dep = stack.pop()
        node = len(kind)
        if node >= max_histories:
            raise TreeTooLargeError(
                f"{game}: the tree exceeds max_histories={max_histories} (reached {node + 1} histories, the walk "
                f"being at depth {dep}); raise max_histories if memory allows, or use the sampling solvers "
                "(algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
            )
        parent.append(par)
        edge_local.append(local)
        edge_action.append(act)
        chance_prob.append(prob)
        depth.append(dep)
        if state.is_terminal():
            kind.append(TERMINAL)
            player.append(-1)
            infoset.append(-1)
            num_children.append(0)
            term_nodes.append(node)
            term_returns.extend(state.returns())
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            kind.append(CHANCE)
            player.append(chance_index)
            infoset.append(-1)
            edges = [(a, p) for a, p in outcomes]
        else:
            cur = state.current_player()
            if cur < 0:
                raise UnsupportedGameError(f"{game}: node with current_player {cur} is not supported")
            key = state.information_state_string(cur)
            actions = state.legal_actions()
            info = key_to_infoset.get(key)
            if info is None:
                info = len(infoset_keys)
                key_to_infoset[key] = info
                infoset_keys.append(key)
                infoset_player_l.append(cur)
                infoset_actions.append(list(actions))
            elif infoset_actions[info] != list(actions):
                raise UnsupportedGameError(
                    f"{game}: information set {key!r} has different legal actions in different histories"
                )
            kind.append(DECISION)
            player.append(cur)
            infoset.append(info)
            edges = [(a, 1.0) for a in actions]
        num_children.append(len(edges))
        # Children are pushed in reverse so that they are visited in action order; the last child reuses the
        # parent state (applied in place), which saves one clone per node.
        children = [state.child(a) for a, _ in edges[:-1]]
        state.apply_action(edges[-1][0])
        children.append(state)
        for index in range(len(edges) - 1, -1, -1):
            stack.append((children[index], node, index, edges[index][0], edges[index][1], dep + 1))

    n = len(kind)
    # Preorder restricted to one depth lists the nodes in the order of their parents and, among siblings, in action
    # order; so a stable sort by depth yields the breadth-first layout with contiguous children.
    depth_dfs = np.frombuffer(depth, dtype=np.int64) if n else np.zeros(0, dtype=np.int64)
    order_nodes = np.argsort(depth_dfs, kind="stable")
    new_of = np.empty(n, dtype=np.int64)
    new_of[order_nodes] = np.arange(n, dtype=np.int64)
    parent_dfs = np.frombuffer(parent, dtype=np.int64)[order_nodes]
    parent_a = np.where(parent_dfs >= 0, new_of[np.maximum(parent_dfs, 0)], -1)
    kind_a = np.frombuffer(kind, dtype=np.int8)[order_nodes].copy()
    player_a = np.frombuffer(player, dtype=np.int64)[order_nodes]
    old_infoset = np.frombuffer(infoset, dtype=np.int64)[order_nodes]
    edge_local_a = np.frombuffer(edge_local, dtype=np.int64)[order_nodes]
    edge_action_a = np.frombuffer(edge_action, dtype=np.int64)[order_nodes]
    chance_prob_a = np.frombuffer(chance_prob, dtype=np.float64)[order_nodes]
    child_count_a = np.frombuffer(num_children, dtype=np.int64)[order_nodes]
    child_start_a = np.full(n, -1, dtype=np.int64)
    firsts = np.flatnonzero(edge_local_a == 0)
    child_start_a[parent_a[firsts]] = firsts
    depth_sorted = depth_dfs[order_nodes]
    depth_start_a = np.searchsorted(depth_sorted, np.arange(int(depth_sorted[-1]) + 2), side="left").astype(np.int64)

    # Renumber information sets so that each player's are contiguous (stable within a player: discovery order).
    ip_old = np.asarray(infoset_player_l, dtype=np.int64)
    order = np.argsort(ip_old, kind="stable")
    new_of_old = np.empty_like(order)
    new_of_old[order] = np.arange(order.size)
    infoset_a = np.where(old_infoset >= 0, new_of_old[np.maximum(old_infoset, 0)], -1)
    infoset_player = ip_old[order]
    keys = [infoset_keys[i] for i in order]
    counts = np.asarray([len(infoset_actions[i]) for i in order], dtype=np.int64)
    slot_start = np.zeros(order.size + 1, dtype=np.int64)
    np.cumsum(counts, out=slot_start[1:])
    slot_infoset = np.repeat(np.arange(order.size, dtype=np.int64), counts)
    slot_action = np.asarray([a for i in order for a in infoset_actions[i]], dtype=np.int64)
    player_infosets = np.searchsorted(infoset_player, np.arange(num_players + 1), side="left").astype(np.int64)
    player_slots = slot_start[player_infosets]

    edge_owner = np.full(n, -1, dtype=np.int64)
    edge_owner[1:] = player_a[parent_a[1:]]
    edge_slot = np.full(n, -1, dtype=np.int64)
    dec_child = np.flatnonzero((parent_a >= 0) & (kind_a[np.maximum(parent_a, 0)] == DECISION))
    dec_child = dec_child[dec_child > 0]
    edge_slot[dec_child] = slot_start[infoset_a[parent_a[dec_child]]] + edge_local_a[dec_child]

    returns = np.zeros((num_players, n), dtype=np.float64)
    if len(term_nodes):
        term_new = new_of[np.frombuffer(term_nodes, dtype=np.int64)]
        returns[:, term_new] = np.frombuffer(term_returns, dtype=np.float64).reshape(-1, num_players).T
    parent_slot, levels, uniform = _own_sequences(
        num_players, depth_start_a, parent_a, player_a, kind_a, infoset_a, edge_owner, edge_slot, order.size, game
    )
    compiled = CompiledGame(
        game=game,
        num_players=num_players,
        depth_start=depth_start_a,
        parent=parent_a,
        kind=kind_a,
        player=player_a,
        infoset=infoset_a,
        child_start=child_start_a,
        child_count=child_count_a,
        edge_owner=edge_owner,
        edge_slot=edge_slot,
        edge_action=edge_action_a,
        chance_prob=chance_prob_a,
        returns=returns,
        infoset_player=infoset_player,
        infoset_keys=keys,
        infoset_slot_start=slot_start,
        slot_infoset=slot_infoset,
        slot_action=slot_action,
        player_slots=player_slots,
        player_infosets=player_infosets,
        infoset_parent_slot=parent_slot,
        infoset_level=levels,
        infoset_uniform_depth=uniform,
        compile_seconds=0.0,
    )
    compiled.plan()
    compiled.compile_seconds = time.perf_counter() - t0
    return compiled


def _own_sequences(num_players, depth_start, parent, player, kind, infoset, edge_owner, edge_slot, num_infosets, game):
    """Each information set's own previous slot and level; checks perfect recall on the way.

    Perfect recall means every history of an information set was reached through the same own previous slot; the
    check compares that slot across the histories and refuses the game otherwise, because both CFR's own-reach
    weighting and the best response rely on it.
    """
    n = parent.shape[0]
    last = np.full((num_players, n), -1, dtype=np.int64)
    for d in range(1, depth_start.shape[0] - 1):
        sl = np.arange(depth_start[d], depth_start[d + 1])
        last[:, sl] = last[:, parent[sl]]
        own = edge_owner[sl]
        mine = (own >= 0) & (own < num_players) & (edge_slot[sl] >= 0)
        last[own[mine], sl[mine]] = edge_slot[sl[mine]]
    dec = np.flatnonzero(kind == DECISION)
    info = infoset[dec]
    prev = last[player[dec], dec]
    parent_slot = np.full(num_infosets, -2, dtype=np.int64)
    parent_slot[info] = prev
    if np.any(parent_slot[info] != prev):
        bad = int(info[np.flatnonzero(parent_slot[info] != prev)[0]])
        raise UnsupportedGameError(
            f"{game}: information set #{bad} is reached through different own actions: the game lacks perfect recall"
        )
    depth = np.searchsorted(depth_start, dec, side="right") - 1
    min_depth = np.full(num_infosets, np.iinfo(np.int64).max, dtype=np.int64)
    max_depth = np.full(num_infosets, -1, dtype=np.int64)
    np.minimum.at(min_depth, info, depth)
    np.maximum.at(max_depth, info, depth)
    infoset_player = np.zeros(num_infosets, dtype=np.int64)
    infoset_player[info] = player[dec]
    uniform = np.ones(num_players, dtype=bool)
    for p in range(num_players):
        mine = infoset_player == p
        uniform[p] = bool(np.all(min_depth[mine] == max_depth[mine]))
    # Level of an information set = level of the information set owning its parent slot + 1, resolved by repeated
    # relaxation (information-set numbers follow discovery order, not level order; at most max-level + 1 rounds).
    levels = np.zeros(num_infosets, dtype=np.int64)
    # slot -> information set is not built yet here, so derive it from the decision nodes' children.
    kids = np.flatnonzero(edge_slot >= 0)
    slot_owner_info_arr = np.full(int(edge_slot.max(initial=-1)) + 1, -1, dtype=np.int64)
    slot_owner_info_arr[edge_slot[kids]] = infoset[parent[kids]]
    has_parent = parent_slot >= 0
    parent_info = np.where(has_parent, slot_owner_info_arr[np.maximum(parent_slot, 0)], -1)
    for _ in range(num_infosets + 1):
        new = np.where(has_parent, levels[np.maximum(parent_info, 0)] + 1, 0)
        if np.array_equal(new, levels):
            break
        levels = new
    return parent_slot, levels, uniform
