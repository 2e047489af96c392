"""The compiled rules of ``trustme_1981``: the state as one integer array, legal actions, chance outcomes, the
effect of an action, and whole games played in compiled code.

This is a second implementation of the rules in :mod:`~trustme_analysis.games.board1981.engine.game` (the engine, which is the
specification). It is proven identical to the engine step by step by ``tests/games/test_board1981_kernel.py`` and
``benchmarks/kernels_board1981.py --verify``; any change to the engine's rules must be mirrored here (the functions
carry the engine's method names).

Why everything compiled lives in this one module: numba's on-disk cache (``cache=True``) is invalidated only when the
source file of the cached function changes, not when a function or constant it uses from *another* module changes.
With all compiled code and the state layout in one file, editing any of it recompiles all of it.

The state is a ``int64`` array; its fields sit at the offsets below (``st[MONEY + p]`` is player ``p``'s money).
Sizes are fixed by :data:`MAX_PLAYERS` and :data:`MAX_PROPS`. The state also carries the per-seat record counters
that :mod:`~trustme_analysis.games.board1981.analysis.records` derives from the engine's events, updated where the engine
logs the event.

The fixed data of a game (board graph, decks, action layout) is one int64 array too, packed by
:func:`pack_rules` from what :mod:`~trustme_analysis.games.board1981.kernel.kernel` reads off the loaded pyspiel game.

Random numbers: SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014) with the
game's seed as its state, drawn by the draw protocol of :mod:`trustme_analysis.engine.draws` (which the pyspiel path
follows too, so both engines give the same games); an integer below ``k`` by Lemire's multiply-and-reject (exact). A
game depends on its seed alone.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit, types
from numba.extending import intrinsic

MAX_PLAYERS = 4
#: The kernel's limit on briefcases (a player's looks are a bit mask in one int64).
MAX_PROPS = 32

# ---------------------------------------------------------------------------------------------- phases
# The engine's phase numbers (game.py); a test checks they agree.
DEAL, FIRST, PEEK, TURN_START, ROLL, MOVE, PROPERTY_CHOICE, HOT_TIP_CHOICE, SEND, CARD = range(10)
BAMBOOZLE_ROLL, CHALLENGE_CHOICE, ROLL_OFF_CHALLENGER, ROLL_OFF_DEFENDER, INVEST_CHOICE, OVER = range(10, 16)

#: pyspiel's player ids for chance and the terminal state.
CHANCE_PLAYER = -1
TERMINAL_PLAYER = -4

# Space kinds of the board (board.py's names, as codes).
K_PROPERTY, K_WHITE, K_HOT_TIP, K_WILD_GOOSE_CHASE, K_COMPANY = range(5)

# Send reasons: an occupied space (the claim rules a/b apply) or a plain send (Bamboozled, challenge).
SEND_OCCUPIED, SEND_PLAIN = 0, 1

# How a game ended (the engine's end reasons).
END_NONE, END_TWO_CASES_LEFT, END_TURN_CAP = 0, 1, 2

# The roll_off_tie parameter and the utility parameter, as codes.
TIE_REROLL, TIE_DEFENDER, TIE_CHALLENGER = 0, 1, 2
U_WIN_LOSS, U_WEALTH, U_WEALTH_DIFF = 0, 1, 2

# Payoff rows, in the rule text's order (investing.py).
ONE_STACK, TWO_STACKS, EMPTY, BEEN_HAD = 0, 1, 2, 3
NUM_PAYOFF_KINDS = 4

# ---------------------------------------------------------------------------------------------- record counters
#: Per-seat counters of the records (the names and order of records.records_from_snapshot's counters).
COUNTERS = (
    "claims_unseen", "claims_looked", "claims_known", "claims_taken", "claims_lost", "looks", "hot_tips", "peeks",
    "bought_known", "bought_unknown", "divested_known", "divested_unknown", "decisions_known",
    "decisions_unknown", "bought_own", "divested_own", "claimant_rounds", "reserve_received", "wgc_sent",
    "wgc_received", "cards_move", "cards_bamboozled", "cards_challenge", "bamboozled_escaped", "challenges_made",
    "challenges_won", "challenges_lost", "defences_won", "defences_lost",
)
(
    C_CLAIMS_UNSEEN, C_CLAIMS_LOOKED, C_CLAIMS_KNOWN, C_CLAIMS_TAKEN, C_CLAIMS_LOST, C_LOOKS, C_HOT_TIPS, C_PEEKS,
    C_BOUGHT_KNOWN, C_BOUGHT_UNKNOWN, C_DIVESTED_KNOWN, C_DIVESTED_UNKNOWN, C_DECISIONS_KNOWN,
    C_DECISIONS_UNKNOWN, C_BOUGHT_OWN, C_DIVESTED_OWN, C_CLAIMANT_ROUNDS, C_RESERVE_RECEIVED, C_WGC_SENT,
    C_WGC_RECEIVED, C_CARDS_MOVE, C_CARDS_BAMBOOZLED, C_CARDS_CHALLENGE, C_BAMBOOZLED_ESCAPED, C_CHALLENGES_MADE,
    C_CHALLENGES_WON, C_CHALLENGES_LOST, C_DEFENCES_WON, C_DEFENCES_LOST,
) = range(len(COUNTERS))
NUM_COUNTERS = len(COUNTERS)

#: Per-seat lists with one entry per payoff row.
ROW_LISTS = (
    "gain_per_row", "gain_known_per_row", "gain_unknown_per_row", "reveals_known_per_row",
    "claimant_rounds_per_row", "reserve_per_row",
)
L_GAIN, L_GAIN_KNOWN, L_GAIN_UNKNOWN, L_REVEALS_KNOWN, L_CLAIMANT_ROUNDS, L_RESERVE = range(len(ROW_LISTS))
NUM_ROW_LISTS = len(ROW_LISTS)

# ---------------------------------------------------------------------------------------------- state layout
# Scalars.
PHASE = 0
DECIDER = 1  # who decides in a decision phase
TURN_PLAYER = 2
FIRST_PLAYER = 3
DEALT = 4  # Payoff cards dealt so far
ROLL_FACE = 5  # the die roll being moved
CLAIMANT = 6
INVEST_IDX = 7
RESERVE = 8
PEEK_IDX = 9
TURNS = 10
BANK_IN = 11
BANK_OUT = 12
SHARES_LOST = 13
END = 14
NUM_SENDS = 15  # pending Wild Goose Chase sends, a queue at SENDS
CH_CHALLENGER = 16  # the challenge: challenger, defender, challenger's roll, ties so far
CH_DEFENDER = 17
CH_FIRST_ROLL = 18
CH_TIES = 19
REC_CLAIMED = 20  # records: the briefcase of the investing round
REC_ROW = 21  # records: the payoff row of the last reveal
REC_PENDING_CHALLENGE = 22  # records: a challenge awaits its send (1) or not (0)
# Per player.
POS = 24
MONEY = POS + MAX_PLAYERS
SHARES = MONEY + MAX_PLAYERS
CLAIM = SHARES + MAX_PLAYERS
LOOKED = CLAIM + MAX_PLAYERS  # bit mask of briefcases the player has looked under
MAY_CLAIM = LOOKED + MAX_PLAYERS  # property looked at last turn (may claim it at the next turn start), or -1
CLAIM_KNEW = MAY_CLAIM + MAX_PLAYERS  # the player chose its claim after looking under the briefcase (1) or not (0)
ROUND_SIGNALS = CLAIM_KNEW + MAX_PLAYERS  # the i-th decision of the investing round: SIGNAL_BUY/HOLD/DIVEST
REVEALED = ROUND_SIGNALS + MAX_PLAYERS  # Payoff cards turned up, per kind
SENDS = REVEALED + NUM_PAYOFF_KINDS  # up to MAX_PLAYERS - 1 sends of (sender, target, reason)
CARDS = SENDS + 3 * MAX_PLAYERS  # Payoff card per briefcase
REMOVED = CARDS + MAX_PROPS  # briefcase removed after its reveal
DECK = REMOVED + MAX_PROPS  # Trust Me draw pile: count per card id
# Records.
COUNTS = DECK + MAX_PROPS + 2  # COUNTS + c * MAX_PLAYERS + p
ROWS = COUNTS + NUM_COUNTERS * MAX_PLAYERS  # ROWS + (l * NUM_PAYOFF_KINDS + row) * MAX_PLAYERS + p
REVEALS_PER_ROW = ROWS + NUM_ROW_LISTS * NUM_PAYOFF_KINDS * MAX_PLAYERS
STATE_SIZE = REVEALS_PER_ROW + NUM_PAYOFF_KINDS

# ---------------------------------------------------------------------------------------------- rules layout
# The fixed data of one loaded game is one int64 array too (a named tuple of arrays would be copied and reference
# counted at every compiled call). Scalars sit at the R_* slots below; each table's slot holds the index where the
# table starts in the same array, so table ``T`` is read as ``r[r[T] + i]``.
RULE_SCALARS = (
    # sizes
    "R_N", "R_NUM_PROPS", "R_COMPANY", "R_NUM_WGC", "R_DIE_FACES", "R_MAX_ROLL_OFF_TIES", "R_NUM_LOTS", "R_BUY_MAX",
    # action layout (the engine's a_* offsets)
    "R_A_LOOK", "R_A_CLAIM_UNSEEN", "R_A_DECLINE", "R_A_ROLL", "R_A_CLAIM_LOOKED", "R_A_INVEST_NOW", "R_A_FIRST_CASE",
    "R_A_FIRST_SEND", "R_A_FIRST_CHALLENGE", "R_A_FIRST_INVEST", "R_NUM_ACTIONS",
    # parameters
    "R_START_MONEY", "R_START_SHARES", "R_PEEK", "R_ROLL_OFF_TIE", "R_UTILITY", "R_MAX_TURNS",
    # the engine's bound on a game's length (actions and chance outcomes)
    "R_MAX_GAME_LENGTH",
)
RULE_TABLES = (
    "R_PAYOFF_MIX",  # payoff_mix: count per Payoff card kind
    "R_TRUST_DECK",  # the full Trust Me deck: count per card id (move to property q, Bamboozled, Challenge)
    "R_ESCAPES",  # per die face: 1 if that roll escapes a Bamboozled card
    "R_LOTS",  # the share lots one investing decision may buy or divest
    "R_KIND",  # per space: its kind code
    "R_SPACE_PROPERTY",  # per space: the property of a colored space, else -1
    "R_HOT_TIP_AREA",  # per space: the street a Hot Tip points at, else -1
    "R_AREA_MASK",  # per street: bit mask of its properties
    "R_PROPERTY_FIRST_SPACE",  # per property: its first colored space (where a Trust Me move card puts a piece)
    "R_WILD_GOOSE_CHASE",  # the Wild Goose Chase spaces, in board order
    # Move options of (space, roll, has a claim) are R_MOVE_LIST[start : start + count], slot given by move_slot().
    "R_MOVE_START",
    "R_MOVE_COUNT",
    "R_MOVE_LIST",
    "R_DIST_COMPANY",  # per space: steps to the Company (the heuristic players' distances)
)
(
    R_N, R_NUM_PROPS, R_COMPANY, R_NUM_WGC, R_DIE_FACES, R_MAX_ROLL_OFF_TIES, R_NUM_LOTS, R_BUY_MAX,
    R_A_LOOK, R_A_CLAIM_UNSEEN, R_A_DECLINE, R_A_ROLL, R_A_CLAIM_LOOKED, R_A_INVEST_NOW, R_A_FIRST_CASE,
    R_A_FIRST_SEND, R_A_FIRST_CHALLENGE, R_A_FIRST_INVEST, R_NUM_ACTIONS,
    R_START_MONEY, R_START_SHARES, R_PEEK, R_ROLL_OFF_TIE, R_UTILITY, R_MAX_TURNS, R_MAX_GAME_LENGTH,
    R_PAYOFF_MIX, R_TRUST_DECK, R_ESCAPES, R_LOTS, R_KIND, R_SPACE_PROPERTY, R_HOT_TIP_AREA, R_AREA_MASK,
    R_PROPERTY_FIRST_SPACE, R_WILD_GOOSE_CHASE, R_MOVE_START, R_MOVE_COUNT, R_MOVE_LIST, R_DIST_COMPANY,
) = range(len(RULE_SCALARS) + len(RULE_TABLES))

# ---------------------------------------------------------------------------------------------- heuristic knobs
# The heuristic players' knobs as one float64 array (heuristic.HeuristicKnobs, in this order).
KNOBS = ("claim_unseen", "claim_empty", "invest_threshold", "divest_threshold", "stake", "signal_weight")
KN_CLAIM_UNSEEN, KN_CLAIM_EMPTY, KN_INVEST_THRESHOLD, KN_DIVEST_THRESHOLD, KN_STAKE, KN_SIGNAL_WEIGHT = range(6)
# An investing decision as a signal (heuristic.SIGNAL_*).
SIGNAL_BUY, SIGNAL_HOLD, SIGNAL_DIVEST = 0, 1, 2


def pack_rules(scalars: dict[str, int], tables: dict[str, "np.ndarray"]) -> np.ndarray:
    """The rules array from every ``R_*`` scalar and table by name (see RULE_SCALARS and RULE_TABLES)."""
    if set(scalars) != set(RULE_SCALARS) or set(tables) != set(RULE_TABLES):
        raise ValueError("pack_rules needs exactly the R_* scalars and tables")
    head = len(RULE_SCALARS) + len(RULE_TABLES)
    parts = [np.zeros(head, np.int64)]
    at = head
    for i, name in enumerate(RULE_SCALARS):
        parts[0][i] = int(scalars[name])
    for i, name in enumerate(RULE_TABLES):
        table = np.asarray(tables[name], np.int64).ravel()
        parts[0][len(RULE_SCALARS) + i] = at
        parts.append(table)
        at += len(table)
    return np.concatenate(parts)


# ---------------------------------------------------------------------------------------------- unmanaged views

@intrinsic
def _data_pointer(typingctx, arr):
    """The data pointer of a contiguous array (for :func:`unmanaged`)."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True)
def unmanaged(a):
    """A view of the contiguous array ``a`` without a reference count; valid only while ``a`` is alive.

    Why: numba counts references to every array passed into a compiled call or bound to a new name, with atomic
    operations; in the play loop these took more than half of the time (measured with ``perf``). The loops
    (:func:`play_games`, :func:`rollout_returns`) play on unmanaged views of arrays they hold for the whole loop.
    """
    return carray(_data_pointer(a), a.shape)


# ---------------------------------------------------------------------------------------------- random numbers

@njit(cache=True)
def next_u64(rng):
    """SplitMix64: advance ``rng[0]`` and return the next 64-bit output."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform(rng):
    """A uniform float in ``[0, 1)`` (the top 53 bits of the next output)."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def below(rng, k):
    """A uniform integer in ``[0, k)`` (``0 < k < 2**32``), exactly: D. Lemire's multiply-and-reject on the top 32 bits
    of an output ("Fast random integer generation in an interval", ACM TOMACS 29(1), 2019), as
    :meth:`trustme_analysis.engine.draws.GameStream.below` draws it."""
    un = np.uint64(k)
    m = (next_u64(rng) >> np.uint64(32)) * un
    low = m & np.uint64(0xFFFFFFFF)
    if low < un:
        floor = (np.uint64(1 << 32) - un) % un
        while low < floor:
            m = (next_u64(rng) >> np.uint64(32)) * un
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True)
def walk(items, probs, k, rng):
    """``items[i]`` of the first ``k`` picked by the draw protocol (:mod:`trustme_analysis.engine.draws`): one with
    positive probability is taken without a draw; otherwise one uniform number walks them in order."""
    last = -1
    positive = 0
    for i in range(k):
        if probs[i] > 0.0:
            last = i
            positive += 1
    if positive == 1:
        return items[last]
    u = uniform(rng)
    for i in range(k):
        if probs[i] > 0.0:
            if u < probs[i]:
                return items[i]
            u -= probs[i]
    return items[last]


# ---------------------------------------------------------------------------------------------- helpers for rules

@njit(cache=True)
def count(st, counter, p, amount):
    """Add ``amount`` to seat ``p``'s record counter."""
    st[COUNTS + counter * MAX_PLAYERS + p] += amount


@njit(cache=True)
def count_row(st, lst, row, p, amount):
    """Add ``amount`` to seat ``p``'s per-row record list ``lst`` at payoff row ``row``."""
    st[ROWS + (lst * NUM_PAYOFF_KINDS + row) * MAX_PLAYERS + p] += amount


@njit(cache=True)
def has_looked(st, p, q):
    return (st[LOOKED + p] >> q) & 1


@njit(cache=True)
def look(st, p, q):
    st[LOOKED + p] |= np.int64(1) << q


@njit(cache=True)
def claimed_by(st, r, q):
    for p in range(r[R_N]):
        if st[CLAIM + p] == q:
            return p
    return -1


@njit(cache=True)
def is_open_case(st, r, q):
    """Briefcase ``q`` is still on the board and unclaimed."""
    return st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0


@njit(cache=True)
def may_claim_now(st, r, p):
    q = st[MAY_CLAIM + p]
    return q >= 0 and st[CLAIM + p] < 0 and st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0


@njit(cache=True)
def has_challenge_target(st, r, p):
    for q in range(r[R_N]):
        if q != p and st[CLAIM + q] >= 0:
            return True
    return False


@njit(cache=True)
def area_has_open_case(st, r, area):
    for q in range(r[R_NUM_PROPS]):
        if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q):
            return True
    return False


@njit(cache=True)
def move_slot(st, r, p):
    """Index into the move table for player ``p``'s roll (the claimant's options may include the Company)."""
    has_claim = 1 if st[CLAIM + p] >= 0 else 0
    return (st[POS + p] * (r[R_DIE_FACES] + 1) + st[ROLL_FACE]) * 2 + has_claim


@njit(cache=True)
def trust_deck_total(st, r):
    total = 0
    for c in range(r[R_NUM_PROPS] + 2):
        total += st[DECK + c]
    return total


@njit(cache=True)
def wealth(st, p):
    return st[MONEY + p] + st[SHARES + p]


# ---------------------------------------------------------------------------------------------- the pyspiel API

@njit(cache=True)
def init_state(st, r):
    """The start of a game: nothing dealt yet (TrustMe1981State.__init__)."""
    st[:] = 0
    st[PHASE] = DEAL
    st[CLAIMANT] = -1
    st[CH_CHALLENGER] = -1
    st[CH_DEFENDER] = -1
    st[REC_ROW] = -1
    for p in range(MAX_PLAYERS):
        st[POS + p] = r[R_COMPANY]
        st[MONEY + p] = r[R_START_MONEY] if p < r[R_N] else 0
        st[SHARES + p] = r[R_START_SHARES] if p < r[R_N] else 0
        st[CLAIM + p] = -1
        st[MAY_CLAIM + p] = -1
    for c in range(r[R_NUM_PROPS] + 2):
        st[DECK + c] = r[r[R_TRUST_DECK] + c]


@njit(cache=True)
def is_chance(st):
    ph = st[PHASE]
    return (
        ph == DEAL or ph == FIRST or ph == ROLL or ph == CARD or ph == BAMBOOZLE_ROLL
        or ph == ROLL_OFF_CHALLENGER or ph == ROLL_OFF_DEFENDER
    )


@njit(cache=True)
def current_player(st):
    if st[PHASE] == OVER:
        return TERMINAL_PLAYER
    if is_chance(st):
        return CHANCE_PLAYER
    return st[DECIDER]


@njit(cache=True)
def chance_outcomes(st, r, actions, weights):
    """Fill ``actions`` and their integer ``weights`` (probability = weight / total); return (count, total)."""
    ph = st[PHASE]
    k = 0
    total = 0
    if ph == DEAL:
        for kind in range(NUM_PAYOFF_KINDS):
            left = r[r[R_PAYOFF_MIX] + kind]
            for i in range(st[DEALT]):
                if st[CARDS + i] == kind:
                    left -= 1
            if left > 0:
                actions[k] = kind
                weights[k] = left
                total += left
                k += 1
    elif ph == FIRST:
        for p in range(r[R_N]):
            actions[k] = p
            weights[k] = 1
            k += 1
        total = r[R_N]
    elif ph == CARD:
        # An empty draw pile is reshuffled (the drawn cards become a new pile).
        fresh = trust_deck_total(st, r) == 0
        for c in range(r[R_NUM_PROPS] + 2):
            left = r[r[R_TRUST_DECK] + c] if fresh else st[DECK + c]
            if left > 0:
                actions[k] = c
                weights[k] = left
                total += left
                k += 1
    else:  # a die roll: outcome f is a roll of f + 1
        for f in range(r[R_DIE_FACES]):
            actions[k] = f
            weights[k] = 1
            k += 1
        total = r[R_DIE_FACES]
    return k, total


@njit(cache=True)
def legal_actions(st, r, out):
    """Fill ``out`` with the current player's legal actions in ascending order; return how many."""
    ph = st[PHASE]
    p = st[DECIDER]
    k = 0
    if ph == TURN_START:
        out[k] = r[R_A_ROLL]
        k += 1
        if may_claim_now(st, r, p):
            out[k] = r[R_A_CLAIM_LOOKED]
            k += 1
        if st[CLAIM + p] >= 0 and st[POS + p] == r[R_COMPANY]:
            out[k] = r[R_A_INVEST_NOW]
            k += 1
    elif ph == MOVE:
        i = move_slot(st, r, p)
        start = r[r[R_MOVE_START] + i]
        for j in range(r[r[R_MOVE_COUNT] + i]):
            out[k] = r[r[R_MOVE_LIST] + start + j]
            k += 1
    elif ph == PROPERTY_CHOICE:
        out[k] = r[R_A_LOOK]
        k += 1
        if st[CLAIM + p] < 0:
            out[k] = r[R_A_CLAIM_UNSEEN]
            k += 1
        out[k] = r[R_A_DECLINE]
        k += 1
    elif ph == HOT_TIP_CHOICE:
        out[k] = r[R_A_DECLINE]
        k += 1
        area = r[r[R_HOT_TIP_AREA] + st[POS + p]]
        for q in range(r[R_NUM_PROPS]):
            if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q):
                out[k] = r[R_A_FIRST_CASE] + q
                k += 1
    elif ph == PEEK:
        out[k] = r[R_A_DECLINE]
        k += 1
        for q in range(r[R_NUM_PROPS]):
            out[k] = r[R_A_FIRST_CASE] + q
            k += 1
    elif ph == SEND:
        for w in range(r[R_NUM_WGC]):
            out[k] = r[R_A_FIRST_SEND] + w
            k += 1
    elif ph == CHALLENGE_CHOICE:
        out[k] = r[R_A_DECLINE]
        k += 1
        for q in range(r[R_N]):
            if q != p and st[CLAIM + q] >= 0:
                out[k] = r[R_A_FIRST_CHALLENGE] + q
                k += 1
    elif ph == INVEST_CHOICE:
        k = investing_legal(r, st[MONEY + p], st[SHARES + p], out)
    return k


@njit(cache=True, inline="always")
def investing_legal(r, money, shares, out):
    """InvestingRules.legal: hold; buy a lot you can pay; buy max (when on, with money that is not itself a lot);
    divest a lot you hold; divest all if you hold any."""
    num_lots = r[R_NUM_LOTS]
    first_divest = num_lots + 1 + r[R_BUY_MAX]
    k = 0
    out[k] = r[R_A_FIRST_INVEST]
    k += 1
    money_is_a_lot = False
    for i in range(num_lots):
        if r[r[R_LOTS] + i] <= money:
            out[k] = r[R_A_FIRST_INVEST] + 1 + i
            k += 1
        if r[r[R_LOTS] + i] == money:
            money_is_a_lot = True
    if r[R_BUY_MAX] and money > 0 and not money_is_a_lot:
        out[k] = r[R_A_FIRST_INVEST] + num_lots + 1
        k += 1
    for i in range(num_lots):
        if r[r[R_LOTS] + i] <= shares:
            out[k] = r[R_A_FIRST_INVEST] + first_divest + i
            k += 1
    if shares > 0:
        out[k] = r[R_A_FIRST_INVEST] + first_divest + num_lots
        k += 1
    return k


@njit(cache=True)
def apply_action(st, r, action):
    """Apply a legal action or chance outcome (TrustMe1981State._apply_action)."""
    ph = st[PHASE]
    if ph == DEAL:
        st[CARDS + st[DEALT]] = action
        st[DEALT] += 1
        if st[DEALT] == r[R_NUM_PROPS]:
            st[PHASE] = FIRST
    elif ph == FIRST:
        st[FIRST_PLAYER] = action
        if r[R_PEEK]:
            st[PHASE] = PEEK
            st[PEEK_IDX] = 0
            st[DECIDER] = action
        else:
            start_turn(st, r, action)
    elif ph == PEEK:
        apply_peek(st, r, action)
    elif ph == TURN_START:
        apply_turn_start(st, r, action)
    elif ph == ROLL:
        apply_roll(st, r, action + 1)
    elif ph == MOVE:
        apply_move(st, r, action)
    elif ph == PROPERTY_CHOICE:
        apply_property_choice(st, r, action)
    elif ph == HOT_TIP_CHOICE:
        apply_hot_tip(st, r, action)
    elif ph == SEND:
        apply_send(st, r, action)
    elif ph == CARD:
        apply_card(st, r, action)
    elif ph == BAMBOOZLE_ROLL:
        apply_bamboozle_roll(st, r, action + 1)
    elif ph == CHALLENGE_CHOICE:
        apply_challenge(st, r, action)
    elif ph == ROLL_OFF_CHALLENGER or ph == ROLL_OFF_DEFENDER:
        apply_roll_off(st, r, action + 1)
    elif ph == INVEST_CHOICE:
        apply_invest(st, r, action)


@njit(cache=True)
def returns(st, r, out):
    """Fill ``out`` with the returns (zeros before the end): wealth_returns of the utility parameter."""
    n = r[R_N]
    for p in range(n):
        out[p] = 0.0
    if st[PHASE] != OVER:
        return
    if r[R_UTILITY] == U_WEALTH:
        for p in range(n):
            out[p] = np.float64(wealth(st, p))
        return
    if r[R_UTILITY] == U_WEALTH_DIFF:
        out[0] = np.float64(wealth(st, 0) - wealth(st, 1))
        out[1] = np.float64(wealth(st, 1) - wealth(st, 0))
        return
    # win_loss: the richest share the win; all tied gives 0.
    top = wealth(st, 0)
    for p in range(1, n):
        top = max(top, wealth(st, p))
    k = 0
    for p in range(n):
        if wealth(st, p) == top:
            k += 1
    if k == n:
        return
    for p in range(n):
        out[p] = 1.0 / k if wealth(st, p) == top else -1.0 / (n - k)


# ---------------------------------------------------------------------------------------------- turn structure

@njit(cache=True)
def start_turn(st, r, p):
    if st[TURNS] >= r[R_MAX_TURNS]:
        finish(st, END_TURN_CAP)
        return
    st[TURNS] += 1
    st[TURN_PLAYER] = p
    st[DECIDER] = p
    if may_claim_now(st, r, p) or (st[CLAIM + p] >= 0 and st[POS + p] == r[R_COMPANY]):
        st[PHASE] = TURN_START
    else:
        st[MAY_CLAIM + p] = -1
        st[PHASE] = ROLL


@njit(cache=True)
def end_turn(st, r):
    start_turn(st, r, (st[TURN_PLAYER] + 1) % r[R_N])


@njit(cache=True)
def finish(st, reason):
    st[END] = reason
    st[PHASE] = OVER


@njit(cache=True, inline="always")
def apply_peek(st, r, action):
    p = st[DECIDER]
    if action != r[R_A_DECLINE]:
        look(st, p, action - r[R_A_FIRST_CASE])
        count(st, C_PEEKS, p, 1)
    st[PEEK_IDX] += 1
    if st[PEEK_IDX] == r[R_N]:
        start_turn(st, r, st[FIRST_PLAYER])
    else:
        st[DECIDER] = (st[FIRST_PLAYER] + st[PEEK_IDX]) % r[R_N]


@njit(cache=True, inline="always")
def claim(st, p, q, counter):
    """Player ``p`` places a claim marker on ``q`` by a claim action (records: which action, and known or not)."""
    st[CLAIM + p] = q
    st[CLAIM_KNEW + p] = has_looked(st, p, q)
    count(st, counter, p, 1)
    count(st, C_CLAIMS_KNOWN, p, has_looked(st, p, q))


@njit(cache=True, inline="always")
def apply_turn_start(st, r, action):
    p = st[DECIDER]
    right = st[MAY_CLAIM + p]
    st[MAY_CLAIM + p] = -1
    if action == r[R_A_CLAIM_LOOKED]:
        claim(st, p, right, C_CLAIMS_LOOKED)
        st[PHASE] = ROLL
    elif action == r[R_A_INVEST_NOW]:
        start_investing(st, r, p)
    else:
        st[PHASE] = ROLL


@njit(cache=True, inline="always")
def apply_roll(st, r, face):
    p = st[DECIDER]
    if face == 1:
        st[PHASE] = CARD
        return
    st[ROLL_FACE] = face
    if r[r[R_MOVE_COUNT] + move_slot(st, r, p)] > 0:
        st[PHASE] = MOVE
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_move(st, r, dest):
    p = st[DECIDER]
    n = r[R_N]
    st[POS + p] = dest
    kind = r[r[R_KIND] + dest]
    if kind == K_COMPANY:
        if st[CLAIM + p] >= 0:
            start_investing(st, r, p)
        else:
            end_turn(st, r)
        return
    # Occupants are sent on a Wild Goose Chase one by one, in turn order from the mover's left.
    k = 0
    for i in range(1, n):
        o = (p + i) % n
        if st[POS + o] == dest:
            st[SENDS + 3 * k] = p
            st[SENDS + 3 * k + 1] = o
            st[SENDS + 3 * k + 2] = SEND_OCCUPIED
            k += 1
    if k > 0:
        st[NUM_SENDS] = k
        st[PHASE] = SEND
        st[DECIDER] = p
        return
    if kind == K_PROPERTY:
        arrive_at_property(st, r, p, r[r[R_SPACE_PROPERTY] + dest])
    elif kind == K_HOT_TIP and area_has_open_case(st, r, r[r[R_HOT_TIP_AREA] + dest]):
        st[PHASE] = HOT_TIP_CHOICE
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def arrive_at_property(st, r, p, q):
    if st[REMOVED + q] != 0 or claimed_by(st, r, q) >= 0:
        end_turn(st, r)
    else:
        st[PHASE] = PROPERTY_CHOICE
        st[DECIDER] = p


@njit(cache=True, inline="always")
def apply_property_choice(st, r, action):
    p = st[DECIDER]
    q = r[r[R_SPACE_PROPERTY] + st[POS + p]]
    if action == r[R_A_LOOK]:
        look(st, p, q)
        st[MAY_CLAIM + p] = q
        count(st, C_LOOKS, p, 1)
        end_turn(st, r)
    elif action == r[R_A_CLAIM_UNSEEN]:
        claim(st, p, q, C_CLAIMS_UNSEEN)
        st[PHASE] = ROLL
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_hot_tip(st, r, action):
    p = st[DECIDER]
    if action != r[R_A_DECLINE]:
        look(st, p, action - r[R_A_FIRST_CASE])
        count(st, C_HOT_TIPS, p, 1)
    end_turn(st, r)


@njit(cache=True, inline="always")
def apply_send(st, r, action):
    sender = st[SENDS]
    target = st[SENDS + 1]
    reason = st[SENDS + 2]
    # Pop the queue's head.
    st[NUM_SENDS] -= 1
    for i in range(3 * st[NUM_SENDS]):
        st[SENDS + i] = st[SENDS + 3 + i]
    st[POS + target] = r[r[R_WILD_GOOSE_CHASE] + action - r[R_A_FIRST_SEND]]
    count(st, C_WGC_RECEIVED, target, 1)
    if sender != target:
        count(st, C_WGC_SENT, sender, 1)
    if st[REC_PENDING_CHALLENGE]:
        # The send that follows a challenge is made by its winner.
        challenger = st[CH_CHALLENGER]
        defender = st[CH_DEFENDER]
        if sender == challenger:
            count(st, C_CHALLENGES_WON, challenger, 1)
            count(st, C_DEFENCES_LOST, defender, 1)
        else:
            count(st, C_CHALLENGES_LOST, challenger, 1)
            count(st, C_DEFENCES_WON, defender, 1)
        st[REC_PENDING_CHALLENGE] = 0
    if reason == SEND_OCCUPIED and st[CLAIM + target] >= 0:
        q = st[CLAIM + target]
        st[CLAIM + target] = -1
        count(st, C_CLAIMS_LOST, target, 1)
        if st[CLAIM + sender] < 0:  # rule a): the opponent's claim becomes yours
            st[CLAIM + sender] = q
            st[CLAIM_KNEW + sender] = 0
            count(st, C_CLAIMS_TAKEN, sender, 1)
        # rule b): the opponent's marker is removed, yours stays
    if st[NUM_SENDS] > 0:
        st[DECIDER] = st[SENDS]
    else:
        end_turn(st, r)


@njit(cache=True, inline="always")
def apply_card(st, r, card):
    p = st[DECIDER]
    if trust_deck_total(st, r) == 0:
        for c in range(r[R_NUM_PROPS] + 2):
            st[DECK + c] = r[r[R_TRUST_DECK] + c]
    st[DECK + card] -= 1
    if card < r[R_NUM_PROPS]:
        count(st, C_CARDS_MOVE, p, 1)
        if st[REMOVED + card] != 0:
            end_turn(st, r)
            return
        st[POS + p] = r[r[R_PROPERTY_FIRST_SPACE] + card]
        arrive_at_property(st, r, p, card)
    elif card == r[R_NUM_PROPS]:
        count(st, C_CARDS_BAMBOOZLED, p, 1)
        st[PHASE] = BAMBOOZLE_ROLL
    else:
        count(st, C_CARDS_CHALLENGE, p, 1)
        if st[CLAIM + p] >= 0:
            # "If you already have a claim when you draw this card, go straight to the Trust Me Investment Company."
            st[POS + p] = r[R_COMPANY]
            start_investing(st, r, p)
        elif has_challenge_target(st, r, p):
            st[PHASE] = CHALLENGE_CHOICE
        else:
            end_turn(st, r)


@njit(cache=True, inline="always")
def apply_bamboozle_roll(st, r, face):
    p = st[DECIDER]
    if r[r[R_ESCAPES] + face]:
        count(st, C_BAMBOOZLED_ESCAPED, p, 1)
        end_turn(st, r)
        return
    if st[CLAIM + p] >= 0:
        count(st, C_CLAIMS_LOST, p, 1)
        st[CLAIM + p] = -1
    st[SENDS] = p
    st[SENDS + 1] = p
    st[SENDS + 2] = SEND_PLAIN
    st[NUM_SENDS] = 1
    st[PHASE] = SEND


@njit(cache=True, inline="always")
def apply_challenge(st, r, action):
    p = st[DECIDER]
    if action == r[R_A_DECLINE]:
        end_turn(st, r)
        return
    st[CH_CHALLENGER] = p
    st[CH_DEFENDER] = action - r[R_A_FIRST_CHALLENGE]
    st[CH_FIRST_ROLL] = 0
    st[CH_TIES] = 0
    count(st, C_CHALLENGES_MADE, p, 1)
    st[REC_PENDING_CHALLENGE] = 1
    st[PHASE] = ROLL_OFF_CHALLENGER


@njit(cache=True, inline="always")
def apply_roll_off(st, r, face):
    challenger = st[CH_CHALLENGER]
    defender = st[CH_DEFENDER]
    if st[PHASE] == ROLL_OFF_CHALLENGER:
        st[CH_FIRST_ROLL] = face
        st[PHASE] = ROLL_OFF_DEFENDER
        return
    first = st[CH_FIRST_ROLL]
    if first == face:
        st[CH_TIES] += 1
        if r[R_ROLL_OFF_TIE] == TIE_REROLL and st[CH_TIES] < r[R_MAX_ROLL_OFF_TIES]:
            st[CH_FIRST_ROLL] = 0
            st[PHASE] = ROLL_OFF_CHALLENGER
            return
        # After too many rerolled ties the defender keeps the claim.
        challenger_wins = r[R_ROLL_OFF_TIE] == TIE_CHALLENGER
    else:
        challenger_wins = first > face
    if challenger_wins:
        q = st[CLAIM + defender]
        st[CLAIM + defender] = -1
        st[CLAIM + challenger] = q
        st[CLAIM_KNEW + challenger] = 0
        count(st, C_CLAIMS_TAKEN, challenger, 1)
        count(st, C_CLAIMS_LOST, defender, 1)
        sender, target = challenger, defender
    else:
        sender, target = defender, challenger
    st[SENDS] = sender
    st[SENDS + 1] = target
    st[SENDS + 2] = SEND_PLAIN
    st[NUM_SENDS] = 1
    st[DECIDER] = sender
    st[PHASE] = SEND


# ---------------------------------------------------------------------------------------------- investing round

@njit(cache=True, inline="always")
def start_investing(st, r, claimant):
    st[CLAIMANT] = claimant
    st[INVEST_IDX] = 0
    st[RESERVE] = 0
    st[PHASE] = INVEST_CHOICE
    st[DECIDER] = (claimant + 1) % r[R_N]  # investing order: from the claimant's left, the claimant last
    count(st, C_CLAIMANT_ROUNDS, claimant, 1)
    st[REC_CLAIMED] = st[CLAIM + claimant]


@njit(cache=True, inline="always")
def apply_invest(st, r, action):
    """investing.invest: hold; buy (to the reserve, or to the Bank in one's own claim); divest (from the Bank)."""
    p = st[DECIDER]
    c = st[CLAIMANT]
    local = action - r[R_A_FIRST_INVEST]
    num_lots = r[R_NUM_LOTS]
    first_divest = num_lots + 1 + r[R_BUY_MAX]
    bought = 0
    divested = 0
    if 1 <= local <= num_lots:
        bought = r[r[R_LOTS] + local - 1]
    elif r[R_BUY_MAX] and local == num_lots + 1:
        bought = st[MONEY + p]  # buy max: as many shares as the money pays for
    elif first_divest <= local < first_divest + num_lots:
        divested = r[r[R_LOTS] + local - first_divest]
    elif local == first_divest + num_lots:
        divested = st[SHARES + p]
    if p == c:
        st[BANK_IN] += bought
    else:
        st[RESERVE] += bought
    # The decision as the heuristic players read it (investing_decisions / heuristic.signal_of).
    st[ROUND_SIGNALS + st[INVEST_IDX]] = SIGNAL_BUY if bought > 0 else (SIGNAL_HOLD if local == 0 else SIGNAL_DIVEST)
    st[BANK_OUT] += divested
    st[MONEY + p] += divested - bought
    st[SHARES + p] += bought - divested
    if p == c:
        count(st, C_BOUGHT_OWN, p, bought)
        count(st, C_DIVESTED_OWN, p, divested)
    elif has_looked(st, p, st[REC_CLAIMED]):
        count(st, C_BOUGHT_KNOWN, p, bought)
        count(st, C_DIVESTED_KNOWN, p, divested)
        count(st, C_DECISIONS_KNOWN, p, 1)
    else:
        count(st, C_BOUGHT_UNKNOWN, p, bought)
        count(st, C_DIVESTED_UNKNOWN, p, divested)
        count(st, C_DECISIONS_UNKNOWN, p, 1)
    st[INVEST_IDX] += 1
    if st[INVEST_IDX] < r[R_N]:
        st[DECIDER] = (c + 1 + st[INVEST_IDX]) % r[R_N]
    else:
        reveal(st, r)


@njit(cache=True, inline="always")
def reveal(st, r):
    c = st[CLAIMANT]
    q = st[CLAIM + c]
    card = st[CARDS + q]
    st[REC_ROW] = card
    st[REVEALS_PER_ROW + card] += 1
    count_row(st, L_CLAIMANT_ROUNDS, card, c, 1)
    for p in range(r[R_N]):
        known = has_looked(st, p, q)
        count_row(st, L_REVEALS_KNOWN, card, p, known)
        shares = st[SHARES + p]
        # investing.payoff: One Stack pays the shares, Two Stacks twice; You've Been Had! takes the shares back.
        gain = 0
        kept = shares
        if card == ONE_STACK:
            gain = shares
        elif card == TWO_STACKS:
            gain = 2 * shares
        elif card == BEEN_HAD:
            kept = 0
        change = gain + kept - shares
        count_row(st, L_GAIN, card, p, change)
        count_row(st, L_GAIN_KNOWN if known else L_GAIN_UNKNOWN, card, p, change)
        st[SHARES_LOST] += shares - kept
        st[BANK_OUT] += gain
        st[MONEY + p] += gain
        st[SHARES + p] = kept
    st[MONEY + c] += st[RESERVE]
    count(st, C_RESERVE_RECEIVED, c, st[RESERVE])
    count_row(st, L_RESERVE, card, c, st[RESERVE])
    st[RESERVE] = 0
    st[CLAIM + c] = -1
    st[REVEALED + card] += 1
    st[REMOVED + q] = 1
    st[CLAIMANT] = -1
    left = 0
    for i in range(r[R_NUM_PROPS]):
        if st[REMOVED + i] == 0:
            left += 1
    if left <= 2:
        finish(st, END_TWO_CASES_LEFT)
    else:
        end_turn(st, r)


# ---------------------------------------------------------------------------------------------- heuristic players
# heuristic.py restated: the same policy, the same floating-point operations in the same order, so that the
# probabilities are equal to the last bit (tests compare them with the Python policy on random positions).

SCORE_COMPANY_WITH_CLAIM = 100.0
SCORE_TAKE_CLAIM = 50.0
SCORE_WANTED_CASE = 40.0
SCORE_UNKNOWN_CASE = 20.0
SCORE_HOT_TIP = 15.0
SCORE_UNWANTED_CASE = 1.0
SCORE_WILD_GOOSE_CHASE = -5.0


@njit(cache=True, inline="always")
def knows_card(st, p, q):
    """Player ``p`` knows briefcase ``q``'s card: it looked, or the briefcase was revealed (state.known_cards)."""
    return has_looked(st, p, q) == 1 or st[REMOVED + q] != 0


@njit(cache=True, inline="always")
def wants_claim(card, kn):
    """heuristic.wants_claim: a good card, or Empty with claim_empty."""
    return card == ONE_STACK or card == TWO_STACKS or (card == EMPTY and kn[KN_CLAIM_EMPTY] != 0.0)


@njit(cache=True, inline="always")
def share_gain(card):
    if card == ONE_STACK:
        return 1.0
    if card == TWO_STACKS:
        return 2.0
    return 0.0


@njit(cache=True, inline="always")
def share_survival(card):
    return 0.0 if card == BEEN_HAD else 1.0


@njit(cache=True)
def decision_matches(card, signal, is_claimant, n, future, kn):
    """heuristic.decision_matches."""
    value = share_gain(card) + share_survival(card) * future - 1.0
    if value < 0.0:
        return signal != SIGNAL_BUY
    cost = 0.0 if is_claimant else 1.0 / (n - 1)
    if value - cost >= kn[KN_INVEST_THRESHOLD]:
        return signal == SIGNAL_BUY
    return signal == SIGNAL_HOLD


@njit(cache=True)
def uniform_over(mask, k, probs):
    """probs[i] = 1 / (number of masked i) for each masked i (the others stay 0)."""
    m = 0
    for i in range(k):
        if mask[i]:
            m += 1
    for i in range(k):
        if mask[i]:
            probs[i] += 1.0 / m


@njit(cache=True)
def move_score(st, r, kn, me, dest):
    """heuristic.BoardHeuristic.move_scores for one destination."""
    n = r[R_N]
    if st[CLAIM + me] >= 0:
        if dest == r[R_COMPANY]:
            return SCORE_COMPANY_WITH_CLAIM
        return -np.float64(r[r[R_DIST_COMPANY] + dest])
    if dest != r[R_COMPANY]:
        for p in range(n):
            if p != me and st[POS + p] == dest and st[CLAIM + p] >= 0:
                return SCORE_TAKE_CLAIM
    kind = r[r[R_KIND] + dest]
    if kind == K_PROPERTY:
        q = r[r[R_SPACE_PROPERTY] + dest]
        if st[REMOVED + q] == 0 and claimed_by(st, r, q) < 0:
            if has_looked(st, me, q):
                return SCORE_WANTED_CASE if wants_claim(st[CARDS + q], kn) else SCORE_UNWANTED_CASE
            return SCORE_UNKNOWN_CASE
        return 0.0
    if kind == K_HOT_TIP:
        area = r[r[R_HOT_TIP_AREA] + dest]
        for q in range(r[R_NUM_PROPS]):
            if (r[r[R_AREA_MASK] + area] >> q) & 1 and is_open_case(st, r, q) and not has_looked(st, me, q):
                return SCORE_HOT_TIP
        return 0.0
    if kind == K_WILD_GOOSE_CHASE:
        return SCORE_WILD_GOOSE_CHASE
    return 0.0


@njit(cache=True)
def invest_view(st, r, kn, me, belief):
    """heuristic.BoardHeuristic.invest_view: fill ``belief`` (4 floats); return the worth of a share after the
    reveal (heuristic.future_after)."""
    c = st[CLAIMANT]
    prop = st[CLAIM + c]
    n = r[R_N]
    prior = np.empty(NUM_PAYOFF_KINDS, np.float64)
    future = future_after(st, r, me, prop, prior)
    if knows_card(st, me, prop):
        for kind in range(NUM_PAYOFF_KINDS):
            belief[kind] = 0.0
        belief[st[CARDS + prop]] = 1.0
        return future
    # card_belief: Bayes' rule over the claim chosen after looking and the informed decisions so far.
    w = kn[KN_SIGNAL_WEIGHT]
    knowing = c != me and st[CLAIM_KNEW + c] != 0
    total = 0.0
    for kind in range(NUM_PAYOFF_KINDS):
        like = 1.0
        if knowing:
            like *= w if wants_claim(kind, kn) else 1.0 - w
        for i in range(st[INVEST_IDX]):
            p = (c + 1 + i) % n
            if p != me and has_looked(st, p, prop):
                like *= w if decision_matches(kind, st[ROUND_SIGNALS + i], p == c, n, future, kn) else 1.0 - w
        belief[kind] = prior[kind] * like
        total += belief[kind]
    if total > 0.0:
        for kind in range(NUM_PAYOFF_KINDS):
            belief[kind] = belief[kind] / total
        return future
    total = prior[0] + prior[1] + prior[2] + prior[3]
    for kind in range(NUM_PAYOFF_KINDS):
        belief[kind] = prior[kind] / total if total > 0.0 else 1.0 / NUM_PAYOFF_KINDS
    return future


@njit(cache=True)
def future_after(st, r, me, prop, prior):
    """heuristic.future_after as ``me`` sees it: fill ``prior`` (4 floats) with heuristic.unseen_counts (the mix less
    the cards ``me`` knows, never below 0) and return the worth of a share after the reveal of ``prop``."""
    for kind in range(NUM_PAYOFF_KINDS):
        prior[kind] = np.float64(r[r[R_PAYOFF_MIX] + kind])
    for q in range(r[R_NUM_PROPS]):
        if knows_card(st, me, q):
            prior[st[CARDS + q]] -= 1.0
    for kind in range(NUM_PAYOFF_KINDS):
        if not prior[kind] > 0.0:
            prior[kind] = 0.0
    # The other briefcases on the board.
    unseen = prior[0] + prior[1] + prior[2] + prior[3]
    gain_unknown = (prior[ONE_STACK] + 2.0 * prior[TWO_STACKS]) / unseen if unseen > 0.0 else 0.0
    survival_unknown = (unseen - prior[BEEN_HAD]) / unseen if unseen > 0.0 else 1.0
    gain = 0.0
    survival = 0.0
    count_ = 0
    for q in range(r[R_NUM_PROPS]):
        if st[REMOVED + q] != 0 or q == prop:
            continue
        if knows_card(st, me, q):
            gain += share_gain(st[CARDS + q])
            survival += share_survival(st[CARDS + q])
        else:
            gain += gain_unknown
            survival += survival_unknown
        count_ += 1
    future = 1.0
    if count_ - 2 > 0:
        g = gain / count_
        sv = survival / count_
        for _ in range(count_ - 2):
            future = g + sv * future
    return future


@njit(cache=True)
def invest_choice(st, r, kn, me, legal, k):
    """heuristic.invest_decision: the index in ``legal`` of the investing decision."""
    belief = np.empty(NUM_PAYOFF_KINDS, np.float64)
    future = invest_view(st, r, kn, me, belief)
    money = st[MONEY + me]
    shares = st[SHARES + me]
    num_lots = r[R_NUM_LOTS]
    first = r[R_A_FIRST_INVEST]
    buy_max = num_lots + 1 if r[R_BUY_MAX] else -1
    divest_all = num_lots + 1 + r[R_BUY_MAX] + num_lots
    value = belief[ONE_STACK] + 2.0 * belief[TWO_STACKS] + (1.0 - belief[BEEN_HAD]) * future - 1.0
    if shares > 0 and (value < 0.0 or belief[BEEN_HAD] >= kn[KN_DIVEST_THRESHOLD]):
        for i in range(k):
            if legal[i] - first == divest_all:
                return i
    cost = 0.0 if st[CLAIMANT] == me else 1.0 / (r[R_N] - 1)
    if value - cost >= kn[KN_INVEST_THRESHOLD]:
        top = max(max(belief[0], belief[1]), max(belief[2], belief[3]))
        budget = np.float64(money) if top == 1.0 else kn[KN_STAKE] * money
        best = -1
        best_amount = -1
        for i in range(k):
            local = legal[i] - first
            if 1 <= local <= num_lots:
                amount = r[r[R_LOTS] + local - 1]
            elif local == buy_max:
                amount = money
            else:
                continue
            if amount <= budget and amount > best_amount:
                best = i
                best_amount = amount
        if best >= 0:
            return best
    for i in range(k):
        if legal[i] == first:
            return i
    return 0


@njit(cache=True)
def heuristic_probs(st, r, kn, legal, k, probs, scratch):
    """heuristic.BoardHeuristic.probabilities for the decider: ``probs[i]`` for ``legal[i]`` (``scratch``: a float
    buffer as long as ``legal``)."""
    me = st[DECIDER]
    for i in range(k):
        probs[i] = 0.0
    if k == 1:
        probs[0] = 1.0
        return
    ph = st[PHASE]
    if ph == MOVE or ph == SEND:
        best = -np.inf
        for i in range(k):
            if ph == MOVE:
                scratch[i] = move_score(st, r, kn, me, legal[i])
            else:
                sign = -1.0 if st[SENDS + 1] == me else 1.0
                wgc = r[r[R_WILD_GOOSE_CHASE] + legal[i] - r[R_A_FIRST_SEND]]
                scratch[i] = sign * r[r[R_DIST_COMPANY] + wgc]
            best = max(best, scratch[i])
        mask = np.zeros(k, np.bool_)
        for i in range(k):
            mask[i] = scratch[i] == best
        uniform_over(mask, k, probs)
        return
    if ph == HOT_TIP_CHOICE or ph == PEEK:
        mask = np.zeros(k, np.bool_)
        any_unknown = False
        for i in range(k):
            if legal[i] != r[R_A_DECLINE] and not knows_card(st, me, legal[i] - r[R_A_FIRST_CASE]):
                mask[i] = True
                any_unknown = True
        if not any_unknown:
            mask[:] = True
        uniform_over(mask, k, probs)
        return
    if ph == CHALLENGE_CHOICE:
        mask = np.zeros(k, np.bool_)
        any_target = False
        for i in range(k):
            if legal[i] != r[R_A_DECLINE]:
                mask[i] = True
                any_target = True
        if not any_target:
            mask[0] = True
        uniform_over(mask, k, probs)
        return
    if ph == PROPERTY_CHOICE:
        q = r[r[R_SPACE_PROPERTY] + st[POS + me]]
        known = knows_card(st, me, q)
        can_claim = st[CLAIM + me] < 0
        for i in range(k):
            a = legal[i]
            if can_claim and not known:
                if a == r[R_A_CLAIM_UNSEEN]:
                    probs[i] += kn[KN_CLAIM_UNSEEN]
                elif a == r[R_A_LOOK]:
                    probs[i] += 1.0 - kn[KN_CLAIM_UNSEEN]
            elif can_claim:
                wanted = r[R_A_CLAIM_UNSEEN] if wants_claim(st[CARDS + q], kn) else r[R_A_DECLINE]
                if a == wanted:
                    probs[i] = 1.0
            elif a == (r[R_A_LOOK] if not known else r[R_A_DECLINE]):
                probs[i] = 1.0
        return
    if ph == TURN_START:
        chosen = r[R_A_ROLL]
        has_invest_now = False
        has_claim_looked = False
        for i in range(k):
            has_invest_now = has_invest_now or legal[i] == r[R_A_INVEST_NOW]
            has_claim_looked = has_claim_looked or legal[i] == r[R_A_CLAIM_LOOKED]
        if has_invest_now:
            chosen = r[R_A_INVEST_NOW]
        elif has_claim_looked and wants_claim(st[CARDS + st[MAY_CLAIM + me]], kn):
            chosen = r[R_A_CLAIM_LOOKED]
        for i in range(k):
            if legal[i] == chosen:
                probs[i] = 1.0
        return
    if ph == INVEST_CHOICE:
        probs[invest_choice(st, r, kn, me, legal, k)] = 1.0
        return
    mask = np.ones(k, np.bool_)
    uniform_over(mask, k, probs)


# ---------------------------------------------------------------------------------------------- whole games

#: Seat kinds of the compiled players: uniform random, and the heuristic (heuristic.py, with the knobs array).
SEAT_RANDOM = 0
SEAT_HEURISTIC = 1


@njit(cache=True)
def sample_chance(st, r, rng, actions, weights):
    """A chance outcome by the draw protocol over the engine's integer weights (``chance_weights``): one outcome draws
    nothing, else an integer below their total picks one, walked in order."""
    k, total = chance_outcomes(st, r, actions, weights)  # every listed weight is positive
    if k == 1:
        return actions[0]
    x = below(rng, total)
    for i in range(k):
        x -= weights[i]
        if x < 0:
            return actions[i]
    return actions[k - 1]


@njit(cache=True, inline="always")
def choose(st, r, rng, seat_kinds, kn, legal, probs):
    """The current player's action: ``seat_kinds[p]`` names seat ``p``'s player (SEAT_RANDOM: uniform over the
    legal actions; SEAT_HEURISTIC: a draw from the heuristic's probabilities by the draw protocol, :func:`walk`)."""
    k = legal_actions(st, r, legal)
    if seat_kinds[st[DECIDER]] == SEAT_HEURISTIC:
        heuristic_probs(st, r, kn, legal, k, probs, probs[k:])
        return walk(legal, probs, k, rng)
    return legal[below(rng, k)]


@njit(cache=True)
def grown(buf, need):
    """``buf``, or a copy at least twice as long when it is shorter than ``need``."""
    if need <= buf.shape[0]:
        return buf
    out = np.empty(max(need, 2 * buf.shape[0]), buf.dtype)
    out[: buf.shape[0]] = buf
    return out


@njit(cache=True)
def push_trace(st, r, trace, used):
    """Write every seat's wealth to ``trace`` from ``used`` on; return the new length."""
    for p in range(r[R_N]):
        trace[used + p] = wealth(st, p)
    return used + r[R_N]


@njit(cache=True)
def play_out(st, r, rng, seat_kinds, kn, legal, weights, probs, trace, history, keep):
    """Play the game in ``st`` to its end (chance by its probabilities, seats by ``seat_kinds``).

    With ``keep``, write the score trace (every seat's wealth at each turn start after the first and at the end: one
    entry per turn begun, as records.py builds it) to ``trace`` and every action to ``history``, both from index 0,
    and return their lengths. Their sizes must hold a game of the longest length (:func:`scratch_sizes`).
    """
    turns = st[TURNS]
    used = 0
    hused = 0
    while st[PHASE] != OVER:
        if is_chance(st):
            a = sample_chance(st, r, rng, legal, weights)
        else:
            a = choose(st, r, rng, seat_kinds, kn, legal, probs)
        apply_action(st, r, a)
        if keep:
            if hused == history.shape[0]:
                # Never met: the engine's max_game_length bounds every game (a guard, the views are unchecked).
                raise IndexError("a game ran past the engine's max_game_length")
            history[hused] = a
            hused += 1
            if st[TURNS] != turns:
                if turns >= 1:
                    used = push_trace(st, r, trace, used)
                turns = st[TURNS]
    if keep and turns >= 1:
        used = push_trace(st, r, trace, used)
    return used, hused


@njit(cache=True)
def scratch_sizes(r):
    """Sizes that hold the score trace and the history of the longest game (the engine's max_game_length)."""
    return (r[R_MAX_TURNS] + 1) * r[R_N], r[R_MAX_GAME_LENGTH] + 1


@njit(cache=True)
def play_games(r, seeds, seat_kinds, kn, keep_history):
    """One game per seed from the start; returns the final states, the score traces (flat ``[turn][seat]``, game
    ``g``'s from ``trace_off[g]``) and, with ``keep_history``, the action sequences (likewise)."""
    # The scratch is allocated here and played on in play_games_on, which takes unmanaged views of it: numba frees an
    # array after the last line that names it, so the views must not outlive the arrays' owner (this frame). (When
    # one function did both, a freed generator's memory was reused by the heuristic's masks: every heuristic game
    # drew its choices from a number those masks had written.)
    trace_size, history_size = scratch_sizes(r)
    state_buf = np.empty(STATE_SIZE, np.int64)
    rng_buf = np.empty(1, np.uint64)
    legal_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    weights_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    probs_buf = np.empty(2 * (r[R_NUM_ACTIONS] + 1), np.float64)
    trace_buf = np.empty(trace_size, np.int64)
    history_buf = np.empty(history_size, np.int64)
    return play_games_on(r, seeds, seat_kinds, kn, keep_history, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                         trace_buf, history_buf)


@njit(cache=True)
def play_games_on(r, seeds, seat_kinds, kn, keep_history, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                  trace_buf, history_buf):
    """The loop of :func:`play_games` on scratch its caller holds."""
    games = seeds.shape[0]
    finals = np.empty((games, STATE_SIZE), np.int64)
    trace = np.empty(max(1024, games * r[R_N] * 32), np.int64)
    trace_off = np.zeros(games + 1, np.int64)
    history = np.empty(max(1024, games * 64) if keep_history else 0, np.int64)
    hist_off = np.zeros(games + 1, np.int64)
    st, rng, legal, weights = unmanaged(state_buf), unmanaged(rng_buf), unmanaged(legal_buf), unmanaged(weights_buf)
    rv, kinds, kv, probs = unmanaged(r), unmanaged(seat_kinds), unmanaged(kn), unmanaged(probs_buf)
    game_trace, game_history = unmanaged(trace_buf), unmanaged(history_buf)
    used = 0
    hused = 0
    for g in range(games):
        init_state(st, rv)
        rng[0] = seeds[g]
        t, h = play_out(st, rv, rng, kinds, kv, legal, weights, probs, game_trace, game_history, True)
        trace = grown(trace, used + t)
        trace[used : used + t] = trace_buf[:t]
        used += t
        if keep_history:
            history = grown(history, hused + h)
            history[hused : hused + h] = history_buf[:h]
            hused += h
        finals[g] = st
        trace_off[g + 1] = used
        hist_off[g + 1] = hused
    return finals, trace[:used].copy(), trace_off, history[:hused].copy(), hist_off


@njit(cache=True)
def rollout_returns(r, start, n, seed, seat_kinds, kn):
    """Mean returns of ``n`` playouts (seats by ``seat_kinds``) from the state ``start``; playout ``i`` is seeded by
    ``seed`` and ``i``."""
    # Scratch owned here, played on in rollout_returns_on through unmanaged views (see play_games for why).
    state_buf = np.empty(STATE_SIZE, np.int64)
    rng_buf = np.empty(1, np.uint64)
    legal_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    weights_buf = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    probs_buf = np.empty(2 * (r[R_NUM_ACTIONS] + 1), np.float64)
    none_buf = np.empty(0, np.int64)
    return rollout_returns_on(r, start, n, seed, seat_kinds, kn, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                              none_buf)


@njit(cache=True)
def rollout_returns_on(r, start, n, seed, seat_kinds, kn, state_buf, rng_buf, legal_buf, weights_buf, probs_buf,
                       none_buf):
    """The loop of :func:`rollout_returns` on scratch its caller holds."""
    total = np.zeros(r[R_N], np.float64)
    ret = np.empty(r[R_N], np.float64)
    st, rng, legal, weights = unmanaged(state_buf), unmanaged(rng_buf), unmanaged(legal_buf), unmanaged(weights_buf)
    rv, kinds, none = unmanaged(r), unmanaged(seat_kinds), unmanaged(none_buf)
    kv, probs = unmanaged(kn), unmanaged(probs_buf)
    base = np.empty(1, np.uint64)
    base[0] = seed
    for i in range(n):
        st[:] = start
        rng[0] = next_u64(base)  # one SplitMix64 output per playout seeds it: independent streams
        play_out(st, rv, rng, kinds, kv, legal, weights, probs, none, none, False)
        returns(st, rv, ret)
        total += ret
    if n > 0:
        total /= n
    return total


# ---------------------------------------------------------------------------------------------- search players' worlds

#: Deals tried per world by :func:`sample_world` before it keeps the last one (with ``signal_weight`` strictly between
#: 0 and 1 a deal is accepted with probability at least ``min(w, 1 - w) / max(w, 1 - w)`` per signal, so this bound
#: is met only when no deal explains what the others did).
MAX_BELIEF_DRAWS = 1000


@njit(cache=True)
def unseen_left(st, r, viewer, left):
    """state.unseen_cards: per Payoff card kind, into ``left`` (int64, :data:`NUM_PAYOFF_KINDS`), how many cards
    ``viewer`` cannot locate (the mix less the briefcases it looked under and those revealed)."""
    for kind in range(NUM_PAYOFF_KINDS):
        left[kind] = r[r[R_PAYOFF_MIX] + kind]
    for q in range(r[R_NUM_PROPS]):
        if knows_card(st, viewer, q):
            left[st[CARDS + q]] -= 1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
        if not use_belief or uniform(rng) * bound < belief_likelihood(st, r, kn, viewer, future):
            return


@njit(cache=True)
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


@njit(cache=True)
def action_rollouts(r, s0, actions, worlds, per_world, seed, viewer, use_belief, seat_kinds, kn, out):
    """Paired rollouts for a search player: ``worlds`` times, sample a world (:func:`sample_world`) from ``s0``, then
    for each ``actions[j]`` apply it to a copy of that world and play it out ``per_world`` times by ``seat_kinds``,
    adding the returns into ``out[j]`` (float64, ``len(actions) x R_N``). Every action is scored on the same worlds,
    so their comparison is not blurred by the luck of the deal; one SplitMix64 stream seeded with ``seed`` drives
    everything."""
    # The scratch is allocated here and played on in paired_rollouts, which takes unmanaged views of it: numba frees
    # an array after the last line that names it, so the views must not outlive the arrays' owner (this frame).
    world = np.empty(STATE_SIZE, np.int64)
    st = np.empty(STATE_SIZE, np.int64)
    rng = np.empty(1, np.uint64)
    legal = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    weights = np.empty(r[R_NUM_ACTIONS] + 1, np.int64)
    probs = np.empty(2 * (r[R_NUM_ACTIONS] + 1), np.float64)
    counts = np.empty(2 * NUM_PAYOFF_KINDS, np.int64)
    ret = np.empty(r[R_N], np.float64)
    rng[0] = seed
    paired_rollouts(r, s0, actions, worlds, per_world, viewer, use_belief, seat_kinds, kn, out, world, st, rng, legal,
                    weights, probs, counts, ret)


@njit(cache=True)
def paired_rollouts(r, s0, actions, worlds, per_world, viewer, use_belief, seat_kinds, kn, out, world_buf, state_buf,
                    rng_buf, legal_buf, weights_buf, probs_buf, counts, ret):
    """The loop of :func:`action_rollouts` on scratch its caller holds (``counts``: int64 of twice
    :data:`NUM_PAYOFF_KINDS`; ``ret``: float64 of ``R_N``)."""
    n = r[R_N]
    st, world, rng = unmanaged(state_buf), unmanaged(world_buf), unmanaged(rng_buf)
    legal, weights, probs = unmanaged(legal_buf), unmanaged(weights_buf), unmanaged(probs_buf)
    rv, kinds, kv = unmanaged(r), unmanaged(seat_kinds), unmanaged(kn)
    none = legal[:0]
    left, keep = counts[:NUM_PAYOFF_KINDS], counts[NUM_PAYOFF_KINDS:]
    future = viewer_future(s0, rv, viewer)
    for _ in range(worlds):
        world[:] = s0
        sample_world(world, rv, kv, viewer, use_belief, future, rng, left, keep)
        for j in range(actions.shape[0]):
            for _ in range(per_world):
                st[:] = world
                apply_action(st, rv, actions[j])
                play_out(st, rv, rng, kinds, kv, legal, weights, probs, none, none, False)
                returns(st, rv, ret)
                for p in range(n):
                    out[j, p] += ret[p]
