"""The compiled heuristic seat and ``Kernel.state_from`` against the engine and the Python heuristic bot.

- ``Kernel.state_from(state)`` of any engine state is the kernel state the same actions reach (public and hidden
  part), also for worlds a search player samples.
- At every decision of engine games (heuristic and random moves mixed, across variants and knob settings) the
  compiled :func:`~trustme_analysis.games.pinocchio.kernel.heuristic.heuristic_policy` gives the distribution of
  ``PinocchioHeuristicBot.action_probabilities``: the same support, probabilities within 1e-12.
- Rollouts with heuristic seats draw from that distribution and depend only on their seed.
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel.kernel import Kernel
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.registry import game_entry

# (game string, heuristic knobs, games): the rulebook games with the default knobs, and variants with every other
# value of each knob that changes a decision.
CASES = [
    ("trustme_pinocchio(players=2)", {}, 25),
    ("trustme_pinocchio(players=3)", {}, 15),
    ("trustme_pinocchio(players=4)", {}, 10),
    ("trustme_pinocchio(players=4,coin_variant=True,coin_tossers=any)", {"coin_when_disagree": 0.5}, 10),
    ("trustme_pinocchio(players=4,coin_variant=True,coin_tossers=dissenters,voting=sequential)", {}, 10),
    ("trustme_pinocchio(players=3)", {"vote": "threshold", "trust_threshold": 0.4, "remembers_discards": True}, 10),
    ("trustme_pinocchio(players=2)", {"bluff_cards": "small_gap", "park_pick": "high", "bluff_when_stuck": True,
                                      "cash_at": 1, "cash_before_runout": 0}, 15),
    ("trustme_pinocchio(players=3,empty_deck=reshuffle,runouts_to_end=3)",
     {"bluff_cards": "random", "park_pick": "random", "bluff_rate": 0.0, "assumed_bluff_rate": 0.1,
      "bonus_turn_value": 1.0}, 5),
    ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,"
     "runouts_to_end=1)", {"bluff_rate": 1.0}, 40),
    ("trustme_pinocchio(players=4,values=9,copies=3,park_size=6,refill=4,hand_size=3,stacks_to_end=9,chart=0/5/1/9/2/"
     "20/3/1/30)", {"cash_at": 2}, 5),
    ("trustme_pinocchio(players=3,first_player=random)", {}, 10),  # the house rule: chance picks the first seat
]


@functools.cache
def loaded(game_string: str, knobs: tuple = ()) -> tuple[pyspiel.Game, Kernel]:
    """The game and its kernel with heuristic seats (numba compiles, or loads its cache, on first use)."""
    game = pyspiel.load_game(game_string)
    return game, Kernel(game, ("heuristic",), dict(knobs))


def positions(game: pyspiel.Game, knobs: dict, games: int, seed: int):
    """Every decision state of ``games`` engine games: each move the heuristic's (70%) or a random legal one."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        bots = [make_bot(game, "heuristic", p, rng, **knobs) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            p = state.current_player()
            yield state, bots[p]
            legal = state.legal_actions()
            state.apply_action(bots[p].step(state) if rng.random() < 0.7 else int(legal[rng.integers(len(legal))]))


@pytest.mark.parametrize(("game_string", "knobs", "games"), CASES)
def test_compiled_heuristic_gives_the_python_bots_distribution_at_every_decision(game_string, knobs, games):
    game, kernel = loaded(game_string, tuple(sorted(knobs.items())))
    decisions = 0
    mixed = 0
    for state, bot in positions(game, knobs, games, seed=len(game_string) + games):
        want = bot.action_probabilities(state)
        got = kernel.heuristic_policy(kernel.state_from(state))
        assert set(got) == set(want), f"{state.history()}: support {sorted(got)} != {sorted(want)}"
        for a, p in want.items():
            assert abs(got[a] - p) <= 1e-12, f"{state.history()}: action {a}: {got[a]!r} != {p!r}"
        decisions += 1
        mixed += len(want) > 1
    assert decisions > 3 * games
    if knobs.get("bluff_rate", 0.2) not in (0.0, 1.0):
        assert mixed > 0  # the mixed branches (bluffs beside true tales) were compared too


def meaningful(s: np.ndarray) -> np.ndarray:
    """The public and hidden part of a kernel state, without the Coin offers left over from an earlier tale (the
    kernel keeps them until the next offers overwrite them; only the first ``N_OFFERS`` are read)."""
    out = s[:K.HIDDEN_END].copy()
    out[K.OFFERS + s[K.N_OFFERS]:K.OFFERS + K.MAXP] = 0
    return out


@pytest.mark.parametrize("game_string", [c[0] for c in CASES[:5]])
def test_state_from_is_the_position_the_same_actions_reach(game_string):
    game, kernel = loaded(game_string)
    rng = np.random.default_rng(5)
    for i, (state, _) in enumerate(positions(game, {}, 4, seed=11)):
        copied = kernel.state_from(state)
        replayed = kernel.from_history(state.history())
        assert np.array_equal(meaningful(copied.s), meaningful(replayed.s)), state.history()
        assert np.array_equal(copied.s[K.SCORE:K.SCORE + K.MAXP], replayed.s[K.SCORE:K.SCORE + K.MAXP])
        assert copied.legal_actions() == state.legal_actions()
        if i % 7 == 0:  # a sampled world copies as faithfully (its hands and deck are other arrays)
            world = state.resample_from_infostate(state.current_player(), rng.random)
            wk = kernel.state_from(world)
            assert wk.legal_actions() == world.legal_actions()
            for p in range(game.num_players()):
                assert wk.s[K.HANDS + p * K.MAXV:K.HANDS + p * K.MAXV + kernel.values].tolist() == list(world._hands[p])


def test_state_from_keeps_the_end_of_a_finished_game():
    game, kernel = loaded("trustme_pinocchio(players=3)")
    for state, _ in positions(game, {}, 1, seed=3):
        pass  # the generator applies each move to the same state object, which ends the game
    assert state.is_terminal()
    copied = kernel.state_from(state)
    assert copied.is_terminal() and copied.returns() == state.returns()


def test_heuristic_seats_draw_from_the_policy():
    """At a turn where the heuristic mixes a tall tale with true tales, the compiled draw follows the distribution."""
    game, kernel = loaded("trustme_pinocchio(players=2)")
    for state, bot in positions(game, {}, 10, seed=8):
        probs = bot.action_probabilities(state)
        if len(probs) >= 2 and min(probs.values()) > 0.05:
            break
    else:  # pragma: no cover - the seed gives one
        pytest.fail("no mixed decision found")
    ks = kernel.state_from(state)
    rng = np.array([123], np.uint64)
    acts = np.empty(K.MAXA, np.int64)
    pr = np.empty(K.MAXA, np.float64)
    buf = np.empty(int(K.scratch_size(kernel.R)), np.int64)
    draws = 20_000
    counts: dict[int, int] = {}
    for _ in range(draws):
        a = int(K.heuristic_action(ks.s, kernel.R, kernel.H[ks.current_player()], rng, acts, pr, buf))
        counts[a] = counts.get(a, 0) + 1
    assert set(counts) == set(probs)
    for a, p in probs.items():
        assert abs(counts[a] / draws - p) < 4 * (p * (1 - p) / draws) ** 0.5 + 1e-3


def test_heuristic_rollouts_depend_on_the_seed_only_and_differ_from_random_ones():
    game, kernel = loaded("trustme_pinocchio(players=2)")
    random_kernel = Kernel(game)
    state = next(s for s, _ in positions(game, {}, 1, seed=2) if s.history() and len(s.history()) > 20)
    ks = kernel.state_from(state)
    a = kernel.rollouts(ks, 200, 9, viewer=state.current_player())
    b = kernel.rollouts(ks, 200, 9, viewer=state.current_player())
    assert np.array_equal(a, b)
    r = random_kernel.rollouts(random_kernel.state_from(state), 200, 9, viewer=state.current_player())
    assert not np.array_equal(a, r)
    assert abs(a.sum()) < 1e-9  # win/loss returns of 2 players sum to zero


def test_seat_kinds_are_checked():
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    entry = game_entry(game.get_type().short_name)
    assert entry.kernel_reason(game, ("heuristic",)) is None
    assert "policy" in entry.kernel_reason(game, ("policy",))
    with pytest.raises(ValueError, match="not compiled"):
        Kernel(game, ("policy",))
    with pytest.raises(ValueError, match="one per seat"):
        Kernel(game, ("heuristic", "random"))
    mixed = Kernel(game, ("heuristic", "random", "heuristic"))
    assert mixed.seat_kinds == ("heuristic", "random", "heuristic")


def pending_tale(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """The first state where a voter decides on a tale (heuristic play)."""
    for state, _ in positions(game, {}, 5, seed=seed):
        if state.player_view(0, include_events=False)["phase"] == "vote":
            return state.clone()
    raise AssertionError("no tale told")  # pragma: no cover


def worlds_of(kernel: Kernel, state: pyspiel.State, viewer: int, bluff_rate: float, n: int) -> list[np.ndarray]:
    ks = kernel.state_from(state)
    rng = np.array([77], np.uint64)
    buf = np.empty(int(K.scratch_size(kernel.R)), np.int64)
    keep = np.empty(K.STATE_SIZE, np.int32)
    out = []
    for _ in range(n):
        w = ks.s.copy()
        K.sample_world(w, kernel.R, viewer, bluff_rate, rng, buf, keep)
        out.append(w)
    return out


def test_kernel_worlds_keep_what_the_viewer_saw_and_follow_the_belief():
    """A world changes only what the voter cannot see; without the belief a true tale is as likely as the deal makes
    it (k/N: k unseen Characters of the claimed value among N), with it the tale is true with chance 1 - b."""
    game, kernel = loaded("trustme_pinocchio(players=3,voting=sequential)")
    state = pending_tale(game, seed=4)
    voter = state.current_player()
    ks = kernel.state_from(state)
    claimed = int(ks.s[K.TALE_PARK])
    pool = state.unseen(voter)
    k, total = pool[claimed - 1], sum(pool)
    for b, n in ((-1.0, 6000), (0.3, 6000)):
        worlds = worlds_of(kernel, state, voter, b, n)
        for w in worlds[:50]:
            assert np.array_equal(w[:K.HIDDEN_START], ks.s[:K.HIDDEN_START])
            mine = slice(K.HANDS + voter * K.MAXV, K.HANDS + (voter + 1) * K.MAXV)
            assert np.array_equal(w[mine], ks.s[mine])
        true = sum(int(w[K.TALE_HIDDEN]) == claimed for w in worlds) / n
        prior = k / total
        assert 0 < k < total  # both kinds of tale possible
        want = prior if b < 0 else 1 - b
        assert abs(true - want) < 4 * (want * (1 - want) / n) ** 0.5 + 1e-3, (b, true, want)


def test_kernel_worlds_redraw_simultaneous_votes_the_voter_has_not_seen():
    game, kernel = loaded("trustme_pinocchio(players=4)")
    for state, bot in positions(game, {}, 5, seed=6):
        view = state.player_view(0, include_events=False)
        if view["phase"] == "vote" and sum(v is not None for v in view["tale"]["votes"]) >= 1:
            break
    voter = state.current_player()
    cast = [q for q, v in enumerate(state.player_view(voter, include_events=False)["tale"]["votes"])
            if q != voter and state.snapshot(False)["tale"]["votes"][q] is not None]
    assert cast
    worlds = worlds_of(kernel, state, voter, -1.0, 400)
    for q in cast:
        share = sum(int(w[K.VOTES + q]) for w in worlds) / len(worlds)
        assert 0.4 < share < 0.6  # drawn anew with even odds, whatever was really cast


def test_search_player_plays_rollouts_and_worlds_in_the_kernel_deterministically():
    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    state = pending_tale(game, seed=4)
    p = state.current_player()
    bots = [make_bot(game, "search", p, np.random.default_rng(3), budget=64) for _ in range(2)]
    assert bots[0].engine_used == "kernel" and bots[0].rollout == "heuristic" and bots[0]._kernel_worlds
    assert bots[0].action_values(state) == bots[1].action_values(state)
    assert bots[0].step(state) in state.legal_actions()


def voter_facing(game: pyspiel.Game, kernel: Kernel, voter: str, votes: int, seed: int = 4) -> pyspiel.State:
    """A 2-player game (the heuristic in seat 0, ``voter`` in seat 1: "heuristic" or a probe strategy) played until
    seat 1 has cast ``votes`` votes on revealed tales and is about to vote again."""
    rng = np.random.default_rng(seed)
    other = (make_bot(game, "heuristic", 1, rng) if voter == "heuristic"
             else make_bot(game, "probe", 1, rng, strategy=voter))
    heuristic = make_bot(game, "heuristic", 0, rng)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seen = kernel.state_from(state).votes_seen
        if seen[1, 0] + seen[1, 2] >= votes and state.current_player() == 1 and state.legal_actions() == [
                game.codec.trust, game.codec.distrust]:
            return state
        p = state.current_player()
        state.apply_action((other if p == 1 else heuristic).step(state))


def test_search_players_model_the_other_voters_from_the_votes_they_saw():
    """A voter seen distrusting every tale is played in search rollouts as one who distrusts (the heuristic's vote
    weighs little, the rest trusts at the posterior mean rate), while a heuristic voter stays the heuristic."""
    from trustme_analysis.games.pinocchio.kernel.kernel import HABIT_PRIOR

    game = pyspiel.load_game("trustme_pinocchio(players=2)")
    kernel = Kernel(game, ("heuristic",))
    heuristic = kernel.voter_model(kernel.state_from(voter_facing(game, kernel, "heuristic", 6)), viewer=0)
    assert heuristic[1, K.H_VOTE_WEIGHT] > 0.9 and heuristic[1, K.H_VOTE_WEIGHT_TALL] > 0.9
    state = voter_facing(game, kernel, "never trust", 6)
    ks = kernel.state_from(state)
    true_k, tall_k = int(ks.votes_seen[1, 0]), int(ks.votes_seen[1, 2])
    assert ks.votes_seen[1, 1] == 0 and ks.votes_seen[1, 3] == 0  # seat 1 never trusted
    model = kernel.voter_model(ks, viewer=0)
    for k, weight_at, rate_at in ((true_k, K.H_VOTE_WEIGHT, K.H_TRUST_RATE),
                                  (tall_k, K.H_VOTE_WEIGHT_TALL, K.H_TRUST_RATE_TALL)):
        assert model[1, weight_at] < 0.1
        assert model[1, rate_at] == pytest.approx(HABIT_PRIOR / (k + 2 * HABIT_PRIOR))
    assert model[0, K.H_VOTE_WEIGHT] == model[0, K.H_VOTE_WEIGHT_TALL] == 1.0  # the searching seat stays heuristic
    # The model is judged from what seat 0 could see: the same model whatever seat 1 really holds.
    world = state.resample_from_infostate(0, np.random.default_rng(9).random)
    assert np.array_equal(kernel.voter_model(kernel.state_from(world), viewer=0), model)
    acts = np.empty(K.MAXA, np.int64)
    probs = np.empty(K.MAXA, np.float64)
    n = K.heuristic_policy(ks.s, kernel.R, model[1], acts, probs, np.empty(int(K.scratch_size(kernel.R)), np.int64))
    trust = kernel.heuristic_policy(ks).get(game.codec.trust, 0.0)  # the heuristic's own (pure) vote here
    tall = ks.s[K.TALE_HIDDEN] != ks.s[K.TALE_PARK]
    weight = model[1, K.H_VOTE_WEIGHT_TALL if tall else K.H_VOTE_WEIGHT]
    rate = model[1, K.H_TRUST_RATE_TALL if tall else K.H_TRUST_RATE]
    want = weight * trust + (1 - weight) * rate
    assert n == 2 and probs[0] == pytest.approx(want) and probs[1] == pytest.approx(1 - want)


@pytest.mark.parametrize("game_string, seat_kinds", [
    ("trustme_pinocchio(players=2)", ("heuristic",)),
    ("trustme_pinocchio(players=3,voting=sequential)", ("heuristic",)),
    ("trustme_pinocchio(players=4)", ("heuristic", "random", "heuristic", "heuristic")),
])
def test_whole_games_with_heuristic_seats_replay_through_the_engine_and_follow_the_bot(game_string, seat_kinds):
    """A sweep's heuristic line-up in the kernel: every game replays through the engine step by step with the same
    records, and every move of a heuristic seat is one the Python heuristic bot plays there with positive
    probability (a random seat's moves are merely legal)."""
    from tests.games.test_pinocchio_kernel import chance_legal_actions
    from trustme_analysis.engine.lockstep import replay
    from trustme_analysis.games.pinocchio.analysis.records import records

    game = pyspiel.load_game(game_string)
    kernel = Kernel(game, seat_kinds)
    kinds = kernel.seat_kinds
    bots = [make_bot(game, "heuristic", p, np.random.default_rng(0)) for p in range(game.num_players())]
    played = kernel.play(np.arange(40, dtype=np.uint64), histories=True)
    rows = played.rows()
    heuristic_moves = 0
    for g in range(40):
        history = played.history(g)
        replay(game, kernel, history, rows[g], records, seed=g, extra=chance_legal_actions)
        state = game.new_initial_state()
        for action in history:
            if not state.is_chance_node() and kinds[state.current_player()] == "heuristic":
                probs = bots[state.current_player()].action_probabilities(state)
                assert probs.get(action, 0.0) > 0, (g, state.action_to_string(action))
                heuristic_moves += 1
            state.apply_action(action)
    assert heuristic_moves > 40 * 10
