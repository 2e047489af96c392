"""The compiled Liar position's layout: the three integer arrays every compiled function of :mod:`..kernel` reads.

The compiled core of ``trustme_liar`` is a second implementation of :mod:`trustme_analysis.games.liar.engine.game`
over fixed-size integer arrays, in the modules of this sub-package, one per part of the rules: this layout and the
position's set-up, :mod:`.deal` (the deal and every chance outcome), :mod:`.actions` (numbering and listing the legal
actions), :mod:`.moves` (what each move does, the scoring), :mod:`.heuristic` (the heuristic bot's policy) and
:mod:`.play` (the seats' draws and the play loops). The engine stays the specification: the lock-step harness
(:mod:`trustme_analysis.engine.lockstep`) replays kernel games through it step by step. Rulebook words are kept: the
deal, the pair discards, a round's starter, the pile, calling liar, passing, burning, a player's last cards.

numba's on-disk cache (``cache=True``) is invalidated by a change of the *defining* file only, while a compiled
function compiles the functions it calls from other modules into its own code; so each module ties its functions'
cache to the source of every kernel module they call (:func:`cfr.numba_cache.tie_cache_to_sources`, at the end of
each module), the draw primitives of :mod:`trustme_analysis.engine.compiled_draws` included.

Three arrays describe everything:

- ``cfg`` (int64): the variant's parameters (indices ``N`` ... ``PMAX``) and where each part of a state lies in ``S``
  (indices ``O_*``); built once by :func:`rules_array`.
- ``tab`` (int64): counting tables (see :func:`build_tables`): binomial coefficients for the deal, split counts for
  numbering chance outcomes, and multiset counts for numbering plays.
- ``S`` (int64): one position: the scalars ``S_*`` followed by per-seat and per-value blocks at the ``O_*`` offsets,
  each seat's record counters (the sweep's record fields, kept up to date move by move) and a little scratch space.

Randomness. Each game owns one SplitMix64 stream (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014; the constants of Vigna's reference ``splitmix64.c``) whose 64-bit state starts at the game's
seed, so a game depends only on its seed. Chance and every seat draw from it by the draw protocol of
:mod:`trustme_analysis.engine.draws` (compiled: :mod:`trustme_analysis.engine.compiled_draws`), which the pyspiel
path follows too, so both engines give the same games.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from cfr.numba_borrowing import borrowing

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


# ---------------------------------------------------------------------------------------------------- seat kinds

RANDOM = 0  # uniform over the legal actions
HEURISTIC = 1  # the heuristic bot's policy (:mod:`~trustme_analysis.games.liar.players.heuristic`), with the knobs handed to the play loop

#: The heuristic's knobs, in the order of ``heuristic.KNOB_NAMES`` (the kernel checks the names when it is built).
KNOB_ORDER = ("bluff_start", "bluff_per_card", "bluff_extra", "bluff_rate", "bluff_max_pile", "bluff_slack",
              "assumed_bluff", "call_threshold", "call_last_threshold", "call_rate", "burn_rate", "timeout_rate")
(K_BLUFF_START, K_PER_CARD, K_EXTRA, K_BLUFF_RATE, K_MAX_PILE, K_SLACK, K_PRIOR, K_CALL, K_CALL_LAST, K_CALL_RATE,
 K_BURN, K_TIMEOUT) = range(len(KNOB_ORDER))

#: Per-seat integer columns of :func:`~.trained.play_games`, in order (then the record counters :data:`REC_FIELDS`).
SEAT_INTS = (
    "dealt", "start_hand", "cards_left", "went_out", "points", "points_going_out", "points_cards_in_hand",
    "points_false_cards", "points_unmasked", "points_wrongly_accused",
)
NSI = len(SEAT_INTS)
ERR_NO_ACTION = 1  # a seat to act had no legal action (the engine would return an empty list)


# ------------------------------------------------------------------------------------------- building (Python)


def rules_array(game) -> np.ndarray:
    """The ``cfg`` array of a loaded ``trustme_liar`` game (its checked :class:`~trustme_analysis.games.liar.engine.rules.Rules`)."""
    rules = game.rules
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


@borrowing()
def binom(cfg, tab, r, k):
    """C(r, k) for r <= deck, k <= copies."""
    if k < 0 or k > r:
        return 0
    return tab[cfg[T_BINOM] + r * (cfg[C] + 1) + k]


@borrowing()
def hand_at(cfg, p, v):
    """Index in S of seat ``p``'s count of value ``v``."""
    return cfg[O_HANDS] + p * cfg[V] + v


@borrowing()
def rec_at(cfg, p, field):
    """Index in S of seat ``p``'s record counter ``field``."""
    return cfg[O_REC] + p * NREC + field


@njit(cache=True)
def size_at(cfg, p, which, size):
    """Index in S of seat ``p``'s per-size list ``which`` (0..2, :data:`SIZE_FIELDS`) at claim size ``size``."""
    return cfg[O_SIZE] + (p * 3 + which) * cfg[M] + size - 1


# ------------------------------------------------------------------------------------------------- the position


@borrowing()
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


@borrowing()
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


@borrowing()
def current_player(cfg, S):
    """The seat to act; CHANCE (-1) during the deal; TERMINAL (-4) at the end."""
    if S[S_END] != END_NONE:
        return TERMINAL
    if S[S_FIRST] < 0 or S[S_DEALT] < cfg[V]:
        return CHANCE
    return S[S_CURRENT]


def compiled_functions(module_name: str) -> list:
    """The compiled (``@njit``) functions defined in the module ``module_name`` (for :func:`tie_cache_to_sources`)."""
    module = sys.modules[module_name]
    return [f for f in vars(module).values() if hasattr(f, "py_func") and f.py_func.__module__ == module_name]

