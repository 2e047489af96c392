"""Rule readings of Trust Me (1981) changed or stated after an independent audit of the engine: "buy max", the
assumptions in the snapshot, the readings listed with their rule quotes."""

from __future__ import annotations

import pyspiel
import pytest
from test_board1981_support import ALPHA, TWO, die, play, small_game, space, start

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.engine.investing import InvestingRules
from trustme_analysis.games.board1981.engine.rules import FIXED_ASSUMPTIONS


def invest_action(game, label):
    """The action of an investing decision by its label ('hold', 'buy 5', 'buy max', ...)."""
    investing = game.rules.investing
    for local in range(investing.num_actions):
        if investing.label(local) == label:
            return game.actions.invest(local)
    raise KeyError(label)


def _round_on_alpha(game):
    """p0 claims Alpha (Two Stacks) unseen and reaches the Company; p1 decides first."""
    state = start(game, cards=(TWO, 0, 2, 3))
    return play(state, die(2), space(game, "r1"), game.actions.claim_unseen, die(3), space(game, "company"))


def test_buy_max_buys_as_many_shares_as_the_money_pays_for(tmp_path):
    """Investing a): "To invest in an opponent's claim, give that player $1 for every share you want." An investor
    with $49 is not capped at the largest lot not above it (25): it may buy 49."""
    game = small_game(tmp_path, money=49)
    state = _round_on_alpha(game)
    labels = [game.rules.investing.label(a - game.actions.first_invest) for a in state.legal_actions()]
    assert labels == ["hold", "buy 1", "buy 5", "buy 10", "buy 25", "buy max", "divest 1", "divest 5", "divest 10",
                      "divest all"]
    play(state, invest_action(game, "buy max"))
    assert state.money() == [49, 0] and state.shares() == [10, 59] and state.reserve() == 49
    play(state, invest_action(game, "hold"))
    # Two Stacks: $2 a share; the claimant takes the $49 reserve.
    assert state.money() == [49 + 20 + 49, 0 + 2 * 59]
    invest = [e for e in state.snapshot()["events"] if e["kind"] == "invest"][0]
    assert invest == {"kind": "invest", "player": 1, "decision": "buy max", "money_change": -49, "shares_change": 49}


def test_buy_max_is_not_offered_when_the_money_is_a_lot_or_nothing(tmp_path):
    """"Give that player $1 for every share you want": with exactly a lot's worth of money the lot is that purchase
    (no second action for it); with no money nothing can be bought."""
    rules = InvestingRules((1, 5, 10, 25, 50), buy_max=True)
    assert "buy max" not in [rules.label(a) for a in rules.legal(money=50, shares=0)]
    assert [rules.label(a) for a in rules.legal(money=0, shares=0)] == ["hold"]
    assert [rules.label(a) for a in rules.legal(money=3, shares=0)] == ["hold", "buy 1", "buy max"]
    game = small_game(tmp_path, money=49, buy_max=False)
    state = _round_on_alpha(game)
    labels = [game.rules.investing.label(a - game.actions.first_invest) for a in state.legal_actions()]
    assert "buy max" not in labels and max(int(x.split()[1]) for x in labels if x.startswith("buy")) == 25


def test_buy_max_in_ones_own_claim_pays_the_bank(tmp_path):
    """Investing b): "To invest in your own claim, give the Bank $1 for every share you want.\""""
    game = small_game(tmp_path, money=7)
    state = _round_on_alpha(game)
    play(state, invest_action(game, "hold"), invest_action(game, "buy max"))
    assert state.bank_flows()["bank_in"] == 7 and state.reserve() == 0
    assert state.money() == [0 + 2 * 17, 7 + 2 * 10] and state.shares() == [17, 10]


def test_the_investing_round_alone_offers_buy_max_on_request():
    """The round alone keeps its solved presets' actions by default; buy_max=true adds the purchase."""
    plain = pyspiel.load_game("trustme_1981_investment(players=2,money=7,lots=1/5)")
    full = pyspiel.load_game("trustme_1981_investment(players=2,money=7,lots=1/5,buy_max=true)")
    assert plain.num_distinct_actions() == 6 and full.num_distinct_actions() == 7
    state = full.new_initial_state()
    state.apply_action(TWO)
    state.apply_action(0)  # seat 1 did not look (seen=50: a chance node each)
    state.apply_action(0)
    assert full.investing.label(state.legal_actions()[3]) == "buy max"
    state.apply_action(state.legal_actions()[3])
    assert state.snapshot()["money"] == [7, 0] and state.snapshot()["reserve"] == 7


def test_the_snapshot_carries_the_assumptions_in_force(tmp_path):
    game = small_game(tmp_path, payoff_mix="3/3/3/3", buy_max=False)
    snap = game.new_initial_state().snapshot()
    assert snap["assumptions"] == game.assumptions()
    values = {a["parameter"]: a["value"] for a in snap["assumptions"]}
    assert values["payoff_mix"] == "3/3/3/3" and values["buy_max"] is False


@pytest.mark.parametrize("name, quote", [
    ("send_in_turn_order", "immediately send that player on a Wild Goose Chase"),
    ("bamboozled_escape", "fail to roll one of the required numbers"),
    ("invest_from_company", "Investing takes place as soon as someone returns to the Trust Me Investment Company"),
])
def test_the_readings_are_listed_with_their_rule_quotes(tmp_path, name, quote):
    texts = dict(FIXED_ASSUMPTIONS)
    assert quote in texts[name]
    listed = {a["parameter"]: a for a in small_game(tmp_path).assumptions()}
    assert listed[name]["value"] == "fixed rule" and quote in listed[name]["text"]


def test_a_won_challenge_on_the_company_lets_the_claimant_roll_instead_of_investing(tmp_path):
    """"Investing takes place as soon as someone returns to the Trust Me Investment Company with a claim": a
    claimant who won its claim on the Company may start the round at its next turn, or roll and move as usual."""
    game = small_game(tmp_path)
    state = play(start(game), die(2), space(game, "r1"), game.actions.claim_unseen, die(2), space(game, "r9"))
    play(state, die(1), 5, game.actions.challenge(0), die(5), die(3), game.actions.send_to(0))
    play(state, die(2), space(game, "r6"), game.actions.decline)
    assert state.legal_actions() == [game.actions.roll, game.actions.invest_now]
    play(state, game.actions.roll, die(2))
    assert state.claims() == [-1, ALPHA] and state.phase_name() == "move"
