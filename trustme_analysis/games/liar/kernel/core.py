"""The rules and the play of ``trustme_liar`` as compiled (numba) functions over fixed-size integer arrays.

This is a second implementation of :mod:`trustme_analysis.games.liar.engine.game`; the engine stays the specification and
``tests/games/test_liar_kernel.py`` replays kernel games through it step by step. Rulebook words are kept: the deal,
the pair discards, a round's starter, the pile, calling liar, passing, burning, a player's last cards.

Every compiled function lives in this one module on purpose: numba's on-disk cache (``cache=True``) is invalidated by
a change of the *defining* file only, so a cached function calling into another module would keep running the old
code of that module after it is edited.

Three arrays describe everything:

- ``cfg`` (int64): the variant's parameters (indices ``N`` ... ``PMAX``) and where each part of a state lies in ``S``
  (indices ``O_*``); built once by :func:`build_config`.
- ``tab`` (int64): counting tables (see :func:`build_tables`): binomial coefficients for the deal, split counts for
  numbering chance outcomes, and multiset counts for numbering plays.
- ``S`` (int64): one position: the scalars ``S_*`` followed by per-seat and per-value blocks at the ``O_*`` offsets,
  each seat's record counters (the sweep's record fields, kept up to date move by move) and a little scratch space.

Plays are numbered without a table of all multisets. A play is a multiset of card values (a hand is counts per value);
the engine lists the multisets of 1..``max_play`` cards by size and then lexicographically (sorted tuples), which for
count vectors means: at the first value where two multisets differ, the one holding *more* of it comes first. So the
rank of a multiset among those of its size is ``sum over v of #{multisets agreeing below v and holding more of v}``,
a sum of entries of the table ``D[v][r]`` = number of multisets of ``r`` cards drawn from values ``v..values-1`` with
per-value bounds (``copies`` for action ids, the hand's counts for a hand's plays). Unranking walks the same sums.
That gives the ``k``-th playable multiset of a hand in the engine's order, so a uniform play is drawn from a uniform
integer without listing the (up to ~14,000) legal plays.

Randomness. Each game owns one SplitMix64 stream (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014; the constants of Vigna's reference ``splitmix64.c``) whose 64-bit state starts at the game's
seed, so a game depends only on its seed. Chance and every seat draw from it by the draw protocol of
:mod:`trustme_analysis.engine.draws`, which the pyspiel path follows too, so both engines give the same games.

Chance. The deal of one value draws ``r`` uniform below ``C(room, copies)`` (all deals of that value's copies into the
cards still to be dealt) and takes the split whose block of deals holds ``r`` when the splits are laid out in the
engine's outcome order, each with its number of deals (its integer weight): the draw protocol's integer walk, found
seat by seat. One possible split draws nothing.

Players. A uniform-random seat draws ``r`` uniform below its number of legal actions and takes the ``r``-th legal
action in the engine's order (:func:`pick`), computed without listing the others. Seat kinds are numbered
(:data:`RANDOM` = 0) so that heuristic and policy-table seats can join :func:`choose` later.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---------------------------------------------------------------------------------------------------------- cfg
N, V, C, M, MODE, UTIL, PG, PC, PF, PU, PW, ANN, FALSE_ACC, LAST, FIRST, MAXT, DECK, PMAX = range(18)
# Offsets of the blocks of a state (per seat: n entries; per value: V entries; hands: n*V).
(
    O_HANDS,  # n*V: cards per value in each hand
    O_HSIZE,  # n: cards in each hand
    O_TARGET,  # n: cards each seat is dealt
    O_OUT,  # n: 1 if the seat is out
    O_FALSE,  # n: false cards accepted or burned (secret bluff points)
    O_UNM,  # n: liars unmasked
    O_WRONG,  # n: times wrongly accused
    O_START,  # n: cards held after the pair discards
    O_DISC,  # V: public pair discards per value (all seats)
    O_BURNBY,  # n*V: burned cards per value, by the seat that played them
    O_PCOUNTS,  # V: cards per value in the face-down pile
    O_PSEAT,  # n*V: cards per value in the pile, by the seat that played them
    O_LASTV,  # M: the distinct values of the last play in the pile (turned over by a challenge), ascending
    O_LASTC,  # M: how many cards of each of those values
    O_KNOWN,  # n*n*V: known[w][h][v]: cards w knows are in h's hand (the engine's ``LiarTable.known``)
    O_REVEALED,  # n*V: revealed[h][v]: the turned-over cards h picked up since it last played
    O_KFLAG,  # n: 1 if anything may be known of the seat's hand (its rows of O_KNOWN / O_REVEALED may be non-zero)
    O_CLAIMBURN,  # n*V: cards each seat claimed as each value in burned piles (public)
    O_UNSEEN,  # V: scratch: the copies the deciding seat cannot place (the heuristic)
    O_OTHERS,  # V: scratch: values held other than the announced one (the heuristic's false cards)
    O_PPLAYER,  # PMAX: player of each play in the pile, oldest first
    O_PFALSE,  # PMAX: false cards of each play in the pile
    O_REC,  # n*NREC: record counters per seat
    O_SIZE,  # n*3*M: plays, bluffs and false cards per claim size, per seat
    O_D,  # (V+1)*(M+1): scratch table of a hand's multiset counts, one row per held value
    O_HELD,  # V: scratch list of the values the hand holds, ascending
    O_PV,  # M: scratch: the distinct values of one play, ascending
    O_PC,  # M: scratch: how many cards of each of those values
    O_ANN,  # V: scratch list of the values a starter may announce
    SIZE,  # length of a state
    T_BINOM,  # tab: binomial coefficients, (DECK+1)*(C+1)
    T_SPLIT,  # tab: (N+1)*(C+1): ways to share r copies between seats s..n-1
    T_DG,  # tab: (V+1)*(M+1): multisets of r cards from values v.. (each at most `copies` times)
    T_OFFS,  # tab: M+2: number of multisets of fewer than s cards (the first index of size s)
    CFG_LEN,
) = range(18, 53)

# --------------------------------------------------------------------------------------------------- scalars of S
(
    S_DEALT,  # values dealt so far (the deal is over at V)
    S_CURRENT,
    S_RVALUE,  # announced value of this round; -1 before the starter plays
    S_RSTARTER,
    S_PASSES,
    S_GOING,  # seat whose last cards await the others' calls, or -1
    S_END,  # END_* code
    S_TURNS,
    S_CREDITED,  # leading plays of the pile whose false cards have scored
    S_PLEN,  # plays in the pile
    S_PCARDS,  # cards in the pile
    S_LASTOUT,  # records: the seat whose last play emptied its hand, until that play is settled
    S_NHELD,  # scratch: values held (rows of the hand table)
    S_PN,  # scratch: distinct values in the play at O_PV / O_PC
    S_FIRST,  # the first round's starter; -1 until the chance node draws it
    S_LASTN,  # distinct values of the last play in the pile (at O_LASTV / O_LASTC)
    N_SCALARS,
) = range(17)

END_NONE, END_OUT, END_SETUP, END_TURN_CAP = 0, 1, 2, 3
#: ``end`` / ``end_trigger`` strings by code.
END_NAMES = ("", "out", "setup", "turn_cap")

LIAR, PASS, BURN, FIRST_PLAY = 0, 1, 2, 3
CHANCE, TERMINAL = -1, -4  # pyspiel.PlayerId.CHANCE / TERMINAL

#: Record counters per seat, in the order of the record columns.
REC_FIELDS = (
    "plays", "cards_played", "false_cards_played", "passes", "calls", "calls_won", "calls_lost", "challenged",
    "caught", "challenged_bluffs", "burns", "burned_cards", "pickups", "picked_up_cards", "last_cards_plays",
    "last_cards_caught", "last_cards_held",
)
NREC = len(REC_FIELDS)
(
    R_PLAYS, R_CARDS_PLAYED, R_FALSE_PLAYED, R_PASSES, R_CALLS, R_CALLS_WON, R_CALLS_LOST, R_CHALLENGED, R_CAUGHT,
    R_CHALLENGED_BLUFFS, R_BURNS, R_BURNED_CARDS, R_PICKUPS, R_PICKED_UP, R_LAST_PLAYS, R_LAST_CAUGHT, R_LAST_HELD,
) = range(NREC)
#: Per-size record lists, in column order.
SIZE_FIELDS = ("plays_by_size", "bluffs_by_size", "false_cards_by_size")

_MODES = {"classique": 0, "trustme": 1}
_UTILS = {"rank": 0, "points": 1, "difference": 2}


# ------------------------------------------------------------------------------------------- building (Python)


def build_config(rules) -> np.ndarray:
    """The ``cfg`` array of a :class:`~trustme_analysis.games.liar.engine.rules.Rules`."""
    n, values, copies, max_play = rules.players, rules.values, rules.copies, rules.max_play
    deck = values * copies
    cfg = np.zeros(CFG_LEN, dtype=np.int64)
    cfg[[N, V, C, M]] = n, values, copies, max_play
    cfg[MODE] = _MODES[rules.mode]
    cfg[UTIL] = _UTILS[rules.utility_in_force]
    cfg[[PG, PC, PF, PU, PW]] = (
        rules.points_going_out,
        rules.points_card_in_hand,
        rules.points_false_card,
        rules.points_unmasked,
        rules.points_wrongly_accused,
    )
    cfg[ANN] = rules.announce_gone == "forbidden"
    cfg[FALSE_ACC] = rules.false_card_accepted == "round_end"
    cfg[LAST] = rules.last_cards == "until_covered"
    cfg[FIRST] = -1 if rules.starter_seat is None else rules.starter_seat
    cfg[MAXT] = rules.max_turns
    cfg[DECK] = deck
    cfg[PMAX] = deck  # every play holds at least one card
    at = N_SCALARS
    for name, size in (
        (O_HANDS, n * values), (O_HSIZE, n), (O_TARGET, n), (O_OUT, n), (O_FALSE, n), (O_UNM, n), (O_WRONG, n),
        (O_START, n), (O_DISC, values), (O_BURNBY, n * values), (O_PCOUNTS, values), (O_PSEAT, n * values),
        (O_LASTV, max_play), (O_LASTC, max_play), (O_KNOWN, n * n * values), (O_REVEALED, n * values),
        (O_KFLAG, n), (O_CLAIMBURN, n * values),
        (O_UNSEEN, values), (O_OTHERS, values), (O_PPLAYER, deck),
        (O_PFALSE, deck), (O_REC, n * NREC), (O_SIZE, n * 3 * max_play), (O_D, (values + 1) * (max_play + 1)),
        (O_HELD, values), (O_PV, max_play), (O_PC, max_play), (O_ANN, values),
    ):
        cfg[name] = at
        at += size
    cfg[SIZE] = at
    at = 0
    for name, size in (
        (T_BINOM, (deck + 1) * (copies + 1)), (T_SPLIT, (n + 1) * (copies + 1)),
        (T_DG, (values + 1) * (max_play + 1)), (T_OFFS, max_play + 2),
    ):
        cfg[name] = at
        at += size
    return cfg


def build_tables(cfg: np.ndarray) -> np.ndarray:
    """The counting tables ``tab`` of a variant (see the module docstring and the ``T_*`` offsets)."""
    from math import comb

    n, values, copies, max_play, deck = (int(cfg[i]) for i in (N, V, C, M, DECK))
    tab = np.zeros(int(cfg[T_OFFS]) + max_play + 2, dtype=np.int64)
    for r in range(deck + 1):
        for k in range(copies + 1):
            tab[cfg[T_BINOM] + r * (copies + 1) + k] = comb(r, k)
    # Tuples (k_s..k_{n-1}) with sum r (r <= copies, so no part can exceed the copies).
    split = np.zeros((n + 1, copies + 1), dtype=np.int64)
    split[n, 0] = 1
    for s in range(n - 1, -1, -1):
        for r in range(copies + 1):
            split[s, r] = sum(split[s + 1, r - k] for k in range(r + 1))
    tab[cfg[T_SPLIT] : cfg[T_SPLIT] + split.size] = split.ravel()
    dg = np.zeros((values + 1, max_play + 1), dtype=np.int64)
    dg[values, 0] = 1
    for v in range(values - 1, -1, -1):
        for r in range(max_play + 1):
            dg[v, r] = sum(dg[v + 1, r - k] for k in range(min(copies, r) + 1))
    tab[cfg[T_DG] : cfg[T_DG] + dg.size] = dg.ravel()
    offs = np.zeros(max_play + 2, dtype=np.int64)
    for s in range(2, max_play + 2):
        offs[s] = offs[s - 1] + dg[0, s - 1]
    tab[cfg[T_OFFS] : cfg[T_OFFS] + offs.size] = offs
    return tab


# ---------------------------------------------------------------------------------------------- small helpers


@njit(cache=True)
def binom(cfg, tab, r, k):
    """C(r, k) for r <= deck, k <= copies."""
    if k < 0 or k > r:
        return 0
    return tab[cfg[T_BINOM] + r * (cfg[C] + 1) + k]


@njit(cache=True)
def hand_at(cfg, p, v):
    """Index in S of seat ``p``'s count of value ``v``."""
    return cfg[O_HANDS] + p * cfg[V] + v


@njit(cache=True)
def rec_at(cfg, p, field):
    """Index in S of seat ``p``'s record counter ``field``."""
    return cfg[O_REC] + p * NREC + field


@njit(cache=True)
def size_at(cfg, p, which, size):
    """Index in S of seat ``p``'s per-size list ``which`` (0..2, :data:`SIZE_FIELDS`) at claim size ``size``."""
    return cfg[O_SIZE] + (p * 3 + which) * cfg[M] + size - 1


# ------------------------------------------------------------------------------------------------- the position


@njit(cache=True)
def init_state(cfg, S):
    """The position before the deal (the engine's ``LiarTable``): a fixed first player is seated at once."""
    S[:] = 0
    S[S_CURRENT] = -1
    S[S_RSTARTER] = -1
    S[S_RVALUE] = -1
    S[S_GOING] = -1
    S[S_LASTOUT] = -1
    S[S_FIRST] = -1
    if cfg[FIRST] >= 0:
        start(cfg, S, cfg[FIRST])


@njit(cache=True)
def start(cfg, S, seat):
    """``seat`` starts the first round; the deck is dealt from its left, so the seats after it get any extra card."""
    n = cfg[N]
    S[S_FIRST] = seat
    S[S_CURRENT] = seat
    S[S_RSTARTER] = seat
    base = cfg[DECK] // n
    extra = cfg[DECK] % n
    for p in range(n):
        S[cfg[O_TARGET] + p] = base + (1 if (p - seat - 1) % n < extra else 0)


@njit(cache=True)
def current_player(cfg, S):
    """The seat to act; CHANCE (-1) during the deal; TERMINAL (-4) at the end."""
    if S[S_END] != END_NONE:
        return TERMINAL
    if S[S_FIRST] < 0 or S[S_DEALT] < cfg[V]:
        return CHANCE
    return S[S_CURRENT]


# ------------------------------------------------------------------------------------------------------ the deal


@njit(cache=True)
def split_count(cfg, tab):
    """Number of ways to share the copies of one value between the seats (chance outcome ids 0..count-1)."""
    return tab[cfg[T_SPLIT] + cfg[C]]


@njit(cache=True)
def split_ways(cfg, tab, S, index):
    """Deals (card orders) giving split ``index`` of the next value: prod over seats of C(room_s, k_s).

    Splits are numbered like ``deal.splits``: tuples ``(k_0..k_{n-1})`` with sum ``copies`` in lexicographic order.
    """
    n = cfg[N]
    cp1 = cfg[C] + 1
    rem = cfg[C]
    ways = 1
    for s in range(n):
        room = S[cfg[O_TARGET] + s] - S[cfg[O_HSIZE] + s]
        # k_s: count up from 0, skipping the tuples with a smaller k_s.
        k = 0
        if s == n - 1:
            k = rem
        else:
            while True:
                below = tab[cfg[T_SPLIT] + (s + 1) * cp1 + rem - k]
                if index < below:
                    break
                index -= below
                k += 1
        ways *= binom(cfg, tab, room, k)
        rem -= k
    return ways


@njit(cache=True)
def deal_total(cfg, tab, S):
    """C(room, copies): all deals of the next value's copies into the cards still to be dealt."""
    n = cfg[N]
    room = 0
    for s in range(n):
        room += S[cfg[O_TARGET] + s] - S[cfg[O_HSIZE] + s]
    return binom(cfg, tab, room, cfg[C])


@njit(cache=True)
def apply_deal(cfg, tab, S, index):
    """Deal the next value as split ``index``; after the last value, discard the pairs."""
    n = cfg[N]
    cp1 = cfg[C] + 1
    rem = cfg[C]
    value = S[S_DEALT]
    for s in range(n):
        k = 0
        if s == n - 1:
            k = rem
        else:
            while True:
                below = tab[cfg[T_SPLIT] + (s + 1) * cp1 + rem - k]
                if index < below:
                    break
                index -= below
                k += 1
        S[hand_at(cfg, s, value)] = k
        S[cfg[O_HSIZE] + s] += k
        rem -= k
    S[S_DEALT] = value + 1
    if S[S_DEALT] == cfg[V]:
        discard_pairs(cfg, S)


@njit(cache=True)
def discard_pairs(cfg, S):
    """Every player discards their pairs face up; a player left with no card is out and the game ends."""
    n, values = cfg[N], cfg[V]
    empty = False
    for p in range(n):
        size = 0
        for v in range(values):
            count = S[hand_at(cfg, p, v)]
            kept = count % 2
            S[hand_at(cfg, p, v)] = kept
            S[cfg[O_DISC] + v] += count - kept
            size += kept
        S[cfg[O_HSIZE] + p] = size
        S[cfg[O_START] + p] = size
        if size == 0:
            empty = True
    if empty:
        for p in range(n):
            if S[cfg[O_HSIZE] + p] == 0:
                S[cfg[O_OUT] + p] = 1
        finish(cfg, S, END_SETUP)


# ------------------------------------------------------------------------------------------------ legal actions


@njit(cache=True)
def fill_hand_table(cfg, S, p):
    """Build the hand table of seat ``p``; return how many multisets (1..max_play cards) the hand can play.

    Row ``i`` of the table (at ``O_D``) counts, for each ``r``, the multisets of ``r`` cards drawn from the held
    values ``held[i:]`` within the hand's counts. Values not held change nothing, so rows exist only for held values
    (listed ascending at ``O_HELD``).
    """
    values, w, d, held = cfg[V], cfg[M] + 1, cfg[O_D], cfg[O_HELD]
    hand = cfg[O_HANDS] + p * values
    m = 0
    for v in range(values):
        if S[hand + v] > 0:
            S[held + m] = v
            m += 1
    S[S_NHELD] = m
    row = d + m * w
    S[row] = 1
    for r in range(1, w):
        S[row + r] = 0
    for i in range(m - 1, -1, -1):
        h = S[hand + S[held + i]]
        nxt = d + (i + 1) * w
        cur = d + i * w
        total = 0  # running window sum of the next row over [r - h, r]
        for r in range(w):
            total += S[nxt + r]
            if r - h - 1 >= 0:
                total -= S[nxt + r - h - 1]
            S[cur + r] = total
    playable = 0
    for r in range(1, w):
        playable += S[d + r]
    return playable


@njit(cache=True)
def legal_shape(cfg, S, p):
    """``(extras, announced, plays_allowed)`` of seat ``p``'s legal actions, in the engine's order.

    ``extras`` is a bit set of LIAR (1), PASS (2), BURN (4), listed before the plays; ``announced`` is how many values
    a play may announce: the round's value, or for a starter every value (or with ``announce_gone=forbidden`` those
    listed at ``O_ANN``: not every copy among the pair discards).
    """
    if S[S_GOING] >= 0:
        return 3, 1, cfg[LAST] == 1
    if S[S_RVALUE] < 0:
        values = cfg[V]
        if cfg[ANN] == 0:
            return 0, values, True
        copies, disc, ann = cfg[C], cfg[O_DISC], cfg[O_ANN]
        count = 0
        for v in range(values):
            if S[disc + v] < copies:
                S[ann + count] = v
                count += 1
        return 0, count, True
    if p == S[cfg[O_PPLAYER] + S[S_PLEN] - 1]:
        # Everyone else passed: the last player adds cards or burns; passing again is not an option.
        return 4, 1, True
    return 3, 1, True


@njit(cache=True)
def count_extras(extras):
    return (extras & 1) + ((extras >> 1) & 1) + ((extras >> 2) & 1)


@njit(cache=True)
def legal_count(cfg, S, p):
    """Number of legal actions of seat ``p`` (fills the hand table and the announced list as a side effect)."""
    extras, announced, plays = legal_shape(cfg, S, p)
    if not plays:
        return count_extras(extras)
    return count_extras(extras) + fill_hand_table(cfg, S, p) * announced


@njit(cache=True)
def announced_value(cfg, S, i):
    """The ``i``-th value a play may announce now (see :func:`legal_shape`)."""
    if S[S_RVALUE] >= 0:
        return S[S_RVALUE]
    if cfg[ANN] == 0:
        return i
    return S[cfg[O_ANN] + i]


@njit(cache=True)
def unrank_hand_play(cfg, S, p, k):
    """Write to ``O_PV``/``O_PC`` the ``k``-th multiset (engine order) that seat ``p`` can play; return its size.

    Needs the hand table (:func:`fill_hand_table`) of ``p``.
    """
    w, d, held, pv, pc = cfg[M] + 1, cfg[O_D], cfg[O_HELD], cfg[O_PV], cfg[O_PC]
    hand = cfg[O_HANDS] + p * cfg[V]
    size = 1
    while k >= S[d + size]:
        k -= S[d + size]
        size += 1
    rem = size
    n = 0
    for i in range(S[S_NHELD]):
        if rem == 0:
            break
        v = S[held + i]
        c = min(S[hand + v], rem)
        nxt = d + (i + 1) * w
        # More copies of a smaller value come first.
        while True:
            below = S[nxt + rem - c]
            if k < below:
                break
            k -= below
            c -= 1
        if c > 0:
            S[pv + n] = v
            S[pc + n] = c
            n += 1
            rem -= c
    S[S_PN] = n
    return size


@njit(cache=True)
def multiset_index(cfg, tab, S, size):
    """The engine's index (``PlayTable.multisets``) of the multiset of ``size`` cards at ``O_PV``/``O_PC``.

    Its rank among the multisets of its size is ``sum over v of (DG[v][rem_v] - sum_{j <= c_v} DG[v+1][rem_v - j])``
    (``rem_v`` = cards of the multiset from ``v`` on, ``DG`` the table with bound ``copies``); over a run of values
    it does not hold the terms telescope, so only its distinct values are visited.
    """
    w, dg, pv, pc = cfg[M] + 1, cfg[T_DG], cfg[O_PV], cfg[O_PC]
    rank = tab[cfg[T_OFFS] + size]
    rem = size
    start = 0
    for i in range(S[S_PN]):
        u = S[pv + i]
        c = S[pc + i]
        rank += tab[dg + start * w + rem]
        nxt = dg + (u + 1) * w + rem
        for j in range(c + 1):
            rank -= tab[nxt - j]
        rem -= c
        start = u + 1
    return rank


@njit(cache=True)
def decode_play(cfg, tab, S, action):
    """Write the cards of play ``action`` to ``O_PV``/``O_PC``; return ``(size, announced)``, ``(0, -1)`` if not a play."""
    values, copies, mp, w = cfg[V], cfg[C], cfg[M], cfg[M] + 1
    pv, pc, dg, offs = cfg[O_PV], cfg[O_PC], cfg[T_DG], cfg[T_OFFS]
    if action < FIRST_PLAY:
        return 0, -1
    index = (action - FIRST_PLAY) // values
    announced = (action - FIRST_PLAY) % values
    if index >= tab[offs + mp + 1]:
        return 0, -1
    size = 1
    while index >= tab[offs + size + 1]:
        size += 1
    k = index - tab[offs + size]
    rem = size
    n = 0
    for v in range(values):
        if rem == 0:
            break
        c = min(copies, rem)
        while True:
            below = tab[dg + (v + 1) * w + rem - c]
            if k < below:
                break
            k -= below
            c -= 1
        if c > 0:
            S[pv + n] = v
            S[pc + n] = c
            n += 1
            rem -= c
    S[S_PN] = n
    return size, announced


@njit(cache=True)
def pick(cfg, tab, S, p, extras, announced, r):
    """The ``r``-th legal action (ascending ids, as the engine lists them) of seat ``p``, whose legal actions have
    the shape ``extras, announced`` (:func:`legal_shape`) and whose hand table is filled. A play leaves its cards at
    ``O_PV``/``O_PC``."""
    for bit in range(3):
        if extras & (1 << bit):
            if r == 0:
                return bit  # LIAR = 0, PASS = 1, BURN = 2
            r -= 1
    if announced == 1:
        k = r
        value = announced_value(cfg, S, 0)
    else:
        k = r // announced
        value = announced_value(cfg, S, r - k * announced)
    size = unrank_hand_play(cfg, S, p, k)
    return FIRST_PLAY + multiset_index(cfg, tab, S, size) * cfg[V] + value


@njit(cache=True)
def action_at(cfg, tab, S, p, r):
    """The ``r``-th legal action of seat ``p`` (``0 <= r <`` :func:`legal_count`)."""
    extras, announced, plays = legal_shape(cfg, S, p)
    if plays:
        fill_hand_table(cfg, S, p)
    return pick(cfg, tab, S, p, extras, announced, r)


@njit(cache=True)
def is_legal(cfg, tab, S, action):
    """Whether ``action`` is legal for the seat to act (a player node); a play leaves its cards at ``O_PV``/``O_PC``."""
    p = S[S_CURRENT]
    extras, announced, plays = legal_shape(cfg, S, p)
    if action < FIRST_PLAY:
        return action >= 0 and (extras >> action) & 1 == 1
    if not plays:
        return False
    size, value = decode_play(cfg, tab, S, action)
    if size == 0:
        return False
    hand = cfg[O_HANDS] + p * cfg[V]
    for i in range(S[S_PN]):
        if S[cfg[O_PC] + i] > S[hand + S[cfg[O_PV] + i]]:
            return False
    for i in range(announced):
        if announced_value(cfg, S, i) == value:
            return True
    return False


# -------------------------------------------------------------------------------------------------- the moves


@njit(cache=True)
def apply_player_action(cfg, tab, S, action):
    """Apply a legal player action (a play's cards must be at ``O_PV``/``O_PC``), then count the turn and apply the
    turn cap. Keeps the record counters as ``records.records_from_snapshot`` reads them off the events."""
    p = S[S_CURRENT]
    if action == LIAR:
        call_liar(cfg, S, p)
    elif action == PASS:
        do_pass(cfg, S, p)
    elif action == BURN:
        burn(cfg, S, p)
    else:
        play(cfg, S, p, (action - FIRST_PLAY) % cfg[V])
    S[S_TURNS] += 1
    if S[S_END] == END_NONE and S[S_TURNS] >= cfg[MAXT]:
        finish(cfg, S, END_TURN_CAP)


@njit(cache=True)
def play(cfg, S, p, announced):
    """Seat ``p`` plays the cards at ``O_PV``/``O_PC`` face down, announcing ``announced``."""
    pv, pc, pcounts, n, values = cfg[O_PV], cfg[O_PC], cfg[O_PCOUNTS], cfg[N], cfg[V]
    hand = cfg[O_HANDS] + p * values
    hsize = cfg[O_HSIZE] + p
    pseat = cfg[O_PSEAT] + p * values
    lastv, lastc = cfg[O_LASTV], cfg[O_LASTC]
    size = 0
    true = 0
    for i in range(S[S_PN]):
        v = S[pv + i]
        c = S[pc + i]
        S[hand + v] -= c
        S[pcounts + v] += c
        S[pseat + v] += c
        S[lastv + i] = v
        S[lastc + i] = c
        size += c
        if v == announced:
            true = c
    S[S_LASTN] = S[S_PN]
    # Any card the others knew in this hand may be among those played: they know nothing of it any more.
    if S[cfg[O_KFLAG] + p]:
        for w in range(n):
            row = cfg[O_KNOWN] + (w * n + p) * values
            for v in range(values):
                S[row + v] = 0
        for v in range(values):
            S[cfg[O_REVEALED] + p * values + v] = 0
        S[cfg[O_KFLAG] + p] = 0
    S[hsize] -= size
    false = size - true
    plen = S[S_PLEN]
    if plen == 0:
        S[S_RSTARTER] = p
    elif cfg[FALSE_ACC] == 0:
        credit(cfg, S, plen)  # "covered": the play below can no longer be turned over
    S[cfg[O_PPLAYER] + plen] = p
    S[cfg[O_PFALSE] + plen] = false
    S[S_PLEN] = plen + 1
    S[S_PCARDS] += size
    S[S_RVALUE] = announced
    S[S_PASSES] = 0
    # Records: the play event.
    rec = cfg[O_REC] + p * NREC
    S[rec + R_PLAYS] += 1
    S[rec + R_CARDS_PLAYED] += size
    S[rec + R_FALSE_PLAYED] += false
    by_size = cfg[O_SIZE] + p * 3 * cfg[M] + size - 1
    mp = cfg[M]
    S[by_size] += 1
    if false > 0:
        S[by_size + mp] += 1
    S[by_size + 2 * mp] += false
    emptied = S[hsize] == 0
    if emptied:
        S[rec + R_LAST_PLAYS] += 1
        # A play on top of last cards (last_cards="until_covered") does not settle them: they are held.
        if S[S_LASTOUT] < 0:
            S[S_LASTOUT] = p
    going = S[S_GOING]
    if going >= 0:
        # last_cards="until_covered": covering the last cards ends their challenge window; they held.
        go_out(cfg, S, going)
        finish(cfg, S, END_OUT)
        return
    if emptied:
        S[S_GOING] = p
    S[S_CURRENT] = (p + 1) % n


@njit(cache=True)
def do_pass(cfg, S, p):
    """Seat ``p`` plays nothing; the last cards hold once all the others have passed."""
    S[S_PASSES] += 1
    S[rec_at(cfg, p, R_PASSES)] += 1
    going = S[S_GOING]
    if going >= 0 and S[S_PASSES] == cfg[N] - 1:
        go_out(cfg, S, going)
        finish(cfg, S, END_OUT)
        return
    S[S_CURRENT] = (p + 1) % cfg[N]


@njit(cache=True)
def call_liar(cfg, S, accuser):
    """Turn over the last play: a false card and its player picks up the pile, else the accuser does."""
    last = S[S_PLEN] - 1
    liar = S[cfg[O_PPLAYER] + last]
    false = S[cfg[O_PFALSE] + last]
    if false > 0:
        picker, starter = liar, accuser
        S[cfg[O_UNM] + accuser] += 1
    else:
        picker, starter = accuser, liar
        S[cfg[O_WRONG] + liar] += 1
    pile_size = S[S_PCARDS]
    # Records: the liar event.
    caught = false > 0
    S[rec_at(cfg, accuser, R_CALLS)] += 1
    S[rec_at(cfg, accuser, R_CALLS_WON if caught else R_CALLS_LOST)] += 1
    S[rec_at(cfg, liar, R_CHALLENGED)] += 1
    if caught:
        S[rec_at(cfg, liar, R_CAUGHT)] += 1
        S[rec_at(cfg, liar, R_CHALLENGED_BLUFFS)] += 1
        if S[S_LASTOUT] == liar:
            S[rec_at(cfg, liar, R_LAST_CAUGHT)] += 1
        S[S_LASTOUT] = -1
    # A wrong call on last cards leaves them held: the player goes out below.
    S[rec_at(cfg, picker, R_PICKUPS)] += 1
    S[rec_at(cfg, picker, R_PICKED_UP)] += pile_size
    # Every other player now knows the turned-over cards, and its own cards of the pile, are in the picker's hand.
    n, values = cfg[N], cfg[V]
    lastv, lastc = cfg[O_LASTV], cfg[O_LASTC]
    S[cfg[O_KFLAG] + picker] = 1
    for i in range(S[S_LASTN]):
        S[cfg[O_REVEALED] + picker * values + S[lastv + i]] += S[lastc + i]
    for w in range(n):
        if w == picker:
            continue
        row = cfg[O_KNOWN] + (w * n + picker) * values
        own = cfg[O_PSEAT] + w * values
        # Its own cards of the pile (the turned-over ones counted once), and the turned-over cards.
        for v in range(values):
            S[row + v] += S[own + v]
        if w != liar:
            for i in range(S[S_LASTN]):
                S[row + S[lastv + i]] += S[lastc + i]
    # The whole pile joins the picker's hand (the engine does not credit the plays below the last one here).
    for v in range(values):
        S[hand_at(cfg, picker, v)] += S[cfg[O_PCOUNTS] + v]
    S[cfg[O_HSIZE] + picker] += pile_size
    clear_pile(cfg, S)
    new_round(S, starter)
    going = S[S_GOING]
    if going >= 0:
        S[S_GOING] = -1
        if not caught:
            go_out(cfg, S, going)
            finish(cfg, S, END_OUT)


@njit(cache=True)
def burn(cfg, S, p):
    """The last player, after all the others passed, burns the pile and starts a new round."""
    credit(cfg, S, S[S_PLEN])
    S[rec_at(cfg, p, R_BURNS)] += 1
    S[rec_at(cfg, p, R_BURNED_CARDS)] += S[S_PCARDS]
    n, values = cfg[N], cfg[V]
    rv = S[S_RVALUE]  # every play of a round announces its value
    for q in range(n):
        claimed = 0
        for v in range(values):
            c = S[cfg[O_PSEAT] + q * values + v]
            S[cfg[O_BURNBY] + q * values + v] += c
            claimed += c
        S[cfg[O_CLAIMBURN] + q * values + rv] += claimed
    clear_pile(cfg, S)
    new_round(S, p)


@njit(cache=True)
def clear_pile(cfg, S):
    S[S_PLEN] = 0
    S[S_PCARDS] = 0
    S[S_CREDITED] = 0
    S[S_LASTN] = 0
    for v in range(cfg[V]):
        S[cfg[O_PCOUNTS] + v] = 0
    for i in range(cfg[N] * cfg[V]):
        S[cfg[O_PSEAT] + i] = 0


@njit(cache=True)
def new_round(S, starter):
    S[S_RVALUE] = -1
    S[S_RSTARTER] = starter
    S[S_PASSES] = 0
    S[S_CURRENT] = starter


@njit(cache=True)
def go_out(cfg, S, p):
    """Seat ``p`` is out (the engine's ``out`` event)."""
    S[cfg[O_OUT] + p] = 1
    if S[S_LASTOUT] == p:
        S[rec_at(cfg, p, R_LAST_HELD)] += 1


@njit(cache=True)
def credit(cfg, S, upto):
    """Score the false cards of the plays ``[credited, upto)`` of the pile: they were accepted."""
    for i in range(S[S_CREDITED], upto):
        S[cfg[O_FALSE] + S[cfg[O_PPLAYER] + i]] += S[cfg[O_PFALSE] + i]
    if upto > S[S_CREDITED]:
        S[S_CREDITED] = upto


@njit(cache=True)
def finish(cfg, S, end):
    """The game is over; whatever is still face down and unrevealed was accepted."""
    credit(cfg, S, S[S_PLEN])
    S[S_END] = end


# ------------------------------------------------------------------------------------------------------ results


@njit(cache=True)
def points_of(cfg, S, p):
    """Seat ``p``'s Trust Me points (every source, computed in both modes as the engine does)."""
    return (
        cfg[PG] * S[cfg[O_OUT] + p]
        + cfg[PC] * S[cfg[O_HSIZE] + p]
        + cfg[PF] * S[cfg[O_FALSE] + p]
        + cfg[PU] * S[cfg[O_UNM] + p]
        + cfg[PW] * S[cfg[O_WRONG] + p]
    )


@njit(cache=True)
def shared_ranks(keys, out):
    """Rank 1 for the smallest key; tied keys share the mean of the places they span (``scoring.shared_ranks``)."""
    n = keys.shape[0]
    for i in range(n):
        better = 0
        tied = 0
        for j in range(n):
            if keys[j] < keys[i]:
                better += 1
            elif keys[j] == keys[i]:
                tied += 1
        out[i] = better + (tied + 1) / 2


@njit(cache=True)
def results(cfg, S, ranks, points_ranks, returns):
    """Fill ``ranks`` (the engine's ``ranks()``), ``points_ranks`` (most points first) and ``returns``."""
    n = cfg[N]
    keys = returns  # scratch until the returns are written (float keys compare as the integers they hold)
    for p in range(n):
        keys[p] = -points_of(cfg, S, p)
    shared_ranks(keys, points_ranks)
    if cfg[MODE] == 0:
        # Classique: a player who went out sorts ahead of everyone, the others by cards left.
        for p in range(n):
            keys[p] = -1 if S[cfg[O_OUT] + p] else S[cfg[O_HSIZE] + p]
        shared_ranks(keys, ranks)
    else:
        ranks[:] = points_ranks
    if S[S_END] == END_NONE:
        returns[:] = 0.0
        return
    if cfg[UTIL] == 0:
        for p in range(n):
            above = 0
            below = 0
            for q in range(n):
                if ranks[q] > ranks[p]:
                    below += 1
                elif ranks[q] < ranks[p]:
                    above += 1
            returns[p] = (below - above) / (n - 1)
    elif cfg[UTIL] == 1:
        for p in range(n):
            returns[p] = float(points_of(cfg, S, p))
    else:
        total = 0
        for p in range(n):
            total += points_of(cfg, S, p)
        for p in range(n):
            x = points_of(cfg, S, p)
            returns[p] = x - (total - x) / (n - 1)


# ---------------------------------------------------------------------------------------------------- play

RANDOM = 0  # uniform over the legal actions
HEURISTIC = 1  # the heuristic bot's policy (:mod:`~trustme_analysis.games.liar.players.heuristic`), with the knobs handed to the play loop

#: The heuristic's knobs, in the order of ``heuristic.KNOB_NAMES`` (the kernel checks the names when it is built).
KNOB_ORDER = ("bluff_start", "bluff_per_card", "bluff_extra", "bluff_rate", "bluff_max_pile", "bluff_slack",
              "assumed_bluff", "call_threshold", "call_last_threshold", "call_rate", "burn_rate", "timeout_rate")
(K_BLUFF_START, K_PER_CARD, K_EXTRA, K_BLUFF_RATE, K_MAX_PILE, K_SLACK, K_PRIOR, K_CALL, K_CALL_LAST, K_CALL_RATE,
 K_BURN, K_TIMEOUT) = range(len(KNOB_ORDER))

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)

#: Per-seat integer columns of :func:`play_random`, in order (then the record counters of ``kernel_core``).
SEAT_INTS = (
    "dealt", "start_hand", "cards_left", "went_out", "points", "points_going_out", "points_cards_in_hand",
    "points_false_cards", "points_unmasked", "points_wrongly_accused",
)
_NSI = len(SEAT_INTS)
ERR_NO_ACTION = 1  # a seat to act had no legal action (the engine would return an empty list)


@njit(cache=True)
def next_u64(rng):
    """The next output of the SplitMix64 stream whose state is ``rng[0]``."""
    rng[0] += _GAMMA
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def _mul128(a, b):
    """``(high, low)`` 64-bit halves of the 128-bit product of two uint64 (numba has no 128-bit integers)."""
    a_lo, a_hi = a & _LOW32, a >> _S32
    b_lo, b_hi = b & _LOW32, b >> _S32
    lolo = a_lo * b_lo
    hilo = a_hi * b_lo
    cross = (lolo >> _S32) + (hilo & _LOW32) + a_lo * b_hi
    high = (hilo >> _S32) + (cross >> _S32) + a_hi * b_hi
    low = (cross << _S32) | (lolo & _LOW32)
    return high, low


@njit(cache=True)
def rand_below(rng, n):
    """A uniform integer in ``[0, n)`` (``0 < n < 2**63``), exactly, as
    :meth:`trustme_analysis.engine.draws.GameStream.below` draws it (the draw protocol): D. Lemire's multiply-and-reject
    ("Fast random integer generation in an interval", ACM TOMACS 29(1), 2019) on the top 32 bits of an output below
    ``2**32``, on the whole output (a 128-bit product) from there (a deal of many copies into many cards)."""
    un = np.uint64(n)
    if un <= _LOW32:
        m = (next_u64(rng) >> _S32) * un
        low = m & _LOW32
        if low < un:
            floor = (_TWO32 - un) % un
            while low < floor:
                m = (next_u64(rng) >> _S32) * un
                low = m & _LOW32
        return np.int64(m >> _S32)
    high, low = _mul128(next_u64(rng), un)
    if low < un:
        threshold = (np.uint64(0) - un) % un
        while low < threshold:
            high, low = _mul128(next_u64(rng), un)
    return np.int64(high)


@njit(cache=True)
def sample_deal(cfg, tab, S, rng):
    """A chance outcome (split index) of the next value by the draw protocol over the engine's integer weights
    (``deal.split_weights``: every possible split in index order, weighted by its number of deals): one possible
    split draws nothing; else one integer ``r`` below ``C(room, copies)`` (all deals of the value's copies into the
    cards still to be dealt) picks the split whose block of deals holds it, found seat by seat without listing the
    splits."""
    n, cp1, target, hsize = cfg[N], cfg[C] + 1, cfg[O_TARGET], cfg[O_HSIZE]
    binom, split = cfg[T_BINOM], cfg[T_SPLIT]
    rem = cfg[C]
    rest = 0
    forced = 0
    for s in range(n):
        room = S[target + s] - S[hsize + s]
        rest += room
        forced += min(room, rem)
    # One possible split exactly when every seat must take all it can (the seats' room for the value adds up to the
    # copies); the draw below would then pick it too, but the protocol draws nothing for a sure outcome.
    lone = forced == rem
    r = 0 if lone else rand_below(rng, tab[binom + rest * cp1 + rem])
    index = 0
    for s in range(n - 1):
        room = S[target + s] - S[hsize + s]
        rest -= room
        c = 0
        while True:
            # Deals giving k_s = c: C(room, c) for this seat times C(rest, rem - c) for the seats after it
            # (Vandermonde), in the engine's (lexicographic) order; within the block every split of the later seats
            # has C(room, c) times its own deals, so ``r // C(room, c)`` walks their blocks the same way.
            first = tab[binom + room * cp1 + c] if c <= room else 0
            block = first * tab[binom + rest * cp1 + rem - c] if rem - c <= rest else 0
            if r < block:
                if first > 1:
                    r //= first
                break
            r -= block
            index += tab[split + (s + 1) * cp1 + rem - c]
            c += 1
        rem -= c
    return index


@njit(cache=True)
def sample_chance(cfg, tab, S, rng):
    """A chance outcome by the draw protocol: the first player (every seat weight 1; two seats at least), or the next
    value's split."""
    if S[S_FIRST] < 0:
        return rand_below(rng, cfg[N])
    return sample_deal(cfg, tab, S, rng)


@njit(cache=True)
def apply_chance(cfg, tab, S, action):
    """Apply a chance outcome: seat the first player, or deal the next value."""
    if S[S_FIRST] < 0:
        start(cfg, S, action)
    else:
        apply_deal(cfg, tab, S, action)


@njit(cache=True)
def sample_uniform(cfg, tab, S, rng):
    """A uniform legal action of the seat to act (a play's cards left at ``O_PV``/``O_PC``); -1 if there is none."""
    p = S[S_CURRENT]
    extras, announced, plays = legal_shape(cfg, S, p)
    count = count_extras(extras)
    if plays:
        count += fill_hand_table(cfg, S, p) * announced
    if count == 0:
        return -1
    return pick(cfg, tab, S, p, extras, announced, rand_below(rng, count))


@njit(cache=True)
def choose(cfg, tab, S, rng, kinds, knobs):
    """The action of the seat to act, by its kind (:data:`RANDOM` or :data:`HEURISTIC`; a heuristic seat plays with
    its own row of ``knobs``, one row per seat); a play leaves its cards at ``O_PV``/``O_PC``."""
    if kinds[S[S_CURRENT]] == HEURISTIC:
        return heuristic_sample(cfg, tab, S, knobs[S[S_CURRENT]], rng)
    return sample_uniform(cfg, tab, S, rng)


@njit(cache=True)
def step(cfg, tab, S, rng, kinds, knobs):
    """Draw and apply one action (chance or player); return it, or -1 if a seat had no legal action."""
    if current_player(cfg, S) == CHANCE:
        a = sample_chance(cfg, tab, S, rng)
        apply_chance(cfg, tab, S, a)
        return a
    a = choose(cfg, tab, S, rng, kinds, knobs)
    if a >= 0:
        apply_player_action(cfg, tab, S, a)
    return a


@njit(cache=True)
def deal_only(cfg, tab, S, seed):
    """Resolve the deal of a fresh position with the stream of ``seed`` (as :func:`play_random` does first).

    Returns the chance actions taken.
    """
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(cfg[V] + 1, dtype=np.int64)
    i = 0
    while current_player(cfg, S) == CHANCE:
        a = sample_chance(cfg, tab, S, rng)
        apply_chance(cfg, tab, S, a)
        out[i] = a
        i += 1
    return out[:i]


@njit(cache=True)
def _grow(buf, used, need):
    if used + need <= buf.shape[0]:
        return buf
    bigger = np.empty(max(2 * buf.shape[0], used + need), dtype=buf.dtype)
    bigger[:used] = buf[:used]
    return bigger


@njit(cache=True)
def play_random(cfg, tab, seeds, kinds, knobs, want_hist):
    """One game per seed, every seat of its kind; the record fields of every seat, columnar.

    Returns ``(game_ints, seat_ints, seat_floats, by_size, returns, trace, trace_offsets, hist, hist_offsets,
    error)``: ``game_ints[g] = (turns, end code, first player)``; ``seat_ints[g, p]`` = :data:`SEAT_INTS` then the record counters;
    ``seat_floats[g, p] = (rank, points_rank)``; ``by_size[g, p, j, size - 1]`` for the three per-size lists;
    ``trace[trace_offsets[g]:trace_offsets[g + 1]]`` = cards shed by every seat after each player turn (turn-major);
    ``hist`` likewise the actions (chance included) when ``want_hist``; ``error`` is 0 or :data:`ERR_NO_ACTION`.
    """
    G = seeds.shape[0]
    n, mp = cfg[N], cfg[M]
    S = np.empty(cfg[SIZE], dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    game_ints = np.zeros((G, 3), dtype=np.int64)
    seat_ints = np.zeros((G, n, _NSI + NREC), dtype=np.int64)
    seat_floats = np.zeros((G, n, 2), dtype=np.float64)
    by_size = np.zeros((G, n, 3, mp), dtype=np.int32)
    returns = np.zeros((G, n), dtype=np.float64)
    trace = np.empty(max(4096, G * n * 16), dtype=np.int16)  # grows by doubling
    trace_offsets = np.zeros(G + 1, dtype=np.int64)
    hist = np.empty(max(4096, G * 64) if want_hist else 0, dtype=np.int32)
    hist_offsets = np.zeros(G + 1, dtype=np.int64)
    tpos = 0
    hpos = 0
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    for g in range(G):
        init_state(cfg, S)
        rng[0] = seeds[g]
        while True:
            p = current_player(cfg, S)
            if p == TERMINAL:
                break
            a = step(cfg, tab, S, rng, kinds, knobs)
            if a < 0:
                return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets,
                        hist[:hpos], hist_offsets, ERR_NO_ACTION)
            if want_hist:
                if hpos == hist.shape[0]:
                    hist = _grow(hist, hpos, 1)
                hist[hpos] = a
                hpos += 1
            if p >= 0:
                if tpos + n > trace.shape[0]:
                    trace = _grow(trace, tpos, n)
                for q in range(n):
                    trace[tpos + q] = S[cfg[O_START] + q] - S[cfg[O_HSIZE] + q]
                tpos += n
        trace_offsets[g + 1] = tpos
        hist_offsets[g + 1] = hpos
        game_ints[g, 0] = S[S_TURNS]
        game_ints[g, 1] = S[S_END]
        game_ints[g, 2] = S[S_FIRST]
        results(cfg, S, ranks, points_ranks, rets)
        for p in range(n):
            row = seat_ints[g, p]
            row[0] = S[cfg[O_TARGET] + p]
            row[1] = S[cfg[O_START] + p]
            row[2] = S[cfg[O_HSIZE] + p]
            row[3] = S[cfg[O_OUT] + p]
            row[4] = points_of(cfg, S, p)
            row[5] = cfg[PG] * S[cfg[O_OUT] + p]
            row[6] = cfg[PC] * S[cfg[O_HSIZE] + p]
            row[7] = cfg[PF] * S[cfg[O_FALSE] + p]
            row[8] = cfg[PU] * S[cfg[O_UNM] + p]
            row[9] = cfg[PW] * S[cfg[O_WRONG] + p]
            for f in range(NREC):
                row[_NSI + f] = S[rec_at(cfg, p, f)]
            for j in range(3):
                for size in range(1, mp + 1):
                    by_size[g, p, j, size - 1] = S[size_at(cfg, p, j, size)]
            seat_floats[g, p, 0] = ranks[p]
            seat_floats[g, p, 1] = points_ranks[p]
            returns[g, p] = rets[p]
    return (game_ints, seat_ints, seat_floats, by_size, returns, trace[:tpos], trace_offsets, hist[:hpos],
            hist_offsets, 0)


@njit(cache=True)
def rollouts(cfg, tab, S0, count, seed, kinds, knobs):
    """Mean returns of ``count`` playouts from position ``S0`` (one SplitMix64 stream from ``seed``).

    Returns ``(means, error)``.
    """
    n = cfg[N]
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    total = np.zeros(n, dtype=np.float64)
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    for _ in range(count):
        S[:] = S0
        while current_player(cfg, S) != TERMINAL:
            if step(cfg, tab, S, rng, kinds, knobs) < 0:
                return total, ERR_NO_ACTION
        results(cfg, S, ranks, points_ranks, rets)
        total += rets
    return total / max(count, 1), 0


@njit(cache=True)
def sample_actions(cfg, tab, S0, count, seed, kinds, knobs):
    """``count`` independent draws of the action at position ``S0`` (chance by its probabilities, seats by kind)."""
    S = S0.copy()
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    out = np.empty(count, dtype=np.int64)
    chance = current_player(cfg, S) == CHANCE
    for i in range(count):
        if chance:
            out[i] = sample_chance(cfg, tab, S, rng)
        else:
            out[i] = choose(cfg, tab, S, rng, kinds, knobs)
    return out


@njit(cache=True)
def legal_actions(cfg, tab, S):
    """Every legal action of the seat to act, ascending (the engine's ``legal_actions()``)."""
    p = S[S_CURRENT]
    out = np.empty(legal_count(cfg, S, p), dtype=np.int64)
    extras, announced, plays = legal_shape(cfg, S, p)
    write_legal(cfg, tab, S, p, extras, announced, plays, out, 0)
    return out


@njit(cache=True)
def write_legal(cfg, tab, S, p, extras, announced, plays, out, at):
    """Write seat ``p``'s legal actions, ascending, to ``out[at:]``; return how many. ``extras, announced, plays``
    are :func:`legal_shape`'s and the hand table must be filled when ``plays``: one listing for
    :func:`legal_actions` and the tree enumerator, which writes straight into its stack of children."""
    i = at
    for bit in range(3):
        if extras & (1 << bit):
            out[i] = bit
            i += 1
    if plays:
        values = cfg[V]
        d = cfg[O_D]
        playable = 0
        for r in range(1, cfg[M] + 1):
            playable += S[d + r]
        for j in range(playable):
            size = unrank_hand_play(cfg, S, p, j)
            base = FIRST_PLAY + multiset_index(cfg, tab, S, size) * values
            for a in range(announced):
                out[i] = base + announced_value(cfg, S, a)
                i += 1
    return i - at


@njit(cache=True)
def nth_legal(cfg, tab, S, r):
    """The ``r``-th legal action as the uniform sampler computes it (without listing); for tests."""
    return action_at(cfg, tab, S, S[S_CURRENT], r)


@njit(cache=True)
def chance_outcomes(cfg, tab, S):
    """``(ids, probabilities)`` of the chance node: the first player (every seat 1/n), or the next value's splits
    with at least one deal (the engine's order)."""
    cap = cfg[N] if S[S_FIRST] < 0 else split_count(cfg, tab)
    ids = np.empty(cap, dtype=np.int64)
    probs = np.empty(cap, dtype=np.float64)
    j = write_chance(cfg, tab, S, ids, probs, 0)
    return ids[:j], probs[:j]


@njit(cache=True)
def write_chance(cfg, tab, S, ids, probs, at):
    """Write the chance node's outcomes (:func:`chance_outcomes`) to ``ids[at:]`` and ``probs[at:]``; return how
    many (at most ``N`` for the first player, else :func:`split_count`)."""
    if S[S_FIRST] < 0:
        n = cfg[N]
        for p in range(n):
            ids[at + p] = p
            probs[at + p] = 1.0 / n
        return n
    count = split_count(cfg, tab)
    total = deal_total(cfg, tab, S)
    j = at
    for index in range(count):
        ways = split_ways(cfg, tab, S, index)
        if ways > 0:
            ids[j] = index
            # Both below 2**53, so the float division is the exact quotient correctly rounded, as Python's int / int.
            probs[j] = ways / total
            j += 1
    return j - at


@njit(cache=True)
def apply_checked(cfg, tab, S, action):
    """Apply ``action`` if legal at ``S``; return whether it was."""
    p = current_player(cfg, S)
    if p == TERMINAL:
        return False
    if p == CHANCE:
        if S[S_FIRST] < 0:
            if action < 0 or action >= cfg[N]:
                return False
        elif action < 0 or action >= split_count(cfg, tab) or split_ways(cfg, tab, S, action) == 0:
            return False
        apply_chance(cfg, tab, S, action)
        return True
    if not is_legal(cfg, tab, S, action):
        return False
    apply_player_action(cfg, tab, S, action)
    return True


@njit(cache=True)
def state_results(cfg, S):
    """``(ranks, points_ranks, returns)`` of position ``S`` (returns are zeros before the end)."""
    n = cfg[N]
    ranks = np.empty(n, dtype=np.float64)
    points_ranks = np.empty(n, dtype=np.float64)
    rets = np.empty(n, dtype=np.float64)
    results(cfg, S, ranks, points_ranks, rets)
    return ranks, points_ranks, rets


# ------------------------------------------------------------------------------------------------ the heuristic
# The heuristic bot's policy (trustme_analysis.games.liar.players.heuristic.policy) over the state array, for rollouts.
# Every probability is computed with the same operations in the same order as there, and the tests compare the two
# distributions at random positions (to 1e-12).


@njit(cache=True)
def uniform01(rng):
    """A uniform double in [0, 1) (the top 53 bits of the next output)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def binom_f(a, b):
    """C(a, b) as a float, multiplied out as ``heuristic._binom`` does."""
    if b < 0 or b > a:
        return 0.0
    out = 1.0
    for i in range(1, b + 1):
        out = out * (a - b + i) / i
    return out


@njit(cache=True)
def binom_i(a, b):
    """C(a, b) as an exact integer (small arguments)."""
    if b < 0 or b > a:
        return 0
    out = 1
    for i in range(1, b + 1):
        out = out * (a - b + i) // i
    return out


@njit(cache=True)
def holds_at_least(pool, good, drawn, k):
    """``heuristic.holds_at_least``: P(X >= k), X hypergeometric (``drawn`` of ``pool``, ``good`` good)."""
    if k <= 0:
        return 1.0
    drawn = min(drawn, pool)
    if good < k or drawn < k:
        return 0.0
    total = binom_f(pool, drawn)
    below = 0.0
    for x in range(max(0, drawn - (pool - good)), k):
        below += binom_f(good, x) * binom_f(pool - good, drawn - x) / total
    return max(0.0, 1.0 - below)


@njit(cache=True)
def fill_unseen(cfg, S, p):
    """``heuristic.unseen_copies`` of seat ``p`` into ``O_UNSEEN``; returns their total."""
    n, values = cfg[N], cfg[V]
    out = cfg[O_UNSEEN]
    total = 0
    for v in range(values):
        k = 0
        for h in range(n):
            k += S[cfg[O_KNOWN] + (p * n + h) * values + v]
        u = (cfg[C] - S[cfg[O_DISC] + v] - S[hand_at(cfg, p, v)] - S[cfg[O_PSEAT] + p * values + v]
             - S[cfg[O_BURNBY] + p * values + v] - k)
        S[out + v] = u
        total += u
    return total


@njit(cache=True)
def bluff_chance(cfg, S, p, prior):
    """``heuristic.bluff_chance``: the chance, as seat ``p`` sees it, that the play open to a challenge is a bluff."""
    n, values = cfg[N], cfg[V]
    total_unseen = fill_unseen(cfg, S, p)
    value = S[S_RVALUE]
    liar = S[cfg[O_PPLAYER] + S[S_PLEN] - 1]
    count = 0
    for i in range(S[S_LASTN]):
        count += S[cfg[O_LASTC] + i]
    unseen_v = S[cfg[O_UNSEEN] + value]
    if count > unseen_v:
        return 1.0
    own = 0
    for v in range(values):
        own += S[cfg[O_PSEAT] + p * values + v]
    earlier = S[S_PCARDS] - count - own
    claims = 0
    burned = 0
    for q in range(n):
        if q != p:
            claims += S[cfg[O_CLAIMBURN] + q * values + value]
            for v in range(values):
                burned += S[cfg[O_BURNBY] + q * values + v]
    good = max(0, unseen_v - earlier - claims)
    pool = max(good, total_unseen - earlier - burned)
    drawn = S[cfg[O_HSIZE] + liar] + count
    held = holds_at_least(pool, good, drawn, count)
    if S[S_PLEN] == 1:
        one = holds_at_least(pool, good, drawn, 1)
        if held <= 0.0 or one <= 0.0:
            return 1.0
        return prior / (prior + (1.0 - prior) * (held / one))
    if held <= 0.0:
        return 1.0
    return prior * (1.0 - held) / (prior * (1.0 - held) + held)


@njit(cache=True)
def bluff_room(cfg, S, p, value, slack):
    """``heuristic.bluff_room``."""
    values = cfg[V]
    return (S[hand_at(cfg, p, value)] + S[cfg[O_PSEAT] + p * values + value] + S[cfg[O_BURNBY] + p * values + value]
            + slack - S[S_PCARDS])


@njit(cache=True)
def fill_others(cfg, S, p, value):
    """List at ``O_OTHERS`` the values seat ``p`` holds other than ``value`` (ascending); return how many."""
    m = 0
    for v in range(cfg[V]):
        if v != value and S[hand_at(cfg, p, v)] > 0:
            S[cfg[O_OTHERS] + m] = v
            m += 1
    return m


@njit(cache=True)
def set_play(cfg, tab, S, value, true, announced, picks, take):
    """Write the play of ``true`` cards of ``value`` and one card of each of ``picks[:take]`` at ``O_PV``/``O_PC``
    (ascending values) and return its action id."""
    pv, pc = cfg[O_PV], cfg[O_PC]
    n = 0
    size = true
    if true > 0:
        S[pv] = value
        S[pc] = true
        n = 1
    for j in range(take):
        u = picks[j]
        # Insertion into the ascending list.
        i = n
        while i > 0 and S[pv + i - 1] > u:
            S[pv + i] = S[pv + i - 1]
            S[pc + i] = S[pc + i - 1]
            i -= 1
        S[pv + i] = u
        S[pc + i] = 1
        n += 1
        size += 1
    S[S_PN] = n
    return FIRST_PLAY + multiset_index(cfg, tab, S, size) * cfg[V] + announced


@njit(cache=True)
def timeout_move(cfg, tab, S, p):
    """``state.timeout_action``: the starter's lowest card played truthfully, else a pass (a burn for the last
    player after all the others passed)."""
    if S[S_GOING] >= 0:
        return PASS
    if S[S_RVALUE] < 0:
        lowest = 0
        while S[hand_at(cfg, p, lowest)] == 0:
            lowest += 1
        picks = np.empty(0, dtype=np.int64)
        return set_play(cfg, tab, S, lowest, 1, lowest, picks, 0)
    if S[cfg[O_PPLAYER] + S[S_PLEN] - 1] == p:
        return BURN
    return PASS


@njit(cache=True)
def start_choice(cfg, S, p, chosen):
    """The values a starting heuristic may announce (held most, then fewest unseen) into ``chosen``; return
    ``(how many, cards of each held)``. Needs ``O_UNSEEN`` filled."""
    values = cfg[V]
    most = 0
    for v in range(values):
        most = max(most, S[hand_at(cfg, p, v)])
    fewest = 1 << 40
    for v in range(values):
        if S[hand_at(cfg, p, v)] == most:
            fewest = min(fewest, S[cfg[O_UNSEEN] + v])
    m = 0
    for v in range(values):
        if S[hand_at(cfg, p, v)] == most and S[cfg[O_UNSEEN] + v] == fewest:
            chosen[m] = v
            m += 1
    return m, most


@njit(cache=True)
def heuristic_sample(cfg, tab, S, knobs, rng):
    """One action of the seat to act drawn from the heuristic's policy (:func:`heuristic_distribution`, an action's
    entries added up) by the draw protocol: a sure action draws nothing, else one uniform number walks the actions in
    ascending id order. A play leaves its cards at ``O_PV``/``O_PC``."""
    values = cfg[V]
    subsets = 1
    for take in range(1, min(np.int64(knobs[K_EXTRA]), values - 1) + 1):
        subsets = max(subsets, binom_i(values - 1, take))
    size = 4 + values * (1 + subsets) + values
    actions = np.empty(size, dtype=np.int64)
    probs = np.empty(size, dtype=np.float64)
    k = heuristic_distribution(cfg, tab, S, knobs, actions, probs)
    # Ascending ids, an action's entries added up in the order listed (insertion sort: a few dozen entries).
    m = 0
    for i in range(k):
        a, x = actions[i], probs[i]
        j = 0
        while j < m and actions[j] < a:
            j += 1
        if j < m and actions[j] == a:
            probs[j] += x
            continue
        for t in range(m, j, -1):
            actions[t] = actions[t - 1]
            probs[t] = probs[t - 1]
        actions[j] = a
        probs[j] = x
        m += 1
    last, positive = -1, 0
    for i in range(m):
        if probs[i] > 0.0:
            last = i
            positive += 1
    chosen = actions[last]
    if positive > 1:
        u = uniform01(rng)
        for i in range(m):
            if probs[i] > 0.0:
                if u < probs[i]:
                    chosen = actions[i]
                    break
                u -= probs[i]
    if chosen >= FIRST_PLAY:
        decode_play(cfg, tab, S, chosen)
    return chosen


@njit(cache=True)
def _next_combo(idx, m, k):
    """Advance ``idx[:k]`` to the next k-subset of range(m) in lexicographic order; False after the last."""
    i = k - 1
    while i >= 0 and idx[i] == m - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def heuristic_distribution(cfg, tab, S, knobs, actions, probs):
    """Every action of the heuristic's policy at ``S`` with its probability, into ``actions``/``probs`` (an action
    may appear twice, e.g. the time-out's play among the intended ones); returns how many. For tests."""
    p = S[S_CURRENT]
    values, mp = cfg[V], cfg[M]
    keep = 1.0 - knobs[K_TIMEOUT]
    k = 0
    if knobs[K_TIMEOUT] > 0.0:
        actions[k] = timeout_move(cfg, tab, S, p)
        probs[k] = knobs[K_TIMEOUT]
        k += 1
    picks = np.empty(values, dtype=np.int64)
    if S[S_GOING] >= 0:
        call = 1.0 if bluff_chance(cfg, S, p, knobs[K_PRIOR]) >= knobs[K_CALL_LAST] else knobs[K_CALL_RATE]
        actions[k] = LIAR
        probs[k] = call * keep
        actions[k + 1] = PASS
        probs[k + 1] = (1.0 - call) * keep
        return k + 2
    if S[S_RVALUE] < 0:
        fill_unseen(cfg, S, p)
        chosen = np.empty(values, dtype=np.int64)
        m, most = start_choice(cfg, S, p, chosen)
        hand_size = S[cfg[O_HSIZE] + p]
        chance = min(1.0, knobs[K_BLUFF_START] + knobs[K_PER_CARD] * hand_size)
        share = 1.0 / m
        idx = np.empty(values, dtype=np.int64)
        for c in range(m):
            value = chosen[c]
            true = min(most, mp)
            room = bluff_room(cfg, S, p, value, np.int64(knobs[K_SLACK]))
            extra = min(np.int64(knobs[K_EXTRA]), mp - true, room - true)
            others = fill_others(cfg, S, p, value) if extra > 0 else 0
            if others == 0:
                actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
                probs[k] = share * keep
                k += 1
                continue
            actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
            probs[k] = share * (1.0 - chance) * keep
            k += 1
            take = min(extra, others)
            each = 1.0 / binom_i(others, take)
            for j in range(take):
                idx[j] = j
            while True:
                for j in range(take):
                    picks[j] = S[cfg[O_OTHERS] + idx[j]]
                actions[k] = set_play(cfg, tab, S, value, true, value, picks, take)
                probs[k] = share * chance * each * keep
                k += 1
                if not _next_combo(idx, others, take):
                    break
        return k
    value = S[S_RVALUE]
    adding = S[cfg[O_PPLAYER] + S[S_PLEN] - 1] == p
    rest = 1.0
    if not adding:
        call = 1.0 if bluff_chance(cfg, S, p, knobs[K_PRIOR]) >= knobs[K_CALL] else knobs[K_CALL_RATE]
        actions[k] = LIAR
        probs[k] = call * keep
        k += 1
        rest = 1.0 - call
    true = min(S[hand_at(cfg, p, value)], mp)
    if true > 0:
        actions[k] = set_play(cfg, tab, S, value, true, value, picks, 0)
        probs[k] = rest * keep
        return k + 1
    others = fill_others(cfg, S, p, value)
    small = S[S_PCARDS] <= np.int64(knobs[K_MAX_PILE])
    if adding:
        stop, bluff = BURN, (1.0 - knobs[K_BURN] if small else 0.0)
    else:
        stop, bluff = PASS, (knobs[K_BLUFF_RATE] if small else 0.0)
    if others == 0 or bluff_room(cfg, S, p, value, np.int64(knobs[K_SLACK])) < 1:
        bluff = 0.0
    actions[k] = stop
    probs[k] = rest * (1.0 - bluff) * keep
    k += 1
    for j in range(others):
        picks[0] = S[cfg[O_OTHERS] + j]
        actions[k] = set_play(cfg, tab, S, value, 0, value, picks, 1)
        probs[k] = rest * bluff * (1.0 / others) * keep
        k += 1
    return k
