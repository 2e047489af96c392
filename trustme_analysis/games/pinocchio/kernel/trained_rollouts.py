"""The Pinocchio kernel's rollouts, one loop for every line-up: mean returns of play-outs from a position
(:func:`rollouts_trained`, each from a determinization for a viewer) and a search player's paired rollouts of each
candidate action over the same sampled worlds (:func:`action_rollouts_trained`).

The play-out (:func:`play_out_trained`): every seat of kind
:data:`~trustme_analysis.games.pinocchio.kernel.layout.SEAT_TRAINED` plays the stored policy's row at the position
(:func:`~.trained.trained_action`, the trained seat of whole games; the kernel hands an empty table when no seat is
trained), the others their own kind; worlds are sampled by :mod:`.worlds`. The untrained copies of these loops the
core had are gone: with no trained seat these gave their results bit for bit.

Why compiled: a search player over the trained policy is the stronger line-up a report weighs its trained headline
against ("has it stopped moving?"); its play-outs must be as cheap as the trained seat's whole games.
"""

from __future__ import annotations

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.games.pinocchio.kernel import abstraction as A
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel import trained as TR
from trustme_analysis.games.pinocchio.kernel.worlds import determinize, sample_world
from trustme_analysis.train import tables as T

compiled = TR.compiled


@borrowing()
def play_out_trained(s, R, rng, buf, kinds, H, acts, probs, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs):
    """Play ``s`` to the end (no score trace, no history): trained seats by the policy ``tkeys``/``tavg`` at level
    ``detail``, heuristic seats with their knobs ``H[p]``, random seats uniformly, chance by its probabilities. The
    arguments after ``detail`` are scratch owned by the caller."""
    no_trace = s[:0].reshape((0, K.MAXP))
    while s[K.PHASE] != K.TERMINAL:
        if K.is_chance_phase(s[K.PHASE]):
            a = K.sample_chance(s, R, rng)
        elif kinds[s[K.ACTOR]] == K.SEAT_TRAINED:
            a = TR.trained_action(s, R, rng, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs)
        elif kinds[s[K.ACTOR]] == K.SEAT_HEURISTIC:
            a = K.heuristic_action(s, R, H[s[K.ACTOR]], rng, acts, probs, buf)
        else:
            a = K.random_action(s, R, rng, buf)
        K.step(s, R, a, no_trace)


@borrowing()
def rollouts_trained(R, s0, n, seed, viewer, kinds, H, out, s, rng, buf, acts, probs, tkeys, tavg, detail, tacts,
                     cbuf, row, which, tprobs):
    """``n`` play-outs from ``s0`` by :func:`play_out_trained` (each from a determinization
    for ``viewer >= 0``), their returns added into ``out[:MAXP]``; one SplitMix64 stream seeded with ``seed``."""
    rng[0] = seed
    ret = out[K.MAXP:]
    for _ in range(n):
        for i in range(K.STATE_SIZE):
            s[i] = s0[i]
        if viewer >= 0:
            determinize(s, R, viewer, rng, buf)
        play_out_trained(s, R, rng, buf, kinds, H, acts, probs, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs)
        K.returns_into(s, R, ret)
        for p in range(R[K.R_PLAYERS]):
            out[p] += ret[p]


@borrowing()
def action_rollouts_trained(R, s0, actions, worlds, per_world, seed, viewer, bluff_rate, kinds, H, out, s, w, keep,
                            ret, rng, buf, acts, probs, tkeys, tavg, detail, tacts, cbuf, row, which, tprobs):
    """A search player's paired evaluation: every action of ``actions`` scored on the same
    ``worlds`` sampled worlds, ``per_world`` play-outs each, the returns added into ``out[j]``."""
    rng[0] = seed
    n = R[K.R_PLAYERS]
    no_trace = s[:0].reshape((0, K.MAXP))
    for _ in range(worlds):
        for i in range(K.STATE_SIZE):
            w[i] = s0[i]
        sample_world(w, R, viewer, bluff_rate, rng, buf, keep)
        for j in range(actions.shape[0]):
            for _ in range(per_world):
                for i in range(K.STATE_SIZE):
                    s[i] = w[i]
                K.apply_action(s, R, actions[j], no_trace)
                play_out_trained(s, R, rng, buf, kinds, H, acts, probs, tkeys, tavg, detail, tacts, cbuf, row,
                                 which, tprobs)
                K.returns_into(s, R, ret)
                for p in range(n):
                    out[j, p] += ret[p]


tie_cache_to_sources((play_out_trained, rollouts_trained, action_rollouts_trained), *K.SOURCES, A, T, TR)
