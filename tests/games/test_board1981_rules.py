"""Scripted scenarios for the rules of Trust Me (1981): exact actions in, exact outcome out (small test board)."""

from __future__ import annotations

import json

import pytest
from test_board1981_support import (
    ALPHA,
    BETA,
    DELTA,
    EMPTY,
    GAMMA,
    HAD,
    ONE,
    TWO,
    die,
    play,
    small_game,
    space,
    start,
)


def invest_action(game, label):
    """The action of an investing decision by its label ('hold', 'buy 5', 'divest all', ...)."""
    for local in range(game.rules.investing.num_actions):
        if game.rules.investing.label(local) == label:
            return game.actions.first_invest + local
    raise KeyError(label)


def claim_alpha_and_wait_on_r9(game, state):
    """p0 rolls 2 to Alpha (r1), claims it unseen, rolls 2 again and stops on the Wild Goose Chase r9."""
    return play(state, die(2), space(game, "r1"), game.actions.claim_unseen, die(2), space(game, "r9"))


def test_deal_sets_four_payoff_cards_aside_unseen(tmp_path):
    game = small_game(tmp_path, payoff_mix="2/1/1/2")
    state = game.new_initial_state()
    assert dict(state.chance_outcomes()) == pytest.approx({ONE: 2 / 6, TWO: 1 / 6, EMPTY: 1 / 6, HAD: 2 / 6})
    play(state, HAD, HAD)
    # Both "You've Been Had!" cards are in briefcases: no third can be dealt.
    assert dict(state.chance_outcomes()) == pytest.approx({ONE: 2 / 4, TWO: 1 / 4, EMPTY: 1 / 4})
    play(state, ONE, TWO, 1)  # two more briefcases, then player 1 goes first
    assert state.current_player() < 0 and state.phase_name() == "roll"
    assert state.snapshot()["turn_player"] == 1


def test_roll_moves_by_exact_count_forward_or_backward_without_reversing(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(3))
    names = {game.board.space_ids[a] for a in state.legal_actions()}
    assert names == {"r2", "r8", "r3", "r7"}
    # From Alpha (r1) a roll of 2 ends two steps away either way, or on the Company through r0.
    state = start(game)
    play(state, die(2), space(game, "r1"), game.actions.decline, die(2), space(game, "r9"), die(2))
    assert {game.board.space_ids[a] for a in state.legal_actions()} == {"r3", "r9", "company"}


def test_look_secretly_ends_turn_then_claim_on_next_turn(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"))
    assert state.phase_name() == "property"
    assert state.legal_actions() == sorted([game.actions.look, game.actions.claim_unseen, game.actions.decline])
    play(state, game.actions.look)
    assert state.known_cards(0) == {ALPHA: ONE} and state.known_cards(1) == {}
    assert state.seen_by(ALPHA) == [0]
    assert state.snapshot()["turn_player"] == 1 and state.claims() == [-1, -1]
    play(state, die(2), space(game, "r6"), game.actions.decline)
    assert state.phase_name() == "turn_start" and state.current_player() == 0
    assert state.legal_actions() == [game.actions.roll, game.actions.claim_looked]
    play(state, game.actions.claim_looked)
    assert state.claims() == [ALPHA, -1]
    assert state.phase_name() == "roll"  # "Then roll and move as usual."


def test_right_to_claim_lapses_after_the_next_turn(tmp_path):
    game = small_game(tmp_path)
    codec = game.actions
    state = play(start(game), die(2), space(game, "r1"), codec.look, die(2), space(game, "r6"), codec.decline)
    play(state, game.actions.roll, die(2), space(game, "r9"))  # p0 does not claim Alpha
    play(state, die(2), space(game, "r4"))  # p1 ends on a Wild Goose Chase space
    assert state.phase_name() == "roll"  # no turn-start choice for p0 any more
    assert state.right_to_claim(0) == -1


def test_claim_unseen_then_roll_again_and_stop_at_company_without_exact_count(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen)
    assert state.claims() == [ALPHA, -1] and state.known_cards(0) == {}
    assert state.phase_name() == "roll" and state.snapshot()["turn_player"] == 0
    play(state, die(3))
    assert {game.board.space_ids[a] for a in state.legal_actions()} == {"r4", "r8", "r5", "company"}
    play(state, space(game, "company"))
    assert state.phase_name() == "invest" and state.current_player() == 1  # from the claimant's left


def test_no_company_stop_without_a_claim(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.decline, die(2), space(game, "r9"))
    # p1 has no claim: from the Company a roll of 3 passes r0/r5 but may only end by exact count.
    play(state, die(3))
    assert space(game, "company") not in state.legal_actions()


def test_investing_round_reserve_bank_and_one_stack_payoff(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))
    play(state, invest_action(game, "buy 5"))  # p1 pays the claimant's reserve
    assert state.money() == [10, 5] and state.shares() == [10, 15] and state.snapshot()["reserve"] == 5
    play(state, invest_action(game, "buy 5"))  # p0 buys into its own claim: paid to the Bank
    assert state.bank_flows()["bank_in"] == 5
    # Alpha holds One Stack of Bills: each holder gets $1 a share; then p0 takes the $5 reserve.
    assert state.money() == [5 + 15 + 5, 5 + 15] and state.shares() == [15, 15]
    assert state.claims() == [-1, -1] and state.cases_on_board() == [BETA, GAMMA, DELTA]
    assert state.revealed_counts() == [1, 0, 0, 0]
    assert state.snapshot()["turn_player"] == 1 and state.phase_name() == "roll"
    reveal = [e for e in state.snapshot()["events"] if e["kind"] == "reveal"]
    assert reveal == [{"kind": "reveal", "claimant": 0, "property": "Alpha", "card": "One Stack of Bills"}]


def test_divest_returns_shares_for_money_and_been_had_takes_the_rest(tmp_path):
    game = small_game(tmp_path)
    state = start(game, cards=(HAD, TWO, EMPTY, ONE))
    play(state, die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))
    play(state, invest_action(game, "divest 5"), invest_action(game, "hold"))
    assert state.money() == [10, 15] and state.shares() == [0, 0]
    assert state.bank_flows() == {"bank_in": 0, "bank_out": 5, "shares_lost": 15}


def test_landing_on_a_claimed_property_ends_the_turn(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(2), space(game, "r1"))
    assert state.is_chance_node() and state.snapshot()["turn_player"] == 0


def test_occupied_space_sends_to_wild_goose_chase_and_claim_becomes_yours(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(2), space(game, "r9"))
    assert state.phase_name() == "send" and state.current_player() == 1
    assert state.legal_actions() == [game.actions.first_send, game.actions.first_send + 1]
    play(state, game.actions.first_send)  # to r4
    assert state.positions() == [space(game, "r4"), space(game, "r9")]
    assert state.claims() == [-1, ALPHA]  # rule a)
    assert state.snapshot()["turn_player"] == 0


def test_occupied_space_when_both_claim_removes_the_opponents_claim(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(2), space(game, "r6"), game.actions.claim_unseen, die(3), space(game, "r9"), game.actions.send_to(1))
    assert state.claims() == [-1, GAMMA]  # rule b): Alpha is free again, p1 keeps Gamma
    assert state.positions()[0] == space(game, "r9")  # "even one that's already occupied"


def test_hot_tip_looks_under_one_unclaimed_briefcase_of_its_area(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(3), space(game, "r3"))
    codec = game.actions
    assert state.legal_actions() == sorted([codec.look_under(GAMMA), codec.look_under(DELTA), codec.decline])
    play(state, game.actions.look_under(GAMMA))
    assert state.known_cards(0) == {GAMMA: EMPTY}
    assert state.positions()[0] == space(game, "r3") and state.snapshot()["turn_player"] == 1
    # With Gamma claimed only Delta is offered.
    state = play(start(game, first=1), die(2), space(game, "r6"), game.actions.claim_unseen, die(3), space(game, "r9"))
    play(state, die(3), space(game, "r3"))
    assert state.legal_actions() == sorted([game.actions.look_under(DELTA), game.actions.decline])


def test_white_and_wild_goose_chase_spaces_end_the_turn(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r9"))
    assert state.is_chance_node() and state.snapshot()["turn_player"] == 1
    play(state, die(3), space(game, "r2"), game.actions.decline, die(4))
    assert game.board.kinds[space(game, "r5")] == "white"
    play(state, space(game, "r5"))
    assert state.is_chance_node() and state.snapshot()["turn_player"] == 1


def test_trust_me_card_moves_to_a_property_and_one_claim_at_a_time(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(1))
    assert state.phase_name() == "trust_me_card"
    # Default mix 12/8/8 on 4 properties: 3 move cards each, 8 Bamboozled, 8 Challenge.
    expected = {ALPHA: 3 / 28, BETA: 3 / 28, GAMMA: 3 / 28, DELTA: 3 / 28, 4: 8 / 28, 5: 8 / 28}
    assert dict(state.chance_outcomes()) == pytest.approx(expected)
    play(state, BETA)
    assert state.positions()[0] == space(game, "r2") and state.phase_name() == "property"
    play(state, game.actions.claim_unseen, die(1), ALPHA)
    assert state.positions()[0] == space(game, "r1")
    assert state.legal_actions() == sorted([game.actions.look, game.actions.decline])  # already holds Beta
    play(state, game.actions.look)
    assert state.claims() == [BETA, -1] and state.known_cards(0) == {ALPHA: ONE}


def test_bamboozled_failure_sends_to_wild_goose_chase_and_loses_the_claim(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(1), 4)
    assert state.phase_name() == "bamboozled_roll"
    play(state, die(2))
    assert state.claims() == [-1, -1] and state.phase_name() == "send" and state.current_player() == 0
    play(state, game.actions.first_send + 1)
    assert state.positions()[0] == space(game, "r9") and state.snapshot()["turn_player"] == 1


def test_bamboozled_escape_with_a_required_number(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(1), 4, die(5))
    assert state.claims() == [ALPHA, -1] and state.positions()[0] == space(game, "r1")
    assert state.snapshot()["turn_player"] == 1


def test_challenge_won_takes_the_claim_and_sends_the_opponent(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(1), 5)
    assert state.phase_name() == "challenge"
    assert state.legal_actions() == [game.actions.decline, game.actions.first_challenge + 0]
    play(state, game.actions.first_challenge + 0, die(5), die(3))
    assert state.claims() == [-1, ALPHA]
    assert state.phase_name() == "send" and state.current_player() == 1
    play(state, game.actions.first_send)
    assert state.positions()[0] == space(game, "r4")


def test_challenge_lost_defender_keeps_claim_and_sends_challenger(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(1), 5, game.actions.first_challenge + 0, die(2), die(6))
    assert state.claims() == [ALPHA, -1]
    assert state.phase_name() == "send" and state.current_player() == 0
    play(state, game.actions.first_send + 1)
    assert state.positions()[1] == space(game, "r9")


@pytest.mark.parametrize("rule, claims", [("defender", [ALPHA, -1]), ("challenger", [-1, ALPHA])])
def test_roll_off_tie_rules(tmp_path, rule, claims):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(1), 5, game.actions.first_challenge + 0, die(4), die(4))
    assert state.phase_name() == "roll_off_challenger"  # default: roll again
    game = small_game(tmp_path, roll_off_tie=rule)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(1), 5, game.actions.first_challenge + 0, die(4), die(4))
    assert state.claims() == claims and state.phase_name() == "send"


def test_challenge_card_needs_an_opponent_claim_and_no_own_claim(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(1), 5)  # nobody holds a claim: nothing to challenge
    assert state.is_chance_node() and state.snapshot()["turn_player"] == 1
    # With a claim of one's own the card sends the claimant straight to the Company to invest.
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(1), 5)
    assert state.positions()[0] == space(game, "company") and state.phase_name() == "invest"


def test_optional_peek_before_play(tmp_path):
    game = small_game(tmp_path, peek=True)
    state = start(game, first=1)
    assert state.phase_name() == "peek" and state.current_player() == 1
    play(state, game.actions.look_under(DELTA), game.actions.look_under(ALPHA))
    assert state.known_cards(1) == {DELTA: HAD} and state.known_cards(0) == {ALPHA: ONE}
    assert state.phase_name() == "roll" and state.snapshot()["turn_player"] == 1


def test_game_ends_when_two_briefcases_remain_richest_wins(tmp_path):
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))
    hold = invest_action(game, "hold")
    play(state, hold, hold)  # Alpha: One Stack, everyone gets $10
    play(state, die(2), space(game, "r6"), game.actions.claim_unseen, die(2), space(game, "company"), hold, hold)
    assert state.is_terminal()
    snap = state.snapshot()
    assert snap["end"] == "two_cases_left" and snap["cases_left"] == ["Beta", "Delta"]
    assert snap["wealth"] == [{"money": 20, "shares": 10, "total": 30}, {"money": 20, "shares": 10, "total": 30}]
    assert snap["ranks"] == [1, 1] and state.returns() == [0.0, 0.0]
    json.dumps(snap)


def test_utilities(tmp_path):
    # Alpha holds Two Stacks: p1 buys 5 ($5 to p0's reserve), ends with $5 + $30 and 15 shares = 50; p0 with
    # $10 + $20 + $5 and 10 shares = 45.
    for utility, expected in (("win_loss", [-1.0, 1.0]), ("wealth", [45.0, 50.0]), ("wealth_diff", [-5.0, 5.0])):
        game = small_game(tmp_path, utility=utility)
        state = start(game, cards=(TWO, ONE, EMPTY, HAD))
        play(state, die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))
        play(state, invest_action(game, "buy 5"), invest_action(game, "hold"))
        play(state, die(2), space(game, "r6"), game.actions.claim_unseen, die(2), space(game, "company"))
        play(state, invest_action(game, "hold"), invest_action(game, "hold"))
        assert state.is_terminal() and state.returns() == expected, utility


def test_turn_cap_ends_the_game(tmp_path):
    game = small_game(tmp_path, max_turns=2)
    state = play(start(game), die(2), space(game, "r9"), die(2), space(game, "r4"))
    assert state.is_terminal() and state.snapshot()["end"] == "turn_cap"


def test_claimant_on_the_company_may_invest_without_moving(tmp_path):
    game = small_game(tmp_path)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    # p1 has not moved from the Company; it wins Alpha there by a Challenge and sends p0 to r4.
    play(state, die(1), 5, game.actions.first_challenge + 0, die(5), die(3), game.actions.first_send)
    play(state, die(2), space(game, "r6"), game.actions.decline)
    assert state.phase_name() == "turn_start" and state.current_player() == 1
    assert state.legal_actions() == [game.actions.roll, game.actions.invest_now]
    play(state, game.actions.invest_now)
    assert state.phase_name() == "invest" and state.current_player() == 0


def test_information_state_hides_the_deal_until_looked(tmp_path):
    game = small_game(tmp_path)
    a = play(start(game, cards=(ONE, TWO, EMPTY, HAD)), die(2), space(game, "r1"))
    b = play(start(game, cards=(TWO, ONE, EMPTY, HAD)), die(2), space(game, "r1"))
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) == b.information_state_string(1)
    play(a, game.actions.look)
    play(b, game.actions.look)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(1) == b.observation_string(1)


def test_several_occupants_are_sent_in_turn_order_and_claims_follow_a_then_b(tmp_path):
    game = small_game(tmp_path, players=3)
    state = claim_alpha_and_wait_on_r9(game, start(game))
    play(state, die(2), space(game, "r9"), game.actions.first_send + 1)  # p1 sends p0 to r9 itself; Alpha becomes p1's
    assert state.claims() == [-1, ALPHA, -1] and state.positions()[:2] == [space(game, "r9")] * 2
    play(state, die(2), space(game, "r9"))
    assert state.phase_name() == "send" and state.pending_send() == (2, 0)  # from p2's left: p0 first
    play(state, game.actions.first_send)
    assert state.pending_send() == (2, 1)
    play(state, game.actions.first_send)
    assert state.claims() == [-1, -1, ALPHA]
    assert state.positions() == [space(game, "r4"), space(game, "r4"), space(game, "r9")]
    assert state.snapshot()["turn_player"] == 0


def test_removed_briefcase_space_acts_as_white_and_its_card_does_nothing(tmp_path):
    game = small_game(tmp_path, players=2)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))
    hold = invest_action(game, "hold")
    play(state, hold, hold)
    assert ALPHA not in state.cases_on_board()
    play(state, die(2), space(game, "r1"))  # p1 lands in front of the removed Alpha briefcase
    assert state.is_chance_node() and state.snapshot()["turn_player"] == 0
    play(state, die(1), ALPHA)  # p0 draws "move to Alpha": nothing happens
    assert state.positions()[0] == space(game, "company") and state.snapshot()["turn_player"] == 1


def test_trust_me_pile_is_reshuffled_when_it_runs_out(tmp_path):
    game = small_game(tmp_path, trust_mix="0/1/1")
    state = play(start(game), die(1))
    assert dict(state.chance_outcomes()) == pytest.approx({4: 0.5, 5: 0.5})
    play(state, 5)  # Challenge with nobody to challenge: turn ends
    play(state, die(1))
    assert dict(state.chance_outcomes()) == pytest.approx({4: 1.0})
    play(state, 4, die(6))  # Bamboozled, escaped with a 6
    play(state, die(1))
    assert dict(state.chance_outcomes()) == pytest.approx({4: 0.5, 5: 0.5})  # the drawn cards come back
    play(state, 4)
    assert state.snapshot()["trust_deck_left"] == 1
