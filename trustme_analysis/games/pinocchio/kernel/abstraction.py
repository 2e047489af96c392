"""What a trained Pinocchio player remembers of a position and of each move: the abstraction of its policy table.

A slot of the trained policy is a pair (position key, move descriptor). :func:`info_key` turns a kernel state
(:mod:`~trustme_analysis.games.pinocchio.kernel.layout`) and a seat into a 64-bit *position key*;
:func:`action_desc` describes each legal move by its kind and by what the default heuristic player would make of it,
so that "a tall tale the heuristic would tell" is one move whichever Characters it uses. Moves with the same
description in one position share their row (they are the same move to the trained player). Both read only what that
seat may see at the table or remember from public play. In the rulebook's words:

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

A move is described (version 5) by

- **its kind**: a true tale (Tell a Tale with a matching Character), a tall tale, Use Reputation, Take a Character
  from the Park, the free Use Reputation action, or itself (pass, decline, trust, do not trust, toss, do not toss);
- **the heuristic's mark**: whether the heuristic player (:mod:`.heuristic`, with the bot's default knobs) would
  never play it, play it sometimes, or play it at least half as often as its favourite move. The heuristic reads
  only the seat's own view, so the mark does too; it carries what the heuristic weighs (which tale would earn a
  Ticket, which Character is safe to claim, when to cash Reputation, whether to trust the tale) without a row per
  combination of them.

Each row also carries the heuristic's probability of its moves, the *prior*: the training starts every new row
there (``TrainSettings.prior``) and a trained seat plays it where the training never went.

Version 4 described moves by the Ticket a tall tale would earn, the Reputation a true tale would complete, whether
the kept hand matches the Park and more; on the full 2-player game that split a turn row into many entries, whose
sampled regrets were too noisy to separate (the heuristic beat that policy 79-87%, docs/guide/trained.rst).

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

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.train import tables as T
from trustme_analysis.train.tables import combine

inlined = njit(cache=True, inline="always")
compiled = njit(cache=True)

#: Bumped whenever :func:`info_key` or :func:`action_desc` changes meaning: stored policies of another version are
#: stale.
VERSION = 5


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
def _tale_and_teller(h, s, R, p, ph, teller, target):
    """What both levels' keys of a trust vote or the Coin offer say of the tale and its teller, combined into ``h``:
    the best ticket another value would give, how many true and tall tales the teller has told (capped), the
    teller's lead over seat ``p``, the votes cast so far (sequential voting) and, at the Coin offer, the outcome."""
    V = R[K.R_VALUES]
    n = R[K.R_PLAYERS]
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
    return h


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
        h = _tale_and_teller(h, s, R, p, ph, teller, target)
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
    h = _tale_and_teller(h, s, R, p, ph, teller, target)
    k = np.int64(h)
    return np.int64(1) if k == np.int64(-(2**63)) else k


#: The heuristic bot's default knobs (``kernel.heuristic_knobs()`` with none given; a test keeps the two equal):
#: the heuristic whose choices the coarse level marks on each move and whose row is the trained player's prior.
DEFAULT_HEURISTIC = np.array([0.2, 0.0, 0.0, 0.0, 0.5, 0.3, 4.0, 3.0, 2.0, 0.0, 1.0, 0.0, 1.0, 0.5, 1.0, 0.5])
#: A coarse description is ``KIND * kind + mark`` (:func:`action_desc`).
KIND = 10


@inlined
def kind_of(R, a):
    """The kind of move ``a``: 1 a true tale, 2 a tall tale, 3 Use Reputation, 4 a take, 5 the free action, else
    ``10 +`` the move itself (decline, pass, trust, do not trust, toss, do not toss)."""
    if a < R[K.R_REP_BASE]:
        return 1 if R[K.R_DEC_X + a] == R[K.R_DEC_HAND + a] else 2
    if a < R[K.R_TAKE_BASE]:
        return 3
    if a < R[K.R_FREE_BASE]:
        return 4
    if a < R[K.R_DECLINE]:
        return 5
    return 10 + a - R[K.R_DECLINE]


@inlined
def action_desc(R, a, detail, h, top):
    """The description of legal move ``a`` (see the module docstring), as a small integer: at the coarse level its
    kind (:func:`kind_of`) and the heuristic's mark from ``h``, the default heuristic's probability of ``a``, and
    ``top``, that of its favourite move (0: never played, 1: sometimes, 2: at least half as often as the
    favourite); at the fine level (``detail >= 1``) the move itself."""
    if detail >= 1:
        return 10000 + a
    return KIND * kind_of(R, a) + (0 if h <= 0.0 else (2 if h >= 0.5 * top else 1))


# Not inlined: compiled once and called by the traversal, the bot and the kernel's trained seats; borrowing (no
# reference counts, cfr.numba_borrowing): it runs at every decision of a trained seat.
@borrowing()
def row_of(s, R, p, acts, n, keys_out, which, detail, prior_out):
    """The policy row of seat ``p`` (the seat to act) over its ``n`` legal moves ``acts``: the distinct table keys
    (position key and move description, :func:`trustme_analysis.train.tables.slot_key`) into ``keys_out``, for each
    move the index of its key into ``which``, and the default heuristic's probability of each key's moves into
    ``prior_out``; returns the number of distinct keys. At the coarse level each move's description carries the
    heuristic's mark (:func:`action_desc`), so that a row can play as the heuristic does and the training starts
    there. ``acts[:n]`` is the list :func:`~.queries.legal_actions` gives (the heuristic reads it as its own)."""
    key = info_key(s, R, p, detail)
    # No scratch of its own (it runs at every decision of a trained seat, where allocating three arrays showed in the
    # profile), and the legal moves are listed once: the heuristic's probability of each move goes into
    # prior_out[:n] and keys_out lends it the heuristic's scratch; prior_out[j] is read at move j, before the row's
    # sums overwrite it (they only write entries u <= m <= j).
    K.heuristic_probs(s, R, DEFAULT_HEURISTIC, acts, n, prior_out, keys_out)
    top = 0.0
    for j in range(n):
        top = max(top, prior_out[j])
    m = 0
    for j in range(n):
        h = prior_out[j]
        d = action_desc(R, acts[j], detail, h, top)
        # Moves are told apart by description (keys_out holds the row's descriptions until the end) and hashed once
        # per row entry: distinct descriptions of one position never share a slot key (slot_key is a bijection of
        # the description for a fixed position, up to the EMPTY remap).
        u = 0
        while u < m and keys_out[u] != d:
            u += 1
        if u == m:
            keys_out[m] = d
            prior_out[m] = 0.0
            m += 1
        prior_out[u] += h
        which[j] = u
    for u in range(m):
        keys_out[u] = T.slot_key(key, keys_out[u])
    return m


@compiled
def info_key_of(s, R, p, detail):
    """:func:`info_key` as a compiled function (tests, the bot)."""
    return info_key(s, R, p, detail)


@compiled
def row_of_compiled(s, R, p, acts, n, keys_out, which, detail, prior_out):
    """:func:`row_of` as a compiled function (tests)."""
    return row_of(s, R, p, acts, n, keys_out, which, detail, prior_out)


# row_of is compiled on its own (not inlined) and calls the kernel's heuristic and the tables: its cache is keyed by
# their sources too (numba's own key is this file alone).
tie_cache_to_sources((row_of,), sys.modules[__name__], *K.SOURCES, T)
