"""The layout of the compiled ``trustme_1981`` kernel: the state and the rules as int64 arrays, and the codes they hold.

The kernel (the modules of this sub-package) is a second implementation of the rules of
:mod:`~trustme_analysis.games.board1981.engine` (the specification), proven identical to it step by step by the
lock-step harness (:mod:`trustme_analysis.engine.lockstep`; ``tests/games/test_board1981_kernel.py``); any change to
the engine's rules must be mirrored in it (the compiled functions carry the engine's method names).

The state is an ``int64`` array; its fields sit at the offsets below (``st[MONEY + p]`` is player ``p``'s money).
Sizes are fixed by :data:`MAX_PLAYERS` and :data:`MAX_PROPS`. The state also carries the per-seat record counters
that :mod:`~trustme_analysis.games.board1981.analysis.records` derives from the engine's events, updated where the
engine logs the event. The fixed data of a game (board graph, decks, action layout) is one int64 array too, packed by
:func:`pack_rules` from what :func:`~trustme_analysis.games.board1981.kernel.kernel.rules_array` reads off the loaded
pyspiel game.

numba's on-disk cache (``cache=True``) notices only edits of a compiled function's own file, while a function compiles
in the code of every compiled function it calls, from whichever file. Each kernel module therefore ends with
:func:`tie_module`, which keys the caches of its functions by its own source and the sources of every module its
functions reach (the draw primitives of :mod:`trustme_analysis.engine.compiled_draws` included): editing any of them
recompiles every function that contains its code.
"""

from __future__ import annotations

import sys
from types import ModuleType

import numpy as np

from cfr.numba_cache import tie_cache_to_sources

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


def pack_rules(scalars: dict[str, int], tables: dict[str, np.ndarray]) -> np.ndarray:
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


# ---------------------------------------------------------------------------------------------- numba's cache

#: Module name -> the modules whose source its compiled functions contain (itself included).
_REACHES: dict[str, tuple[ModuleType, ...]] = {}


def tie_module(name: str) -> None:
    """Key the numba cache of every compiled function defined in module ``name`` by the sources of the module, of
    this layout (whose constants its functions compile in), of every module whose compiled functions it imports, and
    of every module those reach in turn (recorded here by their own call): call it at the end of each kernel module,
    before any of its functions is first called (:func:`cfr.numba_cache.tie_cache_to_sources`)."""
    module = sys.modules[name]
    own, callees = [], [sys.modules[__name__]]
    for value in vars(module).values():
        home = getattr(getattr(value, "py_func", None), "__module__", None)
        if home == name:
            own.append(value)
        elif home is not None:
            callees.append(sys.modules[home])
    sources = {name: module}
    for callee in callees:
        for reached in _REACHES.get(callee.__name__, (callee,)):
            sources.setdefault(reached.__name__, reached)
    _REACHES[name] = tuple(sources.values())
    tie_cache_to_sources(own, *sources.values())


tie_module(__name__)
