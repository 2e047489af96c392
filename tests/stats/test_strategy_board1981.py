"""1981 investing-round strategy statistics on a hand-checkable variant, and on a solved policy.

The variant (``trustme_1981_investment`` preset ``tiny``): two players with $2 and 2 shares each; the claimant (seat
0) never looks; seat 1 has looked with chance 1/2; the briefcase holds One Stack, Two Stacks or "You've Been Had!"
with chance 1/3 each; lots of 1 or 2 shares. Seat 1 decides first, the claimant last.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import cfr
from trustme_analysis.games.board1981.engine.investment import PRESETS
from trustme_analysis.solve.profile import decision_points, infoset_nodes, replay
from trustme_analysis.solve.strategy import simple_strategies_for, strategy_stats_for
from trustme_analysis.games.board1981.analysis.strategy import earlier_decisions, knowledge, strategy_stats

TINY = PRESETS["tiny"]


def _hand_policy(cg):
    """Seat 1 divests all after seeing "You've Been Had!", buys 2 after seeing a good card, holds unseen; the
    claimant copies seat 1's verb (buy 2, divest all, or hold)."""
    game = cg.game
    policy = np.zeros(cg.num_slots)
    nodes = infoset_nodes(cg)
    states = replay(cg, [int(n[0]) for n in nodes])
    labels = {name: a for a in range(game.investing.num_actions) if (name := game.investing.label(a))}
    for i in range(cg.num_infosets):
        snap = states[int(nodes[i][0])].snapshot()
        if cg.infoset_player[i] == 1:
            seen = knowledge(snap, 1)
            want = {"not seen": "hold", "saw had": "divest all"}.get(seen, "buy 2")
        else:
            want = {"buy": "buy 2", "divest": "divest all", "hold": "hold"}[snap["events"][0]["decision"].split()[0]]
        lo, hi = cg.infoset_slot_start[i], cg.infoset_slot_start[i + 1]
        policy[lo:hi] = [1.0 if a == labels[want] else 0.0 for a in cg.slot_action[lo:hi]]
    return policy


def test_strategy_statistics_equal_hand_computed_values():
    cg = cfr.compile_game(TINY)
    tables = strategy_stats(cg.game, decision_points(cg, _hand_policy(cg)))
    know = tables["invest_by_knowledge"].set_index(["player", "knowledge"])
    # Seat 1 looked with chance 1/2, then each card with chance 1/3.
    assert know.loc[(1, "not seen"), "reach"] == pytest.approx(1 / 2)
    assert know.loc[(1, "not seen"), "hold_rate"] == pytest.approx(1.0)
    assert know.loc[(1, "saw had"), "reach"] == pytest.approx(1 / 6)
    assert know.loc[(1, "saw had"), "divest_rate"] == pytest.approx(1.0)
    assert know.loc[(1, "saw had"), "net_shares"] == pytest.approx(-2.0)  # "divest all" of its 2 shares
    assert know.loc[(1, "saw two"), "shares_bought"] == pytest.approx(2.0)
    # The claimant never looks: it buys when seat 1 bought (1/3), divests after a divestment (1/6), else holds.
    claimant = know.loc[(0, "not seen")]
    assert claimant["reach"] == pytest.approx(1.0)
    assert claimant[["buy_rate", "hold_rate", "divest_rate"]].tolist() == pytest.approx([1 / 3, 1 / 2, 1 / 6])
    assert claimant["net_shares"] == pytest.approx(2 / 3 - 2 / 6)
    signal = tables["invest_by_signal"].set_index(["player", "earlier"])
    assert signal.loc[(0, "p1 (looked): buy 2"), "reach"] == pytest.approx(1 / 3)
    assert signal.loc[(0, "p1 (looked): buy 2"), "buy_rate"] == pytest.approx(1.0)
    assert signal.loc[(0, "p1 (looked): divest all"), "reach"] == pytest.approx(1 / 6)
    assert signal.loc[(0, "p1 (did not look): hold"), "reach"] == pytest.approx(1 / 2)
    assert signal.loc[(0, "p1 (did not look): buy 2"), "reach"] == 0.0
    # Seat 1 pays $2 into the reserve when it saw a good card: 1/2 of the time under One or Two Stacks.
    gain = tables["claimant_gain"].set_index("condition")["expected_reserve"]
    assert gain["all"] == pytest.approx(2 / 3)
    assert gain[["card one", "card two", "card had"]].tolist() == pytest.approx([1.0, 1.0, 0.0])
    assert gain["claimant did not look"] == pytest.approx(2 / 3)
    assert "claimant looked" not in gain.index
    # Wealth difference: after both buy 2, One Stack ends 10 vs 8 and Two Stacks 14 vs 12 (the claimant's $2 of
    # reserve); every other branch ends level. Seat 0 gains 2 with chance 1/3.
    value = tables["seat_value"].set_index("player")["value"]
    assert value[0] == pytest.approx(2 / 3) and value[1] == pytest.approx(-2 / 3)


def test_knowledge_and_earlier_decisions_read_the_snapshot():
    game = pyspiel.load_game(TINY)
    state = game.new_initial_state()
    for a in (3, 1):  # deal "You've Been Had!"; seat 1 looked
        state.apply_action(a)
    assert knowledge(state.snapshot(), 1) == "saw had" and knowledge(state.snapshot(), 0) == "not seen"
    assert earlier_decisions(state.snapshot()) == "none"
    state.apply_action(game.investing.legal(2, 2)[-1])  # divest all
    assert earlier_decisions(state.snapshot()) == "p1 (looked): divest all"


def test_solved_policy_tables_are_consistent_and_registered():
    result = cfr.solve(TINY, algorithm="dcfr", target_exploitability=1e-3)
    game = result.compiled.game
    tables = strategy_stats_for("trustme_1981_investment")(game, decision_points(result.compiled, result.average))
    know = tables["invest_by_knowledge"]
    # Each player decides exactly once per game: reaches sum to 1 per player, and the rates to 1 per row.
    assert know.groupby("player")["reach"].sum().tolist() == pytest.approx([1.0, 1.0])
    assert (know["buy_rate"] + know["hold_rate"] + know["divest_rate"]).tolist() == pytest.approx([1.0] * len(know))
    # Seat values of the zero-sum utility add to 0 and match the solver's expected values.
    value = tables["seat_value"]["value"].to_numpy()
    expected = cfr.expected_values(result.compiled, result.average)
    assert value == pytest.approx(np.asarray(expected), abs=1e-9)
    # Equilibrium: an investor who saw "You've Been Had!" never buys.
    had = know.set_index(["player", "knowledge"]).loc[(1, "saw had")]
    assert had["buy_rate"] == pytest.approx(0.0, abs=1e-2)


def test_simple_strategies_pick_purchases():
    game = pyspiel.load_game(TINY)
    rules = simple_strategies_for(game)
    assert set(rules) == {"always invest", "never invest"}
    legal = game.investing.legal(2, 2)  # hold, buy 1, buy 2, divest 1, divest 2, divest all
    state = game.new_initial_state()
    assert [game.investing.label(a) for a in rules["always invest"](state, 1, legal)] == ["buy 1", "buy 2"]
    assert [game.investing.label(a) for a in rules["never invest"](state, 1, legal)] == [
        "hold", "divest 1", "divest 2", "divest all"]
    assert rules["always invest"](state, 1, game.investing.legal(0, 2)) is None  # no money: no purchase legal
