"""The compiled Pinocchio kernel against the engine: kernel games replayed through the pyspiel game step by step
(the one lock-step harness, :func:`trustme_analysis.engine.lockstep.lockstep`).

At every step the current player, the legal actions (or the chance outcomes with their probabilities) must be the
engine's; at the end the returns and every record field (``records.records`` on the engine's terminal state against
the kernel's rows). Over 1,000 games across player counts, voting modes, the Coin variant and reduced variants, every
parameter example of the registry entry (random and heuristic seats) and random variants over the parameter space.
"""

from __future__ import annotations

import functools
import math
import random

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.analysis import records
from trustme_analysis.engine.lockstep import lockstep, same
from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME
from trustme_analysis.games.pinocchio.engine.state import PHASE_NAMES
from trustme_analysis.games.pinocchio.kernel.kernel import Kernel
from trustme_analysis.registry import game_entry

ENTRY = game_entry(SHORT_NAME)

REDUCED = ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,"
           "runouts_to_end=1)")

# (game string, games): the named variants of the engine's own tests and the solve presets, with the game counts
# weighted towards the rulebook games.
VARIANTS = [
    ("trustme_pinocchio(players=2)", 150),
    ("trustme_pinocchio(players=3)", 150),
    ("trustme_pinocchio(players=4)", 100),
    ("trustme_pinocchio(players=4,coin_variant=True)", 60),
    ("trustme_pinocchio(players=4,coin_variant=True,coin_tossers=dissenters,voting=sequential)", 60),
    ("trustme_pinocchio(players=3,voting=sequential,utility=score)", 50),
    ("trustme_pinocchio(players=2,utility=score_diff,empty_deck=reshuffle)", 50),
    ("trustme_pinocchio(players=3,empty_deck=reshuffle,runouts_to_end=3)", 30),
    (REDUCED, 100),
    (("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,chart=1/3,"
      "runouts_to_end=1)"), 100),
    ("trustme_pinocchio(players=2,values=1,copies=10)", 30),  # one value: every tale is true
    ("trustme_pinocchio(players=3,values=3,copies=3,park_size=1,hand_size=0,stacks=1/1/1,chart=1/3/6)", 40),
    ("trustme_pinocchio(players=4,values=9,copies=3,park_size=6,refill=4,hand_size=3,stacks_to_end=9)", 20),
    ("trustme_pinocchio(players=3,first_player=random)", 60),  # the house rule: chance picks the first seat
    ("trustme_pinocchio(players=4,coin_variant=True,voting=sequential,first_player=random)", 30),
]


def random_variant(r: random.Random) -> str:
    """A game string over the whole parameter space the engine accepts (values up to 9, any set-up that fits)."""
    players = r.randint(2, 4)
    values = r.randint(1, 9)
    copies = r.randint(1, 8)
    park = r.randint(1, 6)
    hand = r.randint(0, 3)
    removed = r.randint(0, copies - 1)
    per_value = copies - (removed if players == 2 else 0)
    while per_value * values <= park + players * hand:
        copies += 1
        per_value += 1
    p = {"players": players, "values": values, "copies": copies, "two_player_removed": removed, "park_size": park,
         "hand_size": hand, "refill": r.randint(1, 4), "stacks_to_end": r.randint(1, 9),
         "runouts_to_end": r.randint(1, 4), "voting": r.choice(["simultaneous", "sequential"]),
         "empty_deck": r.choice(["skip", "reshuffle"]),
         "utility": r.choice(["win_loss", "score"] + (["score_diff"] if players == 2 else []))}
    if r.random() < 0.7 and values > 1:
        p["stacks"] = "/".join(str(r.randint(1, 4)) for _ in range(values))
    if r.random() < 0.7 and values > 1:
        p["chart"] = "/".join(str(r.randint(0, 30)) for _ in range(values))
    if players == 4:
        p["coin_variant"] = r.random() < 0.5
        p["coin_tossers"] = r.choice(["any", "dissenters"])
    p["first_player"] = r.choice(["seat0", "random"])
    return "trustme_pinocchio(" + ",".join(f"{k}={v}" for k, v in p.items()) + ")"


RANDOM_VARIANTS = [random_variant(random.Random(i)) for i in range(40)]


@functools.cache
def loaded(game_string: str, kinds: tuple[str, ...] = ("random",)) -> tuple[pyspiel.Game, Kernel]:
    """The game and its kernel, built once per test session (numba compiles, or loads its cache, on first use)."""
    game = pyspiel.load_game(game_string)
    return game, Kernel(game, kinds)


def chance_legal_actions(state: pyspiel.State, kstate) -> str | None:
    """At a chance node the legal actions (the outcomes) agree too (the harness compares the outcomes there)."""
    if state.is_chance_node() and state.legal_actions() != kstate.legal_actions():
        return "legal actions at a chance node"
    return None


def check_games(game_string: str, n: int, first_seed: int, kinds: tuple[str, ...] = ("random",)) -> int:
    game, kernel = loaded(game_string, kinds)
    seeds = np.arange(first_seed, first_seed + n, dtype=np.uint64)
    games, _ = lockstep(game, kernel, seeds, records.records, extra=chance_legal_actions)
    return games


def example_variants() -> list[str]:
    """A game string per parameter example of the registry entry (each sets a parameter to a non-default value)."""
    out = []
    for name, examples in sorted(ENTRY.parameter_examples.items()):
        for example in examples:
            out.append(SHORT_NAME + "(" + ",".join(f"{k}={v}" for k, v in example.items()) + ")")
    return out


EXAMPLE_VARIANTS = example_variants()


# ---------------------------------------------------------------- equivalence with the engine


@pytest.mark.parametrize("game_string, games", VARIANTS)
def test_kernel_games_replay_identically_through_the_engine(game_string, games):
    assert check_games(game_string, games, first_seed=1000) == games


@pytest.mark.parametrize("game_string", RANDOM_VARIANTS)
def test_kernel_matches_the_engine_across_the_parameter_space(game_string):
    check_games(game_string, 8, first_seed=7)


@pytest.mark.parametrize("game_string", EXAMPLE_VARIANTS)
def test_kernel_matches_the_engine_on_every_parameter_example(game_string):
    """Each example of the entry (a parameter at a value other than its default), random and heuristic seats."""
    assert ENTRY.kernel_reason(pyspiel.load_game(game_string), ("random", "heuristic")) is None
    assert check_games(game_string, 20, first_seed=31) == 20
    assert check_games(game_string, 8, first_seed=51, kinds=("heuristic",)) == 8


def test_every_parameter_has_an_example_the_kernel_plays_or_refuses():
    """Every parameter of the game's parameter table has an example at a non-default value; the kernel plays it
    (declared, so lock-step tested above) or refuses it."""
    game = pyspiel.load_game(SHORT_NAME)
    defaults = dict(game.get_type().parameter_specification)
    for name, default in defaults.items():
        examples = ENTRY.parameter_examples.get(name)
        assert examples, f"parameter {name} has no example"
        for example in examples:
            variant = pyspiel.load_game(SHORT_NAME, dict(example))
            assert variant.get_parameters()[name] != default, (name, example)
            reason = ENTRY.kernel_reason(variant, ("random",))
            assert (name in ENTRY.kernel.parameters) == (reason is None), (name, example, reason)


def test_phases_are_numbered_as_the_engine_numbers_them():
    names = ("DEAL_PARK", "DEAL_HAND", "DRAW", "ACTION", "VOTE", "VOTE_COIN", "COIN_OFFER", "COIN_TOSS", "REFILL",
             "FREE_REPUTATION", "TIE_BREAK", "TERMINAL", "FIRST_PLAYER")
    assert [getattr(K, n) for n in names] == list(range(len(PHASE_NAMES)))
    assert [n.lower() for n in names] == list(PHASE_NAMES)
    assert (K.CHANCE_ID, K.TERMINAL_ID) == (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL))


def test_the_hidden_part_of_the_state_is_contiguous_and_holds_deck_hands_and_tale():
    hidden = range(K.HIDDEN_START, K.HIDDEN_END)
    for offset in (K.DECK, K.HANDS, K.HANDS + K.MAXP * K.MAXV - 1, K.TALE_HIDDEN):
        assert offset in hidden
    for offset in (K.PARK, K.DISCARD, K.REPS, K.TICKETS, K.STACKS, K.VOTES, K.TALE_PARK, K.DECK_TOTAL):
        assert offset not in hidden


# ---------------------------------------------------------------- determinism and the random players


def test_a_game_depends_only_on_its_seed():
    _, kernel = loaded("trustme_pinocchio(players=3)")
    seeds = np.array([5, 17, 2**63 + 3, 0, 17], dtype=np.uint64)
    together = kernel.play(seeds, histories=True)
    assert together.history(1) == together.history(4)
    assert together.history(1) != together.history(0)
    for g, seed in enumerate(seeds):
        alone = kernel.play(np.array([seed], dtype=np.uint64), histories=True)
        assert alone.history(0) == together.history(g)
        assert all(same(a, b) for a, b in zip(alone.rows()[0], together.rows()[g]))


def test_batches_split_the_seeds_without_changing_any_game(monkeypatch):
    _, kernel = loaded(REDUCED)
    seeds = np.arange(300, dtype=np.uint64)
    whole = kernel.play(seeds, histories=True)
    monkeypatch.setattr(kernel, "batch_size", lambda histories: 7)
    split = kernel.play(seeds, histories=True)
    assert len(split) == len(whole) == 300
    assert split.histories.tolist() == whole.histories.tolist()
    for name, column in whole.arrays.items():
        assert np.array_equal(column, split.arrays[name], equal_nan=column.dtype.kind == "f"), name
    assert all(same(a, b) for a, b in zip(split.rows()[299], whole.rows()[299]))
    assert same(split.columns(), whole.columns())


@pytest.mark.parametrize("kinds", [("random",), ("heuristic",)])
def test_columns_hold_the_rows_values_and_types(kinds):
    """``columns()`` (the sweep's storage path) is ``rows()`` read field by field: the same fields in order, one
    value per row, game by game and seats in order, of the same Python types."""
    for game_string in ("trustme_pinocchio(players=4,coin_variant=True)", REDUCED):
        _, kernel = loaded(game_string, kinds)
        played = kernel.play(np.arange(60, dtype=np.uint64))
        rows = [row for game in played.rows() for row in game]
        columns = played.columns()
        assert list(columns) == list(rows[0])
        assert same(columns, {k: [row[k] for row in rows] for k in rows[0]})


def test_below_is_uniform():
    rng = np.zeros(1, np.uint64)
    for n in (2, 3, 7, 24):
        counts = np.bincount([below(rng, n) for _ in range(20_000)], minlength=n)
        assert len(counts) == n
        expected = 20_000 / n
        # Each count is binomial; 5 standard deviations.
        assert np.all(np.abs(counts - expected) < 5 * math.sqrt(expected)), (n, counts)


def test_random_play_is_uniform_over_the_legal_actions_and_chance_follows_its_probabilities():
    game, kernel = loaded("trustme_pinocchio(players=3)")
    state = kernel.new_state()
    # Deal, then draw for seat 0: an action with several choices.
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    assert len(legal) > 3
    rng = np.zeros(1, np.uint64)
    buf = np.empty(int(K.scratch_size(kernel.R)), np.int64)
    draws = [K.random_action(state.s, kernel.R, rng, buf) for _ in range(12_000)]
    counts = {a: draws.count(a) for a in legal}
    assert sum(counts.values()) == len(draws)  # never an illegal action
    expected = len(draws) / len(legal)
    assert all(abs(c - expected) < 5 * math.sqrt(expected) for c in counts.values()), counts
    # A chance node: the draw for the next seat after a Take, by the deck's counts.
    take = next(a for a in legal if game.decode_action(a).kind_name == "take")
    state.apply_action(take)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    draws = [K.sample_chance(state.s, kernel.R, rng) for _ in range(12_000)]
    for a, p in outcomes.items():
        expected = p * len(draws)
        assert abs(draws.count(a) - expected) < 5 * math.sqrt(expected), (a, p)
    assert set(draws) <= set(outcomes)


@pytest.mark.parametrize("game_string", [g for g, _ in VARIANTS] + RANDOM_VARIANTS[:12])
def test_the_random_seat_and_chance_draw_exactly_what_the_listed_protocol_draws(game_string):
    """The random seat's draw without a list (``random_action``) is the engine's ``legal[below(len(legal))]`` and a
    chance draw (``sample_chance``) the protocol's pick over the engine's ``chance_weights()``, from the same generator
    state, at every position of many games: the same outcome, and the generator left where the protocol leaves it."""
    from trustme_analysis.engine.draws import GameStream, pick_weighted

    game, kernel = loaded(game_string)
    buf = np.empty(int(K.scratch_size(kernel.R)), np.int64)
    played = kernel.play(np.arange(777, 817, dtype=np.uint64), histories=True)
    seeds = np.random.default_rng(5)
    reps = 0
    for g in range(len(played)):
        engine = game.new_initial_state()
        state = kernel.new_state()
        for a in played.history(g):
            seed = int(seeds.integers(2**63))
            rng = np.array([seed], np.uint64)
            stream = GameStream(seed)
            if engine.is_chance_node():
                got = K.sample_chance(state.s, kernel.R, rng)
                want = pick_weighted(engine.chance_weights(), stream)
            else:
                legal = engine.legal_actions()
                got = K.random_action(state.s, kernel.R, rng, buf)
                want = legal[stream.below(len(legal))]
                reps += game.decode_action(int(want)).kind_name == "reputation"
            assert (got, int(rng[0])) == (want, stream.state), (g, engine.history())
            engine.apply_action(a)
            state.apply_action(a)
    if game_string in dict(VARIANTS[:5]):  # (the rulebook games: long enough to cash Reputations)
        assert reps, "no Use Reputation action was drawn: the combo part of the draw went unchecked"


def test_combos_are_counted_as_they_are_listed():
    """``count_usable_combos`` (the random seat's count) equals the length of ``usable_combos``' list, over random
    Reputations and Ticket stacks of every number of values and set size."""
    r = np.random.default_rng(11)
    for values in range(1, 10):
        for copies in (1, 2, 5):
            game, kernel = loaded(f"trustme_pinocchio(players=2,values={values},copies={copies + 3},"
                                  "two_player_removed=0,park_size=1)")
            s = kernel.new_state().s.copy()
            out = np.empty(K.MAXC, np.int64)
            for _ in range(300):
                s[K.ACTIVE] = r.integers(2)
                s[K.REPS:K.REPS + K.MAXP * K.MAXV] = 0
                for p in range(2):
                    s[K.REPS + p * K.MAXV:K.REPS + p * K.MAXV + values] = r.integers(0, 7, values) * (
                        r.random(values) < 0.6)
                s[K.STACKS:K.STACKS + values] = r.integers(0, 3, values)
                assert K.count_usable_combos(s, kernel.R) == K.usable_combos(s, kernel.R, out)


# ---------------------------------------------------------------- states, rollouts and determinization


def test_from_history_reaches_the_engines_position():
    game, kernel = loaded("trustme_pinocchio(players=4,coin_variant=True)")
    played = kernel.play(np.array([42], dtype=np.uint64), histories=True)
    history = played.history(0)[:60]
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    kstate = kernel.from_history(history)
    assert kstate.history() == history
    assert kstate.current_player() == state.current_player()
    assert kstate.legal_actions() == state.legal_actions()
    clone = kstate.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert kstate.history() == history  # the clone is independent


def test_an_illegal_action_is_refused():
    _, kernel = loaded("trustme_pinocchio(players=2)")
    state = kernel.new_state()
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(kernel.game.codec.pass_)


def day_one_position(kernel: Kernel, seed: int = 3):
    """A position in the first day: the first action of seat 1 after a few turns."""
    played = kernel.play(np.array([seed], dtype=np.uint64), histories=True)
    state = kernel.new_state()
    for a in played.history(0):
        if int(state.s[K.TURN]) >= 6 and state.current_player() >= 0 and int(state.s[K.PHASE]) == K.ACTION:
            break
        state.apply_action(a)
    assert not state.is_terminal() and int(state.s[K.RUNOUTS]) == 0
    return state


def test_rollouts_are_deterministic_and_average_valid_returns():
    _, kernel = loaded("trustme_pinocchio(players=3)")
    state = day_one_position(kernel)
    before = state.s.copy()
    a = kernel.rollouts(state, 500, seed=9)
    assert np.array_equal(state.s, before)  # the position itself is untouched
    assert np.array_equal(a, kernel.rollouts(state, 500, seed=9))
    assert not np.array_equal(a, kernel.rollouts(state, 500, seed=10))
    assert a.shape == (3,) and abs(a.sum()) < 1e-9  # win/loss returns sum to zero
    assert np.all((a >= -0.5) & (a <= 1.0))
    d = kernel.rollouts(state, 500, seed=9, viewer=state.current_player())
    assert abs(d.sum()) < 1e-9 and not np.array_equal(a, d)


def test_determinize_resamples_only_what_the_viewer_cannot_see():
    _, kernel = loaded("trustme_pinocchio(players=4)")
    state = day_one_position(kernel, seed=11)
    # Tell a tale so that a face-down Character is pending, then look from a voter's seat.
    tale = next(a for a in state.legal_actions() if a < kernel.game.codec.rep_base)
    state.apply_action(tale)
    viewer = state.current_player()
    teller = int(state.s[K.ACTIVE])
    V, n = kernel.values, kernel.players

    def hidden_pool(s):
        pool = s[K.DECK:K.DECK + V].astype(int).copy()
        for q in range(n):
            if q != viewer:
                pool += s[K.HANDS + q * K.MAXV:K.HANDS + q * K.MAXV + V]
        pool[s[K.TALE_HIDDEN] - 1] += 1
        return pool

    seen = set()
    for seed in range(40):
        d = state.determinize(viewer, seed)
        s0, s1 = state.s, d.s
        # Public part and the viewer's own hand unchanged; the pool of unseen Characters the same.
        assert np.array_equal(s0[:K.HIDDEN_START], s1[:K.HIDDEN_START])
        assert np.array_equal(s0[K.HIDDEN_END:], s1[K.HIDDEN_END:])
        own = slice(K.HANDS + viewer * K.MAXV, K.HANDS + viewer * K.MAXV + V)
        assert np.array_equal(s0[own], s1[own])
        assert np.array_equal(hidden_pool(s0), hidden_pool(s1))
        for q in range(n):  # hand sizes are public
            hand = slice(K.HANDS + q * K.MAXV, K.HANDS + q * K.MAXV + V)
            assert s0[hand].sum() == s1[hand].sum()
        assert s1[K.DECK:K.DECK + V].sum() == s0[K.DECK_TOTAL]
        seen.add((int(s1[K.TALE_HIDDEN]), tuple(s1[K.HANDS + teller * K.MAXV:K.HANDS + teller * K.MAXV + V])))
        # The determinized position plays on legally to the end.
        while not d.is_terminal():
            d.apply_action(d.legal_actions()[0])
    assert len(seen) > 1
    # The teller sees their own face-down Character: it stays.
    for seed in range(5):
        assert state.determinize(teller, seed).s[K.TALE_HIDDEN] == state.s[K.TALE_HIDDEN]


# ---------------------------------------------------------------- support


def test_the_entry_plays_pinocchio_with_random_and_heuristic_players():
    game = pyspiel.load_game("trustme_pinocchio(players=4,coin_variant=True)")
    assert ENTRY.kernel_reason(game) is None
    assert ENTRY.kernel_reason(game, ("random", "random")) is None
    assert ENTRY.kernel_reason(game, ("random", "heuristic")) is None
    assert ENTRY.kernel_reason(game, ("heuristic",), use="rollout") is None
    assert ENTRY.kernel_reason(game, use="tree") is None
    reason = ENTRY.kernel_reason(game, ("random", "policy"))
    assert reason and "policy" in reason
    with pytest.raises(ValueError, match="policy"):
        Kernel(game, ("random", "policy"))
    assert isinstance(ENTRY.new_kernel(game, ("heuristic",)), Kernel)
    assert ENTRY.search_budget(game) == 1600
    assert ENTRY.kernel.tree_producer_name == "Pinocchio kernel (numba)"
    other = pyspiel.load_game("kuhn_poker")
    assert "kuhn_poker" in ENTRY.kernel_part("limits")(other)
    with pytest.raises(ValueError):
        Kernel(other)


def test_benchmark_variants_load():
    for label, game_string in ENTRY.kernel.benchmark_variants.items():
        assert ENTRY.kernel_reason(pyspiel.load_game(game_string)) is None, label


def test_rows_of_a_one_entry_chart_equal_the_records():
    # The one-entry form "5/" the engine accepts: the records read the engine's parsed chart, and so does the kernel.
    game, kernel = loaded("trustme_pinocchio(players=2,values=1,copies=10,chart=5/,stacks=3/)")
    played = kernel.play(np.arange(3, dtype=np.uint64), histories=True)
    state = game.new_initial_state()
    for a in played.history(0):
        state.apply_action(a)
    assert same(played.rows()[0], records.records(game, state))
    assert played.rows()[0][0]["chart"] == "5"
    # The columns themselves are there: the scores are the engine's.
    assert played.arrays["score"][:2].tolist() == [row["total"] for row in state.snapshot()["scores"]]
