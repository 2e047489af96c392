"""Compiling pyspiel games to arrays: counts, layout invariants, limits and refusals."""

import numpy as np
import pytest

from cfr.compile import CHANCE, DECISION, TERMINAL, TreeTooLargeError, UnsupportedGameError, compile_game


def test_kuhn_counts_match_the_known_tree():
    cg = compile_game("kuhn_poker")
    # 1 root deal node, 3 second-card chance nodes, 6 deals, then the 4 betting sequences per deal (+ their
    # prefixes): 58 histories, 30 terminals, 6 information sets per player with 2 actions each.
    assert cg.num_nodes == 58
    assert int(np.count_nonzero(cg.kind == TERMINAL)) == 30
    assert np.diff(cg.player_infosets).tolist() == [6, 6]
    assert cg.num_slots == 24
    summary = cg.summary()
    assert summary["histories"] == 58 and summary["infosets_per_player"] == [6, 6]
    assert summary["bytes"] == cg.nbytes > 0
    assert cg.compile_seconds > 0


def test_leduc_counts():
    cg = compile_game("leduc_poker")
    assert cg.num_nodes == 9457
    assert np.diff(cg.player_infosets).tolist() == [468, 468]


def test_layout_invariants():
    cg = compile_game("kuhn_poker(players=3)")
    n = cg.num_nodes
    # Nodes are ordered by depth and every non-root node's parent lies one depth above.
    depth = np.searchsorted(cg.depth_start, np.arange(n), side="right") - 1
    assert np.all(depth[1:] == depth[cg.parent[1:]] + 1)
    # Children are contiguous and point back to their parent.
    for node in range(n):
        kids = np.arange(cg.child_start[node], cg.child_start[node] + cg.child_count[node])
        assert np.all(cg.parent[kids] == node)
    # Chance probabilities of every chance node sum to one; decision edges carry their parent's information set.
    chance_nodes = np.flatnonzero(cg.kind == CHANCE)
    sums = np.bincount(cg.parent[1:], weights=cg.chance_prob[1:], minlength=n)
    assert np.allclose(sums[chance_nodes], 1.0)
    dec_edges = np.flatnonzero(cg.edge_slot >= 0)
    assert np.all(cg.slot_infoset[cg.edge_slot[dec_edges]] == cg.infoset[cg.parent[dec_edges]])
    assert np.all(cg.slot_action[cg.edge_slot[dec_edges]] == cg.edge_action[dec_edges])
    # Slots are grouped by player.
    for p in range(3):
        lo, hi = cg.player_slots[p], cg.player_slots[p + 1]
        assert np.all(cg.infoset_player[cg.slot_infoset[lo:hi]] == p)
    assert np.all(cg.kind[cg.infoset >= 0] == DECISION)


def test_information_state_strings_are_recorded_per_infoset():
    cg = compile_game("kuhn_poker")
    state = cg.game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    key = state.information_state_string(0)
    index = cg.infoset_index()[key]
    assert cg.infoset_player[index] == 0
    starts = cg.infoset_slot_start
    assert cg.slot_action[starts[index] : starts[index + 1]].tolist() == state.legal_actions()


def test_size_limit_refuses_with_size_and_suggestion():
    with pytest.raises(TreeTooLargeError) as info:
        compile_game("leduc_poker", max_histories=1000)
    message = str(info.value)
    assert "max_histories=1000" in message and "mccfr" in message and "reached" in message


def test_bad_limit_value_is_named():
    with pytest.raises(ValueError, match="max_histories=0"):
        compile_game("kuhn_poker", max_histories=0)


def test_simultaneous_game_is_refused():
    with pytest.raises(UnsupportedGameError, match="sequential"):
        compile_game("matrix_rps")


def test_python_game_compiles_like_the_cpp_one():
    py = compile_game("python_kuhn_poker")
    cpp = compile_game("kuhn_poker")
    assert py.num_nodes == cpp.num_nodes
    assert np.diff(py.player_infosets).tolist() == np.diff(cpp.player_infosets).tolist()
    assert sorted(py.returns[0][py.kind == TERMINAL].tolist()) == sorted(cpp.returns[0][cpp.kind == TERMINAL].tolist())
