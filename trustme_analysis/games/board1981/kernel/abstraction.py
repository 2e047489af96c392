"""What a trained Trust Me (1981) player remembers of a position and of each move: the abstraction of its policy table.

A slot of the trained policy is a pair (position key, move descriptor). :func:`info_key` turns a kernel state
(:mod:`~trustme_analysis.games.board1981.kernel.layout`) and a seat into a 64-bit *position key*;
:func:`action_desc` describes each legal move by what it does rather than by its number, so that "move onto a
briefcase I looked under and saw Two Stacks" is one move wherever on the board that briefcase lies. Moves with the
same description in one position share their row (they are the same move to the trained player). Both read only
what that seat saw under briefcases and what everybody sees at the table. In the rulebook's words:

The position key holds

- **the decision**: the turn start (roll, claim the property looked at last turn, or start the investing round on
  the Company), a move, the choice on a colored space (look, claim, decline), a Hot Tip or the optional peek, a
  Wild Goose Chase send, a Challenge card, an investing decision (not the seat: the coarse level shares its rows
  between the seats, whose positions it describes relative to the seat anyway);
- **your claim**: none, or the claimed briefcase with what you saw under it (One Stack, Two Stacks, Empty, You've
  Been Had!) or that you never looked;
- **the briefcases left** on the board (3, 4-5, 6-8, 9 or more: the game ends when two are left);
- **the money race**: your wealth (money plus shares) minus the richest other player's, in 5 buckets (-15 or less,
  -14 to -5, -4 to 4, 5 to 14, 15 or more), and whether another player holds a claim;
- **at the turn start**: what you saw under the briefcase you may claim now (the one you looked under last turn);
- **on a colored space**: what you saw under its briefcase (or that you never looked) and whether another player
  looked under it;
- **on a Wild Goose Chase send**: whether the player you send holds a claim;
- **at an investing decision** instead of your claim and the other claims (the round's rows are the many ones):
  the briefcases left; the money race in 3 buckets (behind by 5 or more, level, ahead by 5 or more); where the
  claimant sits (you, or how far to your left); what you saw under the claimed briefcase or that you never looked;
  whether the claimant looked under it and how many other players did (up to 2); each earlier decision of the round
  (buy, hold or divest) with whether that investor looked; your money and your shares (0, 1-9, 10-29, 30 or more);
  and, when you never looked, the share of You've Been Had! among the Payoff cards you cannot locate (the mix less
  the cards revealed and the ones you saw under briefcases still on the board), in thirds.

A move is described as

- **a move of the piece** by where it lands: the Company (with a claim or not); the space of a player holding a
  claim (taking it) with what you saw under that briefcase; a colored space by its briefcase: gone or claimed,
  looked under (with what you saw) or never looked under (and whether another player did); a Hot Tip by whether its
  street holds an open briefcase you never looked under; Wild Goose Chase; a white space. With a claim of your own,
  also by the steps from there to the Company (0, 1-3, 4-6, 7 or more);
- **a look under a briefcase** (Hot Tip, peek) by whether you looked under it before and whether another player did;
- **a challenge** by what you saw under the challenged player's claimed briefcase (or never looked) and whether
  that player looked before claiming;
- **look, claim, decline, roll, claim the property looked at, invest now, a Wild Goose Chase space, each investing
  decision** (hold, buy a lot, buy max, divest a lot, divest all) as themselves;
- **the heuristic's mark** (version 3, the coarse level): whether the heuristic player (:mod:`.heuristic`, with the
  bot's default knobs, :data:`DEFAULT_KNOBS`) would never make this move here, make it sometimes, or make it at
  least half as often as its favourite move. The heuristic reads only the seat's own view (the cards it looked
  under, the cards revealed, the public claims, looks and investing decisions), so the mark does too; it carries
  what the heuristic weighs (which space is the best one to move to, whether a claim is worth holding, whether the
  card under a claim makes a purchase worth it) without a row entry per combination of them.

Each row also carries the heuristic's probability of its entries, the *prior* (:func:`row_of`): the training starts
every new entry there (``TrainSettings.prior``) and a trained player plays it where the training never reached the row
(:func:`~trustme_analysis.train.tables.known_row`), instead of playing every description alike. Version 2 had neither:
its 2-player line-up lost 59.6-68.7% of its games to one heuristic seat and 77.2-83.8% to the "never claim unseen"
probe (``docs/games/board1981.rst``).

The fine level (``detail >= 1``) adds to the position the seat, every player's money and shares (exactly), the
reserve, everyone's looks under the claimed briefcase, the pieces' spaces, your claim and the other claims at the
investing decision too, and at the investing decision the share of One and Two Stacks among the cards you cannot
locate; it describes each move as itself: exact on the investing round alone (``trustme_1981_investment``, where
every decision's amounts show in money and shares), far too fine for the whole game.

How coarse (measured on 300 heuristic two-player games, 26,000 decisions; ``docs/games/board1981.rst``): the first
version (seat, your claim and the other claims at every decision, 6 money and share buckets, 5 race buckets and both
card shares at the investing decision) met 2,225 distinct investing rows in 6,000 investing decisions (1,326 once);
version 2 (this position key, without the mark) met 695 (244 once), and 166 move rows in 12,500 moves. The mark
leaves the position keys as they are and splits a row's entries only where the heuristic tells moves apart.

Neither reads a Payoff card the seat has not looked under: every card is read through :func:`seen_kind`, which
gives "never looked" for the others (``tests/games/test_1981_trained.py`` checks that no key moves when
:meth:`~trustme_analysis.games.board1981.kernel.kernel.Kernel.sample_worlds` deals the unseen cards anew, and that
one information set of a compiled investing-round tree gives one position key); the heuristic behind the mark and
the prior reads a card only where the seat looked under it or it was revealed (the same test redeals them). The
Trust Me draw pile, the cards set aside and other players' looks under other briefcases than those named above are
not read either.

The investing round alone enters the same abstraction through the board game's kernel state: :mod:`.training`
embeds a ``trustme_1981_investment`` position in a ``trustme_1981`` state (one briefcase left, the claim on it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.games.board1981.kernel.basics import claimed_by, has_looked, wealth
from trustme_analysis.games.board1981.kernel.heuristic import SCRATCH_MIN, heuristic_probs
from trustme_analysis.games.board1981.kernel.layout import (
    CARDS, CHALLENGE_CHOICE, CLAIM, CLAIM_KNEW, CLAIMANT, HOT_TIP_CHOICE, INVEST_CHOICE, INVEST_IDX, K_HOT_TIP,
    K_PROPERTY, K_WILD_GOOSE_CHASE, LOOKED, MAY_CLAIM, MONEY, MOVE, NUM_PAYOFF_KINDS, PEEK, PHASE, POS,
    PROPERTY_CHOICE, R_A_FIRST_CASE, R_A_FIRST_CHALLENGE, R_A_FIRST_INVEST, R_A_FIRST_SEND, R_A_LOOK, R_AREA_MASK,
    R_COMPANY, R_DIST_COMPANY, R_HOT_TIP_AREA, R_KIND, R_N, R_NUM_PROPS, R_PAYOFF_MIX, R_SPACE_PROPERTY, REMOVED,
    RESERVE, REVEALED, ROUND_SIGNALS, SEND, SENDS, SHARES, TURN_START, BEEN_HAD, ONE_STACK, TWO_STACKS, tie_module,
)
from trustme_analysis.train import tables as T
from trustme_analysis.train.tables import combine

inlined = njit(cache=True, inline="always")
compiled = njit(cache=True)

#: Bumped whenever :func:`info_key` or :func:`action_desc` changes meaning: stored policies of another version are
#: stale.
VERSION = 3

#: The heuristic bot's default knobs (``HeuristicKnobs()`` in the order of :data:`~.layout.KNOBS`; a test keeps the
#: two equal): the heuristic whose choices the coarse level marks on each move and whose row is the trained player's
#: prior.
DEFAULT_KNOBS = np.array([0.5, 1.0, 0.25, 0.3, 1.0, 0.8])
#: A coarse slot's move is ``description + MARK * mark`` (the heuristic's mark, :func:`row_of`); descriptions stay
#: far below it.
MARK = 1 << 20

#: What :func:`seen_kind` gives for a briefcase the seat never looked under.
UNSEEN = NUM_PAYOFF_KINDS


@inlined
def seen_kind(st, p, q):
    """The Payoff card seat ``p`` saw under briefcase ``q``, or :data:`UNSEEN` (the only way this module reads a
    card)."""
    return st[CARDS + q] if has_looked(st, p, q) else UNSEEN


@inlined
def _lead(x):
    """A wealth difference in 5 buckets."""
    if x <= -15:
        return 0
    if x <= -5:
        return 1
    if x < 5:
        return 2
    return 3 if x < 15 else 4


@inlined
def _amount(x):
    """Money or shares in 6 buckets."""
    if x <= 0:
        return 0
    if x < 5:
        return 1
    if x < 10:
        return 2
    if x < 20:
        return 3
    return 4 if x < 50 else 5


@inlined
def _coarse_amount(x):
    """Money or shares in 4 buckets (the coarse level's investing rows)."""
    if x <= 0:
        return 0
    if x < 10:
        return 1
    return 2 if x < 30 else 3


@inlined
def _left(st, r):
    left = 0
    for q in range(r[R_NUM_PROPS]):
        if st[REMOVED + q] == 0:
            left += 1
    if left <= 3:
        return 0
    if left <= 5:
        return 1
    return 2 if left <= 8 else 3


@inlined
def _others_looked(st, r, p, q, skip):
    """How many players other than ``p`` and ``skip`` looked under briefcase ``q`` (public: looks are made at the
    table)."""
    k = 0
    for o in range(r[R_N]):
        if o != p and o != skip and has_looked(st, o, q):
            k += 1
    return k


@inlined
def _thirds(x, total):
    if total <= 0:
        return 0
    f = x / total
    if f < 1.0 / 3.0:
        return 0
    return 1 if f < 2.0 / 3.0 else 2


@inlined
def _dist(d):
    if d <= 0:
        return 0
    if d <= 3:
        return 1
    return 2 if d <= 6 else 3


@inlined
def info_key(st, r, p, detail):
    """The position key of seat ``p`` (the seat to act) in kernel state ``st`` (see the module docstring)."""
    n = r[R_N]
    ph = st[PHASE]
    h = np.uint64(0x1981C0FFEE15BAD5)
    h = combine(h, ph)
    if detail >= 1:
        h = combine(h, p)  # the seat itself only at the fine level: the coarse one shares rows between the seats
    mine = st[CLAIM + p]
    coarse_round = ph == INVEST_CHOICE and detail == 0
    if not coarse_round:  # (in the round, the claimed briefcase is described below; one's own claim waits)
        h = combine(h, 0 if mine < 0 else 1 + seen_kind(st, p, mine))
    h = combine(h, _left(st, r))
    best = -(1 << 40)
    claims = 0
    for j in range(1, n):
        o = (p + j) % n
        best = max(best, wealth(st, o))
        if st[CLAIM + o] >= 0:
            claims = 1
    lead = _lead(wealth(st, p) - best)
    if coarse_round:
        lead = 0 if lead <= 1 else (1 if lead == 2 else 2)  # behind, level, ahead: the round's rows are many
    h = combine(h, lead)
    if not coarse_round:
        h = combine(h, claims)
    if detail >= 1:
        # The fine level: money, shares and pieces as they are (exact on the investing round alone).
        for o in range(n):
            h = combine(h, st[MONEY + o])
            h = combine(h, st[SHARES + o])
            h = combine(h, st[POS + o])
            h = combine(h, st[CLAIM + o])
        h = combine(h, st[RESERVE])
        h = combine(h, st[LOOKED + p])
    if ph == TURN_START:
        q = st[MAY_CLAIM + p]
        h = combine(h, seen_kind(st, p, q) if q >= 0 else UNSEEN + 1)
    elif ph == PROPERTY_CHOICE:
        q = r[r[R_SPACE_PROPERTY] + st[POS + p]]
        h = combine(h, seen_kind(st, p, q))
        h = combine(h, min(_others_looked(st, r, p, q, p), 1))
    elif ph == SEND:
        target = st[SENDS + 1]  # the first pending send: (sender, target, reason)
        h = combine(h, 1 if st[CLAIM + target] >= 0 else 0)
    elif ph == INVEST_CHOICE:
        c = st[CLAIMANT]
        q = st[CLAIM + c]
        h = combine(h, (c - p + n) % n)
        k = seen_kind(st, p, q)
        h = combine(h, k)
        h = combine(h, has_looked(st, c, q) if c != p else 0)
        h = combine(h, min(_others_looked(st, r, p, q, c), 2))
        for i in range(st[INVEST_IDX]):
            o = (c + 1 + i) % n
            h = combine(h, 10 + 2 * st[ROUND_SIGNALS + i] + has_looked(st, o, q))
        h = combine(h, _amount(st[MONEY + p]) if detail >= 1 else _coarse_amount(st[MONEY + p]))
        h = combine(h, _amount(st[SHARES + p]) if detail >= 1 else _coarse_amount(st[SHARES + p]))
        if detail >= 1:
            for o in range(n):
                h = combine(h, has_looked(st, o, q))
        if k == UNSEEN:
            # The cards this seat cannot locate: the mix less those revealed and those seen on the board.
            total = 0
            had = 0
            good = 0
            for kind in range(NUM_PAYOFF_KINDS):
                left = r[r[R_PAYOFF_MIX] + kind] - st[REVEALED + kind]
                for b in range(r[R_NUM_PROPS]):
                    if st[REMOVED + b] == 0 and has_looked(st, p, b) and st[CARDS + b] == kind:
                        left -= 1
                left = max(left, 0)
                total += left
                if kind == BEEN_HAD:
                    had = left
                elif kind == ONE_STACK or kind == TWO_STACKS:
                    good += left
            h = combine(h, _thirds(had, total))
            if detail >= 1:
                h = combine(h, _thirds(good, total))
    key = np.int64(h)
    return np.int64(1) if key == np.int64(-(2**63)) else key


@inlined
def _move_desc(st, r, p, dest):
    n = r[R_N]
    has_claim = st[CLAIM + p] >= 0
    far = 1000 * (1 + _dist(r[r[R_DIST_COMPANY] + dest])) if has_claim else 0
    if dest == r[R_COMPANY]:
        return 100 + (1 if has_claim else 0)
    for o in range(n):
        if o != p and st[POS + o] == dest and st[CLAIM + o] >= 0:
            return far + 200 + seen_kind(st, p, st[CLAIM + o])
    kind = r[r[R_KIND] + dest]
    if kind == K_PROPERTY:
        q = r[r[R_SPACE_PROPERTY] + dest]
        if st[REMOVED + q] != 0 or claimed_by(st, r, q) >= 0:
            return far + 300
        k = seen_kind(st, p, q)
        if k != UNSEEN:
            return far + 310 + k
        return far + 320 + min(_others_looked(st, r, p, q, p), 1)
    if kind == K_HOT_TIP:
        area = r[r[R_HOT_TIP_AREA] + dest]
        fresh = 0
        for q in range(r[R_NUM_PROPS]):
            if (r[r[R_AREA_MASK] + area] >> q) & 1 and st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0 \
                    and not has_looked(st, p, q):
                fresh = 1
        return far + 400 + fresh
    if kind == K_WILD_GOOSE_CHASE:
        return far + 500
    return far + 600


@inlined
def action_desc(st, r, p, a, detail):
    """The description of legal move ``a`` of seat ``p`` (see the module docstring), as a small integer; at the fine
    level (``detail >= 1``) the move itself."""
    if detail >= 1:
        return 100000 + a
    ph = st[PHASE]
    if ph == MOVE:
        return _move_desc(st, r, p, a)
    if (ph == HOT_TIP_CHOICE or ph == PEEK) and a >= r[R_A_FIRST_CASE]:
        q = a - r[R_A_FIRST_CASE]
        return 6000 + 10 * has_looked(st, p, q) + min(_others_looked(st, r, p, q, p), 1)
    if ph == CHALLENGE_CHOICE and a >= r[R_A_FIRST_CHALLENGE]:
        o = a - r[R_A_FIRST_CHALLENGE]
        return 8000 + 10 * seen_kind(st, p, st[CLAIM + o]) + st[CLAIM_KNEW + o]
    if ph == SEND:
        return 7000 + a - r[R_A_FIRST_SEND]
    if ph == INVEST_CHOICE:
        return 9000 + a - r[R_A_FIRST_INVEST]
    return 5000 + a - r[R_A_LOOK]  # look, claim unseen, decline, roll, claim looked, invest now: themselves


@inlined
def row_of(st, r, p, acts, n, keys_out, which, detail, prior_out, hprobs, hscratch):
    """The policy row of seat ``p`` (the seat to act) over its ``n`` legal moves ``acts``: the distinct table keys
    (position key and move description, :func:`trustme_analysis.train.tables.slot_key`) into ``keys_out``, for each
    move the index of its key into ``which``, and the default heuristic's probability of each entry (the sum over
    the moves it describes) into ``prior_out``; returns the number of distinct keys. ``hprobs`` and ``hscratch`` are
    float scratch as long as ``acts``.

    At level 0 each move's description also carries the heuristic's mark (0: the heuristic never makes it, 1:
    sometimes, 2: at least half as often as its favourite move), so that a row can play as the heuristic does and
    tell its favourite apart from a move it never makes; moves described alike share an entry and are played
    uniformly within it, which for the heuristic's ties (it plays its best-scored moves uniformly) is its own play."""
    key = info_key(st, r, p, detail)
    heuristic_probs(st, r, DEFAULT_KNOBS, acts, n, hprobs, hscratch)
    top = 0.0
    for j in range(n):
        top = max(top, hprobs[j])
    m = 0
    for j in range(n):
        desc = action_desc(st, r, p, acts[j], detail)
        if detail < 1:
            h = hprobs[j]
            desc += MARK * (0 if h <= 0.0 else (2 if h >= 0.5 * top else 1))
        k = T.slot_key(key, desc)
        u = 0
        while u < m and keys_out[u] != k:
            u += 1
        if u == m:
            keys_out[m] = k
            prior_out[m] = 0.0
            m += 1
        prior_out[u] += hprobs[j]
        which[j] = u
    return m


@compiled
def info_key_of(st, r, p, detail):
    """:func:`info_key` as a compiled function (tests, the bot)."""
    return info_key(st, r, p, detail)


@compiled
def row_of_compiled(st, r, p, acts, n, keys_out, which, detail, prior_out):
    """:func:`row_of` as a compiled function (tests): the row's length, its keys, entries and prior."""
    return row_of(st, r, p, acts, n, keys_out, which, detail, prior_out, np.empty(n), np.empty(max(n, SCRATCH_MIN)))


tie_module(__name__)
