"""What a trained Pinocchio player remembers of a position and of each move: the abstraction of its policy table.

A slot of the trained policy is a pair (position key, move descriptor). :func:`info_key` turns a kernel state
(:mod:`~trustme_analysis.games.pinocchio.kernel.layout`) and a seat into a 64-bit *position key*;
:func:`action_desc` describes each legal move by what it does instead of by its numbers, so that "a tall tale that
would earn a Kite I do not have yet" is one move whichever Characters it uses. Moves with the same description in
one position share their row (they are the same move to the trained player). Both read only what that seat may see
at the table or remember from public play. In the rulebook's words:

The position key holds

- **the decision**: Take a Turn, a trust vote, the 4-player Coin offer, or the free Use Reputation action when the
  Character deck runs out; and the seat's place at the table;
- **the score**: your Ticket score minus the best other score, in 5 buckets (-3 or less, -2 to -1, level, 1 to 2,
  3 or more);
- **the Tickets left**: how many Ticket stacks are empty (the game ends when four are);
- **Reputation that cashes into Tickets**: the largest set or sequence in your Reputation (counted up to 3);
- **the time**: Day or Night (how often the deck has run out, up to 2) and whether the deck is empty, holds 1-4
  Characters or more;
- **at a trust vote or the Coin offer** (instead of your seat, your score and your Reputation, so that each vote row
  gathers many samples): the teller (their place from you); how many Ticket stacks are empty; the time; how likely
  the teller held a Character of the number the tale claims among the Characters it chose from, were the Characters
  you have not seen (not in your hand, the Park, any Reputation or the discard pile, which everyone saw go there)
  dealt at random (0 when none is left, else in sixths); the best Ticket a tall tale on that Character could earn;
  the teller's revealed bluffing (their tall tales and true tales so far, each counted up to 2); the teller's score
  minus yours (the same buckets); with ``voting=sequential`` the trusting and distrusting votes already declared; at
  the Coin offer whether the majority trusted.

A move is described as

- **a true tale** (Tell a Tale with a matching Character): the largest set or sequence your Reputation would hold
  with that number (up to 4);
- **a tall tale**: the Ticket it would earn if trusted (the difference of the numbers, or the next lower value
  left; 0: none), whether that Ticket value would be new to you, and how many Characters of the claimed number are
  still unseen by everyone (up to 3: could the tale be true at all, how believable is it);
- a tale, Use Reputation and a take also by whether the hand Character you keep matches one in the Park;
- **Use Reputation / the free action**: the Ticket value gained and whether it is new to you;
- **Take a Character from the Park**: the largest set or sequence your Reputation would hold with it (up to 4);
- **pass**, **decline**, **trust**, **do not trust**, **toss** and **do not toss** as themselves.

The fine level (``detail >= 1``) keeps version 3's position key (the turn key above at votes too, with the count of
the claimed number you have not seen instead of the chance) and adds your hand, the Park, your Reputation (counts up to 2, 2 and
3) and which Ticket values you hold, and describes each move as itself: exact on the reduced variants, far too fine
for the full game.

Neither reads the deck's order or contents, another player's hand, a pending tale's face-down Character, or votes of
a simultaneous vote not yet revealed (``tests/games/test_pinocchio_trained.py`` checks that nothing moves when
:func:`~trustme_analysis.games.pinocchio.kernel.worlds.determinize` redraws all of these, and that one information set
of a compiled tree gives one position key).

The coarse level is coarse on purpose: the full two-player game's positions merge into about a hundred thousand
rows, few enough to train in a CPU-minute or two; on the reduced variants of the solve presets the same rows are
measured exactly (``benchmarks/trained.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.train import tables as T
from trustme_analysis.train.tables import combine

inlined = njit(cache=True, inline="always")
compiled = njit(cache=True)

#: Bumped whenever :func:`info_key` or :func:`action_desc` changes meaning: stored policies of another version are
#: stale.
VERSION = 4


@inlined
def _bucket_deck(n):
    if n == 0:
        return 0
    return 1 if n <= 4 else 2


@inlined
def _lead(x):
    """A score difference in 5 buckets."""
    if x <= -3:
        return 0
    if x < 0:
        return 1
    if x == 0:
        return 2
    return 3 if x <= 2 else 4


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
def _public_unseen(s, R, value):
    """Characters of ``value`` in no Reputation, not in the Park and not discarded (hands and deck), up to 3."""
    n = R[K.R_PLAYERS]
    seen = s[K.PARK + value - 1] + s[K.DISCARD + value - 1]
    for q in range(n):
        seen += s[K.REPS + q * K.MAXV + value - 1]
    return max(0, min(R[K.R_PER_VALUE] - seen, 3))


@inlined
def _keeps_match(s, R, p, played):
    """Whether the hand left after playing ``played`` holds a Character matching one in the Park."""
    V = R[K.R_VALUES]
    for x in range(V):
        k = s[K.HANDS + p * K.MAXV + x] - (1 if x + 1 == played else 0)
        if k > 0 and s[K.PARK + x] > 0:
            return 1
    return 0


@inlined
def _holds_chance(s, R, p, target):
    """How likely, from seat ``p``'s view, the teller held a Character of ``target`` among the Characters it chose
    from (its hand after the draw), were the unseen Characters dealt at random: 0 when none is unseen, else 1-6 in
    sixths of the probability."""
    V = R[K.R_VALUES]
    n = R[K.R_PLAYERS]
    total = 0
    mine = 0
    for v in range(V):
        seen = s[K.PARK + v] + s[K.HANDS + p * K.MAXV + v] + s[K.DISCARD + v]
        for q in range(n):
            seen += s[K.REPS + q * K.MAXV + v]
        k = max(R[K.R_PER_VALUE] - seen, 0)
        total += k
        if v + 1 == target:
            mine = k
    if mine == 0 or total == 0:
        return 0
    miss = 1.0
    for j in range(R[K.R_HAND_SIZE] + 1):
        if total - j <= 0:
            miss = 0.0
            break
        miss *= max(total - mine - j, 0) / (total - j)
    return 1 + min(int((1.0 - miss) * 6.0), 5)


@inlined
def _new_value(s, p, value):
    return 1 if value >= 1 and s[K.TICKETS + p * K.MAXV + value - 1] == 0 else 0


@inlined
def _fine_key(s, R, p, detail):
    """The position key at the fine level (``detail >= 1``; abstraction version 3's coarse key and the counts)."""
    V = R[K.R_VALUES]
    n = R[K.R_PLAYERS]
    ph = s[K.PHASE]
    h = np.uint64(0x51ED270B27E3C1A5)
    h = combine(h, ph)
    h = combine(h, p)
    empty = 0
    for v in range(V):
        if s[K.STACKS + v] == 0:
            empty += 1
    h = combine(h, empty)
    best_other = -(1 << 20)
    for j in range(1, n):
        q = p + j if p + j < n else p + j - n
        best_other = max(best_other, s[K.SCORE + q])
    h = combine(h, _lead(s[K.SCORE + p] - best_other))
    h = combine(h, _best_cash(s, R, p))
    h = combine(h, min(s[K.RUNOUTS], 2))
    h = combine(h, _bucket_deck(s[K.DECK_TOTAL]))
    if detail >= 1:  # the counts themselves (exact on the reduced variants, where they are small)
        for v in range(V):
            h = combine(h, min(s[K.HANDS + p * K.MAXV + v], 2))
            h = combine(h, min(s[K.PARK + v], 2))
            h = combine(h, min(s[K.REPS + p * K.MAXV + v], 3))
            h = combine(h, min(s[K.TICKETS + p * K.MAXV + v], 1))
    if ph == K.VOTE or ph == K.COIN_OFFER:
        teller = s[K.ACTIVE]
        target = s[K.TALE_PARK]
        h = combine(h, teller - p if teller >= p else teller - p + n)
        seen = s[K.PARK + target - 1] + s[K.HANDS + p * K.MAXV + target - 1] + s[K.DISCARD + target - 1]
        for q in range(n):
            seen += s[K.REPS + q * K.MAXV + target - 1]
        h = combine(h, max(0, min(R[K.R_PER_VALUE] - seen, 3)))
        best_ticket = 0
        for w in range(1, V + 1):
            if w != target:
                best_ticket = max(best_ticket, K.ticket_for_tale_k(s, abs(target - w)))
        h = combine(h, best_ticket)
        true_told = s[K.ROWS + teller * 4] + s[K.ROWS + teller * 4 + 1]
        tall_told = s[K.ROWS + teller * 4 + 2] + s[K.ROWS + teller * 4 + 3]
        h = combine(h, min(true_told, 2))
        h = combine(h, min(tall_told, 2))
        h = combine(h, _lead(s[K.SCORE + teller] - s[K.SCORE + p]))
        if ph == K.VOTE and R[K.R_SEQUENTIAL]:
            trust = 0
            distrust = 0
            for q in range(n):
                trust += 1 if s[K.VOTES + q] == 1 else 0
                distrust += 1 if s[K.VOTES + q] == 0 else 0
            h = combine(h, trust)
            h = combine(h, distrust)
        if ph == K.COIN_OFFER:
            h = combine(h, s[K.TRUSTED] + 1)
    k = np.int64(h)
    return np.int64(1) if k == np.int64(-(2**63)) else k


@inlined
def info_key(s, R, p, detail):
    """The position key of seat ``p`` (the seat to act) in kernel state ``s`` (see the module docstring)."""
    ph = s[K.PHASE]
    if detail >= 1:
        return _fine_key(s, R, p, detail)
    if ph != K.VOTE and ph != K.COIN_OFFER:
        return _fine_key(s, R, p, 0)
    # A trust vote or the Coin offer: what the voter sees of the tale and the teller, little of its own position
    # (so each row gathers many samples).
    V = R[K.R_VALUES]
    n = R[K.R_PLAYERS]
    teller = s[K.ACTIVE]
    target = s[K.TALE_PARK]
    h = np.uint64(0x2F6B1D93C4A8E057)
    h = combine(h, ph)
    h = combine(h, teller - p if teller >= p else teller - p + n)
    empty = 0
    for v in range(V):
        if s[K.STACKS + v] == 0:
            empty += 1
    h = combine(h, empty)
    h = combine(h, min(s[K.RUNOUTS], 2))
    h = combine(h, _bucket_deck(s[K.DECK_TOTAL]))
    h = combine(h, _holds_chance(s, R, p, target))
    best_ticket = 0
    for w in range(1, V + 1):
        if w != target:
            best_ticket = max(best_ticket, K.ticket_for_tale_k(s, abs(target - w)))
    h = combine(h, best_ticket)
    true_told = s[K.ROWS + teller * 4] + s[K.ROWS + teller * 4 + 1]
    tall_told = s[K.ROWS + teller * 4 + 2] + s[K.ROWS + teller * 4 + 3]
    h = combine(h, min(true_told, 2))
    h = combine(h, min(tall_told, 2))
    h = combine(h, _lead(s[K.SCORE + teller] - s[K.SCORE + p]))
    if ph == K.VOTE and R[K.R_SEQUENTIAL]:
        trust = 0
        distrust = 0
        for q in range(n):
            trust += 1 if s[K.VOTES + q] == 1 else 0
            distrust += 1 if s[K.VOTES + q] == 0 else 0
        h = combine(h, trust)
        h = combine(h, distrust)
    if ph == K.COIN_OFFER:
        h = combine(h, s[K.TRUSTED] + 1)
    k = np.int64(h)
    return np.int64(1) if k == np.int64(-(2**63)) else k


@inlined
def action_desc(s, R, p, a, detail):
    """The description of legal move ``a`` of seat ``p`` (see the module docstring), as a small integer; at the fine
    level (``detail >= 1``) the move itself."""
    if detail >= 1:
        return 10000 + a
    if a < R[K.R_REP_BASE]:  # Tell a Tale: Park value, hand value
        v = R[K.R_DEC_X + a]
        w = R[K.R_DEC_HAND + a]
        keeps = _keeps_match(s, R, p, w)
        if v == w:
            return 100 + 10 * min(K.fit_k(s, p, v), 4) + keeps
        ticket = K.ticket_for_tale_k(s, abs(v - w))
        return 1000 + 100 * ticket + 50 * _new_value(s, p, ticket) + 10 * _public_unseen(s, R, v) + keeps
    if a < R[K.R_TAKE_BASE]:  # Use Reputation
        length = R[K.R_COMBO_LEN + R[K.R_DEC_X + a]]
        return 2000 + 10 * length + 4 * _new_value(s, p, length) + _keeps_match(s, R, p, R[K.R_DEC_HAND + a])
    if a < R[K.R_FREE_BASE]:  # Take a Character from the Park
        u = R[K.R_DEC_X + a]
        return 3000 + 10 * min(K.fit_k(s, p, u), 4) + _keeps_match(s, R, p, R[K.R_DEC_HAND + a])
    if a < R[K.R_DECLINE]:  # the free Use Reputation action
        length = R[K.R_COMBO_LEN + R[K.R_DEC_X + a]]
        return 4000 + 10 * length + _new_value(s, p, length)
    return 5000 + a - R[K.R_DECLINE]  # decline, pass, trust, do not trust, toss, do not toss: themselves


@inlined
def row_of(s, R, p, acts, n, keys_out, which, detail):
    """The policy row of seat ``p`` over its ``n`` legal moves ``acts``: the distinct table keys (position key and
    move description, :func:`trustme_analysis.train.tables.slot_key`) into ``keys_out`` and, for each move, the
    index of its key into ``which``; returns the number of distinct keys."""
    key = info_key(s, R, p, detail)
    m = 0
    for j in range(n):
        k = T.slot_key(key, action_desc(s, R, p, acts[j], detail))
        u = 0
        while u < m and keys_out[u] != k:
            u += 1
        if u == m:
            keys_out[m] = k
            m += 1
        which[j] = u
    return m


@compiled
def info_key_of(s, R, p, detail):
    """:func:`info_key` as a compiled function (tests, the bot)."""
    return info_key(s, R, p, detail)


@compiled
def row_of_compiled(s, R, p, acts, n, keys_out, which, detail):
    """:func:`row_of` as a compiled function (tests)."""
    return row_of(s, R, p, acts, n, keys_out, which, detail)
