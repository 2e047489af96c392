"""Trust Me (1981)'s Monte Carlo CFR traversal over the compiled kernel: the game's part of
:mod:`trustme_analysis.train`.

One iteration plays one game in the kernel (:mod:`.step`) and updates the tables of
:mod:`trustme_analysis.train.tables`, keyed by the abstraction of :mod:`.abstraction`. The method is Pinocchio's
(``docs/guide/trained.rst``): outcome-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling, NeurIPS 2009) with
alternating traversers,

- chance by its own probabilities (the kernel's draws), so chance probabilities cancel out of every estimate;
- the traverser ``t mod players`` samples ``eps * uniform + (1 - eps) * current strategy``; the other seats play
  their current strategy and their average strategy takes the visit (weight 1, or the unbiased reach weight);
- at the end each traverser decision ``k`` with sampled action ``a`` gets ``W_k * ([b == a] - sigma_k(a))`` for
  every action ``b``: ``W_k = u * T_k / Q`` (``weighting = "importance"``: the unbiased estimate) or ``u * prod_{j >
  k} sigma_j / q_j / q_k`` (``"on_policy"``, the default: bounded weights on a deep game);
- DCFR discounting once per epoch.

Two of Pinocchio's optional settings are played (:attr:`Board1981Trainer.offers`; the recipe that made Pinocchio's and
Liar's trained players competent, ``docs/guide/trained.rst``):

- ``prior``: a row entry new to the table starts with the default heuristic's probability of the moves it describes
  (:func:`~.abstraction.row_of`) as regret and as average mass, ``prior`` visits' worth, so a row starts as the
  heuristic plays it and leaves it only as far as its sampled regrets say;
- ``opponents = "average"``: the other seats play their average strategy, which then averages the traverser's
  current strategies (fictitious play with regret matching as the best-response learner).

A baseline, shaping and personas are not played (refused).

Two games train here. ``trustme_1981`` (the whole board game, :data:`TRAINER`) from its start, and
``trustme_1981_investment`` (the investing round alone, the solved presets' game, :data:`INVESTMENT_TRAINER`) through
the *same* kernel and abstraction: its position is embedded in a ``trustme_1981`` state of the same players, money,
shares, lots, buy max, Payoff mix and utility (:func:`embed_round`: one briefcase left on the board, claimed by the
claimant, its card dealt by the mix, each player's look under it by its ``seen`` chance), so the board kernel plays
the round and its reveal ends the game with the round's returns. That is what makes the exact evaluation on the
solved trees a proof about the abstraction and traversal the full game trains with.

Iteration ``t`` draws from a generator seeded by ``(seed, t)`` alone: a resumed training equals an uninterrupted one.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pyspiel
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import source_digest
from trustme_analysis.engine.compiled_draws import below
from trustme_analysis.games.board1981.kernel import abstraction as A
from trustme_analysis.games.board1981.kernel.abstraction import row_of
from trustme_analysis.games.board1981.kernel.heuristic import SCRATCH_MIN
from trustme_analysis.games.board1981.kernel import layout as L
from trustme_analysis.games.board1981.kernel.investing import start_investing
from trustme_analysis.games.board1981.kernel.layout import (
    CARDS, CLAIM, CLAIM_KNEW, DEALT, DECIDER, FIRST_PLAYER, LOOKED, OVER, PHASE, POS, R_A_FIRST_INVEST, R_COMPANY, R_N,
    R_NUM_ACTIONS, R_NUM_PROPS, R_PAYOFF_MIX, REMOVED, STATE_SIZE, TURN_PLAYER, TURNS, NUM_PAYOFF_KINDS, tie_module,
)
from trustme_analysis.games.board1981.kernel.step import apply_action, init_state, is_chance, legal_actions, returns, \
    sample_chance
from trustme_analysis.train import tables as T
from trustme_analysis.train import traversal as TV
from trustme_analysis.train.tables import concrete, known_row
from trustme_analysis.train.traversal import CHANCE, CONFIG_SIZE, TERMINAL
from trustme_analysis.train.traversal import run_iterations as one_traversal

compiled = njit(cache=True)
inlined = njit(cache=True, inline="always")

#: 1981's constant in each iteration's seed.
SALT = 0x1981F00D5EED0001
#: Traverser decisions one game may hold in the buffers, and their legal actions.
NODES = 1 << 13
NODE_BUFFER = 1 << 17
#: Slots one iteration may add at most (a game's decisions, all legal actions; the longest games of the 400-turn cap
#: make about 2,000 decisions of at most 13 moves): the room kept free.
SLOTS_PER_ITERATION = 1 << 15

#: What a traversal starts from (``start[0]``): the board game's start, or an investing round embedded in it.
MODE_GAME, MODE_ROUND = 0, 1
#: ``start``: mode, claimant, then each player's percent chance of having looked under the claimed briefcase.
S_MODE, S_CLAIMANT, S_SEEN = 0, 1, 2


@inlined
def embed_round(st, r, claimant, card, seen_mask):
    """The investing round of ``trustme_1981_investment`` as a ``trustme_1981`` kernel state: briefcase 0, holding
    ``card``, is the one left on the board and the claimant's claim; player ``p`` looked under it when bit ``p`` of
    ``seen_mask`` is set (public, as at the table); the round starts at the claimant's left. The reveal leaves no
    briefcase, so the game ends there with wealth as the round's (the utility is the same parameter)."""
    init_state(st, r)
    for q in range(r[R_NUM_PROPS]):
        st[CARDS + q] = 0
        st[REMOVED + q] = 1
    st[CARDS] = card
    st[REMOVED] = 0
    st[DEALT] = r[R_NUM_PROPS]
    st[FIRST_PLAYER] = claimant
    st[TURN_PLAYER] = claimant
    st[TURNS] = 1
    for p in range(r[R_N]):
        if (seen_mask >> p) & 1:
            st[LOOKED + p] = 1
    st[CLAIM + claimant] = 0
    st[CLAIM_KNEW + claimant] = seen_mask >> claimant & 1
    st[POS + claimant] = r[R_COMPANY]
    start_investing(st, r, claimant)


@compiled
def embed_round_compiled(st, r, claimant, card, seen_mask):
    """:func:`embed_round` as a compiled function (the bot, the exact evaluation, tests)."""
    embed_round(st, r, claimant, card, seen_mask)


@inlined
def start_state(st, r, start, rng):
    """The start of one iteration: the board game's (chance deals in the loop), or an embedded investing round with
    the card and the looks drawn by their probabilities (the mix; each ``seen`` percent)."""
    if start[S_MODE] == MODE_GAME:
        init_state(st, r)
        return
    total = 0
    for kind in range(NUM_PAYOFF_KINDS):
        total += r[r[R_PAYOFF_MIX] + kind]
    x = below(rng, total)
    card = 0
    while x >= r[r[R_PAYOFF_MIX] + card]:
        x -= r[r[R_PAYOFF_MIX] + card]
        card += 1
    mask = 0
    for p in range(r[R_N]):
        pct = start[S_SEEN + p]
        if pct >= 100 or (pct > 0 and below(rng, 100) < pct):
            mask |= 1 << p
    embed_round(st, r, start[S_CLAIMANT], card, mask)


# ---- the protocol (trustme_analysis.train.traversal); G = (r, start, chance actions, chance weights, hprobs,
# hscratch)


@inlined
def _start(G, st, rng):
    start_state(st, G[0], G[1], rng)


@inlined
def _to_move(G, st):
    if st[PHASE] == OVER:
        return TERMINAL
    if is_chance(st):
        return CHANCE
    return st[DECIDER]


@inlined
def _chance(G, st, rng):
    apply_action(st, G[0], sample_chance(st, G[0], rng, G[2], G[3]))


@inlined
def _legal(G, st, acts):
    return legal_actions(st, G[0], acts)


@inlined
def _row(G, st, p, acts, na, row, which, detail, hrow):
    return row_of(st, G[0], p, acts, na, row, which, detail, hrow, G[4], G[5])


@inlined
def _play(G, st, p, acts, na, which, u, detail, rng):
    return acts[concrete(which, na, u, rng)]


@inlined
def _apply(G, st, a):
    apply_action(st, G[0], a)


@inlined
def _returns(G, st, out):
    returns(st, G[0], out)


@inlined
def _no_margin(G, st, i):
    """Shaping is not played (:attr:`Board1981Trainer.offers`): never called."""
    return 0.0


@inlined
def _no_persona(G, st, p, kind, rng):
    """Personas are not played (:attr:`Board1981Trainer.offers`): never called."""
    return 0


@borrowing()  # (no reference counts: they took over half the training's CPU time, cfr.numba_borrowing)
def run_iterations(G, tables, t0, t1, seed, cfg, limit, st, nodes, scratch):
    """Iterations ``t0 .. t1 - 1`` of the one traversal over 1981's kernel
    (:func:`trustme_analysis.train.traversal.run_iterations`, which names the arguments)."""
    consts = (G[0][R_N], SALT, 0, 1.0)
    return one_traversal(_start, _to_move, _chance, _legal, _row, _play, _apply, _returns, _no_margin, _no_persona,
                         G, st, consts, tables, t0, t1, seed, cfg, limit, nodes, scratch)


@compiled
def policy_at(st, r, keys, avg, acts, n, out, row, which, probs, detail):
    """The trained policy of the seat to act in ``st`` over its legal moves ``acts[:n]`` into ``out`` (a row's
    probability shared evenly by the moves it describes); returns whether the table knew the position (else the
    row is played as the default heuristic plays it, :func:`~trustme_analysis.train.tables.known_row`)."""
    m = row_of(st, r, st[DECIDER], acts, n, row, which, detail, probs, np.empty(n), np.empty(max(n, SCRATCH_MIN)))
    known = known_row(keys, avg, row, m, probs)
    for j in range(n):
        c = 0
        for k in range(n):
            if which[k] == which[j]:
                c += 1
        out[j] = probs[which[j]] / c
    return known


tie_module(__name__)
#: Every source the compiled functions above contain (the kernel's modules, the abstraction, the tables, this file).
SOURCES = L._REACHES[__name__]


def _scratch(r: np.ndarray) -> dict[str, np.ndarray]:
    size = int(r[R_NUM_ACTIONS]) + 1
    return {"acts": np.zeros(size, np.int64), "out": np.zeros(size), "row": np.zeros(size, np.int64),
            "which": np.zeros(size, np.int64), "probs": np.zeros(size), "st": np.zeros(STATE_SIZE, np.int64)}


def board_game_of(game: pyspiel.Game) -> pyspiel.Game:
    """The ``trustme_1981`` game whose kernel plays ``game``: itself, or for an investing round alone the board game
    of the same players, money, shares, lots, buy max, Payoff mix and utility (:func:`embed_round`)."""
    from trustme_analysis.games.board1981.engine.investment import SHORT_NAME as ROUND

    if game.get_type().short_name != ROUND:
        return game
    for name, values in (("money_each", game.start_money), ("shares_each", game.start_shares)):
        if len(set(values)) != 1:
            raise ValueError(f"{name}={'/'.join(map(str, values))} is not allowed for the trained player; allowed: "
                             "the same amount for every player (the board game's money and shares)")
    lots = "/".join(str(x) for x in game.investing.lots)
    mix = "/".join(str(x) for x in game.payoff_mix)
    text = (f"trustme_1981(players={game.n},money={game.start_money[0]},shares={game.start_shares[0]},lots={lots},"
            f"buy_max={game.investing.buy_max},payoff_mix={mix},utility={game.utility})")
    try:
        return pyspiel.load_game(text)
    except Exception as exc:  # the board game checks its own parameters
        raise ValueError(f"{game}: no board game embeds this investing round ({text}: {exc})") from exc


def _start_array(game: pyspiel.Game) -> np.ndarray:
    from trustme_analysis.games.board1981.engine.investment import SHORT_NAME as ROUND

    start = np.zeros(S_SEEN + L.MAX_PLAYERS, np.int64)
    if game.get_type().short_name == ROUND:
        start[S_MODE] = MODE_ROUND
        start[S_CLAIMANT] = game.claimant
        start[S_SEEN:S_SEEN + game.n] = game.seen_pct
    return start


class Board1981Trainer:
    """The training hooks :mod:`trustme_analysis.train` asks a game for (``trustme_analysis.train.GameTrainer``), and
    the trained bot's and the exact evaluation's (``trustme_analysis.players.trained``), for ``trustme_1981`` and, with
    ``mode = MODE_ROUND``, for ``trustme_1981_investment``."""

    #: The optional settings this traversal plays (``trustme_analysis.train.driver.OPTIONAL``); a spec asking for a
    #: baseline, shaping or personas is refused.
    offers = ("prior", "opponents")
    #: 1981's own defaults (measured on the full 2-player game, docs/games/board1981.rst): start every row from the
    #: heuristic's (``prior`` visits' worth), let the opponents play the average strategy (fictitious play), and
    #: discount negative regrets like positive ones (``beta``).
    defaults = {"prior": 200000.0, "opponents": "average", "beta": 1.5}
    #: The settings of the investing round alone (the solve presets' reduced variants): plain MCCFR (no prior,
    #: current-strategy opponents, DCFR's beta = 0; :meth:`variant_defaults`).
    ROUND_DEFAULTS = {"prior": 0.0, "opponents": "current", "beta": 0.0}
    #: The abstraction's levels, finest first (the benchmark's exact stage measures each).
    detail_levels = (1, 0)

    def variant_defaults(self, game: pyspiel.Game, detail: int) -> dict[str, Any]:
        """Defaults by rule variant, over :attr:`defaults` (:func:`trustme_analysis.train.game_settings`): the
        investing round alone (``trustme_1981_investment``, :data:`INVESTMENT_TRAINER`) trains as plain MCCFR
        (:attr:`ROUND_DEFAULTS`). Its trees are small enough that every row is visited often, and the heuristic's
        prior with fictitious-play opponents mostly holds the policy near the heuristic: on the solve presets'
        duel / three / duel_every_lot (1 million iterations, seed 0, the fine level) the full game's defaults left it
        1.35% / 0.12% / 2.50% of the utility range from equilibrium, plain MCCFR 0.16% / 1.38% / 0.94%: within the
        3% target either way, the worst figure lower with plain MCCFR. On the whole game the prior and the average
        opponents are what beat the heuristic and hold the probes (docs/games/board1981.rst)."""
        return dict(self.ROUND_DEFAULTS) if self.mode == MODE_ROUND else {}
    config_size = CONFIG_SIZE
    slots_per_iteration = SLOTS_PER_ITERATION

    def __init__(self, mode: int):
        self.mode = mode
        what = "1981" if mode == MODE_GAME else "1981-round"
        #: Names the abstraction and traversal; a stored policy of another version is stale.
        self.version = f"{what}-os-mccfr/abstraction-{A.VERSION}"

    def code_digest(self) -> str:
        """A digest of the sources the trained tables depend on (the kernel, the abstraction, this file, the
        tables): a policy trained by other code is stale."""
        return source_digest(*SOURCES, sys.modules[__name__])

    def _rules(self, game: pyspiel.Game) -> np.ndarray:
        from trustme_analysis.games.board1981.kernel.kernel import rules_array

        return rules_array(board_game_of(game))

    def prepare(self, game: pyspiel.Game) -> dict[str, Any]:
        """The kernel's rules array, the start and scratch buffers for ``game``."""
        from trustme_analysis.games.board1981.kernel.kernel import limits

        board = board_game_of(game)
        reason = limits(board)
        if reason is not None:
            raise TypeError(f"{board}: {reason}")
        if self.mode == MODE_GAME:
            from trustme_analysis.registry import game_entry

            # The kernel must play the variant's rules exactly (its declared parameters and limits).
            reason = game_entry(game.get_type().short_name).kernel_reason(game, use="game")
            if reason is not None:
                raise TypeError(reason)
        r = self._rules(game)
        n = int(r[R_N])
        size = int(r[R_NUM_ACTIONS]) + 1
        G = (r, _start_array(game), np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size),
             np.zeros(size))
        return {"r": r, "G": G, "st": np.zeros(STATE_SIZE, np.int64), "nodes": TV.node_buffers(NODES, NODE_BUFFER),
                "scratch": TV.scratch(size, n)}

    def run(self, ctx: dict[str, Any], tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int:
        """Iterations ``t0 .. t1 - 1`` into ``tables``; returns the next iteration (earlier when the tables need
        room)."""
        limit = int(T.MAX_LOAD * tables.capacity) - SLOTS_PER_ITERATION
        c = ctx
        return int(run_iterations(c["G"], TV.tables_of(tables), t0, t1, np.uint64(seed & (2**64 - 1)), cfg, limit,
                                  c["st"], c["nodes"], c["scratch"]))

    # ---- positions as kernel states

    def state_of(self, game: pyspiel.Game, r: np.ndarray, history: list[int]) -> np.ndarray:
        """The kernel state (``trustme_1981``'s) after ``history`` of ``game`` (its own action numbers)."""
        st = np.zeros(STATE_SIZE, np.int64)
        if self.mode == MODE_GAME:
            init_state(st, r)
            for a in history:
                apply_action(st, r, int(a))
            return st
        # An investing round: the card, the looks chance decided (seen_chance order), then the decisions.
        card = int(history[0])
        mask = sum(1 << p for p in range(game.n) if game.seen_pct[p] >= 100)
        k = len(game.seen_chance)
        for q, outcome in zip(game.seen_chance, history[1:1 + k]):
            mask |= int(outcome) << q
        embed_round_compiled(st, r, int(game.claimant), card, mask)
        for a in history[1 + k:]:
            apply_action(st, r, int(a) + int(r[R_A_FIRST_INVEST]))
        return st

    def _board_actions(self, r: np.ndarray, actions) -> np.ndarray:
        acts = np.asarray(actions, np.int64)
        return acts + int(r[R_A_FIRST_INVEST]) if self.mode == MODE_ROUND else acts

    # ---- playing a stored policy (the trained bot, exact evaluation on a compiled tree)

    def bot_context(self, game: pyspiel.Game) -> Any:
        """What :meth:`action_probabilities` needs for ``game``: its rules array, scratch, the last state met."""
        r = self._rules(game)
        return {"game": game, "r": r, **_scratch(r), "last": None}

    def _kernel_state(self, ctx: dict[str, Any], history: list[int]) -> np.ndarray:
        # A game's decisions come in order: extend the last state met when its history is a prefix.
        last = ctx["last"]
        if self.mode == MODE_GAME and last is not None and len(last[0]) <= len(history) \
                and history[:len(last[0])] == last[0]:
            st = last[1]
            for a in history[len(last[0]):]:
                apply_action(st, ctx["r"], int(a))
        else:
            st = self.state_of(ctx["game"], ctx["r"], history)
        ctx["last"] = (list(history), st)
        return st

    def action_probabilities(self, ctx: Any, table: tuple[np.ndarray, np.ndarray], state: pyspiel.State,
                             player: int, detail: int = 0) -> tuple[dict[int, float], bool]:
        """The stored policy at ``state`` for ``player`` (the seat to act): ``({action: probability}, known)``,
        the default heuristic's row where the table never saw the position (``known`` False)."""
        st = self._kernel_state(ctx, state.history())
        legal = state.legal_actions(player)
        acts, out = ctx["acts"], ctx["out"]
        acts[:len(legal)] = self._board_actions(ctx["r"], legal)
        known = policy_at(st, ctx["r"], table[0], table[1], acts, len(legal), out, ctx["row"], ctx["which"],
                          ctx["probs"], detail)
        return {int(a): float(out[j]) for j, a in enumerate(legal)}, bool(known)

    def tree_policy(self, cg: Any, table: tuple[np.ndarray, np.ndarray], states: list[np.ndarray] | None = None,
                    detail: int = 0) -> np.ndarray:
        """The stored policy as a slot array of the compiled tree ``cg`` (every seat plays it), for cfr's exact
        evaluators. ``states``: :meth:`tree_states` of ``cg``, when already computed."""
        states = self.tree_states(cg) if states is None else states
        r = self._rules(cg.game)
        out = cg.uniform_policy().copy()
        c = _scratch(r)
        acts, probs = c["acts"], c["out"]
        starts = cg.infoset_slot_start
        for i, st in enumerate(states):
            lo, hi = int(starts[i]), int(starts[i + 1])
            acts[:hi - lo] = self._board_actions(r, cg.slot_action[lo:hi])
            policy_at(st, r, table[0], table[1], acts, hi - lo, probs, c["row"], c["which"], c["probs"], detail)
            out[lo:hi] = probs[:hi - lo]
        return out

    def tree_states(self, cg: Any, every: bool = False) -> list[np.ndarray] | list[list[np.ndarray]]:
        """Kernel states of the compiled tree's information sets: one per information set (its first history), or
        with ``every`` all of its histories (tests: one information set, one abstract key)."""
        r = self._rules(cg.game)

        def state_of(history: list[int]) -> np.ndarray:
            return self.state_of(cg.game, r, history)

        out = [[state_of(h) for h in group] for group in TV.infoset_histories(cg, every)]
        return out if every else [g[0] for g in out]


#: The whole board game's trainer (the registry entry's ``trained`` part of ``trustme_1981``).
TRAINER = Board1981Trainer(MODE_GAME)
#: The investing round's (``trustme_1981_investment``): the same kernel, abstraction and traversal, embedded.
INVESTMENT_TRAINER = Board1981Trainer(MODE_ROUND)
