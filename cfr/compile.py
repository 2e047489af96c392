"""Compile a game tree once into flat numpy arrays.

Layout
------

Every history of the game becomes one *node*. Nodes are numbered breadth first, so the nodes of one depth form a
contiguous block and the children of one node are contiguous inside the next depth's block (in the order of the
node's legal actions or chance outcomes). A parent therefore always precedes its children: a pass down the tree is
one loop over the nodes in increasing order, a pass up one loop in decreasing order (:mod:`cfr.kernels`).

Slots are (information set, legal action) pairs. Information sets are numbered by player, and within a player by
the preorder (depth-first) position of their first history; an information set's slots are contiguous in the order
of its legal actions. So a player's strategy is one contiguous slice of a flat array, and a player's own previous
slot always precedes the slots it leads to (the sequence-form pass relies on it).

Memory: about 35 bytes per history (node indices int32 below 2**31 histories, kinds and players int8, actions int16
where they fit, one float64 chance probability, an int32 index into a table of distinct terminal utility vectors),
plus the information-state strings once each in a compact :class:`~cfr.tree.KeyTable`. The full-tree solvers add
two float64 work arrays per history, which also hold every slot-sized temporary of an iteration, and three float64
per slot (regrets, average-strategy sums, current strategy; PCFR+ a fourth). ``benchmarks/solve_scale.py`` measures
the peaks.

Producer contract
-----------------

A *producer* enumerates the histories; :func:`cfr.build.from_preorder` turns its record into the
:class:`CompiledGame` (checks, numbering, breadth-first layout, all in compiled loops). :func:`compile_game` below
walks any pyspiel game through its Python API; a compiled game kernel can enumerate its own histories in numba and
fill the same record far faster (``trustme_liar``'s does: ``trustme_analysis.games.liar.kernel_tree``). Both must give the same
``CompiledGame``, array for array. The record lists the ``N`` histories in **depth-first preorder** (a node, then
the subtree of its first child, then of its second, ...; children in the order of ``legal_actions()`` /
``chance_outcomes()``), as a dict of one-dimensional arrays of length ``N``:

============== ============ ==========================================================================================
field          dtype        meaning
============== ============ ==========================================================================================
depth          unsigned int number of actions from the root (root 0; each node at most one deeper than the one before)
player         int8         ``-1`` terminal, ``0..P-1`` the player to act, ``P`` chance
infoset        int32        for decision nodes an id in ``0..M-1`` of the acting player's information state (equal
                            information-state strings <=> equal ids), ``-1`` elsewhere
action         int32        the pyspiel action (or chance outcome) of the edge into the node; ``-1`` for the root
chance_prob    float64      probability of the edge into the node when the parent is a chance node, else exactly 1
utility_index  int32        for terminals a row of ``utilities`` (a ``(K, P)`` float64 array of utility vectors, the
                            pyspiel ``returns()``; rows may be shared), ``-1`` elsewhere
============== ============ ==========================================================================================

plus ``infoset_keys``, a sequence of ``M`` strings: the ``information_state_string`` of each id (a
:class:`~cfr.tree.KeyTable`, a list, or any lazy sequence that builds the string on request). Ids may be assigned in
any order; every id must be used. The finisher refuses, with a message naming the information state or history:
an information state reached by two different players; a chance node without outcomes or a decision node without
legal actions; different legal actions within one information set; imperfect recall. It renumbers the information
sets as described above, so the result does not depend on the producer's id order.
"""

from __future__ import annotations

import time
from array import array

import pyspiel

from cfr.build import from_preorder
from cfr.gameload import load_game
from cfr.tree import (
    CHANCE,
    DECISION,
    DEFAULT_MAX_HISTORIES,
    TERMINAL,
    CompiledGame,
    KeyTable,
    TreeTooLargeError,
    UnsupportedGameError,
)

__all__ = [
    "CHANCE",
    "DECISION",
    "DEFAULT_MAX_HISTORIES",
    "TERMINAL",
    "CompiledGame",
    "KeyTable",
    "TreeTooLargeError",
    "UnsupportedGameError",
    "compile_game",
]

#: Distinct terminal utility vectors kept in a dictionary; past this many the walk stops sharing rows (a game whose
#: utilities are nearly all distinct would otherwise keep a Python tuple per terminal).
_MAX_SHARED_UTILITIES = 1 << 16

_CHANCE_ID = int(pyspiel.PlayerId.CHANCE)

_TURN_BASED_HINT = (
    "load it through the game transform turn_based_simultaneous_game, e.g. "
    "pyspiel.load_game('turn_based_simultaneous_game(game=matrix_rps())'), or call "
    "pyspiel.convert_to_turn_based(game)"
)


def _check_game(game: pyspiel.Game) -> None:
    gtype = game.get_type()
    if gtype.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        raise UnsupportedGameError(
            f"{game}: only sequential (turn-based) games compile; this one is simultaneous-move: {_TURN_BASED_HINT}"
        )
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
    """Walk the whole game tree once through the pyspiel API and record it as flat arrays.

    Args:
        game: a pyspiel game or a game string such as ``"leduc_poker"``.
        max_histories: refuse (``TreeTooLargeError``) once the walk has seen more histories than this.

    Returns:
        The compiled tree.

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        UnsupportedGameError: the game is simultaneous-move, has only sampled chance, lacks perfect recall, shares
            an information state between players, or has a chance node without outcomes.
    """
    if isinstance(game, str):
        game = load_game(game)
    if not isinstance(max_histories, int) or isinstance(max_histories, bool) or max_histories < 1:
        raise ValueError(f"max_histories={max_histories!r} is not allowed; allowed: an integer >= 1")
    _check_game(game)
    t0 = time.perf_counter()
    record, utilities, keys = _walk(game, max_histories)
    return from_preorder(game, game.num_players(), record, utilities, keys, started=t0)


def _walk(game: pyspiel.Game, max_histories: int):
    """The pyspiel producer: a depth-first walk writing the preorder record of :mod:`cfr.compile`'s contract.

    Only the states on the current path and their pending siblings are alive at any time; every history adds 23
    bytes to compact ``array`` buffers and nothing else (information-state strings are stored once per information
    set, terminal utility vectors once per distinct vector).
    """
    import numpy as np

    num_players = game.num_players()
    chance_code = num_players
    depth = array("H")
    player = array("b")
    infoset = array("i")
    action = array("i")
    chance_prob = array("d")
    utility_index = array("i")
    utilities = array("d")
    utility_ids: dict[tuple, int] = {}
    key_ids: dict[str, int] = {}
    key_blob = bytearray()
    key_offsets = array("q", [0])

    # Bound methods bound once: the loop body runs once per history.
    push_depth, push_player, push_infoset = depth.append, player.append, infoset.append
    push_action, push_prob, push_utility = action.append, chance_prob.append, utility_index.append

    stack = [(game.new_initial_state(), 0, -1, 1.0)]
    pop, push = stack.pop, stack.append
    count = 0
    while stack:
        state, dep, act, prob = pop()
        if count >= max_histories:
            raise TreeTooLargeError(
                f"{game}: the tree exceeds max_histories={max_histories} (reached {count + 1} histories, the walk "
                f"being at depth {dep}); raise max_histories if memory allows, or use the sampling solvers "
                "(algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
            )
        if dep > 65535:
            raise UnsupportedGameError(f"{game}: a history is deeper than 65535 actions")
        count += 1
        push_depth(dep)
        push_action(act)
        push_prob(prob)
        if state.is_terminal():
            push_player(-1)
            push_infoset(-1)
            returns = tuple(state.returns())
            row = utility_ids.get(returns)
            if row is None:
                row = len(utilities) // num_players
                utilities.extend(returns)
                if len(utility_ids) < _MAX_SHARED_UTILITIES:
                    utility_ids[returns] = row
            push_utility(row)
            continue
        push_utility(-1)
        # One current_player call tells chance from decision nodes (is_chance_node would be a second call).
        cur = state.current_player()
        if cur == _CHANCE_ID:
            outcomes = state.chance_outcomes()
            if not outcomes:
                raise UnsupportedGameError(
                    f"{game}: the chance node at history {state.history()} has no outcomes; the tree cannot be "
                    "compiled there"
                )
            push_player(chance_code)
            push_infoset(-1)
            actions = [a for a, _ in outcomes]
            probs = [p for _, p in outcomes]
        else:
            if cur < 0:
                hint = f"; {_TURN_BASED_HINT}" if cur == pyspiel.PlayerId.SIMULTANEOUS else ""
                raise UnsupportedGameError(
                    f"{game}: the node at history {state.history()} has current_player {cur}, which is not "
                    f"supported{hint}"
                )
            key = state.information_state_string(cur)
            info = key_ids.get(key)
            if info is None:
                info = len(key_ids)
                key_ids[key] = info
                key_blob += key.encode()
                key_offsets.append(len(key_blob))
            push_player(cur)
            push_infoset(info)
            actions = state.legal_actions()
            if not actions:
                raise UnsupportedGameError(
                    f"{game}: the decision node of player {cur} at history {state.history()} has no legal actions"
                )
            probs = None
        # Children are pushed in reverse so that they are visited in action order; the last child reuses the
        # parent state (applied in place), which saves one clone per node.
        last = len(actions) - 1
        children = [state.child(a) for a in actions[:last]]
        state.apply_action(actions[last])
        children.append(state)
        nxt = dep + 1
        if probs is None:
            for k in range(last, -1, -1):
                push((children[k], nxt, actions[k], 1.0))
        else:
            for k in range(last, -1, -1):
                push((children[k], nxt, actions[k], probs[k]))
    del key_ids, utility_ids
    record = {
        "depth": np.frombuffer(depth, dtype=np.uint16),
        "player": np.frombuffer(player, dtype=np.int8),
        "infoset": np.frombuffer(infoset, dtype=np.int32),
        "action": np.frombuffer(action, dtype=np.int32),
        "chance_prob": np.frombuffer(chance_prob, dtype=np.float64),
        "utility_index": np.frombuffer(utility_index, dtype=np.int32),
    }
    table = np.frombuffer(utilities, dtype=np.float64).reshape(-1, num_players).copy()
    keys = KeyTable(bytes(key_blob), np.frombuffer(key_offsets, dtype=np.int64))
    return record, table, keys
