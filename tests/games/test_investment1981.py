"""trustme_1981_investment: the rulebook's investment example, the round's order, sizes of the presets."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import get_all_states

import trustme_analysis  # noqa: F401
from trustme_analysis.games.board1981.engine.investing import (
    BEEN_HAD,
    BUY,
    EMPTY,
    ONE_STACK,
    TWO_STACKS,
    invest,
    investing_order,
    payoff,
)
from trustme_analysis.games.board1981.engine.investment import PRESETS

HOLD = 0


def test_rulebook_example_shared_rule_functions():
    # "$60 and 25 shares. You decide to buy 50 more ... You now have a total of $10 and 75 shares."
    money, shares, to_reserve, bank_in, bank_out = invest(BUY, 50, investor=1, claimant=0, money=60, shares=25)
    assert (money, shares, to_reserve, bank_in, bank_out) == (10, 75, 50, 0, 0)
    assert payoff(TWO_STACKS, 75) == (150, 75)
    assert payoff(ONE_STACK, 75) == (75, 75)
    assert payoff(EMPTY, 75) == (0, 75)
    assert payoff(BEEN_HAD, 75) == (0, 0)


@pytest.mark.parametrize(
    "card, money, shares",
    [(ONE_STACK, 10 + 75, 75), (TWO_STACKS, 10 + 150, 75), (EMPTY, 10, 75), (BEEN_HAD, 10, 0)],
)
def test_rulebook_example_played(card, money, shares):
    game = pyspiel.load_game(
        "trustme_1981_investment",
        {"players": 2, "money_each": "5/60", "shares_each": "0/25", "lots": "50", "seen": 0, "utility": "wealth"},
    )
    state = game.new_initial_state()
    state.apply_action(card)
    assert state.current_player() == 1  # from the claimant's left, the claimant last
    buy_50 = 1
    assert game.investing.label(buy_50) == "buy 50"
    state.apply_action(buy_50)
    assert state.snapshot()["money"] == [5, 10] and state.snapshot()["reserve"] == 50
    state.apply_action(HOLD)
    assert state.is_terminal()
    snap = state.snapshot()
    assert snap["money"][1] == money and snap["shares"][1] == shares
    assert snap["money"][0] == 5 + 50  # the claimant takes the reserve account
    assert state.returns() == [float(55), float(money + shares)]


def test_order_from_claimants_left_claimant_last():
    assert investing_order(2, 4) == (3, 0, 1, 2)
    game = pyspiel.load_game("trustme_1981_investment(players=3,claimant=1,seen=100)")
    state = game.new_initial_state()
    state.apply_action(EMPTY)
    order = []
    while not state.is_terminal():
        order.append(state.current_player())
        state.apply_action(HOLD)
    assert order == [2, 0, 1]


def test_buying_own_claim_pays_the_bank_and_divesting_is_paid_by_it():
    game = pyspiel.load_game("trustme_1981_investment(players=2,seen=100,lots=1/5/10)")
    state = game.new_initial_state()
    state.apply_action(EMPTY)
    state.apply_action(4)  # p1 divests 1 -> $11, 9 shares
    state.apply_action(3)  # p0 (claimant) buys 10 of its own claim -> $0, 20 shares, paid to the Bank
    snap = state.snapshot()
    assert snap["money"] == [0, 11] and snap["shares"] == [20, 9]
    assert snap["bank"] == {"bank_in": 10, "bank_out": 1} and snap["reserve"] == 0


def test_who_has_seen_is_chance_and_public_the_card_private():
    game = pyspiel.load_game("trustme_1981_investment(players=2,seen_each=100/30)")
    state = game.new_initial_state()
    state.apply_action(TWO_STACKS)
    assert dict(state.chance_outcomes()) == pytest.approx({0: 0.7, 1: 0.3})
    state.apply_action(0)
    assert "card:?" in state.information_state_string(1) and "card:two" in state.information_state_string(0)
    assert "seen:10" in state.information_state_string(1)


def _walk(game):
    histories = terminals = 0
    infosets = [set() for _ in range(game.num_players())]
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            terminals += 1
        elif state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
        else:
            p = state.current_player()
            infosets[p].add(state.information_state_string(p))
            stack.extend(state.child(a) for a in state.legal_actions())
    return histories, terminals, [len(s) for s in infosets]


def test_preset_sizes_printed_and_tiny_matches_a_hand_count():
    sizes = {}
    for name in ("tiny", "small", "three"):
        sizes[name] = _walk(pyspiel.load_game(PRESETS[name]))
        print(f"{name}: histories={sizes[name][0]} terminals={sizes[name][1]} infosets={sizes[name][2]}")
    # tiny: 3 cards x (p1 saw or not) x 6 choices of p1 x 6 choices of p0 ($2, 2 shares, lots 1/2).
    assert sizes["tiny"][1] == 3 * 2 * 6 * 6
    assert sizes["tiny"][0] == 1 + 3 + 3 * 2 + 3 * 2 * 6 + 3 * 2 * 6 * 6
    # p1 knows the card only when it saw it (1 + 3 infosets); p0 never saw, sees p1's flag and choice (2 x 6).
    assert sizes["tiny"][2] == [2 * 6, 1 + 3]
    # OpenSpiel's own enumeration agrees (it keys states by history, so every history is one entry).
    every = get_all_states.get_all_states(
        pyspiel.load_game(PRESETS["tiny"]), include_terminals=True, include_chance_states=True
    )
    assert len(every) == sizes["tiny"][0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(players):
    game = pyspiel.load_game(f"trustme_1981_investment(players={players})")
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_presets_pass_random_sim_test():
    for preset in PRESETS.values():
        pyspiel.random_sim_test(pyspiel.load_game(preset), num_sims=3, serialize=True, verbose=False)


def test_bad_parameters_are_named():
    with pytest.raises(Exception, match="money_each='1/2/3'"):
        pyspiel.load_game("trustme_1981_investment(players=2,money_each=1/2/3)")
    with pytest.raises(Exception, match="claimant=2"):
        pyspiel.load_game("trustme_1981_investment(players=2,claimant=2)")
    with pytest.raises(Exception, match="seen=101"):
        pyspiel.load_game("trustme_1981_investment(seen=101)")


def test_tiny_preset_solved_by_the_cfr_package():
    cfr = pytest.importorskip("cfr")
    game = pyspiel.load_game(PRESETS["tiny"])
    result = cfr.solve(game, algorithm="cfr+", iterations=1000, eval_every=500)
    assert result.metric == "exploitability"
    assert result.curve["exploitability"].iloc[-1] < 1e-3
    # The solved policy is a proper distribution at every decision, e.g. the informed investor's.
    state = game.new_initial_state()
    state.apply_action(BEEN_HAD)
    state.apply_action(1)  # p1 looked
    probs = result.policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    money=st.integers(0, 12),
    shares=st.integers(0, 12),
    claimant=st.integers(0, 3),
)
def test_money_conserved_up_to_the_bank_and_shares_never_negative(seed, players, money, shares, claimant):
    game = pyspiel.load_game(
        "trustme_1981_investment",
        {"players": players, "money": money, "shares": shares, "claimant": claimant % players, "lots": "1/5/10"},
    )
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        snap = state.snapshot()
        bank = snap["bank"]
        assert sum(snap["money"]) + snap["reserve"] == players * money + bank["bank_out"] - bank["bank_in"]
        assert min(snap["shares"]) >= 0 and min(snap["money"]) >= 0
    assert len(state.history()) <= game.max_game_length()


def test_variant_type_is_zero_sum_exactly_when_the_utility_is():
    """Exploitability is defined on zero-sum variants only, so each instance carries its own utility kind."""
    zero = pyspiel.load_game("trustme_1981_investment(players=2,utility=wealth_diff)")
    general = pyspiel.load_game("trustme_1981_investment(players=2,utility=wealth)")
    assert zero.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert zero.utility_sum() == 0.0
    assert general.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert pyspiel.load_game("trustme_1981(players=3)").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (
        pyspiel.load_game("trustme_1981(players=3,utility=wealth)").get_type().utility
        == pyspiel.GameType.Utility.GENERAL_SUM
    )
