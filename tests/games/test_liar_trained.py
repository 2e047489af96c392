"""Liar's trained player: the abstraction reads only what its seat may see, the policy it states is the policy its
kernel seats play, and the trained policy is close to equilibrium on a solved reduced variant (exact exploitability
on the compiled tree)."""

import numpy as np
import pyspiel
import pytest

import cfr
from cfr import evaluate
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import layout
from trustme_analysis.games.liar.kernel.kernel import Kernel
from trustme_analysis.games.liar.kernel.training import TRAINER
from trustme_analysis.games.liar.kernel.tree import compile_tree
from trustme_analysis.train import TrainSettings, train

#: The reduced variant of reports/solve_liar.toml (tiny_plays2).
TINY = "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,first_player=seat0)"
#: The Trust Me scoring, one turn shorter (2,596 information sets instead of 11,467): exporting a policy as an
#: OpenSpiel TabularPolicy walks every history through the Python engine, which at six turns took most of the test.
TINY_TRUSTME = "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=5,mode=trustme,first_player=seat0)"
#: Games whose positions the hidden-information test redeals: small decks (the engine lists every play), the
#: 52-card two-player game, pickups, several players, announce_gone and last_cards variants.
VARIANTS = [
    "trustme_liar(players=2,values=6,copies=3)",
    "trustme_liar(players=3,values=6,copies=3,mode=trustme)",
    "trustme_liar(players=4,values=5,copies=4,announce_gone=forbidden,last_cards=until_covered)",
    "trustme_liar(players=2,values=8,copies=4,max_play=3)",
]


def positions(game_string, games, seed):
    """(pyspiel state, kernel state) pairs at the player decisions of random games (uniform play, many pickups)."""
    game = pyspiel.load_game(game_string)
    kern = Kernel(game)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        st = game.new_initial_state()
        ks = kern.new_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                a = outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]
            else:
                out.append((st.clone(), ks.clone()))
                legal = st.legal_actions()
                # challenge often, so piles are picked up and cards become known
                a = 0 if 0 in legal and rng.random() < 0.4 else legal[rng.integers(len(legal))]
            st.apply_action(a)
            ks.apply_action(a)
    return game, kern, out


def row(kern, S, p, detail):
    sc = A.new_scratch(kern.cfg, kern.tab)
    m = A.row_of_compiled(kern.cfg, kern.tab, S.copy(), p, detail, sc["row"], sc["descs"], sc["probs"], sc["scratch"])
    return sc["row"][:m].tolist(), sc["descs"][:m].tolist(), sc["probs"][:m].tolist()


# What seat p cannot see (the test checks the redeals did change some of it).
def hidden(kern, S, p):
    cfg = kern.cfg
    n, values = int(cfg[layout.N]), int(cfg[layout.V])
    parts = []
    for q in range(n):
        if q != p:
            parts.append(S[cfg[layout.O_HANDS] + q * values: cfg[layout.O_HANDS] + (q + 1) * values])
            parts.append(S[cfg[layout.O_PSEAT] + q * values: cfg[layout.O_PSEAT] + (q + 1) * values])
    return np.concatenate(parts)


@pytest.mark.parametrize("detail", [0, 1])
@pytest.mark.parametrize("game_string", VARIANTS)
def test_key_does_not_move_when_hidden_cards_are_redealt(game_string, detail):
    game, kern, pairs = positions(game_string, 4, 3)
    rng = np.random.default_rng(5)
    moved = 0
    rec = slice(int(kern.cfg[layout.O_REC]), int(kern.cfg[layout.O_REC] + kern.cfg[layout.N] * layout.NREC))
    for st, ks in pairs[::3]:
        p = st.current_player()
        key = A.info_key_of(kern.cfg, ks.array, p, detail)
        keys = row(kern, ks.array, p, detail)
        for _ in range(2):
            world = kern.state_from(st.resample_from_infostate(p, rng.random))
            # state_from starts the record counters at zero (a world is for play-outs); the abstraction reads only
            # public ones (who was caught, ...): carry the real game's over
            world.array[rec] = ks.array[rec]
            assert A.info_key_of(kern.cfg, world.array, p, detail) == key
            assert row(kern, world.array, p, detail) == keys
            moved += int(not np.array_equal(hidden(kern, world.array, p), hidden(kern, ks.array, p)))
    # the redeals did change hidden cards (with two players the other hand is often forced by what the seat saw)
    assert moved >= 5


@pytest.mark.parametrize("game_string", [TINY, "trustme_liar(players=3,values=3,copies=2,max_play=1,max_turns=6)"])
def test_one_information_set_one_key(game_string):
    game = pyspiel.load_game(game_string)
    cg = compile_tree(game, 10**6)
    cfg = layout.rules_array(game)
    groups = TRAINER.tree_states(cg, every=True)
    for i, states in enumerate(groups):
        p = int(cg.infoset_player[i])
        for detail in (0, 1):
            assert len({int(A.info_key_of(cfg, s, p, detail)) for s in states}) == 1, cg.infoset_keys[i]


def test_visible_things_change_the_key():
    _, kern, pairs = positions("trustme_liar(players=3,values=6,copies=3)", 3, 2)
    cfg = kern.cfg
    values = int(cfg[layout.V])
    changed = {"hand": 0, "caught": 0, "pile": 0}
    for st, ks in pairs[:60]:
        p = st.current_player()
        S = ks.array
        key = A.info_key_of(cfg, S, p, 0)
        s = S.copy()
        s[cfg[layout.O_HSIZE] + p] += 5  # five more cards in your hand
        changed["hand"] += A.info_key_of(cfg, s, p, 0) != key
        if S[layout.S_RVALUE] >= 0:
            liar = S[cfg[layout.O_PPLAYER] + S[layout.S_PLEN] - 1]
            s = S.copy()
            s[cfg[layout.O_REC] + liar * layout.NREC + layout.R_CAUGHT] += 1  # the claimant caught once more
            changed["caught"] += A.info_key_of(cfg, s, p, 0) != key
        s = S.copy()
        s[layout.S_PCARDS] += 9
        changed["pile"] += A.info_key_of(cfg, s, p, 0) != key
        # your own hand's values change the fine level
        s = S.copy()
        s[cfg[layout.O_HANDS] + p * values] += 1
        assert A.info_key_of(cfg, s, p, 1) != A.info_key_of(cfg, S, p, 1)
    assert all(v > 0 for v in changed.values()), changed


@pytest.mark.parametrize("detail", [0, 1])
def test_stated_probabilities_cover_the_legal_actions_and_the_kernel_seat_draws_them(tmp_path, detail):
    # A small policy of the 52-card deck cut to 6 values: rows with many plays, starters choosing values.
    gs = "trustme_liar(players=3,values=6,copies=4,max_play=3)"
    game = pyspiel.load_game(gs)
    policy = train(game, TrainSettings(iterations=3000, seed=1, detail=detail), tmp_path)
    table = policy.lookup()
    ctx = TRAINER.bot_context(game)
    kern = Kernel(game, ["trained"], trained=(*table, detail))
    _, _, pairs = positions(gs, 4, 9)
    checked = 0
    for st, ks in pairs[::5][:12]:
        p = st.current_player()
        probs, _ = TRAINER.action_probabilities(ctx, table, st, p, detail)
        assert set(probs) == set(st.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        draws = kern.sample_actions(ks, 4000, seed=17)
        freq = {a: c / len(draws) for a, c in zip(*np.unique(draws, return_counts=True))}
        assert set(freq) <= {a for a, q in probs.items() if q > 0}
        # total variation within sampling noise (4,000 draws)
        support = set(freq) | {a for a, q in probs.items() if q > 0}
        tv = 0.5 * sum(abs(freq.get(a, 0.0) - probs.get(a, 0.0)) for a in support)
        assert tv < 0.05 + 0.6 * np.sqrt(len(support) / 4000), (tv, len(support))
        checked += 1
    assert checked >= 6


def heuristic_by_action(kern, S):
    """The compiled heuristic's distribution (default knobs) at ``S``, an action's entries added up."""
    from trustme_analysis.games.liar.kernel.heuristic import heuristic_distribution

    acts, probs = np.zeros(4096, np.int64), np.zeros(4096)
    k = heuristic_distribution(kern.cfg, kern.tab, S.copy(), A.DEFAULT_KNOBS, acts, probs, np.zeros(64, np.int64))
    out = {}
    for a, q in zip(acts[:k].tolist(), probs[:k].tolist()):
        out[a] = out.get(a, 0.0) + q
    return out


def test_the_abstraction_marks_the_default_heuristic():
    from trustme_analysis.games.liar.players.heuristic import LiarKnobs

    assert np.array_equal(A.DEFAULT_KNOBS, LiarKnobs().array())


@pytest.mark.parametrize("detail", [0, 1])
def test_a_row_the_table_never_saw_plays_the_heuristic(detail):
    # An empty table: every row is unseen, so the trained player plays the default heuristic's row (not uniform).
    from trustme_analysis.train import tables as T

    gs = "trustme_liar(players=3,values=6,copies=4,max_play=3)"
    _, kern, pairs = positions(gs, 3, 4)
    table = T.policy_table(np.zeros(0, np.int64), np.zeros(0))
    ctx = TRAINER.bot_context(pyspiel.load_game(gs))
    checked = 0
    for st, ks in pairs[::4][:20]:
        p = st.current_player()
        probs, known = TRAINER.action_probabilities(ctx, table, st, p, detail)
        assert not known
        assert sum(probs.values()) == pytest.approx(1.0)
        heur = heuristic_by_action(kern, ks.array)
        # call liar, pass and burn are their own row entries: the heuristic's probability exactly
        for a in (A.LIAR, A.PASS, A.BURN):
            if a in probs:
                assert probs[a] == pytest.approx(heur.get(a, 0.0), abs=1e-12)
        if detail >= 1:  # the row is the legal actions: the heuristic's distribution itself
            assert {a: q for a, q in probs.items() if q > 0} == pytest.approx({a: q for a, q in heur.items() if q > 0})
        else:  # the row's mass lies on the descriptions the heuristic plays, as much as the heuristic gives each
            _, descs, prior = row(kern, ks.array, p, 0)
            assert sum(prior) == pytest.approx(1.0)
            sc = A.new_scratch(kern.cfg, kern.tab)
            mass = {}
            for a, q in probs.items():
                d, _ = A.play_share(kern.cfg, kern.tab, ks.array.copy(), p, a, 0, sc["scratch"])
                mass[d] = mass.get(d, 0.0) + q
            assert {d: mass.get(d, 0.0) for d in descs} == pytest.approx(dict(zip(descs, prior)))
        checked += 1
    assert checked >= 10
    # the kernel's trained seats read the same rows: with the empty table they play the heuristic's plays
    st, ks = next((st, ks) for st, ks in pairs if A.LIAR in st.legal_actions())
    draws = Kernel(pyspiel.load_game(gs), ["trained"], trained=(*table, detail)).sample_actions(ks, 2000, seed=3)
    heur = heuristic_by_action(kern, ks.array)
    assert np.mean(draws == A.LIAR) == pytest.approx(heur.get(A.LIAR, 0.0), abs=0.05)


def test_the_kernel_probes_keep_their_rules():
    from trustme_analysis.games.liar.kernel import heuristic
    from trustme_analysis.games.liar.kernel import trained as TR
    from trustme_analysis.games.liar.analysis.strategy import classify_play

    gs = "trustme_liar(players=3,values=6,copies=4,max_play=3)"
    game, kern, pairs = positions(gs, 3, 6)
    rng = np.zeros(1, np.uint64)
    sc = A.new_scratch(kern.cfg, kern.tab)
    hbuf = heuristic.new_buffer(kern.cfg, A.DEFAULT_KNOBS.reshape(1, -1))
    seen = {name: 0 for name in TR.PROBE_KINDS}
    for i, (st, ks) in enumerate(pairs[::2]):
        legal = st.legal_actions()
        bluffs = [a for a in legal if (c := classify_play(game, a)) is not None and c[1] > 0]
        for name, code in TR.PROBE_KINDS.items():
            rng[0] = i
            a = int(TR.probe_action(kern.cfg, kern.tab, ks.array.copy(), A.DEFAULT_KNOBS, rng, code, sc["scratch"],
                                    hbuf))
            assert a in legal
            if name == "always challenge" and A.LIAR in legal:
                assert a == A.LIAR
            elif name == "never challenge" and A.LIAR in legal:
                assert a != A.LIAR
            elif name == "always bluff" and bluffs:
                assert a in bluffs
            elif name == "never bluff" and bluffs:
                assert a not in bluffs
            else:
                continue
            seen[name] += 1
    assert all(v >= 5 for v in seen.values()), seen


def test_kernel_probe_screen_is_deterministic_and_counts_wins(tmp_path):
    # (a deck that leaves hands of several cards after the pairs are discarded: the games last several rounds)
    gs = "trustme_liar(players=2,values=8,copies=4)"
    game = pyspiel.load_game(gs)
    policy = train(game, TrainSettings(iterations=2000, seed=0), tmp_path)
    names = ["always bluff", "never bluff", "always challenge", "never challenge", "heuristic", "no such probe"]
    a = TRAINER.screen_probes(game, policy.lookup(), names, 60, seed=7)
    assert a == TRAINER.screen_probes(game, policy.lookup(), names, 60, seed=7)
    assert set(a) == set(names) - {"no such probe"}
    assert all(0.0 <= v <= 1.0 and abs(v * 60 - round(v * 60)) < 1e-9 for v in a.values())
    # the screen's games are the kernel's own games with those seats: the heuristic's figure is what Kernel.play
    # gives for a heuristic seat (rotating) against trained seats on the same seeds
    wins = 0
    for rot in range(2):
        kinds = ["trained", "trained"]
        kinds[rot] = "heuristic"
        seeds = np.arange(7 + rot * 60, 7 + rot * 60 + 30, dtype=np.uint64)
        rets = Kernel(game, kinds, trained=(*policy.lookup(), 0)).play(seeds).returns
        wins += int((rets[:, rot] == rets.max(axis=1)).sum())
    assert a["heuristic"] == wins / 60


def test_trained_kernel_games_replay_from_their_seeds_and_mix_with_other_seats(tmp_path):
    game = pyspiel.load_game("trustme_liar(players=4,values=6,copies=4)")
    policy = train(game, TrainSettings(iterations=2000, seed=0), tmp_path)
    kern = Kernel(game, ["trained", "heuristic", "random", "trained"], trained=(*policy.lookup(), 0))
    seeds = np.arange(50, dtype=np.uint64)
    a, b = kern.play(seeds, histories=True), kern.play(seeds, histories=True)
    assert a.rows() == b.rows()
    with pytest.raises(ValueError, match="trained"):
        Kernel(game, ["trained"])
    # ... and a rollout from the start with seed s is the trained game of seed s (search over the trained policy;
    # tests/players/test_liar_search_trained_rollouts.py)
    np.testing.assert_array_equal(kern.rollouts(kern.new_state(), 1, 7), kern.play(np.array([7], np.uint64)).returns[0])


def test_trained_policy_is_near_equilibrium_on_the_reduced_variant(tmp_path):
    game = pyspiel.load_game(TINY)
    cg = compile_tree(game, 10**6)
    # the coarse level, the one the full game trains with
    result = train(game, TrainSettings(iterations=1_000_000, seed=3), tmp_path)
    trained = evaluate.exploitability(cg, TRAINER.tree_policy(cg, result.lookup()))
    uniform = evaluate.exploitability(cg, cg.uniform_policy())
    # Rank utility with two players: range 2; the target is 3% of it.
    assert trained <= 0.03 * 2
    assert trained < uniform / 10
    assert evaluate.exploitability(cg, cfr.solve(cg, "dcfr", iterations=200).average) < trained


def test_trained_bot_states_the_stored_policy_and_replays_from_its_generator(tmp_path):
    from cfr.policy_io import from_tabular_policy
    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import play_game
    from trustme_analysis.players.trained import tabular_policy
    from trustme_analysis.solve.profile import bots_policy

    game = pyspiel.load_game(TINY_TRUSTME)
    knobs = {"iterations": 20_000, "seed": 2, "detail": 1, "outdir": str(tmp_path)}
    bots = {p: make_bot(game, "trained", p, np.random.default_rng(0), **knobs) for p in range(2)}
    cg = compile_tree(game, 10**6)
    stored = bots[0].policy
    assert np.allclose(bots_policy(cg, bots), TRAINER.tree_policy(cg, stored.lookup(), detail=1))
    assert bots[0].knobs()["fingerprint"] == stored.fingerprint
    histories = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        seats = [make_bot(game, "trained", p, rng, **knobs) for p in range(2)]
        histories.append(play_game(game, seats, rng).history())
    assert histories[0] == histories[1]
    tab = tabular_policy(game, bots[0].settings, str(tmp_path), compiled=cg)
    assert np.allclose(from_tabular_policy(cg, tab), TRAINER.tree_policy(cg, stored.lookup(), detail=1))
