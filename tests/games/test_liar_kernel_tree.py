"""The Liar kernel producer compiles the same tree as the pyspiel walk: every array of the two
:class:`~cfr.tree.CompiledGame` objects equal (dtype included), and the same information-state strings in the same
order, on the reduced variants of ``reports/solve_liar.toml`` and a few more small ones that move the rules' options."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from tree_checks import assert_same_tree

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr.tree import TreeTooLargeError
from trustme_analysis.games.liar.kernel.tree import compile_tree

VARIANTS = [
    # reports/solve_liar.toml (seat 0 starts)
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,first_player=seat0)",
    "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,mode=trustme,first_player=seat0)",
    # More small ones: three players, pickups seen by the picker, last cards covered, forbidden announcements,
    # points utility, another fixed first player. Three draw the first player at a chance node that every player
    # sees (the default, first_player=random).
    "trustme_liar(players=3,values=3,copies=2,max_play=1,max_turns=5)",
    ("trustme_liar(players=2,values=3,copies=3,max_play=2,max_turns=5,last_cards=until_covered,"
     "false_card_accepted=round_end,mode=trustme,utility=points)"),
    "trustme_liar(players=2,values=4,copies=2,max_play=1,max_turns=4,announce_gone=forbidden,first_player=seat1)",
    "trustme_liar(players=2,values=2,copies=2,max_play=2,max_turns=8)",
]


@pytest.mark.parametrize("game_string", VARIANTS)
def test_kernel_tree_equals_pyspiel_tree(game_string):
    game = pyspiel.load_game(game_string)
    kernel = compile_tree(game)
    engine = cfr.compile_game(game)
    assert_same_tree(kernel, engine)
    assert list(kernel.infoset_keys) == list(engine.infoset_keys)
    assert kernel.parent.size > 100


def test_kernel_tree_refuses_past_max_histories():
    game = pyspiel.load_game(VARIANTS[0])
    with pytest.raises(TreeTooLargeError, match="max_histories=50"):
        compile_tree(game, max_histories=50)


def test_kernel_tree_refuses_other_games():
    with pytest.raises(TypeError, match="trustme_liar"):
        compile_tree(pyspiel.load_game("kuhn_poker"))


def test_solve_compiles_liar_through_its_kernel_and_says_so(tmp_path):
    from trustme_analysis.solve.run import ENGINE_PRODUCER, run_solve, tree_producer
    from trustme_analysis.solve.spec import parse_solve

    game_string = "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=3)"
    produce, name = tree_producer(pyspiel.load_game(game_string))
    assert produce is not None and name != ENGINE_PRODUCER
    spec = parse_solve({"name": "k", "game": game_string, "algorithm": "cfr", "iterations": 2, "eval_every": 2})
    result = run_solve(spec, tmp_path, quiet=True)
    assert result["compiled_by"] == name
    # Kuhn poker has no registry entry: the pyspiel walk compiles it.
    assert tree_producer(pyspiel.load_game("kuhn_poker")) == (None, ENGINE_PRODUCER)


def test_kernel_keys_are_read_off_the_finished_tree_in_any_order():
    game = pyspiel.load_game(VARIANTS[2])
    kernel = compile_tree(game)
    engine = cfr.compile_game(game)
    keys = kernel.infoset_keys
    assert len(keys) == kernel.num_infosets
    # Backwards, so the keys' cache is not filled in order: each key replays a history of its own information set.
    for i in range(len(keys) - 1, -1, -1):
        assert keys[i] == engine.infoset_keys[i]
    assert keys[-1] == engine.infoset_keys[len(keys) - 1]
    assert keys[2:4] == [engine.infoset_keys[2], engine.infoset_keys[3]]
    with pytest.raises(IndexError, match="out of range"):
        keys[len(keys)]


def test_record_keys_name_the_enumerators_information_sets():
    from cfr.engine_keys import RecordKeys
    from trustme_analysis.games.liar.kernel import layout
    from trustme_analysis.games.liar.kernel import tree as kernel_tree

    game = pyspiel.load_game(VARIANTS[4])
    cfg = layout.rules_array(game)
    splits = np.asarray(game.deal_table.splits, dtype=np.int64).reshape(-1, game.rules.players)
    _, depth, _, infoset, action, *_ = kernel_tree.enumerate_tree(cfg, layout.build_tables(cfg), splits, 10**6)
    record = {"depth": depth, "infoset": infoset, "action": action}
    raw = RecordKeys(game, record, int(infoset.max()) + 1)
    engine_keys = set(cfr.compile_game(game).infoset_keys)
    # The raw ids number information sets by first appearance, each with its own string.
    names = [raw[m] for m in range(len(raw))]
    assert len(set(names)) == len(names) == len(engine_keys)
    assert set(names) == engine_keys
