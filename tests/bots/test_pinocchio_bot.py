"""The Pinocchio heuristic bot: knobs, determinism, no peeking at hidden cards, and its knobs change its play."""

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers games and bots)
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.games.pinocchio.players.bots import (
    KNOB_NAMES,
    TELLER_PRIOR_TALES,
    PinocchioHeuristicBot,
    PinocchioKnobs,
    belief,
    chance_tale_true,
    chance_teller_holds,
    teller_bluff_rate,
    unseen_counts,
)
from trustme_analysis.games.pinocchio.engine.script import Table


def play(game, bots, seed):
    """Play one game with ``bots`` (one per seat); every bot move must be legal. Returns the terminal state."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(probs) / sum(probs))])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return state


def heuristic_seats(game, seed, **knobs):
    seats = range(game.num_players())
    return [make_bot(game, "heuristic", p, np.random.default_rng([seed, p]), **knobs) for p in seats]


def test_registered_for_the_game_and_rejects_unknown_knobs_listing_the_valid_ones():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    assert "heuristic" in bot_kinds("trustme_pinocchio")
    bot = make_bot(game, "heuristic", 1, np.random.default_rng(0), bluff_rate=0.5)
    assert isinstance(bot, PinocchioHeuristicBot) and bot.knobs()["bluff_rate"] == 0.5
    assert set(bot.knobs()) == set(KNOB_NAMES)
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['bluf'\].*valid knobs: bluff_rate, bluff_cards"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), bluf=1)
    with pytest.raises(ValueError, match=r"bluff_rate=1.5 is not allowed; allowed: a number 0..1"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), bluff_rate=1.5)
    with pytest.raises(ValueError, match=r"park_pick='low'.*'fit', 'high', 'random'"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), park_pick="low")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_game(players):
    game = pyspiel.load_game(f"trustme_pinocchio(players={players})")
    a = play(game, heuristic_seats(game, 5), seed=9)
    b = play(game, heuristic_seats(game, 5), seed=9)
    assert a.history() == b.history()


def test_plays_the_coin_variant_and_runs_under_pyspiel_evaluate_bots():
    game = pyspiel.load_game("trustme_pinocchio(players=4,coin_variant=True)")
    end = play(game, heuristic_seats(game, 1), seed=2)
    assert end.is_terminal()
    returns = pyspiel.evaluate_bots(game.new_initial_state(), heuristic_seats(game, 3), 7)
    assert sorted(returns) == pytest.approx([-1 / 3] * 3 + [1.0])


def test_choices_depend_only_on_what_the_seat_can_see():
    # Seat 0 to act: seat 1's hidden hand differs, everything seat 0 sees is the same.
    a = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    b = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [2], [1]])
    for t in (a, b):
        t.draw(4)
    assert a.state.player_view(0) == b.state.player_view(0)
    for seed in range(20):
        picks = [make_bot(t.game, "heuristic", 0, np.random.default_rng(seed), bluff_rate=0.5).step(t.state)
                 for t in (a, b)]
        assert picks[0] == picks[1]
    # Seat 1 votes: a true tale and a tall tale look the same to it, so it votes the same way.
    a.tale(park=4, hand=4)  # true
    b.tale(park=4, hand=5)  # tall
    assert a.state.player_view(1)["tale"]["hidden_value"] is None
    for threshold in (0.0, 0.2, 0.5, 0.9):
        votes = [make_bot(t.game, "heuristic", 1, np.random.default_rng(0), vote="threshold",
                          trust_threshold=threshold).step(t.state) for t in (a, b)]
        assert votes[0] == votes[1]
    for bonus in (0.0, 1.0, 4.0):
        votes = [make_bot(t.game, "heuristic", 1, np.random.default_rng(0), bonus_turn_value=bonus).step(t.state)
                 for t in (a, b)]
        assert votes[0] == votes[1]


def test_trust_estimate_counts_only_unseen_characters():
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=1)
    view = t.state.player_view(1)
    # Seat 1 sees the Park (1, 2, 3, 4) and its hand (6): of 24 Characters, 19 unseen, 3 of them Pinocchios.
    # The teller held 2 of them: P(at least one Pinocchio) = 1 - C(16, 2) / C(19, 2).
    assert chance_teller_holds(view, 1, 4) == pytest.approx(1 - (16 * 15) / (19 * 18))


def tale_events(game, seeds, seat, **knobs):
    tales = []
    for seed in seeds:
        bots = heuristic_seats(game, seed)
        bots[seat] = make_bot(game, "heuristic", seat, np.random.default_rng(seed), **knobs)
        end = play(game, bots, seed)
        tales += [e for e in end.snapshot()["events"] if e["kind"] == "tale"]
    return tales


def test_bluff_rate_zero_never_bluffs_and_one_bluffs_whenever_it_tells_a_tale():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    honest = [e for e in tale_events(game, range(4), 0, bluff_rate=0.0) if e["player"] == 0]
    assert honest and not any(e["tall"] for e in honest)
    liar = [e for e in tale_events(game, range(4), 0, bluff_rate=1.0) if e["player"] == 0]
    assert liar and all(e["tall"] for e in liar)


def test_trust_threshold_zero_always_trusts():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    tales = [e for e in tale_events(game, range(3), 1, vote="threshold", trust_threshold=0.0) if e["player"] == 0]
    assert tales and all(e["votes"][1] is True for e in tales)


def test_heuristic_beats_uniform_random_players():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    wins = 0
    for seed in range(12):
        bots = [make_bot(game, "heuristic" if p == 0 else "random", p, np.random.default_rng([seed, p]))
                for p in range(3)]
        wins += play(game, bots, seed).snapshot()["winner"] == 0
    assert wins >= 8  # a third would be chance


def test_trust_threshold_without_the_threshold_vote_is_refused():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    with pytest.raises(ValueError, match=r"trust_threshold applies only with vote='threshold'"):
        make_bot(game, "heuristic", 0, np.random.default_rng(0), trust_threshold=0.7)


def test_the_vote_weighs_the_tellers_choice_and_the_stakes():
    # Seat 1 sees Park 1-4 and its 6: the teller's two cards hold a Pinocchio with chance 0.30 (see above).
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=1)
    view = t.state.player_view(1)
    rho = chance_teller_holds(view, 1, 4)
    bot = make_bot(t.game, "heuristic", 1, np.random.default_rng(0))
    # The teller chose to claim a Pinocchio: with a believed bluff rate of 0.3, P(true) = rho 0.7 / (rho 0.7 + 0.3).
    p_true = chance_tale_true(rho, 0.3)
    assert p_true == pytest.approx(rho * 0.7 / (rho * 0.7 + 0.3)) and p_true > rho
    stake = bot.expected_ticket(view, 1)
    # A tall tale about a 1 with any unseen card w != 1 asks for Ticket w - 1 (stacks 6/5/4/3/2/1 all full).
    unseen = [k for v, k in enumerate(unseen_counts(view, 4)) if v]
    assert stake == pytest.approx(sum(k * v for v, k in enumerate(unseen, start=1)) / sum(unseen))
    expect = t.game.codec.trust if p_true * 2.0 >= (1 - p_true) * stake else t.game.codec.distrust
    assert bot.step(t.state) == expect
    # A bonus turn worth nothing: never trust; worth a lot: trust.
    assert make_bot(t.game, "heuristic", 1, np.random.default_rng(0), bonus_turn_value=0.0).step(t.state) == \
        t.game.codec.distrust
    assert make_bot(t.game, "heuristic", 1, np.random.default_rng(0), bonus_turn_value=100.0).step(t.state) == \
        t.game.codec.trust


def test_remembering_the_discard_pile_changes_what_counts_as_unseen():
    # 4 Characters per value: the Park holds a 1, the discard pile two 1s, the viewer's hand a 3; the engine's count
    # of what the viewer cannot locate leaves out the discard pile, which a player who does not remember it adds.
    view = {"stacks_left": [1, 1, 1], "park": [1], "reputations": [[], []], "discard": [2, 0, 0],
            "hands": [[3], None], "viewer": 0, "hand_sizes": [1, 1], "tale": {"player": 1}, "unseen": [1, 4, 3]}
    assert unseen_counts(view, remembers_discards=False) == [3, 4, 3]
    assert unseen_counts(view, remembers_discards=True) == [1, 4, 3]
    assert chance_teller_holds(view, 1, False) > chance_teller_holds(view, 1, True)


def test_the_views_unseen_count_is_what_the_viewer_has_not_seen():
    """The engine's count equals the Characters of each value not in the Park, a Reputation, the discard pile or the
    viewer's hand, at every vote of random play (where the heuristic reads it)."""
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    votes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        view = state.player_view(state.current_player(), include_events=False)
        if view["phase"] == "vote":
            votes += 1
            seen = [0] * 6
            for v in view["park"] + sum(view["reputations"], []) + view["hands"][view["viewer"]]:
                seen[v - 1] += 1
            per_value = game.rules.deck_per_value
            assert view["unseen"] == [per_value - s - d for s, d in zip(seen, view["discard"])]
        legal = state.legal_actions()
        state.apply_action(int(legal[rng.integers(len(legal))]))
    assert votes > 0


def test_cashing_counts_the_set_bonus_of_a_new_value():
    # Holding Tickets 1 and 2, a Ticket 3 adds 3 face points and the chart's step from 3 to 6: 6 points.
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    bot = make_bot(game, "heuristic", 0, np.random.default_rng(0))
    view = {"tickets": [[1, 1, 0, 0, 0, 0], [0] * 6]}
    move = next(m for m in (game.codec.decode(a) for a in range(game.num_distinct_actions()))
                if m.combo is not None and m.combo.length == 3)
    assert bot._cash_gain(view, move) == 3 + (6 - 3)
    move1 = next(m for m in (game.codec.decode(a) for a in range(game.num_distinct_actions()))
                 if m.combo is not None and m.combo.length == 1)
    assert bot._cash_gain(view, move1) == 1


def test_belief_weighs_worlds_by_the_tellers_choice():
    """Worlds with a true tale share weight 1 - b, those with a tall one b (b: the teller model's bluff rate, the
    heuristic's assumed rate before the teller was seen telling any tale), each kind's worlds equally."""
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=1)
    rng = np.random.default_rng(0)
    worlds = [t.state.resample_from_infostate(1, rng.random) for _ in range(40)]
    weights = belief(t.state, 1, worlds)
    hidden = [w.player_view(0)["tale"]["hidden_value"] for w in worlds]
    true = [w for h, w in zip(hidden, weights) if h == 1]
    tall = [w for h, w in zip(hidden, weights) if h != 1]
    assert true and tall
    b = teller_bluff_rate(0, 0)
    assert b == PinocchioKnobs.assumed_bluff_rate
    assert sum(true) == pytest.approx(1 - b) and len(set(true)) == 1
    assert sum(tall) == pytest.approx(b) and len(set(tall)) == 1
    # Candidates all of one kind say nothing about the teller.
    assert belief(t.state, 1, [w for w, h in zip(worlds, hidden) if h != 1][:3]) == [1.0] * 3
    # Before any tale there is nothing to weigh.
    s = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    s.draw(1)
    assert belief(s.state, 1, worlds[:3]) == [1.0] * 3


def test_teller_model_learns_the_tellers_habit():
    """The modelled bluff rate starts at the heuristic's assumption and moves toward the share of tall tales seen."""
    b = PinocchioKnobs.assumed_bluff_rate
    m = TELLER_PRIOR_TALES
    assert teller_bluff_rate(4, 0) == pytest.approx(m * b / (m + 4))
    assert teller_bluff_rate(4, 4) == pytest.approx((m * b + 4) / (m + 4))
    assert teller_bluff_rate(40, 0) < 0.05
    assert teller_bluff_rate(40, 40) > 0.9


def test_choose_draws_from_the_stated_policy():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[1], [6]])
    t.draw(2)
    bot = make_bot(game, "heuristic", 0, np.random.default_rng(0), bluff_rate=0.5)
    probs = bot.action_probabilities(t.state)
    counts = {}
    for _ in range(3000):
        a = bot.step(t.state)
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) <= set(probs) and len(probs) > 2
    for a, p in probs.items():
        assert abs(counts.get(a, 0) / 3000 - p) < 0.05
