"""What a Trust Me (1981) player observes: the public part is the same for every player, the private part (the cards
a player looked at) appears only when asked for, and observer parameters are refused."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players.play import sample_chance

PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                    private_info=pyspiel.PrivateInfoType.NONE)
PUBLIC_RECALL = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                           private_info=pyspiel.PrivateInfoType.NONE)
PRIVATE_ONLY = pyspiel.IIGObservationType(perfect_recall=False, public_info=False,
                                          private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)


def _random_states(game, seed: int, games: int, max_steps: int = 400):
    """Every state of ``games`` uniform-random playouts (up to ``max_steps`` steps each)."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(max_steps):
            yield state
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("game_string,games", [("trustme_1981(players=2,peek=true)", 6), ("trustme_1981(players=4)", 6),
                                               ("trustme_1981_investment(players=3,seen=50)", 60)])
def test_public_observations_are_the_same_for_every_player(game_string, games):
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    observers = [game.make_py_observer(t) for t in (PUBLIC, PUBLIC_RECALL)]
    tensors = game.make_py_observer(PUBLIC)
    private = pyspiel.IIGObservationType(perfect_recall=False)  # public and private (the default observation)
    full = game.make_py_observer(private)
    differ = checked = 0
    for state in _random_states(game, seed=11, games=games):
        for obs in observers:
            strings = {obs.string_from(state, p) for p in range(n)}
            assert len(strings) == 1, strings
        views = []
        for p in range(n):
            tensors.set_from(state, p)
            views.append(tensors.tensor.copy())
        assert all(np.array_equal(views[0], v) for v in views[1:])
        # The default observation adds each player's private part: it does differ between players.
        differ += len({full.string_from(state, p) for p in range(n)}) > 1
        checked += 1
    assert checked > 300 and differ > checked // 2


def test_private_part_holds_the_cards_looked_at_and_nothing_public():
    game = pyspiel.load_game("trustme_1981(players=2,peek=true)")
    state = game.new_initial_state()
    for card in [0, 1, 2, 3] * 3:
        state.apply_action(card)
    state.apply_action(0)  # seat 0 goes first
    state.apply_action(game.actions.look_under(1))  # peeks at the second briefcase (Two Stacks)
    state.apply_action(game.actions.decline)
    obs = game.make_py_observer(PRIVATE_ONLY)
    assert obs.string_from(state, 0) == "p0 known:1=two"
    assert obs.string_from(state, 1) == "p1 known:"
    public = game.make_py_observer(PUBLIC)
    assert "two" not in public.string_from(state, 0) and "looked:10,0" in public.string_from(state, 0)
    obs.set_from(state, 0)
    assert obs.dict["known_card"].sum() == 1 and "position" not in obs.dict


@pytest.mark.parametrize("game_string", ["trustme_1981", "trustme_1981_investment"])
def test_observer_parameters_are_refused(game_string):
    game = pyspiel.load_game(game_string)
    with pytest.raises(ValueError, match="observation parameters are not supported"):
        game.make_py_observer(PUBLIC, {"detail": "full"})


def test_the_information_state_is_the_cards_looked_at_plus_the_public_history():
    game = pyspiel.load_game("trustme_1981(players=2)")
    for state in _random_states(game, seed=3, games=1, max_steps=120):
        if state.is_chance_node() or state.is_terminal():
            continue
        p = state.current_player()
        text = state.information_state_string(p)
        props = game.rules.num_properties
        assert text.endswith("| " + " ".join(str(a) for a in state.history()[props:]))
        assert text.startswith(f"p{p} known:")
