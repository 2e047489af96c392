"""A tiny Python game whose information sets span several tree depths (an extra chance node on some histories), so
the best response must take the level-by-level path; checked against pyspiel.nash_conv."""

import numpy as np
import pyspiel
import pytest

from cfr import TreeSolver, UnsupportedGameError, compile_game
from cfr.evaluate import best_response_value, exploitability, nash_conv
from cfr.passes import normalise
from cfr.policy_io import to_dict

_TYPE = pyspiel.GameType(
    short_name="cfr_test_uneven_depths",
    long_name="CFR test game with information sets at uneven depths",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
)
_INFO = pyspiel.GameInfo(
    num_distinct_actions=2, max_chance_outcomes=2, num_players=2, min_utility=-3.0, max_utility=3.0,
    utility_sum=0.0, max_game_length=5,
)


class UnevenGame(pyspiel.Game):
    """Chance draws A; only when A=1 a second chance node draws B. Then player 0, player 1 and player 0 again move,
    each seeing the players' actions but never A or B."""

    def __init__(self, params=None):
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self):
        return UnevenState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


class UnevenState(pyspiel.State):
    def __init__(self, game):
        super().__init__(game)
        self.chance: tuple = ()
        self.moves: tuple = ()

    def _chance_done(self):
        return len(self.chance) == 2 or (len(self.chance) == 1 and self.chance[0] == 0)

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if not self._chance_done():
            return pyspiel.PlayerId.CHANCE
        return (0, 1, 0)[len(self.moves)]

    def _legal_actions(self, player):
        return [0, 1]

    def chance_outcomes(self):
        return [(0, 0.5), (1, 0.5)] if not self.chance else [(0, 0.3), (1, 0.7)]

    def _apply_action(self, action):
        if not self._chance_done():
            self.chance += (action,)
        else:
            self.moves += (action,)

    def _action_to_string(self, player, action):
        return str(action)

    def is_terminal(self):
        return len(self.moves) == 3

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        a = self.chance[0]
        b = self.chance[1] if len(self.chance) > 1 else 0
        x, y, z = self.moves
        u = float((3 * a + 2 * b + 5 * x + 7 * y + 11 * z + 4 * x * y) % 7 - 3)
        return [u, -u]

    def __str__(self):
        return f"{self.chance}|{self.moves}"


class _Observer:
    def __init__(self):
        self.tensor = np.zeros(0)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return f"p{player}:{state.moves}"


pyspiel.register_game(_TYPE, UnevenGame)


class _ForgetfulObserver(_Observer):
    def string_from(self, state, player):
        # Player 0 forgets its own first move at its second decision: imperfect recall.
        moves = state.moves if player == 1 or len(state.moves) < 2 else state.moves[1:]
        return f"p{player}:{len(state.moves)}:{moves}"


_FORGETFUL_TYPE = pyspiel.GameType(
    short_name="cfr_test_forgetful",
    long_name="CFR test game without perfect recall",
    dynamics=_TYPE.dynamics,
    chance_mode=_TYPE.chance_mode,
    information=_TYPE.information,
    utility=_TYPE.utility,
    reward_model=_TYPE.reward_model,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
)


class ForgetfulGame(UnevenGame):
    """The same game with a player 0 who forgets its own first action."""

    def __init__(self, params=None):
        pyspiel.Game.__init__(self, _FORGETFUL_TYPE, _INFO, params or {})

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _ForgetfulObserver()


pyspiel.register_game(_FORGETFUL_TYPE, ForgetfulGame)


def test_imperfect_recall_is_refused():
    with pytest.raises(UnsupportedGameError, match="lacks perfect recall"):
        compile_game("cfr_test_forgetful")


def test_information_sets_span_depths():
    cg = compile_game("cfr_test_uneven_depths")
    assert not cg.infoset_uniform_depth[0] and not cg.infoset_uniform_depth[1]
    assert cg.infoset_level.max() == 1


def test_nash_conv_matches_pyspiel_on_uneven_depths():
    cg = compile_game("cfr_test_uneven_depths")
    rng = np.random.default_rng(8)
    for _ in range(3):
        pol = normalise(cg, rng.random(cg.num_slots))
        assert nash_conv(cg, pol) == pytest.approx(pyspiel.nash_conv(cg.game, to_dict(cg, pol)), abs=1e-12)
        assert exploitability(cg, pol) == pytest.approx(pyspiel.exploitability(cg.game, to_dict(cg, pol)), abs=1e-12)


def test_single_pass_would_be_wrong_here():
    # Shows why the level-by-level method exists: resolving depth by depth mixes unresolved values into some
    # information sets on this game (the automatic choice takes the general path).
    cg = compile_game("cfr_test_uneven_depths")
    rng = np.random.default_rng(9)
    gaps = []
    for _ in range(5):
        pol = normalise(cg, rng.random(cg.num_slots))
        for p in range(2):
            gaps.append(abs(best_response_value(cg, pol, p, by_level=False) - best_response_value(cg, pol, p)))
    assert max(gaps) > 1e-6


def test_cfr_plus_solves_uneven_game():
    cg = compile_game("cfr_test_uneven_depths")
    solver = TreeSolver(cg, "cfr+")
    solver.iterate(500)
    assert exploitability(cg, solver.average_policy()) < 1e-3
