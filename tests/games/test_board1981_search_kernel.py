"""Trust Me (1981) search in the compiled kernel: the kernel deals a search player's worlds exactly as the engine's
``resample_from_infostate`` does (and, with the belief, as ``bots.belief`` weighs them), and ``Kernel.action_rollouts``
scores a round of candidate actions in one compiled call, which the search player uses."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel
from scipy.stats import chi2, chi2_contingency
from test_board1981_support import die, play, small_game, space, start
from test_board1981_worlds import _advance, _informed_round

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.kernel import layout as K
from trustme_analysis.games.board1981.players.bots import belief
from trustme_analysis.games.board1981.kernel.kernel import Kernel
from trustme_analysis.players import make_bot
from trustme_analysis.registry import game_entry

#: A test fails by chance with probability below this (per comparison).
P_FALSE_ALARM = 1e-4


def _positions(game, seeds, steps):
    """Engine positions from heuristic games where the player to act has looked under a briefcase still on the board
    (so its worlds differ from a blind deal) and some briefcase is hidden from it."""
    out = []
    for seed in seeds:
        for n in steps:
            state = _advance(game, seed, n)
            if state.is_terminal():
                continue
            p = state.current_player()
            known = state.known_cards(p)
            if len(known) < game.rules.num_properties and any(q not in state.revealed_cards() for q in known):
                out.append(state)
    return out


def _kernel_deals(kernel, state, viewer, draws, seed, use_belief):
    worlds = kernel.sample_worlds(kernel.state_from(state), viewer, draws, seed, belief=use_belief)
    return np.asarray([w.st[K.CARDS : K.CARDS + kernel.game.rules.num_properties] for w in worlds])


def _engine_deals(state, viewer, draws, seed):
    rng = np.random.default_rng(seed)
    worlds = [state.resample_from_infostate(viewer, rng.random) for _ in range(draws)]
    return worlds, np.asarray([w.referee_cards() for w in worlds])


def test_the_kernel_changes_nothing_but_the_cards_the_viewer_has_not_seen():
    game = pyspiel.load_game("trustme_1981(players=3,peek=true)")
    kernel = Kernel(game, ("heuristic",))
    states = _positions(game, range(3), (40, 120, 260))
    assert len(states) >= 4
    for state in states:
        p = state.current_player()
        ks = kernel.state_from(state)
        known = state.known_cards(p)
        unseen = Counter({k: c for k, c in enumerate(state.unseen_cards(p))})
        for world in kernel.sample_worlds(ks, p, 50, 1, belief=True):
            cards = world.st[K.CARDS : K.CARDS + game.rules.num_properties]
            others = np.ones(K.STATE_SIZE, bool)
            others[K.CARDS : K.CARDS + game.rules.num_properties] = False
            assert np.array_equal(world.st[others], ks.st[others])
            assert all(cards[q] == c for q, c in known.items())
            assert not Counter(int(cards[q]) for q in range(len(cards)) if q not in known) - unseen


def test_the_kernel_deals_the_unseen_cards_as_the_engine_does():
    """Per position: the joint law of the cards in two hidden briefcases, from the kernel and from the engine, against
    the exact law (drawing without replacement from the unseen cards) and against each other (chi-square)."""
    draws = 4000
    compared = 0
    for players, seeds in ((2, (5, 11)), (3, (2,))):
        game = pyspiel.load_game(f"trustme_1981(players={players},peek=true)")
        kernel = Kernel(game, ("heuristic",))
        for state in _positions(game, seeds, (60, 200)):
            p = state.current_player()
            hidden = [q for q in range(game.rules.num_properties) if q not in state.known_cards(p)]
            if len(hidden) < 2:
                continue
            a, b = hidden[0], hidden[-1]
            left = state.unseen_cards(p)
            total = sum(left)
            cells = [(x, y) for x in range(4) for y in range(4)]
            exact = np.asarray([left[x] * (left[y] - (x == y)) / (total * (total - 1)) for x, y in cells])
            kept = exact > 0
            _, engine = _engine_deals(state, p, draws, compared)
            ours = _kernel_deals(kernel, state, p, draws, 100 + compared, use_belief=False)
            table = []
            for deals in (engine, ours):
                counts = Counter(zip(deals[:, a].tolist(), deals[:, b].tolist()))
                observed = np.asarray([counts[c] for c in cells], float)
                assert observed[~kept].sum() == 0  # never a card the viewer can locate elsewhere
                expected = draws * exact[kept]
                statistic = ((observed[kept] - expected) ** 2 / expected).sum()
                assert statistic < chi2.ppf(1 - P_FALSE_ALARM, kept.sum() - 1)
                table.append(observed[kept])
            assert chi2_contingency(np.asarray(table)).pvalue > P_FALSE_ALARM
            compared += 1
    assert compared >= 3


def _weighted_agreement(kernel, state, viewer, prop, draws=4000):
    """The kernel's belief-weighted deal against the engine's deal weighted by ``bots.belief`` (the exact posterior
    by importance weights): the law of the card in ``prop``. Returns the two laws."""
    worlds, engine = _engine_deals(state, viewer, draws, 7)
    weights = np.asarray(belief(state, viewer, worlds))
    ours = _kernel_deals(kernel, state, viewer, draws, 8, use_belief=True)
    target = np.asarray([weights[engine[:, prop] == k].sum() for k in range(4)]) / weights.sum()
    got = np.bincount(ours[:, prop], minlength=4) / draws
    # Both estimates' standard errors (the weighted one by its effective sample size).
    ess = weights.sum() ** 2 / (weights**2).sum()
    se = np.sqrt(target * (1 - target) * (1 / draws + 1 / ess)) + 1e-3
    assert np.all(np.abs(got - target) < 4.5 * se), (got, target)
    return got, target


def test_the_kernel_belief_weighs_an_informed_investors_purchase_as_bots_belief():
    game, state, prop = _informed_round(K.TWO_STACKS)
    p1 = make_bot(game, "heuristic", 1, np.random.default_rng(0))
    state.apply_action(p1.step(state))
    kernel = Kernel(game, ("heuristic",))
    got, target = _weighted_agreement(kernel, state, 0, prop)
    # The purchase makes "You've Been Had!" four times less likely than the blind deal says.
    blind = np.asarray(state.unseen_cards(0), float)
    blind /= blind.sum()
    assert got[K.BEEN_HAD] < 0.5 * blind[K.BEEN_HAD]


def test_the_kernel_belief_reads_a_claim_chosen_after_looking(tmp_path):
    game = small_game(tmp_path)
    codec = game.actions
    state = play(start(game), die(2), space(game, "r9"), die(2), space(game, "r1"), codec.look)
    play(state, die(2), space(game, "r7"), codec.decline, codec.claim_looked, die(2), space(game, "r3"),
         codec.decline, die(3))
    kernel = Kernel(game, ("heuristic",))
    prop = state.claims()[1]
    got, _ = _weighted_agreement(kernel, state, 0, prop)
    # Exactly: the unseen mix times 0.8 for the cards the heuristic claims, 0.2 for "You've Been Had!".
    left = np.asarray(state.unseen_cards(0), float)
    like = np.asarray([0.8, 0.8, 0.8, 0.2])
    exact = left * like / (left * like).sum()
    assert np.all(np.abs(got - exact) < 0.03)


def test_the_kernel_belief_agrees_with_bots_belief_on_played_positions():
    """Positions from heuristic games where the others' choices say something (bots.belief is not flat)."""
    game = pyspiel.load_game("trustme_1981(players=3,peek=true)")
    kernel = Kernel(game, ("heuristic",))
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(40):
        for steps in (80, 160, 240, 320):
            state = _advance(game, seed, steps)
            if state.is_terminal():
                continue
            p = state.current_player()
            worlds = [state.resample_from_infostate(p, rng.random) for _ in range(40)]
            if len(set(belief(state, p, worlds))) < 2:
                continue
            cards = np.asarray([w.referee_cards() for w in worlds])
            weights = np.asarray(belief(state, p, worlds))
            # The briefcase whose card the belief reads most.
            spread = [np.ptp([weights[cards[:, q] == k].mean() if (cards[:, q] == k).any() else 0 for k in range(4)])
                      for q in range(cards.shape[1])]
            _weighted_agreement(kernel, state, p, int(np.argmax(spread)), draws=3000)
            checked += 1
            if checked == 3:
                return
    raise AssertionError(f"only {checked} positions where the belief is not flat")


def test_action_rollouts_replay_from_their_seed_and_score_every_action():
    game = pyspiel.load_game("trustme_1981(players=2)")
    kernel = Kernel(game, ("heuristic",))
    state = _advance(game, 4, 90)
    p = state.current_player()
    ks = kernel.state_from(state)
    actions = state.legal_actions()
    first = kernel.action_rollouts(ks, actions, 30, 2, 99, p, belief=True)
    assert first.shape == (len(actions), 2)
    assert np.array_equal(first, kernel.action_rollouts(ks, actions, 30, 2, 99, p, belief=True))
    assert not np.array_equal(first, kernel.action_rollouts(ks, actions, 30, 2, 100, p, belief=True))
    # Win/loss utility: the two seats' returns sum to zero in every playout.
    assert np.allclose(first.sum(axis=1), 0.0) and np.all(np.abs(first) <= 1.0)
    # The kernel state it started from is left as it was.
    assert np.array_equal(ks.st, kernel.state_from(state).st)


def test_the_search_player_runs_its_rounds_in_the_kernel_at_the_kernels_budget():
    game = pyspiel.load_game("trustme_1981(players=2,max_turns=10)")
    bot = make_bot(game, "search", 0, np.random.default_rng(1))
    assert bot._kernel_worlds and bot.engine_used == "kernel"
    assert bot.budget == game_entry("trustme_1981").search_budget(game) == 1600

    def game_actions(seed):
        rng = np.random.default_rng(seed)
        bots = [make_bot(game, "search", 0, rng, budget=40), make_bot(game, "heuristic", 1, rng)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        return state.history()

    assert game_actions(3) == game_actions(3)
