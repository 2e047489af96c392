"""The Pinocchio heuristic bot: knobs, determinism, no peeking at hidden cards, and its knobs change its play."""

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers games and bots)
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.games.pinocchio.bots import KNOB_NAMES, PinocchioHeuristicBot, chance_teller_holds
from trustme_analysis.games.pinocchio.script import Table


def play(game, bots, seed):
    """Play one game with ``bots`` (one per seat); every bot move must be legal. Returns the terminal state."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def heuristic_seats(game, seed, **knobs):
    seats = range(game.num_players())
    return [make_bot(game, "heuristic", p, np.random.default_rng([seed, p]), **knobs) for p in seats]


def test_registered_for_the_game_and_rejects_unknown_knobs_listing_the_valid_ones():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    assert "heuristic" in bot_kinds("trustme_pinocchio")
    bot = make_bot(game, "heuristic", 1, np.random.default_rng(0), bluff_rate=0.5)
    assert isinstance(bot, PinocchioHeuristicBot) and bot.knobs()["bluff_rate"] == 0.5
    assert set(bot.knobs()) == set(KNOB_NAMES)
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['bluf'\].*valid knobs: bluff_rate, bluff_cards"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), bluf=1)
    with pytest.raises(ValueError, match=r"bluff_rate=1.5 is not allowed; allowed: a number 0..1"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), bluff_rate=1.5)
    with pytest.raises(ValueError, match=r"park_pick='low'.*'fit', 'high', 'random'"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), park_pick="low")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_game(players):
    game = pyspiel.load_game(f"trustme_pinocchio(players={players})")
    a = play(game, heuristic_seats(game, 5), seed=9)
    b = play(game, heuristic_seats(game, 5), seed=9)
    assert a.history() == b.history()


def test_plays_the_coin_variant_and_runs_under_pyspiel_evaluate_bots():
    game = pyspiel.load_game("trustme_pinocchio(players=4,coin_variant=True)")
    end = play(game, heuristic_seats(game, 1), seed=2)
    assert end.is_terminal()
    returns = pyspiel.evaluate_bots(game.new_initial_state(), heuristic_seats(game, 3), 7)
    assert sorted(returns) == pytest.approx([-1 / 3] * 3 + [1.0])


def test_choices_depend_only_on_what_the_seat_can_see():
    # Seat 0 to act: seat 1's hidden hand differs, everything seat 0 sees is the same.
    a = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    b = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [2], [1]])
    for t in (a, b):
        t.draw(4)
    assert a.state.player_view(0) == b.state.player_view(0)
    for seed in range(20):
        picks = [make_bot(t.game, "heuristic", 0, np.random.default_rng(seed), bluff_rate=0.5).step(t.state)
                 for t in (a, b)]
        assert picks[0] == picks[1]
    # Seat 1 votes: a true tale and a tall tale look the same to it, so it votes the same way.
    a.tale(park=4, hand=4)  # true
    b.tale(park=4, hand=5)  # tall
    assert a.state.player_view(1)["tale"]["hidden_value"] is None
    for threshold in (0.0, 0.2, 0.5, 0.9):
        votes = [make_bot(t.game, "heuristic", 1, np.random.default_rng(0), trust_threshold=threshold).step(t.state)
                 for t in (a, b)]
        assert votes[0] == votes[1]


def test_trust_estimate_counts_only_unseen_characters():
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=1)
    view = t.state.player_view(1)
    # Seat 1 sees the Park (1, 2, 3, 4) and its hand (6): of 24 Characters, 19 unseen, 3 of them Pinocchios.
    # The teller held 2 of them: P(at least one Pinocchio) = 1 - C(16, 2) / C(19, 2).
    assert chance_teller_holds(view, 1, 4) == pytest.approx(1 - (16 * 15) / (19 * 18))


def tale_events(game, seeds, seat, **knobs):
    tales = []
    for seed in seeds:
        bots = heuristic_seats(game, seed)
        bots[seat] = make_bot(game, "heuristic", seat, np.random.default_rng(seed), **knobs)
        end = play(game, bots, seed)
        tales += [e for e in end.snapshot()["events"] if e["kind"] == "tale"]
    return tales


def test_bluff_rate_zero_never_bluffs_and_one_bluffs_whenever_it_tells_a_tale():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    honest = [e for e in tale_events(game, range(4), 0, bluff_rate=0.0) if e["player"] == 0]
    assert honest and not any(e["tall"] for e in honest)
    liar = [e for e in tale_events(game, range(4), 0, bluff_rate=1.0) if e["player"] == 0]
    assert liar and all(e["tall"] for e in liar)


def test_trust_threshold_zero_always_trusts():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    tales = [e for e in tale_events(game, range(3), 1, trust_threshold=0.0) if e["player"] == 0]
    assert tales and all(e["votes"][1] is True for e in tales)


def test_heuristic_beats_uniform_random_players():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    wins = 0
    for seed in range(12):
        bots = [make_bot(game, "heuristic" if p == 0 else "random", p, np.random.default_rng([seed, p]))
                for p in range(3)]
        wins += play(game, bots, seed).snapshot()["winner"] == 0
    assert wins >= 8  # a third would be chance
