"""Pinocchio's part of :mod:`trustme_analysis.train`: its compiled rules handed to the one traversal
(:mod:`trustme_analysis.train.traversal`, outcome-sampling MCCFR) and the hooks the driver and the trained bot ask a
game for.

The traversal's protocol functions here are thin: each calls the kernel (:mod:`~.core`) or the abstraction
(:mod:`.abstraction`). Pinocchio plays every optional setting: a baseline, shaping by the Ticket-score margin, the
heuristic prior and personas (the heuristic and the probes of :data:`~.trained.PROBE_KINDS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import source_digest, tie_cache_to_sources
from trustme_analysis.games.pinocchio.kernel import abstraction as A
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel import trained as TR
from trustme_analysis.train import tables as T
from trustme_analysis.train import traversal as TV
from trustme_analysis.train.screen import rotating_screen
from trustme_analysis.train.traversal import CONFIG_SIZE

inlined = njit(cache=True, inline="always")

#: The personas an opponent seat may play for a whole training game (``population``): 1 the heuristic, 2.. the
#: probes of :data:`~.trained.PROBE_KINDS` (the kernel's probe codes are ``PERSONA_PROBE_BASE + persona``).
PERSONAS = 5
PERSONA_PROBE_BASE = TR.PROBE_NEVER_TRUST - 2
#: Ticket points per unit of the shaped return (``shaping``): the seat's score minus the others' mean, over this.
SHAPING_SCALE = 10.0
#: Pinocchio's constant in each iteration's seed.
SALT = 0x632BE59BD9B4E019
#: Entries of the per-game decision buffers (every traverser decision's legal actions).
NODE_BUFFER = 1 << 17
#: Slots one iteration may add at most (every decision of a game, all legal actions): the room kept free.
SLOTS_PER_ITERATION = 1 << 14

# ---- the protocol (trustme_analysis.train.traversal); G = (R, trace, cbuf, H, hacts, hprobs, hbuf)


@inlined
def _start(G, s, rng):
    K.init_state(s, G[0])


@inlined
def _to_move(G, s):
    if s[K.PHASE] == K.TERMINAL:
        return TV.TERMINAL
    if K.is_chance_phase(s[K.PHASE]):
        return TV.CHANCE
    return s[K.ACTOR]


@inlined
def _chance(G, s, rng):
    K.apply_action(s, G[0], K.sample_chance(s, G[0], rng), G[1])


@inlined
def _legal(G, s, acts):
    return K.legal_actions(s, G[0], acts, G[2])


@inlined
def _row(G, s, p, acts, na, row, which, detail, hrow):
    return A.row_of(s, G[0], p, acts, na, row, which, detail, hrow)


@inlined
def _play(G, s, p, acts, na, which, u, detail, rng):
    return acts[T.concrete(which, na, u, rng)]


@inlined
def _apply(G, s, a):
    K.apply_action(s, G[0], a, G[1])


@inlined
def _returns(G, s, out):
    K.returns_into(s, G[0], out)


@inlined
def _margin(G, s, i):
    n = G[0][K.R_PLAYERS]
    others = 0.0
    for r in range(n):
        if r != i:
            others += s[K.SCORE + r]
    return s[K.SCORE + i] - others / (n - 1)


@inlined
def _persona(G, s, p, kind, rng):
    R, H = G[0], G[3]
    if kind == 1:
        return K.heuristic_action(s, R, H[p], rng, G[4], G[5], G[6])
    return TR.probe_action(s, R, H, rng, PERSONA_PROBE_BASE + kind, G[4], G[5], G[6])


@borrowing()  # (no reference counts: they took a quarter of the training's CPU time, cfr.numba_borrowing)
def run_iterations(G, tables, t0, t1, seed, cfg, limit, s, nodes, scratch):
    """Iterations ``t0 .. t1 - 1`` of the one traversal over Pinocchio's kernel
    (:func:`trustme_analysis.train.traversal.run_iterations`, which names the arguments)."""
    consts = (G[0][K.R_PLAYERS], SALT, PERSONAS, SHAPING_SCALE)
    return TV.run_iterations(_start, _to_move, _chance, _legal, _row, _play, _apply, _returns, _margin, _persona,
                             G, s, consts, tables, t0, t1, seed, cfg, limit, nodes, scratch)


@borrowing()
def policy_at(s, R, keys, avg, acts, n, out, row, which, probs, detail):
    """The trained policy of the seat to act in ``s`` over its legal moves ``acts[:n]`` into ``out`` (a row's
    probability shared evenly by the moves it describes); returns whether the table knew the position (else
    ``out`` is the default heuristic's row, :func:`~trustme_analysis.train.tables.known_row`)."""
    m = A.row_of(s, R, s[K.ACTOR], acts, n, row, which, detail, probs)
    known = T.known_row(keys, avg, row, m, probs)
    for j in range(n):
        c = 0
        for k in range(n):
            if which[k] == which[j]:
                c += 1
        out[j] = probs[which[j]] / c
    return known


tie_cache_to_sources((run_iterations, policy_at, A.info_key_of, A.row_of_compiled), *K.SOURCES, A, T, TR, TV)


def _kernel_state(ctx: dict[str, Any], history: list[int]) -> Any:
    """The kernel state after ``history``, extended from the last one asked for when it is a prefix (a game's
    decisions come in order, so each costs only the steps since the previous one)."""
    last = ctx.get("last")
    if last is not None and len(last[0]) <= len(history) and history[:len(last[0])] == last[0]:
        kstate = last[1]
        kern = ctx["kernel"]
        for a in history[len(last[0]):]:
            K.apply_action(kstate.s, kern.R, a, kstate.trace)
    else:
        kstate = ctx["kernel"].from_history(history)
    ctx["last"] = (list(history), kstate)
    return kstate


def _scratch() -> dict[str, np.ndarray]:
    return {"acts": np.zeros(K.MAXA, np.int64), "out": np.zeros(K.MAXA), "row": np.zeros(K.MAXA, np.int64),
            "which": np.zeros(K.MAXA, np.int64), "probs": np.zeros(K.MAXA)}


class PinocchioTrainer:
    """The training hooks :mod:`trustme_analysis.train` asks a game for (see ``trustme_analysis.train.GameTrainer``)."""

    #: Names the abstraction and traversal; a stored policy of another version is stale.
    version = f"pinocchio-os-mccfr/abstraction-{A.VERSION}"
    config_size = CONFIG_SIZE
    slots_per_iteration = SLOTS_PER_ITERATION
    #: The optional settings this traversal plays (``trustme_analysis.train.driver.OPTIONAL``).
    offers = ("baseline", "shaping", "prior", "population", "opponents")
    #: Pinocchio's own defaults (measured on the 2-player game, docs/guide/trained.rst): the VR-MCCFR baseline; start
    #: every row from the
    #: heuristic's (20 visits' worth), let the opponents play the average strategy (fictitious play), and discount
    #: negative regrets like positive ones (DCFR's beta = 0 forgives the negative half of the sampled noise and
    #: keeps the positive half, which fills a row with moves that were lucky once).
    defaults = {"baseline": True, "prior": 20.0, "opponents": "average", "beta": 1.5}
    #: Defaults by abstraction level, over :attr:`defaults`. At the fine level (``detail >= 1``: nearly the
    #: information set, the solve presets' reduced variants) the opponents play the current strategy, plain CFR
    #: self-play, whose average converges to equilibrium: on the solve presets the fictitious-play opponents left the
    #: fine level 5-13% of the utility range from equilibrium, the current ones 0.0-1.1% (seed 0, 2 million
    #: iterations; docs/guide/trained.rst, "Exact exploitability").
    detail_defaults = {1: {"opponents": "current"}}
    #: The abstraction's levels, finest first (the benchmark's exact stage measures each).
    detail_levels = (1, 0)

    def code_digest(self) -> str:
        """A digest of the sources the trained tables depend on (the kernel, the abstraction, this file, the
        tables): a policy trained by other code is stale."""
        import sys

        return source_digest(*K.SOURCES, A, TR, sys.modules[__name__], T, TV)

    def prepare(self, game: pyspiel.Game) -> dict[str, Any]:
        """The kernel's rules array and scratch buffers for ``game``."""
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel, rules_array
        from trustme_analysis.registry import game_entry

        # The kernel must play the variant's rules exactly (its declared parameters and limits).
        reason = game_entry(game.get_type().short_name).kernel_reason(game, use="game")
        if reason is not None:
            raise TypeError(reason)
        R = rules_array(game)
        n = int(R[K.R_PLAYERS])
        # The heuristic (the prior's and the personas' strategy) with its default knobs, every seat.
        H = Kernel(game, ["heuristic"] * n).H
        G = (R, np.zeros((0, n), np.int32), np.zeros(K.MAXC, np.int64), H, np.zeros(K.MAXA, np.int64),
             np.zeros(K.MAXA), np.zeros(K.scratch_size(R), np.int64))
        return {"R": R, "G": G, "players": n, "s": np.zeros(K.STATE_SIZE, np.int32),
                "nodes": TV.node_buffers(4096, NODE_BUFFER), "scratch": TV.scratch(K.MAXA, n)}

    def run(self, ctx: dict[str, Any], tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int:
        """Iterations ``t0 .. t1 - 1`` into ``tables``; returns the next iteration (earlier when the tables need
        room)."""
        limit = int(T.MAX_LOAD * tables.capacity) - SLOTS_PER_ITERATION
        c = ctx
        return int(run_iterations(c["G"], TV.tables_of(tables), t0, t1, np.uint64(seed & (2**64 - 1)), cfg, limit,
                                  c["s"], c["nodes"], c["scratch"]))

    # ---- playing a stored policy (the trained bot, exact evaluation on a compiled tree)

    def bot_context(self, game: pyspiel.Game) -> Any:
        """What :meth:`action_probabilities` needs for ``game``: its kernel and scratch."""
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel

        return {"kernel": Kernel(game), **_scratch()}

    def action_probabilities(self, ctx: Any, table: tuple[np.ndarray, np.ndarray], state: pyspiel.State,
                             player: int, detail: int = 0) -> tuple[dict[int, float], bool]:
        """The stored policy at ``state`` for ``player`` (the seat to act): ``({action: probability}, known)``,
        uniform where the table never saw the position (``known`` False)."""
        kstate = _kernel_state(ctx, state.history())
        legal = state.legal_actions(player)
        acts, out = ctx["acts"], ctx["out"]
        acts[:len(legal)] = legal
        known = policy_at(kstate.s, ctx["kernel"].R, table[0], table[1], acts, len(legal), out, ctx["row"],
                          ctx["which"], ctx["probs"], detail)
        return {int(a): float(out[j]) for j, a in enumerate(legal)}, bool(known)

    def tree_policy(self, cg: Any, table: tuple[np.ndarray, np.ndarray], states: list[np.ndarray] | None = None,
                    detail: int = 0) -> np.ndarray:
        """The stored policy as a slot array of the compiled tree ``cg`` (every seat plays it), for cfr's exact
        evaluators. ``states``: :meth:`tree_states` of ``cg``, when already computed."""
        states = self.tree_states(cg) if states is None else states
        R = self._rules(cg.game)
        out = cg.uniform_policy().copy()
        c = _scratch()
        acts, probs = c["acts"], c["out"]
        starts = cg.infoset_slot_start
        for i, s in enumerate(states):
            lo, hi = int(starts[i]), int(starts[i + 1])
            acts[:hi - lo] = cg.slot_action[lo:hi]
            policy_at(s, R, table[0], table[1], acts, hi - lo, probs, c["row"], c["which"], c["probs"], detail)
            out[lo:hi] = probs[:hi - lo]
        return out

    def tree_states(self, cg: Any, every: bool = False) -> list[np.ndarray] | list[list[np.ndarray]]:
        """Kernel states of the compiled tree's information sets: one per information set (its first history), or
        with ``every`` all of its histories (tests: one information set, one abstract key)."""
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel

        kern = Kernel(cg.game)

        def state_of(history: list[int]) -> np.ndarray:
            return kern.from_history(history).s.copy()

        out = [[state_of(h) for h in group] for group in TV.infoset_histories(cg, every)]
        return out if every else [g[0] for g in out]

    def screen_probes(self, game: pyspiel.Game, table: tuple[np.ndarray, np.ndarray], names: list[str], games: int,
                      seed: int = 0, detail: int = 0) -> dict[str, float]:
        """Each named probe's (or ``"heuristic"``'s) win rate in one seat (rotating, ``games`` games in all) against
        trained seats playing ``table``, played in the kernel (:func:`~.trained.play_probe_games`); probes the kernel
        does not play are left out."""
        from trustme_analysis.games.pinocchio.kernel import trained as TR
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel

        R = self._rules(game)
        n = int(R[K.R_PLAYERS])
        H = Kernel(game, ["heuristic"]).H

        def play(kinds: np.ndarray, seeds: np.ndarray) -> np.ndarray:
            finals = np.zeros((len(seeds), K.STATE_SIZE), np.int32)
            rets = np.zeros((len(seeds), n))
            TR.play_probe_games(R, seeds, kinds, H, table[0], table[1], detail, finals, rets)
            return rets

        return rotating_screen(names, n, games, seed, K.SEAT_TRAINED,
                               lambda name: K.SEAT_HEURISTIC if name == "heuristic" else TR.PROBE_KINDS.get(name),
                               play)

    def _rules(self, game: pyspiel.Game) -> np.ndarray:
        from trustme_analysis.games.pinocchio.kernel.kernel import rules_array

        return rules_array(game)


TRAINER = PinocchioTrainer()
