"""The Pinocchio kernel producer compiles the same tree as the pyspiel walk: every array of the two
:class:`~cfr.tree.CompiledGame` objects equal (dtype included), and the same information-state strings in the same
order, on the two-player variants of ``reports/solve_pinocchio.toml`` and small variants that move the rules' options
(three and four players, hidden and sequential votes, the Coin variant, two days with a reshuffle, other utilities)."""

from __future__ import annotations

import pyspiel
import pytest
from tree_checks import assert_same_tree

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr.tree import TreeTooLargeError
from trustme_analysis.games.pinocchio.kernel.tree import compile_tree

VARIANTS = [
    # reports/solve_pinocchio.toml: park_two, park_one
    ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,"
     "runouts_to_end=1)"),
    ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=1,stacks=1/1/1,chart=1/3/6,"
     "runouts_to_end=1)"),
    # Three players, simultaneous votes (hidden until all are cast; a split vote tosses the Coin).
    "trustme_pinocchio(players=3,values=3,copies=2,park_size=1,stacks=1/1/1,chart=1/3/6,runouts_to_end=1)",
    # Three players, votes seen in turn, raw scores.
    ("trustme_pinocchio(players=3,values=2,copies=3,park_size=1,stacks=1/1,chart=1/3,runouts_to_end=1,"
     "voting=sequential,utility=score)"),
    # The 4-Player Coin Variant (offers and tosses), no starting hands.
    ("trustme_pinocchio(players=4,values=2,copies=2,park_size=2,hand_size=0,stacks=1/1,chart=1/3,runouts_to_end=1,"
     "coin_variant=True)"),
    # Two days, the discard pile reshuffled when a draw finds the deck empty, the score difference.
    ("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,chart=1/3,"
     "runouts_to_end=2,empty_deck=reshuffle,utility=score_diff)"),
    # The house rule: chance picks the first seat at set-up (every player sees it).
    ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=1,stacks=1/1/1,chart=1/3/6,"
     "runouts_to_end=1,first_player=random)"),
]


@pytest.mark.parametrize("game_string", VARIANTS)
def test_kernel_tree_equals_pyspiel_tree(game_string):
    game = pyspiel.load_game(game_string)
    kernel = compile_tree(game, 10**6)
    engine = cfr.compile_game(game)
    assert_same_tree(kernel, engine)
    assert list(kernel.infoset_keys) == list(engine.infoset_keys)
    assert kernel.parent.size > 500


def test_kernel_tree_refuses_past_max_histories():
    game = pyspiel.load_game(VARIANTS[0])
    with pytest.raises(TreeTooLargeError, match="max_histories=50"):
        compile_tree(game, max_histories=50)


def test_kernel_tree_refuses_other_games():
    with pytest.raises(TypeError, match="trustme_pinocchio"):
        compile_tree(pyspiel.load_game("kuhn_poker"), 10**6)


def test_kernel_tree_cache_is_keyed_by_the_kernel_source():
    """The enumerator's cached code embeds the compiled core's modules', cfr.trie's and the draw primitives': its cache
    must go stale when they change. Each module of the core ties its own functions to every module they reach."""
    import cfr.trie
    from cfr.numba_cache import source_digest
    from trustme_analysis.engine import compiled_draws
    from trustme_analysis.games.pinocchio.kernel import core as kernel_core
    from trustme_analysis.games.pinocchio.kernel import (
        heuristic, layout, play, queries, scoring, search, turn, worlds,
    )
    from trustme_analysis.games.pinocchio.kernel import tree as kernel_tree

    sections = (layout, queries, scoring, turn, worlds, heuristic, play, search)
    assert set(kernel_core.SOURCES) == {*sections, compiled_draws}
    stamp = kernel_tree.enumerate_tree._cache._cache_file._source_stamp
    assert stamp[1] == source_digest(*kernel_core.SOURCES, cfr.trie)
    # What each module's functions compile in: the modules they call, and what those call in turn.
    expected = {
        queries: {layout, compiled_draws},
        scoring: {layout},
        turn: {layout, scoring},
        worlds: {layout, compiled_draws},
        heuristic: {layout, queries, compiled_draws},
        # (the play-out loops are kernel.trained_rollouts' now: play keeps the random seat and the records, search the
        # vote evidence)
        play: {layout, queries, compiled_draws},
        search: {layout, queries, scoring, turn, worlds, heuristic, compiled_draws},
    }
    for module, reached in expected.items():
        sources = layout.reaches(module.__name__)
        assert sources[0] is module and set(sources[1:]) == reached, module.__name__
        compiled = [f for f in vars(module).values() if getattr(getattr(f, "py_func", None), "__module__", None)
                    == module.__name__]
        assert compiled, module.__name__
        for fn in compiled:
            assert fn._cache._cache_file._source_stamp[1] == source_digest(*sources), (module.__name__, fn.__name__)


def test_solve_compiles_pinocchio_through_its_kernel_and_says_so(tmp_path):
    from trustme_analysis.solve.run import ENGINE_PRODUCER, run_solve, tree_producer
    from trustme_analysis.solve.spec import parse_solve

    game_string = VARIANTS[5]
    produce, name = tree_producer(pyspiel.load_game(game_string))
    assert produce is not None and name != ENGINE_PRODUCER
    spec = parse_solve({"name": "k", "game": game_string, "algorithm": "cfr", "iterations": 2, "eval_every": 2})
    result = run_solve(spec, tmp_path, quiet=True)
    assert result["compiled_by"] == name
