"""Pinocchio's trained player: the abstraction reads only what its seat may see, and the trained policy is close to
equilibrium on a solved reduced variant (exact exploitability on the compiled tree)."""

import numpy as np
import pyspiel
import pytest

import cfr
from cfr import evaluate
from trustme_analysis.games.pinocchio.kernel import kernel
from trustme_analysis.games.pinocchio.kernel.tree import compile_tree
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel.abstraction import info_key_of, row_of_compiled
from trustme_analysis.games.pinocchio.kernel.training import TRAINER
from trustme_analysis.train import TrainSettings, train

PARK_TWO = ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,"
            "chart=1/3/6,runouts_to_end=1)")
FULL = ["trustme_pinocchio(players=2)", "trustme_pinocchio(players=3)",
        "trustme_pinocchio(players=4,coin_variant=True,voting=sequential)"]


def decision_positions(game_string, games, seed):
    """Kernel states at player decisions of random games."""
    kern = kernel.Kernel(pyspiel.load_game(game_string))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        st = kern.new_state()
        while not st.is_terminal():
            legal = st.legal_actions()
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                continue
            out.append(st.clone())
            st.apply_action(legal[rng.integers(len(legal))])
    return kern, out


def row(st, R, p, detail):
    """The policy row's table keys of seat ``p`` at ``st`` and each legal move's entry in it."""
    legal = np.array(st.legal_actions(), np.int64)
    keys = np.zeros(K.MAXA, np.int64)
    which = np.zeros(K.MAXA, np.int64)
    prior = np.zeros(K.MAXA)
    m = row_of_compiled(st.s, R, p, legal, len(legal), keys, which, detail, prior)
    return keys[:m].tolist(), which[:len(legal)].tolist(), prior[:m].round(12).tolist()


@pytest.mark.parametrize("detail", [0, 1])
@pytest.mark.parametrize("game_string", FULL)
def test_key_does_not_move_when_hidden_cards_are_redrawn(game_string, detail):
    kern, positions = decision_positions(game_string, 8, 1)
    moved = 0
    for n, st in enumerate(positions):
        p = st.current_player()
        key = info_key_of(st.s, kern.R, p, detail)
        keys = row(st, kern.R, p, detail)
        for k in range(3):
            other = st.determinize(p, seed=1000 * n + k)
            assert info_key_of(other.s, kern.R, p, detail) == key
            assert row(other, kern.R, p, detail) == keys
            moved += int(not np.array_equal(other.s[K.HIDDEN_START:K.HIDDEN_END], st.s[K.HIDDEN_START:K.HIDDEN_END]))
    assert moved > len(positions)  # the redraws did change hidden cards


def test_one_information_set_one_key_and_visible_changes_change_it():
    game = pyspiel.load_game(PARK_TWO)
    cg = compile_tree(game, 10**6)
    R = kernel.rules_array(game)
    groups = TRAINER.tree_states(cg, every=True)
    for i, states in enumerate(groups):
        p = int(cg.infoset_player[i])
        for detail in (0, 1):
            assert len({int(info_key_of(s, R, p, detail)) for s in states}) == 1, cg.infoset_keys[i]
    # visible things change the key: own hand and the Park (fine level), Reputations, Tickets, the score, the
    # teller's revealed tales
    kern, positions = decision_positions("trustme_pinocchio(players=3)", 3, 2)
    key_of = info_key_of
    for st in positions[:40]:
        p = st.current_player()
        for offset in (K.HANDS + p * K.MAXV, K.PARK, K.REPS + p * K.MAXV):
            s = st.s.copy()
            s[offset] = 0 if s[offset] else 1
            assert key_of(s, kern.R, p, 1) != key_of(st.s, kern.R, p, 1)
        voting = int(st.s[K.PHASE]) in (K.VOTE, K.COIN_OFFER)
        if not voting:
            # your Reputation counts as the largest set or sequence it could cash (at a vote: not read)
            s = st.s.copy()
            s[K.REPS:K.REPS + K.MAXP * K.MAXV] = 0
            empty = key_of(s, kern.R, p, 0)
            s[K.REPS + p * K.MAXV] = 2
            assert key_of(s, kern.R, p, 0) != empty
        s = st.s.copy()
        s[K.STACKS:K.STACKS + K.MAXV] = 0
        assert key_of(s, kern.R, p, 0) != key_of(st.s, kern.R, p, 0)
        s = st.s.copy()
        # the score: yours against the best other at a turn, the teller's against yours at a vote
        against = int(st.s[K.ACTIVE]) if voting else None
        s[K.SCORE + p] = s[K.SCORE + against] if voting else max(s[K.SCORE + (p + 1) % 3], s[K.SCORE + (p + 2) % 3])
        level = key_of(s, kern.R, p, 0)
        s[K.SCORE + p] += 7
        assert key_of(s, kern.R, p, 0) != level
        if voting:
            # how likely the teller held the claimed Character: your own hand's Characters of it change it
            target = int(st.s[K.TALE_PARK])
            s = st.s.copy()
            s[K.HANDS + p * K.MAXV + target - 1] = 0
            before = key_of(s, kern.R, p, 0)
            s[K.HANDS + p * K.MAXV + target - 1] = 5
            assert key_of(s, kern.R, p, 0) != before
        if int(st.s[K.PHASE]) == K.VOTE:
            rows = K.ROWS + int(st.s[K.ACTIVE]) * 4
            s = st.s.copy()
            s[rows:rows + 4] = 0
            untold = key_of(s, kern.R, p, 0)
            s[rows + 2] = 1  # one tall tale revealed
            assert key_of(s, kern.R, p, 0) != untold


def test_the_prior_is_the_default_heuristic_and_unseen_rows_play_it():
    """Each row's prior sums the default heuristic's probabilities of the moves its entries describe (the knobs
    the abstraction holds are the bot's defaults), the coarse level marks the heuristic's moves so that its
    favourite never shares an entry with a move it never plays, and a table that never saw a row plays the
    heuristic's row there."""
    from trustme_analysis.games.pinocchio.kernel.abstraction import DEFAULT_HEURISTIC
    from trustme_analysis.games.pinocchio.kernel.training import policy_at

    assert np.array_equal(DEFAULT_HEURISTIC, kernel.heuristic_knobs())
    kern, positions = decision_positions("trustme_pinocchio(players=3)", 4, 5)
    empty = (np.full(16, -(2**63), np.int64), np.zeros(16))
    buf = np.zeros(K.scratch_size(kern.R), np.int64)
    checked = 0
    for st in positions:
        p = st.current_player()
        hacts, hp = np.zeros(K.MAXA, np.int64), np.zeros(K.MAXA)
        n = K.heuristic_policy(st.s, kern.R, kern.H[p], hacts, hp, buf)
        _, which, prior = row(st, kern.R, p, 0)
        sums = np.zeros(len(prior))
        np.add.at(sums, which, hp[:n])
        assert np.allclose(sums, prior)
        # the moves of one entry are all played by the heuristic or all not
        for u in range(len(prior)):
            inside = hp[:n][np.asarray(which) == u]
            assert np.all(inside > 0) or np.all(inside == 0)
        out = np.zeros(K.MAXA)
        scratch = (np.zeros(K.MAXA, np.int64), np.zeros(K.MAXA, np.int64), np.zeros(K.MAXA))
        known = policy_at(st.s, kern.R, *empty, hacts, n, out, *scratch, 0)
        assert not known
        per_entry = np.zeros(len(prior))
        np.add.at(per_entry, which, out[:n])
        assert np.allclose(per_entry, np.asarray(prior) / sum(prior))
        checked += n > 1
    assert checked > 20


def test_trained_policy_is_near_equilibrium_on_the_reduced_variant(tmp_path):
    game = pyspiel.load_game(PARK_TWO)
    cg = compile_tree(game, 10**6)
    result = train(game, TrainSettings(iterations=1_000_000, seed=3, detail=1), tmp_path)
    trained = evaluate.exploitability(cg, TRAINER.tree_policy(cg, result.lookup(), detail=1))
    uniform = evaluate.exploitability(cg, cg.uniform_policy())
    # Win/loss utility: range 2; the target is 3% of it.
    assert trained <= 0.03 * 2
    assert trained < uniform / 10
    cfr_value = evaluate.exploitability(cg, cfr.solve(cg, "dcfr", iterations=200).average)
    assert cfr_value < trained  # the full-tree solver, for reference, is closer still


def test_trained_bot_states_the_stored_policy_and_replays_from_its_generator(tmp_path):
    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import play_game
    from trustme_analysis.solve.profile import bots_policy

    game = pyspiel.load_game(PARK_TWO)
    knobs = {"iterations": 20_000, "seed": 2, "detail": 1, "outdir": str(tmp_path)}
    bots = {p: make_bot(game, "trained", p, np.random.default_rng(0), **knobs) for p in range(2)}
    cg = compile_tree(game, 10**6)
    stored = bots[0].policy
    # The bot's stated distribution at each information set is the table's (the same as the exact evaluation's).
    assert np.allclose(bots_policy(cg, bots), TRAINER.tree_policy(cg, stored.lookup(), detail=1))
    assert bots[0].knobs()["fingerprint"] == stored.fingerprint
    histories = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        seats = [make_bot(game, "trained", p, rng, **knobs) for p in range(2)]
        histories.append(play_game(game, seats, rng).history())
    assert histories[0] == histories[1]
    with pytest.raises(ValueError, match="unknown knob"):
        make_bot(game, "trained", 0, np.random.default_rng(0), budget=3)
    # exported as an OpenSpiel TabularPolicy, it is the same policy
    from cfr.policy_io import from_tabular_policy
    from trustme_analysis.players.trained import tabular_policy

    tab = tabular_policy(game, bots[0].settings, str(tmp_path), compiled=cg)
    assert np.allclose(from_tabular_policy(cg, tab), TRAINER.tree_policy(cg, stored.lookup(), detail=1))


@pytest.mark.parametrize("game_string", ["trustme_pinocchio(players=2)", "trustme_pinocchio(players=3)"])
def test_kernel_probes_play_their_rule(tmp_path, game_string):
    """The kernel's probe seats (the benchmark's fast screen) follow their rule: never trust casts no trusting
    vote, always trust no other, never tell a tall tale tells none; the trained seats play their table."""
    from trustme_analysis.games.pinocchio.kernel import trained as TR

    game = pyspiel.load_game(game_string)
    n = game.num_players()
    policy = train(game, TrainSettings(iterations=3_000, seed=1, epoch=1_000), tmp_path)
    keys, avg = policy.lookup()
    kern = kernel.Kernel(game, ["heuristic"])
    seeds = np.arange(60, dtype=np.uint64)
    talls = {}
    for name, code in TR.PROBE_KINDS.items():
        kinds = np.full(n, K.SEAT_TRAINED, np.int64)
        kinds[0] = code
        finals = np.zeros((len(seeds), K.STATE_SIZE), np.int32)
        rets = np.zeros((len(seeds), n))
        TR.play_probe_games(kern.R, seeds, kinds, kern.H, keys, avg, 0, finals, rets)
        cast, trust = finals[:, K.VOTES_CAST].sum(), finals[:, K.VOTES_TRUST].sum()
        tall = finals[:, K.ROWS + 2].sum() + finals[:, K.ROWS + 3].sum()
        assert cast > 0 and np.all(finals[:, K.PHASE] == K.TERMINAL)
        if name == "never trust":
            assert trust == 0
        elif name == "always trust":
            assert trust == cast
        talls[name] = tall
    # (where every legal move is a tall tale, "never tell a tall tale" says nothing: rare, so few)
    assert talls["never tell a tall tale"] * 20 < talls["always tell a tall tale"]
    rates = TRAINER.screen_probes(game, (keys, avg), list(TR.PROBE_KINDS) + ["unknown"], 40, seed=5)
    assert set(rates) == set(TR.PROBE_KINDS) and all(0.0 <= r <= 1.0 for r in rates.values())
