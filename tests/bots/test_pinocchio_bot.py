"""The Pinocchio heuristic bot (the compiled heuristic): knobs, determinism, no peeking at hidden cards, its knobs
change its play, and its vote follows the module docstring's formulas, recomputed here from the seat's view."""

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers games and bots)
from trustme_analysis.players import bot_kinds, make_bot
from math import comb

from trustme_analysis.games.pinocchio.players.bots import (
    KNOB_NAMES,
    TELLER_PRIOR_TALES,
    PinocchioHeuristicBot,
    PinocchioKnobs,
    belief,
    teller_bluff_rate,
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


def unseen(view, remembers_discards):
    """The Characters of each value the viewer cannot locate (the engine's count), plus the discard pile unless it
    remembers it (the bot's docstring)."""
    if remembers_discards:
        return list(view["unseen"])
    return [u + d for u, d in zip(view["unseen"], view["discard"])]


def chance_teller_holds(view, value, remembers_discards):
    """rho: the chance the teller's hand (the face-down Character included) held ``value``, as a uniform draw from
    the Characters the viewer has not seen."""
    counts = unseen(view, remembers_discards)
    total, hand, k = sum(counts), view["hand_sizes"][view["tale"]["player"]] + 1, counts[value - 1]
    hand = min(hand, total)
    return 1.0 - comb(total - k, hand) / comb(total, hand)


def trusts(game, state, seat, **knobs):
    bot = make_bot(game, "heuristic", seat, np.random.default_rng(0), **knobs)
    return bot.step(state) == game.codec.trust


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
    # Seat 1 sees the Park (1, 2, 3, 4) and its hand (6): of 24 Characters, 19 unseen, 3 of them Pinocchios.
    # The teller held 2 of them: P(at least one Pinocchio) = 1 - C(16, 2) / C(19, 2); the threshold vote trusts
    # from exactly there.
    rho = 1 - (16 * 15) / (19 * 18)
    assert chance_teller_holds(t.state.player_view(1), 1, True) == pytest.approx(rho)
    assert trusts(t.game, t.state, 1, vote="threshold", trust_threshold=rho - 1e-9)
    assert not trusts(t.game, t.state, 1, vote="threshold", trust_threshold=rho + 1e-9)


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
    # Seat 1 sees Park 1-4 and its 6: the teller's two cards hold a Pinocchio with chance rho = 0.30 (see above).
    t = Table("trustme_pinocchio(players=2)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=1)
    view = t.state.player_view(1)
    rho = chance_teller_holds(view, 1, False)
    # The teller chose to claim a Pinocchio: with a believed bluff rate b, P(true) = rho (1 - b) / (rho (1 - b) + b).
    b = 0.3
    p_true = rho * (1 - b) / (rho * (1 - b) + b)
    # A tall tale about a 1 with any unseen card w != 1 asks for Ticket w - 1 (stacks 6/5/4/3/2/1 all full).
    counts = [k for v, k in enumerate(unseen(view, False)) if v]
    stake = sum(k * v for v, k in enumerate(counts, start=1)) / sum(counts)
    # It trusts when P(true) x bonus turn >= P(tall) x stake: the bonus turn's value where the vote turns.
    turn = (1 - p_true) * stake / p_true
    assert trusts(t.game, t.state, 1, assumed_bluff_rate=b, bonus_turn_value=turn * (1 + 1e-9))
    assert not trusts(t.game, t.state, 1, assumed_bluff_rate=b, bonus_turn_value=turn * (1 - 1e-9))
    # A bonus turn worth nothing: never trust; worth a lot: trust.
    assert not trusts(t.game, t.state, 1, bonus_turn_value=0.0)
    assert trusts(t.game, t.state, 1, bonus_turn_value=100.0)


def test_the_threshold_vote_reads_rho_from_what_the_voter_has_not_seen_discards_remembered_or_not():
    """At every vote of random 3-player games (discard piles filling as they go), the threshold vote turns exactly at
    rho computed from the voter's view: with the discard pile counted as unseen (the text's "players may not check
    the discard pile") or, remembered, as seen."""
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    rng = np.random.default_rng(4)
    checked = with_discards = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            seat = state.current_player()
            view = state.player_view(seat, include_events=False)
            if view["phase"] == "vote" and view["tale"]["player"] != seat:
                for remembers in (False, True):
                    rho = chance_teller_holds(view, view["tale"]["park_value"], remembers)
                    knobs = {"vote": "threshold", "remembers_discards": remembers}
                    if rho > 1e-6:
                        assert trusts(game, state, seat, trust_threshold=rho - 1e-9, **knobs)
                    if rho < 1 - 1e-6:
                        assert not trusts(game, state, seat, trust_threshold=rho + 1e-9, **knobs)
                checked += 1
                with_discards += sum(view["discard"]) > 0
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.integers(len(legal))]))
    assert checked > 10 and with_discards > 3


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
    # Holding Tickets 1 and 2, a Ticket 3 adds 3 face points and the chart's step from 3 to 6: 6 points; a second
    # Ticket 1 adds its face only.
    from trustme_analysis.games.pinocchio.kernel import core as K
    from trustme_analysis.games.pinocchio.kernel.kernel import Kernel

    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    kernel = Kernel(game, ("heuristic",))
    s = kernel.new_state().s
    s[K.TICKETS:K.TICKETS + 2] = 1
    gain = {}
    for a in range(game.num_distinct_actions()):
        move = game.codec.decode(a)
        if move.combo is not None:
            gain[move.combo.length] = K.cash_gain(s, kernel.R, 0, a, K.ticket_values(s, kernel.R, 0))
    assert gain[3] == 3 + (6 - 3) and gain[1] == 1 and gain[2] == 2


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
