"""The Liar search player's compiled worlds (kernel_search): dealt from the same numbers they are the Python sampler's
worlds array for array (so they keep what the player saw and have its distribution); their weights are bots.belief's;
the others' model is drawn from its posterior; a round of halving in one call matches the Python path's means."""

import numpy as np
import pyspiel
import pytest
from scipy import stats

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.liar.players import bots
from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel import search as ks
from trustme_analysis.games.liar.kernel.kernel import Kernel
from trustme_analysis.games.liar.engine.worlds import resample
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance

VARIANTS = [
    "trustme_liar(players=4)",
    "trustme_liar(players=4,values=6,copies=4,max_play=3)",
    ("trustme_liar(players=3,values=5,copies=3,max_play=3,mode=trustme,false_card_accepted=round_end,"
     "last_cards=until_covered)"),
    "trustme_liar(players=2,values=8,mode=trustme)",
]


def _positions(game, seed, games=4, kinds=("random", "heuristic")):
    """Every decision of a few engine games (seat kinds alternating; a probe named by its strategy), as pyspiel
    states."""
    rng = np.random.default_rng(seed)
    out = []

    def seat(kind, p):
        if kind in ("random", "heuristic"):
            return make_bot(game, kind, p, rng)
        return make_bot(game, "probe", p, rng, strategy=kind)

    for g in range(games):
        seats = [seat(kinds[(g + p) % len(kinds)], p) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            out.append(state.clone())
            state.apply_action(seats[state.current_player()].step(state))
    return out


@pytest.mark.parametrize("game_string", VARIANTS)
def test_compiled_worlds_are_the_python_samplers_worlds_dealt_from_the_same_numbers(game_string):
    """Row i of ``deal_worlds`` equals ``Kernel.state_from(worlds.resample(...))`` when the Python sampler draws the
    same stream's numbers (``kernel_search.unit``), for every seat at every decision: the same cards in the same
    places, the same bluff points, the same memories of the others."""
    game = pyspiel.load_game(game_string)
    kernel = Kernel(game, ("heuristic",))
    modes = set()
    hidden = 0
    for k, state in enumerate(_positions(game, seed=len(game_string))):
        for viewer in range(game.num_players()):
            seed = 1000 * k + viewer
            rows = ks.deal_worlds(kernel, state, viewer, 2, seed)
            stream = np.array([seed], dtype=np.uint64)
            for row in rows:
                world = resample(state, viewer, lambda stream=stream: ks.unit(stream))
                np.testing.assert_array_equal(row, kernel.state_from(world).array)
            plan = ks.world_plan(state, viewer)
            modes |= set(plan.pick_mode.tolist())
            hidden += plan.size.shape[0]
    assert hidden > 50
    if game.num_players() > 2:  # piles picked up by the player, held by another, and played on since
        assert modes == {ks.OWN, ks.HAND, ks.POOL}


def test_compiled_worlds_keep_what_the_viewer_saw_and_every_card():
    game = pyspiel.load_game("trustme_liar(players=4,values=6,copies=4,max_play=3)")
    kernel = Kernel(game)
    cfg, values, n = kernel.cfg, game.rules.values, game.num_players()

    def block(S, offset, size):
        return S[cfg[offset]: cfg[offset] + size]

    changed = dealt = 0
    for k, state in enumerate(_positions(game, seed=3)[::3]):
        viewer = state.current_player()
        real = kernel.state_from(state).array
        for row in ks.deal_worlds(kernel, state, viewer, 5, seed=k):
            hands = block(row, layout.O_HANDS, n * values).reshape(n, values)
            np.testing.assert_array_equal(hands[viewer], block(real, layout.O_HANDS, n * values)[
                viewer * values:(viewer + 1) * values])
            np.testing.assert_array_equal(hands.sum(axis=1), block(real, layout.O_HSIZE, n))
            known = block(real, layout.O_KNOWN, n * n * values).reshape(n, n, values)[viewer]
            assert (hands >= known).all()  # the cards it knows are in a hand are still there
            np.testing.assert_array_equal(block(row, layout.O_KNOWN, n * n * values).reshape(n, n, values)[viewer],
                                          known)
            pile = block(row, layout.O_PSEAT, n * values).reshape(n, values)
            np.testing.assert_array_equal(pile[viewer], block(real, layout.O_PSEAT, n * values)[
                viewer * values:(viewer + 1) * values])
            assert pile.sum() == real[layout.S_PCARDS]
            np.testing.assert_array_equal(pile.sum(axis=0), block(row, layout.O_PCOUNTS, values))
            burned = block(row, layout.O_BURNBY, n * values).reshape(n, values).sum(axis=0)
            every = hands.sum(axis=0) + pile.sum(axis=0) + burned + block(row, layout.O_DISC, values)
            assert (every == game.rules.copies).all()
            changed += not np.array_equal(hands, block(real, layout.O_HANDS, n * values).reshape(n, values))
            dealt += 1
    # Most worlds deal the hidden cards otherwise than the real deal (a few positions leave nothing to resample).
    assert dealt >= 40 and changed > 0.8 * dealt


@pytest.mark.parametrize("game_string", VARIANTS[1:3])
def test_world_weight_is_bots_belief_under_the_likeliest_explanations(game_string):
    game = pyspiel.load_game(game_string)
    kernel = Kernel(game)
    rng = np.random.default_rng(4)
    weighed = set()
    for state in _positions(game, seed=5, kinds=("heuristic", "always bluff", "always challenge")):
        viewer = state.current_player()
        worlds = [state.resample_from_infostate(viewer, rng.random) for _ in range(4)]
        theirs = bots.belief(state, viewer, worlds)
        rates = bots.seat_bluff_rates(state)
        always = np.array([bluff == "always" for (bluff, _), _ in bots.seat_model(state)], np.int64)
        sizes, passes, value = ks._round_moves(state, viewer, game.rules.values)
        sizes = sizes if sizes.shape[0] else np.zeros(1, np.int64)
        # The knob rows of the likeliest explanations are bots.opponent_knobs'.
        post = ks.seat_posteriors(state, viewer)
        code = {"heuristic": ks.HEURISTIC, "always": ks.ALWAYS, "never": ks.NEVER}
        rows = np.array([np.where(post.call_columns, post.call_rows[q, code[c]], post.bluff_rows[q, code[b]])
                         for q, ((b, _), (c, _)) in enumerate(bots.seat_model(state))])
        rows[viewer] = post.bluff_rows[viewer, ks.HEURISTIC]
        np.testing.assert_array_equal(rows, bots.opponent_knobs(state, viewer))
        for world, w in zip(worlds, theirs):
            ours = ks.world_weight(kernel.cfg, kernel.state_from(world).array, viewer, rates, always, sizes, passes,
                                   value)
            assert ours == pytest.approx(w, rel=1e-12, abs=0)
            weighed.add(round(w, 6))
    assert len(weighed) > 4  # honest and false plays, pure bluff starts, passes holding the value


def test_the_posterior_pools_the_seats_and_the_model_is_drawn_from_it():
    """With nothing seen every seat is the prior; one seat seen calling at every chance makes the others likelier
    callers too (a line-up of one kind), more than the independent prior; ``sample_model`` draws the explanations
    with the posterior's probabilities and plays them with their knob rows."""
    game = pyspiel.load_game("trustme_liar(players=4)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    prior = np.array([p for _, p, _ in bots.EXPLANATIONS])
    post = ks.seat_posteriors(state, 0)
    np.testing.assert_allclose(post.shared_probs, np.tile(prior, (2, 1)))
    np.testing.assert_allclose(post.shared, [ks.SHARED, ks.SHARED])
    # The starter plays honestly, the next seat calls liar at once and picks up, three times.
    starter = state.current_player()
    caller = (starter + 1) % 4
    for _ in range(3):
        assert state.current_player() == starter
        held = next(v for v, k in enumerate(state._table.hands[starter]) if k)
        state.apply_action(game.play_table.play_action((held,), held))  # one card of its lowest value, honestly
        state.apply_action(bots.LIAR)
    seen = bots.habits(state)
    assert seen[caller, 2] == seen[caller, 3] >= 1
    viewer = next(q for q in range(4) if q != caller and seen[q, 3] == 0)
    post = ks.seat_posteriors(state, viewer)
    assert post.own_probs[1, caller, ks.ALWAYS] > 0.9
    other = next(q for q in range(4) if q not in (caller, viewer) and seen[q, 3] == 0)
    np.testing.assert_allclose(post.own_probs[1, other], prior)
    # Only the caller has shown how it calls: under "one kind" and "each its own" the silent seats' likelihood is 1
    # alike, so the weight of "one kind" keeps its prior; the others become likelier callers through shared_probs.
    assert post.shared[1] == pytest.approx(ks.SHARED) and post.shared_probs[1, ks.ALWAYS] > 0.9
    # Drawn per world: the other seat is an "always" caller with probability shared * p + (1 - shared) * prior.
    expected = post.shared[1] * post.shared_probs[1] + (1 - post.shared[1]) * post.own_probs[1, other]
    n = 4
    knobs = np.zeros((n, post.bluff_rows.shape[2]))
    rates = np.zeros(n)
    always = np.zeros(n, np.int64)
    picks = np.zeros((n, 2), np.int64)
    stream = np.array([9], dtype=np.uint64)
    draws = np.zeros(3)
    for _ in range(4000):
        ks.sample_model(viewer, post.shared, post.shared_probs, post.own_probs, post.bluff_rows, post.call_rows,
                        post.call_columns, post.rates, stream, knobs, rates, always, picks)
        draws[picks[other, 1]] += 1
        assert picks[viewer, 0] == picks[viewer, 1] == ks.HEURISTIC
        e = picks[caller, 1]
        np.testing.assert_array_equal(knobs[caller] * post.call_columns, post.call_rows[caller, e] * post.call_columns)
        assert rates[caller] == post.rates[caller, picks[caller, 0]]
    assert stats.chisquare(draws, expected * draws.sum()).pvalue > 1e-4


def _python_means(kernel, state, viewer, actions, worlds, rng):
    """The Python path's means without the belief: worlds from the engine's in-place sampler (``worlds.resample``,
    which the compiled worlds deal; ``resample_from_infostate`` now keeps only the worlds a history reaches, issue
    49), one play-out each."""
    total = np.zeros((len(actions), worlds))
    for w in range(worlds):
        world = resample(state, viewer, rng.random)
        for j, a in enumerate(actions):
            child = world.clone()
            child.apply_action(a)
            total[j, w] = kernel.rollouts(kernel.state_from(child), 1, int(rng.integers(2**63)))[viewer]
    return total


def test_a_compiled_round_scores_moves_as_the_python_path_does():
    """Without the belief, ``Kernel.action_rollouts`` (worlds dealt in compiled code) and the Python path (worlds
    from the engine's sampler, each copied into the kernel) agree on every move's mean return within their
    sampling error; a round is deterministic given its seed."""
    game = pyspiel.load_game("trustme_liar(players=3,values=6,copies=4,max_play=3)")
    kernel = Kernel(game, ("heuristic",))
    played = _positions(game, seed=8, games=2, kinds=("heuristic",))
    # A starter's move and responses to a pile of others' plays (hidden cards both in hands and in the pile).
    positions = [played[4]] + [s for s in played if len(s._table.pile) >= 2][:2]
    rng = np.random.default_rng(1)
    for state in positions:
        viewer = state.current_player()
        actions = bots.search_actions(state, viewer)[:4]
        start = kernel.state_from(state)
        ours = kernel.action_rollouts(start, actions, 3000, 1, 11, viewer, belief=False)[:, viewer]
        np.testing.assert_array_equal(ours, kernel.action_rollouts(kernel.state_from(state), actions, 3000, 1, 11,
                                                                   viewer, belief=False)[:, viewer])
        theirs = _python_means(kernel, state, viewer, actions, 1500, rng)
        for j in range(len(actions)):
            se = np.sqrt(theirs[j].var() / theirs.shape[1] + theirs[j].var() / 3000) + 1e-9
            assert abs(ours[j] - theirs[j].mean()) < 4.5 * se, (state.action_to_string(viewer, actions[j]), ours[j],
                                                               theirs[j].mean(), se)


def test_the_liar_search_player_deals_its_worlds_in_the_kernel_and_is_deterministic():
    from trustme_analysis.registry import game_entry

    entry = game_entry("trustme_liar")
    game = pyspiel.load_game("trustme_liar(players=4)")
    assert [entry.search_budget(pyspiel.load_game(f"trustme_liar(players={n})")) for n in (2, 3, 4, 6)] == [
        1600, 1600, 1200, 1200]
    bot = make_bot(game, "search", 0, np.random.default_rng(0))
    assert bot._kernel_worlds and bot.budget == entry.search_budget(game) == 1200
    assert make_bot(pyspiel.load_game("trustme_liar(players=2)"), "search", 0, bot.rng).budget == 1600
    assert make_bot(game, "search", 0, bot.rng, engine="pyspiel").budget == 400

    def history(seed):
        rng = np.random.default_rng(seed)
        seats = [make_bot(game, "search", 0, rng, budget=200)] + [
            make_bot(game, "probe", p, rng, strategy="always challenge") for p in (1, 2, 3)]
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 60:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            state.apply_action(seats[state.current_player()].step(state))
        return state.history()

    assert history(3) == history(3)


def test_the_compiled_rounds_cache_is_keyed_by_the_compiled_core_too():
    """numba keys a cache by the defining file; these functions inline the compiled core's (every module of it and
    the draw primitives), so an edit there must make their cache stale (else they would keep running the old rules)."""
    from cfr.numba_cache import source_digest
    from trustme_analysis.engine import compiled_draws
    from trustme_analysis.games.liar.kernel import actions, deal, heuristic, moves, play

    assert {layout, deal, actions, moves, heuristic, play, compiled_draws} <= set(ks.SOURCES)
    stamp = ks.round_world._cache._cache_file._source_stamp
    assert stamp[1] == source_digest(*ks.SOURCES)
