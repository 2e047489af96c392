"""Liar worlds for search players: resample_from_infostate deals the cards a player cannot place anew, uniformly, keeps
the cards it knows are in another hand there, and the player cannot tell the world from the real game; worlds play on
as whole games; OpenSpiel's own Python IS-MCTS plays on them; the search player beats the heuristic."""

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.liar.engine.worlds import pool
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import play_game, sample_chance


def _positions(game, seed, games=6):
    """Every decision of a few games between random and heuristic bots."""
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        kind = ("random", "heuristic")[g % 2]
        bots = [make_bot(game, kind, p, rng) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            out.append(state.clone())
            state.apply_action(bots[state.current_player()].step(state))
    return out


def _deck(state):
    t = state._table
    rules = state.get_game().rules
    seen = list(state.discarded())
    for hand in t.hands:
        seen = [a + b for a, b in zip(seen, hand)]
    for _, _, cards, _ in t.pile:
        for v in cards:
            seen[v] += 1
    return [a + b for a, b in zip(seen, t.burned)] == [rules.copies] * rules.values


@pytest.mark.parametrize("game_string", [
    "trustme_liar(players=4,values=6,copies=4,max_play=3)",
    "trustme_liar(players=3,values=5,copies=3,max_play=3,mode=trustme,false_card_accepted=round_end,"
    "last_cards=until_covered)",
    "trustme_liar(players=2,values=8,mode=trustme)",
])
def test_worlds_keep_what_the_player_saw_and_redeal_the_rest(game_string):
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(1)
    moved = 0
    for state in _positions(game, seed=len(game_string)):
        for viewer in range(game.num_players()):
            world = state.resample_from_infostate(viewer, rng.random)
            assert world.information_state_string(viewer) == state.information_state_string(viewer)
            assert world.observation_string(viewer) == state.observation_string(viewer)
            assert world.player_view(viewer) == state.player_view(viewer)
            assert world.cards_left() == state.cards_left() and _deck(world)
            if viewer == state.current_player():
                assert world.legal_actions() == state.legal_actions()
            t = world._table
            # What anyone knows to be in a hand is there, in the world too.
            for q in range(game.num_players()):
                for h in range(game.num_players()):
                    assert all(k <= x for k, x in zip(t.known[q][h], t.hands[h]))
            moved += t.hands != state._table.hands
    assert moved > 50


def test_worlds_play_on_to_the_end_and_others_bluff_points_follow_their_cards():
    game = pyspiel.load_game("trustme_liar(players=3,values=6,copies=4,max_play=3,mode=trustme)")
    rng = np.random.default_rng(2)
    for state in _positions(game, seed=4, games=4)[::7]:
        viewer = state.current_player()
        world = state.resample_from_infostate(viewer, rng.random)
        w = world._table
        # The pile's false cards are those of the world's cards.
        assert all(false == sum(1 for v in cards if v != announced) for _, announced, cards, false in w.pile)
        assert w.false_cards[viewer] == state._table.false_cards[viewer]
        while not world.is_terminal():
            legal = world.legal_actions()
            world.apply_action(legal[int(rng.integers(len(legal)))])
        assert world.snapshot()["end"] in ("out", "turn_cap")


def test_every_arrangement_of_the_cards_a_player_cannot_place_is_equally_likely():
    # Two players: after seat 0 starts with a true card, seat 1 knows its own hand; each card of seat 0's hand is
    # any of the cards seat 1 cannot place with equal chance.
    game = pyspiel.load_game("trustme_liar(players=2,values=6,first_player=seat0)")
    state = game.new_initial_state()
    for action in game.deal_actions([[1, 1, 2, 2, 2, 3, 4, 5, 5, 6, 6, 6], [1, 1, 2, 3, 3, 3, 4, 4, 4, 5, 5, 6]]):
        state.apply_action(action)
    state.apply_action(game.play_action([2], 2))
    unseen = pool(state, 1)
    assert sum(unseen) == sum(state.cards_left()) - state.cards_left()[1] + 1
    rng = np.random.default_rng(7)
    draws = 3000
    counts = np.zeros(6)
    for _ in range(draws):
        world = state.resample_from_infostate(1, rng.random)
        counts += np.asarray(world._table.hands[0])
        counts += np.bincount(world._table.pile[0][2], minlength=6)
    expected = draws * np.asarray(unseen, dtype=float)
    assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected) + 1e-9)


def test_openspiel_python_ismcts_plays_liar():
    game = pyspiel.load_game("trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=12)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=30, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        assert state.is_terminal()


def test_the_search_player_with_heuristic_rollouts_beats_the_heuristic():
    """A small check of competence (the benchmark measures more): heuristic rollouts run compiled."""
    game = pyspiel.load_game("trustme_liar(players=2,values=8)")
    wins = 0
    games = 12
    for g in range(games):
        rng = np.random.default_rng([5, g])
        seat = g % 2
        bots = [make_bot(game, "search", p, rng, budget=120, rollout="heuristic") if p == seat
                else make_bot(game, "heuristic", p, rng) for p in range(2)]
        assert bots[seat].engine_used == "kernel"
        wins += play_game(game, bots, rng).returns()[seat] > 0
    assert wins >= 9


def test_search_is_deterministic_given_its_generator():
    game = pyspiel.load_game("trustme_liar(players=3,values=6,copies=3,max_play=3)")

    def history(seed):
        rng = np.random.default_rng(seed)
        bots = [make_bot(game, "search", 0, rng, budget=40, rollout="heuristic")] + [
            make_bot(game, "heuristic", p, rng) for p in (1, 2)]
        return play_game(game, bots, rng).history()

    assert history(3) == history(3)
