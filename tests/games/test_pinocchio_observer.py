"""Public observations of ``trustme_pinocchio`` are the same for every player: no seat marker, and under
simultaneous voting no vote, not even the observer's own, until every vote is cast. The private part adds them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players.play import sample_chance

PUBLIC = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                    private_info=pyspiel.PrivateInfoType.NONE)
PRIVATE = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                     private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)


@pytest.mark.parametrize("game_string", ["trustme_pinocchio(players=2)", "trustme_pinocchio(players=3)",
                                         "trustme_pinocchio(players=4,coin_variant=True)",
                                         "trustme_pinocchio(players=4,voting=sequential)"])
def test_public_observation_is_the_same_for_every_player_over_random_playouts(game_string):
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    public = game.make_py_observer(PUBLIC)
    private = game.make_py_observer(PRIVATE)
    rng = np.random.default_rng(1)
    hidden_votes_seen = 0
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            strings, tensors = [], []
            for p in range(n):
                public.set_from(state, p)
                tensors.append(public.tensor.copy())
                strings.append(public.string_from(state, p))
            assert all(s == strings[0] for s in strings), strings
            assert all(np.array_equal(t, tensors[0]) for t in tensors)
            snap = state.snapshot(include_events=False)
            if (snap["phase"] == "vote" and game.rules.voting == "simultaneous"
                    and any(v is not None for v in snap["tale"]["votes"])):
                hidden_votes_seen += 1
                voter = next(q for q, v in enumerate(snap["tale"]["votes"]) if v is not None)
                assert "votes" + "-" * n in strings[0]  # nobody's vote shows yet
                private.set_from(state, voter)
                assert private.dict["my_vote"].sum() == 1  # the voter's own vote is private information
                assert "myvote" in private.string_from(state, voter)
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(int(legal[rng.integers(len(legal))]))
    if n >= 3 and game.rules.voting == "simultaneous":
        assert hidden_votes_seen > 0


def test_private_observation_shows_the_seat_and_its_hand_only_when_asked():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    public = game.make_py_observer(PUBLIC)
    private = game.make_py_observer(PRIVATE)
    assert "player" not in public.dict and "hand" not in public.dict
    assert private.string_from(state, 1).startswith("p1 ")
    assert not public.string_from(state, 1).startswith("p1")
    with pytest.raises(ValueError, match="not supported"):
        game.make_py_observer(PUBLIC, {"detail": 1})
