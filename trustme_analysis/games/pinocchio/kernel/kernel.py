"""A compiled simulation kernel for ``trustme_pinocchio``: whole games and rollouts in machine code (numba).

The engine (:mod:`~trustme_analysis.games.pinocchio.engine.state`) is the specification; this is a second implementation of the same rules for speed, kept
identical to it by ``tests/games/test_pinocchio_kernel.py`` (kernel games replayed through the engine step by step:
current player, legal actions, chance outcomes and probabilities, returns and every record field) and by
``benchmarks/kernels.py --verify N``. Action numbers, seats, chance outcomes and probabilities are the engine's.

It follows the kernel contract of :mod:`trustme_analysis.engine.kernels`; what it plays (seat kinds, rule parameters,
search budget, tree producer) is declared in the game's registry entry (the package's ``__init__``).

- :func:`limits`: what the kernel's arrays hold (values, players, actions), beyond the rule values.
- :class:`Kernel`: built from a loaded game (its parsed :class:`~trustme_analysis.games.pinocchio.engine.rules.Rules` and :class:`~trustme_analysis.games.pinocchio.engine.actions.ActionCodec`).
  :meth:`Kernel.new_state` gives a :class:`KernelState` with the pyspiel-like API; :meth:`Kernel.play` plays
  many games with the kernel's seats (uniformly random unless built with heuristic seats) in compiled code and
  returns their records (:class:`Games`); :meth:`Kernel.rollouts` plays playouts from a position
  for search players, optionally resampling what one player cannot see first (a determinization).

Randomness: SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) inside compiled code. A game of :meth:`Kernel.play`
depends only on its seed (the generator starts from the seed itself), so a batch split any way gives the same games.

Seat kinds: ``"random"`` (uniform over the legal actions) and ``"heuristic"`` (the heuristic bot of :mod:`~trustme_analysis.games.pinocchio.players.bots`
compiled, :func:`~trustme_analysis.games.pinocchio.kernel.heuristic.heuristic_policy`: the same distribution at every decision, checked by
``tests/games/test_pinocchio_heuristic_kernel.py``). A :class:`Kernel` built with ``seat_kinds`` plays its whole
games (a sweep's heuristic line-ups) and its rollouts (search players' ``rollout = "heuristic"``) with them;
whole games also with probe seats (``"probe:never trust"`` ..., :func:`probe_seat_kinds`: the heuristic restricted to
a simple strategy's moves, :func:`~trustme_analysis.games.pinocchio.kernel.trained.probe_action`);
:meth:`Kernel.state_from` copies any engine state (a world a search player sampled) into a kernel state.
"""

from __future__ import annotations

import math

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel import trained as trained_module
from trustme_analysis.engine.kernels import PROBE_KIND_PREFIX
from trustme_analysis.engine.record_arrays import record_arrays
from trustme_analysis.games.pinocchio.kernel.records import (FIELDS, RawRecords, record_columns, record_lists,
                                                             rows_of_game)
from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME
from trustme_analysis.train.tables import empty_policy

#: The policy the whole-game and rollout loops read when no seat is trained (no row: every lookup misses).
_EMPTY_POLICY = empty_policy()
_SEAT_CODES = {"random": K.SEAT_RANDOM, "heuristic": K.SEAT_HEURISTIC,
               "trained": K.SEAT_TRAINED}  # "trained": only with a policy (Kernel(trained=...))
_END_TRIGGERS = {None: K.END_NONE, "deck": K.END_DECK, "stacks": K.END_STACKS}
#: The seat kind of a probe: this prefix and the simple strategy's name (``"probe:never trust"``), played over the
#: heuristic with the kernel's knobs (kernel.trained.PROBE_KINDS, probe_action).
PROBE_PREFIX = PROBE_KIND_PREFIX


def _seat_code(kind: str) -> int | None:
    """The compiled loops' code of a seat kind, or None where the kernel has none."""
    if kind.startswith(PROBE_PREFIX):
        from trustme_analysis.games.pinocchio.kernel.trained import PROBE_KINDS

        return PROBE_KINDS.get(kind[len(PROBE_PREFIX):])
    return _SEAT_CODES.get(kind)


def probe_seat_kinds() -> tuple[str, ...]:
    """The probe seat kinds the whole-game loop plays (the registry entry declares them)."""
    from trustme_analysis.games.pinocchio.kernel.trained import PROBE_KINDS

    return tuple(PROBE_PREFIX + name for name in PROBE_KINDS)


#: Variants of the rollout figure in ``benchmarks/kernels.py``.
BENCHMARK_ROLLOUTS = ("pinocchio 2p", "pinocchio 3p", "pinocchio 4p")

# Largest working buffers of one batch of play (traces and histories), in bytes: keeps memory flat.
_BATCH_BYTES = 32 * 2**20
#: Search players' model of the other voters (:meth:`Kernel.voter_model`): worlds dealt at each vote seen to judge
#: whether the heuristic would have cast it.
VOTE_EVIDENCE_WORLDS = 4
#: ... and the prior of a voter who is not the heuristic: it trusts each kind of tale at a fixed rate drawn from
#: Beta(a, a) with this ``a``. Below 1 the prior leans to habits (near "always" or "never"), as the probes have.
HABIT_PRIOR = 0.25
_MAX_BATCH = 4096


def limits(game: pyspiel.Game) -> str | None:
    """None if the kernel's arrays hold the variant (values, players, actions), else a one-line reason (the registry
    entry's ``limits`` part; which rule parameters and values it plays is declared there too)."""
    if game.get_type().short_name != SHORT_NAME:
        return f"the Pinocchio kernel plays {SHORT_NAME}, not {game.get_type().short_name}"
    rules = getattr(game, "rules", None)
    if rules is None:
        return "the game object carries no parsed Rules"
    if rules.values > K.MAXV or rules.players > K.MAXP or game.codec.num_actions > K.MAXA:
        return f"the kernel's arrays hold at most {K.MAXV} values and {K.MAXP} players"
    return None


def rules_array(game: pyspiel.Game) -> np.ndarray:
    """The rules array ``R`` of :mod:`~trustme_analysis.games.pinocchio.kernel.layout`, read from the game's parsed Rules and ActionCodec."""
    rules = game.rules
    codec = game.codec
    R = np.zeros(K.RULES_SIZE, np.int64)
    R[K.R_PLAYERS] = rules.players
    R[K.R_VALUES] = rules.values
    R[K.R_PER_VALUE] = rules.deck_per_value
    R[K.R_PARK_SIZE] = rules.park_size
    R[K.R_REFILL] = rules.refill
    R[K.R_HAND_SIZE] = rules.hand_size
    R[K.R_STACKS_NEEDED] = rules.stacks_needed
    R[K.R_RUNOUTS_TO_END] = rules.runouts_to_end
    R[K.R_COIN_VARIANT] = int(rules.coin_variant)
    R[K.R_SEQUENTIAL] = int(rules.voting == "sequential")  # (what voters see, not how play goes: unused in play)
    R[K.R_DISSENTERS] = int(rules.coin_tossers == "dissenters")
    R[K.R_RESHUFFLE] = int(rules.empty_deck == "reshuffle")
    R[K.R_UTILITY] = ("win_loss", "score", "score_diff").index(rules.utility)
    R[K.R_FIRST_RANDOM] = int(rules.first_player == "random")
    R[K.R_SET_MAX] = codec.set_max
    R[K.R_NCOMBOS] = len(codec.combos)
    R[K.R_TALE_BASE] = codec.tale_base
    R[K.R_REP_BASE] = codec.rep_base
    R[K.R_TAKE_BASE] = codec.take_base
    R[K.R_FREE_BASE] = codec.free_base
    R[K.R_DECLINE] = codec.decline
    R[K.R_PASS] = codec.pass_
    R[K.R_TRUST] = codec.trust
    R[K.R_DISTRUST] = codec.distrust
    R[K.R_TOSS] = codec.toss
    R[K.R_NO_TOSS] = codec.no_toss
    R[K.R_NUM_ACTIONS] = codec.num_actions
    for v in range(rules.values):
        R[K.R_STACKS + v] = rules.stacks[v]
        R[K.R_CHART + v] = rules.chart[v]
    for c, combo in enumerate(codec.combos):
        R[K.R_COMBO_START + c] = combo.start
        R[K.R_COMBO_LEN + c] = combo.length
        R[K.R_COMBO_RUN + c] = int(combo.run)
    for a, move in enumerate(codec.moves):
        R[K.R_DEC_HAND + a] = move.hand
        if move.combo is not None:
            R[K.R_DEC_X + a] = codec.combos.index(move.combo)
        else:
            R[K.R_DEC_X + a] = move.park
    for a, row in enumerate(codec.run_index):
        for k, c in enumerate(row):
            R[K.R_RUN_INDEX + a * (K.MAXV + 1) + k] = c
    return R


def max_turns(game: pyspiel.Game) -> int:
    """An upper bound on the turns of one game: each day ends at a run-out, and between two run-outs every turn but
    the last draws from a deck that only shrinks (at most all Characters), so a day has at most ``total + 1`` turns.
    The kernel flags an overflow rather than trusting this."""
    rules = game.rules
    return rules.runouts_to_end * (rules.total_characters + 1) + 1


class KernelState:
    """A kernel position with the pyspiel-like API (for lock-step tests and search players).

    The state is ``self.s`` (int32, laid out as :mod:`~trustme_analysis.games.pinocchio.kernel.layout` describes) plus the score trace so far.
    """

    __slots__ = ("_history", "kernel", "s", "tales_seen", "trace", "votes_seen")

    def __init__(self, kernel: Kernel, s: np.ndarray, trace: np.ndarray, history: list[int]):
        self.kernel = kernel
        self.s = s
        self.trace = trace
        self._history = history
        #: Votes each seat was seen casting on revealed tales, per seat: (true tales, trusted, tall tales, trusted);
        #: set by :meth:`Kernel.state_from`, else None.
        self.votes_seen: np.ndarray | None = None
        self.tales_seen: np.ndarray | None = None

    # -- queries
    def current_player(self) -> int:
        """The seat to act, -1 (chance) or -4 (terminal), as pyspiel numbers them."""
        return int(K.current_player(self.s))

    def is_terminal(self) -> bool:
        return int(self.s[K.PHASE]) == K.TERMINAL

    def is_chance_node(self) -> bool:
        return bool(K.is_chance_phase(int(self.s[K.PHASE])))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs, computed exactly as the engine computes them (:func:`~.core.chance_outcomes`,
        the tree producer's too)."""
        ids = np.empty(K.MAXV + K.MAXP, np.int64)
        probs = np.empty(K.MAXV + K.MAXP, np.float64)
        n = K.chance_outcomes(self.s, self.kernel.R, ids, probs)
        return list(zip(ids[:n].tolist(), probs[:n].tolist()))

    def legal_actions(self) -> list[int]:
        """The current player's legal actions (at a chance node: the possible outcomes), ascending."""
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        k = self.kernel
        n = K.legal_actions(self.s, k.R, k._buf, k._cbuf)
        return k._buf[:n].tolist()

    def returns(self) -> list[float]:
        out = np.zeros(self.kernel.players, np.float64)
        K.returns_into(self.s, self.kernel.R, out)
        return out.tolist()

    def history(self) -> list[int]:
        """Every action and chance outcome applied so far."""
        return list(self._history)

    # -- changes
    def apply_action(self, action: int) -> None:
        """Apply a legal action or a possible chance outcome (anything else raises ValueError)."""
        action = int(action)
        if action not in self.legal_actions():
            raise ValueError(f"action {action} is not legal here")
        K.apply_action(self.s, self.kernel.R, action, self.trace)
        if self.s[K.ERROR]:
            raise RuntimeError(f"kernel error code {int(self.s[K.ERROR])} (score trace buffer too short)")
        self._history.append(action)

    def clone(self) -> KernelState:
        return KernelState(self.kernel, self.s.copy(), self.trace.copy(), list(self._history))

    def determinize(self, viewer: int, seed: int) -> KernelState:
        """A copy with what ``viewer`` cannot see resampled (see :func:`~trustme_analysis.games.pinocchio.kernel.worlds.determinize`)."""
        out = self.clone()
        rng = np.array([seed], np.uint64)
        K.determinize(out.s, self.kernel.R, viewer, rng, np.empty(K.MAXV + K.MAXP, np.int64))
        return out

    def rows(self) -> list[dict[str, Any]]:
        """The records of this finished game, as ``records.records(game, state)`` gives them."""
        if not self.is_terminal():
            raise ValueError("records need a finished game")
        turns = int(self.s[K.TURN])
        k = self.kernel
        trace = np.ascontiguousarray(self.trace[:turns, : k.players]).reshape(-1)
        raw = RawRecords.empty(k.players, k.values)
        raw.fill(0, self.s[None, :], k.R)
        return rows_of_game(k._columns(raw), trace, np.array([0, trace.size]), 0, k.players)


@dataclass
class Games:
    """Games played by :meth:`Kernel.play` with their records (a :class:`~trustme_analysis.engine.kernels.PlayedGames`),
    held as arrays (one entry per seat, game-major).

    Attributes:
        seeds: the seed of each game.
        players: seats per game.
        arrays: record field -> array with ``games * players`` rows (list fields: a second axis, one per value).
        trace: the score traces of all games, concatenated (game ``g``'s is ``trace[trace_offsets[g]:
            trace_offsets[g+1]]``, turn-major, one score per seat per turn).
        trace_offsets: ``games + 1`` offsets into ``trace``.
        histories: the actions of all games concatenated (``None`` unless asked for), with ``history_offsets``.
    """

    seeds: np.ndarray
    players: int
    arrays: dict[str, np.ndarray]
    trace: np.ndarray
    trace_offsets: np.ndarray
    histories: np.ndarray | None = None
    history_offsets: np.ndarray | None = None
    kernel: Kernel | None = None

    def __len__(self) -> int:
        return len(self.seeds)

    def history(self, g: int) -> list[int]:
        """The actions of game ``g``, chance outcomes included, to replay it."""
        if self.histories is None:
            raise ValueError("histories were not kept (play(..., histories=True))")
        return self.histories[self.history_offsets[g]:self.history_offsets[g + 1]].tolist()

    def rows(self) -> list[list[dict[str, Any]]]:
        """Every game's rows (a list per game), exactly as ``records.records(game, terminal_state)`` gives them."""
        return [rows_of_game(self.arrays, self.trace, self.trace_offsets, g, self.players) for g in range(len(self))]

    def columns(self) -> dict[str, list[Any]]:
        """The records as columns: field -> one value per row (game by game, seats in order), the values and types
        :meth:`rows` holds, read from the arrays without a dict per row (the sweep's storage path)."""
        return record_lists(self.arrays, self.trace, self.trace_offsets, self.players)

    def record_arrays(self) -> dict[str, Any]:
        """The records as Arrow arrays (the sweep's storage path; see the kernel contract)."""
        return record_arrays(FIELDS, self.arrays, len(self), self.players, self.trace, self.trace_offsets)


@dataclass
class _Batch:
    """What one compiled batch of :meth:`Kernel.play` gives, before it is named as record columns."""

    seeds: np.ndarray
    raw: RawRecords
    trace: np.ndarray
    trace_offsets: np.ndarray
    histories: np.ndarray | None
    history_offsets: np.ndarray | None

    @staticmethod
    def concat(parts: list[_Batch]) -> _Batch:
        """The batches as one; their records were written into one :class:`RawRecords` (the first's) already."""
        if len(parts) == 1:
            return parts[0]

        def offsets(arrays: list[np.ndarray]) -> np.ndarray:
            out = [np.zeros(1, np.int64)]
            base = 0
            for a in arrays:
                out.append(a[1:] + base)
                base += a[-1]
            return np.concatenate(out)

        keep = parts[0].histories is not None
        return _Batch(
            np.concatenate([p.seeds for p in parts]),
            parts[0].raw,
            np.concatenate([p.trace for p in parts]),
            offsets([p.trace_offsets for p in parts]),
            np.concatenate([p.histories for p in parts]) if keep else None,
            offsets([p.history_offsets for p in parts]) if keep else None,
        )


def _log_beta(a: float, b: float) -> float:
    """log B(a, b), the Beta function."""
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def heuristic_knobs(knobs: dict[str, Any] | None = None) -> np.ndarray:
    """The heuristic bot's knobs (defaults for those not given) as the float64 array ``H`` of
    :func:`~trustme_analysis.games.pinocchio.kernel.heuristic.heuristic_policy`."""
    from trustme_analysis.games.pinocchio.players.bots import PinocchioKnobs  # (bots registers itself: import on use)

    k = PinocchioKnobs(**(knobs or {}))
    H = np.zeros(K.HEURISTIC_KNOBS_SIZE, np.float64)
    H[K.H_BLUFF_RATE] = k.bluff_rate
    H[K.H_BLUFF_CARDS] = K.BLUFF_CARDS.index(k.bluff_cards)
    H[K.H_WHEN_STUCK] = float(k.bluff_when_stuck)
    H[K.H_VOTE] = K.VOTES_RULES.index(k.vote)
    H[K.H_THRESHOLD] = k.trust_threshold
    H[K.H_ASSUMED_BLUFF] = k.assumed_bluff_rate
    H[K.H_BONUS_VALUE] = k.bonus_turn_value
    H[K.H_CASH_AT] = k.cash_at
    H[K.H_CASH_BEFORE] = k.cash_before_runout
    H[K.H_PARK_PICK] = K.PARK_PICKS.index(k.park_pick)
    H[K.H_COIN] = k.coin_when_disagree
    H[K.H_REMEMBERS] = float(k.remembers_discards)
    H[K.H_VOTE_WEIGHT] = H[K.H_VOTE_WEIGHT_TALL] = 1.0  # (the bot itself always votes its own way)
    H[K.H_TRUST_RATE] = H[K.H_TRUST_RATE_TALL] = 0.5
    return H


class Kernel:
    """The compiled kernel for one loaded ``trustme_pinocchio`` game.

    Args:
        game: the loaded game; its parsed ``rules`` and ``codec`` are compiled into the rules array (parameter strings
            are never read here, except the ``chart`` string the records function itself reads).
        seat_kinds: who plays :meth:`play` and :meth:`rollouts`: one kind for every seat, or one per seat
            (``"random"`` or ``"heuristic"``; in :meth:`play` also a probe, :func:`probe_seat_kinds`).
        knobs: the heuristic (and probe) seats' knobs (the heuristic bot's defaults for those not given).
    """

    def __init__(self, game: pyspiel.Game, seat_kinds: Sequence[str] = ("random",),
                 knobs: dict[str, Any] | None = None, trained: tuple[np.ndarray, np.ndarray, int] | None = None):
        reason = limits(game)
        if reason:
            raise ValueError(reason)
        unknown = sorted({k for k in seat_kinds if _seat_code(k) is None or (k == "trained" and trained is None)})
        if unknown:
            raise ValueError(f"seat kinds {unknown} are not compiled (the kernel plays: random, heuristic, "
                             f"{', '.join(probe_seat_kinds())}, and trained seats given a trained policy)")
        kinds = list(seat_kinds)
        if len(kinds) == 1:
            kinds *= game.rules.players
        if len(kinds) != game.rules.players:
            raise ValueError(f"seat_kinds names {len(kinds)} seats; allowed: one kind, or one per seat "
                             f"({game.rules.players})")
        self.seat_kinds = tuple(kinds)
        self._kinds = np.array([_seat_code(k) for k in kinds], np.int64)
        #: The heuristic seats' knobs, one row per seat (search players change the rows of the others' votes).
        self.H = np.tile(heuristic_knobs(knobs), (game.rules.players, 1))
        self.game = game
        self.R = rules_array(game)
        self.players = game.rules.players
        self.values = game.rules.values
        self.max_turns = max_turns(game)
        self.max_length = game.max_game_length()
        self._buf = np.empty(int(self.R[K.R_NUM_ACTIONS]), np.int64)
        self._cbuf = np.empty(K.MAXC, np.int64)
        self._chart_column = _records_chart(game)
        # ---- trained seats (issue 28): the policy's lookup table and abstraction level, played by
        # kernel.trained.play_batch_trained in whole games and kernel.trained_rollouts in a search player's rollouts.
        self._trained = trained
        # ----
        # Every line-up's whole games play in one loop (kernel.trained.play_batch_trained), handed an empty policy
        # table when no seat is trained.
        self._probes = any(k.startswith(PROBE_PREFIX) for k in kinds)

    # ------------------------------------------------------------------ single states
    def new_state(self) -> KernelState:
        """The start of a game (chance deals the Park first)."""
        s = np.empty(K.STATE_SIZE, np.int32)
        K.init_state(s, self.R)
        return KernelState(self, s, np.zeros((self.max_turns, self.players), np.int32), [])

    def state_from(self, state: pyspiel.State) -> KernelState:
        """The kernel state of an engine state (:class:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState`, e.g. a world a search player
        sampled with ``resample_from_infostate``), read from its fields: the same position, hidden part included.

        The record counters (tales, votes, Tickets by route ...) start at zero, so a finished game's records count
        only what happened after the copy; play and returns are the engine's. The history is the state's.
        """
        s = np.zeros(K.STATE_SIZE, np.int32)
        n, V = self.players, self.values
        tale = state._tale
        s[K.PHASE] = state._phase
        s[K.TURN] = state._turn
        s[K.ACTIVE] = state._active
        s[K.ACTOR] = state._actor
        s[K.DECK_TOTAL] = state._deck_total
        s[K.RUNOUTS] = state._runouts
        s[K.DAYS_ENDED] = state._days_ended
        s[K.RAN_OUT] = int(state._ran_out)
        s[K.BONUS] = int(state._bonus)
        s[K.END_TRIGGER] = _END_TRIGGERS[state._end_trigger]
        s[K.DEAL_LEFT] = state._deal_left
        s[K.DEAL_SEAT] = state._deal_seat
        s[K.REFILL_LEFT] = state._refill_left
        s[K.AFTER_REFILL] = state._after_refill
        s[K.TALE_PARK] = tale[0] if tale is not None else 0
        s[K.TALE_HIDDEN] = tale[1] if tale is not None else 0
        s[K.VOTE_I] = state._vote_i
        s[K.TRUSTED] = -1 if state._trusted is None else int(state._trusted)
        s[K.COIN] = -1 if state._coin is None else state._coin
        s[K.COIN_BY] = -1 if state._coin_by is None else state._coin_by
        s[K.N_OFFERS] = len(state._offers)
        s[K.OFFER_I] = state._offer_i
        s[K.OFFERS:K.OFFERS + len(state._offers)] = state._offers
        s[K.N_TIED] = len(state._tied)
        s[K.TIED:K.TIED + len(state._tied)] = state._tied
        s[K.WINNER] = state._winner
        s[K.FIRST_SEAT] = state._first
        s[K.DISCARD:K.DISCARD + V] = state._discard
        s[K.PARK:K.PARK + V] = state._park
        s[K.DECK:K.DECK + V] = state._deck
        s[K.STACKS:K.STACKS + V] = state._stacks
        for p in range(n):
            s[K.REPS + p * K.MAXV:K.REPS + p * K.MAXV + V] = state._reps[p]
            s[K.TICKETS + p * K.MAXV:K.TICKETS + p * K.MAXV + V] = state._tickets[p]
            s[K.HANDS + p * K.MAXV:K.HANDS + p * K.MAXV + V] = state._hands[p]
            s[K.COIN_USED + p] = int(state._coin_used[p])
            vote = state._votes[p]
            s[K.VOTES + p] = -1 if vote is None else int(vote)
            if state._totals is not None:
                s[K.TOTALS + p] = state._totals[p]
            s[K.SCORE + p] = K.ticket_score(s, self.R, p)
        for p in range(n, K.MAXP):
            s[K.VOTES + p] = -1
        s[K.STACK_EMPTY_TURN:K.STACK_EMPTY_TURN + K.MAXV] = -1
        s[K.LAST_EMPTIED] = -1
        out = KernelState(self, s, np.zeros((self.max_turns, self.players), np.int32), list(state.history()))
        # The votes and the kind of revealed tales (public once a tale is resolved), for search players' models of the
        # voters and of the tellers.
        seen = np.zeros((self.players, 4), np.int64)
        told = np.zeros((self.players, 2), np.int64)
        for e in state._events:
            if e[0] == "tale":
                col = 2 if e[5] else 0  # (true tales, then tall ones)
                told[e[2], 0] += 1
                told[e[2], 1] += int(bool(e[5]))
                for q, vote in enumerate(e[6]):
                    if vote is not None:
                        seen[q, col] += 1
                        seen[q, col + 1] += int(vote)
        out.votes_seen = seen
        out.tales_seen = told
        return out

    def heuristic_policy(self, state: KernelState) -> dict[int, float]:
        """The compiled heuristic's distribution for the seat to act in ``state`` (zero entries dropped), with this
        kernel's knobs: what ``PinocchioHeuristicBot.action_probabilities`` gives there."""
        acts = np.empty(K.MAXA, np.int64)
        probs = np.empty(K.MAXA, np.float64)
        n = K.heuristic_policy(state.s, self.R, self.H[state.current_player()], acts, probs, self._scratch()[2])
        return {int(a): float(p) for a, p in zip(acts[:n], probs[:n]) if p > 0}

    def from_history(self, actions: Sequence[int]) -> KernelState:
        """The position reached by applying ``actions`` (e.g. a pyspiel state's ``history()``) from the start."""
        state = self.new_state()
        for a in actions:
            state.apply_action(a)
        return state

    def warm_up(self) -> float:
        """Compile every entry point (or load it from numba's on-disk cache); returns the seconds it took.

        The first run on a machine compiles (tens of seconds: show "compiling (first run only)"); later runs load
        the cache in about a second.
        """
        start = time.perf_counter()
        self.play(np.arange(2, dtype=np.uint64), histories=True)
        state = self.new_state()
        state.apply_action(state.legal_actions()[0])
        state.returns()
        state.determinize(0, 0)
        if not self._probes:  # (probe seats play no rollouts)
            self.rollouts(state, 1, 0, viewer=0)
        return time.perf_counter() - start

    # ------------------------------------------------------------------ many games
    def batch_size(self, histories: bool) -> int:
        """Games per compiled batch: as many as fit the working-buffer budget (memory stays flat in the games)."""
        per_game = self.max_turns * self.players * 4 + K.STATE_SIZE * 4
        if histories:
            per_game += self.max_length * 4
        return max(1, min(_MAX_BATCH, _BATCH_BYTES // per_game))

    def _batches(self, seeds: np.ndarray, histories: bool, raw: RawRecords | None = None):
        """Compiled batches of games; with ``raw``, every batch writes its records into it (else into its own)."""
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        size = self.batch_size(histories)
        n = self.players
        for start in range(0, len(seeds), size):
            chunk = seeds[start:start + size]
            G = len(chunk)
            finals = np.empty((G, K.STATE_SIZE), np.int32)
            trace = np.empty(G * self.max_turns * n, np.int32)
            trace_off = np.empty(G + 1, np.int64)
            hist = np.empty(G * self.max_length if histories else 0, np.int32)
            hist_off = np.zeros(G + 1, np.int64)
            # The kernel's one whole-game loop plays every line-up (an empty policy table when no seat is trained);
            # looked up at each call, so that benchmarks/trained_seat_cost.py can swap in a cut-down copy.
            tkeys, tavg, detail = self._trained or _EMPTY_POLICY
            trained_module.play_batch_trained(self.R, chunk, finals, trace, trace_off, hist, hist_off, self.max_turns,
                                              self.max_length, *self._scratch(), self._kinds, self.H,
                                              np.empty(K.MAXA, np.int64), np.empty(K.MAXA, np.float64), tkeys, tavg,
                                              int(detail), np.empty(K.MAXA, np.int64), np.empty(K.MAXC, np.int64),
                                              np.empty(K.MAXA, np.int64), np.empty(K.MAXA, np.int64),
                                              np.empty(K.MAXA))
            errors = finals[:, K.ERROR]
            if np.any(errors == K.ERR_TRACE_OVERFLOW):
                raise RuntimeError("kernel error: a score trace exceeded its buffer (max_turns is too small)")
            if np.any(errors == K.ERR_HISTORY_OVERFLOW):
                raise RuntimeError("kernel error: a game exceeded max_game_length()")
            if raw is None:
                out = RawRecords.empty(G * n, self.values)
                out.fill(0, finals, self.R)
            else:
                out = raw
                raw.fill(start * n, finals, self.R)
            # Copies, so that the batch's large buffers are freed (memory stays flat in the number of games).
            yield _Batch(chunk.copy(), out, trace[:trace_off[-1]].copy(), trace_off,
                         hist[:hist_off[-1]].copy() if histories else None, hist_off if histories else None)

    def _games(self, batch: _Batch) -> Games:
        return Games(batch.seeds, self.players, self._columns(batch.raw), batch.trace, batch.trace_offsets,
                           batch.histories, batch.history_offsets, self)

    def iter_play(self, seeds: np.ndarray, histories: bool = False):
        """:meth:`play` batch by batch: yields a :class:`Games` per batch (for streaming sweeps)."""
        for batch in self._batches(seeds, histories):
            yield self._games(batch)

    def play(self, seeds: np.ndarray, histories: bool = False) -> Games:
        """Play one game per seed with this kernel's seats (uniformly random unless it was built with others),
        entirely in compiled code.

        Args:
            seeds: uint64 seeds; game ``g`` depends only on ``seeds[g]``.
            histories: also keep every game's action sequence (chance outcomes included) for replay.
        """
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        raw = RawRecords.empty(len(seeds) * self.players, self.values)
        parts = list(self._batches(seeds, histories, raw))
        if not parts:
            none = np.zeros(1, np.int64)
            parts = [_Batch(seeds, raw, np.zeros(0, np.int32), none, np.zeros(0, np.int32) if histories else None,
                            none if histories else None)]
        return self._games(_Batch.concat(parts))

    def rollouts(self, state: KernelState, n: int, seed: int, viewer: int | None = None) -> np.ndarray:
        """Mean returns of ``n`` playouts from ``state`` (compiled), every seat played by its seat kind (random
        unless the kernel was built with others).

        Args:
            viewer: resample what this seat cannot see before each playout (a determinization); None plays from the
                true position.
        """
        self._no_probes("rollouts")
        out = np.zeros(2 * K.MAXP, np.float64)
        who = -1 if viewer is None else int(viewer)
        # One rollout loop for every line-up (kernel.trained_rollouts; an empty policy table without a trained seat).
        from trustme_analysis.games.pinocchio.kernel.trained_rollouts import rollouts_trained

        rollouts_trained(self.R, state.s, int(n), np.uint64(seed), who, self._kinds, self.H, out, *self._scratch(),
                         np.empty(K.MAXA, np.int64), np.empty(K.MAXA, np.float64), *self._trained_scratch())
        return out[: self.players] / max(int(n), 1)

    def action_rollouts(self, state: KernelState, actions: Sequence[int], worlds: int, per_world: int, seed: int,
                        viewer: int, belief: bool = True) -> np.ndarray:
        """Mean returns (``len(actions) x players``) of each of ``actions`` over the same ``worlds`` worlds, each
        played out ``per_world`` times after the action by this kernel's seats (compiled; a search player's paired
        evaluation, :func:`~trustme_analysis.games.pinocchio.kernel.trained_rollouts.action_rollouts_trained`).

        A world is ``state`` with what ``viewer`` cannot see dealt anew (hidden simultaneous votes redrawn), as
        ``resample_from_infostate`` deals it; with ``belief``, as ``bots.belief`` picks worlds: a pending tale of
        another player's is tall with the chance :meth:`teller_bluff_rate` gives, by exact rejection sampling.
        """
        self._no_probes("action_rollouts")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        out = np.zeros((len(acts), K.MAXP), np.float64)
        b = self.teller_bluff_rate(state) if belief else -1.0
        s, rng, buf = self._scratch()
        from trustme_analysis.games.pinocchio.kernel.trained_rollouts import action_rollouts_trained

        action_rollouts_trained(self.R, state.s, acts, int(worlds), int(per_world), np.uint64(seed), int(viewer),
                                float(b), self._kinds, self.voter_model(state, viewer), out, s,
                                np.empty(K.STATE_SIZE, np.int32), np.empty(K.STATE_SIZE, np.int32),
                                np.zeros(K.MAXP, np.float64), rng, buf, np.empty(K.MAXA, np.int64),
                                np.empty(K.MAXA, np.float64), *self._trained_scratch())
        return out[:, : self.players] / max(int(worlds) * int(per_world), 1)

    def teller_bluff_rate(self, state: KernelState) -> float:
        """The search player's chance that the pending tale is tall (``bots.teller_bluff_rate`` of the tales its teller
        was seen telling, ``state.tales_seen``; the heuristic's ``assumed_bluff_rate`` when none were counted)."""
        from trustme_analysis.games.pinocchio.players.bots import teller_bluff_rate

        teller = int(state.s[K.ACTIVE])
        seen = state.tales_seen
        told, tall = (0, 0) if seen is None else (int(seen[teller, 0]), int(seen[teller, 1]))
        return teller_bluff_rate(told, tall)

    def voter_model(self, state: KernelState, viewer: int) -> np.ndarray:
        """The heuristic seats' knobs, with a search player's model of the other voters and of its own future votes.

        Each other player ``q`` votes in the rollouts as the heuristic with probability ``w_q``, else trusts at the
        rate ``viewer`` saw it trust this game, on true and on tall tales apart (``state.votes_seen``; the posterior mean
        (trusts + a) / (votes + 2a), a = :data:`HABIT_PRIOR`). ``w_q`` is the posterior chance, from even odds, that ``q`` is a heuristic voter
        rather than one who trusts each kind of tale at a fixed rate (prior Beta(a, a)): the heuristic's
        likelihood of ``q``'s votes is judged from what ``viewer`` saw (:func:`~trustme_analysis.games.pinocchio.
        kernel.search.vote_evidence`), the other's is the Beta-Binomial one. So a table that never (or always) trusts
        is played as one in the rollouts after a few votes the heuristic would have cast otherwise, and a heuristic
        table stays the heuristic.

        ``viewer``'s own seat votes in the rollouts as the heuristic believing the others tell tall tales as often as
        they were seen to (its ``assumed_bluff_rate`` set to :meth:`teller_bluff_rate` of all their revealed tales
        together), so its future votes are not played as if every table bluffed at the heuristic's assumed rate."""
        from trustme_analysis.games.pinocchio.players.bots import teller_bluff_rate

        H = self.H.copy()
        told = state.tales_seen
        if told is not None:
            others = [q for q in range(self.players) if q != viewer]
            H[viewer, K.H_ASSUMED_BLUFF] = teller_bluff_rate(int(told[others, 0].sum()), int(told[others, 1].sum()))
        seen = state.votes_seen
        if seen is None or not seen.any():
            return H
        evidence = np.zeros((K.MAXP, 2), np.float64)
        s, rng, buf = self._scratch()
        K.vote_evidence(self.R, self.H, np.asarray(state.history(), np.int64), int(viewer), VOTE_EVIDENCE_WORLDS,
                        np.uint64(0x5EED), evidence, s, np.empty(K.STATE_SIZE, np.int32),
                        np.empty(K.STATE_SIZE, np.int32), rng, buf, np.empty(K.MAXA, np.int64),
                        np.empty(K.MAXA, np.float64))
        for q in range(self.players):
            if q == viewer or not evidence[q, 1]:
                continue
            # log of the Beta-Binomial (uniform prior) likelihood of the votes seen, each kind of tale apart.
            a = HABIT_PRIOR
            other = sum(_log_beta(seen[q, col + 1] + a, seen[q, col] - seen[q, col + 1] + a) - _log_beta(a, a)
                        for col in (0, 2))
            w = 1.0 / (1.0 + math.exp(min(700.0, other - evidence[q, 0])))
            for col, weight, rate in ((0, K.H_VOTE_WEIGHT, K.H_TRUST_RATE), (2, K.H_VOTE_WEIGHT_TALL,
                                                                              K.H_TRUST_RATE_TALL)):
                H[q, weight] = w
                H[q, rate] = (seen[q, col + 1] + a) / (seen[q, col] + 2.0 * a)
        return H

    def _no_probes(self, what: str) -> None:
        # The rollouts' loops have no probe seats (they would play them as random seats).
        if self._probes:
            raise ValueError(f"{what}: probe seats play whole games (play) only, not rollouts")

    def _trained_scratch(self) -> tuple[Any, ...]:
        """The trained seats' policy (lookup keys, average strategy, abstraction level) and their scratch, as
        :func:`~trustme_analysis.games.pinocchio.kernel.trained.trained_action` takes them."""
        tkeys, tavg, detail = self._trained or _EMPTY_POLICY
        return (tkeys, tavg, int(detail), np.empty(K.MAXA, np.int64), np.empty(K.MAXC, np.int64),
                np.empty(K.MAXA, np.int64), np.empty(K.MAXA, np.int64), np.empty(K.MAXA))

    def _scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Scratch arrays for one compiled call (a state, a generator, the action buffer), owned here so that the
        compiled code can borrow them (see :func:`~trustme_analysis.games.pinocchio.kernel.core.borrow`)."""
        return (np.empty(K.STATE_SIZE, np.int32), np.zeros(1, np.uint64),
                np.empty(int(K.scratch_size(self.R)), np.int64))

    # ------------------------------------------------------------------ records
    def _columns(self, raw: RawRecords) -> dict[str, np.ndarray]:
        return record_columns(raw, self._chart_column)


def _records_chart(game: pyspiel.Game) -> str:
    """The ``chart`` column exactly as the records function writes it: the engine's parsed chart, "/"-joined."""
    return "/".join(str(c) for c in game.rules.chart)


def benchmark_rollout_position(kernel: Kernel, seed: int = 3, turn: int = 6) -> tuple[KernelState, int, list[int]]:
    """A day-1 position for rollout figures: the turn's action of the first turn ``>= turn`` of a random game.

    Returns the state, the seat to act (the viewer whose unseen Characters a search player would resample) and the
    actions leading there.
    """
    played = kernel.play(np.array([seed], dtype=np.uint64), histories=True)
    state = kernel.new_state()
    for a in played.history(0):
        if int(state.s[K.TURN]) >= turn and int(state.s[K.PHASE]) == K.ACTION:
            break
        state.apply_action(a)
    if state.is_terminal() or int(state.s[K.RUNOUTS]):
        raise ValueError(f"seed {seed} gives no day-1 position at turn {turn}")
    return state, state.current_player(), state.history()


__all__ = [
    "BENCHMARK_ROLLOUTS",
    "Games",
    "Kernel",
    "KernelState",
    "benchmark_rollout_position",
    "heuristic_knobs",
    "limits",
    "max_turns",
    "probe_seat_kinds",
    "rules_array",
]
