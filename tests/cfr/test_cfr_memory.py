"""What keeps the solvers' memory small gives the same numbers: regret matching into a caller's buffers equals the
plain numpy formula bit for bit, an iteration allocates no slot-sized temporaries besides the instantaneous regrets,
and the full-tree solvers keep PCFR+'s prediction only for PCFR+ while their checkpoints keep its field."""

import functools
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest

from cfr import TreeSolver, compile_game
from cfr.evaluate import best_response, best_response_value
from cfr.passes import regret_matching


@functools.cache
def compiled(name):
    return compile_game(name)


def _reference_regret_matching(base, starts_local):
    """Regret matching as numpy spells it on the player's own slots (the formula before the buffers)."""
    counts = np.diff(np.append(starts_local, base.size))
    local_info = np.repeat(np.arange(starts_local.size), counts)
    pos = np.maximum(base, 0.0)
    total = np.add.reduceat(pos, starts_local)[local_info]
    out = np.divide(pos, total, out=np.empty_like(pos), where=total > 0)
    empty = total <= 0
    out[empty] = (1.0 / counts[local_info])[empty]
    return out


def _fake_tree(segment_sizes, offset):
    """The slot tables regret matching reads: one player (player 1) whose information sets have the given numbers
    of actions, after ``offset`` slots of player 0."""
    starts = np.concatenate([[0], offset + np.cumsum([0] + list(segment_sizes))]).astype(np.int64)
    total = int(starts[-1])
    return SimpleNamespace(
        player_slots=np.array([0, offset, total], dtype=np.int64),
        player_infosets=np.array([0, 1, starts.size - 1], dtype=np.int64),
        infoset_slot_start=starts,
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_regret_matching_equals_the_numpy_formula_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    # Lengths past 8 and past 128 take numpy's unrolled and pairwise summation paths.
    sizes = list(rng.integers(1, 12, size=40)) + [8, 9, 16, 127, 128, 129, 300, 1]
    rng.shuffle(sizes)
    offset = 7
    cg = _fake_tree(sizes, offset)
    base = rng.normal(size=int(sum(sizes))) * 10.0 ** rng.integers(-3, 4, size=int(sum(sizes)))
    base[rng.random(base.size) < 0.3] = 0.0
    first = int(sizes[0])
    base[:first] = -1.0  # an information set without positive regret: uniform
    starts_local = cg.infoset_slot_start[1:-1] - offset
    want = _reference_regret_matching(base, starts_local)
    assert np.array_equal(regret_matching(cg, base, 1), want)
    out = np.full(base.size, np.nan)
    scratch = np.full(offset + base.size + 5, np.nan)
    assert regret_matching(cg, base, 1, out=out, scratch=scratch) is out
    assert np.array_equal(out, want)
    assert np.all(out[:first] == 1.0 / first)


def test_an_iteration_allocates_no_slot_sized_temporaries_besides_the_regrets():
    cg = compiled("liars_dice")
    solver = TreeSolver(cg, "cfr+")
    solver.iterate(1)  # the work arrays and the current strategy are allocated here
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    solver.iterate(2)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    widest = int(np.diff(cg.player_slots).max())
    # One player's instantaneous regrets and one sum per information set (plus a few small objects).
    assert peak < 8 * widest + 8 * cg.num_infosets + 20_000
    # Before, every iteration also held the sequence form and the regret-matching temporaries (> 5x the slots).
    assert 8 * widest + 8 * cg.num_infosets + 20_000 < 8 * 3 * cg.num_slots


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr", "pcfr+"])
def test_prediction_is_kept_for_pcfr_plus_only_and_checkpoints_keep_the_field(algorithm):
    cg = compiled("kuhn_poker")
    solver = TreeSolver(cg, algorithm)
    solver.iterate(3)
    assert solver.prediction.size == (cg.num_slots if algorithm == "pcfr+" else 0)
    state = solver.state_arrays()
    assert state["prediction"].shape == (cg.num_slots,)
    if algorithm != "pcfr+":
        assert not state["prediction"].any()
    fresh = TreeSolver(cg, algorithm)
    fresh.load_state_arrays(state)
    fresh.iterate(2)
    solver.iterate(2)
    assert np.array_equal(fresh.regrets, solver.regrets)
    assert np.array_equal(fresh.average_policy(), solver.average_policy())


def test_best_response_value_is_the_value_of_the_best_response():
    cg = compiled("leduc_poker")
    solver = TreeSolver(cg, "dcfr")
    solver.iterate(5)
    avg = solver.average_policy()
    for player in range(2):
        value, response = best_response(cg, avg, player)
        assert best_response_value(cg, avg, player) == value
        lo, hi = cg.player_slots[player], cg.player_slots[player + 1]
        assert set(np.unique(response[lo:hi]).tolist()) <= {0.0, 1.0}
        assert np.array_equal(np.delete(response, np.arange(lo, hi)), np.delete(avg, np.arange(lo, hi)))
