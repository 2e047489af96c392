"""The ``trustme_1981`` kernel's rollouts, one loop for every line-up: play-outs from one position
(:func:`rollouts_trained`) and a search player's paired round (:func:`action_rollouts_trained`: every candidate action
played out from the same sampled worlds).

The play-out (:func:`play_out_trained`): every seat of kind :data:`~.trained.SEAT_TRAINED` plays the stored policy's
row at the position (:func:`~.trained.trained_action`, the trained seat of whole games; the kernel hands an empty table
when no seat is trained), the others their own kind (:func:`~.play.choose`); worlds by :func:`~.worlds.sample_world`
(the belief included). One play-out from the start is the kernel's whole game of the seed the loop derives
(``tests/players/test_1981_search_trained_rollouts.py``). The untrained copies of these loops (``play.rollout_returns``,
``worlds.action_rollouts``) are gone: with no trained seat these gave their results bit for bit.

Why not :mod:`.trained`'s whole-game loop: that one keeps the score trace and the history for the records; a play-out
needs neither, and every move of a search player's decision is played here (1,600 play-outs a decision by default),
so it runs the bare loop.

Every function here borrows its arrays (:func:`cfr.numba_borrowing.borrowing`: no reference counts), so none
allocates: the caller (:meth:`~.kernel.Kernel.rollouts`, :meth:`~.kernel.Kernel.action_rollouts`) owns the scratch,
and the belief's ``future`` (:func:`~.worlds.viewer_future`, which allocates) is computed before the call.
"""

from __future__ import annotations

from cfr.numba_borrowing import borrowing
from trustme_analysis.engine.compiled_draws import next_u64
from trustme_analysis.games.board1981.kernel.layout import DECIDER, NUM_PAYOFF_KINDS, OVER, PHASE, R_N, STATE_SIZE, \
    tie_module
from trustme_analysis.games.board1981.kernel.play import choose
from trustme_analysis.games.board1981.kernel.step import apply_action, is_chance, returns, sample_chance
from trustme_analysis.games.board1981.kernel.trained import SEAT_TRAINED, trained_action
from trustme_analysis.games.board1981.kernel.worlds import sample_world


@borrowing()
def play_out_trained(st, r, rng, seat_kinds, kn, legal, weights, probs, tkeys, tavg, detail, row, which, tprobs):
    """Play ``st`` to its end with no trace and no history (:func:`.trained.play_out_trained`'s moves, the records
    left out): chance by its probabilities, trained seats by the policy ``tkeys``/``tavg`` at level ``detail``, the
    others by their kind (``kn``: the heuristic's knobs). The arrays after ``kn`` are scratch owned by the caller
    (sizes as :func:`.trained.play_games` allocates them)."""
    while st[PHASE] != OVER:
        if is_chance(st):
            a = sample_chance(st, r, rng, legal, weights)
        elif seat_kinds[st[DECIDER]] == SEAT_TRAINED:
            a = trained_action(st, r, rng, tkeys, tavg, detail, legal, row, which, tprobs)
        else:
            a = choose(st, r, rng, seat_kinds, kn, legal, probs)
        apply_action(st, r, a)


@borrowing()
def rollouts_trained(r, start, n, seed, seat_kinds, kn, out, st, rng, base, legal, weights, probs, tkeys, tavg, detail,
                     row, which, tprobs, ret):
    """The mean returns of ``n`` play-outs from ``start`` into
    ``out`` (float64 of ``R_N``, overwritten). Play-out ``i`` draws from its own SplitMix64 stream, seeded by the
    ``i``-th output of a SplitMix64 stream seeded with ``seed`` (``base``: its one-element state), as there.
    ``ret``: float64 scratch of ``R_N``."""
    players = r[R_N]
    for p in range(players):
        out[p] = 0.0
    base[0] = seed
    for _ in range(n):
        for i in range(STATE_SIZE):
            st[i] = start[i]
        rng[0] = next_u64(base)
        play_out_trained(st, r, rng, seat_kinds, kn, legal, weights, probs, tkeys, tavg, detail, row, which, tprobs)
        returns(st, r, ret)
        for p in range(players):
            out[p] += ret[p]
    if n > 0:
        for p in range(players):
            out[p] /= n


@borrowing()
def action_rollouts_trained(r, s0, actions, worlds, per_world, seed, viewer, use_belief, future, seat_kinds, kn, out,
                            world, st, rng, legal, weights, probs, counts, ret, tkeys, tavg, detail, row, which,
                            tprobs):
    """A search player's paired round: ``worlds`` times, a world for ``viewer`` sampled from
    ``s0`` (:func:`~.worlds.sample_world`, weighted by the belief with ``use_belief``; ``future``: the belief's
    share worth, :func:`~.worlds.viewer_future` of ``s0``), then each ``actions[j]`` applied to a copy of it and
    played out ``per_world`` times, the returns added into ``out[j]`` (float64, ``len(actions) x R_N``). One
    SplitMix64 stream seeded with ``seed`` drives everything. ``counts``: int64 scratch of twice
    :data:`~.layout.NUM_PAYOFF_KINDS`; ``ret``: float64 of ``R_N``."""
    players = r[R_N]
    left, keep = counts[:NUM_PAYOFF_KINDS], counts[NUM_PAYOFF_KINDS:]
    rng[0] = seed
    for _ in range(worlds):
        for i in range(STATE_SIZE):
            world[i] = s0[i]
        sample_world(world, r, kn, viewer, use_belief, future, rng, left, keep)
        for j in range(actions.shape[0]):
            for _ in range(per_world):
                for i in range(STATE_SIZE):
                    st[i] = world[i]
                apply_action(st, r, actions[j])
                play_out_trained(st, r, rng, seat_kinds, kn, legal, weights, probs, tkeys, tavg, detail, row, which,
                                 tprobs)
                returns(st, r, ret)
                for p in range(players):
                    out[j, p] += ret[p]


# Keys the numba cache by this file and every module whose compiled code the functions above inline or call
# (trained.py, play.py, worlds.py, step.py, the abstraction, the heuristic, the policy tables, the draws ...).
tie_module(__name__)
