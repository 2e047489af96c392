"""The layout of the compiled Pinocchio kernel: the constants and array offsets every compiled function reads, and
how they are compiled.

The compiled core is the turn structure of :mod:`~trustme_analysis.games.pinocchio.engine.state` on fixed-size
integer arrays, in the modules of this sub-package, one per section: this layout, :mod:`.queries` (set-up and
queries), :mod:`.scoring` (scoring and Tickets), :mod:`.turn` (the turn), :mod:`.worlds` (determinizations and
sampled worlds), :mod:`.heuristic` (the heuristic seat), :mod:`.play` (whole games and their records) and
:mod:`.search` (rollouts for search players); :mod:`.core` gathers their names in one namespace.

numba's on-disk cache (``cache=True``) is invalidated only when the file that defines a function changes, while a
compiled function compiles the functions it calls from other modules (and the constants it reads) into its own code:
so each module ties the caches of its functions to the sources of every kernel module they reach, this layout and the
draw primitives of :mod:`trustme_analysis.engine.compiled_draws` included (:func:`tie_module`, called at the end of
each module; :data:`.core.SOURCES` for code outside the core that compiles it in).

Two arrays describe a game:

- the *rules* array ``R`` (int64), built once per loaded game by :func:`trustme_analysis.games.pinocchio.kernel.kernel.
  rules_array` from the game's parsed :class:`~trustme_analysis.games.pinocchio.engine.rules.Rules` and its
  :class:`~trustme_analysis.games.pinocchio.engine.actions.ActionCodec` (offsets ``R_*``);
- the *state* array ``s`` (int32, :data:`STATE_SIZE` long, offsets below), laid out as a public part (everything at
  the table or remembered from public play), a hidden part (:data:`HIDDEN_START` to :data:`HIDDEN_END`: the deck,
  the hands and a face-down tale Character) and the record statistics. A determinization resamples only the hidden
  part (:func:`.worlds.determinize`).

The functions mirror :class:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState` method by method (same names
without the class; the chain of steps after an action is one loop, :func:`.turn.advance`), with the engine's events
turned into counters for the records. The engine is the specification; ``tests/games/test_pinocchio_kernel.py``
replays kernel games through it step by step.

Random numbers: the draw protocol's compiled primitives (:mod:`trustme_analysis.engine.compiled_draws`: SplitMix64,
exact integers below ``n``, uniform floats, the walk over probabilities), inlined into the kernel's functions; chance
and seats draw by the protocol of :mod:`trustme_analysis.engine.draws`, which the pyspiel path follows too, so both
engines give the same games. The cache of every compiled function is tied to that file's source as well (:func:`tie_module`).
"""

from __future__ import annotations

import sys
from types import ModuleType

from numba import njit

from cfr.numba_cache import tie_cache_to_sources

#: How every function of the kernel's modules is compiled: cached on disk, and without numba's reference counting of
#: arrays (NRT). Nothing there allocates, and the counting (an atomic add and a call at each array passed to a function) took more
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
CHANCE_PHASES = sum(1 << ph for ph in (DEAL_PARK, DEAL_HAND, DRAW, VOTE_COIN, COIN_TOSS, REFILL, TIE_BREAK,
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

#: The records' integer, true/false and coded-text fields, in the columns :func:`.play.record_rows` writes
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
#: The per-value list fields, in the order of the second axis of :func:`.play.record_rows`'s ``lists``.
LIST_FIELDS = ("tickets_per_value", "tickets_tale_per_value", "tickets_reputation_per_value",
               "tickets_free_per_value")

# ---- the turn's continuations (:func:`.turn.advance`)
# The engine moves from one step of a turn to the next by calling methods (``_end_turn`` calls ``_begin_turn``, which
# may call ``_continue_refill``, which may call ``_end_turn`` ...). Compiled as calls, that chain costs reference
# counting on every array argument at every level; here it is one loop in :func:`.turn.advance` over *continuations*,
# each block named after the engine method it mirrors, with ``arg`` carrying that method's argument.

GO_NONE, GO_HAND_DEAL, GO_BEGIN_TURN, GO_ENTER_DRAW, GO_CONTINUE_REFILL, GO_END_TURN, GO_FINISH_DAY, GO_END_GAME, \
    GO_START_OFFERS, GO_RESOLVE_TALE = range(10)

# ---- the heuristic seat's knobs (:mod:`.heuristic`), offsets H_* of the float64 array ``kernel.heuristic_knobs`` fills
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
#: Seat kinds of the whole-game and rollout loops (:mod:`.trained`, :mod:`.trained_rollouts`).
SEAT_RANDOM, SEAT_HEURISTIC = 0, 1
# ---- trained seats (issue 28): played by the whole-game loop, kernel.trained.play_batch_trained
SEAT_TRAINED = 2
# ----
#: In :func:`.search.vote_evidence`, the chance that a heuristic voter casts the vote the heuristic would not (a search
#: player's model allows for it, so that one surprising vote does not rule the heuristic out for good).
VOTE_NOISE = 0.05


# ---------------------------------------------------------------------------------------------- numba's cache

#: Module name -> the modules whose source its compiled functions contain (itself first, the others by name).
_REACHES: dict[str, tuple[ModuleType, ...]] = {}


def reaches(name: str) -> tuple[ModuleType, ...]:
    """The modules whose source the compiled functions of kernel module ``name`` contain: the module itself first,
    then every module they reach, by name (this layout and the draw primitives among them)."""
    return _REACHES[name]


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
    others: dict[str, ModuleType] = {}
    for callee in callees:
        for reached in _REACHES.get(callee.__name__, (callee,)):
            others.setdefault(reached.__name__, reached)
    others.pop(name, None)
    _REACHES[name] = (module, *(others[k] for k in sorted(others)))
    tie_cache_to_sources(own, *_REACHES[name])
