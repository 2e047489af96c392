"""The compiled trustme_1981 kernel is the engine's game: lock-step replays over many variants, and its interface.

Every kernel game below is replayed through the engine by the one lock-step harness
(:func:`trustme_analysis.engine.lockstep.lockstep`): current player, legal actions, chance outcomes with
probabilities, returns and every record field identical. The variants are the parameter examples of the rules
(``engine/rules.py`` ``EXAMPLES``: every parameter the kernel entry declares, at values other than its default, with
random and with heuristic seats) and hand-made ones that together reach the rules that matter; a coverage test checks
that the games really reached them (claims taken and removed, challenges won and lost, Bamboozled escapes,
reshuffles, the turn cap...).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel
import pytest
from test_board1981_support import write_small_board

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.kernels import EVERY_VALUE, unplayed
from trustme_analysis.engine.lockstep import Mismatch, lockstep
from trustme_analysis.games.board1981.analysis.records import records
from trustme_analysis.games.board1981.engine import state as engine
from trustme_analysis.games.board1981.engine.rules import DEFAULTS, EXAMPLES, MAX_ROLL_OFF_TIES
from trustme_analysis.games.board1981.kernel import layout as K
from trustme_analysis.games.board1981.kernel.kernel import Kernel, KernelState, limits
from trustme_analysis.registry import game_entry

ENTRY = game_entry("trustme_1981")

# (parameters, games, events the replayed games must include): full games of the default rules, and variants that
# reach the other parameter values. The events make sure the games really exercised the rules that matter.
ALWAYS = ("end:two_cases_left", "look", "claim_unseen", "send_wgc", "investing", "reveal", "payoff", "decline")
VARIANTS: list[tuple[dict, int, tuple[str, ...]]] = [
    ({"players": 2}, 120, ALWAYS + ("claim_looked", "hot_tip", "claim_transfer", "trust_reshuffle", "shares_lost",
                                    "buy max")),
    ({"players": 3, "buy_max": False}, 40, ALWAYS),
    ({"players": 3}, 80, ALWAYS + ("challenge", "roll_off", "bamboozled", "claim_removed")),
    ({"players": 4}, 120, ALWAYS + ("claim_transfer", "claim_removed", "trust_reshuffle")),
    ({"players": 4, "peek": True, "roll_off_tie": "defender", "utility": "wealth"}, 60, ALWAYS + ("peek",)),
    ({"players": 2, "roll_off_tie": "challenger", "utility": "wealth_diff", "trust_mix": "2/10/16",
      "bamboozled": "6"}, 60, ALWAYS + ("challenge", "roll_off", "bamboozled", "claim_removed")),
    ({"players": 3, "payoff_mix": "2/2/2/10", "lots": "1/2/3", "money": 3, "shares": 0}, 60, ALWAYS + ("shares_lost",)),
    # Nobody can ever hold a share: reveals pay nothing.
    ({"players": 4, "money": 0, "shares": 0, "trust_mix": "0/0/5"}, 40,
     tuple(e for e in ALWAYS if e != "payoff") + ("challenge",)),
    ({"players": 3, "trust_mix": "12/0/0", "payoff_mix": "3/3/3/3", "lots": "7"}, 40, ALWAYS),
    ({"players": 4, "money": 1000, "shares": 500, "lots": "1/5/10/25/50/100/250", "bamboozled": "1/2/3/4/5"}, 40,
     ALWAYS + ("bamboozled",)),
    ({"players": 2, "max_turns": 7}, 100, ("end:turn_cap",)),
    ({"players": 4, "max_turns": 25, "peek": True}, 100, ("end:turn_cap", "peek")),
    ({"players": 3, "max_turns": 60, "roll_off_tie": "challenger", "trust_mix": "1/1/6"}, 80,
     ("end:turn_cap", "challenge", "roll_off")),
]
# The small ring board of the board tests (4 briefcases, 2 Wild Goose Chase spaces, the Company on two spokes).
SMALL_BOARD_VARIANTS: list[tuple[dict, int, tuple[str, ...]]] = [
    ({"players": 3, "payoff_mix": "2/1/1/2"}, 80, ALWAYS + ("hot_tip", "claim_transfer")),
    ({"players": 2, "payoff_mix": "1/1/1/1", "peek": True, "utility": "wealth"}, 40, ALWAYS + ("peek",)),
    ({"players": 4, "payoff_mix": "0/2/0/3", "trust_mix": "4/4/4", "max_turns": 40}, 60, ("challenge", "bamboozled")),
]


def verify_games(game, seeds, kernel=None, inspect=None) -> int:
    """The lock-step harness over one kernel game per seed (``inspect`` sees each terminal engine state); the number
    of games checked."""
    kernel = kernel or Kernel(game)

    def extra(state, mirror):
        if inspect is not None and state.is_terminal():
            inspect(state)
        return None

    games, _ = lockstep(game, kernel, seeds, records, extra=extra)
    return games


def _events_seen(counter: Counter):
    """An ``inspect`` callback for verify_games: counts the engine's events and end reasons."""

    def inspect(state) -> None:
        snap = state.snapshot()
        counter[f"end:{snap['end']}"] += 1
        events = snap["events"]
        for e in events:
            counter[e["kind"]] += 1
            if e["kind"] == "payoff" and e["shares_change"] < 0:
                counter["shares_lost"] += 1
            if e["kind"] == "invest":
                counter[e["decision"]] += 1
        for a, b in zip(events, events[1:]):
            if a["kind"] == b["kind"] == "send_wgc" and a["by"] == b["by"] and a["by"] != a["player"]:
                counter["two_sent_by_one_move"] += 1

    return inspect


def _params_id(params: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("params,games,must_see", VARIANTS, ids=[_params_id(p) for p, _, _ in VARIANTS])
def test_kernel_games_replay_identically_in_the_engine(params, games, must_see):
    game = pyspiel.load_game("trustme_1981", params)
    seen: Counter = Counter()
    assert verify_games(game, np.arange(1000, 1000 + games, dtype=np.uint64), inspect=_events_seen(seen)) == games
    assert [e for e in must_see if not seen[e]] == []


@pytest.mark.parametrize(
    "params,games,must_see", SMALL_BOARD_VARIANTS, ids=[_params_id(p) for p, _, _ in SMALL_BOARD_VARIANTS]
)
def test_kernel_games_on_another_board_replay_identically(tmp_path, params, games, must_see):
    game = pyspiel.load_game("trustme_1981", {**params, "board": write_small_board(tmp_path)})
    seen: Counter = Counter()
    assert verify_games(game, np.arange(7, 7 + games, dtype=np.uint64), inspect=_events_seen(seen)) == games
    assert [e for e in must_see if not seen[e]] == []


def test_the_replays_number_at_least_a_thousand_games():
    assert sum(g for _, g, _ in VARIANTS + SMALL_BOARD_VARIANTS) >= 1000


#: Games per parameter example and seat kind.
EXAMPLE_GAMES = 16
EXAMPLE_CASES = [(name, i, kind) for name in sorted(EXAMPLES) for i in range(len(EXAMPLES[name]))
                 for kind in ("random", "heuristic")]


@pytest.mark.parametrize("name,index,kind", EXAMPLE_CASES, ids=[f"{n}{i}-{k}" for n, i, k in EXAMPLE_CASES])
def test_every_parameter_example_replays_identically(name, index, kind):
    """Each declared parameter at each of its example values, played by the kernel's seats, is the engine's game."""
    params = EXAMPLES[name][index]
    game = pyspiel.load_game("trustme_1981", dict(params))
    assert params[name] != DEFAULTS[name]
    assert ENTRY.kernel_reason(game, (kind,)) is None
    seeds = np.arange(500 + 100 * index, 500 + 100 * index + EXAMPLE_GAMES, dtype=np.uint64)
    assert lockstep(game, Kernel(game, (kind,)), seeds, records)[0] == EXAMPLE_GAMES


def test_the_entry_declares_every_parameter_with_examples():
    """Every parameter of the game's table is declared, written out (not read from DEFAULTS), and has an example at
    a value other than its default; every word value declared, other than the default, has an example; the entry's
    examples are the rules'."""
    assert set(ENTRY.kernel.parameters) == set(DEFAULTS) == set(EXAMPLES)
    assert ENTRY.kernel.parameters is not DEFAULTS
    assert ENTRY.parameter_examples is EXAMPLES
    for name, plays in ENTRY.kernel.parameters.items():
        if plays != EVERY_VALUE:
            assert DEFAULTS[name] in plays.values, name
            assert {ex[name] for ex in EXAMPLES[name]} == set(plays.values) - {DEFAULTS[name]}, name
    assert unplayed(ENTRY.kernel, pyspiel.load_game("trustme_1981", {"roll_off_tie": "reroll"})) is None
    assert all(EXAMPLES[name] for name in DEFAULTS)
    for name, examples in EXAMPLES.items():
        for params in examples:
            assert unplayed(ENTRY.kernel, pyspiel.load_game("trustme_1981", dict(params))) is None, (name, params)


def test_the_batch_returns_are_the_replayed_games_returns():
    """The batch's returns (by the game's utility, computed from its columns) are each replayed game's returns."""
    for params in ({"players": 3, "max_turns": 40}, {"players": 2, "utility": "wealth_diff"}, {"utility": "wealth"}):
        game = pyspiel.load_game("trustme_1981", params)
        kernel = Kernel(game, ("heuristic",))
        played = kernel.play(np.arange(12, dtype=np.uint64), histories=True)
        for g in range(len(played)):
            mirror = kernel.new_state()
            for action in played.history(g):
                mirror.apply_action(action)
            assert mirror.is_terminal() and played.returns[g].tolist() == mirror.returns()


def _steered_lockstep(game, choose, seed: int, max_steps: int = 20_000):
    """Play engine and kernel side by side with ``choose(state, options, rng)`` picking every action (chance
    included); check each step as verify_games does; return the engine's terminal state."""
    rng = np.random.default_rng(seed)
    kernel = Kernel(game)
    state, mirror = game.new_initial_state(), kernel.new_state()
    for _ in range(max_steps):
        if state.is_terminal():
            break
        assert state.current_player() == mirror.current_player()
        if state.is_chance_node():
            assert state.chance_outcomes() == mirror.chance_outcomes()
            options = [a for a, _ in state.chance_outcomes()]
        else:
            assert state.legal_actions() == mirror.legal_actions()
            options = state.legal_actions()
        action = choose(state, options, rng)
        state.apply_action(action)
        mirror.apply_action(action)
    assert state.is_terminal() and mirror.is_terminal()
    assert state.returns() == mirror.returns()
    assert records(game, state) == mirror.rows()
    return state


def _challenge_and_tie(state, options, rng):
    """Challenge whenever possible and roll tied roll-offs (up to the engine's tie limit and past it)."""
    phase = state.phase_name()
    if phase == "challenge" and len(options) > 1:
        return options[-1]
    if phase in ("roll_off_challenger", "roll_off_defender"):
        return 2  # a roll of 3 for both: a tie every time
    return options[rng.integers(len(options))]


@pytest.mark.parametrize("tie", ["reroll", "defender", "challenger"])
def test_tied_roll_offs_past_the_tie_limit_match_the_engine(tie):
    game = pyspiel.load_game("trustme_1981", {"players": 2, "trust_mix": "6/0/6", "roll_off_tie": tie, "max_turns": 80})
    final = _steered_lockstep(game, _challenge_and_tie, seed=3)
    roll_offs = [e for e in final.snapshot()["events"] if e["kind"] == "roll_off"]
    assert roll_offs, "the steered game made no challenge"
    if tie == "reroll":
        assert len(roll_offs) % MAX_ROLL_OFF_TIES == 0  # each challenge ran to the tie limit


def _crowd(state, options, rng):
    """Send everyone to the first Wild Goose Chase space and move onto the most crowded space within reach."""
    phase = state.phase_name()
    if phase == "send":
        return options[0]
    if phase == "move":
        positions = state.positions()
        return max(options, key=lambda space: (positions.count(space), rng.random()))
    return options[rng.integers(len(options))]


def test_landing_on_two_occupants_sends_both_as_the_engine_does():
    game = pyspiel.load_game("trustme_1981", {"players": 4, "max_turns": 150})
    seen: Counter = Counter()
    for seed in range(3):
        _events_seen(seen)(_steered_lockstep(game, _crowd, seed))
    assert seen["two_sent_by_one_move"] > 0


def test_phase_numbers_and_ids_are_the_engines():
    assert (K.DEAL, K.FIRST, K.PEEK, K.TURN_START, K.ROLL, K.MOVE) == (
        engine.DEAL, engine.FIRST, engine.PEEK, engine.TURN_START, engine.ROLL, engine.MOVE
    )
    assert (K.PROPERTY_CHOICE, K.HOT_TIP_CHOICE, K.SEND, K.CARD, K.BAMBOOZLE_ROLL, K.CHALLENGE_CHOICE) == (
        engine.PROPERTY_CHOICE, engine.HOT_TIP_CHOICE, engine.SEND, engine.CARD, engine.BAMBOOZLE_ROLL,
        engine.CHALLENGE_CHOICE,
    )
    assert (K.ROLL_OFF_CHALLENGER, K.ROLL_OFF_DEFENDER, K.INVEST_CHOICE, K.OVER) == (
        engine.ROLL_OFF_CHALLENGER, engine.ROLL_OFF_DEFENDER, engine.INVEST_CHOICE, engine.OVER
    )
    assert K.CHANCE_PLAYER == pyspiel.PlayerId.CHANCE and K.TERMINAL_PLAYER == pyspiel.PlayerId.TERMINAL


def test_a_game_depends_on_its_seed_alone():
    game = pyspiel.load_game("trustme_1981(players=3,max_turns=40)")
    kernel = Kernel(game)
    seeds = np.asarray([5, 2**63 + 11, 0, 77], np.uint64)
    together = kernel.play(seeds, histories=True)
    reordered = kernel.play(seeds[::-1].copy(), histories=True)
    for g in range(len(seeds)):
        alone = kernel.play(seeds[g : g + 1], histories=True)
        assert alone.game_rows(0) == together.game_rows(g) == reordered.game_rows(len(seeds) - 1 - g)
        assert alone.history(0) == together.history(g)
        assert alone.rows()[0] == together.rows()[g]
    assert together.history(0) != together.history(1)
    assert together.seeds.tolist() == seeds.tolist() and len(together) == len(seeds)
    assert kernel.play(seeds).rows() == together.rows()  # keeping histories changes nothing


def test_chance_is_drawn_by_its_probabilities():
    # The opening chance nodes of many games: the first Payoff card dealt follows payoff_mix, the first player and
    # the first die roll are uniform. Bounds are 5 standard deviations (a correct sampler fails once in 10**6 runs).
    game = pyspiel.load_game("trustme_1981(players=4,max_turns=1)")
    played = Kernel(game).play(np.arange(4000, dtype=np.uint64), histories=True)
    histories = [played.history(g) for g in range(len(played))]
    first_card = Counter(int(h[0]) for h in histories)
    first_player = Counter(int(h[game.rules.num_properties]) for h in histories)
    first_roll = Counter(int(h[game.rules.num_properties + 1]) for h in histories)
    for counts, probs in (
        (first_card, np.asarray(game.rules.payoff_mix) / sum(game.rules.payoff_mix)),
        (first_player, [1 / 4] * 4),
        (first_roll, [1 / 6] * 6),
    ):
        for outcome, p in enumerate(probs):
            expected, sd = 4000 * p, (4000 * p * (1 - p)) ** 0.5
            assert abs(counts[outcome] - expected) <= 5 * sd, (outcome, counts[outcome], expected)


def test_columns_match_the_rows():
    game = pyspiel.load_game("trustme_1981(players=3,max_turns=30)")
    played = Kernel(game).play(np.arange(6, dtype=np.uint64))
    games = played.rows()
    assert [len(seats) for seats in games] == [3] * 6
    rows = [row for seats in games for row in seats]
    assert len(rows) == 18
    for name, values in played.arrays.items():
        assert values.shape[:2] == (6, 3), name
        assert [r[name] for r in rows] == values.reshape(18, *values.shape[2:]).tolist(), name
    assert [r["score_trace"] for r in rows[3:6]] == played.score_trace(1).T.tolist()
    columns = played.columns()
    assert list(columns) == list(rows[0])
    for name, values in columns.items():
        assert len(values) == 18
        for row, value in zip(rows, values):
            assert value == row[name] and type(value) is type(row[name]), name
    with pytest.raises(ValueError, match="histories"):
        played.history(0)


def test_the_opening_from_a_seed_is_the_opening_play_draws():
    game = pyspiel.load_game("trustme_1981(players=2)")
    kernel = Kernel(game)
    state = kernel.opening(42)
    history = kernel.play(np.asarray([42], np.uint64), histories=True).history(0)
    opening = state.history()
    assert not state.is_chance_node() and len(opening) > game.rules.num_properties + 1  # deal, first player, first roll
    assert history[: len(opening)] == opening


def test_kernel_state_api_and_clone():
    game = pyspiel.load_game("trustme_1981(players=2,peek=true)")
    kernel = Kernel(game)
    state = kernel.new_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.legal_actions() == []
    assert state.chance_outcomes() == game.new_initial_state().chance_outcomes()
    with pytest.raises(ValueError):
        state.apply_action(99)
    state = kernel.opening(1)
    assert state.phase_name() == "peek"
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[1])
    assert copy.history() != state.history() and state.phase_name() == "peek"
    assert state.returns() == [0.0, 0.0]
    with pytest.raises(ValueError):
        state.rows()


def test_rollouts_are_seeded_and_read_the_returns():
    game = pyspiel.load_game("trustme_1981(players=4)")
    kernel = Kernel(game)
    state = kernel.opening(9)
    a = kernel.rollouts(state, 200, seed=1)
    assert a.tolist() == kernel.rollouts(state, 200, seed=1).tolist()
    assert a.tolist() != kernel.rollouts(state, 200, seed=2).tolist()
    assert abs(a.sum()) < 1e-9 and np.all(np.abs(a) <= 1.0)  # win_loss is zero-sum
    # A finished game's rollouts are its returns.
    final = kernel.opening(3)
    rng = np.random.default_rng(0)
    while not final.is_terminal():
        if final.is_chance_node():
            final.apply_action(final.chance_outcomes()[0][0])
        else:
            legal = final.legal_actions()
            final.apply_action(legal[rng.integers(len(legal))])
    assert kernel.rollouts(final, 5, seed=0).tolist() == final.returns()
    assert isinstance(final, KernelState)


def _ring_board(tmp_path, properties: int) -> str:
    """A board file: the Company and a ring of one Wild Goose Chase space and ``properties`` colored spaces."""
    lines = ['name = "ring"']
    for q in range(properties):
        lines += ["[[property]]", f'name = "P{q}"', 'street = "S"']
    ring = ["w"] + [f"p{q}" for q in range(properties)]
    lines += ["[[space]]", 'id = "company"', 'kind = "company"', 'links = ["w", "p0"]']
    for i, sid in enumerate(ring):
        nxt = ring[(i + 1) % len(ring)]
        lines += ["[[space]]", f'id = "{sid}"', f'links = ["{nxt}"]']
        lines += ['kind = "wild_goose_chase"'] if sid == "w" else ['kind = "property"', f'property = "P{i - 1}"']
    path = tmp_path / f"ring{properties}.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_the_kernel_entry_and_limits_say_why_not(tmp_path):
    default = pyspiel.load_game("trustme_1981")
    assert ENTRY.kernel_reason(default) is None and limits(default) is None
    assert ENTRY.kernel_reason(default, ["random", "heuristic"]) is None
    assert ENTRY.kernel_reason(default, ["random", "heuristic"], use="rollout") is None
    assert "policy" in ENTRY.kernel_reason(default, ["random", "policy"])
    assert "trustme_1981_investment" in limits(pyspiel.load_game("trustme_1981_investment"))
    big = pyspiel.load_game("trustme_1981", {"board": _ring_board(tmp_path, 40), "payoff_mix": "10/10/10/10"})
    assert "40 briefcases" in ENTRY.kernel_reason(big)
    rich = pyspiel.load_game(
        "trustme_1981", {"board": _ring_board(tmp_path, 30), "payoff_mix": "10/10/10/10", "money": 10**6}
    )
    assert "64-bit" in ENTRY.kernel_reason(rich)
    with pytest.raises(ValueError, match="briefcases"):
        Kernel(big)
    with pytest.raises(ValueError, match="policy"):
        Kernel(default, ("policy",))
    assert ENTRY.search_budget(default) == 1600
    assert isinstance(ENTRY.new_kernel(default, ("heuristic",)), Kernel)


def test_a_ring_board_at_the_size_limit_replays_identically(tmp_path):
    game = pyspiel.load_game(
        "trustme_1981", {"players": 3, "board": _ring_board(tmp_path, K.MAX_PROPS), "payoff_mix": "10/10/10/10",
                         "max_turns": 120}
    )
    assert ENTRY.kernel_reason(game) is None
    assert verify_games(game, np.arange(10, dtype=np.uint64)) == 10


def test_a_mismatch_is_reported_with_its_step(monkeypatch):
    game = pyspiel.load_game("trustme_1981(players=2,max_turns=10)")
    kernel = Kernel(game)
    real = KernelState.legal_actions
    monkeypatch.setattr(KernelState, "legal_actions", lambda self: real(self)[:-1] or [-1])
    with pytest.raises(Mismatch, match="legal actions differ"):
        verify_games(game, [1], kernel=kernel)


def test_benchmark_variants_are_supported():
    assert ENTRY.kernel.benchmark_variants
    for label, game_string in ENTRY.kernel.benchmark_variants.items():
        assert label.startswith("1981") and ENTRY.kernel_reason(pyspiel.load_game(game_string)) is None


def test_no_games_and_one_turn_games():
    game = pyspiel.load_game("trustme_1981(players=2,max_turns=1)")
    kernel = Kernel(game, seat_kinds=["random", "random"])
    assert kernel.play(np.zeros(0, np.uint64)).rows() == []
    assert kernel.play(np.zeros(0, np.uint64)).columns()["money"] == []
    assert verify_games(game, np.arange(20, dtype=np.uint64), kernel=kernel) == 20
    rows = [row for seats in kernel.play(np.arange(20, dtype=np.uint64)).rows() for row in seats]
    assert {r["turns"] for r in rows} == {1} and {r["end_trigger"] for r in rows} == {"turn_cap"}
    assert all(len(r["score_trace"]) == 1 for r in rows)
    with pytest.raises(ValueError, match="one per seat"):
        Kernel(game, seat_kinds=["random"] * 3)


def test_every_compiled_function_is_tied_to_the_sources_it_compiles_in():
    """numba checks only a function's own file: each kernel module's caches are keyed by its source, the layout's,
    the draw primitives' where it draws, and those of every module its functions reach (so an edit anywhere
    recompiles every function that contains the edited code)."""
    from cfr.numba_cache import source_digest
    from trustme_analysis.engine import compiled_draws
    from trustme_analysis.games.board1981.kernel import basics, heuristic, investing, moves, play, step, worlds

    modules = (K, basics, investing, moves, step, heuristic, play, worlds)
    reaches = {name: {m.__name__ for m in mods} for name, mods in K._REACHES.items()}
    # the search worlds deal and weigh (the heuristic's model); their play-outs are trained_rollouts'
    assert reaches[worlds.__name__] == {m.__name__ for m in (K, basics, heuristic, worlds, compiled_draws)}
    assert reaches[step.__name__] >= {moves.__name__, investing.__name__, basics.__name__, K.__name__,
                                      compiled_draws.__name__}
    assert reaches[heuristic.__name__] == {heuristic.__name__, basics.__name__, K.__name__}
    tied = 0
    for module in modules:
        digest = source_digest(*K._REACHES[module.__name__])
        for value in vars(module).values():
            if getattr(getattr(value, "py_func", None), "__module__", None) == module.__name__:
                assert value._cache._cache_file._source_stamp[1] == digest, (module.__name__, value.__name__)
                tied += 1
    assert tied >= 60
