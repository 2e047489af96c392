"""The ``trustme_liar`` heuristic bot: registry, knob checks, each decision rule on a scripted table (card counting
included), one policy drawn by ``choose``, seeding, that it beats the uniform random bot, and the search player's
belief and moves."""

from math import comb

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers games and bots)
from trustme_analysis.games.liar import BURN, LIAR, PASS, timeout_action
from trustme_analysis.games.liar.players.bots import (
    LiarHeuristicBot,
    belief,
    explain,
    habits,
    opponent_knobs,
    search_actions,
    seat_bluff_rates,
    seat_model,
)
from trustme_analysis.games.liar.players.heuristic import KNOB_NAMES, LiarKnobs
from trustme_analysis.games.liar.players.heuristic import bluff_chance, holds_at_least, unseen_copies
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.players.play import play_game

# After the pair discards both hands are {2, 3, 5, 6}; values 1 and 4 are entirely discarded; of the 5s, two are
# discarded (seat 1's pair), so each seat sees one 5 it cannot place (the other seat's).
P0 = [1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6]
P1 = [1, 1, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6]
G2 = "trustme_liar(players=2,values=6,first_player=seat0)"


def table(game_string=G2, hands=(P0, P1)):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    for action in game.deal_actions([list(h) for h in hands]):
        state.apply_action(action)
    return game, state


def bot(game, seat, seed=0, **knobs):
    return make_bot(game, "heuristic", seat, np.random.default_rng(seed), **knobs)


def probs(game, state, seat, **knobs):
    return {a: p for a, p in bot(game, seat, **knobs).action_probabilities(state).items() if p > 0}


def test_registered_with_knobs_checked():
    game = pyspiel.load_game(G2)
    assert bot_kinds("trustme_liar") == ["heuristic", "policy", "probe", "random", "search", "trained"]
    b = bot(game, 0, bluff_rate=0.5)
    assert isinstance(b, LiarHeuristicBot) and b.knobs()["bluff_rate"] == 0.5 and b.reads == ()
    with pytest.raises(ValueError, match=r"bluff_rate=1.5 is not allowed; allowed: a number 0..1"):
        bot(game, 0, bluff_rate=1.5)
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['nerve'\]"):
        bot(game, 0, nerve=1)
    with pytest.raises(ValueError, match="bluff_extra"):
        bot(game, 0, bluff_extra=-1)
    with pytest.raises(ValueError, match=r"bluff_slack=-1 is not allowed; allowed: an integer >= 0"):
        bot(game, 0, bluff_slack=-1)


def test_the_starter_plays_a_value_it_holds_honestly_by_default():
    # Every value held once, each with one copy out of sight: any of them, one true card, no bluff (a false card
    # added to a value the other seat holds could be proven false).
    game, state = table()
    assert probs(game, state, 0) == {game.play_action([v], v): pytest.approx(0.25) for v in (2, 3, 5, 6)}


def test_a_starter_bluffs_only_as_far_as_nobody_could_prove_it_false():
    game, state = table()
    # With slack 1 one false card may be added; the false card is one of the other values, uniformly.
    p = probs(game, state, 0, bluff_slack=1, bluff_start=1.0)
    assert p[game.play_action([2, 3], 2)] == pytest.approx(0.25 / 3)
    assert game.play_action([2], 2) not in p
    assert sum(p.values()) == pytest.approx(1.0)
    # bluff_extra caps the false cards; bluff_start the chance.
    p = probs(game, state, 0, bluff_slack=3, bluff_extra=2, bluff_start=0.5)
    assert p[game.play_action([2], 2)] == pytest.approx(0.125)
    assert p[game.play_action([2, 3, 5], 2)] == pytest.approx(0.125 / 3)


def test_impossible_claims_are_called():
    game, state = table()
    state.apply_action(game.play_action([2, 3], 5))  # two 5s claimed; seat 1 can place all but one
    assert probs(game, state, 1) == {LIAR: 1.0}
    game, state = table()
    state.apply_action(game.play_action([2], 1))  # every 1 was discarded
    assert bluff_chance(state.player_view(1), 0.3) == 1.0 and probs(game, state, 1) == {LIAR: 1.0}


def test_a_claim_the_starter_could_hold_is_answered_with_true_cards():
    # Seat 0 claims one 5: the only 5 seat 1 cannot place is in seat 0's hand for sure, so the claim is as likely
    # honest as the prior says (0.3 < 0.5): seat 1 adds its own 5.
    game, state = table()
    state.apply_action(game.play_action([2], 5))
    view = state.player_view(1)
    assert unseen_copies(view)[4] == 1 and bluff_chance(view, 0.3) == pytest.approx(0.3)
    assert probs(game, state, 1) == {game.play_action([5], 5): 1.0}
    # A starter chose the value: the claim of one card is not suspicious even if the card could be anywhere.
    assert holds_at_least(10, 1, 3, 1) == pytest.approx(0.3)
    assert holds_at_least(10, 2, 3, 2) == pytest.approx(1 / 15)
    assert holds_at_least(5, 1, 9, 1) == 1.0 and holds_at_least(5, 1, 3, 2) == 0.0


def test_card_counting_follows_the_cards_a_player_saw_picked_up():
    """The heuristic counts what it saw go into a hand ("Si elles sont toutes bonnes, c'est l'accusateur qui la
    ramasse"): seat 0's true 5, picked up by seat 1 after a wrong call, is known to be in seat 1's hand until seat 1
    plays again."""
    game, state = table()
    state.apply_action(game.play_action([5], 5))
    state.apply_action(LIAR)  # wrong: seat 1 picks up the 5, seat 0 starts
    view = state.player_view(0)
    assert view["known"][1] == [0, 0, 0, 0, 1, 0]
    # Seat 0 can place one more 5 (the one it saw go); seat 1's own 5 stays out of its sight.
    assert unseen_copies(view)[4] == 1 and unseen_copies(table()[1].player_view(0))[4] == 1
    assert state.player_view(1)["known"][0] == [0] * 6  # the picker knew its own cards already
    state.apply_action(game.play_action([2], 2))
    state.apply_action(game.play_action([5, 5], 2))  # seat 1 plays: what it held may have left its hand
    assert state.player_view(0)["known"][1] == [0] * 6


def test_a_responder_claim_is_called_when_the_claimant_unlikely_held_the_value():
    # Three players; seat 1's hand is large and unknown, one copy of 2 is out of seat 2's sight.
    three = [[1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 4, 5, 5, 6], [1, 1, 2, 2, 3, 3, 4, 5]]
    game, state = table("trustme_liar(players=3,values=6,first_player=seat0)", three)
    state.apply_action(game.play_action([1], 1))  # seat 0 starts with its 1
    state.apply_action(game.play_action([6], 1))  # seat 1 responds with a false "1"
    view = state.player_view(2)
    # Seat 2 discarded its pair of 1s: 2 copies are out of its sight, one of them played by seat 0 (taken as what
    # it claimed). Seat 1 held 4 cards before this play, drawn from the 9 seat 2 cannot place besides that one: it
    # held the last 1 with chance 1 - C(8, 4) / C(9, 4) = 4/9.
    assert unseen_copies(view)[0] == 2
    held = 1 - comb(8, 4) / comb(9, 4)
    assert bluff_chance(view, 0.3) == pytest.approx(0.3 * (1 - held) / (0.3 * (1 - held) + held))
    assert probs(game, state, 2, call_threshold=0.2) == {LIAR: 1.0}
    assert LIAR not in probs(game, state, 2)


def test_responders_bluff_only_when_allowed_and_otherwise_pass():
    game, state = table()
    state.apply_action(game.play_action([2], 2))  # seat 0's true 2
    state.apply_action(game.play_action([2], 2))  # seat 1's true 2
    # Seat 0 holds no 2 any more: it passes (a "2" more could be proven false by seat 1, who saw the discards).
    assert probs(game, state, 0) == {PASS: 1.0}
    p = probs(game, state, 0, bluff_slack=2, bluff_rate=0.6)
    assert p[PASS] == pytest.approx(0.4) and p[game.play_action([3], 2)] == pytest.approx(0.2)
    assert probs(game, state, 0, bluff_slack=2, bluff_rate=0.6, bluff_max_pile=1) == {PASS: 1.0}


def test_add_or_burn():
    game, state = table()
    state.apply_action(game.play_action([3], 2))
    state.apply_action(PASS)
    assert probs(game, state, 0) == {game.play_action([2], 2): 1.0}  # adds its true 2
    game, state = table()
    state.apply_action(game.play_action([2], 2))
    state.apply_action(PASS)
    assert probs(game, state, 0) == {BURN: 1.0}
    p = probs(game, state, 0, bluff_slack=2, burn_rate=0.25)
    assert p[BURN] == pytest.approx(0.25) and p[game.play_action([6], 2)] == pytest.approx(0.25)


def test_last_cards_are_called_when_the_bluff_chance_reaches_the_threshold():
    game, state = table()
    state.apply_action(game.play_action([2, 3, 5, 6], 2))  # seat 0's last cards: four 2s claimed, impossible
    assert state.snapshot()["phase"] == "last_cards"
    assert probs(game, state, 1) == {LIAR: 1.0}
    game, state = table()
    state.apply_action(game.play_action([2, 3, 5], 2))
    state.apply_action(PASS)
    state.apply_action(BURN)
    state.apply_action(game.play_action([6], 6))  # seat 0's last card; the one 6 out of seat 1's sight: plausible
    assert bluff_chance(state.player_view(1), 0.3) == pytest.approx(0.3)
    assert probs(game, state, 1) == {LIAR: 1.0}  # 0.3 >= call_last_threshold 0.3
    assert probs(game, state, 1, call_last_threshold=0.5) == {PASS: 1.0}


def test_timeout_rate_mixes_in_the_timeout_action():
    game, state = table()
    p = probs(game, state, 0, timeout_rate=0.5)
    assert timeout_action(state) == game.play_action([2], 2)
    assert p[game.play_action([2], 2)] == pytest.approx(0.5 + 0.5 / 4)
    assert p[game.play_action([5], 5)] == pytest.approx(0.5 / 4)
    assert bot(game, 0, timeout_rate=1.0).step(state) == timeout_action(state)


@pytest.mark.parametrize("knobs", [{}, {"bluff_slack": 2, "bluff_extra": 2, "timeout_rate": 0.1, "call_rate": 0.3}])
def test_choose_draws_from_the_stated_probabilities(knobs):
    """One policy: at every decision of a few games choose() takes only actions of positive probability, and over
    200 generators its frequencies stay within 4.5 standard errors of the stated probabilities."""
    game = pyspiel.load_game("trustme_liar(players=3,values=5,copies=4,max_play=3)")
    rng = np.random.default_rng(7)
    draws = 200
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, p = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(p) / sum(p))])
                continue
            b = bot(game, state.current_player(), **knobs)
            stated = b.action_probabilities(state)
            assert sorted(stated) == sorted(state.legal_actions())
            assert sum(stated.values()) == pytest.approx(1.0)
            counts: dict[int, int] = {}
            for d in range(draws):
                b.rng = np.random.default_rng(10_000 + d)
                a = b.choose(state)
                assert stated[a] > 0
                counts[a] = counts.get(a, 0) + 1
            for a, p in stated.items():
                assert abs(counts.get(a, 0) / draws - p) <= 4.5 * np.sqrt(p * (1 - p) / draws) + 1e-12
            state.apply_action(b.choose(state))


def test_same_seed_same_game():
    game = pyspiel.load_game("trustme_liar(players=3,values=8,mode=trustme)")

    def run(seed):
        rng = np.random.default_rng(seed)
        return play_game(game, [make_bot(game, "heuristic", s, rng) for s in range(3)], rng).history()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_heuristic_beats_random_in_classique():
    game = pyspiel.load_game("trustme_liar(players=2,values=8)")
    rng = np.random.default_rng(2024)
    wins = 0
    for g in range(40):
        seats = [make_bot(game, "heuristic" if (s + g) % 2 == 0 else "random", s, rng) for s in range(2)]
        state = play_game(game, seats, rng)
        wins += state.returns()[g % 2] > 0
    assert wins >= 34


# ---------------------------------------------------------------- the search player's belief and moves


def test_belief_weighs_worlds_by_the_claims_and_passes_of_this_round():
    game, state = table("trustme_liar(players=3,values=6,first_player=seat0)",
                        [[1, 2, 3, 4, 5, 6, 6, 6], [1, 2, 3, 4, 4, 5, 5, 6], [1, 1, 2, 2, 3, 3, 4, 5]])
    state.apply_action(game.play_action([1], 1))
    state.apply_action(PASS)  # seat 1 passes on 1s
    rng = np.random.default_rng(0)
    worlds = [state.resample_from_infostate(2, rng.random) for _ in range(200)]
    weights = belief(state, 2, worlds, prior=0.3)
    for world, w in zip(worlds, weights):
        honest = world._table.pile[0][3] == 0
        holds = world._table.hands[1][0] > 0
        # The start holds one card: false, it holds none of the value announced (which the heuristic never plays).
        assert w == pytest.approx((0.7 if honest else 0.3 * 0.1) * (0.05 if holds else 1.0))
        # Each world carries the searching seat's model of the seats for its play-outs.
        assert np.array_equal(world._seat_knobs, opponent_knobs(state, 2))
    # Both readings of the start occur. Seat 1 holds a 1 in every world a history reaches: the two 1s seat 2 cannot
    # place are one in each other hand (two in one hand would have been discarded as a pair).
    assert all(world._table.hands[1][0] == 1 for world in worlds)
    assert len(set(np.round(weights, 9))) == 2


def test_habits_count_what_each_seat_was_seen_doing():
    game, state = table()
    state.apply_action(game.play_action([2], 3))  # seat 0 announces a 2 as a 3: false
    state.apply_action(LIAR)  # seat 1 calls: caught, seat 0 picks up, seat 1 starts
    state.apply_action(game.play_action([3], 3))  # seat 1: an honest 3
    state.apply_action(PASS)  # seat 0 passes: a chance to call
    state.apply_action(BURN)  # seat 1 burns and starts again
    state.apply_action(game.play_action([5], 5))  # an honest 5
    state.apply_action(LIAR)  # seat 0 calls it: wrongly; seat 0 picks up
    seen = habits(state)
    # (false turned over, honest turned over, calls, chances to call) per seat
    assert seen.tolist() == [[1, 0, 1, 2], [0, 1, 1, 1]]


def test_a_seat_is_modelled_as_the_heuristic_until_its_habits_say_otherwise():
    assert explain(0, 0, 0.04) == ("heuristic", 0.04)  # nothing seen
    assert explain(1, 1, 0.04) == ("always", 0.95)  # one call in one chance: 0.3 * 0.95 beats 0.6 * 0.04
    assert explain(2, 6, 0.04) == ("heuristic", 0.04)  # the heuristic calls in clusters: not yet a habit
    assert explain(0, 20, 0.04) == ("heuristic", 0.04)  # it rarely calls in four players either
    assert explain(0, 40, 0.08) == ("never", 0.005)
    game, state = table()
    col = {name: i for i, name in enumerate(KNOB_NAMES)}
    default = LiarKnobs().array()
    assert np.array_equal(opponent_knobs(state, 0), np.tile(default, (2, 1)))  # nothing seen: the heuristic
    # Seat 0 is seen bluffing and caught three times, seat 1 calling at each of its three chances.
    for _ in range(3):
        state._table.events.append(("liar", 1, 0, 1, (0,), 1, 0, (0,)))
    assert seat_model(state) == [(("always", 0.95), ("heuristic", 0.08)), (("heuristic", 0.1), ("always", 0.95))]
    model = opponent_knobs(state, 1)
    assert np.array_equal(model[1], default)  # the searching seat plays the default heuristic
    assert model[0, col["bluff_start"]] == model[0, col["bluff_rate"]] == 0.95
    assert model[0, col["burn_rate"]] == pytest.approx(0.05)
    assert model[0, col["bluff_slack"]] == game.rules.max_play
    assert model[0, col["call_rate"]] == 0.0 and model[0, col["call_threshold"]] == 0.5  # still the heuristic
    model = opponent_knobs(state, 0)
    assert model[1, col["call_rate"]] == 0.95 and model[1, col["call_threshold"]] > 1
    assert model[1, col["bluff_start"]] == default[col["bluff_start"]]
    # The belief's bluff rate: the heuristic's prior, or the habit's rate where that explains the plays best.
    assert seat_bluff_rates(state, prior=0.3).tolist() == [0.95, 0.3]


def test_search_actions_are_a_few_legal_moves_per_announced_value():
    game = pyspiel.load_game("trustme_liar(players=2,first_player=seat0)")
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, p = zip(*state.chance_outcomes())
        state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(p) / sum(p))])
    legal = state.legal_actions()
    moves = search_actions(state, 0)
    assert len(legal) > 500 and 13 <= len(moves) <= 3 * 13 and set(moves) <= set(legal)
    assert len(set(moves)) == len(moves)
    state.apply_action(moves[0])
    assert search_actions(state, 1)[:2] == [LIAR, PASS]
