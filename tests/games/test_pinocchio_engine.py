"""The Pinocchio engine as a pyspiel game: random simulation, invariants, information states, algorithms."""

import json
import pickle

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, get_all_states

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.pinocchio.engine.script import Table

TINY = ("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,chart=1/3,"
        "runouts_to_end=1)")


def play_random(game, seed, check=None):
    """Play one uniformly random game; call ``check(state)`` on every state; return the terminal state."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        if check is not None:
            check(state)
        if state.is_terminal():
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])


@pytest.mark.parametrize(
    "game_string, sims",
    [
        ("trustme_pinocchio(players=2)", 2),
        ("trustme_pinocchio(players=3)", 2),
        ("trustme_pinocchio(players=4)", 1),
        ("trustme_pinocchio(players=4,coin_variant=True)", 1),
        ("trustme_pinocchio(players=4,coin_variant=True,coin_tossers=dissenters,voting=sequential)", 1),
        ("trustme_pinocchio(players=3,voting=sequential,utility=score)", 1),
        ("trustme_pinocchio(players=2,utility=score_diff,empty_deck=reshuffle)", 1),
        (TINY, 10),
        ("trustme_pinocchio(players=2,values=1,copies=10)", 3),  # one value: every tale is true
        ("trustme_pinocchio(players=3,values=3,copies=3,park_size=1,hand_size=0,stacks=1/1/1,chart=1/3/6)", 5),
    ],
)
def test_random_sim_test_passes(game_string, sims):
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=sims, serialize=True, verbose=False)


# ---------------------------------------------------------------- invariants over random seeds and parameters


@st.composite
def variants(draw):
    players = draw(st.integers(2, 4))
    values = draw(st.integers(2, 5))
    copies = draw(st.integers(2, 4))
    park = draw(st.integers(1, 3))
    hand = draw(st.integers(0, 2))
    removed = draw(st.integers(0, copies - 1))
    per_value = copies - (removed if players == 2 else 0)
    if per_value * values <= park + players * hand:
        copies += (park + players * hand) // values + 1
    stacks = "/".join(str(draw(st.integers(1, 3))) for _ in range(values))
    chart = "/".join(str(draw(st.integers(0, 12))) for _ in range(values))
    params = dict(
        players=players, values=values, copies=copies, two_player_removed=removed, park_size=park, hand_size=hand,
        refill=draw(st.integers(1, 3)), stacks=stacks, chart=chart, stacks_to_end=draw(st.integers(1, 5)),
        runouts_to_end=draw(st.integers(1, 2)), voting=draw(st.sampled_from(["simultaneous", "sequential"])),
        empty_deck=draw(st.sampled_from(["skip", "reshuffle"])),
        utility=draw(st.sampled_from(["win_loss", "score"])),
    )
    if players == 4:
        params["coin_variant"] = draw(st.booleans())
        params["coin_tossers"] = draw(st.sampled_from(["any", "dissenters"]))
    return "trustme_pinocchio(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"


def character_counts(snap):
    """Where every Character is: deck, discard, Park, hands, Reputations and a face-down tale Character."""
    counts = list(snap["deck_contents"])
    for v, k in enumerate(snap["discard"]):
        counts[v] += k
    places = [snap["park"]] + snap["hands"] + snap["reputations"]
    for place in places:
        for v in place:
            counts[v - 1] += 1
    if snap["tale"] is not None:
        counts[snap["tale"]["hidden_value"] - 1] += 1
    return counts


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_string=variants(), seed=st.integers(0, 2**32 - 1))
def test_characters_and_tickets_are_conserved_and_scores_follow_the_chart(game_string, seed):
    game = pyspiel.load_game(game_string)
    rules = game.rules

    def check(state):
        snap = state.snapshot()
        assert character_counts(snap) == [rules.deck_per_value] * rules.values
        held = [sum(t[v] for t in snap["tickets"]) for v in range(rules.values)]
        assert [h + s for h, s in zip(held, snap["stacks_left"])] == list(rules.stacks)
        assert snap["deck_size"] == sum(snap["deck_contents"])

    end = play_random(game, seed, check)
    snap = end.snapshot()
    json.dumps(snap)
    totals = []
    for p, row in enumerate(snap["scores"]):
        tickets = snap["tickets"][p]
        face = sum((v + 1) * k for v, k in enumerate(tickets))
        different = sum(1 for k in tickets if k)
        bonus = rules.chart[different - 1] if different else 0
        assert (row["ticket_face"], row["set_bonus"], row["total"], row["tickets"]) == (
            face, bonus, face + bonus, sum(tickets))
        totals.append(face + bonus)
    winner = snap["winner"]
    assert totals[winner] == max(totals)
    assert sum(snap["tickets"][winner]) == max(sum(snap["tickets"][p]) for p in range(rules.players)
                                               if totals[p] == max(totals))
    returns = end.returns()
    if rules.utility == "score":
        assert returns == [float(t) for t in totals]
    else:
        assert returns[winner] == 1.0 and sum(returns) == pytest.approx(0.0)
    assert snap["end_trigger"] in ("deck", "stacks")
    assert len(end.history()) <= game.max_game_length()


# ---------------------------------------------------------------- information states and observations


def test_information_states_have_perfect_recall_and_differ_between_players():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    seen = {p: [] for p in range(3)}

    def check(state):
        if state.is_terminal():
            return
        strings = [state.information_state_string(p) for p in range(3)]
        assert len(set(strings)) == 3
        for p, s in enumerate(strings):
            assert s.startswith(f"p{p}|")
            if seen[p]:
                # Perfect recall: what a player knew stays in its information state.
                assert s.startswith(seen[p][-1])
            seen[p].append(s)

    play_random(game, 11, check)


def test_information_state_hides_other_hands_and_the_face_down_tale_character():
    a = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    b = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [3], [1]])
    for t in (a, b):
        t.draw(2)
    assert a.state.information_state_string(0) == b.state.information_state_string(0)
    assert a.state.information_state_string(1) != b.state.information_state_string(1)
    c = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    c.draw(1)
    a.tale(park=1, hand=2)
    c.tale(park=1, hand=1)
    # The voters cannot tell a tall tale from a true one; the teller can.
    assert a.state.information_state_string(1) == c.state.information_state_string(1)
    assert a.state.information_state_string(0) != c.state.information_state_string(0)
    assert a.state.observation_string(2) == c.state.observation_string(2)
    view = a.state.player_view(1)
    assert view["tale"]["hidden_value"] is None and view["hands"][0] is None and view["deck_contents"] is None
    assert a.state.player_view(0)["tale"]["hidden_value"] == 2
    lean = a.state.player_view(1, include_events=False)
    assert lean["events"] is None and {**lean, "events": view["events"]} == view


def test_simultaneous_votes_are_hidden_until_all_are_cast_sequential_votes_are_not():
    for voting, visible in (("simultaneous", False), ("sequential", True)):
        t = Table(f"trustme_pinocchio(players=3,voting={voting})", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
        t.draw(1)
        t.tale(park=1, hand=1)
        u = Table(f"trustme_pinocchio(players=3,voting={voting})", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
        u.draw(1)
        u.tale(park=1, hand=1)
        t.vote(True)
        u.vote(False)
        same = t.state.information_state_string(2) == u.state.information_state_string(2)
        assert same is not visible
        assert (t.state.player_view(2)["tale"]["votes"][1] is not None) is visible


def test_observation_tensor_is_written_in_place_with_the_players_own_hand():
    t = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(5)
    game = t.game
    tensor = np.asarray(t.state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)
    from trustme_analysis.games.pinocchio.engine.observer import PinocchioObserver

    obs = game.make_py_observer()
    assert isinstance(obs, PinocchioObserver)
    buffer = obs.tensor
    obs.set_from(t.state, 0)
    assert obs.tensor is buffer
    assert list(obs.dict["hand"]) == [0, 0, 0, 0, 2, 0]
    assert list(obs.dict["park"]) == [1, 1, 1, 1, 0, 0]
    assert np.array_equal(tensor, obs.tensor)
    obs.set_from(t.state, 1)
    assert list(obs.dict["hand"]) == [0, 0, 0, 0, 0, 1]


def test_clone_is_independent_and_serialisation_round_trips():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    t = Table(game, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(1)
    t.tale(park=1, hand=5)
    clone = t.state.clone()
    clone.apply_action(game.codec.trust)
    assert t.snap["tale"]["votes"] == [None, None, None]
    assert clone.snapshot()["tale"]["votes"] == [None, True, None]
    clone.apply_action(game.codec.trust)  # trusted tall tale: Reputation, Park and Tickets change in the clone only
    assert clone.snapshot()["reputations"][0] == [1, 5] and clone.snapshot()["tickets"][0][3] == 1
    assert t.snap["reputations"][0] == [] and t.snap["park"] == [1, 2, 3, 4] and t.snap["tickets"][0] == [0] * 6
    text = pyspiel.serialize_game_and_state(game, t.state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.snapshot() == t.snap
    assert pickle.loads(pickle.dumps(t.state)).snapshot() == t.snap


# ---------------------------------------------------------------- OpenSpiel algorithms on a tiny variant


def test_open_spiel_algorithms_run_on_the_tiny_variant():
    game = pyspiel.load_game(TINY)
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True,
                                           to_string=lambda s: s.history_str())
    assert len(states) == 107
    uniform = policy_lib.TabularPolicy(game)
    python_nash_conv = exploitability.nash_conv(game, uniform)
    cpp_nash_conv = pyspiel.nash_conv(game, policy_lib.python_policy_to_pyspiel_policy(uniform))
    assert python_nash_conv == pytest.approx(cpp_nash_conv)
    assert python_nash_conv > 0.1
    solver = cfr.CFRSolver(game)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.nash_conv(game, average) < python_nash_conv / 5
    # One turn only: seat 0 draws the last Character, so the game ends after it and a bonus turn is forfeited.
    # Trusting a true tale then gains nothing over distrusting it, and trusting a tall tale hands seat 0 the only
    # Ticket, so "I do not trust you" is weakly dominant, no Ticket is ever gained, and the Coin makes the value 0.
    values = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert values[0] == pytest.approx(0.0, abs=0.05)


def test_game_sizes_follow_the_parameters():
    g2 = pyspiel.load_game("trustme_pinocchio(players=2)")
    g4 = pyspiel.load_game("trustme_pinocchio(players=4,utility=score)")
    assert g2.num_players() == 2 and g4.num_players() == 4
    assert g2.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert g4.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (g2.min_utility(), g2.max_utility()) == (-1.0, 1.0)
    assert g4.max_utility() == 6 + 10 + 12 + 12 + 10 + 6 + 21
    assert g2.num_distinct_actions() == g2.codec.num_actions
    g9 = pyspiel.load_game("trustme_pinocchio(values=9,players=4)")
    assert g9.rules.stacks == (9, 8, 7, 6, 5, 4, 3, 2, 1) and g9.rules.chart[-1] == 45


@settings(max_examples=60, deadline=None)
@given(rep=st.lists(st.integers(0, 4), min_size=5, max_size=5), stacks=st.lists(st.integers(0, 2), min_size=5,
                                                                                 max_size=5))
def test_usable_combos_are_exactly_the_sets_and_runs_the_reputation_holds(rep, stacks):
    game = pyspiel.load_game("trustme_pinocchio(players=3,values=5,copies=4)")
    state = game.new_initial_state()
    state._reps[0] = list(rep)
    state._stacks = list(stacks)
    expected = [i for i, c in enumerate(game.codec.combos)
                if stacks[c.length - 1] and all(h >= n for h, n in zip(rep, c.counts))]
    assert state._usable_combos() == expected
