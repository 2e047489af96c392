"""The search player and the probes, on OpenSpiel's own games (the Trust Me games add their samplers and kernels)."""

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import play_game
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.stats.intervals import mean_t


def _mean_return(game, seat_kind, other_kind, games, knobs=None, seed=0):
    values = []
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        seat = i % game.num_players()
        bots = [make_bot(game, seat_kind if p == seat else other_kind, p, rng, **(knobs or {}) if p == seat else {})
                for p in range(game.num_players())]
        values.append(play_game(game, bots, rng).returns()[seat])
    return mean_t(np.asarray(values, dtype=float))


def test_search_beats_random_in_leduc_poker():
    game = pyspiel.load_game("leduc_poker")
    result = _mean_return(game, "search", "random", 60, {"budget": 60})
    assert result.low > 0, result


def test_search_is_deterministic_given_its_generator():
    game = pyspiel.load_game("leduc_poker")

    def actions(seed):
        rng = np.random.default_rng(seed)
        bots = [make_bot(game, "search", p, rng, budget=30) for p in range(2)]
        return play_game(game, bots, rng).history()

    assert actions(5) == actions(5)


def test_search_plays_perfect_information_games_from_the_state_itself():
    game = pyspiel.load_game("tic_tac_toe")
    rng = np.random.default_rng(0)
    bot = make_bot(game, "search", 0, rng, budget=200)
    state = game.new_initial_state()
    for a in (0, 3, 1):  # x: 0, 1; o: 3 -> x wins at 2
        state.apply_action(a)
    state.apply_action(4)  # o
    assert bot.step(state) == 2


@pytest.mark.parametrize(
    "knobs, message",
    [
        ({"budget": 0}, r"budget=0 is not allowed; allowed: an integer from 1 to 1,000,000"),
        ({"budget": 10**9}, r"budget=1000000000 is not allowed; allowed: an integer from 1 to 1,000,000"),
        ({"rollouts_per_world": 10**5}, r"rollouts_per_world=100000 is not allowed; allowed: an integer from 1 to "
                                        r"10,000"),
        ({"engine": "gpu"}, r"engine='gpu' is not allowed; allowed: auto, kernel, pyspiel"),
        ({"engine": "kernel"}, r"engine='kernel' is not allowed for leduc_poker\(\)"),
        ({"belief": "yes"}, r"belief='yes' is not allowed"),
        ({"depth": 3}, r"unknown knob\(s\) \['depth'\] for the search bot"),
    ],
)
def test_search_knobs_are_checked(knobs, message):
    game = pyspiel.load_game("leduc_poker")
    with pytest.raises(ValueError, match=message):
        make_bot(game, "search", 0, np.random.default_rng(0), **knobs)


def test_probe_plays_its_strategy_where_it_applies_and_the_base_elsewhere():
    game = pyspiel.load_game("trustme_liar(players=2,values=4,copies=2,max_play=2)")
    names = probe_strategies(game)
    assert {"always bluff", "never bluff", "always challenge", "never challenge"} <= set(names)
    never = names["never bluff"]
    rng = np.random.default_rng(3)
    probe = make_bot(game, "probe", 0, rng, strategy="never bluff")
    assert probe.knobs() == {"strategy": "never bluff", "base": "heuristic"}
    decisions = 0
    for i in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            player = state.current_player()
            legal = state.legal_actions()
            if player == 0:
                probs = probe.action_probabilities(state)
                assert abs(sum(probs.values()) - 1) < 1e-9 and set(probs) <= set(legal)
                preferred = never(state, 0, legal)
                action = probe.step(state)
                if preferred:
                    assert action in preferred and set(probs) <= set(preferred)
                    decisions += 1
            else:
                action = legal[int(rng.integers(len(legal)))]
            state.apply_action(action)
    assert decisions > 20


def test_probe_names_the_strategies_it_knows():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    with pytest.raises(ValueError, match=r"strategy='sometimes trust' is not allowed; allowed: 'always tell a tall"):
        make_bot(game, "probe", 0, np.random.default_rng(0), strategy="sometimes trust")


def test_default_budget_is_the_kernels_where_it_plays_the_rollouts():
    """A spec without ``budget`` gets what the game's kernel names for its compiled rollouts, the general default on
    the pyspiel path or for games without a kernel; a budget set in the spec is kept."""
    from trustme_analysis.players.search import DEFAULT_BUDGET
    from trustme_analysis.registry import game_entry

    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    SEARCH_BUDGET = game_entry("trustme_pinocchio").search_budget(game)
    rng = np.random.default_rng(0)
    assert SEARCH_BUDGET != DEFAULT_BUDGET
    assert make_bot(game, "search", 0, rng).budget == SEARCH_BUDGET
    assert make_bot(game, "search", 0, rng, engine="pyspiel").budget == DEFAULT_BUDGET
    assert make_bot(game, "search", 0, rng, budget=77).knobs()["budget"] == 77
    assert make_bot(pyspiel.load_game("leduc_poker"), "search", 0, rng).budget == DEFAULT_BUDGET
