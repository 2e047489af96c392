"""Pinocchio strategy statistics on a hand-checkable variant, and the heuristic bot's stated probabilities.

The variant: Characters {1, 1, 2, 2}, a Park of one, a hand of one each, seat 0 draws one and decides once (tell a
true or tall Tale below the Park Character, or take it), seat 1 votes. Given the Park Character (1 or 2, each with
chance 1/2), three Characters remain; seat 0 holds two of them: {1, 2} with chance 2/3 (seat 1 then holds the other
value), or the pair of the value not in the Park with chance 1/3 (seat 1 then holds the Park value's twin).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import cfr
from tests.solve.conftest import PINOCCHIO_TINY
from trustme_analysis.players import make_bot
from trustme_analysis.solve.profile import decision_points, infoset_nodes, replay
from trustme_analysis.games.pinocchio.analysis.strategy import strategy_stats


def _hand_policy(cg):
    """Seat 0 uniform over its legal actions; seat 1 trusts exactly when its own Character differs from the claimed
    Park value."""
    policy = cg.uniform_policy()
    nodes = infoset_nodes(cg)
    states = replay(cg, [int(n[0]) for n in nodes])
    codec = cg.game.codec
    for i in range(cg.num_infosets):
        if cg.infoset_player[i] != 1:
            continue
        view = states[int(nodes[i][0])].player_view(1, include_events=False)
        trust = view["hands"][1][0] != view["tale"]["park_value"]
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        policy[lo:hi] = [1.0 if (a == codec.trust) == trust else 0.0 for a in cg.slot_action[lo:hi]]
    return policy


def test_strategy_statistics_equal_hand_computed_values():
    cg = cfr.compile_game(PINOCCHIO_TINY)
    tables = strategy_stats(cg.game, decision_points(cg, _hand_policy(cg)))
    # Seat 0 with {1, 2} (chance 2/3): 4 actions, one true and one tall tale; with a pair of the other value
    # (chance 1/3): a tall tale or a take. Uniform play: tale 2/3*1/2 + 1/3*1/2 = 1/2; tall 2/3*1/4 + 1/3*1/2 = 1/3.
    rate = tables["tale_rate"].set_index("player").loc[0]
    assert rate["turn_reach"] == pytest.approx(1.0)
    assert rate["tale_rate"] == pytest.approx(1 / 2)
    assert rate["tall_rate"] == pytest.approx(1 / 3)
    assert rate["tall_share_of_tales"] == pytest.approx(2 / 3)
    assert rate["take_rate"] == pytest.approx(1 / 2)
    # Every tall tale has card difference 1 and puts the Ticket of value 1 at stake (both stacks hold one Ticket).
    by_diff = tables["tall_by_difference"]
    assert by_diff["difference"].tolist() == [1]
    assert by_diff["available_reach"].iloc[0] == pytest.approx(1.0)
    assert by_diff["tall_rate"].iloc[0] == pytest.approx(1 / 3)
    assert tables["tall_by_ticket"]["ticket_at_stake"].tolist() == [1]
    assert tables["tall_by_ticket"]["tall_rate"].iloc[0] == pytest.approx(1 / 3)
    # Seat 1 holds a card other than the claim exactly when seat 0 holds {1, 2}: votes happen with chance 1/2, trusted
    # ones with chance 2/3*1/2 = 1/3. True tales (1/6) are all trusted; tall ones (1/6 + 1/6) half of the time.
    trust = tables["trust_rate"].set_index("voter").loc[1]
    assert trust["vote_reach"] == pytest.approx(1 / 2)
    assert trust["trust_rate"] == pytest.approx(2 / 3)
    assert trust["trust_rate_true_tale"] == pytest.approx(1.0)
    assert trust["trust_rate_tall_tale"] == pytest.approx(1 / 2)
    assert trust["tall_share_of_votes"] == pytest.approx(2 / 3)
    assert np.isnan(tables["trust_rate"].set_index("voter").loc[0, "trust_rate"])  # seat 0 never votes


def test_action_values_of_a_tale_decision():
    # With seat 1 trusting exactly when its card differs from the claim, seat 0 holding {1, 2} below Park 1 knows
    # seat 1 holds 2: a true tale (1 below 1) is trusted and takes no Ticket, a tall tale (2 below 1) is trusted and
    # takes the Ticket of value 1 - the only Ticket gained in the game, so seat 0 wins (+1).
    cg = cfr.compile_game(PINOCCHIO_TINY)
    points = decision_points(cg, _hand_policy(cg), players=[0])
    codec = cg.game.codec
    dp = next(d for d in points if d.info_state.startswith("p0|park+1 hand0+1") and len(d.actions) == 4)
    values = dict(zip(dp.actions, dp.action_values))
    assert values[codec.tale(park=1, hand=2)] == pytest.approx(1.0)
    assert dp.reach == pytest.approx(1 / 2 * 2 / 3 / 2)  # Park 1, the pair {1, 2}, the 1 dealt first


def _random_states(game, rng, count):
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(actions[rng.choice(len(actions), p=probs)])
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.3:
                states.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return states


@pytest.mark.parametrize("knobs", [
    {},
    {"bluff_rate": 0.5, "bluff_cards": "random", "park_pick": "random", "bluff_when_stuck": True},
])
def test_heuristic_choose_draws_from_its_stated_probabilities(knobs):
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    rng = np.random.default_rng(7)
    draws = 300
    for state in _random_states(game, rng, 12):
        player = state.current_player()
        bot = make_bot(game, "heuristic", player, np.random.default_rng(11), **knobs)
        probs = bot.action_probabilities(state)
        assert sum(probs.values()) == pytest.approx(1.0)
        assert set(probs) <= set(state.legal_actions())
        picks = [bot.choose(state) for _ in range(draws)]
        assert set(picks) <= set(probs)
        for action, p in probs.items():
            freq = picks.count(action) / draws
            # Five standard deviations: a correct bot fails this about once in three million comparisons.
            assert abs(freq - p) <= 5 * np.sqrt(p * (1 - p) / draws) + 1e-9
