"""Trust Me (1981) worlds for search players: resample_from_infostate deals the Payoff cards a player has not seen
anew, uniformly, and the player cannot tell the new state from the real one; the belief weighs worlds by the others'
choices; OpenSpiel's own Python IS-MCTS and the search player play on it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from test_board1981_support import ALPHA, die, play, small_game, space, start

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.players.bots import belief
from trustme_analysis.games.board1981.engine.investing import BEEN_HAD, EMPTY, ONE_STACK, TWO_STACKS
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance


def _advance(game, seed, steps, kind="heuristic"):
    rng = np.random.default_rng(seed)
    bots = [make_bot(game, kind, p, rng) for p in range(game.num_players())]
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return state


def test_worlds_keep_what_the_player_saw_and_redeal_the_rest():
    game = pyspiel.load_game("trustme_1981(players=3,peek=true)")
    rng = np.random.default_rng(1)
    changed = checked = 0
    for steps in range(20, 600, 23):
        state = _advance(game, steps, steps)
        if state.is_terminal():
            continue
        p = state.current_player()
        for _ in range(4):
            world = state.resample_from_infostate(p, rng.random)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.observation_string(p) == state.observation_string(p)
            assert world.legal_actions() == state.legal_actions()
            assert world.known_cards(p) == state.known_cards(p)
            assert world.unseen_cards(p) == state.unseen_cards(p)
            real, new = state.referee_cards(), world.referee_cards()
            hidden = [q for q in range(len(real)) if q not in state.known_cards(p)]
            # Only the briefcases the player has not seen change, and with cards it cannot locate.
            assert all(real[q] == new[q] for q in state.known_cards(p))
            unseen = Counter({k: c for k, c in enumerate(state.unseen_cards(p))})
            assert not Counter(new[q] for q in hidden) - unseen
            changed += new != real
            checked += 1
            while not world.is_terminal() and not world.is_chance_node():  # the world plays on like any state
                world.apply_action(world.legal_actions()[0])
    assert checked > 20 and changed > checked // 2


def test_every_deal_of_the_unseen_cards_is_equally_likely():
    game = pyspiel.load_game("trustme_1981(players=2)")
    state = _advance(game, 5, 60)
    p = state.current_player()
    unseen = state.unseen_cards(p)
    hidden = [q for q in range(game.rules.num_properties) if q not in state.known_cards(p)]
    rng = np.random.default_rng(9)
    draws = 3000
    counts = Counter()
    for _ in range(draws):
        counts[state.resample_from_infostate(p, rng.random).referee_cards()[hidden[0]]] += 1
    total = sum(unseen)
    for kind, c in enumerate(unseen):
        expected = draws * c / total
        assert abs(counts[kind] - expected) < 5 * np.sqrt(expected + 1)


def _informed_round(card: int):
    """Two players; p1 peeks at the Crimson Circle 2 briefcase; p0 claims it unseen and takes it to the Company."""
    game = pyspiel.load_game("trustme_1981(players=2,peek=True)")
    state = game.new_initial_state()
    prop = game.board.property_names.index("Crimson Circle 2")
    left = list(game.rules.payoff_mix)
    left[card] -= 1
    others = [kind for kind, count in enumerate(left) for _ in range(count)]
    for q in range(game.rules.num_properties):
        state.apply_action(card if q == prop else others.pop(0))
    state.apply_action(0)
    for action in (game.actions.decline, game.actions.look_under(prop), 3, game.board.space_ids.index("crimson_2c"),
                   game.actions.claim_unseen, 2, game.board.company):
        state.apply_action(action)
    assert state.phase_name() == "invest" and state.current_player() == 1
    return game, state, prop


def test_belief_weighs_worlds_by_an_informed_investors_purchase():
    # p1 saw Two Stacks and buys. With many reveals to come a share is worth about $5 after this one, so the heuristic
    # buys on every card but "You've Been Had!" (which ends the share): the purchase rules that one out at 0.8.
    game, state, prop = _informed_round(TWO_STACKS)
    p1 = make_bot(game, "heuristic", 1, np.random.default_rng(0))
    state.apply_action(p1.step(state))
    rng = np.random.default_rng(4)
    worlds = [state.resample_from_infostate(0, rng.random) for _ in range(200)]
    weights = np.asarray(belief(state, 0, worlds))
    cards = np.asarray([w.referee_cards()[prop] for w in worlds])
    assert np.allclose(weights[np.isin(cards, (ONE_STACK, TWO_STACKS, EMPTY))], 0.8)
    assert np.allclose(weights[cards == BEEN_HAD], 0.2)
    assert (cards == BEEN_HAD).any() and (cards != BEEN_HAD).any()
    # Before anybody chose anything every world weighs the same.
    _, fresh, _ = _informed_round(TWO_STACKS)
    assert belief(fresh, 0, worlds[:5]) == [1.0] * 5


def test_belief_reads_a_claim_chosen_after_looking(tmp_path):
    """p1 looks under Alpha, claims it at its next turn and walks off: a claim the heuristic makes on a good or Empty
    briefcase, never on "You've Been Had!"."""
    game = small_game(tmp_path)
    codec = game.actions
    state = play(start(game), die(2), space(game, "r9"), die(2), space(game, "r1"), codec.look)
    play(state, die(2), space(game, "r7"), codec.decline, codec.claim_looked, die(2), space(game, "r3"),
         codec.decline, die(3))
    assert state.claims() == [-1, ALPHA] and state.claim_knew() == [False, True] and state.current_player() == 0
    rng = np.random.default_rng(3)
    worlds = [state.resample_from_infostate(0, rng.random) for _ in range(100)]
    weights = belief(state, 0, worlds)
    cards = [w.referee_cards()[ALPHA] for w in worlds]
    assert {c for c in cards} == {ONE_STACK, TWO_STACKS, EMPTY, BEEN_HAD}
    for card, weight in zip(cards, weights):
        assert np.isclose(weight, 0.2 if card == BEEN_HAD else 0.8)


def test_openspiel_python_ismcts_plays_the_board_game():
    game = pyspiel.load_game("trustme_1981(players=2,max_turns=12)")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
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


def test_a_clone_shares_nothing_that_changes():
    """Clones share the immutable parts (fast copies for search players) but never the event log or a position."""
    game = pyspiel.load_game("trustme_1981(players=2)")
    state = _advance(game, 3, 40)
    copy = state.clone()
    assert copy.history() == state.history() and copy.snapshot() == state.snapshot()
    before = state.snapshot()
    while not copy.is_terminal():
        copy.apply_action(copy.chance_outcomes()[0][0] if copy.is_chance_node() else copy.legal_actions()[-1])
    assert state.snapshot() == before and len(copy.snapshot()["events"]) > len(before["events"])


# --- a world is a state of the game (issue 49): reached by its history -------------------------------------------


def _random_decisions(game, count, seed):
    """Decisions spread over whole random games (three per game)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        decisions = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            decisions.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        out += [decisions[i] for i in rng.choice(len(decisions), size=min(3, len(decisions)), replace=False)]
    return out[:count]


def _assert_world_is_a_state(game, state, world, viewer):
    n = game.num_players()
    replay = game.new_initial_state()
    for action in world.history():
        replay.apply_action(action)
    assert str(replay) == str(world)
    for q in range(n):
        assert replay.information_state_string(q) == world.information_state_string(q)
        assert replay.observation_string(q) == world.observation_string(q)
    assert replay.legal_actions() == world.legal_actions() == state.legal_actions()
    assert world.information_state_string(viewer) == state.information_state_string(viewer)
    assert world.observation_string(viewer) == state.observation_string(viewer)
    _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
    assert back.history() == world.history() and str(back) == str(world)
    assert all(back.information_state_string(q) == world.information_state_string(q) for q in range(n))


@pytest.mark.parametrize("game_string", ["trustme_1981", "trustme_1981(players=3)", "trustme_1981(players=4)"])
def test_a_board_game_world_is_the_state_its_history_replays_to(game_string):
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(5)
    moved = 0
    positions = _random_decisions(game, 24, seed=game.num_players())
    for state in positions:
        viewer = state.current_player()
        world = state.resample_from_infostate(viewer, rng.random)
        _assert_world_is_a_state(game, state, world, viewer)
        # A briefcase the viewer looked under (or saw revealed) keeps its card; the deal in the history is the world's.
        assert all(world.referee_cards()[q] == c for q, c in state.known_cards(viewer).items())
        assert list(world.history()[:game.rules.num_properties]) == world.referee_cards()
        moved += world.referee_cards() != state.referee_cards()
    assert moved >= len(positions) // 2


@pytest.mark.parametrize("game_string", ["trustme_1981_investment", "trustme_1981_investment(players=3)",
                                         "trustme_1981_investment(players=4)"])
def test_an_investing_round_world_is_the_state_its_history_replays_to(game_string):
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(6)
    for state in _random_decisions(game, 30, seed=1):
        viewer = state.current_player()
        worlds = [state.resample_from_infostate(viewer, rng.random) for _ in range(20)]
        for world in worlds:
            _assert_world_is_a_state(game, state, world, viewer)
        cards = {w.history()[0] for w in worlds}
        if state._seen[viewer]:
            assert cards == {state.history()[0]}  # it saw the card: every world keeps it
        else:
            assert len(cards) > 1


def test_an_investing_round_world_draws_the_card_from_the_mix():
    game = pyspiel.load_game("trustme_1981_investment(seen_each=0/0)")
    state = game.new_initial_state()
    state.apply_action(0)
    viewer = state.current_player()
    rng = np.random.default_rng(8)
    draws = 4000
    counts = Counter(state.resample_from_infostate(viewer, rng.random).history()[0] for _ in range(draws))
    mix = game.payoff_mix
    for kind, c in enumerate(mix):
        expected = draws * c / sum(mix)
        assert abs(counts[kind] - expected) < 5 * np.sqrt(expected + 1)


@pytest.mark.parametrize("game_string", ["trustme_1981", "trustme_1981(players=4)", "trustme_1981_investment",
                                         "trustme_1981_investment(players=4)"])
def test_openspiel_python_ismcts_plays_the_full_default_games_without_error(game_string):
    game = pyspiel.load_game(game_string)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(1))
    rng = np.random.default_rng(2)
    decisions = 0
    while decisions < 20:
        state = game.new_initial_state()
        while not state.is_terminal() and decisions < 20:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.current_player() == 0:
                state.apply_action(bot.step(state))
                decisions += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    assert decisions == 20
