"""The compiled core of the Pinocchio kernel: the turn structure of :mod:`~trustme_analysis.games.pinocchio.engine.state` on fixed-size integer arrays.

numba's on-disk cache (``cache=True``) is invalidated only when the file that defines a function changes, so a
compiled function calling code or reading constants from another file could silently keep a stale copy: the caches of
the functions here are tied to the one other file they compile in, the draw primitives
(:func:`cfr.numba_cache.tie_cache_to_sources`, at the end of this file).

Two arrays describe a game:

- the *rules* array ``R`` (int64), built once per loaded game by :func:`trustme_analysis.games.pinocchio.kernel.kernel.
  rules_array` from the game's parsed :class:`~trustme_analysis.games.pinocchio.engine.rules.Rules` and its
  :class:`~trustme_analysis.games.pinocchio.engine.actions.ActionCodec` (offsets ``R_*``);
- the *state* array ``s`` (int32, :data:`STATE_SIZE` long, offsets below), laid out as a public part (everything at
  the table or remembered from public play), a hidden part (:data:`HIDDEN_START` to :data:`HIDDEN_END`: the deck,
  the hands and a face-down tale Character) and the record statistics. A determinization resamples only the hidden
  part (:func:`determinize`).

The functions mirror :class:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState` method by method (same names
without the class; the chain of steps after an action is one loop, :func:`advance`), with the engine's events turned
into counters for the records. The engine is the specification;
``tests/games/test_pinocchio_kernel.py`` replays kernel games through it step by step.

Random numbers: the draw protocol's compiled primitives (:mod:`trustme_analysis.engine.compiled_draws`: SplitMix64,
exact integers below ``n``, uniform floats, the walk over probabilities), inlined here; chance and seats draw by the
protocol of :mod:`trustme_analysis.engine.draws`, which the pyspiel path follows too, so both engines give the same
games. The cache of every compiled function here is tied to that file's source as well (end of this file).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core.registry import CPUDispatcher

from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.engine.compiled_draws import below, uniform01, walk

#: How every function here is compiled: cached on disk, and without numba's reference counting of arrays (NRT).
#: Nothing here allocates, and the counting (an atomic add and a call at each array passed to a function) took more
#: than half of the play loop's time when measured with ``perf``. ``_nrt`` is a numba option named as private; if a
#: numba release drops it, this line fails at import, which the tests show at once.
compiled = njit(cache=True, _nrt=False)
#: The same, and inlined into each compiled caller (the per-step functions of the play loop).
inlined = njit(cache=True, _nrt=False, inline="always")

MAXV = 9  # Character values (rules: 1 to 9)
MAXP = 4  # players
MAXC = MAXV * MAXV + MAXV * (MAXV - 1) // 2  # discard combos: sets of 1..9 per value, runs of 2..9

# Phases: the same numbers as the engine's (tests check them against trustme_analysis.games.pinocchio.engine.state).
(DEAL_PARK, DEAL_HAND, DRAW, ACTION, VOTE, VOTE_COIN, COIN_OFFER, COIN_TOSS, REFILL, FREE_REPUTATION, TIE_BREAK,
 TERMINAL, FIRST_PLAYER) = range(13)
_CHANCE_PHASES = sum(1 << ph for ph in (DEAL_PARK, DEAL_HAND, DRAW, VOTE_COIN, COIN_TOSS, REFILL, TIE_BREAK,
                                        FIRST_PLAYER))
CHANCE_ID = -1  # pyspiel.PlayerId.CHANCE
TERMINAL_ID = -4  # pyspiel.PlayerId.TERMINAL
THEN_DRAW, THEN_END_TURN = 0, 1
# Ticket routes (records: tickets_tale/reputation/free_per_value) and end triggers / tie-breaks as numbers.
ROUTE_TALE, ROUTE_REPUTATION, ROUTE_FREE = 0, 1, 2
END_NONE, END_DECK, END_STACKS = 0, 1, 2
TIE_NONE, TIE_TICKETS, TIE_COIN = 0, 1, 2


class _Layout:
    """Hands out consecutive offsets; only used at import time to build the constants below."""

    def __init__(self) -> None:
        self.size = 0

    def __call__(self, n: int = 1) -> int:
        start = self.size
        self.size += n
        return start


_s = _Layout()
# ---- public part: the table, the Tickets, the turn's progress
PHASE, TURN, ACTIVE, ACTOR, DECK_TOTAL, RUNOUTS, DAYS_ENDED, RAN_OUT, BONUS, END_TRIGGER = (_s() for _ in range(10))
DEAL_LEFT, DEAL_SEAT, REFILL_LEFT, AFTER_REFILL, TALE_PARK, VOTE_I, TRUSTED, COIN, COIN_BY = (_s() for _ in range(9))
N_OFFERS, OFFER_I, N_TIED, WINNER, ERROR = (_s() for _ in range(5))
DISCARD = _s(MAXV)
PARK = _s(MAXV)
REPS = _s(MAXP * MAXV)  # Reputation of seat p, value v+1: REPS + p*MAXV + v
TICKETS = _s(MAXP * MAXV)
STACKS = _s(MAXV)
COIN_USED = _s(MAXP)
VOTES = _s(MAXP)  # -1: no vote, 0: "I do not trust you", 1: "I trust you"
OFFERS = _s(MAXP)
TIED = _s(MAXP)
TOTALS = _s(MAXP)
FIRST_SEAT = _s()  # the seat that starts (first_player: 0, or chance's pick)
# ---- hidden part: what some player cannot see
HIDDEN_START = _s.size
DECK = _s(MAXV)
HANDS = _s(MAXP * MAXV)
TALE_HIDDEN = _s()  # the face-down tale Character's value, 0 when no tale is pending
HIDDEN_END = _s.size
# ---- record statistics (the engine's events, counted)
TIX_ROUTE = _s(MAXP * 3 * MAXV)  # seat p, route r, value v+1: TIX_ROUTE + (p*3 + r)*MAXV + v
ROWS = _s(MAXP * 4)  # tale table rows per teller: true_trusted, true_distrusted, tall_trusted, tall_distrusted
TALES_COIN = _s(MAXP)
TALL_LOWER = _s(MAXP)
TALL_NONE = _s(MAXP)
VOTES_CAST = _s(MAXP)
VOTES_TRUST = _s(MAXP)
VOTES_CORRECT = _s(MAXP)
COIN_TOSSES = _s(MAXP)
PARK_TAKES = _s(MAXP)
BONUS_TURNS = _s(MAXP)
BONUS_FORFEITED = _s(MAXP)
SCORE = _s(MAXP)  # each seat's score for its Tickets so far (the score trace samples it)
STACK_EMPTY_TURN = _s(MAXV)  # -1: never
LAST_EMPTIED = _s()
COIN_CHANCE = _s()
TIE_BREAK_BY = _s()
STATE_SIZE = _s.size

# Error codes in s[ERROR] (0: none). Only buffer overflows are possible; the wrapper raises on them.
ERR_TRACE_OVERFLOW = 1
ERR_HISTORY_OVERFLOW = 2

_r = _Layout()
(R_PLAYERS, R_VALUES, R_PER_VALUE, R_PARK_SIZE, R_REFILL, R_HAND_SIZE, R_STACKS_NEEDED, R_RUNOUTS_TO_END,
 R_COIN_VARIANT, R_SEQUENTIAL, R_DISSENTERS, R_RESHUFFLE, R_UTILITY, R_SET_MAX, R_NCOMBOS, R_TALE_BASE, R_REP_BASE,
 R_TAKE_BASE, R_FREE_BASE, R_DECLINE, R_PASS, R_TRUST, R_DISTRUST, R_TOSS, R_NO_TOSS, R_NUM_ACTIONS,
 R_FIRST_RANDOM) = (_r() for _ in range(27))
R_STACKS = _r(MAXV)
R_CHART = _r(MAXV)
R_COMBO_START = _r(MAXC)  # lowest value of combo c
R_COMBO_LEN = _r(MAXC)  # Characters in it (= the Ticket value)
R_COMBO_RUN = _r(MAXC)  # 1: a run of consecutive values, 0: a set of equal values
R_RUN_INDEX = _r(MAXV * (MAXV + 1))  # combo number of the run of k values from a+1: R_RUN_INDEX + a*(MAXV+1) + k
MAXA = 2 * MAXV * MAXV + (MAXV + 1) * MAXC + 6  # player action ids (actions.ActionCodec.num_actions at most)
R_DEC_HAND = _r(MAXA)  # per action id: the hand value played (0: none)
R_DEC_X = _r(MAXA)  # per action id: the Park value (tale, take) or the combo number (Use Reputation, free action)
RULES_SIZE = _r.size
UTILITY_WIN_LOSS, UTILITY_SCORE, UTILITY_SCORE_DIFF = 0, 1, 2

#: The records' integer, true/false and coded-text fields, in the columns :func:`record_rows` writes
#: (``end_trigger`` and ``tie_break`` as the END_* and TIE_* codes).
INT_FIELDS = (
    "players", "values", "score", "score_ticket_face", "score_set_bonus", "tickets", "different_values", "rank", "win",
    "winner", "turns", "runouts", "days", "ended_at_night", "end_trigger", "end_stack_value", "completed",
    "top_shared", "tie_break", "margin", "tales_told", "tales_true", "tales_tall", "tales_trusted", "tales_distrusted",
    "row_true_trusted", "row_true_distrusted", "row_tall_trusted", "row_tall_distrusted", "tales_coin",
    "tall_ticket_lower", "tall_ticket_none", "votes_cast", "votes_trust", "votes_correct", "coin_tosses",
    "coin_chance_tosses", "park_takes", "bonus_turns", "bonus_forfeited",
)
(F_PLAYERS, F_VALUES, F_SCORE, F_FACE, F_BONUS, F_TICKETS, F_DIFFERENT, F_RANK, F_WIN, F_WINNER, F_TURNS,
 F_RUNOUTS, F_DAYS, F_NIGHT, F_TRIGGER, F_END_STACK, F_COMPLETED, F_TOP_SHARED, F_TIE_BREAK, F_MARGIN, F_TALES,
 F_TRUE, F_TALL, F_TRUSTED, F_DISTRUSTED, F_ROWS, _F_ROW2, _F_ROW3, _F_ROW4, F_TALES_COIN, F_TALL_LOWER,
 F_TALL_NONE, F_VOTES_CAST, F_VOTES_TRUST, F_VOTES_CORRECT, F_COIN_TOSSES, F_COIN_CHANCE, F_PARK_TAKES,
 F_BONUS_TURNS, F_BONUS_FORFEITED) = range(len(INT_FIELDS))
#: The per-value list fields, in the order of the second axis of :func:`record_rows`'s ``lists``.
LIST_FIELDS = ("tickets_per_value", "tickets_tale_per_value", "tickets_reputation_per_value",
               "tickets_free_per_value")

# ====================================================================== set-up and queries


@compiled
def init_state(s, R):
    """Write the start of a game (before the Park is dealt) into ``s``."""
    for i in range(STATE_SIZE):
        s[i] = 0
    V = R[R_VALUES]
    s[PHASE] = FIRST_PLAYER if R[R_FIRST_RANDOM] else DEAL_PARK
    for v in range(V):
        s[DECK + v] = R[R_PER_VALUE]
        s[STACKS + v] = R[R_STACKS + v]
        s[STACK_EMPTY_TURN + v] = -1
    s[DECK_TOTAL] = R[R_PER_VALUE] * V
    s[DEAL_LEFT] = R[R_PARK_SIZE]
    s[AFTER_REFILL] = THEN_DRAW
    for p in range(MAXP):
        s[VOTES + p] = -1
    s[TRUSTED] = -1
    s[COIN] = -1
    s[COIN_BY] = -1
    s[WINNER] = -1
    s[LAST_EMPTIED] = -1


@inlined
def is_chance_phase(ph):
    """Whether chance acts in phase ``ph`` (one bit test: this runs at every step)."""
    return (_CHANCE_PHASES >> ph) & 1 == 1


@compiled
def current_player(s):
    """The seat to act, -1 for chance, -4 once the game is over (pyspiel's ids)."""
    ph = s[PHASE]
    if ph == TERMINAL:
        return TERMINAL_ID
    if is_chance_phase(ph):
        return CHANCE_ID
    return s[ACTOR]


@inlined
def usable_combos(s, R, out):
    """The active player's usable discard combos (whose Ticket stack is not empty), ascending; returns the count."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    set_max = R[R_SET_MAX]
    n = 0
    for a in range(V):
        have = s[rep + a]
        if have:
            top = min(set_max, have)
            for k in range(1, top + 1):
                if s[STACKS + k - 1]:
                    out[n] = a * set_max + k - 1
                    n += 1
    for a in range(V - 1):
        if s[rep + a] and s[rep + a + 1]:
            k = 2
            while a + k <= V and s[rep + a + k - 1]:
                if s[STACKS + k - 1]:
                    out[n] = R[R_RUN_INDEX + a * (MAXV + 1) + k]
                    n += 1
                k += 1
    return n


@inlined
def popcount16(x):
    """The set bits of ``0 <= x < 2**16``."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@inlined
def count_usable_combos(s, R):
    """How many combos :func:`usable_combos` lists, without listing them (the random seat's draw needs only the
    count, and the list only when it picks a Use Reputation action).

    The same sets and runs counted by Ticket stack: with ``open`` the bit mask of non-empty stacks, a value held
    ``have`` times adds the open stacks among 1 .. min(set_max, have), and a run of ``L >= 2`` held values starting
    at ``a`` (consecutive, up to the last value) adds the open stacks among 2 .. L. ``tests/games/
    test_pinocchio_kernel.py`` checks it against :func:`usable_combos`' count."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    set_max = R[R_SET_MAX]
    open_ = value_mask(s, STACKS, V)
    n = 0
    run = 0  # held values from a upwards, consecutive
    # Without branches (the Reputations of random play are not predictable): a value not held adds the empty mask.
    for a in range(V - 1, -1, -1):
        have = s[rep + a]
        run = (run + 1) * min(have, 1)
        n += popcount16(open_ & ((1 << min(set_max, have)) - 1))
        n += popcount16(open_ & ((1 << max(run, 1)) - 2))
    return n


@inlined
def value_mask(s, at, V):
    """Bit ``v`` set where ``s[at + v]`` (a count: a hand, the Park, the Ticket stacks) is non-zero, ``v < V``."""
    m = 0
    for v in range(V):
        m |= min(s[at + v], 1) << v
    return m


@inlined
def nth_bit(m, j):
    """The position of the ``j``-th (from 0) set bit of ``m`` (which has more than ``j``)."""
    for _ in range(j):
        m &= m - 1
    return popcount16((m & -m) - 1)


@compiled
def legal_actions(s, R, out, cbuf):
    """The current player's legal actions, ascending, into ``out``; returns the count (0 at chance and the end).

    ``cbuf`` is scratch space of at least :data:`MAXC` entries.
    """
    ph = s[PHASE]
    if ph == ACTION:
        V = R[R_VALUES]
        hand = HANDS + s[ACTIVE] * MAXV
        held = 0
        for w in range(V):
            if s[hand + w]:
                held += 1
        if held == 0:
            out[0] = R[R_PASS]
            return 1
        n = 0
        for v in range(V):
            if s[PARK + v]:
                for w in range(V):
                    if s[hand + w]:
                        out[n] = R[R_TALE_BASE] + v * V + w
                        n += 1
        nc = usable_combos(s, R, cbuf)
        if nc:
            C = R[R_NCOMBOS]
            for w in range(V):
                if s[hand + w]:
                    base = R[R_REP_BASE] + w * C
                    for i in range(nc):
                        out[n] = base + cbuf[i]
                        n += 1
        for w in range(V):
            if s[hand + w]:
                for u in range(V):
                    if s[PARK + u]:
                        out[n] = R[R_TAKE_BASE] + w * V + u
                        n += 1
        if n == 0:
            # An empty Park with nothing to cash leaves no action (only under empty_deck=skip): pass.
            out[0] = R[R_PASS]
            n = 1
        return n
    if ph == VOTE:
        out[0] = R[R_TRUST]
        out[1] = R[R_DISTRUST]
        return 2
    if ph == COIN_OFFER:
        out[0] = R[R_TOSS]
        out[1] = R[R_NO_TOSS]
        return 2
    if ph == FREE_REPUTATION:
        nc = usable_combos(s, R, cbuf)
        for i in range(nc):
            out[i] = R[R_FREE_BASE] + cbuf[i]
        out[nc] = R[R_DECLINE]
        return nc + 1
    return 0


@inlined
def sample_chance(s, R, rng):
    """A chance outcome by the draw protocol (:mod:`trustme_analysis.engine.draws`) over the engine's integer weights
    (``PinocchioState.chance_weights``: a Character by its count in the deck, each side of a Coin 1, each tied seat
    1): one outcome draws nothing, else an integer below their total picks one, walked in order."""
    ph = s[PHASE]
    if ph == VOTE_COIN or ph == COIN_TOSS:
        return below(rng, 2)
    if ph == FIRST_PLAYER:
        return below(rng, R[R_PLAYERS])
    if ph == TIE_BREAK:
        if s[N_TIED] == 1:
            return np.int64(s[TIED])
        return np.int64(s[TIED + below(rng, s[N_TIED])])
    # One kind left iff the first non-empty count is the whole deck (the counts add up to DECK_TOTAL).
    first = 0
    while s[DECK + first] == 0 and first < MAXV - 1:
        first += 1
    if s[DECK + first] == s[DECK_TOTAL]:
        return np.int64(first)
    r = below(rng, s[DECK_TOTAL])
    # The walk's outcome without its unpredictable exit: the first v whose running total passes r is the number of
    # running totals (never decreasing) that do not.
    v = 0
    total = 0
    for u in range(MAXV - 1):
        total += s[DECK + u]
        v += 1 if total <= r else 0
    return np.int64(v)


@inlined
def chance_outcomes(s, R, ids, probs):
    """The chance outcomes at ``s`` with the engine's probabilities (``PinocchioState.chance_outcomes``), in the
    engine's order, into ``ids`` / ``probs`` (each at least ``max(MAXV, MAXP)`` long); returns their count, 0 off a
    chance node. A Character: each value left in the deck, ``count / deck size`` (the same float division as the
    engine's); a Coin: donkey then kid, 1/2 each; the tie-break Coin: each tied seat, ``1 / tied``; the first
    player: each seat, ``1 / players``.

    The one statement of them in the kernel: :meth:`.kernel.KernelState.chance_outcomes` and the tree producer
    (:mod:`.tree`) read them here (:func:`sample_chance` draws from the same weights without listing them)."""
    ph = s[PHASE]
    if ph == VOTE_COIN or ph == COIN_TOSS:
        ids[0] = 0
        ids[1] = 1
        probs[0] = 0.5
        probs[1] = 0.5
        return 2
    if ph == TIE_BREAK:
        tied = s[N_TIED]
        for i in range(tied):
            ids[i] = s[TIED + i]
            probs[i] = 1.0 / tied
        return tied
    if ph == FIRST_PLAYER:
        n = R[R_PLAYERS]
        for p in range(n):
            ids[p] = p
            probs[p] = 1.0 / n
        return n
    if not is_chance_phase(ph):
        return 0
    total = s[DECK_TOTAL]
    k = 0
    for v in range(MAXV):
        c = s[DECK + v]
        if c:
            ids[k] = v
            probs[k] = c / total
            k += 1
    return k


@compiled
def returns_into(s, R, out):
    """The returns by the ``utility`` parameter (zeros until the end) into ``out`` (float64, players long)."""
    n = R[R_PLAYERS]
    for p in range(n):
        out[p] = 0.0
    if s[PHASE] != TERMINAL:
        return
    u = R[R_UTILITY]
    if u == UTILITY_WIN_LOSS:
        lose = -1.0 / (n - 1)
        for p in range(n):
            out[p] = 1.0 if p == s[WINNER] else lose
    elif u == UTILITY_SCORE:
        for p in range(n):
            out[p] = float(s[TOTALS + p])
    else:
        out[0] = float(s[TOTALS] - s[TOTALS + 1])
        out[1] = float(s[TOTALS + 1] - s[TOTALS])


# ====================================================================== scoring and Tickets


@compiled
def ticket_score(s, R, p):
    """Final Scoring of seat ``p``'s Tickets (face values plus the chart for the different values)."""
    V = R[R_VALUES]
    face = 0
    different = 0
    for v in range(V):
        k = s[TICKETS + p * MAXV + v]
        face += (v + 1) * k
        if k:
            different += 1
    bonus = R[R_CHART + different - 1] if different else 0
    return face + bonus


@compiled
def gain_ticket(s, R, p, requested, route, exact):
    """Take a Ticket of ``requested`` value, or (a tale, ``exact`` False) the next lower one left, or none."""
    value = requested
    if not exact:
        while value >= 1 and s[STACKS + value - 1] == 0:
            value -= 1
    if value >= 1:
        s[STACKS + value - 1] -= 1
        s[TICKETS + p * MAXV + value - 1] += 1
        s[SCORE + p] = ticket_score(s, R, p)
        s[TIX_ROUTE + (p * 3 + route) * MAXV + value - 1] += 1
        if route == ROUTE_TALE and value < requested:
            s[TALL_LOWER + p] += 1
        if s[STACKS + value - 1] == 0:
            s[STACK_EMPTY_TURN + value - 1] = s[TURN]
            s[LAST_EMPTIED] = value
    elif route == ROUTE_TALE:
        s[TALL_NONE + p] += 1
        s[TALL_LOWER + p] += 1


@inlined
def stacks_end_reached(s, R):
    empty = 0
    for v in range(R[R_VALUES]):
        if s[STACKS + v] == 0:
            empty += 1
    return empty >= R[R_STACKS_NEEDED]


@inlined
def record_trace(s, R, row, trace):
    """Each seat's score into ``trace[row]`` (skipped when ``trace`` has no rows; too few rows is an error).

    Inlined: it runs at every turn, and a call passes the arrays field by field even when there is no trace."""
    if trace.shape[0] == 0:
        return
    if row >= trace.shape[0]:
        s[ERROR] = ERR_TRACE_OVERFLOW
        return
    for p in range(R[R_PLAYERS]):
        trace[row, p] = s[SCORE + p]


@compiled
def score_final(s, R):
    """Totals, then the winner: most points, then most Tickets, then the tie-break Coin (a chance node)."""
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    best = -1
    for p in range(n):
        s[TOTALS + p] = s[SCORE + p]
        best = max(best, s[SCORE + p])
    top = 0
    first = -1
    most = -1
    for p in range(n):
        if s[TOTALS + p] == best:
            top += 1
            if first < 0:
                first = p
            count = 0
            for v in range(V):
                count += s[TICKETS + p * MAXV + v]
            most = max(most, count)
    if top > 1:
        still = 0
        first = -1
        for p in range(n):
            if s[TOTALS + p] == best:
                count = 0
                for v in range(V):
                    count += s[TICKETS + p * MAXV + v]
                if count == most:
                    s[TIED + still] = p
                    still += 1
                    if first < 0:
                        first = p
        if still > 1:
            s[N_TIED] = still
            s[PHASE] = TIE_BREAK
            return
        s[TIE_BREAK_BY] = TIE_TICKETS
    s[WINNER] = first
    s[PHASE] = TERMINAL


# ====================================================================== the turn
#
# The engine moves from one step of a turn to the next by calling methods (``_end_turn`` calls ``_begin_turn``, which
# may call ``_continue_refill``, which may call ``_end_turn`` ...). Compiled as calls, that chain costs reference
# counting on every array argument at every level; here it is one loop in :func:`advance` over *continuations*, each
# block named after the engine method it mirrors, with ``arg`` carrying that method's argument.

GO_NONE, GO_HAND_DEAL, GO_BEGIN_TURN, GO_ENTER_DRAW, GO_CONTINUE_REFILL, GO_END_TURN, GO_FINISH_DAY, GO_END_GAME, \
    GO_START_OFFERS, GO_RESOLVE_TALE = range(10)


@inlined
def note_runout(s):
    """The deck ran out during this turn (counted once per turn)."""
    if not s[RAN_OUT]:
        s[RAN_OUT] = 1
        s[RUNOUTS] += 1


@inlined
def deck_ready(s, R):
    """Whether a draw can happen now; handles a draw needed while the deck is empty (``empty_deck``)."""
    if s[DECK_TOTAL]:
        return True
    note_runout(s)
    if R[R_RESHUFFLE]:
        V = R[R_VALUES]
        total = 0
        for v in range(V):
            total += s[DISCARD + v]
        if total:
            for v in range(V):
                s[DECK + v] = s[DISCARD + v]
                s[DISCARD + v] = 0
            s[DECK_TOTAL] = total
            return True
    return False


@inlined
def park_empty(s, R):
    for v in range(R[R_VALUES]):
        if s[PARK + v]:
            return False
    return True


@compiled
def any_usable_combo(s, R):
    """Whether :func:`usable_combos` would find at least one (without listing them)."""
    V = R[R_VALUES]
    rep = REPS + s[ACTIVE] * MAXV
    for a in range(V):
        if s[rep + a] and s[STACKS]:
            return True  # a set of one is always possible while the stack of 1 lasts
    set_max = R[R_SET_MAX]
    for a in range(V):
        have = s[rep + a]
        top = min(set_max, have)
        for k in range(2, top + 1):
            if s[STACKS + k - 1]:
                return True
    for a in range(V - 1):
        k = 2
        while a + k <= V and s[rep + a] and s[rep + a + k - 1]:
            if s[STACKS + k - 1]:
                return True
            k += 1
    return False


@inlined
def discard_combo(s, R, p, c):
    """Discard combo ``c`` from seat ``p``'s Reputation to the discard pile; returns its size (the Ticket value)."""
    start = R[R_COMBO_START + c]
    length = R[R_COMBO_LEN + c]
    rep = REPS + p * MAXV
    if R[R_COMBO_RUN + c]:
        for v in range(start - 1, start - 1 + length):
            s[rep + v] -= 1
            s[DISCARD + v] += 1
    else:
        s[rep + start - 1] -= length
        s[DISCARD + start - 1] += length
    return length


@inlined
def advance(s, R, go, arg, trace):
    """Run the engine's steps from continuation ``go`` until play waits for a decision or a chance outcome."""
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    while go != GO_NONE:
        if go == GO_HAND_DEAL:  # _start_hand_deal(seat=arg)
            if R[R_HAND_SIZE] == 0 or arg == n:
                go, arg = GO_BEGIN_TURN, s[FIRST_SEAT]
            else:
                s[PHASE] = DEAL_HAND
                s[DEAL_SEAT] = arg
                s[DEAL_LEFT] = R[R_HAND_SIZE]
                go = GO_NONE
        elif go == GO_BEGIN_TURN:  # _begin_turn(player=arg)
            s[TURN] += 1
            t = s[TURN]
            if t >= 2:
                # The records sample every seat's score when each turn after the first begins.
                record_trace(s, R, t - 2, trace)
            s[ACTIVE] = arg
            s[RAN_OUT] = 0
            if park_empty(s, R):
                s[REFILL_LEFT] = R[R_REFILL]
                s[AFTER_REFILL] = THEN_DRAW
                go = GO_CONTINUE_REFILL
            else:
                go = GO_ENTER_DRAW
        elif go == GO_ENTER_DRAW:  # _enter_draw
            if deck_ready(s, R):
                s[PHASE] = DRAW
            else:
                s[PHASE] = ACTION
                s[ACTOR] = s[ACTIVE]
            go = GO_NONE
        elif go == GO_CONTINUE_REFILL:  # _continue_refill
            if s[REFILL_LEFT] and deck_ready(s, R):
                s[PHASE] = REFILL
                go = GO_NONE
            else:
                s[REFILL_LEFT] = 0
                go = GO_ENTER_DRAW if s[AFTER_REFILL] == THEN_DRAW else GO_END_TURN
        elif go == GO_END_TURN:  # _end_turn
            p = s[ACTIVE]
            if s[RUNOUTS] >= R[R_RUNOUTS_TO_END]:
                go, arg = GO_END_GAME, END_DECK
            elif stacks_end_reached(s, R):
                go, arg = GO_END_GAME, END_STACKS
            elif s[RAN_OUT]:
                # The day ends; a pending bonus turn becomes a free Use Reputation action (no card played).
                if s[BONUS] and any_usable_combo(s, R):
                    s[PHASE] = FREE_REPUTATION
                    s[ACTOR] = p
                    go = GO_NONE
                else:
                    go = GO_FINISH_DAY
            elif s[BONUS]:
                s[BONUS] = 0
                s[BONUS_TURNS + p] += 1
                go, arg = GO_BEGIN_TURN, p
            else:
                go, arg = GO_BEGIN_TURN, p + 1 if p + 1 < n else 0
        elif go == GO_FINISH_DAY:  # _finish_day: Reputations discarded, the discard pile becomes the new deck
            s[BONUS] = 0
            for p in range(n):
                for v in range(V):
                    s[DISCARD + v] += s[REPS + p * MAXV + v]
                    s[REPS + p * MAXV + v] = 0
            total = 0
            for v in range(V):
                s[DECK + v] += s[DISCARD + v]
                s[DISCARD + v] = 0
                total += s[DECK + v]
            s[DECK_TOTAL] = total
            s[DAYS_ENDED] += 1
            go, arg = GO_BEGIN_TURN, s[ACTIVE] + 1 if s[ACTIVE] + 1 < n else 0
        elif go == GO_END_GAME:  # _end_game(trigger=arg): a pending bonus turn is forfeited
            s[END_TRIGGER] = arg
            if s[BONUS]:
                s[BONUS] = 0
                s[BONUS_FORFEITED + s[ACTIVE]] += 1
            record_trace(s, R, s[TURN] - 1, trace)
            score_final(s, R)
            go = GO_NONE
        elif go == GO_START_OFFERS:  # _start_offers: the Coin variant's offers from the active player's left
            go = GO_RESOLVE_TALE
            if R[R_COIN_VARIANT]:
                k = 0
                for i in range(1, n):
                    q = s[ACTIVE] + i
                    if q >= n:
                        q -= n
                    if not s[COIN_USED + q] and (not R[R_DISSENTERS] or s[VOTES + q] != s[TRUSTED]):
                        s[OFFERS + k] = q
                        k += 1
                if k:
                    s[N_OFFERS] = k
                    s[OFFER_I] = 0
                    s[PHASE] = COIN_OFFER
                    s[ACTOR] = s[OFFERS]
                    go = GO_NONE
        else:  # GO_RESOLVE_TALE, _resolve_tale: flip the face-down Character, apply the row of the tale table
            go = resolve_tale(s, R)
    return 0


@inlined
def resolve_tale(s, R):
    """The engine's ``_resolve_tale`` up to its last step, which it returns as a continuation."""
    p = s[ACTIVE]
    n = R[R_PLAYERS]
    park_value = s[TALE_PARK]
    hidden = s[TALE_HIDDEN]
    tall = park_value != hidden
    trusted = s[TRUSTED] == 1
    s[ROWS + p * 4 + (2 if tall else 0) + (0 if trusted else 1)] += 1
    if s[COIN] >= 0:
        s[TALES_COIN + p] += 1
        if s[COIN_BY] < 0:
            s[COIN_CHANCE] += 1
        else:
            s[COIN_TOSSES + s[COIN_BY]] += 1
    for q in range(n):
        vote = s[VOTES + q]
        if vote >= 0:
            s[VOTES_CAST + q] += 1
            s[VOTES_TRUST + q] += vote
            # A vote is right when it trusts a true tale or distrusts a tall one.
            if (vote == 1) != tall:
                s[VOTES_CORRECT + q] += 1
    if tall and not trusted:
        # Caught: the played Character goes face-up into the Park.
        s[PARK + hidden - 1] += 1
    else:
        s[PARK + park_value - 1] -= 1
        s[REPS + p * MAXV + park_value - 1] += 1
        s[REPS + p * MAXV + hidden - 1] += 1
        if not tall and not trusted:
            s[BONUS] = 1
        elif tall:
            gain_ticket(s, R, p, abs(park_value - hidden), ROUTE_TALE, False)
    s[TALE_PARK] = 0
    s[TALE_HIDDEN] = 0
    s[TRUSTED] = -1
    s[COIN] = -1
    s[COIN_BY] = -1
    s[N_OFFERS] = 0
    if park_empty(s, R):
        s[REFILL_LEFT] = R[R_REFILL]
        s[AFTER_REFILL] = THEN_END_TURN
        return GO_CONTINUE_REFILL
    return GO_END_TURN


@inlined
def step(s, R, a, trace):
    """Apply action or chance outcome ``a`` (assumed legal) to ``s``; ``trace`` takes the score trace (0 rows: off).

    The first step of each engine path is done here; :func:`advance` runs the rest. Inlined into the play loop
    (:func:`play_out_kinds`), where a call per step cost more than a tenth of a rollout (``perf``: the array
    arguments pushed and the callee's locals set up at every step); elsewhere it is called as :func:`apply_action`.
    """
    ph = s[PHASE]
    n = R[R_PLAYERS]
    go = GO_NONE
    arg = 0
    if ph == DEAL_PARK or ph == DEAL_HAND or ph == DRAW or ph == REFILL:  # _apply_card
        s[DECK + a] -= 1
        s[DECK_TOTAL] -= 1
        if ph == DEAL_PARK:
            s[PARK + a] += 1
            s[DEAL_LEFT] -= 1
            if s[DEAL_LEFT] == 0:
                go = GO_HAND_DEAL
        elif ph == DEAL_HAND:
            seat = s[DEAL_SEAT]
            s[HANDS + seat * MAXV + a] += 1
            s[DEAL_LEFT] -= 1
            if s[DEAL_LEFT] == 0:
                go, arg = GO_HAND_DEAL, seat + 1
        elif ph == DRAW:
            s[HANDS + s[ACTIVE] * MAXV + a] += 1
            if s[DECK_TOTAL] == 0:
                note_runout(s)
            s[PHASE] = ACTION
            s[ACTOR] = s[ACTIVE]
        else:  # REFILL
            s[PARK + a] += 1
            if s[DECK_TOTAL] == 0:
                note_runout(s)
            s[REFILL_LEFT] -= 1
            go = GO_CONTINUE_REFILL
    elif ph == VOTE_COIN or ph == COIN_TOSS:
        s[COIN] = a
        s[TRUSTED] = a  # kid (1) = trusted
        go = GO_START_OFFERS if ph == VOTE_COIN else GO_RESOLVE_TALE
    elif ph == TIE_BREAK:
        s[TIE_BREAK_BY] = TIE_COIN
        s[WINNER] = a
        s[PHASE] = TERMINAL
    elif ph == FIRST_PLAYER:  # chance picked the first seat; the Park is dealt next
        s[FIRST_SEAT] = a
        s[PHASE] = DEAL_PARK
    else:  # a player's move (the engine's _apply_move), decoded as .actions numbers it
        p = s[ACTOR]
        hand = R[R_DEC_HAND + a]
        if a < R[R_REP_BASE]:  # Tell a Tale
            park_value = R[R_DEC_X + a]
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[TALE_PARK] = park_value
            s[TALE_HIDDEN] = hand
            for q in range(n):
                s[VOTES + q] = -1
            s[VOTE_I] = 0
            s[PHASE] = VOTE
            s[ACTOR] = p + 1 if p + 1 < n else 0
        elif a < R[R_TAKE_BASE]:  # Use Reputation
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[PARK + hand - 1] += 1
            length = discard_combo(s, R, p, R[R_DEC_X + a])
            gain_ticket(s, R, p, length, ROUTE_REPUTATION, True)
            go = GO_END_TURN
        elif a < R[R_FREE_BASE]:  # Take a Character from the Park ("any other": taken before the hand one is put)
            park_value = R[R_DEC_X + a]
            s[HANDS + p * MAXV + hand - 1] -= 1
            s[PARK + park_value - 1] -= 1
            s[REPS + p * MAXV + park_value - 1] += 1
            s[PARK + hand - 1] += 1
            s[PARK_TAKES + p] += 1
            go = GO_END_TURN
        elif a < R[R_DECLINE]:  # the free Use Reputation action at the day's end
            length = discard_combo(s, R, p, R[R_DEC_X + a])
            gain_ticket(s, R, p, length, ROUTE_FREE, True)
            if stacks_end_reached(s, R):
                # The free action belongs to the turn in which the deck ran out: emptying the last stack needed
                # ends the game at the end of that turn, before a Night begins.
                go, arg = GO_END_GAME, END_STACKS
            else:
                go = GO_FINISH_DAY
        elif a == R[R_DECLINE]:
            go = GO_FINISH_DAY
        elif a == R[R_PASS]:
            go = GO_END_TURN
        elif a == R[R_TRUST] or a == R[R_DISTRUST]:  # _cast_vote
            s[VOTES + p] = 1 if a == R[R_TRUST] else 0
            s[VOTE_I] += 1
            if s[VOTE_I] < n - 1:
                q = s[ACTIVE] + 1 + s[VOTE_I]
                s[ACTOR] = q if q < n else q - n
            else:
                t = 0
                d = 0
                for q in range(n):
                    if s[VOTES + q] == 1:
                        t += 1
                    elif s[VOTES + q] == 0:
                        d += 1
                if t == d:
                    # 3 players who disagree (or any even split): toss the Coin.
                    s[PHASE] = VOTE_COIN
                else:
                    s[TRUSTED] = 1 if t > d else 0
                    go = GO_START_OFFERS
        elif a == R[R_TOSS]:
            s[COIN_USED + p] = 1
            s[COIN_BY] = p
            s[PHASE] = COIN_TOSS
        else:  # do not toss
            s[OFFER_I] += 1
            if s[OFFER_I] < s[N_OFFERS]:
                s[ACTOR] = s[OFFERS + s[OFFER_I]]
            else:
                go = GO_RESOLVE_TALE
    if go != GO_NONE:
        advance(s, R, go, arg, trace)


@compiled
def apply_action(s, R, a, trace):
    """Apply action or chance outcome ``a`` (assumed legal) to ``s``: :func:`step` as a compiled function (for the
    wrapper, the tree enumeration and the search players' single steps)."""
    step(s, R, a, trace)


# ====================================================================== whole games


@compiled
def scratch_size(R):
    """Entries of the scratch array :func:`random_action` needs."""
    return R[R_NUM_ACTIONS] + MAXC + 2 * MAXV


@inlined
def random_action(s, R, rng, buf):
    """``legal[below(rng, len(legal))]`` for the list :func:`legal_actions` would give, mostly without listing it.

    ``buf`` is scratch space of :func:`scratch_size` entries.
    """
    ph = s[PHASE]
    if ph == VOTE:  # [trust, distrust]: consecutive numbers
        return R[R_TRUST] + below(rng, 2)
    if ph == COIN_OFFER:  # [toss, no_toss]
        return R[R_TOSS] + below(rng, 2)
    if ph != ACTION:
        k = legal_actions(s, R, buf, buf[R[R_NUM_ACTIONS]:])
        return buf[below(rng, k)]
    # The turn's action. The list is: tales (Park value, then hand value), Use Reputation (hand value, then combo),
    # takes (hand value, then Park value). Only its parts' sizes are needed for the draw; the drawn entry is read off
    # bit masks of the values held and in the Park (and the combos listed, into buf, only when a Use Reputation action
    # is drawn). Masks and counts without branches: random play's hands are not predictable, and mispredicted
    # branches on them cost more than the counting (measured: a tenth of the rollout's time).
    V = R[R_VALUES]
    held = value_mask(s, HANDS + s[ACTIVE] * MAXV, V)
    if held == 0:
        return R[R_PASS]
    park = value_mask(s, PARK, V)
    nh = popcount16(held)
    npk = popcount16(park)
    nc = count_usable_combos(s, R)
    tales = npk * nh
    reps = nh * nc
    total = tales + reps + tales
    if total == 0:
        return R[R_PASS]
    # Index i of that list, split by subtraction (divisions are slow).
    i = below(rng, total)
    if i < tales:
        j = 0
        while i >= nh:
            i -= nh
            j += 1
        return R[R_TALE_BASE] + nth_bit(park, j) * V + nth_bit(held, i)
    i -= tales
    if i < reps:
        j = 0
        while i >= nc:
            i -= nc
            j += 1
        usable_combos(s, R, buf)
        return R[R_REP_BASE] + nth_bit(held, j) * R[R_NCOMBOS] + buf[i]
    i -= reps
    j = 0
    while i >= npk:
        i -= npk
        j += 1
    return R[R_TAKE_BASE] + nth_bit(held, j) * V + nth_bit(park, i)


@compiled
def play_batch(R, seeds, finals, trace, trace_off, hist, hist_off, max_turns, max_len, s, rng, buf, kinds, H, acts,
               probs):
    """One game per seed from the start, game ``g`` from ``seeds[g]`` alone, seat ``p`` played by kind ``kinds[p]``
    (:data:`SEAT_RANDOM`, or :data:`SEAT_HEURISTIC` with knobs ``H[p]``), chance by its probabilities.

    Writes each final state into ``finals[g]``; the score traces one after another into ``trace`` (game ``g``'s
    ``turns * players`` entries from ``trace_off[g]``); when ``hist`` is not empty the actions likewise into ``hist``
    and ``hist_off`` (-1 in ``hist_off[g + 1]`` if a game outran ``max_len``). ``s`` (a state), ``rng`` (one
    uint64), ``buf`` (:func:`scratch_size` int64), ``acts`` and ``probs`` (:data:`MAXA`) are scratch owned by the
    caller.
    """
    n = R[R_PLAYERS]
    keep = hist.shape[0] > 0
    trace_off[0] = 0
    hist_off[0] = 0
    for g in range(seeds.shape[0]):
        init_state(s, R)
        rng[0] = seeds[g]
        t0 = trace_off[g]
        tview = trace[t0:t0 + max_turns * n].reshape((max_turns, n))
        h0 = hist_off[g]
        hview = hist[h0:h0 + max_len] if keep else hist[:0]
        h = play_out_kinds(s, R, rng, buf, tview, hview, 0, kinds, H, acts, probs)
        for i in range(STATE_SIZE):
            finals[g, i] = s[i]
        trace_off[g + 1] = t0 + s[TURN] * n
        if h < 0:
            s[ERROR] = ERR_HISTORY_OVERFLOW
            finals[g, ERROR] = ERR_HISTORY_OVERFLOW
            h = 0
        hist_off[g + 1] = h0 + h


@compiled
def record_rows(F, R, ints, lists, empty_turn):
    """The record fields of finished games (final states ``F``, one per row) into one row per seat.

    Row ``i = g * players + p`` is seat ``p`` of game ``g``: ``ints[i]`` takes the :data:`INT_FIELDS`,
    ``lists[i, k]`` the :data:`LIST_FIELDS` (one entry per value) and ``empty_turn[i]`` each stack's emptying turn
    (NaN: never), as :mod:`trustme_analysis.games.pinocchio.analysis.records` defines them.
    """
    n = R[R_PLAYERS]
    V = R[R_VALUES]
    for g in range(F.shape[0]):
        winner = F[g, WINNER]
        best = F[g, TOTALS]
        for p in range(1, n):
            best = max(best, F[g, TOTALS + p])
        sharing = 0
        others = -(2**31)
        for p in range(n):
            if F[g, TOTALS + p] == best:
                sharing += 1
            if p != winner:
                others = max(others, F[g, TOTALS + p])
        trigger = F[g, END_TRIGGER]
        for p in range(n):
            i = g * n + p
            face = 0
            different = 0
            held = 0
            for v in range(V):
                k = F[g, TICKETS + p * MAXV + v]
                face += (v + 1) * k
                held += k
                if k:
                    different += 1
                lists[i, 0, v] = k
                for r in range(3):
                    lists[i, 1 + r, v] = F[g, TIX_ROUTE + (p * 3 + r) * MAXV + v]
                turn = F[g, STACK_EMPTY_TURN + v]
                empty_turn[i, v] = np.nan if turn < 0 else turn
            # Rank: 1 + players ahead on (points, Tickets); the tie-break winner is alone in first place.
            total = F[g, TOTALS + p]
            ahead = 0
            for q in range(n):
                tq = F[g, TOTALS + q]
                hq = 0
                for v in range(V):
                    hq += F[g, TICKETS + q * MAXV + v]
                if tq > total or (tq == total and hq > held) or (q == winner and q != p and tq == total
                                                                  and hq == held):
                    ahead += 1
            tt = F[g, ROWS + p * 4]
            td = F[g, ROWS + p * 4 + 1]
            lt = F[g, ROWS + p * 4 + 2]
            ld = F[g, ROWS + p * 4 + 3]
            ints[i, F_PLAYERS] = n
            ints[i, F_VALUES] = V
            ints[i, F_SCORE] = total
            ints[i, F_FACE] = face
            ints[i, F_BONUS] = R[R_CHART + different - 1] if different else 0
            ints[i, F_TICKETS] = held
            ints[i, F_DIFFERENT] = different
            ints[i, F_RANK] = 1 + ahead
            ints[i, F_WIN] = p == winner
            ints[i, F_WINNER] = winner
            ints[i, F_TURNS] = F[g, TURN]
            ints[i, F_RUNOUTS] = F[g, RUNOUTS]
            ints[i, F_DAYS] = 1 + F[g, DAYS_ENDED]
            ints[i, F_NIGHT] = F[g, DAYS_ENDED] % 2
            ints[i, F_TRIGGER] = trigger
            ints[i, F_END_STACK] = F[g, LAST_EMPTIED] if trigger == END_STACKS else -1
            ints[i, F_COMPLETED] = trigger != END_NONE
            ints[i, F_TOP_SHARED] = sharing > 1
            ints[i, F_TIE_BREAK] = F[g, TIE_BREAK_BY]
            ints[i, F_MARGIN] = F[g, TOTALS + winner] - others
            ints[i, F_TALES] = tt + td + lt + ld
            ints[i, F_TRUE] = tt + td
            ints[i, F_TALL] = lt + ld
            ints[i, F_TRUSTED] = tt + lt
            ints[i, F_DISTRUSTED] = td + ld
            ints[i, F_ROWS] = tt
            ints[i, F_ROWS + 1] = td
            ints[i, F_ROWS + 2] = lt
            ints[i, F_ROWS + 3] = ld
            ints[i, F_TALES_COIN] = F[g, TALES_COIN + p]
            ints[i, F_TALL_LOWER] = F[g, TALL_LOWER + p]
            ints[i, F_TALL_NONE] = F[g, TALL_NONE + p]
            ints[i, F_VOTES_CAST] = F[g, VOTES_CAST + p]
            ints[i, F_VOTES_TRUST] = F[g, VOTES_TRUST + p]
            ints[i, F_VOTES_CORRECT] = F[g, VOTES_CORRECT + p]
            ints[i, F_COIN_TOSSES] = F[g, COIN_TOSSES + p]
            ints[i, F_COIN_CHANCE] = F[g, COIN_CHANCE]
            ints[i, F_PARK_TAKES] = F[g, PARK_TAKES + p]
            ints[i, F_BONUS_TURNS] = F[g, BONUS_TURNS + p]
            ints[i, F_BONUS_FORFEITED] = F[g, BONUS_FORFEITED + p]


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


# ====================================================================== the heuristic seat
#
# The heuristic player of :mod:`trustme_analysis.games.pinocchio.players.bots` (``PinocchioHeuristicBot.
# action_probabilities``) as compiled code, reading only what its seat may see: its own hand, the Park, every
# Reputation, the Tickets, the Ticket stacks, the discard pile, the deck's size, hand sizes and the tale's claimed
# value. ``tests/games/test_pinocchio_heuristic_kernel.py`` checks the two give the same distribution (same support,
# probabilities within 1e-12) at every decision of many games. The knobs arrive as a float64 array (offsets ``H_*``,
# filled by ``kernel.heuristic_knobs``); the Python bot is the specification.

(H_BLUFF_RATE, H_BLUFF_CARDS, H_WHEN_STUCK, H_VOTE, H_THRESHOLD, H_ASSUMED_BLUFF, H_BONUS_VALUE, H_CASH_AT,
 H_CASH_BEFORE, H_PARK_PICK, H_COIN, H_REMEMBERS, H_VOTE_WEIGHT, H_TRUST_RATE, H_VOTE_WEIGHT_TALL,
 H_TRUST_RATE_TALL) = range(16)
HEURISTIC_KNOBS_SIZE = 16
# The last four are not the bot's knobs but a search player's model of one opponent: on a true tale it votes as the
# heuristic with probability H_VOTE_WEIGHT (1 for the bot itself), else trusts with probability H_TRUST_RATE; on a
# tall tale likewise with the _TALL pair.
#: ``bluff_cards`` and ``park_pick`` as numbers (the tuples' order is the code).
BLUFF_CARDS = ("big_gap", "small_gap", "random")
PARK_PICKS = ("fit", "high", "random")
VOTES_RULES = ("expected_value", "threshold")
#: Seat kinds of :func:`play_out_seats`.
SEAT_RANDOM, SEAT_HEURISTIC = 0, 1
# ---- trained seats (issue 28): played by kernel.trained.play_batch_trained, never by this file's loops
SEAT_TRAINED = 2
# ----
#: In :func:`vote_evidence`, the chance that a heuristic voter casts the vote the heuristic would not (a search
#: player's model allows for it, so that one surprising vote does not rule the heuristic out for good).
VOTE_NOISE = 0.05
_EXACT_COMB = 2.0**53


@inlined
def ticket_for_tale_k(s, difference):
    """The Ticket a trusted tall tale of this difference gains (the next lower value left, or 0): rules.
    ticket_for_tale."""
    value = difference
    while value >= 1:
        if s[STACKS + value - 1] > 0:
            return value
        value -= 1
    return 0


@inlined
def score_with(s, R, p, extra):
    """Seat ``p``'s Final Scoring with one more Ticket of value ``extra`` (0: none), as rules.score_breakdown."""
    V = R[R_VALUES]
    face = 0
    different = 0
    for v in range(V):
        k = s[TICKETS + p * MAXV + v]
        if v + 1 == extra:
            k += 1
        face += (v + 1) * k
        if k:
            different += 1
    return face + (R[R_CHART + different - 1] if different else 0)


@inlined
def cash_gain(s, R, p, a):
    """Points a Use Reputation (or free) action ``a`` adds to seat ``p``'s score, the chart's set bonus included."""
    length = R[R_COMBO_LEN + R[R_DEC_X + a]]
    return score_with(s, R, p, length) - score_with(s, R, p, 0)


@inlined
def keep_value(s, R, p, played):
    """How useful the hand Characters left after playing ``played`` (0: none) are: minus their matches in the Park."""
    V = R[R_VALUES]
    total = 0
    for w in range(V):
        k = s[HANDS + p * MAXV + w]
        if w + 1 == played and k > 0:
            k -= 1
        total += k * s[PARK + w]
    return -total


@inlined
def fit_k(s, p, value):
    """Size of the largest set or run seat ``p``'s Reputation would hold with ``value`` added (bots._fit)."""
    best = 0
    for v in range(MAXV):
        k = s[REPS + p * MAXV + v] + (1 if v + 1 == value else 0)
        if k > best:
            best = k
    v = value
    while v - 1 >= 1 and s[REPS + p * MAXV + v - 2] + (1 if v - 1 == value else 0) > 0:
        v -= 1
    run = 0
    while v <= MAXV and s[REPS + p * MAXV + v - 1] + (1 if v == value else 0) > 0:
        run += 1
        v += 1
    return max(best, run)


@inlined
def unseen_k(s, R, p, remembers, out):
    """Characters of each value seat ``p`` has not seen (bots.unseen_counts) into ``out``; returns their total."""
    V = R[R_VALUES]
    n = R[R_PLAYERS]
    total = 0
    for v in range(V):
        seen = s[PARK + v] + s[HANDS + p * MAXV + v]
        for q in range(n):
            seen += s[REPS + q * MAXV + v]
        if remembers:
            seen += s[DISCARD + v]
        k = R[R_PER_VALUE] - seen
        if k < 0:
            k = 0
        out[v] = k
        total += k
    return total


@inlined
def comb_ratio(a, b, h):
    """C(a, h) / C(b, h) for 0 <= a <= b and 0 < h <= b, as Python's exact ``comb(a, h) / comb(b, h)`` gives it
    (each binomial is computed exactly while it stays below 2**53, where a float holds it exactly; beyond that as a
    product of ratios)."""
    if a < h:
        return 0.0
    ca = 1.0
    cb = 1.0
    exact = True
    for i in range(h):
        if cb * (b - i) >= _EXACT_COMB:  # (ca <= cb: a product below this bound is exact for both)
            exact = False
            break
        ca = ca * (a - i) / (i + 1)
        cb = cb * (b - i) / (i + 1)
    if exact:
        return ca / cb
    r = 1.0
    for i in range(h):
        r *= (a - i) / (b - i)
    return r


@inlined
def heuristic_vote(s, R, H, p, unseen):
    """The heuristic's vote on the pending tale: R_TRUST or R_DISTRUST (bots.PinocchioHeuristicBot.vote)."""
    V = R[R_VALUES]
    claimed = s[TALE_PARK]
    total = unseen_k(s, R, p, H[H_REMEMBERS] > 0, unseen)
    teller = s[ACTIVE]
    hand = 1
    for v in range(V):
        hand += s[HANDS + teller * MAXV + v]
    k = unseen[claimed - 1]
    rho = 0.0
    if total > 0 and hand > 0:
        if hand > total:
            hand = total
        rho = 1.0 - comb_ratio(total - k, total, hand)
    if H[H_VOTE] == 1:
        return R[R_TRUST] if rho >= H[H_THRESHOLD] else R[R_DISTRUST]
    b = H[H_ASSUMED_BLUFF]
    truthful = rho * (1.0 - b)
    tot = truthful + b
    p_true = truthful / tot if tot > 0 else 0.0
    weight = 0
    stake_sum = 0
    for v in range(V):
        if v + 1 != claimed and unseen[v]:
            weight += unseen[v]
            stake_sum += unseen[v] * ticket_for_tale_k(s, abs(claimed - (v + 1)))
    stake = stake_sum / weight if weight else 0.0
    return R[R_TRUST] if p_true * H[H_BONUS_VALUE] >= (1.0 - p_true) * stake else R[R_DISTRUST]


@inlined
def best_cash(s, R, p, acts, n, cash_only):
    """Index into ``acts[:n]`` of the Use Reputation (or free) action adding most points, ties broken by the hand
    Character best kept (bots._best_cash); -1 when there is none. ``cash_only``: only Use Reputation actions."""
    best = -(2**31)
    for i in range(n):
        a = acts[i]
        if a >= R[R_REP_BASE] and (a < R[R_TAKE_BASE] or (not cash_only and a >= R[R_FREE_BASE]
                                                         and a < R[R_DECLINE])):
            g = cash_gain(s, R, p, a)
            if g > best:
                best = g
    pick = -1
    keep = 0
    for i in range(n):
        a = acts[i]
        if a >= R[R_REP_BASE] and (a < R[R_TAKE_BASE] or (not cash_only and a >= R[R_FREE_BASE]
                                                         and a < R[R_DECLINE])):
            if cash_gain(s, R, p, a) == best:
                kv = keep_value(s, R, p, R[R_DEC_HAND + a])
                if pick < 0 or kv < keep:
                    pick = i
                    keep = kv
    return pick


@inlined
def bluff_weights(R, H, acts, n, probs, scale):
    """Adds ``scale`` times the heuristic's choice among the tall tales in ``acts[:n]`` (bots._bluffs) to
    ``probs``."""
    mode = H[H_BLUFF_CARDS]
    target = -1
    count = 0
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]:
            gap = abs(R[R_DEC_HAND + a] - R[R_DEC_X + a])
            if mode == 2:
                count += 1
            elif target < 0 or (mode == 0 and gap > target) or (mode == 1 and gap < target):
                target = gap
                count = 1
            elif gap == target:
                count += 1
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]:
            if mode == 2 or abs(R[R_DEC_HAND + a] - R[R_DEC_X + a]) == target:
                probs[i] += scale * (1.0 / count)


@compiled
def heuristic_policy(s, R, H, acts, probs, buf):
    """The heuristic's distribution over the legal actions of the seat to act: ``acts[:n]`` (ascending) and
    ``probs[:n]`` (zeros included); returns ``n``. ``buf`` is scratch of :func:`scratch_size` entries."""
    n = legal_actions(s, R, acts, buf)
    for i in range(n):
        probs[i] = 0.0
    if n == 1:
        probs[0] = 1.0
        return n
    p = s[ACTOR]
    ph = s[PHASE]
    if ph == VOTE:
        a = heuristic_vote(s, R, H, p, buf)
        tall = s[TALE_HIDDEN] != s[TALE_PARK]
        weight = H[H_VOTE_WEIGHT_TALL] if tall else H[H_VOTE_WEIGHT]
        rate = H[H_TRUST_RATE_TALL] if tall else H[H_TRUST_RATE]
        probs[0 if a == acts[0] else 1] = weight
        if weight < 1.0:  # [trust, distrust]: a search player's model of this voter (in a sampled world)
            probs[0] += (1.0 - weight) * rate
            probs[1] += (1.0 - weight) * (1.0 - rate)
        return n
    if ph == COIN_OFFER:
        mine = s[VOTES + p]
        q = H[H_COIN] if mine >= 0 and mine != s[TRUSTED] else 0.0
        probs[0] = q  # [toss, no_toss]
        probs[1] = 1.0 - q
        return n
    if ph == FREE_REPUTATION:
        i = best_cash(s, R, p, acts, n, False)
        probs[i if i >= 0 else 0] = 1.0
        return n
    # The turn's action (bots._turn).
    ncash = 0
    ntrue = 0
    ntall = 0
    ntake = 0
    best_gain = -(2**31)
    for i in range(n):
        a = acts[i]
        if a < R[R_REP_BASE]:
            if R[R_DEC_HAND + a] == R[R_DEC_X + a]:
                ntrue += 1
            else:
                ntall += 1
        elif a < R[R_TAKE_BASE]:
            ncash += 1
            g = cash_gain(s, R, p, a)
            if g > best_gain:
                best_gain = g
        elif a < R[R_FREE_BASE]:
            ntake += 1
    if ncash and (best_gain >= H[H_CASH_AT] or s[DECK_TOTAL] <= H[H_CASH_BEFORE]):
        probs[best_cash(s, R, p, acts, n, True)] = 1.0
        return n
    rest = 1.0
    if ntall:
        bluff_weights(R, H, acts, n, probs, H[H_BLUFF_RATE])
        rest = 1.0 - H[H_BLUFF_RATE]
    if ntrue:
        for i in range(n):
            a = acts[i]
            if a < R[R_REP_BASE] and R[R_DEC_HAND + a] == R[R_DEC_X + a]:
                probs[i] += rest / ntrue
        return n
    if ntall and H[H_WHEN_STUCK] > 0:
        bluff_weights(R, H, acts, n, probs, rest)
        return n
    if ntake:
        mode = H[H_PARK_PICK]
        if mode == 2:
            for i in range(n):
                a = acts[i]
                if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                    probs[i] += rest / ntake
            return n
        top = -1
        for i in range(n):
            a = acts[i]
            if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                v = R[R_DEC_X + a]
                sc = v if mode == 1 else fit_k(s, p, v)
                if sc > top:
                    top = sc
        pick = -1
        keep = 0
        for i in range(n):
            a = acts[i]
            if a >= R[R_TAKE_BASE] and a < R[R_FREE_BASE]:
                v = R[R_DEC_X + a]
                sc = v if mode == 1 else fit_k(s, p, v)
                if sc == top:
                    kv = keep_value(s, R, p, R[R_DEC_HAND + a])
                    if pick < 0 or kv < keep:
                        pick = i
                        keep = kv
        probs[pick] += rest
        return n
    # Only tales (or only cashing) remain possible: the tall tales, else the cashing, else anything.
    for i in range(n):
        a = acts[i]
        tall = a < R[R_REP_BASE] and R[R_DEC_HAND + a] != R[R_DEC_X + a]
        cash = a >= R[R_REP_BASE] and a < R[R_TAKE_BASE]
        if (ntall and tall) or (not ntall and ncash and cash):
            probs[i] += rest / (ntall if ntall else ncash)
        elif not ntall and not ncash:
            probs[i] += rest / n
    return n


@inlined
def heuristic_action(s, R, H, rng, acts, probs, buf):
    """An action drawn from :func:`heuristic_policy` by the draw protocol (:mod:`trustme_analysis.engine.draws`): a
    sure action draws nothing, else one uniform number walks the actions in ascending order."""
    n = heuristic_policy(s, R, H, acts, probs, buf)
    last = 0
    positive = 0
    for i in range(n):
        if probs[i] > 0.0:
            last = i
            positive += 1
    if positive == 1:
        return acts[last]
    return acts[walk(probs, n, uniform01(rng))]


@compiled
def play_out_kinds(s, R, rng, buf, trace, hist, h0, kinds, H, acts, probs):
    """Play ``s`` to the end, seat ``p`` played by kind ``kinds[p]`` (:data:`SEAT_RANDOM`: :func:`random_action`,
    or :data:`SEAT_HEURISTIC` with knobs ``H[p]``, one uniform number a decision), chance by its probabilities.

    Writes the actions into ``hist[h0:]`` when ``hist`` is not empty; returns the index after the last one written
    (or -1 when ``hist`` was too short; the game is still played to the end). ``trace`` takes the score trace (0
    rows: off). ``acts`` and ``probs`` are scratch of :data:`MAXA` entries."""
    h = h0
    keep = hist.shape[0] > 0
    while s[PHASE] != TERMINAL:
        if is_chance_phase(s[PHASE]):
            a = sample_chance(s, R, rng)
        elif kinds[s[ACTOR]] == SEAT_HEURISTIC:
            a = heuristic_action(s, R, H[s[ACTOR]], rng, acts, probs, buf)
        else:
            a = random_action(s, R, rng, buf)
        if keep:
            if h >= 0 and h < hist.shape[0]:
                hist[h] = a
                h += 1
            else:
                h = -1
        step(s, R, a, trace)
    return h


@compiled
def play_out_seats(s, R, rng, buf, kinds, H, acts, probs):
    """Play ``s`` to the end by :func:`play_out_kinds` with no score trace and no history (rollouts)."""
    play_out_kinds(s, R, rng, buf, s[:0].reshape((0, MAXP)), s[:0], 0, kinds, H, acts, probs)


@compiled
def rollouts_seats(R, s0, n, seed, viewer, kinds, H, out, s, rng, buf, acts, probs):
    """``n`` playouts from ``s0``, each seat played by its kind (:func:`play_out_seats`); adds each one's returns
    into ``out`` (float64, ``2 * MAXP``: the first half takes the sums).

    With ``viewer >= 0`` every playout first resamples what ``viewer`` cannot see (:func:`determinize`). One
    SplitMix64 stream seeded with ``seed`` drives all of them, so the result depends only on the arguments. ``s``,
    ``rng`` and ``buf`` are scratch owned by the caller, as for :func:`play_batch`."""
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


# ====================================================================== worlds and paired rollouts for search players


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


# The functions here inline the draw primitives of engine/compiled_draws.py; numba checks only this file's stamp.
tie_cache_to_sources([f for f in list(globals().values()) if isinstance(f, CPUDispatcher)
                      and f.py_func.__module__ == __name__], compiled_draws)
