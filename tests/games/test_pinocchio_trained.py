"""Pinocchio's trained player: the abstraction reads only what its seat may see, and the trained policy is close to
equilibrium on a solved reduced variant (exact exploitability on the compiled tree)."""

import numpy as np
import pyspiel
import pytest

import cfr
from cfr import evaluate
from trustme_analysis.games.pinocchio import kernel
from trustme_analysis.games.pinocchio import kernel_core as K
from trustme_analysis.games.pinocchio.abstraction import info_key_of
from trustme_analysis.games.pinocchio.training import TRAINER
from trustme_analysis.train import TrainSettings, train

PARK_TWO = ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,"
            "chart=1/3/6,runouts_to_end=1)")
FULL = ["trustme_pinocchio(players=2)", "trustme_pinocchio(players=3)",
        "trustme_pinocchio(players=4,coin_variant=True,voting=sequential)"]


def decision_positions(game_string, games, seed):
    """Kernel states at player decisions of random games."""
    kern = kernel.Kernel(pyspiel.load_game(game_string))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        st = kern.new_state()
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                continue
            out.append(st.clone())
            st.apply_action(legal[rng.integers(len(legal))])
    return kern, out


@pytest.mark.parametrize("game_string", FULL)
def test_key_does_not_move_when_hidden_cards_are_redrawn(game_string):
    kern, positions = decision_positions(game_string, 12, 1)
    moved = 0
    for n, st in enumerate(positions):
        p = st.current_player()
        key = info_key_of(st.s, kern.R, p)
        for k in range(3):
            other = st.determinize(p, seed=1000 * n + k)
            assert info_key_of(other.s, kern.R, p) == key
            moved += int(not np.array_equal(other.s[K.HIDDEN_START:K.HIDDEN_END], st.s[K.HIDDEN_START:K.HIDDEN_END]))
    assert moved > len(positions)  # the redraws did change hidden cards


def test_one_information_set_one_key_and_visible_changes_change_it():
    game = pyspiel.load_game(PARK_TWO)
    cg = kernel.compile_tree(game, 10**6)
    R = kernel.rules_array(game)
    groups = TRAINER.tree_states(cg, every=True)
    for i, states in enumerate(groups):
        p = int(cg.infoset_player[i])
        assert len({int(info_key_of(s, R, p)) for s in states}) == 1, cg.infoset_keys[i]
    # visible things change the key: own hand, the Park, Reputations, Tickets, the teller's revealed tales
    kern, positions = decision_positions("trustme_pinocchio(players=3)", 3, 2)
    for st in positions[:40]:
        p = st.current_player()
        key = info_key_of(st.s, kern.R, p)
        for offset in (K.HANDS + p * K.MAXV, K.PARK, K.REPS + p * K.MAXV):
            s = st.s.copy()
            s[offset] = 0 if s[offset] else 1
            assert info_key_of(s, kern.R, p) != key
        # another seat's Reputation counts as the largest set or sequence it could cash
        q = K.REPS + ((p + 1) % 3) * K.MAXV
        s = st.s.copy()
        s[q:q + K.MAXV] = 0
        empty = info_key_of(s, kern.R, p)
        s[q] = 2
        assert info_key_of(s, kern.R, p) != empty
        s = st.s.copy()
        s[K.STACKS] = 0 if s[K.STACKS] else 1
        assert info_key_of(s, kern.R, p) != key
        if int(st.s[K.PHASE]) == K.VOTE:
            rows = K.ROWS + int(st.s[K.ACTIVE]) * 4
            s = st.s.copy()
            s[rows:rows + 4] = 0
            untold = info_key_of(s, kern.R, p)
            s[rows + 2] = 1  # one tall tale revealed
            assert info_key_of(s, kern.R, p) != untold


def test_trained_policy_is_near_equilibrium_on_the_reduced_variant(tmp_path):
    game = pyspiel.load_game(PARK_TWO)
    cg = kernel.compile_tree(game, 10**6)
    result = train(game, TrainSettings(iterations=1_000_000, seed=3), tmp_path)
    trained = evaluate.exploitability(cg, TRAINER.tree_policy(cg, result.lookup()))
    uniform = evaluate.exploitability(cg, cg.uniform_policy())
    # Win/loss utility: range 2; the target is 3% of it.
    assert trained <= 0.03 * 2
    assert trained < uniform / 10
    cfr_value = evaluate.exploitability(cg, cfr.solve(cg, "dcfr", iterations=200).average)
    assert cfr_value < trained  # the full-tree solver, for reference, is closer still
