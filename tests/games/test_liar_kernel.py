"""The compiled Liar kernel is the engine: lock-step replays of kernel games through pyspiel by the one harness
(:mod:`trustme_analysis.engine.lockstep`, with what each seat knows compared at every step: >= 1,000 games across
player counts and reduced variants, every parameter moved somewhere, and a few dozen games of every parameter example
of the registry entry, random and heuristic seats), exact uniform sampling of plays without listing them, chance drawn
by the engine's probabilities, determinism, rollouts against an exact expectation; the compiled heuristic is the bot's
policy, and ``state_from`` copies any position or world. What the registry entry declares the kernel plays."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from scipy import stats

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine import kernels as contract
from trustme_analysis.engine.kernels import EVERY_VALUE, parameter_defaults
from trustme_analysis.engine.lockstep import Mismatch, lockstep, replay
from trustme_analysis.games.liar.analysis.records import records
from trustme_analysis.games.liar.engine.rules import DEFAULTS, EXAMPLES
from trustme_analysis.games.liar.engine.variants import TINY_VARIANTS
from trustme_analysis.games.liar.kernel import actions, layout
from trustme_analysis.games.liar.kernel.kernel import Kernel
from trustme_analysis.games.liar.kernel.records import COLUMNS
from trustme_analysis.games.liar.kernel.verify import knowledge_extra
from trustme_analysis.registry import game_entry

ENTRY = game_entry("trustme_liar")


def verify(game: pyspiel.Game, seeds: np.ndarray, kernel: Kernel | None = None) -> tuple[int, int]:
    """Kernel games of ``seeds`` replayed through the engine by the lock-step harness, with what each seat knows
    compared at every step; ``(games, steps)``."""
    return lockstep(game, kernel or Kernel(game), seeds, records, extra=knowledge_extra)


def _deal(kernel: Kernel, seed: int):
    """The kernel state of the game of ``seed`` after its first player and its deal (the chance steps it starts
    with)."""
    history = kernel.play(np.array([seed], dtype=np.uint64), histories=True).history(0)
    state = kernel.new_state()
    for action in history:
        if not state.is_chance_node():
            break
        state.apply_action(action)
    return state

# (game string, games): reduced variants carry most of the count; every parameter of the engine is moved somewhere.
REPLAYED = [
    *((game_string, 100) for game_string in TINY_VARIANTS.values()),
    ("trustme_liar(players=2,values=2,copies=2,max_play=2)", 100),  # hands often empty after the discards
    ("trustme_liar(players=3,values=5,copies=3,max_play=3,mode=trustme)", 100),
    ("trustme_liar(players=5,values=7,copies=2,max_play=2,first_player=seat3,last_cards=until_covered)", 100),
    (
        "trustme_liar(players=6,values=4,copies=3,max_play=5,announce_gone=forbidden,false_card_accepted=round_end,"
        "mode=trustme,utility=rank)",
        100,
    ),
    (
        "trustme_liar(players=4,values=5,copies=5,max_play=6,mode=trustme,utility=difference,points_going_out=-7,"
        "points_card_in_hand=3,points_false_card=-2,points_unmasked=0,points_wrongly_accused=1000,max_turns=15)",
        100,
    ),
    ("trustme_liar(players=3,values=1,copies=3,rapide=True)", 50),
    ("trustme_liar(players=5,values=6,copies=8,max_play=6,announce_gone=forbidden,last_cards=until_covered)", 60),
    ("trustme_liar(players=4,values=8,mode=trustme,utility=points)", 60),
    ("trustme_liar(players=3,values=4,copies=2,max_play=4,mode=trustme,false_card_accepted=round_end)", 100),
    # The 52-card deck: thousands of legal plays per step to list on both sides, so fewer games.
    ("trustme_liar(players=2)", 15),
    ("trustme_liar(players=4)", 10),
    ("trustme_liar(players=6,mode=trustme)", 10),
    ("trustme_liar(players=2,mode=trustme,last_cards=until_covered,announce_gone=forbidden)", 10),
    # The largest deck and plays the engine accepts (230,229 multisets): action ids in the millions.
    ("trustme_liar(players=2,values=20,copies=8,max_play=6)", 2),
]


def test_the_suite_replays_at_least_a_thousand_games():
    assert sum(count for _, count in REPLAYED) >= 1000


@pytest.mark.parametrize("game_string, count", REPLAYED)
def test_kernel_games_replay_identically_through_the_engine(game_string, count):
    game = pyspiel.load_game(game_string)
    games, steps = verify(game, np.arange(1000, 1000 + count, dtype=np.uint64))
    assert games == count and steps >= count * game.rules.values  # the deal at least


# Heuristic seats (mixed with random ones, knobs moved) replayed through the engine the same way.
HEURISTIC_REPLAYED = [
    ("trustme_liar(players=2)", ("heuristic",), {}, 20),
    ("trustme_liar(players=4,mode=trustme)", ("heuristic",), {}, 10),
    ("trustme_liar(players=3,values=5,copies=3,max_play=3,last_cards=until_covered)", ("heuristic", "random",
                                                                                       "heuristic"),
     {"bluff_slack": 2, "bluff_extra": 3, "timeout_rate": 0.2, "call_rate": 0.1}, 60),
    ("trustme_liar(players=5,values=7,copies=2,max_play=2,announce_gone=forbidden,false_card_accepted=round_end)",
     ("heuristic",), {"bluff_slack": 1, "bluff_per_card": 0.1}, 60),
]


@pytest.mark.parametrize("game_string, kinds, knobs, count", HEURISTIC_REPLAYED)
def test_kernel_games_with_heuristic_seats_replay_through_the_engine(game_string, kinds, knobs, count):
    game = pyspiel.load_game(game_string)
    games, _ = verify(game, np.arange(count, dtype=np.uint64), Kernel(game, kinds, knobs))
    assert games == count


# Every parameter example of the registry entry (each a parameter at a value other than its default): a few dozen
# games with random seats and with heuristic seats, replayed through the engine.
EXAMPLE_VARIANTS = [(name, example) for name, examples in sorted(EXAMPLES.items()) for example in examples]


@pytest.mark.parametrize("name, example", EXAMPLE_VARIANTS,
                         ids=[f"{n}={e[n]}" for n, e in EXAMPLE_VARIANTS])
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_every_parameter_example_replays_through_the_engine(name, example, kind):
    game = pyspiel.load_game("trustme_liar", dict(example))
    assert ENTRY.kernel_reason(game, (kind,)) is None
    kernel = ENTRY.new_kernel(game, (kind,))
    games, steps = verify(game, np.arange(500, 530, dtype=np.uint64), kernel)
    assert games == 30 and steps >= 30 * game.rules.values


def test_the_examples_move_every_parameter_and_the_entry_declares_it_played_at_every_value():
    defaults = parameter_defaults(pyspiel.load_game("trustme_liar"))
    assert set(EXAMPLES) == set(DEFAULTS) == set(defaults) == set(ENTRY.parameter_examples)
    for name, examples in EXAMPLES.items():
        assert examples
        for example in examples:
            assert example[name] != defaults[name]
            pyspiel.load_game("trustme_liar", dict(example))  # loads
    assert dict(ENTRY.kernel.parameters) == {name: EVERY_VALUE for name in DEFAULTS}
    assert ENTRY.kernel.game_seat_kinds == ENTRY.kernel.rollout_seat_kinds == ("random", "heuristic")


def test_replay_catches_a_wrong_record():
    game = pyspiel.load_game(TINY_VARIANTS["tiny"])
    kernel = Kernel(game)
    recs = kernel.play(np.arange(3, dtype=np.uint64), histories=True)
    replay(game, kernel, recs.history(0), recs.rows()[0], records, extra=knowledge_extra)
    recs.arrays["calls"][0, 0] += 1
    with pytest.raises(Mismatch, match="records of the batch"):
        replay(game, kernel, recs.history(0), recs.rows()[0], records, extra=knowledge_extra)


def test_replay_catches_a_wrong_knowledge():
    game = pyspiel.load_game(TINY_VARIANTS["tiny"])
    kernel = Kernel(game)
    recs = kernel.play(np.arange(1, dtype=np.uint64), histories=True)

    def wrong(state, mirror):
        mirror.array[mirror.kernel.cfg[layout.O_KNOWN]] += 1  # seat 0 "knows" a card of its own hand
        return knowledge_extra(state, mirror)

    with pytest.raises(Mismatch, match="what the seats know"):
        replay(game, kernel, recs.history(0), recs.rows()[0], records, extra=wrong)


def test_columns_are_the_rows_field_by_field():
    game = pyspiel.load_game("trustme_liar(players=3,values=5,copies=3,max_play=3,mode=trustme)")
    played = Kernel(game, ("heuristic",)).play(np.arange(40, dtype=np.uint64))
    rows = [row for game_rows in played.rows() for row in game_rows]
    columns = played.columns()
    assert list(columns) == list(COLUMNS) and len(played) == 40 and len(rows) == 120
    for name, values in columns.items():
        assert len(values) == len(rows)
        assert all(type(v) is type(row[name]) and v == row[name] for v, row in zip(values, rows)), name


def test_the_games_cover_every_ending_and_action():
    game = pyspiel.load_game("trustme_liar(players=2,values=2,copies=2,max_play=2,max_turns=8)")
    recs = Kernel(game).play(np.arange(2000, dtype=np.uint64))
    assert set(recs.arrays["end_trigger"][:, 0]) == {"out", "setup", "turn_cap"}
    for name in ("calls_won", "calls_lost", "passes", "burns", "last_cards_held", "last_cards_caught"):
        assert recs.arrays[name].sum() > 0, name


def test_records_have_the_engine_columns_in_order():
    game = pyspiel.load_game("trustme_liar(players=3,values=4)")
    recs = Kernel(game).play(np.arange(5, dtype=np.uint64))
    rows = [row for game_rows in recs.rows() for row in game_rows]
    assert len(rows) == 15 and list(rows[0]) == list(COLUMNS)
    assert recs.arrays["plays_by_size"].shape == (5, 3, game.rules.max_play)


# ------------------------------------------------------------------------------------------------ sampling


def _dealt(game_string: str, seed: int):
    game = pyspiel.load_game(game_string)
    kernel = Kernel(game)
    state = _deal(kernel, seed)
    engine = game.new_initial_state()
    for action in state.history():
        engine.apply_action(action)
    return game, kernel, state, engine


def _positions(kernel: Kernel, seeds) -> list:
    """Every player position of a few kernel games."""
    out = []
    recs = kernel.play(np.asarray(seeds, dtype=np.uint64), histories=True)
    for g in range(len(recs)):
        state = kernel.new_state()
        for action in recs.history(g):
            if state.current_player() >= 0:
                out.append(state.clone())
            state.apply_action(action)
    return out


@pytest.mark.parametrize(
    "game_string",
    ["trustme_liar(players=2)", "trustme_liar(players=4,values=6,copies=3,max_play=3,announce_gone=forbidden)"],
)
def test_the_rth_sampled_action_is_the_rth_legal_action(game_string):
    # The sampler maps a uniform r to the r-th legal action in the engine's order without listing them: checked
    # here for every r at every position of a few games (full-deck starters hold ~1,000-14,000 legal plays).
    kernel = Kernel(pyspiel.load_game(game_string))
    positions = _positions(kernel, range(4))
    assert len(positions) > 20
    for state in positions:
        legal = state.legal_actions()
        picked = [int(actions.nth_legal(kernel.cfg, kernel.tab, state.array, r)) for r in range(len(legal))]
        assert picked == legal


def test_sampled_plays_are_uniform_chi_square():
    # A starter on a small deck: every legal play equally likely (fixed seed, so the test is deterministic).
    game, kernel, state, engine = _dealt("trustme_liar(players=2,values=8,copies=3,max_play=3,first_player=seat0)", seed=11)
    legal = engine.legal_actions()
    assert 50 < len(legal) < 2000 and state.legal_actions() == legal
    draws = kernel.sample_actions(state, 400 * len(legal), seed=3)
    assert set(draws.tolist()) <= set(legal)
    observed = np.array([np.count_nonzero(draws == a) for a in legal])
    assert observed.sum() == len(draws)
    assert stats.chisquare(observed).pvalue > 1e-3


def test_a_responders_liar_and_pass_are_as_likely_as_each_play():
    game, kernel, state, engine = _dealt("trustme_liar(players=2,values=8,copies=3,max_play=3,first_player=seat0)", seed=11)
    first = engine.legal_actions()[0]
    state.apply_action(first)
    engine.apply_action(first)
    legal = engine.legal_actions()
    assert legal[:2] == [0, 1]
    draws = kernel.sample_actions(state, 2000 * len(legal), seed=4)
    observed = np.array([np.count_nonzero(draws == a) for a in legal])
    assert observed.sum() == len(draws) and stats.chisquare(observed).pvalue > 1e-3


def test_chance_is_drawn_with_the_engine_probabilities():
    game = pyspiel.load_game("trustme_liar(players=3,values=8,copies=4)")
    kernel = Kernel(game)
    state = kernel.new_state()
    for _ in range(2):  # two values dealt, unevenly, so the seats' room differs
        state.apply_action(state.chance_outcomes()[1][0])
    outcomes = state.chance_outcomes()
    assert len(outcomes) > 5
    draws = kernel.sample_actions(state, 200_000, seed=9)
    ids = [a for a, _ in outcomes]
    observed = np.array([np.count_nonzero(draws == a) for a in ids])
    assert observed.sum() == len(draws)
    expected = np.array([p for _, p in outcomes]) * len(draws)
    assert stats.chisquare(observed, expected).pvalue > 1e-3


# ------------------------------------------------------------------------------------------------ determinism


def test_a_game_depends_only_on_its_seed():
    kernel = Kernel(pyspiel.load_game("trustme_liar(players=4,values=6)"))
    seeds = np.array([7, 2**64 - 1, 0, 123456789], dtype=np.uint64)
    batch = kernel.play(seeds, histories=True)
    again = kernel.play(seeds[::-1], histories=True)
    for g, seed in enumerate(seeds):
        alone = kernel.play(np.array([seed], dtype=np.uint64), histories=True)
        assert alone.history(0) == batch.history(g) == again.history(len(seeds) - 1 - g)
        assert alone.rows() == batch.rows()[g:g + 1]
        dealt = _deal(kernel, int(seed)).history()
        assert dealt == batch.history(g)[: len(dealt)] and len(dealt) == 7  # the first player, then 6 values
    assert batch.history(0) != batch.history(2)


def test_histories_are_only_kept_on_request():
    kernel = Kernel(pyspiel.load_game("trustme_liar(players=2,values=4)"))
    recs = kernel.play(np.arange(4, dtype=np.uint64))
    assert recs.histories is None
    with pytest.raises(ValueError, match="histories"):
        recs.history(0)


# ------------------------------------------------------------------------------------------------ the state


def test_kernel_state_clone_is_independent_and_illegal_actions_are_refused():
    kernel = Kernel(pyspiel.load_game("trustme_liar(players=2,values=4,copies=2)"))
    state = _deal(kernel, 5)
    assert state.current_player() == 0 and state.is_chance_node() is False and state.is_terminal() is False
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history() and state.current_player() == 0
    for bad in (0, 1, 2, 10**6, -3):  # no liar, pass or burn for a starter; not an action
        with pytest.raises(ValueError, match="not legal"):
            state.apply_action(bad)
    assert state.returns() == [0.0, 0.0]
    fresh = kernel.new_state()
    assert fresh.is_chance_node() and fresh.current_player() == pyspiel.PlayerId.CHANCE
    with pytest.raises(ValueError, match="not legal"):
        fresh.apply_action(len(fresh.chance_outcomes()) + 50)


def _exact_moments(state) -> tuple[np.ndarray, np.ndarray]:
    """E[returns] and E[returns^2] under uniform-random seats and chance by probability (pyspiel, whole tree)."""
    if state.is_terminal():
        r = np.array(state.returns())
        return r, r * r
    if state.is_chance_node():
        branches = state.chance_outcomes()
    else:
        legal = state.legal_actions()
        branches = [(a, 1 / len(legal)) for a in legal]
    mean = second = 0.0
    for action, p in branches:
        m, s = _exact_moments(state.child(action))
        mean, second = mean + p * m, second + p * s
    return mean, second


def test_rollouts_estimate_the_exact_expected_returns():
    game_string = TINY_VARIANTS["tiny_trustme"]
    game, kernel, state, engine = _dealt(game_string, seed=21)
    mean, second = _exact_moments(engine)
    n = 100_000
    estimate = kernel.rollouts(state, n, seed=5)
    sd = np.sqrt((second - mean**2) / n)
    assert np.all(np.abs(estimate - mean) <= 5 * sd + 1e-12), (estimate, mean, sd)
    assert np.array_equal(kernel.rollouts(state, 1000, seed=6), kernel.rollouts(state, 1000, seed=6))
    assert kernel.rollouts(state, 10, seed=6).shape == (2,)


def test_rollouts_from_a_finished_game_give_its_returns():
    game = pyspiel.load_game(TINY_VARIANTS["tiny"])
    kernel = Kernel(game)
    recs = kernel.play(np.array([3], dtype=np.uint64), histories=True)
    state = kernel.new_state()
    for action in recs.history(0):
        state.apply_action(action)
    assert state.is_terminal()
    assert kernel.rollouts(state, 5, seed=1).tolist() == state.returns() == recs.returns[0].tolist()
    assert state.rows() == state.clone().rows() == recs.rows()[0]


def test_a_kernel_state_has_records_only_for_a_game_it_followed_to_its_end():
    game = pyspiel.load_game(TINY_VARIANTS["tiny"])
    kernel = Kernel(game)
    state = _deal(kernel, 3)
    with pytest.raises(ValueError, match="not over"):
        state.rows()
    engine = game.new_initial_state()
    for action in kernel.play(np.array([3], dtype=np.uint64), histories=True).history(0):
        engine.apply_action(action)
    with pytest.raises(ValueError, match="state_from"):
        kernel.state_from(engine).rows()


# ------------------------------------------------------------------------------------------------ support


def test_the_kernel_plays_liar_with_random_and_heuristic_seats():
    liar = pyspiel.load_game("trustme_liar")
    assert ENTRY.kernel_reason(liar) is None and ENTRY.kernel_reason(liar, ("random", "heuristic")) is None
    assert ENTRY.kernel_reason(liar, ("random", "heuristic"), use="rollout") is None
    assert ENTRY.kernel_reason(liar, use="tree") is None
    assert "policy" in ENTRY.kernel_reason(liar, ("random", "policy"))
    with pytest.raises(ValueError, match="policy"):
        Kernel(liar, ("random", "policy"))
    with pytest.raises(ValueError, match="one kind, or one per seat"):
        Kernel(liar, ("random", "heuristic"))
    other = pyspiel.load_game("trustme_pinocchio(players=2)")
    with pytest.raises(ValueError, match="trustme_liar"):
        Kernel(other)
    kernel = ENTRY.new_kernel(liar, ("heuristic",))
    assert isinstance(kernel, Kernel) and isinstance(kernel, contract.Kernel)
    assert isinstance(kernel.new_state(), contract.KernelState)
    assert isinstance(kernel.play(np.arange(2, dtype=np.uint64)), contract.PlayedGames)
    assert ENTRY.kernel_part("kernel") is Kernel
    assert ENTRY.kernel.tree_producer_name == "Liar kernel (numba)"


def test_benchmark_variants_are_liar_games_with_the_full_deck_at_2_4_6_players():
    games = [pyspiel.load_game(s) for s in ENTRY.kernel.benchmark_variants.values()]
    assert all(ENTRY.kernel_reason(g) is None for g in games)
    full = {g.rules.players for g in games if g.rules.deck_size == 52}
    assert {2, 4, 6} <= full and any(g.rules.deck_size < 52 for g in games)


def test_records_of_a_kernel_game_equal_the_engines_for_a_scripted_turn_cap():
    # A one-turn cap: the game stops after the starter's first play, which counts as accepted.
    game = pyspiel.load_game("trustme_liar(players=2,values=6,mode=trustme,max_turns=1)")
    kernel = Kernel(game)
    recs = kernel.play(np.arange(20, dtype=np.uint64), histories=True)
    assert set(recs.arrays["end_trigger"][:, 0]) <= {"turn_cap", "setup"}
    for g in range(len(recs)):
        state = game.new_initial_state()
        for action in recs.history(g):
            state.apply_action(action)
        assert records(game, state) == recs.rows()[g]


# ------------------------------------------------------------------------------------------------ the heuristic


def _positions_played(game_string: str, games: int, seed: int):
    """Every decision of a few engine games (heuristic and random seats alternately), as pyspiel states."""
    from trustme_analysis.players import make_bot
    from trustme_analysis.players.play import sample_chance

    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(seed)
    out = []
    for g in range(games):
        state = game.new_initial_state()
        bots = [make_bot(game, ("heuristic", "random")[(p + g) % 2], p, rng) for p in range(game.num_players())]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            out.append(state.clone())
            state.apply_action(bots[state.current_player()].step(state))
    return game, out


@pytest.mark.parametrize(
    "game_string, knobs",
    [
        ("trustme_liar(players=2)", {}),
        ("trustme_liar(players=4,values=8,mode=trustme)",
         {"bluff_slack": 2, "bluff_extra": 3, "timeout_rate": 0.1, "call_rate": 0.2, "bluff_per_card": 0.05}),
        ("trustme_liar(players=5,values=7,copies=2,max_play=2,first_player=seat3,last_cards=until_covered,"
         "announce_gone=forbidden)", {"bluff_slack": 1, "timeout_rate": 0.3}),
    ],
)
def test_the_compiled_heuristic_is_the_bots_policy_at_random_positions(game_string, knobs):
    """At every decision of engine games, and in a world resampled for the player to act: the same actions with the
    same probabilities (to 1e-12) in the compiled heuristic as in the bot's ``action_probabilities``."""
    from trustme_analysis.players import make_bot

    game, positions = _positions_played(game_string, 8, seed=1)
    kernel = Kernel(game, ("heuristic",), knobs)
    rng = np.random.default_rng(2)
    assert len(positions) > 60
    for state in positions:
        p = state.current_player()
        for position in (state, state.resample_from_infostate(p, rng.random)):
            bot = make_bot(game, "heuristic", p, np.random.default_rng(0), **knobs)
            ours = {a: x for a, x in kernel.heuristic_policy(kernel.state_from(position)).items() if x > 0}
            theirs = {a: x for a, x in bot.action_probabilities(position).items() if x > 0}
            assert set(ours) == set(theirs)
            assert max(abs(ours[a] - theirs[a]) for a in theirs) <= 1e-12


def test_heuristic_seats_draw_from_the_compiled_policy_chi_square():
    game, positions = _positions_played("trustme_liar(players=3,values=6,copies=3,max_play=3)", 3, seed=4)
    kernel = Kernel(game, ("heuristic",), {"bluff_slack": 2, "bluff_extra": 2, "call_rate": 0.3, "timeout_rate": 0.1})
    mixed = 0
    for state in positions:
        ks = kernel.state_from(state)
        dist = kernel.heuristic_policy(ks)
        if sum(1 for x in dist.values() if x > 0) < 2:
            continue
        mixed += 1
        actions = sorted(a for a, x in dist.items() if x > 0)
        draws = kernel.sample_actions(ks, 4000, seed=mixed)
        observed = np.array([np.count_nonzero(draws == a) for a in actions])
        assert observed.sum() == len(draws)
        expected = np.array([dist[a] for a in actions]) * len(draws)
        assert stats.chisquare(observed, expected / expected.sum() * len(draws)).pvalue > 1e-4
        if mixed == 12:
            break
    assert mixed == 12


def test_state_from_copies_any_position_and_plays_on_as_the_engine():
    """A kernel state built from an engine position (or a search player's world) has the engine's legal actions,
    knowledge and, played on with the same actions, the same returns."""
    from trustme_analysis.games.liar.kernel.verify import kernel_knowledge, knowledge

    game, positions = _positions_played("trustme_liar(players=4,values=6,copies=4,max_play=3,mode=trustme)", 2, 7)
    kernel = Kernel(game)
    rng = np.random.default_rng(3)
    for state in positions[::5]:
        for position in (state, state.resample_from_infostate(state.current_player(), rng.random)):
            ks = kernel.state_from(position)
            assert ks.current_player() == position.current_player()
            assert ks.legal_actions() == position.legal_actions()
            assert kernel_knowledge(ks) == knowledge(position)
            engine = position.clone()
            while not engine.is_terminal():
                legal = engine.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
                engine.apply_action(action)
                ks.apply_action(action)
                assert ks.legal_actions() == engine.legal_actions()
            assert ks.returns() == engine.returns()


def test_heuristic_seats_play_with_their_own_row_of_knobs_and_worlds_carry_them():
    """A state's ``seat_knobs`` (one row per seat; from a world's ``_seat_knobs``) set each heuristic seat's play: the
    seat to act follows its own row, and another seat's row changes nothing of its draws."""
    game = pyspiel.load_game("trustme_liar(players=3,values=6)")
    kernel = Kernel(game, ("heuristic",))
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    while state.is_chance_node():
        outcomes, p = zip(*state.chance_outcomes())
        state.apply_action(outcomes[rng.choice(len(outcomes), p=np.asarray(p) / sum(p))])
    state.apply_action(kernel.sample_actions(kernel.state_from(state), 1, seed=1)[0])  # the starter plays
    to_act = state.current_player()
    default = kernel.sample_actions(kernel.state_from(state), 300, seed=2)
    assert set(default.tolist()) != {0}  # the heuristic does not always call here
    rows = np.tile(kernel.knobs.array(), (3, 1))
    call_rate = layout.KNOB_ORDER.index("call_rate")
    for seat in range(3):
        world = state.clone()
        world._seat_knobs = rows.copy()
        world._seat_knobs[seat, call_rate] = 1.0  # this seat always calls
        ks = kernel.state_from(world)
        assert np.array_equal(ks.seat_knobs, world._seat_knobs) and np.array_equal(ks.clone().seat_knobs, ks.seat_knobs)
        draws = kernel.sample_actions(ks, 300, seed=2)
        if seat == to_act:
            assert set(draws.tolist()) == {0}  # LIAR
        else:
            assert np.array_equal(draws, default)
    world = state.clone()
    world._seat_knobs = rows[:2]
    with pytest.raises(ValueError, match="shape"):
        kernel.state_from(world)
