"""Trust Me (1981)'s trained player: the abstraction reads only what its seat may see, the investing round embeds in
the board game's kernel exactly, the trained policy is close to equilibrium on a solved investing round (exact
exploitability on the compiled tree), the bot states the stored policy, and the kernel's trained seats draw from it."""

import numpy as np
import pyspiel
import pytest

import cfr
from cfr import evaluate
from trustme_analysis.games.board1981.engine.investment import PRESETS
from trustme_analysis.games.board1981.kernel import layout as L
from trustme_analysis.games.board1981.kernel.abstraction import info_key_of, row_of_compiled
from trustme_analysis.games.board1981.kernel.investment import compile_tree
from trustme_analysis.games.board1981.kernel.kernel import Kernel
from trustme_analysis.games.board1981.kernel.trained import trained_action_compiled
from trustme_analysis.games.board1981.kernel.training import INVESTMENT_TRAINER, TRAINER, policy_at
from trustme_analysis.train import TrainSettings, train

FULL = ["trustme_1981(players=2)", "trustme_1981(players=4,peek=True)"]
SHORT = "trustme_1981(players=2,max_turns=30)"


def decision_positions(game_string, games, seed):
    """Kernel states at player decisions of games of random seats."""
    kern = Kernel(pyspiel.load_game(game_string))
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        st = kern.opening(seed * 100 + g)
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                continue
            out.append(st.clone())
            legal = st.legal_actions()
            st.apply_action(legal[rng.integers(len(legal))])
    return kern, out


def row(st, r, p, detail, legal=None, prior=False):
    """The policy row's table keys of seat ``p`` at kernel state array ``st`` and each legal move's entry in it
    (and, with ``prior``, the default heuristic's probability of each entry)."""
    legal = np.asarray(legal, np.int64)
    keys = np.zeros(len(legal) + 1, np.int64)
    which = np.zeros(len(legal) + 1, np.int64)
    probs = np.zeros(len(legal) + 1)
    m = row_of_compiled(st, r, p, legal, len(legal), keys, which, detail, probs)
    out = keys[:m].tolist(), which[:len(legal)].tolist()
    return (*out, probs[:m].tolist()) if prior else out


@pytest.mark.parametrize("detail", [0, 1])
@pytest.mark.parametrize("game_string", FULL)
def test_key_does_not_move_when_unseen_cards_are_dealt_anew(game_string, detail):
    kern, positions = decision_positions(game_string, 3, 1)
    r = kern.rules
    props = kern.game.rules.num_properties
    moved = 0
    for n, st in enumerate(positions[::3]):
        p = st.current_player()
        legal = st.legal_actions()
        key = info_key_of(st.st, r, p, detail)
        keys = row(st.st, r, p, detail, legal, prior=True)  # (the keys carry the heuristic's mark at level 0)
        for other in kern.sample_worlds(st, p, 3, seed=1000 + n):
            assert info_key_of(other.st, r, p, detail) == key
            assert row(other.st, r, p, detail, legal, prior=True) == keys
            moved += int(not np.array_equal(other.st[L.CARDS:L.CARDS + props], st.st[L.CARDS:L.CARDS + props]))
    assert moved > len(positions[::3])  # the deals did change unseen cards


def test_the_abstraction_marks_the_default_heuristic():
    from trustme_analysis.games.board1981.kernel.abstraction import DEFAULT_KNOBS
    from trustme_analysis.games.board1981.players.heuristic import HeuristicKnobs

    defaults = HeuristicKnobs()
    assert DEFAULT_KNOBS.tolist() == [float(getattr(defaults, name)) for name in L.KNOBS]


@pytest.mark.parametrize("detail", [0, 1])
def test_a_row_the_table_never_saw_plays_the_heuristic(detail):
    # An empty table (every slot EMPTY: zeros would be keys, and a probe of a full table never ends): every row is
    # unseen, so the trained player plays the default heuristic's row, not uniformly.
    from trustme_analysis.train.tables import EMPTY

    game_string = FULL[1]
    kern, positions = decision_positions(game_string, 2, 5)
    table = (np.full(64, EMPTY, np.int64), np.zeros(64))
    r = kern.rules
    size = int(r[L.R_NUM_ACTIONS]) + 1
    scratch = [np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(3 * size)]
    phases = set()
    drawn = 0
    for n, st in enumerate(positions[::5]):
        p = st.current_player()
        legal = st.legal_actions()
        acts = np.zeros(size, np.int64)
        acts[:len(legal)] = legal
        out = np.zeros(size)
        # (policy_at: what the trained bot states and the exact evaluation reads)
        known = policy_at(st.st, r, *table, acts, len(legal), out, np.zeros(size, np.int64), np.zeros(size, np.int64),
                          np.zeros(size), detail)
        assert not known
        probs = dict(zip(legal, out[:len(legal)].tolist()))
        heur = kern.heuristic_policy(st)
        assert probs == pytest.approx(heur, abs=1e-12)
        phases.add(int(st.st[L.PHASE]))
        if detail == 0:
            # the mark splits the moves the heuristic makes from those it never makes: no entry holds both
            _, which, prior = row(st.st, r, p, 0, st.legal_actions(), prior=True)
            for u in range(len(prior)):
                made = {heur[a] > 0 for a, w in zip(st.legal_actions(), which) if w == u}
                assert len(made) == 1 and made == {prior[u] > 0}
        if drawn < 3 and sum(q > 0 for q in heur.values()) > 1:
            # the kernel's trained seats draw the same row
            rng = np.asarray([n + 1], np.uint64)
            draws = [int(trained_action_compiled(st.st.copy(), r, rng, *table, detail, *scratch)) for _ in range(1000)]
            for a, q in heur.items():
                assert abs(draws.count(a) / 1000 - q) < 4 * np.sqrt(max(q * (1 - q), 1e-4) / 1000) + 1e-9
            drawn += 1
    assert drawn == 3 and {L.MOVE, L.PROPERTY_CHOICE, L.TURN_START} <= phases


def test_visible_things_change_the_key():
    kern, positions = decision_positions(FULL[0], 2, 2)
    r = kern.rules
    invest = [st for st in positions if int(st.st[L.PHASE]) == L.INVEST_CHOICE]
    assert invest
    for st in invest[:20]:
        p = st.current_player()
        q = int(st.st[L.CLAIM + int(st.st[L.CLAIMANT])])
        s = st.st.copy()
        s[L.LOOKED + p] ^= 1 << q  # what you saw under the claimed briefcase (or that you never looked)
        assert info_key_of(s, r, p, 0) != info_key_of(st.st, r, p, 0)
        s = st.st.copy()
        s[L.MONEY + p] = 0  # your money
        poor = info_key_of(s, r, p, 0)
        s[L.MONEY + p] = 30
        assert info_key_of(s, r, p, 0) != poor
    s = positions[0].st.copy()
    p = positions[0].current_player()
    s[L.MONEY + p] += 40  # the money race
    assert info_key_of(s, r, p, 0) != info_key_of(positions[0].st, r, p, 0)


@pytest.mark.parametrize("preset", ["small", "three"])
def test_one_information_set_one_key(preset):
    game = pyspiel.load_game(PRESETS[preset])
    cg = compile_tree(game, 10**6)
    r = INVESTMENT_TRAINER._rules(game)
    groups = INVESTMENT_TRAINER.tree_states(cg, every=True)
    for i, states in enumerate(groups):
        p = int(cg.infoset_player[i])
        for detail in (0, 1):
            assert len({int(info_key_of(s, r, p, detail)) for s in states}) == 1, cg.infoset_keys[i]


@pytest.mark.parametrize("text", [PRESETS["small"].replace("money=5", "money=3"), PRESETS["three"],
                                  PRESETS["duel"].replace("lots=1/5/10", "lots=1/5/10,buy_max=true,claimant=1")])
def test_the_round_embeds_in_the_board_kernel(text):
    game = pyspiel.load_game(text)
    r = INVESTMENT_TRAINER._rules(game)
    first = int(r[L.R_A_FIRST_INVEST])
    rng = np.random.default_rng(4)
    from trustme_analysis.games.board1981.kernel.step import legal_actions, returns

    buf = np.zeros(int(r[L.R_NUM_ACTIONS]) + 1, np.int64)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
                continue
            st = INVESTMENT_TRAINER.state_of(game, r, state.history())
            assert int(st[L.PHASE]) == L.INVEST_CHOICE and int(st[L.DECIDER]) == state.current_player()
            k = legal_actions(st, r, buf)
            assert (buf[:k] - first).tolist() == state.legal_actions()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        st = INVESTMENT_TRAINER.state_of(game, r, state.history())
        assert int(st[L.PHASE]) == L.OVER
        out = np.zeros(game.num_players())
        returns(st, r, out)
        assert out.tolist() == state.returns()


def test_trained_policy_is_near_equilibrium_on_a_solved_round(tmp_path):
    game = pyspiel.load_game(PRESETS["small"])
    cg = compile_tree(game, 10**6)
    span = float(cg.utilities.max() - cg.utilities.min())
    result = train(game, TrainSettings(iterations=100_000, seed=3, detail=1), tmp_path)
    trained = evaluate.exploitability(cg, INVESTMENT_TRAINER.tree_policy(cg, result.lookup(), detail=1))
    uniform = evaluate.exploitability(cg, cg.uniform_policy())
    assert trained <= 0.03 * span
    assert trained < uniform / 10
    cfr_value = evaluate.exploitability(cg, cfr.solve(cg, "dcfr", iterations=200).average)
    assert cfr_value < trained  # the full-tree solver, for reference, is closer still


def test_trained_bot_states_the_stored_policy_and_replays_from_its_generator(tmp_path):
    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import play_game
    from trustme_analysis.solve.profile import bots_policy

    game = pyspiel.load_game(PRESETS["small"])
    knobs = {"iterations": 5_000, "seed": 2, "detail": 1, "outdir": str(tmp_path)}
    bots = {p: make_bot(game, "trained", p, np.random.default_rng(0), **knobs) for p in range(2)}
    cg = compile_tree(game, 10**6)
    stored = bots[0].policy
    assert np.allclose(bots_policy(cg, bots), INVESTMENT_TRAINER.tree_policy(cg, stored.lookup(), detail=1))
    assert bots[0].knobs()["fingerprint"] == stored.fingerprint
    # the whole board game: a short game replays from the generator
    board = pyspiel.load_game(SHORT)
    bknobs = {"iterations": 300, "seed": 1, "outdir": str(tmp_path)}
    histories = []
    for _ in range(2):
        rng = np.random.default_rng(11)
        seats = [make_bot(board, "trained", p, rng, **bknobs) for p in range(2)]
        histories.append(play_game(board, seats, rng).history())
    assert histories[0] == histories[1]


def test_kernel_trained_seats_draw_the_stored_policy(tmp_path):
    game = pyspiel.load_game(SHORT)
    policy = train(game, TrainSettings(iterations=3_000, seed=5), tmp_path)
    keys, avg = policy.lookup()
    kern = Kernel(game, ["trained", "heuristic"], trained=(keys, avg, 0))
    a = kern.play(np.arange(40, dtype=np.uint64), histories=True)
    b = kern.play(np.arange(40, dtype=np.uint64), histories=True)
    assert [a.history(g) for g in range(40)] == [b.history(g) for g in range(40)] and len(a.rows()) == 40
    assert len({len(a.history(g)) for g in range(40)}) > 1
    with pytest.raises(ValueError, match="trained"):
        Kernel(game, ["trained"])
    # ... and its rollouts play the policy too (a search player over it; tests/players/
    # test_1981_search_trained_rollouts.py)
    assert kern.rollouts(kern.new_state(), 2, 0).shape == (2,)
    # the draws follow policy_at's probabilities (the bot's and the exact evaluation's)
    _, positions = decision_positions(SHORT, 2, 3)
    r = kern.rules
    size = int(r[L.R_NUM_ACTIONS]) + 1
    scratch = [np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(3 * size)]
    checked = 0
    for st in positions:
        legal = np.asarray(st.legal_actions(), np.int64)
        if len(legal) < 2:
            continue
        acts = np.zeros(size, np.int64)
        acts[:len(legal)] = legal
        out = np.zeros(size)
        if not policy_at(st.st, r, keys, avg, acts, len(legal), out, np.zeros(size, np.int64),
                         np.zeros(size, np.int64), np.zeros(size), 0):
            continue
        rng = np.asarray([checked + 1], np.uint64)
        draws = [int(trained_action_compiled(st.st.copy(), r, rng, keys, avg, 0, *scratch)) for _ in range(3000)]
        for j, action in enumerate(legal.tolist()):
            freq = draws.count(action) / len(draws)
            assert abs(freq - out[j]) < 4 * np.sqrt(max(out[j] * (1 - out[j]), 1e-4) / len(draws)) + 1e-9
        checked += 1
        if checked == 12:
            break
    assert checked >= 6


def test_full_game_trainer_runs_and_is_deterministic(tmp_path):
    from trustme_analysis.train import game_settings

    game = pyspiel.load_game(SHORT)
    chosen = game_settings(game, iterations=500, seed=9)  # the trainer's defaults: the prior, average opponents
    assert (chosen.prior, chosen.opponents, chosen.beta) == (200000.0, "average", 1.5)
    a = train(game, chosen, tmp_path / "a")
    b = train(game, chosen, tmp_path / "b")
    assert a.summary["policy_digest"] == b.summary["policy_digest"] and a.summary["slots"] > 100
    assert TRAINER.version.startswith("1981-") and INVESTMENT_TRAINER.version.startswith("1981-round")
