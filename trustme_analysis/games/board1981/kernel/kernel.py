"""The compiled kernel of ``trustme_1981``: whole games in machine code, identical to the engine (the contract of
:mod:`trustme_analysis.engine.kernels`).

The engine (:mod:`~trustme_analysis.games.board1981.engine`) is the specification; the compiled modules of this
sub-package restate its rules as numba functions over one integer array per state (:mod:`.layout`; a turn in
:mod:`.basics`, :mod:`.moves` and :mod:`.investing`; the pyspiel API and the chance outcomes in :mod:`.step`; the
heuristic in :mod:`.heuristic`; whole games and rollouts in :mod:`.play`; a search player's worlds in :mod:`.worlds`).
The lock-step harness (:mod:`trustme_analysis.engine.lockstep`; ``tests/games/test_board1981_kernel.py`` and
``benchmarks/kernels_board1981.py --verify N``) replays the kernel's games through the engine step by step: current
player, legal actions, chance outcomes with their probabilities, returns and every record field must be identical.
Action ids, player ids and chance outcome ids are the engine's.

Use:

- :func:`limits` says whether a loaded game fits the kernel's arrays (the registry's kernel entry names it with the
  parameters the kernel plays and its seat kinds; :meth:`trustme_analysis.registry.GameEntry.kernel_reason` asks).
- :class:`Kernel` compiles the loaded game's rules (board graph, decks, parameters, action layout: :func:`rules_array`).
  ``play(seeds)`` plays one game per seed in compiled code (seats by the kernel's seat kinds: uniform random, or the
  heuristic of :mod:`~trustme_analysis.games.board1981.players.heuristic`) and returns
  :class:`~trustme_analysis.games.board1981.kernel.records.KernelGames` (``rows()`` gives exactly the rows of
  ``records.records``, ``columns()`` the same as columns). With ``trained=(keys, avg, detail)`` (a stored trained
  policy's lookup table, :mod:`trustme_analysis.train`) seats of kind ``"trained"`` play it (:mod:`.trained`), in
  rollouts too (:mod:`.trained_rollouts`: a search player over the trained policy).
  ``new_state()`` gives a :class:`KernelState` with the pyspiel state API, ``state_from(state)`` one with the
  position of any engine state (a search player's world), and ``rollouts(state, n, seed)`` the mean returns of
  playouts from it.
- ``action_rollouts(state, actions, worlds, per_world, seed, viewer, belief)`` is a search player's round of sequential
  halving in one compiled call: worlds dealt from what ``viewer`` has seen (the engine's ``resample_from_infostate``
  deal, weighted by ``bots.belief`` when ``belief``), every candidate action played out from each.

The compiled heuristic restates the Python policy; ``heuristic_policy`` gives its distribution at a position and the
tests check it against the Python bot's ``action_probabilities`` on random positions (same support, equal
probabilities).

Compilation: ``@njit(cache=True)``: the first run compiles (tens of seconds) and stores machine code in
``__pycache__``; later processes load it (each cache tied to the sources it compiles in: :func:`.layout.tie_module`).

Example:
    >>> import numpy as np, pyspiel, trustme_analysis
    >>> game = pyspiel.load_game("trustme_1981(players=2,max_turns=5)")
    >>> kernel = Kernel(game)
    >>> len(kernel.play(np.arange(3, dtype=np.uint64)).rows())
    3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.board1981.engine.board import COMPANY, HOT_TIP, PROPERTY, WHITE, WILD_GOOSE_CHASE
from trustme_analysis.games.board1981.engine.rules import DIE_FACES, MAX_ROLL_OFF_TIES, SHORT_NAME
from trustme_analysis.games.board1981.engine.state import PHASE_NAMES
from trustme_analysis.games.board1981.kernel import heuristic as compiled_heuristic
from trustme_analysis.games.board1981.kernel import layout as L
from trustme_analysis.games.board1981.kernel import play, step
from trustme_analysis.games.board1981.kernel import trained_rollouts
from trustme_analysis.games.board1981.kernel import worlds as search_worlds
from trustme_analysis.games.board1981.kernel.records import KernelGames
from trustme_analysis.games.board1981.kernel.trained import SEAT_TRAINED, play_games
from trustme_analysis.games.board1981.players.heuristic import HeuristicKnobs, distances_to
from trustme_analysis.train.tables import empty_policy

#: Seat kinds the compiled loop and its rollouts play: uniform random, and the heuristic
#: (:mod:`~trustme_analysis.games.board1981.players.heuristic`, its knobs given to :class:`Kernel`).
SEAT_KINDS = {"random": play.SEAT_RANDOM, "heuristic": play.SEAT_HEURISTIC}
#: The trained seat (issue 28), played only by a kernel given a trained policy (``Kernel(..., trained=...)``), in whole
#: games (:mod:`.trained`) and in rollouts (:mod:`.trained_rollouts`).
TRAINED_SEAT = "trained"
#: The policy the whole-game loop reads when no seat is trained (no row: every lookup misses).
_EMPTY_POLICY = empty_policy()

_KIND_CODES = {
    PROPERTY: L.K_PROPERTY, WHITE: L.K_WHITE, HOT_TIP: L.K_HOT_TIP, WILD_GOOSE_CHASE: L.K_WILD_GOOSE_CHASE,
    COMPANY: L.K_COMPANY,
}
_TIE_CODES = {"reroll": L.TIE_REROLL, "defender": L.TIE_DEFENDER, "challenger": L.TIE_CHALLENGER}
_UTILITY_CODES = {"win_loss": L.U_WIN_LOSS, "wealth": L.U_WEALTH, "wealth_diff": L.U_WEALTH_DIFF}
_END_CODES = {"": L.END_NONE, "two_cases_left": L.END_TWO_CASES_LEFT, "turn_cap": L.END_TURN_CAP}
_CHANCE_PHASES = frozenset(
    {L.DEAL, L.FIRST, L.ROLL, L.CARD, L.BAMBOOZLE_ROLL, L.ROLL_OFF_CHALLENGER, L.ROLL_OFF_DEFENDER}
)
_NO_DECISION_PHASES = _CHANCE_PHASES | {L.OVER}


def limits(game: pyspiel.Game) -> str | None:
    """``None`` when ``game`` fits the kernel's arrays (briefcases, players, the investing actions' layout, 64-bit
    money), else the reason in one line (the registry's kernel entry: beyond the parameters it plays)."""
    short = game.get_type().short_name
    if short != SHORT_NAME:
        return f"the {SHORT_NAME} kernel does not play {short}"
    rules = game.rules
    if rules.num_properties > L.MAX_PROPS:
        return f"the board has {rules.num_properties} briefcases; the kernel holds at most {L.MAX_PROPS}"
    if rules.players > L.MAX_PLAYERS:
        return f"{rules.players} players; the kernel holds at most {L.MAX_PLAYERS}"
    investing = rules.investing
    expected = 2 * len(investing.lots) + 2 + int(investing.buy_max)
    if investing.num_actions != expected or game.num_distinct_actions() != game.actions.first_invest + expected:
        return "the engine's investing actions differ from hold / buy a lot / buy max / divest a lot / divest all"
    # Each reveal at most triples the wealth of all players together; everything must fit in int64.
    w_max = rules.players * rules.start_wealth * 3**rules.num_properties
    if w_max >= 2**62:
        return "money and shares could outgrow 64-bit integers on this board"
    return None


def rules_array(game: pyspiel.Game) -> np.ndarray:
    """The fixed data of a loaded ``trustme_1981`` game as the rules array
    (:func:`~trustme_analysis.games.board1981.kernel.layout.pack_rules`)."""
    rules, codec = game.rules, game.actions
    b = rules.board
    faces = DIE_FACES
    # Move options per (space, roll, has a claim): board.destinations() is the engine's movement, and a claimant may
    # also stop on the Company when a walk passes it (TrustMe1981State._move_options).
    move_start = np.zeros(b.num_spaces * (faces + 1) * 2, np.int64)
    move_count = np.zeros_like(move_start)
    move_list: list[int] = []
    for s in range(b.num_spaces):
        for face in range(2, faces + 1):
            exact, company_within = b.destinations(s, face)
            for has_claim in (0, 1):
                options = exact
                if has_claim and company_within and b.company not in exact:
                    options = tuple(sorted(exact + (b.company,)))
                i = (s * (faces + 1) + face) * 2 + has_claim
                move_start[i] = len(move_list)
                move_count[i] = len(options)
                move_list.extend(options)
    escapes = np.zeros(faces + 1, np.int64)
    for face in rules.bamboozled:
        escapes[face] = True
    area_mask = np.zeros(len(b.streets), np.int64)
    for q, street in enumerate(b.property_street):
        area_mask[street] |= 1 << q
    scalars = {
        "R_N": rules.players,
        "R_NUM_PROPS": rules.num_properties,
        "R_COMPANY": b.company,
        "R_NUM_WGC": len(b.wild_goose_chase),
        "R_DIE_FACES": faces,
        "R_MAX_ROLL_OFF_TIES": MAX_ROLL_OFF_TIES,
        "R_NUM_LOTS": len(rules.lots),
        "R_BUY_MAX": int(rules.buy_max),
        "R_A_LOOK": codec.look,
        "R_A_CLAIM_UNSEEN": codec.claim_unseen,
        "R_A_DECLINE": codec.decline,
        "R_A_ROLL": codec.roll,
        "R_A_CLAIM_LOOKED": codec.claim_looked,
        "R_A_INVEST_NOW": codec.invest_now,
        "R_A_FIRST_CASE": codec.first_case,
        "R_A_FIRST_SEND": codec.first_send,
        "R_A_FIRST_CHALLENGE": codec.first_challenge,
        "R_A_FIRST_INVEST": codec.first_invest,
        "R_NUM_ACTIONS": game.num_distinct_actions(),
        "R_START_MONEY": rules.money,
        "R_START_SHARES": rules.shares,
        "R_PEEK": int(rules.peek),
        "R_ROLL_OFF_TIE": _TIE_CODES[rules.roll_off_tie],
        "R_UTILITY": _UTILITY_CODES[rules.utility],
        "R_MAX_TURNS": rules.max_turns,
        "R_MAX_GAME_LENGTH": game.max_game_length(),
    }
    tables = {
        "R_PAYOFF_MIX": rules.payoff_mix,
        "R_TRUST_DECK": rules.trust_deck,
        "R_ESCAPES": escapes,
        "R_LOTS": rules.lots,
        "R_KIND": [_KIND_CODES[k] for k in b.kinds],
        "R_SPACE_PROPERTY": b.space_property,
        "R_HOT_TIP_AREA": b.hot_tip_area,
        "R_AREA_MASK": area_mask,
        "R_PROPERTY_FIRST_SPACE": [sp[0] for sp in b.property_spaces],
        "R_WILD_GOOSE_CHASE": b.wild_goose_chase,
        "R_MOVE_START": move_start,
        "R_MOVE_COUNT": move_count,
        "R_MOVE_LIST": move_list,
        "R_DIST_COMPANY": distances_to(b, b.company),
    }
    return L.pack_rules(scalars, tables)


def _seat_codes(kinds: Sequence[str], n: int, trained: bool = False) -> np.ndarray:
    if len(kinds) not in (1, n):
        raise ValueError(f"seat_kinds: give one kind for all seats or one per seat ({n}), not {len(kinds)}")
    allowed = {**SEAT_KINDS, **({TRAINED_SEAT: SEAT_TRAINED} if trained else {})}
    unknown = sorted(set(kinds) - set(allowed))
    if unknown:
        raise ValueError(f"the kernel plays only {', '.join(sorted(SEAT_KINDS))} seats (and trained seats given a "
                         f"trained policy), not {', '.join(unknown)}")
    codes = [allowed[k] for k in kinds]
    return np.asarray(codes * n if len(codes) == 1 else codes, np.int64)


class Kernel:
    """The compiled rules of one loaded ``trustme_1981`` game (:class:`trustme_analysis.engine.kernels.Kernel`).

    Args:
        game: a loaded ``trustme_1981`` game within the kernel's :func:`limits`.
        seat_kinds: one kind for every seat or one per seat (:data:`SEAT_KINDS`: ``"random"``, ``"heuristic"``).
        knobs: the heuristic seats' knobs (:class:`~trustme_analysis.games.board1981.players.heuristic.HeuristicKnobs`
            fields; the defaults when omitted).
        trained: a stored trained policy's lookup table and abstraction level ``(keys, avg, detail)``
            (:meth:`trustme_analysis.train.TrainedPolicy.lookup`): seats of kind ``"trained"`` play it in
            :meth:`play` (:mod:`.trained`) and in :meth:`rollouts` / :meth:`action_rollouts`
            (:mod:`.trained_rollouts`).

    Raises:
        ValueError: the game is beyond the kernel's limits (the message says why), or a seat kind or a knob is not
            allowed.
    """

    def __init__(self, game: pyspiel.Game, seat_kinds: Sequence[str] = ("random",), knobs: dict | None = None,
                 trained: tuple[np.ndarray, np.ndarray, int] | None = None):
        reason = limits(game)
        if reason is not None:
            raise ValueError(f"{game}: {reason}")
        self.game = game
        self.num_players = game.rules.players
        self.rules = rules_array(game)
        self.seat_kinds = _seat_codes(seat_kinds, self.num_players, trained is not None)
        # ---- trained seats (issue 28): the policy's lookup table and abstraction level
        self._trained = trained
        settings = HeuristicKnobs(**(knobs or {}))
        self.knobs = np.asarray([float(getattr(settings, name)) for name in L.KNOBS], np.float64)

    def new_state(self) -> KernelState:
        """The start of a game, nothing dealt yet (the engine's ``new_initial_state()``)."""
        return KernelState(self)

    def opening(self, seed: int) -> KernelState:
        """The start of a game with its opening chance nodes (the deal and the roll for who goes first) drawn from
        ``seed`` exactly as :meth:`play` draws them for that seed, up to the first decision."""
        state = KernelState(self)
        rng = np.asarray([seed], np.uint64)
        actions = np.empty(self.rules[L.R_NUM_ACTIONS] + 1, np.int64)
        weights = np.empty_like(actions)
        while state.is_chance_node():
            state.apply_action(int(step.sample_chance(state.st, self.rules, rng, actions, weights)))
        return state

    def play(self, seeds: np.ndarray, histories: bool = False) -> KernelGames:
        """Play one game per seed (the kernel's seat kinds: uniform-random players by default; chance by its
        probabilities) in compiled code.

        Args:
            seeds: ``uint64`` seeds; game ``i`` depends on ``seeds[i]`` alone.
            histories: also keep every game's action sequence (chance outcomes included).

        Returns:
            every seat's records; ``rows()`` gives exactly ``records.records(game, state)`` per game.
        """
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        # One whole-game loop for every line-up (kernel.trained.play_games): an empty policy table without a trained
        # seat.
        tkeys, tavg, detail = self._trained if self._trained is not None else _EMPTY_POLICY
        finals, trace, trace_off, hist, hist_off = play_games(self.rules, seeds, self.seat_kinds, self.knobs,
                                                              histories, tkeys, tavg, int(detail))
        return KernelGames(
            self.game, seeds, finals, trace, trace_off, hist if histories else None, hist_off if histories else None
        )

    def rollouts(self, state: KernelState, n: int, seed: int) -> np.ndarray:
        """Mean returns of ``n`` playouts from ``state`` by the kernel's seat kinds; playout ``i`` depends on ``seed``
        and ``i`` (trained seats, in a kernel handed a policy, play it: :func:`.trained_rollouts.rollouts_trained`)."""
        # One rollout loop for every line-up (kernel.trained_rollouts; an empty policy table without a trained seat).
        out = np.zeros(self.num_players, np.float64)
        trained_rollouts.rollouts_trained(
            self.rules, state.st, int(n), np.uint64(seed), self.seat_kinds, self.knobs, out,
            np.empty(L.STATE_SIZE, np.int64), np.zeros(1, np.uint64), np.zeros(1, np.uint64), *self._play_scratch(),
            *self._trained_scratch(), np.zeros(self.num_players, np.float64))
        return out

    def state_from(self, state: pyspiel.State) -> KernelState:
        """A kernel state with the position of the engine's ``state`` (any ``trustme_1981`` state of this game,
        e.g. a search player's resampled world), from which play goes on exactly as in the engine.

        Only the position is copied: the kernel's record counters start at zero, so :meth:`KernelState.rows` of
        a game continued from here counts what happened after it.
        """
        st = np.zeros(L.STATE_SIZE, np.int64)
        step.init_state(st, self.rules)
        n, props = self.num_players, self.game.rules.num_properties
        # The engine state's fields (TrustMe1981State.__init__ names them), slot by slot.
        st[L.PHASE] = state._phase
        st[L.DECIDER] = state._decider
        st[L.TURN_PLAYER] = state._turn_player
        st[L.FIRST_PLAYER] = state._first_player
        st[L.DEALT] = len(state._cards)
        st[L.ROLL_FACE] = state._roll
        st[L.CLAIMANT] = state._claimant
        st[L.INVEST_IDX] = state._invest_index
        st[L.RESERVE] = state._reserve
        st[L.PEEK_IDX] = state._peek_index
        st[L.TURNS] = state._turns
        st[L.BANK_IN], st[L.BANK_OUT], st[L.SHARES_LOST] = state._bank_in, state._bank_out, state._shares_lost
        st[L.END] = _END_CODES[state._end]
        st[L.NUM_SENDS] = len(state._sends)
        for i, (sender, target, reason) in enumerate(state._sends):
            st[L.SENDS + 3 * i : L.SENDS + 3 * i + 3] = (sender, target, reason)
        st[L.CH_CHALLENGER : L.CH_TIES + 1] = state._challenge
        if state._claimant >= 0:
            st[L.REC_CLAIMED] = state._claims[state._claimant]
            _, _, decisions = state.investing_decisions()
            investing = self.game.rules.investing
            for i, (_, local, _) in enumerate(decisions):
                verb = investing.decode(local)[0]
                st[L.ROUND_SIGNALS + i] = (L.SIGNAL_HOLD if verb == "hold" else L.SIGNAL_BUY
                                           if verb in ("buy", "buy_max") else L.SIGNAL_DIVEST)
        for p in range(n):
            st[L.POS + p] = state._positions[p]
            st[L.MONEY + p] = state._money[p]
            st[L.SHARES + p] = state._shares[p]
            st[L.CLAIM + p] = state._claims[p]
            st[L.LOOKED + p] = state._looked[p]
            st[L.MAY_CLAIM + p] = state._may_claim[p]
            st[L.CLAIM_KNEW + p] = int(state._claim_knew[p])
        st[L.REVEALED : L.REVEALED + L.NUM_PAYOFF_KINDS] = state._revealed
        st[L.CARDS : L.CARDS + len(state._cards)] = state._cards
        st[L.REMOVED : L.REMOVED + props] = state._removed
        st[L.DECK : L.DECK + props + 2] = state._trust_pile
        return KernelState(self, st)

    def action_rollouts(self, state: KernelState, actions: Sequence[int], worlds: int, per_world: int, seed: int,
                        viewer: int, belief: bool = True) -> np.ndarray:
        """Mean returns (``len(actions) x players``) of each of ``actions`` over the same ``worlds`` worlds, each
        played out ``per_world`` times after the action by this kernel's seats, all in one compiled call (a search
        player's round of sequential halving, :func:`.trained_rollouts.action_rollouts_trained`).

        A world is ``state`` with the Payoff cards ``viewer`` has not seen dealt anew, as
        ``resample_from_infostate`` deals them; with ``belief``, drawn in proportion to ``bots.belief`` (this kernel's
        heuristic knobs as the model of an informed player) by exact rejection sampling. Trained seats, in a kernel
        handed a policy, play it.
        """
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        out = np.zeros((len(acts), self.num_players), np.float64)
        future = float(search_worlds.viewer_future(state.st, self.rules, int(viewer)))
        trained_rollouts.action_rollouts_trained(
            self.rules, state.st, acts, int(worlds), int(per_world), np.uint64(seed), int(viewer), bool(belief),
            future, self.seat_kinds, self.knobs, out, np.empty(L.STATE_SIZE, np.int64),
            np.empty(L.STATE_SIZE, np.int64), np.zeros(1, np.uint64), *self._play_scratch(),
            np.zeros(2 * L.NUM_PAYOFF_KINDS, np.int64), np.zeros(self.num_players, np.float64),
            *self._trained_scratch())
        return out / max(int(worlds) * int(per_world), 1)

    def _play_scratch(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A play-out's move scratch, sized as :func:`.trained.play_games` sizes it: legal
        actions, chance weights, and the heuristic's probabilities followed by its scratch."""
        size = int(self.rules[L.R_NUM_ACTIONS]) + 1
        return np.empty(size, np.int64), np.empty(size, np.int64), np.empty(2 * size, np.float64)

    def _trained_scratch(self) -> tuple[Any, ...]:
        """The trained seats' policy (lookup keys, average strategy, abstraction level) and their scratch (the row's
        keys, each legal move's entry, and float scratch three times a row's size), as
        :func:`.trained.trained_action` takes them (sized as :func:`.trained.play_games` sizes them)."""
        tkeys, tavg, detail = self._trained if self._trained is not None else _EMPTY_POLICY
        size = int(self.rules[L.R_NUM_ACTIONS]) + 1
        return (tkeys, tavg, int(detail), np.empty(size, np.int64), np.empty(size, np.int64),
                np.empty(3 * size, np.float64))

    def sample_worlds(self, state: KernelState, viewer: int, worlds: int, seed: int,
                      belief: bool = False) -> list[KernelState]:
        """``worlds`` worlds for ``viewer`` as :meth:`action_rollouts` deals them (for tests: the deal's
        distribution is the engine's ``resample_from_infostate``, weighted by ``bots.belief`` with ``belief``)."""
        rows = search_worlds.sample_worlds(self.rules, state.st, int(viewer), bool(belief), self.knobs, int(worlds),
                                           np.uint64(seed))
        return [KernelState(self, row.copy()) for row in rows]

    def heuristic_policy(self, state: KernelState) -> dict[int, float]:
        """The compiled heuristic's probability of each legal action of the player to act in ``state`` (the
        kernel's knobs); equal to the Python heuristic's ``action_probabilities``."""
        legal = np.asarray(state.legal_actions(), np.int64)
        probs = np.zeros(len(legal), np.float64)
        scratch = np.zeros(max(len(legal), compiled_heuristic.SCRATCH_MIN), np.float64)
        compiled_heuristic.heuristic_probs(state.st, self.rules, self.knobs, legal, len(legal), probs, scratch)
        return {int(a): float(p) for a, p in zip(legal, probs)}


class KernelState:
    """A kernel state with the pyspiel ``State`` API (ids as the engine's); for lock-step tests and search.

    The score trace is kept here (in Python) so that :meth:`rows` gives the same rows as the engine's records.
    """

    def __init__(self, kernel: Kernel, st: np.ndarray | None = None):
        self.kernel = kernel
        self._r = kernel.rules
        if st is None:
            st = np.empty(L.STATE_SIZE, np.int64)
            step.init_state(st, self._r)
        self.st = st
        self._history: list[int] = []
        self._trace: list[list[int]] = []
        self._buf = np.empty(self._r[L.R_NUM_ACTIONS] + 1, np.int64)
        self._weights = np.empty_like(self._buf)

    def current_player(self) -> int:
        """The player to act, ``-1`` at chance nodes, ``-4`` at the end (pyspiel's ids)."""
        phase = int(self.st[L.PHASE])
        if phase == L.OVER:
            return L.TERMINAL_PLAYER
        return L.CHANCE_PLAYER if phase in _CHANCE_PHASES else int(self.st[L.DECIDER])

    def is_terminal(self) -> bool:
        return int(self.st[L.PHASE]) == L.OVER

    def is_chance_node(self) -> bool:
        return int(self.st[L.PHASE]) in _CHANCE_PHASES

    def legal_actions(self) -> list[int]:
        """The current player's legal actions, ascending ([] at chance nodes and at the end)."""
        if int(self.st[L.PHASE]) in _NO_DECISION_PHASES:
            return []
        k = step.legal_actions(self.st, self._r, self._buf)
        return self._buf[:k].tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` at a chance node, as the engine lists them."""
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        k, total = step.chance_outcomes(self.st, self._r, self._buf, self._weights)
        return [(a, w / total) for a, w in zip(self._buf[:k].tolist(), self._weights[:k].tolist())]

    def apply_action(self, action: int) -> None:
        """Apply a legal action or chance outcome (anything else raises ``ValueError``)."""
        if self.is_chance_node():
            allowed = [a for a, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if action not in allowed:
            raise ValueError(f"action {action} is not legal here (legal: {allowed})")
        before = int(self.st[L.TURNS])
        step.apply_action(self.st, self._r, int(action))
        self._history.append(int(action))
        after = int(self.st[L.TURNS])
        # The score trace: wealth at each turn start after the first, and at the end (as records.py builds it).
        if after != before and before >= 1:
            self._trace.append(self.wealth())
        if self.is_terminal() and after >= 1:
            self._trace.append(self.wealth())

    def returns(self) -> list[float]:
        """Each player's return (zeros before the end), by the game's utility."""
        out = np.zeros(int(self._r[L.R_N]), np.float64)
        step.returns(self.st, self._r, out)
        return out.tolist()

    def clone(self) -> KernelState:
        other = KernelState(self.kernel, self.st.copy())
        other._history = list(self._history)
        other._trace = [list(t) for t in self._trace]
        return other

    def history(self) -> list[int]:
        """Every action and chance outcome applied so far."""
        return list(self._history)

    def phase_name(self) -> str:
        """The engine's name of the current phase."""
        return PHASE_NAMES[int(self.st[L.PHASE])]

    def wealth(self) -> list[int]:
        """Money plus shares, per player."""
        n = int(self._r[L.R_N])
        return (self.st[L.MONEY : L.MONEY + n] + self.st[L.SHARES : L.SHARES + n]).tolist()

    def money(self) -> list[int]:
        return self.st[L.MONEY : L.MONEY + int(self._r[L.R_N])].tolist()

    def shares(self) -> list[int]:
        return self.st[L.SHARES : L.SHARES + int(self._r[L.R_N])].tolist()

    def claims(self) -> list[int]:
        return self.st[L.CLAIM : L.CLAIM + int(self._r[L.R_N])].tolist()

    def positions(self) -> list[int]:
        return self.st[L.POS : L.POS + int(self._r[L.R_N])].tolist()

    def rows(self) -> list[dict[str, Any]]:
        """The finished game's rows, exactly as ``records.records`` gives them for the engine's state (a game this
        state followed from its start)."""
        if not self.is_terminal():
            raise ValueError("records need a finished game")
        flat = np.asarray([w for t in self._trace for w in t], np.int64)
        played = KernelGames(self.kernel.game, np.zeros(1, np.uint64), self.st[None, :].copy(), flat,
                             np.asarray([0, len(flat)], np.int64))
        return played.game_rows(0)
