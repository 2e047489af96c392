"""The compiled Pinocchio rollouts for search players: mean returns of play-outs from a position
(:func:`rollouts_seats`), paired rollouts of each candidate action over the same sampled worlds
(:func:`action_rollouts`) and the evidence a history's votes give on each voter's model (:func:`vote_evidence`).

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

import numpy as np

from trustme_analysis.games.pinocchio.kernel.heuristic import heuristic_policy
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTOR, MAXP, PHASE, R_PLAYERS, R_TRUST, STATE_SIZE, VOTE, VOTE_NOISE, compiled, tie_module,
)
from trustme_analysis.games.pinocchio.kernel.play import play_out_seats
from trustme_analysis.games.pinocchio.kernel.queries import init_state, returns_into
from trustme_analysis.games.pinocchio.kernel.turn import apply_action
from trustme_analysis.games.pinocchio.kernel.worlds import determinize, sample_world


@compiled
def rollouts_seats(R, s0, n, seed, viewer, kinds, H, out, s, rng, buf, acts, probs):
    """``n`` playouts from ``s0``, each seat played by its kind (:func:`play_out_seats`); adds each one's returns
    into ``out`` (float64, ``2 * MAXP``: the first half takes the sums).

    With ``viewer >= 0`` every playout first resamples what ``viewer`` cannot see (:func:`determinize`). One
    SplitMix64 stream seeded with ``seed`` drives all of them, so the result depends only on the arguments. ``s``,
    ``rng`` and ``buf`` are scratch owned by the caller, as for :func:`play_out_seats`."""
    rng[0] = seed
    ret = out[MAXP:]
    for _ in range(n):
        for i in range(STATE_SIZE):
            s[i] = s0[i]
        if viewer >= 0:
            determinize(s, R, viewer, rng, buf)
        play_out_seats(s, R, rng, buf, kinds, H, acts, probs)
        returns_into(s, R, ret)
        for p in range(R[R_PLAYERS]):
            out[p] += ret[p]


@compiled
def action_rollouts(R, s0, actions, worlds, per_world, seed, viewer, bluff_rate, kinds, H, out, s, w, keep, ret, rng,
                    buf, acts, probs):
    """Paired rollouts for a search player: ``worlds`` times, sample a world :func:`sample_world` from ``s0``, then
    for each ``actions[j]`` apply it to a copy of that world and play it out ``per_world`` times
    (:func:`play_out_seats`), adding the returns into ``out[j]`` (float64, ``len(actions) x MAXP``).

    Every action is scored on the same worlds, so their comparison is not blurred by the luck of the deal. ``w`` is a
    and ``keep`` are states of scratch, ``ret`` float64 scratch of :data:`MAXP`; one SplitMix64 stream seeded with
    ``seed`` drives everything.
    """
    rng[0] = seed
    n = R[R_PLAYERS]
    no_trace = s[:0].reshape((0, MAXP))
    for _ in range(worlds):
        for i in range(STATE_SIZE):
            w[i] = s0[i]
        sample_world(w, R, viewer, bluff_rate, rng, buf, keep)
        for j in range(actions.shape[0]):
            for _ in range(per_world):
                for i in range(STATE_SIZE):
                    s[i] = w[i]
                apply_action(s, R, actions[j], no_trace)
                play_out_seats(s, R, rng, buf, kinds, H, acts, probs)
                returns_into(s, R, ret)
                for p in range(n):
                    out[j, p] += ret[p]


@compiled
def vote_evidence(R, H, history, viewer, samples, seed, out, s, w, keep, rng, buf, acts, probs):
    """How well the heuristic explains each other player's votes this game, as ``viewer`` can judge it: replay
    ``history`` from the start and, at every vote another seat ``q`` cast, deal ``samples`` worlds consistent with
    what ``viewer`` saw at that moment (:func:`determinize`; the voter's own hand is hidden from ``viewer``, so it is
    dealt anew) and count the share ``h`` of them in which the heuristic (knobs ``H[q]``) votes as ``q`` did.
    ``out[q, 0]`` takes the sum of ``log(eps + (1 - 2 eps) h)`` (eps = :data:`VOTE_NOISE`: a heuristic voter's
    vote is explained with probability at least eps either way), ``out[q, 1]`` the votes counted.

    ``s``, ``w`` and ``keep`` are states of scratch; one SplitMix64 stream seeded with ``seed`` deals the worlds."""
    init_state(s, R)
    no_trace = s[:0].reshape((0, MAXP))
    rng[0] = seed
    for i in range(history.shape[0]):
        a = history[i]
        if s[PHASE] == VOTE and s[ACTOR] != viewer:
            q = s[ACTOR]
            trust = a == R[R_TRUST]
            agree = 0
            for _ in range(samples):
                for j in range(STATE_SIZE):
                    w[j] = s[j]
                determinize(w, R, viewer, rng, buf)
                n = heuristic_policy(w, R, H[q], acts, probs, buf)
                for j in range(n):
                    if acts[j] == R[R_TRUST] and (probs[j] > 0.5) == trust:
                        agree += 1
            h = agree / samples
            out[q, 0] += np.log(VOTE_NOISE + (1.0 - 2.0 * VOTE_NOISE) * h)
            out[q, 1] += 1.0
        apply_action(s, R, a, no_trace)


tie_module(__name__)
