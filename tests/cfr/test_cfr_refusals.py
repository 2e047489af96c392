"""Games the compiler must refuse with one clear line: information states shared by two players, chance nodes
without outcomes, simultaneous moves; and the same refusals for a record handed to the finisher directly."""

import numpy as np
import pyspiel
import pytest

from cfr import SamplingSolver, UnsupportedGameError, compile_game, from_preorder
from cfr.compile import _walk


def _game_type(short_name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=short_name,
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


_INFO = pyspiel.GameInfo(num_distinct_actions=2, max_chance_outcomes=2, num_players=2, min_utility=-1.0,
                         max_utility=1.0, utility_sum=0.0, max_game_length=3)


class _TinyState(pyspiel.State):
    """Chance draws a bit (unless the game skips chance), then player 0 and player 1 each choose a bit."""

    def __init__(self, game, with_chance: bool, empty_after: int | None):
        super().__init__(game)
        self.chance: tuple = () if with_chance else (0,)
        self.moves: tuple = ()
        self._empty_after = empty_after

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if not self.chance or (self._empty_after is not None and self.chance == (self._empty_after,)):
            return pyspiel.PlayerId.CHANCE
        return len(self.moves)

    def _legal_actions(self, player):
        return [0, 1]

    def chance_outcomes(self):
        if self.chance:
            return []  # the second chance node of the empty-chance game: no outcomes
        return [(0, 0.5), (1, 0.5)]

    def _apply_action(self, action):
        if self.current_player() == pyspiel.PlayerId.CHANCE:
            self.chance += (action,)
        else:
            self.moves += (action,)

    def _action_to_string(self, player, action):
        return str(action)

    def is_terminal(self):
        return len(self.moves) == 2

    def returns(self):
        if not self.is_terminal():
            return [0.0, 0.0]
        u = 1.0 if (self.chance[0] + self.moves[0] + self.moves[1]) % 2 else -1.0
        return [u, -u]

    def __str__(self):
        return f"{self.chance}|{self.moves}"


class _Observer:
    def __init__(self, string_from):
        self.tensor = np.zeros(0)
        self.dict = {}
        self.string_from = string_from

    def set_from(self, state, player):
        pass


def _register(short_name, string_from, with_chance=True, empty_after=None):
    gtype = _game_type(short_name)

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(gtype, _INFO, params or {})

        def new_initial_state(self):
            return _TinyState(self, with_chance, empty_after)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return _Observer(string_from)

    pyspiel.register_game(gtype, Game)


# Both players see only the round number: player 0 before any move and player 1 after one move both read "round 0".
_register("cfr_test_shared_infostate", lambda state, player: f"round {len(state.moves) // 2}", with_chance=False)
# After chance outcome 1 a second chance node offers no outcome at all.
_register("cfr_test_empty_chance", lambda state, player: f"p{player}:{state.moves}", empty_after=1)
# A well-formed version for the record tests.
_register("cfr_test_tiny", lambda state, player: f"p{player}:{state.moves}")


def test_information_state_shared_by_two_players_is_refused_at_compile():
    with pytest.raises(UnsupportedGameError) as info:
        compile_game("cfr_test_shared_infostate")
    message = str(info.value)
    assert "information state 'round 0' is reached by player 0 and by player 1" in message
    assert len(message.splitlines()) == 1


def test_chance_node_without_outcomes_names_the_history():
    with pytest.raises(UnsupportedGameError) as info:
        compile_game("cfr_test_empty_chance")
    message = str(info.value)
    assert "the chance node at history [1] has no outcomes" in message
    assert len(message.splitlines()) == 1


def test_go_fish_empty_chance_node_is_one_clear_line():
    # OpenSpiel's go_fish deals until the deck is empty and then offers a chance node without outcomes.
    with pytest.raises(UnsupportedGameError, match=r"go_fish\(\): the chance node at history \[0, 0, .*\] has no "
                       "outcomes") as info:
        compile_game("go_fish")
    assert len(str(info.value).splitlines()) == 1


@pytest.mark.parametrize("build", [compile_game, lambda g: SamplingSolver(g, "external", 0)])
def test_simultaneous_game_error_names_the_remedy(build):
    with pytest.raises(ValueError) as info:
        build("matrix_rps")
    message = str(info.value)
    assert "turn_based_simultaneous_game" in message and "convert_to_turn_based" in message
    # The remedy works: the transformed game compiles.
    assert compile_game(pyspiel.convert_to_turn_based(pyspiel.load_game("matrix_rps"))).num_nodes == 13


# ----------------------------------------------------------------------------- the finisher's contract
def _record(name):
    game = pyspiel.load_game(name)
    record, utilities, keys = _walk(game, 10**6)
    return game, {k: v.copy() for k, v in record.items()}, utilities, keys


def test_record_with_information_set_ids_in_any_order_gives_the_same_tree():
    # A second producer may number information states as it likes and hand plain string lists: the finisher
    # renumbers them, so the compiled tree is the same array for array.
    for name in ("kuhn_poker", "cfr_test_tiny", "leduc_poker"):
        game, record, utilities, keys = _record(name)
        ref = compile_game(name)
        perm = np.random.default_rng(3).permutation(len(keys))  # new id of old id
        inverse = np.argsort(perm)
        dec = record["infoset"] >= 0
        record["infoset"][dec] = perm[record["infoset"][dec]]
        shuffled_keys = [keys[int(old)] for old in inverse]
        cg = from_preorder(game, game.num_players(), record, utilities, shuffled_keys)
        assert not record  # the finisher consumed the record
        for field in ("depth_start", "parent", "kind", "player", "infoset", "child_start", "child_count", "edge_owner",
                      "edge_slot", "edge_action", "chance_prob", "returns", "infoset_player", "infoset_slot_start",
                      "slot_infoset", "slot_action", "player_slots", "player_infosets", "infoset_parent_slot",
                      "infoset_level", "infoset_uniform_depth"):
            assert np.array_equal(getattr(cg, field), getattr(ref, field)), (name, field)
        assert list(cg.infoset_keys) == list(ref.infoset_keys)


def test_record_refusals_name_the_information_state_or_history():
    game, record, utilities, keys = _record("cfr_test_tiny")
    # Give player 1's first information state the id of player 0's root information state.
    p0 = np.flatnonzero(record["player"] == 0)[0]
    p1 = np.flatnonzero(record["player"] == 1)[0]
    bad = dict(record, infoset=record["infoset"].copy())
    bad["infoset"][p1] = record["infoset"][p0]
    with pytest.raises(UnsupportedGameError, match="information state 'p0:\\(\\)' is reached by player 0 and by player 1"):
        from_preorder(game, 2, bad, utilities, keys)
    # Cut the subtree of the first player-1 node: it becomes a decision node without legal actions.
    keep = np.ones(record["depth"].size, dtype=bool)
    keep[p1 + 1 : p1 + 3] = False
    cut = {k: v[keep] for k, v in record.items()}
    with pytest.raises(UnsupportedGameError, match=r"decision node of player 1 has no legal actions at history "
                       r"\[0, 0\]"):
        from_preorder(game, 2, cut, utilities, keys)
    broken = dict(record, depth=record["depth"].copy())
    broken["depth"][3] += 2
    with pytest.raises(UnsupportedGameError, match="invalid preorder record"):
        from_preorder(game, 2, broken, utilities, keys)
