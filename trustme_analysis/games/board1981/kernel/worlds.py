"""A search player's worlds in the compiled ``trustme_1981`` kernel: the Payoff cards the viewer has not seen dealt
anew as the engine's ``resample_from_infostate`` deals them, weighted by ``bots.belief`` when asked (exact rejection
sampling). A round of sequential halving over them is :func:`.trained_rollouts.action_rollouts_trained`."""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.board1981.kernel.basics import has_looked
from trustme_analysis.games.board1981.kernel.heuristic import decision_matches, future_after, knows_card, wants_claim
from trustme_analysis.games.board1981.kernel.layout import (
    CARDS, CLAIM, CLAIM_KNEW, CLAIMANT, DEAL, INVEST_CHOICE, INVEST_IDX, KN_SIGNAL_WEIGHT, NUM_PAYOFF_KINDS, OVER,
    PHASE, R_N, R_NUM_PROPS, R_PAYOFF_MIX, ROUND_SIGNALS, STATE_SIZE, tie_module,
)

# ---------------------------------------------------------------------------------------------- search players' worlds

#: Deals tried per world by :func:`sample_world` before it keeps the last one (with ``signal_weight`` strictly between
#: 0 and 1 a deal is accepted with probability at least ``min(w, 1 - w) / max(w, 1 - w)`` per signal, so this bound
#: is met only when no deal explains what the others did).
MAX_BELIEF_DRAWS = 1000


@borrowing()
def unseen_left(st, r, viewer, left):
    """state.unseen_cards: per Payoff card kind, into ``left`` (int64, :data:`NUM_PAYOFF_KINDS`), how many cards
    ``viewer`` cannot locate (the mix less the briefcases it looked under and those revealed)."""
    for kind in range(NUM_PAYOFF_KINDS):
        left[kind] = r[r[R_PAYOFF_MIX] + kind]
    for q in range(r[R_NUM_PROPS]):
        if knows_card(st, viewer, q):
            left[st[CARDS + q]] -= 1


@borrowing()
def fill_unseen(st, r, viewer, left, rng):
    """Deal the unseen cards counted in ``left`` (:func:`unseen_left`) to the briefcases ``viewer`` has not looked
    under, in briefcase order, each drawn without replacement: the same distribution as taking the first of a
    uniform permutation of the unseen cards, as the engine does."""
    total = left[0] + left[1] + left[2] + left[3]
    for q in range(r[R_NUM_PROPS]):
        if knows_card(st, viewer, q):
            continue
        x = below(rng, total)
        kind = 0
        while x >= left[kind]:
            x -= left[kind]
            kind += 1
        st[CARDS + q] = kind
        left[kind] -= 1
        total -= 1


@borrowing()
def belief_likelihood(st, r, kn, viewer, future):
    """bots.belief for one world: how likely the others' observed choices are with the cards in ``st`` (a claim
    chosen after looking: the heuristic wants the card; an informed investor's decision: the heuristic's with that
    card), each with probability ``signal_weight``; ``future`` is the share's worth after the reveal as ``viewer``
    sees it (:func:`future_after`). Choices about briefcases ``viewer`` knows are the same in every world and left
    out."""
    n = r[R_N]
    w = kn[KN_SIGNAL_WEIGHT]
    like = 1.0
    for p in range(n):
        q = st[CLAIM + p]
        if p != viewer and q >= 0 and st[CLAIM_KNEW + p] != 0 and not knows_card(st, viewer, q):
            like *= w if wants_claim(st[CARDS + q], kn) else 1.0 - w
    if st[PHASE] == INVEST_CHOICE:
        c = st[CLAIMANT]
        prop = st[CLAIM + c]
        if not knows_card(st, viewer, prop):
            card = st[CARDS + prop]
            for i in range(st[INVEST_IDX]):
                p = (c + 1 + i) % n
                if p != viewer and has_looked(st, p, prop):
                    like *= w if decision_matches(card, st[ROUND_SIGNALS + i], p == c, n, future, kn) else 1.0 - w
    return like


@borrowing()
def sample_world(st, r, kn, viewer, use_belief, future, rng, left, keep):
    """A world for ``viewer`` in place of ``st`` (state.resample_from_infostate's deal: :func:`unseen_left`, then
    :func:`fill_unseen`), and with ``use_belief`` the deal drawn in
    proportion to :func:`belief_likelihood` by exact rejection sampling (a deal is kept with probability its
    likelihood over the largest possible one, so kept deals follow prior x likelihood exactly; after
    :data:`MAX_BELIEF_DRAWS` the last is kept). ``keep`` is int64 scratch of :data:`NUM_PAYOFF_KINDS`."""
    if st[PHASE] == DEAL or st[PHASE] == OVER:
        return
    unseen_left(st, r, viewer, left)
    w = kn[KN_SIGNAL_WEIGHT]
    bound = belief_bound(st, r, viewer, max(w, 1.0 - w)) if use_belief else 0.0
    for _ in range(MAX_BELIEF_DRAWS):
        for kind in range(NUM_PAYOFF_KINDS):
            keep[kind] = left[kind]
        fill_unseen(st, r, viewer, keep, rng)
        if not use_belief or uniform01(rng) * bound < belief_likelihood(st, r, kn, viewer, future):
            return


@borrowing()
def belief_bound(st, r, viewer, top):
    """The largest value :func:`belief_likelihood` can take here: ``top`` (``max(w, 1 - w)``) per choice weighed."""
    n = r[R_N]
    bound = 1.0
    for p in range(n):
        q = st[CLAIM + p]
        if p != viewer and q >= 0 and st[CLAIM_KNEW + p] != 0 and not knows_card(st, viewer, q):
            bound *= top
    if st[PHASE] == INVEST_CHOICE:
        c = st[CLAIMANT]
        prop = st[CLAIM + c]
        if not knows_card(st, viewer, prop):
            for i in range(st[INVEST_IDX]):
                p = (c + 1 + i) % n
                if p != viewer and has_looked(st, p, prop):
                    bound *= top
    return bound


@njit(cache=True)
def viewer_future(st, r, viewer):
    """The share's worth after the pending reveal as ``viewer`` sees it (the belief's ``future``; 1 outside an
    investing round, where no investing decision is weighed)."""
    if st[PHASE] != INVEST_CHOICE:
        return 1.0
    prior = np.empty(NUM_PAYOFF_KINDS, np.float64)
    return future_after(st, r, viewer, st[CLAIM + st[CLAIMANT]], prior)


@njit(cache=True)
def sample_worlds(r, s0, viewer, use_belief, kn, worlds, seed):
    """``worlds`` worlds from ``s0`` (rows of the result) by :func:`sample_world`, one SplitMix64 stream seeded with
    ``seed``: for the tests that compare the deal with the engine's."""
    out = np.empty((worlds, STATE_SIZE), np.int64)
    rng = np.empty(1, np.uint64)
    rng[0] = seed
    left = np.empty(NUM_PAYOFF_KINDS, np.int64)
    keep = np.empty(NUM_PAYOFF_KINDS, np.int64)
    future = viewer_future(s0, r, viewer)
    for i in range(worlds):
        out[i] = s0
        sample_world(out[i], r, kn, viewer, use_belief, future, rng, left, keep)
    return out


tie_module(__name__)
