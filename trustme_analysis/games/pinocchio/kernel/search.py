"""The compiled Pinocchio evidence for search players: what a history's votes say of each voter's model
(:func:`vote_evidence`). The play-outs (from a position, and each candidate action's over the same sampled worlds)
are :mod:`.trained_rollouts`', the one rollout loop for every line-up.

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

import numpy as np

from trustme_analysis.games.pinocchio.kernel.heuristic import heuristic_policy
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTOR, MAXP, PHASE, R_TRUST, STATE_SIZE, VOTE, VOTE_NOISE, compiled, tie_module,
)
from trustme_analysis.games.pinocchio.kernel.queries import init_state
from trustme_analysis.games.pinocchio.kernel.turn import apply_action
from trustme_analysis.games.pinocchio.kernel.worlds import determinize


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
