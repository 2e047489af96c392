"""``trustme_liar`` as an OpenSpiel game: parameter checks, OpenSpiel's random simulation test, the timeout rule,
the snapshot, invariants (cards conserved, every game ends) and the sizes of the reduced variants."""

import json

import numpy as np
import pyspiel
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from open_spiel.python.observation import make_observation

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.liar import BURN, LIAR, PASS, timeout_action
from trustme_analysis.games.liar.engine.variants import TINY_VARIANTS, tree_size
from trustme_analysis.engine.params import ParameterError

P0 = [1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6]
P1 = [1, 1, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6]


def table(game_string, hands=(P0, P1)):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    for action in game.deal_actions([list(h) for h in hands]):
        state.apply_action(action)
    return game, state


def random_game(game, rng, check=None):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))]
        else:
            legal = state.legal_actions()
            action = legal[rng.integers(len(legal))]
        state.apply_action(action)
        if check:
            check(state)
    return state


# ---------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    "params, name, allowed",
    [
        ("players=7", "players", "from 2 to 6"),
        ("players=1", "players", "from 2 to 6"),
        ("mode=rapide", "mode", "'classique', 'trustme'"),
        ("utility=points", "utility", "mode='classique'"),
        ("players=2,first_player=seat2", "first_player", "'random' or a seat, one of seat0, seat1"),
        ("announce_gone=maybe", "announce_gone", "'allowed', 'forbidden'"),
        ("false_card_accepted=never", "false_card_accepted", "'covered', 'round_end'"),
        ("last_cards=anything", "last_cards", "'call_or_pass', 'until_covered'"),
        ("values=1,copies=2,players=3", "values", "values x copies >= players"),
        ("max_turns=0", "max_turns", "an integer from 1"),
    ],
)
def test_bad_parameters_fail_at_load_naming_parameter_value_and_range(params, name, allowed):
    with pytest.raises(ParameterError) as err:
        pyspiel.load_game(f"trustme_liar({params})")
    assert err.value.name == name
    assert allowed in str(err.value)


def test_defaults_are_the_rule_text_and_assumptions_are_listed():
    game = pyspiel.load_game("trustme_liar")
    c = game.rules
    assert (c.players, c.values, c.copies, c.max_play, c.mode, c.seconds_per_turn) == (4, 13, 4, 4, "classique", 30)
    assert (c.points_going_out, c.points_card_in_hand, c.points_false_card) == (10, -1, 25)
    assert (c.points_unmasked, c.points_wrongly_accused) == (10, 10)
    assert c.first_player == "random"
    assert game.num_players() == 4 and game.max_game_length() == 1 + 13 + 1000
    names = [a["parameter"] for a in game.assumptions()]
    assert names[:5] == ["announce_gone", "false_card_accepted", "last_cards", "first_player", "max_turns"]
    assert all(set(a) == {"parameter", "value", "text"} and a["text"] for a in game.assumptions())
    rapide = pyspiel.load_game("trustme_liar(rapide=True)")
    assert rapide.rules.seconds_per_turn == 15
    assert rapide.new_initial_state().snapshot()["turn_seconds"] == 15


def test_announcing_a_value_known_to_be_gone_is_a_parameter():
    # Values 1 and 4 are entirely among the public discards of this deal.
    for setting, allowed in (("allowed", True), ("forbidden", False)):
        game, state = table(f"trustme_liar(players=2,values=6,announce_gone={setting})")
        legal = state.legal_actions()
        assert (game.play_action([2], 1) in legal) is allowed
        assert (game.play_action([2], 4) in legal) is allowed
        assert game.play_action([2], 2) in legal
        assert len(legal) == 15 * (6 if allowed else 4)


def test_a_play_that_cannot_exist_is_refused_with_the_allowed_shape():
    game = pyspiel.load_game("trustme_liar(players=2,values=6)")
    with pytest.raises(ValueError, match=r"not a play: cards \[2, 2, 2, 2, 2\] announced as 2; a play is 1 to 4"):
        game.play_action([2] * 5, 2)
    with pytest.raises(ValueError, match="announced as 7"):
        game.play_action([2], 7)


def test_action_strings_name_cards_and_announcement():
    game, state = table("trustme_liar(players=2,values=6)")
    action = game.play_action([6, 2], 5)
    assert state.action_to_string(0, action) == "Play [2,6] as 2x5"
    assert [state.action_to_string(0, a) for a in (LIAR, PASS, BURN)] == ["Liar", "Pass", "Burn"]


# ---------------------------------------------------------------- OpenSpiel's own checks


@pytest.mark.parametrize(
    "game_string, sims",
    [
        ("trustme_liar(players=2)", 3),
        ("trustme_liar(players=2,mode=trustme)", 3),
        ("trustme_liar(players=4)", 3),
        ("trustme_liar(players=4,mode=trustme)", 3),
        ("trustme_liar(players=6)", 3),
        ("trustme_liar(players=6,mode=trustme)", 3),
        ("trustme_liar(players=4,values=8)", 3),
        ("trustme_liar(players=4,values=8,mode=trustme,false_card_accepted=round_end)", 3),
        ("trustme_liar(players=3,values=8,last_cards=until_covered,announce_gone=forbidden)", 3),
        (TINY_VARIANTS["tiny"], 10),
        (TINY_VARIANTS["tiny_trustme"], 10),
        (TINY_VARIANTS["tiny_plays2"], 10),
    ],
)
def test_random_sim_test_with_serialization(game_string, sims):
    pyspiel.random_sim_test(pyspiel.load_game(game_string), num_sims=sims, serialize=True, verbose=False)


def test_states_survive_pickling_and_cloning():
    import pickle

    game = pyspiel.load_game("trustme_liar(players=3,values=8,mode=trustme)")
    state = random_game(game, np.random.default_rng(3))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.snapshot() == state.snapshot()
    clone = state.clone()
    assert clone.snapshot() == state.snapshot()


# ---------------------------------------------------------------- the turn timer


def test_timeout_plays_the_starters_lowest_card_truthfully_and_otherwise_passes():
    game, state = table("trustme_liar(players=2,values=6)")
    assert timeout_action(state) == game.play_action([2], 2)  # hand {2, 3, 5, 6}
    state.apply_action(timeout_action(state))
    assert state.snapshot()["pile"] == [{"player": 0, "announced": 2, "count": 1, "cards": [2], "false": 0}]
    assert timeout_action(state) == PASS  # seat 1 responds
    state.apply_action(PASS)
    assert timeout_action(state) == BURN  # seat 0, everyone else passed: cannot pass, so does not add
    state.apply_action(game.play_action([3, 5, 6], 2))  # seat 0's last cards
    assert timeout_action(state) == PASS
    with pytest.raises(ValueError, match="no player is to act"):
        timeout_action(pyspiel.load_game("trustme_liar").new_initial_state())


def test_a_seat_that_times_out_in_a_sweep_plays_the_timeout_action(tmp_path):
    """"Tu as 30 secondes pour te décider, ou 15 en mode Rapide. Temps écoulé ? Si tu commences, ta carte la plus
    basse est jouée sans bluff ; sinon, tu passes." The turn timer is reached in sweeps through the heuristic bot's
    knob timeout_rate: a seat that always times out plays the timeout action at every decision."""
    from trustme_analysis.outdir import load_records
    from trustme_analysis.sweep.runner import run_sweep
    from trustme_analysis.sweep.spec import parse_spec

    spec = parse_spec({"title": "time-outs", "game": "trustme_liar", "params": {"players": 2, "values": 6},
                       "games": 6, "seed": 3, "chunk_size": 6,
                       "lineups": {"slow": {"seats": [{"bot": "heuristic", "knobs": {"timeout_rate": 1.0}},
                                                      "heuristic"]}}})
    run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    records = load_records(tmp_path)
    slow = records[records["seat"] == 0]
    # Timing out never bluffs, never challenges, and plays one card at a time.
    assert slow["plays"].sum() > 0 and slow["false_cards_played"].sum() == 0 and slow["calls"].sum() == 0
    assert slow["cards_played"].sum() == slow["plays"].sum()


# ---------------------------------------------------------------- snapshot and invariants


def deck_conserved(state):
    snap = state.snapshot()
    if snap["phase"] == "deal":
        return
    config = state.get_game().rules
    seen = [0] * config.values
    for group in (snap["hands"], snap["discards"], [snap["burned"]], [c for p in snap["pile"] for c in [p["cards"]]]):
        for cards in group:
            for v in cards:
                seen[v - 1] += 1
    assert seen == [config.copies] * config.values, snap


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    values=st.integers(2, 8),
    copies=st.integers(1, 4),
    max_play=st.integers(1, 4),
    mode=st.sampled_from(["classique", "trustme"]),
    accepted=st.sampled_from(["covered", "round_end"]),
    last_cards=st.sampled_from(["call_or_pass", "until_covered"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_cards_are_conserved_and_every_game_ends(players, values, copies, max_play, mode, accepted, last_cards, seed):
    assume(values * copies >= players)
    game = pyspiel.load_game(
        f"trustme_liar(players={players},values={values},copies={copies},max_play={max_play},mode={mode},"
        f"false_card_accepted={accepted},last_cards={last_cards},max_turns=300)"
    )
    state = random_game(game, np.random.default_rng(seed), check=deck_conserved)
    snap = state.snapshot()
    assert state.is_terminal() and snap["turns"] <= 300
    assert (snap["end"] == "turn_cap") == (snap["out"] == [])
    json.dumps(snap)
    if mode == "trustme":
        assert [sum(s.values()) for s in snap["points_by_source"]] == snap["scores"]
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(state.returns()) == pytest.approx(0.0)
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())


@pytest.mark.parametrize("perfect_recall", [False, True])
def test_public_observations_are_the_same_for_every_player(perfect_recall):
    """A public observer (private_info=NONE) gives every player the same string at every state of random playouts;
    the private part appears only with SINGLE_PLAYER (public observers once leaked)."""
    game = pyspiel.load_game("trustme_liar(players=3,values=6,mode=trustme)")
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    rng = np.random.default_rng(5)
    states = differ = 0

    def check(state):
        nonlocal states, differ
        strings = {public.string_from(state, p) for p in range(3)}
        assert len(strings) == 1, strings
        states += 1
        own = [private.string_from(state, p) for p in range(3)]
        differ += len(set(own)) > 1
        if perfect_recall:
            assert own[0] == state.information_state_string(0)
        else:
            assert own[0] == state.observation_string(0)

    for _ in range(10):
        random_game(game, rng, check=check)
    assert states > 100 and differ > states // 2


def test_observer_settings_the_game_does_not_provide_are_refused():
    game = pyspiel.load_game("trustme_liar(players=2)")
    with pytest.raises(ValueError, match="ALL_PLAYERS is not provided"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                         private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    with pytest.raises(ValueError, match="public_info=False is not provided"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True, public_info=False))
    with pytest.raises(ValueError, match="takes no parameters"):
        game.make_py_observer(None, {"x": 1})


def test_every_event_has_a_kind_and_the_fields_of_its_schema():
    """One event schema (events.py): each event dict is keyed "kind" and holds exactly the fields listed for it."""
    from trustme_analysis.games.liar.engine import events

    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import play_game

    game = pyspiel.load_game("trustme_liar(players=4,values=8,mode=trustme,last_cards=until_covered)")
    seen = set()
    for seed in range(6):
        rng = np.random.default_rng(seed)
        kind = "random" if seed % 2 else "heuristic"
        state = play_game(game, [make_bot(game, kind, p, rng) for p in range(4)], rng)
        for e in state.snapshot()["events"]:
            assert e["kind"] in events.KINDS and list(e) == ["kind", *events.FIELDS[e["kind"]]]
            seen.add(e["kind"])
    assert {"first_player", "discard", "play", "pass", "liar", "burn", "out"} <= seen


def test_snapshot_is_json_and_events_replay_the_game():
    game = pyspiel.load_game("trustme_liar(players=4,values=8,mode=trustme)")
    state = random_game(game, np.random.default_rng(11))
    snap = json.loads(json.dumps(state.snapshot()))
    kinds = {e["kind"] for e in snap["events"]}
    assert {"discard", "play", "out"} <= kinds or snap["end"] == "turn_cap"
    plays = [e for e in snap["events"] if e["kind"] == "play"]
    turns = [e for e in snap["events"] if e["kind"] in ("play", "pass", "liar", "burn")]
    assert len(turns) == snap["turns"]
    assert all(e["count"] == len(e["cards"]) and e["false"] == sum(c != e["announced"] for c in e["cards"])
               for e in plays)


# ---------------------------------------------------------------- reduced variants for exact solvers


def test_tiny_variant_sizes(capsys):
    size = tree_size(pyspiel.load_game(TINY_VARIANTS["tiny"]), check_perfect_recall=True)
    with capsys.disabled():
        print(f"\n{TINY_VARIANTS['tiny']}: {size}")
    assert size.histories == 21_132 and size.infostates == (1_330, 1_059)
    assert size.histories < 1_000_000


@settings(max_examples=40, deadline=None)
@given(hand=st.lists(st.integers(0, 4), min_size=6, max_size=6), max_play=st.integers(1, 4))
def test_legal_plays_are_exactly_the_sub_multisets_of_the_hand(hand, max_play):
    from trustme_analysis.games.liar.engine import plays

    game = pyspiel.load_game(f"trustme_liar(values=6,max_play={max_play})")
    fast = game.play_table.play_actions(hand, [2])
    slow = sorted(game.play_table.play_action(m, 2) for m in plays.sub_multisets(tuple(hand), max_play))
    assert fast == slow


def test_tiny_variant_is_solved_by_cfr():
    import cfr

    result = cfr.solve(TINY_VARIANTS["tiny"], algorithm="cfr+", iterations=300, eval_every=300)
    assert result.curve["exploitability"].iloc[-1] < 0.01
    # The starter's edge in the solved tiny game (rank utility: +1 win, -1 loss): about +0.6 for seat 0.
    value = cfr.expected_values(result.compiled, result.average)
    assert value[0] == pytest.approx(0.6, abs=0.02) and value[0] + value[1] == pytest.approx(0.0)


def test_perfect_recall_check_catches_a_forgetful_information_state(monkeypatch):
    import trustme_analysis.games.liar.engine.events as events

    # Forget the history (keep only the deal and the hand): the check must notice.
    monkeypatch.setattr(events, "info_string", lambda event, viewer: "")
    with pytest.raises(ValueError, match="two different pasts"):
        tree_size(pyspiel.load_game("trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=4)"),
                  check_perfect_recall=True)
