"""What a trained Pinocchio player remembers of a position: the information abstraction of its policy table.

:func:`info_key` turns a kernel state (:mod:`~trustme_analysis.games.pinocchio.kernel_core`) and a seat into one
64-bit key. Positions with the same key share one row of the trained policy, so the key keeps what decides play and
drops the rest; it reads only what that seat may see at the table or remember from public play. In the rulebook's
words, the key holds:

- **the decision**: Take a Turn (Tell a Tale, Use Reputation, Take a Character from the Park), a trust vote, the
  4-player Coin offer, or the free Use Reputation action when the Character deck runs out; and the seat's place at
  the table;
- **your hand**: how many Characters of each number you hold (counted up to 2);
- **the Park**: how many Characters of each number lie face up there (up to 2), i.e. which tales would be true;
- **your Reputation**: how many face-up Characters of each number you have (up to 3), i.e. which sets and sequences
  you can cash for a Ticket;
- **the other players' Reputation** as the largest set or sequence each could cash next (up to 3);
- **the Tickets**: which Ticket stacks still have Tickets (so which Ticket a tall tale would earn: the difference of
  the numbers, or the next lower value left), which values you already hold (the chart's bonus for different
  values), and your Ticket score minus the best other score (from -8 to 8);
- **the time**: Day or Night (how often the deck has run out) and how many Characters are left in the deck (exactly
  up to 4, then "5-8" and "9 or more");
- **at a trust vote**: the teller (their place from you), the Park Character the tale claims to match, how many
  Characters of that number you have not seen (in your hand, the Park, any Reputation or the discard pile, which
  everyone saw go there), the teller's revealed bluffing (their tall tales and true tales so far, each counted up to
  3), the teller's Ticket score minus yours, and with ``voting=sequential`` the votes already declared;
- **at the Coin offer**: whether the majority trusted the teller, the teller and the tale's claim.

It never reads the deck's order or contents, another player's hand, a pending tale's face-down Character, or votes of
a simultaneous vote not yet revealed (``tests/games/test_pinocchio_trained.py`` checks that the key does not move
when :func:`~trustme_analysis.games.pinocchio.kernel_core.determinize` redraws all of these).

Caps and buckets merge positions of the full game (five Characters per number); on the reduced variants the solve
presets compile (two per number) the counts are exact, so there the key loses only the order of past events.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.games.pinocchio import kernel_core as K
from trustme_analysis.train.tables import combine

inlined = njit(cache=True, inline="always")
compiled = njit(cache=True)

#: Bumped whenever :func:`info_key` changes meaning: stored policies of another version are stale.
VERSION = 1


@inlined
def _bucket_deck(n):
    if n <= 4:
        return n
    return 5 if n <= 8 else 6


@inlined
def _clamp(x, lo, hi):
    return lo if x < lo else (hi if x > hi else x)


@inlined
def _best_cash(s, R, q):
    """The largest set or sequence of seat ``q``'s Reputation, counted up to 3."""
    V = R[K.R_VALUES]
    best = 0
    run = 0
    for v in range(V):
        k = s[K.REPS + q * K.MAXV + v]
        best = max(best, k)
        run = run + 1 if k > 0 else 0
        best = max(best, run)
    return min(best, 3)



@inlined
def info_key(s, R, p):
    """The abstract information key of seat ``p`` (the seat to act) in kernel state ``s`` (see the module docstring)."""
    V = R[K.R_VALUES]
    n = R[K.R_PLAYERS]
    ph = s[K.PHASE]
    h = np.uint64(0x51ED270B27E3C1A5)
    h = combine(h, ph)
    h = combine(h, p)
    for v in range(V):
        h = combine(h, min(s[K.HANDS + p * K.MAXV + v], 2))
        h = combine(h, min(s[K.PARK + v], 2))
        h = combine(h, min(s[K.REPS + p * K.MAXV + v], 3))
    stacks = 0
    mine = 0
    for v in range(V):
        if s[K.STACKS + v] > 0:
            stacks |= 1 << v
        if s[K.TICKETS + p * K.MAXV + v] > 0:
            mine |= 1 << v
    h = combine(h, stacks)
    h = combine(h, mine)
    best_other = -1
    for j in range(1, n):
        q = p + j if p + j < n else p + j - n
        best_other = max(best_other, s[K.SCORE + q])
        h = combine(h, _best_cash(s, R, q))
    h = combine(h, _clamp(s[K.SCORE + p] - best_other, -8, 8) + 8)
    h = combine(h, min(s[K.RUNOUTS], 3))
    h = combine(h, _bucket_deck(s[K.DECK_TOTAL]))
    if ph == K.VOTE or ph == K.COIN_OFFER:
        teller = s[K.ACTIVE]
        target = s[K.TALE_PARK]
        h = combine(h, teller - p if teller >= p else teller - p + n)
        h = combine(h, target)
        seen = s[K.PARK + target - 1] + s[K.HANDS + p * K.MAXV + target - 1] + s[K.DISCARD + target - 1]
        for q in range(n):
            seen += s[K.REPS + q * K.MAXV + target - 1]
        h = combine(h, _clamp(R[K.R_PER_VALUE] - seen, 0, 3))
        true_told = s[K.ROWS + teller * 4] + s[K.ROWS + teller * 4 + 1]
        tall_told = s[K.ROWS + teller * 4 + 2] + s[K.ROWS + teller * 4 + 3]
        h = combine(h, min(true_told, 3))
        h = combine(h, min(tall_told, 3))
        h = combine(h, _clamp(s[K.SCORE + teller] - s[K.SCORE + p], -8, 8) + 8)
        if ph == K.VOTE and R[K.R_SEQUENTIAL]:
            for q in range(n):
                h = combine(h, s[K.VOTES + q] + 1)
        if ph == K.COIN_OFFER:
            h = combine(h, s[K.TRUSTED] + 1)
    k = np.int64(h)
    return np.int64(1) if k == np.int64(-(2**63)) else k


@compiled
def info_key_of(s, R, p):
    """:func:`info_key` as a compiled function (tests, the bot)."""
    return info_key(s, R, p)
