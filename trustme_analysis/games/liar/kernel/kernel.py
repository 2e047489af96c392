"""The compiled (numba) kernel of ``trustme_liar``: whole games, rollouts and a lock-step state, by the contract of
:mod:`trustme_analysis.engine.kernels` (:class:`Kernel`, :class:`KernelState`, the played games
:class:`~trustme_analysis.games.liar.kernel.records.KernelRecords`).

The pyspiel engine (:mod:`trustme_analysis.games.liar.engine.game`) is the specification; this kernel re-implements
its rules over integer arrays and plays games in compiled loops (the modules of
:mod:`trustme_analysis.games.liar.kernel`, from :mod:`~trustme_analysis.games.liar.kernel.layout` on). Action ids,
player ids, chance outcome ids and probabilities are the engine's, and ``tests/games/test_liar_kernel.py`` replays
kernel games through the engine step by step with the lock-step harness (:mod:`trustme_analysis.engine.lockstep`:
current player, legal actions or chance outcomes with probabilities, what each seat knows, returns and every record
field), as ``benchmarks/kernels_liar.py --verify N`` does for more games. What it plays (every rule parameter at every
value, random and heuristic seats) is declared in the game's registry entry (``trustme_analysis/games/liar/__init__.py``).

Usage::

    kernel = Kernel(pyspiel.load_game("trustme_liar(players=4)"))
    played = kernel.play(np.arange(10_000, dtype=np.uint64))   # one game per seed
    rows = played.rows()   # == records.records(game, state) of each game, one list of seat rows per game
    state = kernel.new_state()   # before the deal, like game.new_initial_state()

Randomness: one SplitMix64 stream per game seeded by the game's seed (see :mod:`~trustme_analysis.games.liar.kernel.layout`),
so a game depends only on its seed, not on the batch it is played in. The first compile takes a while; compiled code
is cached on disk (``__pycache__``), so later processes load it in well under a second or two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.kernels import PROBE_KIND_PREFIX
from trustme_analysis.games.liar.engine.game import LiarGame
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves, play
from trustme_analysis.games.liar.kernel import trained as TR
from trustme_analysis.games.liar.kernel.records import KernelRecords, build_records
from trustme_analysis.games.liar.players.heuristic import KNOB_NAMES, LiarKnobs

#: The seat kinds this class plays, by name: uniform random, and the heuristic bot's policy
#: (:mod:`~trustme_analysis.games.liar.players.heuristic`); the codes of the compiled loops.
_KIND_CODES = {"random": layout.RANDOM, "heuristic": layout.HEURISTIC, "trained": 2}
# "trained" (kernel.trained.TRAINED): only with a policy (Kernel(trained=...)), in whole games, action draws and
# rollouts
#: The seat kind of a probe: this prefix and the simple strategy's name (``"probe:never bluff"``), played over the
#: heuristic with the kernel's knobs (kernel.trained.PROBE_KINDS, probe_action), in whole games and action draws.
PROBE_PREFIX = PROBE_KIND_PREFIX


def _kind_code(kind: str) -> int | None:
    """The compiled loops' code of a seat kind, or None where the kernel has none."""
    if kind.startswith(PROBE_PREFIX):
        return TR.PROBE_KINDS.get(kind[len(PROBE_PREFIX):])
    return _KIND_CODES.get(kind)


def probe_seat_kinds() -> tuple[str, ...]:
    """The probe seat kinds the whole-game loop plays (the registry entry declares them)."""
    return tuple(PROBE_PREFIX + name for name in TR.PROBE_KINDS)


def search_budget(game: pyspiel.Game) -> int:
    """The search player's default rollouts per decision where this kernel plays them (the registry entry's
    ``search_budget``): worlds dealt and played out in one compiled call
    (:mod:`~trustme_analysis.games.liar.kernel.search`), about 50 ms of CPU a decision at most. 1,600 with two or three
    players (about 30 ms a decision in two players); 1,200 from four, whose play-outs cost about 1.6 times as much
    (1,600 took 41-52 ms a decision in four players on the shared machine, 1,200 takes 33-40)."""
    return 1600 if game.num_players() <= 3 else 1200


class KernelState:
    """A position held as the kernel's integer array, with the pyspiel calls the lock-step harness and the search
    player use (:class:`trustme_analysis.engine.kernels.KernelState`)."""

    __slots__ = ("_history", "_trace", "array", "kernel", "origin", "seat_knobs")

    def __init__(self, kernel: Kernel, array: np.ndarray, history: list[int], seat_knobs: np.ndarray | None = None,
                 origin: pyspiel.State | None = None, trace: list[list[int]] | None = None):
        self.kernel = kernel
        self.array = array
        self._history = history
        # The cards every seat has shed after each player turn so far (the records' ``score_trace``), for rows();
        # None for a state copied from a pyspiel position, whose turns before the copy the kernel did not see.
        self._trace = trace
        # The pyspiel state it was copied from (``Kernel.state_from``), whose events a search player's worlds read.
        self.origin = origin
        # The heuristic seats' knobs in play-outs from here, one row per seat (None: the kernel's): a search
        # player's model of the others, carried by its worlds (``bots.opponent_knobs``).
        self.seat_knobs = seat_knobs

    def current_player(self) -> int:
        """The seat to act; ``pyspiel.PlayerId.CHANCE`` (-1) during the deal, ``TERMINAL`` (-4) at the end."""
        return int(layout.current_player(self.kernel.cfg, self.array))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.array[layout.S_END] != layout.END_NONE)

    def is_chance_node(self) -> bool:
        """Whether the next action deals a value."""
        return self.current_player() == layout.CHANCE

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, ascending; the chance outcome ids at a chance node; [] at the end."""
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return actions.legal_actions(self.kernel.cfg, self.kernel.tab, self.array).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(split id, probability)`` of the next value's deal, as the engine lists them."""
        if not self.is_chance_node():
            return []
        ids, probs = deal.chance_outcomes(self.kernel.cfg, self.kernel.tab, self.array)
        return list(zip(ids.tolist(), probs.tolist()))

    def apply_action(self, action: int) -> None:
        """Apply a legal action (ValueError if it is not legal here)."""
        cfg, S = self.kernel.cfg, self.array
        seat = S[layout.S_CURRENT] if self._trace is not None and self.current_player() >= 0 else -1
        if not play.apply_checked(cfg, self.kernel.tab, S, int(action)):
            raise ValueError(f"action {action} is not legal at this position (player {self.current_player()})")
        self._history.append(int(action))
        if seat >= 0:
            n = int(cfg[layout.N])
            start, held = int(cfg[layout.O_START]), int(cfg[layout.O_HSIZE])
            self._trace.append((S[start:start + n] - S[held:held + n]).tolist())

    def returns(self) -> list[float]:
        """The utility in force at the end (rank, points or difference), as the engine's ``returns()``; zeros before."""
        return moves.state_results(self.kernel.cfg, self.array)[2].tolist()

    def history(self) -> list[int]:
        """Every action applied since the start of the game (chance included)."""
        return list(self._history)

    def clone(self) -> KernelState:
        """An independent copy."""
        trace = None if self._trace is None else list(self._trace)
        return KernelState(self.kernel, self.array.copy(), list(self._history), self.seat_knobs, None, trace)

    def rows(self) -> list[dict[str, Any]]:
        """The records of this finished game, one row per seat, as ``records.records`` gives them for the engine's
        terminal state (a game this state followed from :meth:`Kernel.new_state`).

        Raises:
            ValueError: the game is not over, or the state was copied from a pyspiel position
                (:meth:`Kernel.state_from`: the kernel did not see its turns before the copy).
        """
        if not self.is_terminal():
            raise ValueError("rows: the game is not over")
        if self._trace is None:
            raise ValueError("rows: a state copied from a pyspiel position (Kernel.state_from) has no records")
        return self.kernel._rows_of(self.array, self._trace)


class Kernel:
    """The compiled rules of one loaded ``trustme_liar`` variant, with the seats' kinds.

    Args:
        game: a loaded ``trustme_liar`` game; its parsed :class:`~trustme_analysis.games.liar.engine.rules.Rules` are
            compiled into fixed-size integer arrays (the parameter string is not read again).
        seat_kinds: ``"random"``, ``"heuristic"``, a probe (:func:`probe_seat_kinds`, ``"probe:never bluff"`` ...:
            the heuristic with these knobs restricted to the strategy's moves) or ``"trained"`` (with ``trained=``):
            one kind for every seat, or one per seat.
        knobs: the heuristic seats' knobs (:class:`~trustme_analysis.games.liar.players.heuristic.LiarKnobs` fields;
            default: the bot's defaults).
        trained: a trained policy for ``"trained"`` seats: ``(keys, avg, detail)``, the lookup table of a stored
            policy (``TrainedPolicy.lookup()``) and its abstraction level. Trained seats play whole games
            (:meth:`play`), action draws (:meth:`sample_actions`) and rollouts (:meth:`rollouts`,
            :meth:`action_rollouts`: a search player over the trained policy, :mod:`~.trained_rollouts`).
    """

    def __init__(self, game: pyspiel.Game, seat_kinds: Sequence[str] = ("random",),
                 knobs: dict[str, Any] | None = None, trained: tuple[np.ndarray, np.ndarray, int] | None = None):
        if not isinstance(game, LiarGame):
            raise ValueError(f"the Liar kernel plays only trustme_liar games, not {game}")
        for kind in seat_kinds:
            if _kind_code(kind) is None or (kind == "trained" and trained is None):
                raise ValueError(f"seat kind {kind!r}: the Liar kernel plays only random, heuristic, "
                                 f"{', '.join(probe_seat_kinds())}, and trained seats given a trained policy "
                                 "(trained=)")
        n = game.rules.players
        if len(seat_kinds) not in (1, n):
            raise ValueError(f"seat_kinds: one kind, or one per seat ({n}); got {list(seat_kinds)}")
        if KNOB_NAMES != layout.KNOB_ORDER:
            raise RuntimeError("the compiled heuristic reads knobs other than the bot's: update kernel/layout.py")
        self.game = game
        self.rules = game.rules
        self.cfg = layout.rules_array(game)
        self.tab = layout.build_tables(self.cfg)
        kinds = list(seat_kinds) * n if len(seat_kinds) == 1 else list(seat_kinds)
        self.seat_kinds = tuple(kinds)
        self._kinds = np.array([_kind_code(k) for k in kinds], dtype=np.int64)
        self.knobs = LiarKnobs(**(knobs or {}))
        self._knobs = self.knobs.array()
        # The compiled play loops read one row of knobs per seat (a search player's worlds may model each seat apart).
        self._seat_knobs = np.ascontiguousarray(np.tile(self._knobs, (n, 1)))
        # ---- trained seats (issue 28): the policy's lookup table, its level and the scratch its rows need. The
        # kernel's one whole-game loop (kernel.trained.play_games) plays every line-up: without a trained seat it is
        # handed an empty table (train.tables.empty_policy), and so are the rollout loops (kernel.trained_rollouts).
        from trustme_analysis.games.liar.kernel.abstraction import new_scratch
        from trustme_analysis.train.tables import empty_policy

        self._probes = any(k.startswith(PROBE_PREFIX) for k in kinds)
        tkeys, tavg, detail = trained if trained is not None else empty_policy()
        self._policy = (np.ascontiguousarray(tkeys, np.int64), np.ascontiguousarray(tavg, np.float64), int(detail),
                        new_scratch(self.cfg, self.tab))

    def new_state(self) -> KernelState:
        """The position before the deal, like ``game.new_initial_state()`` (a fixed first player already seated)."""
        array = np.empty(self.cfg[layout.SIZE], dtype=np.int64)
        layout.init_state(self.cfg, array)
        return KernelState(self, array, [], trace=[])

    def play(self, seeds: np.ndarray, histories: bool = False) -> KernelRecords:
        """One game per seed, each seat of its kind, chance by its probabilities; every seat's record fields.

        Args:
            seeds: uint64 seeds, one game each (a game depends only on its seed).
            histories: also keep each game's full action sequence (deal included).
        """
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        tkeys, tavg, detail, sc = self._policy
        raw = TR.play_games(self.cfg, self.tab, seeds, self._kinds, self._seat_knobs, histories, tkeys, tavg, detail,
                            sc["row"], sc["descs"], sc["probs"], sc["scratch"])
        if raw[-1]:
            raise RuntimeError("a seat to act had no legal action (the engine would list none either)")
        return build_records(self.rules, seeds, raw, histories)

    def _rows_of(self, S: np.ndarray, trace: list[list[int]]) -> list[dict[str, Any]]:
        """The records of the finished position ``S`` with its score trace (:meth:`KernelState.rows`), built as
        :meth:`play` builds a game's."""
        flat = np.asarray(trace, dtype=np.int16).reshape(-1)
        raw = (*play.record_of(self.cfg, S), flat, np.array([0, flat.size], dtype=np.int64), None, None, 0)
        return build_records(self.rules, np.zeros(1, dtype=np.uint64), raw, False).rows()[0]

    def rollouts(self, state: KernelState, n: int, seed: int) -> np.ndarray:
        """Mean returns (one per seat) of ``n`` playouts from ``state``, each seat of its kind (one stream from
        ``seed``); heuristic seats play with ``state.seat_knobs`` where the state carries them, else the kernel's;
        trained seats play the kernel's policy (the same draws: one play-out from :meth:`new_state` with seed ``s``
        is the trained game :meth:`play` plays with seed ``s``)."""
        knobs = self._seat_knobs if state.seat_knobs is None else state.seat_knobs
        # One rollout loop for every line-up (kernel.trained_rollouts; an empty policy table without a trained seat).
        from trustme_analysis.games.liar.kernel import trained_rollouts

        means, error = trained_rollouts.rollouts(self, state.array, int(n), seed, knobs)
        if error:
            raise RuntimeError("a seat to act had no legal action (the engine would list none either)")
        return means

    def sample_actions(self, state: KernelState, count: int, seed: int) -> np.ndarray:
        """``count`` independent draws of the next action at ``state``: a chance outcome by its probability, or the
        seat's action by its kind (a uniform one is drawn without listing the legal actions)."""
        if state.is_terminal():
            raise ValueError("the game is over: no action to draw")
        knobs = self._seat_knobs if state.seat_knobs is None else state.seat_knobs
        tkeys, tavg, detail, sc = self._policy
        return TR.sample_actions(self.cfg, self.tab, state.array, int(count), np.uint64(seed), self._kinds, knobs,
                                 tkeys, tavg, detail, sc["row"], sc["descs"], sc["probs"], sc["scratch"])

    def heuristic_policy(self, state: KernelState) -> dict[int, float]:
        """The heuristic's policy at ``state`` (the seat to act), as the compiled rollouts play it:
        ``{action: probability}``. The same as the bot's ``action_probabilities`` (tested)."""
        size = int(heuristic.list_size(self.cfg, int(self._knobs[layout.K_EXTRA])))
        ids = np.empty(size, dtype=np.int64)
        probs = np.empty(size, dtype=np.float64)
        work = np.empty(3 * self.rules.values, dtype=np.int64)
        k = heuristic.heuristic_distribution(self.cfg, self.tab, state.array.copy(), self._knobs, ids, probs, work)
        out: dict[int, float] = {}
        for a, p in zip(ids[:k].tolist(), probs[:k].tolist()):
            out[a] = out.get(a, 0.0) + p
        return out

    def state_from(self, state: pyspiel.State) -> KernelState:
        """The kernel state of any ``trustme_liar`` pyspiel state of this game (a played position or a search
        player's world): the rules' fields and what each seat knows. The record counters start at zero (a state
        built this way is for play-outs, not records). A world that carries its searching player's model of the
        seats (``_seat_knobs``, set by ``bots.belief``) passes it on: its play-outs play each seat so."""
        t = state._table
        rules = self.rules
        cfg = self.cfg
        n, values = rules.players, rules.values
        S = np.empty(cfg[layout.SIZE], dtype=np.int64)
        layout.init_state(cfg, S)
        if t.first >= 0 and S[layout.S_FIRST] < 0:
            layout.start(cfg, S, t.first)

        def put(offset: int, data: Any) -> None:
            block = np.asarray(data, dtype=np.int64).ravel()
            S[cfg[offset]: cfg[offset] + block.size] = block

        S[layout.S_DEALT] = t.dealt
        put(layout.O_HANDS, t.hands)
        put(layout.O_BURNBY, t.burned_by)
        put(layout.O_CLAIMBURN, t.claims_burned)
        put(layout.O_REVEALED, t.revealed)
        put(layout.O_KNOWN, t.known)
        put(layout.O_KFLAG, [1] * n)  # rows that may hold knowledge (all: zeroing zeros costs nothing)
        put(layout.O_HSIZE, [sum(h) for h in t.hands])
        put(layout.O_OUT, t.out)
        put(layout.O_FALSE, t.false_cards)
        put(layout.O_UNM, t.unmasked)
        put(layout.O_WRONG, t.wrongly_accused)
        if t.discards:
            put(layout.O_DISC, np.sum(t.discards, axis=0))
            put(layout.O_START, [0 if d is None else sum(d) - sum(x) for d, x in zip(t.initial, t.discards)])
        if t.pile:
            put(layout.O_PPLAYER, [owner for owner, _, _, _ in t.pile])
            put(layout.O_PFALSE, [false for _, _, _, false in t.pile])
            pseat = np.zeros((n, values), dtype=np.int64)
            for owner, _, cards, _ in t.pile:
                for v in cards:
                    pseat[owner, v] += 1
            put(layout.O_PSEAT, pseat)
            put(layout.O_PCOUNTS, pseat.sum(axis=0))
            last = sorted(set(t.pile[-1][2]))
            put(layout.O_LASTV, last)
            put(layout.O_LASTC, [t.pile[-1][2].count(v) for v in last])
            S[layout.S_LASTN] = len(last)
        S[layout.S_PLEN] = len(t.pile)
        S[layout.S_PCARDS] = sum(len(c) for _, _, c, _ in t.pile)
        S[layout.S_CREDITED] = t.credited
        S[layout.S_RVALUE] = t.round_value
        S[layout.S_RSTARTER] = t.round_starter
        S[layout.S_PASSES] = t.passes
        S[layout.S_CURRENT] = t.current
        S[layout.S_GOING] = t.going_out
        S[layout.S_LASTOUT] = t.going_out
        S[layout.S_END] = layout.END_NAMES.index(t.end)
        S[layout.S_TURNS] = t.turns
        model = getattr(state, "_seat_knobs", None)
        if model is not None:
            model = np.ascontiguousarray(model, dtype=np.float64)
            if model.shape != self._seat_knobs.shape:
                raise ValueError(f"a world's seat knobs have shape {model.shape}, not {self._seat_knobs.shape}")
        return KernelState(self, S, [int(a) for a in state.history()], model, state)

    def action_rollouts(self, state: KernelState, actions: Sequence[int], worlds: int, per_world: int, seed: int,
                        viewer: int, belief: bool = True) -> np.ndarray:
        """Mean returns (``len(actions) x players``) of each of ``actions`` over the same ``worlds`` worlds of
        ``viewer``, each played out ``per_world`` times after the action by this kernel's seats: a search player's
        round of sequential halving in one compiled call
        (:func:`~trustme_analysis.games.liar.kernel.trained_rollouts.action_means`: the worlds ``resample_from_infostate``
        deals, weighed as ``bots.belief`` weighs them, with the other seats' model drawn per world; trained seats
        play the kernel's policy in the same worlds). ``state`` must come
        from :meth:`state_from` (its worlds read the engine's events)."""
        if state.origin is None or len(state.origin.history()) != len(state._history):
            raise ValueError("action_rollouts needs a state made by Kernel.state_from, of a pyspiel state that has not "
                             "moved on since (its worlds read the events)")
        from trustme_analysis.games.liar.kernel.trained_rollouts import action_means

        return action_means(self, state.origin, actions, worlds, per_world, seed, viewer, belief, state.array)
