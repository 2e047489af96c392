"""The compiled Pinocchio worlds: a determinization (:func:`determinize` deals anew the hidden part of the state a
viewer cannot see) and a search player's sampled world (:func:`sample_world`: hidden simultaneous votes redrawn, a
pending tale tall with the believed bluff rate, by exact rejection sampling).

Part of the compiled core (:mod:`.layout` describes the arrays; :mod:`.core` is its one namespace).
"""

from __future__ import annotations

from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.pinocchio.kernel.layout import (
    ACTIVE, DECK, HANDS, MAXP, MAXV, PHASE, R_PLAYERS, R_SEQUENTIAL, R_VALUES, STATE_SIZE, TALE_HIDDEN, TALE_PARK,
    VOTE, VOTES, compiled, inlined, tie_module,
)


@compiled
def draw_from(pool, total, rng):
    """A value index drawn from the counts ``pool`` (``total`` Characters), removed from it."""
    r = below(rng, total)
    v = 0
    while r >= pool[v]:
        r -= pool[v]
        v += 1
    pool[v] -= 1
    return v


@compiled
def determinize(s, R, viewer, rng, buf):
    """Resample what ``viewer`` cannot see, uniformly among the deals consistent with what they saw.

    Hidden from ``viewer``: the deck's order and contents, the other hands (their sizes are public) and, when another
    player's tale is pending, its face-down Character. These Characters are pooled and dealt again at random, the
    hand sizes kept; everything public (the Park, Reputations, Tickets, the discard pile, votes cast) is unchanged.
    Votes of a simultaneous vote still being cast are in ``s``; a search player must not read them.
    """
    V = R[R_VALUES]
    n = R[R_PLAYERS]
    pool = buf[:MAXV]
    sizes = buf[MAXV:MAXV + MAXP]
    for v in range(MAXV):
        pool[v] = 0
    for q in range(MAXP):
        sizes[q] = 0
    total = 0
    for v in range(V):
        pool[v] = s[DECK + v]
        total += s[DECK + v]
    for q in range(n):
        if q != viewer:
            for v in range(V):
                k = s[HANDS + q * MAXV + v]
                pool[v] += k
                sizes[q] += k
                total += k
                s[HANDS + q * MAXV + v] = 0
    tale_hidden = s[TALE_HIDDEN] > 0 and s[ACTIVE] != viewer
    if tale_hidden:
        pool[s[TALE_HIDDEN] - 1] += 1
        total += 1
        s[TALE_HIDDEN] = draw_from(pool, total, rng) + 1
        total -= 1
    for q in range(n):
        for _ in range(sizes[q]):
            v = draw_from(pool, total, rng)
            total -= 1
            s[HANDS + q * MAXV + v] += 1
    for v in range(V):
        s[DECK + v] = pool[v]


@inlined
def redraw_hidden_votes(s, R, viewer, rng):
    """Under simultaneous voting, the votes others cast on a tale still being voted on are hidden from ``viewer``:
    each is drawn anew, trust or not with even odds (as ``PinocchioState.resample_from_infostate`` does)."""
    if R[R_SEQUENTIAL] or s[PHASE] != VOTE:
        return
    for q in range(R[R_PLAYERS]):
        if q != viewer and s[VOTES + q] >= 0:
            s[VOTES + q] = below(rng, 2)


@compiled
def sample_world(s, R, viewer, bluff_rate, rng, buf, keep):
    """Resample in place what ``viewer`` cannot see (:func:`determinize`, hidden votes redrawn), following the search
    player's belief (``bots.belief``) when ``bluff_rate >= 0``: a pending tale told by another player is tall with
    probability ``bluff_rate`` and true otherwise (where the Characters ``viewer`` has not seen allow both), and
    within each kind every deal is equally likely. The kind is drawn first, then deals are drawn until one has it
    (exact rejection sampling; after 1,000 rejections the last deal is kept). ``keep`` is a state of scratch (the
    position before resampling)."""
    for i in range(STATE_SIZE):
        keep[i] = s[i]
    tale = s[TALE_HIDDEN] > 0 and s[ACTIVE] != viewer and bluff_rate >= 0
    want_tall = False
    if tale:
        # The face-down Character is dealt from what viewer has not seen: the deck, the other hands and the card.
        claimed = 0
        total = 1
        if s[TALE_HIDDEN] == s[TALE_PARK]:
            claimed = 1
        for v in range(R[R_VALUES]):
            k = s[DECK + v]
            for q in range(R[R_PLAYERS]):
                if q != viewer:
                    k += s[HANDS + q * MAXV + v]
            total += k
            if v + 1 == s[TALE_PARK]:
                claimed += k
        if claimed == 0:
            want_tall = True
        elif claimed == total:
            want_tall = False
        else:
            want_tall = uniform01(rng) < bluff_rate
    for attempt in range(1000):
        if attempt:
            for i in range(STATE_SIZE):
                s[i] = keep[i]
        determinize(s, R, viewer, rng, buf)
        redraw_hidden_votes(s, R, viewer, rng)
        if not tale or (s[TALE_HIDDEN] != s[TALE_PARK]) == want_tall:
            return


tie_module(__name__)
