"""What a trained Liar player remembers of a position and of each move: the abstraction of its policy table.

A slot of the trained policy is a pair (position key, move description) (:mod:`trustme_analysis.train.tables`).
:func:`info_key` turns a compiled position (:mod:`.layout`) and a seat into a 64-bit *position key*; :func:`row_of`
lists the seat's moves as *descriptions* (what a play does, not which cards it holds), computed from the hand's
counts without listing the legal plays (a round's starter in the 52-card game has up to ~14,000 of them). Both read
only what that seat may see at the table or remember from public play. In the rule text's words:

The position key (level 0, ``detail = 0``) holds

- **the decision**: starting a round (announce a value), answering a play (call liar, pass or play on), adding to or
  burning a pile all the others passed on, answering a player's last cards;
- **your hand**: how many cards you hold (1, 2, 3, 4-5, 6-8, 9 or more); when you start a round, also how many
  values you hold (up to 6) and the most cards of one value (up to 3);
- **the other hands**: the fewest cards another player still in the game holds (the same buckets) and, with three
  players or more, the next player's;
- **the pile**: its size (none, 1-2, 3-5, 6 or more);
- **the time**: the turns left before the turn cap stops the game, counted up to twice round the table (the cap
  decides the reduced variants; in the full game, whose cap is 1,000 turns, it never shows);
- **the claim** (answering a play, adding or burning): how many cards the last play claimed (up to 3); how many of
  the announced value you hold (up to 2); the *room* the claims leave: the copies of the value you cannot place
  minus the cards the other players claimed of it in this pile (-1 or less: somebody lied, 0, 1, 2 or more). The
  copies you cannot place are those *not known gone*: not among the public pair discards, in your hand, among your
  own cards in the pile or burned, or among the cards you saw go into another hand;
- **who has been caught**: how often the last player (the one the claim belongs to) was caught lying (up to 2);
  with three players or more also its place from you and how many seats passed since.

The fine level (``detail >= 1``) adds your hand, the public pair discards, your cards in the pile and burned and
the cards you know in other hands, value by value; every hand's size; the pile's plays (who played each), the round
value, the passes and the turn; each seat's public counts (plays, cards played, passes, calls and calls won, times
caught, burns, pickups and cards picked up, unmaskings, wrong accusations, cards claimed in burned piles) and your
own accepted false cards. On the reduced variants of the solve presets that is (nearly) the information set itself.

A move is described (level 0; at the fine level each move is itself) as

- **call liar**, **pass** and **burn** as themselves;
- **a play** by the cards it holds (1 to ``max_play``), how many of them are true (of the announced value), and
  whether it is your last cards; when you start a round, also by the announced value's standing: how many of it you
  hold and how many of its copies you cannot place (0, 1, 2 or more);
- **the heuristic's mark** (version 3): whether the heuristic player (:mod:`.heuristic`, with the bot's default
  knobs) would never make a move of that description here, make one sometimes, or make one at least half as often as
  its favourite. The heuristic reads only the seat's own view (its card counting and its odds that the claim is a
  bluff), so the mark does too; it carries what the heuristic weighs (whether the claim is likely a lie, which value
  to announce, whether a bluff has room) without a row per combination of them.

Each row also carries the heuristic's probability of its entries, the *prior* (:func:`heuristic_prior`): the training
starts every new entry there (``TrainSettings.prior``) and a trained player plays it where the training never reached
the row (:func:`~trustme_analysis.train.tables.known_row`), instead of playing every description alike. Version 2 had
neither: its 2-player policy lost to the "always challenge" probe 66.5% of games and to "never bluff" 70.8% with 4
players (``docs/games/liar.rst``).

Plays described alike are one move to the trained player at level 0: a drawn description becomes a concrete play by drawing
the announced value uniformly among those of that standing, then the false cards as physical cards uniformly from
the rest of the hand (:func:`sample_play`); :func:`play_share` is the probability of one concrete play under that
rule, so a stated policy is the trained seat's own.

Nothing here reads another player's hand, the face-down cards of the pile (which values the plays held, their false
cards), another player's burned cards, another player's secret bluff points or what another player knows
(``tests/games/test_liar_trained.py`` redeals all of that with the engine's ``resample_from_infostate`` at many
positions and checks that no key moves, and checks on compiled trees that every history of one information set
gives one key).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.liar.kernel import actions, heuristic, layout
from trustme_analysis.games.liar.kernel.actions import legal_shape, multiset_index, write_legal, fill_hand_table
from trustme_analysis.games.liar.kernel.heuristic import buffer_entries, heuristic_distribution, split_buffer
from trustme_analysis.games.liar.kernel.layout import (
    ANN, BURN, C, FIRST_PLAY, K_EXTRA, LIAR, M, MAXT, N, NREC, O_BURNBY, O_CLAIMBURN, O_DISC, O_FALSE, O_HANDS, O_HSIZE, O_KNOWN,
    O_LASTC, O_OUT, O_PC, O_PPLAYER, O_PSEAT, O_PV, O_REC, O_REVEALED, O_UNM, O_WRONG, PASS, R_BURNS, R_CALLS,
    R_CALLS_WON, R_CARDS_PLAYED, R_CAUGHT, R_PASSES, R_PICKED_UP, R_PICKUPS, R_PLAYS, S_GOING, S_LASTN,
    S_PASSES, S_PCARDS, S_PLEN, S_PN, S_RVALUE, S_TURNS, V,
)
from trustme_analysis.train import tables as T
from trustme_analysis.train.tables import combine

inlined = njit(cache=True, inline="always")
compiled = njit(cache=True)

#: Bumped whenever :func:`info_key` or the move descriptions change meaning: stored policies of another version are
#: stale.
VERSION = 3

#: The heuristic bot's default knobs (``LiarKnobs().array()``; a test keeps the two equal): the heuristic whose
#: choices the coarse level marks on each move and whose row is the trained player's prior.
DEFAULT_KNOBS = np.array([0.3, 0.0, 1.0, 0.3, 8.0, 0.0, 0.3, 0.5, 0.3, 0.0, 0.8, 0.0])
#: A coarse slot's move is ``description + MARK * mark`` (the heuristic's mark, :func:`row_of`); descriptions stay
#: far below it.
MARK = 1 << 20

#: The most entries of one policy row (descriptions at level 0; legal actions at level 1, where the variants are
#: small). Level 0 needs at most 3 + (values x 3 classes) x max_play x (max_play + 1) entries.
MAXROW = 1024

#: Decisions (the first part of every position key).
D_START, D_ANSWER, D_ADD_OR_BURN, D_LAST_CARDS = 0, 1, 2, 3

#: Public record counters the fine level reads (every one is an event all players saw).
PUBLIC_RECORDS = (R_PLAYS, R_CARDS_PLAYED, R_PASSES, R_CALLS, R_CALLS_WON, R_CAUGHT, R_BURNS, R_PICKUPS,
                  R_PICKED_UP)


@inlined
def _hand_bucket(h):
    """Cards in a hand in 6 buckets: 1, 2, 3, 4-5, 6-8, 9 or more (0: out)."""
    if h <= 3:
        return h
    if h <= 5:
        return 4
    return 5 if h <= 8 else 6


@inlined
def _pile_bucket(c):
    """Cards in the pile in 4 buckets: none, 1-2, 3-5, 6 or more."""
    if c == 0:
        return 0
    if c <= 2:
        return 1
    return 2 if c <= 5 else 3


@inlined
def unseen(cfg, S, p, v):
    """Copies of value ``v`` seat ``p`` cannot place: not among the public pair discards, its hand, its own cards in
    the pile or burned, or the cards it knows went into another hand."""
    n, values = cfg[N], cfg[V]
    k = 0
    for h in range(n):
        k += S[cfg[O_KNOWN] + (p * n + h) * values + v]
    return (cfg[C] - S[cfg[O_DISC] + v] - S[cfg[O_HANDS] + p * values + v] - S[cfg[O_PSEAT] + p * values + v]
            - S[cfg[O_BURNBY] + p * values + v] - k)


@inlined
def decision(cfg, S, p):
    """The kind of decision seat ``p`` faces (``D_*``)."""
    if S[S_GOING] >= 0:
        return D_LAST_CARDS
    if S[S_RVALUE] < 0:
        return D_START
    if p == S[cfg[O_PPLAYER] + S[S_PLEN] - 1]:
        return D_ADD_OR_BURN
    return D_ANSWER


@inlined
def info_key(cfg, S, p, detail):
    """The position key of seat ``p`` (the seat to act) in compiled position ``S`` (see the module docstring)."""
    n, values = cfg[N], cfg[V]
    d = decision(cfg, S, p)
    h = np.uint64(0x4C1A2B0D5E6F7781)
    h = combine(h, d)
    hand = cfg[O_HANDS] + p * values
    h = combine(h, _hand_bucket(S[cfg[O_HSIZE] + p]))
    fewest = 1 << 20
    for j in range(1, n):
        q = (p + j) % n
        if S[cfg[O_OUT] + q] == 0:
            fewest = min(fewest, S[cfg[O_HSIZE] + q])
    h = combine(h, _hand_bucket(fewest) if fewest < (1 << 20) else 8)
    if n > 2:
        h = combine(h, _hand_bucket(S[cfg[O_HSIZE] + (p + 1) % n]))
    h = combine(h, _pile_bucket(S[S_PCARDS]))
    # turns left before the turn cap stops the game (it matters only near the cap: counted up to twice round the table)
    h = combine(h, min(cfg[MAXT] - S[S_TURNS], 2 * n + 1))
    if d == D_START:
        held = 0
        most = 0
        for v in range(values):
            c = S[hand + v]
            if c > 0:
                held += 1
            most = max(most, c)
        h = combine(h, min(held, 6))
        h = combine(h, min(most, 3))
    else:
        v = S[S_RVALUE]
        claimed = 0
        for i in range(S[S_LASTN]):
            claimed += S[cfg[O_LASTC] + i]  # the last play's size (public: the cards were counted as they fell)
        liar = S[cfg[O_PPLAYER] + S[S_PLEN] - 1]
        own = 0
        for w in range(values):
            own += S[cfg[O_PSEAT] + p * values + w]
        others = S[S_PCARDS] - own  # cards the other players claimed as v in this pile
        h = combine(h, min(claimed, 3))
        h = combine(h, min(S[hand + v], 2))
        # the room the claims leave: copies you cannot place minus the others' claims (below 0: somebody lied)
        h = combine(h, max(-1, min(unseen(cfg, S, p, v) - others, 2)))
        h = combine(h, min(S[cfg[O_REC] + liar * NREC + R_CAUGHT], 2))
        if n > 2:
            h = combine(h, (liar - p) % n)
            h = combine(h, min(S[S_PASSES], n - 1))
    if detail >= 1:
        for v in range(values):
            h = combine(h, S[hand + v])
            h = combine(h, S[cfg[O_DISC] + v])
            h = combine(h, S[cfg[O_PSEAT] + p * values + v])
            h = combine(h, S[cfg[O_BURNBY] + p * values + v])
            k = 0
            for q in range(n):
                k += S[cfg[O_KNOWN] + (p * n + q) * values + v]
            h = combine(h, k)
        for q in range(n):
            h = combine(h, S[cfg[O_HSIZE] + q])
            h = combine(h, S[cfg[O_OUT] + q])
            h = combine(h, S[cfg[O_UNM] + q])
            h = combine(h, S[cfg[O_WRONG] + q])
            for f in PUBLIC_RECORDS:
                h = combine(h, S[cfg[O_REC] + q * NREC + f])
            for v in range(values):
                h = combine(h, S[cfg[O_CLAIMBURN] + q * values + v])
                h = combine(h, S[cfg[O_REVEALED] + q * values + v])  # turned over in front of everyone
        for i in range(S[S_PLEN]):
            h = combine(h, S[cfg[O_PPLAYER] + i])
        h = combine(h, S[S_PLEN])
        h = combine(h, S[S_PCARDS])
        h = combine(h, S[S_RVALUE] + 1)
        h = combine(h, S[S_PASSES])
        h = combine(h, S[S_TURNS])
        h = combine(h, S[cfg[O_FALSE] + p])  # your own accepted false cards (you know which of yours were)
    k = np.int64(h)
    return np.int64(1) if k == np.int64(-(2**63)) else k


# ------------------------------------------------------------------------------------------------ move descriptions
#
# A play's description is the integer ``100 + 1000 * (standing + 1) + 100 * last + 10 * size + true`` where
# ``standing`` is ``-1`` for a round already announced and ``hold * 3 + unseen`` (unseen up to 2) for a round's
# starter; call liar, pass and burn are 0, 1 and 2 (their action ids).


@inlined
def _standing(cfg, S, p, a):
    return S[cfg[O_HANDS] + p * cfg[V] + a] * 3 + max(0, min(unseen(cfg, S, p, a), 2))


@inlined
def _play_desc(standing, last, size, true):
    return 100 + 1000 * (standing + 1) + 100 * last + 10 * size + true


@inlined
def _announceable(cfg, S, values_out):
    """The values a play may announce now into ``values_out``; returns how many."""
    if S[S_RVALUE] >= 0:
        values_out[0] = S[S_RVALUE]
        return 1
    m = 0
    for v in range(cfg[V]):
        if cfg[ANN] == 0 or S[cfg[O_DISC] + v] < cfg[C]:
            values_out[m] = v
            m += 1
    return m


@inlined
def descriptions(cfg, S, p, descs, scratch):
    """Seat ``p``'s move descriptions at level 0 into ``descs`` (call liar, pass, burn first, then the plays by
    standing, size and true cards); returns how many. ``scratch``: at least ``values`` entries."""
    extras, _, plays = legal_shape(cfg, S, p)
    m = 0
    for bit in range(3):
        if extras & (1 << bit):
            descs[m] = bit
            m += 1
    if not plays:
        return m
    values, mp = cfg[V], cfg[M]
    hand = cfg[O_HANDS] + p * values
    H = S[cfg[O_HSIZE] + p]
    na = _announceable(cfg, S, scratch)
    starting = S[S_RVALUE] < 0
    first_desc = m
    for i in range(na):
        a = scratch[i]
        st = _standing(cfg, S, p, a) if starting else -1
        hold = S[hand + a]
        if starting:
            # one class per standing: skip a value whose standing an earlier value already listed
            seen = False
            j = first_desc
            while j < m:
                if (descs[j] // 1000) - 1 == st:
                    seen = True
                    break
                j += 1
            if seen:
                continue
        for size in range(1, mp + 1):
            for true in range(0, min(hold, size) + 1):
                if size - true > H - hold:
                    continue
                descs[m] = _play_desc(st, 1 if size == H else 0, size, true)
                m += 1
    return m


@inlined
def _prior_room(cfg):
    """Where :func:`heuristic_prior`'s room starts in ``scratch`` (:func:`descriptions` and :func:`play_share` use the
    entries before it)."""
    return 2 * cfg[V] + 2


@compiled
def scratch_size(cfg):
    """Entries of the ``scratch`` array the functions here take (:func:`new_scratch`): ``2 * values + 2`` for
    :func:`descriptions` and :func:`play_share`, then the default heuristic's buffer (:func:`heuristic_prior`)."""
    return _prior_room(cfg) + buffer_entries(cfg, np.int64(DEFAULT_KNOBS[K_EXTRA]))


@inlined
def heuristic_prior(cfg, tab, S, p, detail, descs, m, prior_out, scratch):
    """The default heuristic's probability of each of the ``m`` row entries ``descs`` (the sum over the concrete
    moves each describes, :func:`play_share`) into ``prior_out``: the row's prior. Seat ``p`` is the seat to act.
    The heuristic reads only the seat's own view, and ``S`` is used as scratch in its scratch fields alone.
    ``scratch`` (:func:`scratch_size` entries) lends the heuristic's actions and probabilities their room: nothing is
    allocated per decision, so the traversal and the trained seats compile without reference counts
    (:mod:`cfr.numba_borrowing`)."""
    hacts, hp, work = split_buffer(cfg, DEFAULT_KNOBS, scratch[_prior_room(cfg):])
    k = heuristic_distribution(cfg, tab, S, DEFAULT_KNOBS, hacts, hp, work)
    for u in range(m):
        prior_out[u] = 0.0
    for i in range(k):
        if hp[i] <= 0.0:
            continue
        desc, _ = play_share(cfg, tab, S, p, hacts[i], detail, scratch)
        for u in range(m):
            if descs[u] == desc:
                prior_out[u] += hp[i]
                break


@inlined
def row_of(cfg, tab, S, p, detail, keys_out, descs, prior_out, scratch):
    """The policy row of seat ``p`` (the seat to act): the table keys (position key and move, :func:`trustme_analysis.
    train.tables.slot_key`) into ``keys_out``, the moves (descriptions at level 0, action ids at level 1) into
    ``descs`` and the default heuristic's probability of each entry (:func:`heuristic_prior`) into ``prior_out``;
    returns the row's length. At level 0 each entry's key also carries the heuristic's mark (0: the heuristic never
    plays it, 1: sometimes, 2: at least half as often as its favourite entry), so that a row can play as the
    heuristic does and tell its favourite apart from a move it never makes."""
    key = info_key(cfg, S, p, detail)
    if detail >= 1:
        extras, announced, plays = legal_shape(cfg, S, p)
        if plays:
            fill_hand_table(cfg, S, p)
        m = write_legal(cfg, tab, S, p, extras, announced, plays, descs, 0)
    else:
        m = descriptions(cfg, S, p, descs, scratch)
    heuristic_prior(cfg, tab, S, p, detail, descs, m, prior_out, scratch)
    top = 0.0
    for j in range(m):
        top = max(top, prior_out[j])
    for j in range(m):
        move = descs[j]
        if detail < 1:
            h = prior_out[j]
            move += MARK * (0 if h <= 0.0 else (2 if h >= 0.5 * top else 1))
        keys_out[j] = T.slot_key(key, move)
    return m


@inlined
def sample_play(cfg, tab, S, p, desc, detail, rng, scratch):
    """A concrete action of seat ``p`` for row entry ``desc``: a play's cards written to ``O_PV``/``O_PC`` (for
    :func:`~.moves.apply_player_action`). At level 1 the entry is the action; at level 0 the announced value is drawn
    uniformly among those of the described standing, then the false cards uniformly (as physical cards) from the
    rest of the hand."""
    if detail >= 1:
        if desc >= FIRST_PLAY:
            actions.decode_play(cfg, tab, S, desc)
        return desc
    if desc < FIRST_PLAY:
        return desc
    values = cfg[V]
    hand = cfg[O_HANDS] + p * values
    st = desc // 1000 - 1
    size = (desc % 100) // 10
    true = desc % 10
    na = _announceable(cfg, S, scratch)
    a = scratch[0]
    if st >= 0:
        c = 0
        for i in range(na):
            if _standing(cfg, S, p, scratch[i]) == st:
                c += 1
        k = below(rng, c) if c > 1 else 0
        for i in range(na):
            if _standing(cfg, S, p, scratch[i]) == st:
                if k == 0:
                    a = scratch[i]
                    break
                k -= 1
    # counts per value of the play, in scratch[values:2 * values]
    for v in range(values):
        scratch[values + v] = 0
    scratch[values + a] = true
    rest = S[cfg[O_HSIZE] + p] - S[hand + a]
    for _ in range(size - true):
        r = below(rng, rest)
        for v in range(values):
            if v == a:
                continue
            left = S[hand + v] - scratch[values + v]
            if r < left:
                scratch[values + v] += 1
                break
            r -= left
        rest -= 1
    n = 0
    for v in range(values):
        c = scratch[values + v]
        if c > 0:
            S[cfg[O_PV] + n] = v
            S[cfg[O_PC] + n] = c
            n += 1
    S[S_PN] = n
    return FIRST_PLAY + multiset_index(cfg, tab, S, size) * values + a


@inlined
def _binom(a, b):
    if b < 0 or b > a:
        return 0.0
    out = 1.0
    for i in range(1, b + 1):
        out = out * (a - b + i) / i
    return out


@inlined
def play_share(cfg, tab, S, p, action, detail, scratch):
    """``(description, share)`` of legal ``action`` of seat ``p``: its row entry and the probability that
    :func:`sample_play` turns that entry into this action (1 at level 1, and for call liar, pass and burn)."""
    if detail >= 1 or action < FIRST_PLAY:
        return action, 1.0
    values = cfg[V]
    hand = cfg[O_HANDS] + p * values
    size, a = actions.decode_play(cfg, tab, S, action)
    true = 0
    for i in range(S[S_PN]):
        if S[cfg[O_PV] + i] == a:
            true = S[cfg[O_PC] + i]
    H = S[cfg[O_HSIZE] + p]
    hold = S[hand + a]
    share = 1.0
    st = -1
    if S[S_RVALUE] < 0:
        st = _standing(cfg, S, p, a)
        na = _announceable(cfg, S, scratch)
        c = 0
        for i in range(na):
            if _standing(cfg, S, p, scratch[i]) == st:
                c += 1
        share = 1.0 / c
    f = size - true
    if f > 0:
        ways = 1.0
        for i in range(S[S_PN]):
            v = S[cfg[O_PV] + i]
            if v != a:
                ways *= _binom(S[hand + v], S[cfg[O_PC] + i])
        share *= ways / _binom(H - hold, f)
    return _play_desc(st, 1 if size == H else 0, size, true), share


@compiled
def info_key_of(cfg, S, p, detail):
    """:func:`info_key` as a compiled function (tests, the bot)."""
    return info_key(cfg, S, p, detail)


@compiled
def row_of_compiled(cfg, tab, S, p, detail, keys_out, descs, prior_out, scratch):
    """:func:`row_of` as a compiled function (tests)."""
    return row_of(cfg, tab, S, p, detail, keys_out, descs, prior_out, scratch)


@compiled
def policy_at(cfg, tab, S, p, tkeys, tavg, legal, n, out, detail, row, descs, probs, scratch):
    """The trained policy of seat ``p`` (to act at ``S``) over its ``n`` legal actions ``legal`` into ``out``: each
    action gets its row entry's average-strategy probability times its share of that entry (:func:`play_share`);
    returns whether the table knew the row (else the row is played as the default heuristic plays it,
    :func:`~trustme_analysis.train.tables.known_row`). ``S`` is used as scratch and left as it was in every rule
    field."""
    m = row_of(cfg, tab, S, p, detail, row, descs, probs, scratch)
    known = T.known_row(tkeys, tavg, row, m, probs)
    for j in range(n):
        desc, share = play_share(cfg, tab, S, p, legal[j], detail, scratch)
        pr = 0.0
        for u in range(m):
            if descs[u] == desc:
                pr = probs[u]
                break
        out[j] = pr * share
    return known


def row_capacity(cfg: np.ndarray, tab: np.ndarray) -> int:
    """The most entries a policy row of the variant can have at either level (level 1 lists legal actions)."""
    plays = int(tab[cfg[layout.T_OFFS] + cfg[M] + 1])  # multisets of 1..max_play cards
    return max(MAXROW, 3 + plays * int(cfg[V]))


def new_scratch(cfg: np.ndarray, tab: np.ndarray) -> dict[str, np.ndarray]:
    """Row and scratch buffers for the functions above (sized for the variant)."""
    size = row_capacity(cfg, tab)
    return {"row": np.zeros(size, np.int64), "descs": np.zeros(size, np.int64), "probs": np.zeros(size),
            "scratch": np.zeros(int(scratch_size(cfg)), np.int64)}


#: The kernel modules this one inlines (their sources tie its numba cache and the trained tables' code digest).
SOURCES = (actions, heuristic, layout, compiled_draws, T)
tie_cache_to_sources([scratch_size, info_key_of, row_of_compiled, policy_at], sys.modules[__name__], *SOURCES)
__all__ = ["BURN", "LIAR", "PASS", "VERSION", "info_key", "info_key_of", "policy_at", "row_of",
           "sample_play"]
