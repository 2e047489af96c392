"""The compiled investing round (``board1981.kernel.investment_tree``) against the engine
(``board1981.engine.investment``).

1. Lock step: over every history of several variants, the compiled state and the pyspiel state agree on the player to
   act, the legal actions, the chance outcomes and their probabilities (exactly), and the returns.
2. The kernel producer compiles the same tree as the pyspiel walk: every array of the two
   :class:`~cfr.tree.CompiledGame` objects equal (dtype included), and the same information-state strings in the same
   order, on the presets, the variants of ``reports/solve_1981.toml`` and ``reports/solve_1981_lots.toml`` (the
   four-player one, 0.71 million histories, replaced by a smaller four-player variant) and variants that move every
   parameter (buy max, per-player looks, money and shares, another claimant, every utility).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from tree_checks import assert_same_tree

import cfr
import trustme_analysis  # noqa: F401  (registers the games)
from cfr.tree import TreeTooLargeError
from trustme_analysis.games.board1981.engine import investment
from trustme_analysis.games.board1981.kernel import investment_tree as T
from trustme_analysis.games.board1981.engine.investment import PRESETS
from trustme_analysis.games.board1981.kernel.investment import compile_tree, rules_array
from trustme_analysis.registry import find_game

G = "trustme_1981_investment"
#: Variants that move what the presets do not: buy max, a claimant other than seat 0, looks fixed at 0 or 100 beside
#: chance ones, uneven money and shares (some seats without shares or money), win/loss utility, no look at all.
MOVED = [
    (f"{G}(players=4,claimant=2,payoff_mix=3/2/1/2,seen_each=0/100/50/50,money_each=3/6/2/4,shares_each=2/0/5/3,"
     "lots=1/2/5,buy_max=true,utility=win_loss)"),
    (f"{G}(players=3,claimant=1,payoff_mix=2/0/1/1,seen_each=100/30/0,money_each=4/1/7,shares_each=0/3/2,lots=2/3,"
     "buy_max=true,utility=win_loss)"),
    f"{G}(players=2,claimant=1,payoff_mix=0/1/0/1,seen=0,money=5,shares=2,lots=1/3,buy_max=true,utility=win_loss)",
    f"{G}(players=3,payoff_mix=1/1/1/1,seen=100,money=2,shares=0,lots=1/2,buy_max=true,utility=wealth)",
]
#: The [[solve]] sections' variants of reports/solve_1981.toml ("duel" and "three" are PRESETS) and the two-player
#: one of reports/solve_1981_lots.toml.
REPORTS = [
    f"{G}(players=2,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/2/3/4/5/6/7/8/9/10,utility=wealth_diff)",
]
VARIANTS = list(PRESETS.values()) + REPORTS + MOVED


def test_phases_and_codes_agree_with_the_engine():
    assert (T.DEAL, T.SEEN, T.INVEST, T.OVER) == (investment.DEAL, investment.SEEN, investment.INVEST,
                                                  investment.OVER)
    assert T.CHANCE_ID == int(pyspiel.PlayerId.CHANCE) and T.TERMINAL_ID == int(pyspiel.PlayerId.TERMINAL)
    assert T.NUM_PAYOFF_KINDS == investment.NUM_PAYOFF_KINDS


def _lock_step(game: pyspiel.Game, R: np.ndarray | None = None) -> int:
    """Walk every history on both sides at once (the compiled side with rules ``R``, the game's by default);
    returns how many were compared."""
    R = rules_array(game) if R is None else R
    n = game.num_players()
    ids = np.empty(64, np.int64)
    probs = np.empty(64, np.float64)
    out = np.empty(n, np.float64)
    root = np.empty(T.STATE_SIZE, np.int64)
    T.init_state(root, R)
    stack = [(game.new_initial_state(), root)]
    seen = 0
    while stack:
        state, s = stack.pop()
        seen += 1
        where = f"history {state.history()}"
        cur = T.current_player(s, R)
        assert cur == state.current_player(), where
        T.returns_into(s, R, out)
        assert out.tolist() == state.returns(), where
        if state.is_terminal():
            continue
        if state.is_chance_node():
            k = T.chance_outcomes(s, R, ids, probs)
            assert list(zip(ids[:k].tolist(), probs[:k].tolist())) == state.chance_outcomes(), where
            actions = ids[:k].tolist()
        else:
            k = T.legal_actions(s, R, ids)
            assert ids[:k].tolist() == state.legal_actions(), where
            actions = ids[:k].tolist()
        for a in actions:
            child = s.copy()
            T.apply_action(child, R, a)
            stack.append((state.child(a), child))
    return seen


@pytest.mark.parametrize("game_string", [PRESETS["tiny"], PRESETS["small"]] + MOVED)
def test_compiled_round_steps_with_the_engine_over_every_history(game_string):
    assert _lock_step(pyspiel.load_game(game_string)) > 50


def test_lock_step_sees_a_wrong_rule():
    """The lock-step walk fails when the compiled rules differ from the engine's (here: the claimant misread)."""
    game = pyspiel.load_game(MOVED[1])
    R = rules_array(game)
    R[T.R_CLAIMANT] = 0
    with pytest.raises(AssertionError, match="history"):
        _lock_step(game, R)


@pytest.mark.parametrize("game_string", VARIANTS)
def test_kernel_tree_equals_pyspiel_tree(game_string):
    game = pyspiel.load_game(game_string)
    kernel = compile_tree(game, 10**6)
    engine = cfr.compile_game(game)
    assert_same_tree(kernel, engine)
    assert list(kernel.infoset_keys) == list(engine.infoset_keys)
    assert kernel.num_nodes > 50


def test_kernel_keys_are_the_engines_for_a_sample_read_in_any_order():
    """Each key is the engine's string of the information set's histories: a sample read backwards, every history
    of each sampled set checked against the engine's string of it."""
    game = pyspiel.load_game(MOVED[0])
    tree = compile_tree(game, 10**6)
    keys = tree.infoset_keys
    sample = list(range(len(keys) - 1, -1, -97))
    got = {m: keys[m] for m in sample}
    paths = {}
    for node in np.flatnonzero(np.isin(tree.infoset, sample)).tolist():
        path, v = [], node
        while v > 0:
            path.append(int(tree.edge_action[v]))
            v = int(tree.parent[v])
        paths.setdefault(int(tree.infoset[node]), []).append(path[::-1])
    assert set(paths) == set(sample)
    for m, histories in paths.items():
        for path in histories:
            state = game.new_initial_state()
            for a in path:
                state.apply_action(a)
            assert state.information_state_string(state.current_player()) == got[m]


def test_kernel_tree_refuses_past_max_histories():
    with pytest.raises(TreeTooLargeError, match="max_histories=50"):
        compile_tree(pyspiel.load_game(PRESETS["small"]), max_histories=50)


def test_kernel_tree_refuses_other_games():
    with pytest.raises(TypeError, match=G):
        compile_tree(pyspiel.load_game("kuhn_poker"), 10**6)


def test_the_kernel_compiles_trees_only():
    """Registered as the round's kernel entry, it plays no seats: sweeps and search players keep the pyspiel path."""
    entry = find_game(G)
    game = pyspiel.load_game(PRESETS["tiny"])
    assert entry.kernel_part("tree_producer") is compile_tree
    assert entry.kernel_part("kernel") is None and not entry.kernel.plays_games()
    assert entry.kernel.tree_producer_name
    assert entry.kernel_reason(game, use="tree") is None
    assert "plays no games" in entry.kernel_reason(game, ("random",))
    assert "plays no games" in entry.kernel_reason(game, ("random",), use="rollout")
    with pytest.raises(TypeError, match="trustme_1981_investment"):
        compile_tree(pyspiel.load_game("trustme_1981(players=2)"), 10**6)


EXAMPLE_CASES = [(name, i) for name in sorted(investment.EXAMPLES) for i in range(len(investment.EXAMPLES[name]))]


@pytest.mark.parametrize("name,index", EXAMPLE_CASES, ids=[f"{n}{i}" for n, i in EXAMPLE_CASES])
def test_every_parameter_example_compiles_the_engines_tree(name, index):
    """Each declared parameter at each of its example values: the producer's tree is the pyspiel walk's."""
    params = investment.EXAMPLES[name][index]
    assert params[name] != investment.DEFAULTS[name]
    game = pyspiel.load_game(G, dict(params))
    assert find_game(G).kernel_reason(game, use="tree") is None
    assert_same_tree(compile_tree(game, 10**6), cfr.compile_game(game))


def test_the_entry_declares_every_parameter_with_examples():
    from trustme_analysis.engine.kernels import EVERY_VALUE

    entry = find_game(G)
    assert set(entry.kernel.parameters) == set(investment.DEFAULTS) == set(investment.EXAMPLES)
    assert entry.parameter_examples is investment.EXAMPLES
    for name, plays in entry.kernel.parameters.items():
        if plays != EVERY_VALUE:
            default = investment.DEFAULTS[name]
            assert default in plays.values, name
            assert {ex[name] for ex in investment.EXAMPLES[name]} == set(plays.values) - {default}, name


def test_solve_compiles_the_round_through_its_kernel_and_says_so(tmp_path):
    from trustme_analysis.solve.run import ENGINE_PRODUCER, run_solve, tree_producer
    from trustme_analysis.solve.spec import parse_solve

    game_string = PRESETS["small"]
    produce, name = tree_producer(pyspiel.load_game(game_string))
    assert produce is not None and name != ENGINE_PRODUCER
    spec = parse_solve({"name": "k", "game": game_string, "algorithm": "cfr", "iterations": 2, "eval_every": 2})
    result = run_solve(spec, tmp_path, quiet=True)
    assert result["compiled_by"] == name


def test_enumerator_cache_is_keyed_by_the_trie_source():
    """The enumerator's cached code embeds cfr.trie's: its cache must go stale when that file changes."""
    import cfr.trie
    from cfr.numba_cache import source_digest

    assert T.enumerate_tree._cache._cache_file._source_stamp[1] == source_digest(cfr.trie)
