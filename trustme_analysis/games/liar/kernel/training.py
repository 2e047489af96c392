"""Liar's Monte Carlo CFR traversal over the compiled kernel: the game's part of :mod:`trustme_analysis.train`.

One iteration deals and plays one game in the compiled position (:mod:`.layout`, :mod:`.deal`, :mod:`.moves`) and
updates the tables of :mod:`trustme_analysis.train.tables`, keyed by the abstraction of :mod:`.abstraction`. The
method is Pinocchio's (``docs/guide/trained.rst``): outcome-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling,
NeurIPS 2009) with alternating traversers, the traverser sampling ``eps * uniform + (1 - eps) * current strategy``
over its row of move descriptions, the other seats playing their current strategy (their average strategy takes
the visit), on-policy or importance weighting of the sampled regrets, and DCFR discounting once per epoch. Two of
Pinocchio's optional settings are played (:attr:`LiarTrainer.offers`):

- ``prior``: a row entry new to the table starts with the default heuristic's probability of the moves it describes
  (:func:`~.abstraction.heuristic_prior`) as regret and as average mass, ``prior`` visits' worth, so a row starts as
  the heuristic plays it and leaves it only as far as its sampled regrets say;
- ``opponents = "average"``: the other seats play their average strategy, which then averages the traverser's
  current strategies (fictitious play with regret matching as the best-response learner).

A drawn row entry (a move description) becomes a concrete action by :func:`~.abstraction.sample_play` (the announced
value uniformly among those of the described standing, the false cards uniformly from the rest of the hand), the
same rule the trained seats and the trained bot follow, so the policy trained is the policy played.

Iteration ``t`` draws from a generator seeded by ``(seed, t)`` alone, so the tables after ``t`` iterations do not
depend on how the iterations were split into batches (a resumed training equals an uninterrupted one).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pyspiel
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import source_digest, tie_cache_to_sources
from trustme_analysis.engine import compiled_draws
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves
from trustme_analysis.games.liar.kernel.deal import apply_chance, sample_chance
from trustme_analysis.games.liar.kernel.layout import MAXT, N, SIZE, current_player, init_state
from trustme_analysis.games.liar.kernel.moves import apply_player_action, results
from trustme_analysis.train import tables as T
from trustme_analysis.train import traversal as TV
from trustme_analysis.train.traversal import CONFIG_SIZE
from trustme_analysis.train.screen import rotating_screen

compiled = njit(cache=True)
inlined = njit(cache=True, inline="always")

#: Liar's constant in each iteration's seed (Pinocchio's: the two games never share a table).
SALT = 0x632BE59BD9B4E019
#: Slots one iteration may add at most, as the driver keeps room for them (a game's decisions times its rows; a
#: 52-card game of a few hundred turns adds a few thousand).
SLOTS_PER_ITERATION = 1 << 16


# ---- the protocol (trustme_analysis.train.traversal); G = (cfg, tab, ranks, pranks, abstraction scratch)


@inlined
def _start(G, S, rng):
    init_state(G[0], S)


@inlined
def _to_move(G, S):
    return current_player(G[0], S)  # (Liar's kernel answers OpenSpiel's CHANCE and TERMINAL, as the protocol)


@inlined
def _chance(G, S, rng):
    apply_chance(G[0], G[1], S, sample_chance(G[0], G[1], S, rng))


@inlined
def _legal(G, S, acts):
    return 0  # (a row reads the position itself: :func:`~.abstraction.row_of`)


@inlined
def _row(G, S, p, acts, na, row, which, detail, hrow):
    return A.row_of(G[0], G[1], S, p, detail, row, which, hrow, G[4])


@inlined
def _play(G, S, p, acts, na, which, u, detail, rng):
    return A.sample_play(G[0], G[1], S, p, which[u], detail, rng, G[4])


@inlined
def _apply(G, S, a):
    apply_player_action(G[0], G[1], S, a)


@inlined
def _returns(G, S, out):
    results(G[0], S, G[2], G[3], out)


@inlined
def _no_margin(G, S, i):
    """Shaping is not played (:attr:`LiarTrainer.offers`): never called."""
    return 0.0


@inlined
def _no_persona(G, S, p, kind, rng):
    """Personas are not played (:attr:`LiarTrainer.offers`): never called."""
    return 0


@borrowing()  # (no reference counts: they took 40% of the training's CPU time, cfr.numba_borrowing)
def run_iterations(G, tables, t0, t1, seed, ecfg, limit, S, nodes, scratch):
    """Iterations ``t0 .. t1 - 1`` of the one traversal over Liar's kernel
    (:func:`trustme_analysis.train.traversal.run_iterations`, which names the arguments)."""
    consts = (G[0][N], SALT, 0, 1.0)
    return TV.run_iterations(_start, _to_move, _chance, _legal, _row, _play, _apply, _returns, _no_margin,
                             _no_persona, G, S, consts, tables, t0, t1, seed, ecfg, limit, nodes, scratch)


SOURCES = (actions, deal, heuristic, layout, moves, compiled_draws, A, T)
tie_cache_to_sources((run_iterations,), sys.modules[__name__], *SOURCES, TV)


def _kernel_state(ctx: dict[str, Any], history: list[int]) -> Any:
    """The kernel state after ``history``, extended from the last one asked for when it is a prefix (a game's
    decisions come in order, so each costs only the steps since the previous one)."""
    last = ctx.get("last")
    if last is not None and len(last[0]) <= len(history) and history[:len(last[0])] == last[0]:
        kstate = last[1]
        for a in history[len(last[0]):]:
            kstate.apply_action(a)
    else:
        kstate = ctx["kernel"].new_state()
        for a in history:
            kstate.apply_action(a)
    ctx["last"] = (list(history), kstate)
    return kstate


class LiarTrainer:
    """The training hooks :mod:`trustme_analysis.train` asks a game for (see ``trustme_analysis.train.GameTrainer``),
    and the hooks of the trained bot (:mod:`trustme_analysis.players.trained`)."""

    #: Names the abstraction and traversal; a stored policy of another version is stale.
    version = f"liar-os-mccfr/abstraction-{A.VERSION}"
    #: The optional settings this traversal plays (``trustme_analysis.train.driver.OPTIONAL``); a spec asking for a
    #: baseline, shaping or personas is refused.
    offers = ("prior", "opponents")
    #: Liar's own defaults (measured on the full 2- and 4-player games, docs/guide/trained.rst): start every row
    #: from the heuristic's (``prior`` visits' worth: DCFR's discounting wears much of it away within the first
    #: epochs), let the opponents play the average strategy (fictitious play), and discount negative regrets like
    #: positive ones (``beta``).
    defaults = {"prior": 200000.0, "opponents": "average", "beta": 1.5}
    #: Decks of at most this many cards (the solve presets' reduced variants: 6 and 12) train as plain MCCFR
    #: (:meth:`variant_defaults`).
    SMALL_DECK = 24
    #: The settings of a small deck: no prior, current-strategy opponents, DCFR's beta = 0.
    SMALL_DEFAULTS = {"prior": 0.0, "opponents": "current", "beta": 0.0}
    #: The abstraction's levels, finest first (the benchmark's exact stage measures each).
    detail_levels = (1, 0)

    def variant_defaults(self, game: pyspiel.Game, detail: int) -> dict[str, Any]:
        """Defaults by rule variant, over :attr:`defaults` (:func:`trustme_analysis.train.game_settings`): a deck of
        at most :attr:`SMALL_DECK` cards trains as plain MCCFR (:attr:`SMALL_DEFAULTS`). There every row is visited
        often, and the heuristic's prior and the fictitious-play opponents only hold the policy near the heuristic:
        on ``tiny_plays2`` / ``tiny_plays2_trustme`` (2 million iterations, seed 0) the full game's defaults left it
        19.98% / 8.54% of the utility range from equilibrium, plain MCCFR 0.17% / 0.88%. On the full decks the
        prior and the average opponents are what hold the probes (docs/games/liar.rst)."""
        cfg = layout.rules_array(game)
        return dict(self.SMALL_DEFAULTS) if int(cfg[layout.V]) * int(cfg[layout.C]) <= self.SMALL_DECK else {}
    config_size = CONFIG_SIZE
    slots_per_iteration = SLOTS_PER_ITERATION

    def code_digest(self) -> str:
        """A digest of the sources the trained tables depend on: a policy trained by other code is stale."""
        return source_digest(*SOURCES, sys.modules[__name__], TV)

    def prepare(self, game: pyspiel.Game) -> dict[str, Any]:
        """The compiled rules, counting tables and scratch buffers for ``game``."""
        from trustme_analysis.games.liar.engine.game import LiarGame

        if not isinstance(game, LiarGame):
            raise TypeError(f"the Liar trainer trains trustme_liar games, not {game}")
        cfg = layout.rules_array(game)
        tab = layout.build_tables(cfg)
        n = int(cfg[N])
        rowcap = A.row_capacity(cfg, tab)
        nodes = int(min(cfg[MAXT], 1 << 14))
        sc = A.new_scratch(cfg, tab)
        entries = min(nodes * rowcap, 1 << 22)
        G = (cfg, tab, np.zeros(n), np.zeros(n), sc["scratch"])
        return {"cfg": cfg, "tab": tab, "G": G, "S": np.zeros(int(cfg[SIZE]), np.int64),
                "nodes": TV.node_buffers(nodes, entries), "scratch": TV.scratch(rowcap, n)}

    def run(self, ctx: dict[str, Any], tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int:
        """Iterations ``t0 .. t1 - 1`` into ``tables``; returns the next iteration (earlier when the tables need
        room)."""
        limit = int(T.MAX_LOAD * tables.capacity) - SLOTS_PER_ITERATION
        c = ctx
        return int(run_iterations(c["G"], TV.tables_of(tables), t0, t1, np.uint64(seed & (2**64 - 1)), cfg, limit,
                                  c["S"], c["nodes"], c["scratch"]))

    # ---- playing a stored policy (the trained bot, exact evaluation on a compiled tree)

    def bot_context(self, game: pyspiel.Game) -> dict[str, Any]:
        """What :meth:`action_probabilities` needs for ``game``: its kernel and scratch."""
        from trustme_analysis.games.liar.kernel.kernel import Kernel

        kern = Kernel(game)
        cap = A.row_capacity(kern.cfg, kern.tab)
        return {"kernel": kern, **A.new_scratch(kern.cfg, kern.tab), "legal": np.zeros(cap, np.int64),
                "out": np.zeros(cap)}

    def action_probabilities(self, ctx: dict[str, Any], table: tuple[np.ndarray, np.ndarray], state: pyspiel.State,
                             player: int, detail: int = 0) -> tuple[dict[int, float], bool]:
        """The stored policy at ``state`` for ``player`` (the seat to act): ``({action: probability}, known)``,
        the default heuristic's row where the table never saw the position (``known`` False)."""
        kstate = _kernel_state(ctx, state.history())
        legal = state.legal_actions(player)
        kern = ctx["kernel"]
        acts, out = ctx["legal"], ctx["out"]
        acts[:len(legal)] = legal
        known = A.policy_at(kern.cfg, kern.tab, kstate.array, player, table[0], table[1], acts, len(legal), out,
                            detail, ctx["row"], ctx["descs"], ctx["probs"], ctx["scratch"])
        return {int(a): float(out[j]) for j, a in enumerate(legal)}, bool(known)

    def tree_policy(self, cg: Any, table: tuple[np.ndarray, np.ndarray], states: list[np.ndarray] | None = None,
                    detail: int = 0) -> np.ndarray:
        """The stored policy as a slot array of the compiled tree ``cg`` (every seat plays it), for cfr's exact
        evaluators. ``states``: :meth:`tree_states` of ``cg``, when already computed."""
        states = self.tree_states(cg) if states is None else states
        cfg = layout.rules_array(cg.game)
        tab = layout.build_tables(cfg)
        c = A.new_scratch(cfg, tab)
        cap = A.row_capacity(cfg, tab)
        acts, probs = np.zeros(cap, np.int64), np.zeros(cap)
        out = cg.uniform_policy().copy()
        starts = cg.infoset_slot_start
        for i, s in enumerate(states):
            lo, hi = int(starts[i]), int(starts[i + 1])
            acts[:hi - lo] = cg.slot_action[lo:hi]
            p = int(cg.infoset_player[i])
            A.policy_at(cfg, tab, s.copy(), p, table[0], table[1], acts, hi - lo, probs, detail, c["row"],
                        c["descs"], c["probs"], c["scratch"])
            out[lo:hi] = probs[:hi - lo]
        return out

    def tree_states(self, cg: Any, every: bool = False) -> list[np.ndarray] | list[list[np.ndarray]]:
        """Compiled positions of the tree's information sets: one per information set (its first history), or with
        ``every`` all of its histories (tests: one information set, one key)."""
        from trustme_analysis.games.liar.kernel.kernel import Kernel

        kern = Kernel(cg.game)

        def state_of(history: list[int]) -> np.ndarray:
            st = kern.new_state()
            for a in history:
                st.apply_action(a)
            return st.array.copy()

        out = [[state_of(h) for h in group] for group in TV.infoset_histories(cg, every)]
        return out if every else [g[0] for g in out]

    def screen_probes(self, game: pyspiel.Game, table: tuple[np.ndarray, np.ndarray], names: list[str], games: int,
                      seed: int = 0, detail: int = 0) -> dict[str, float]:
        """Each named probe's (or ``"heuristic"``'s) win rate in one seat (rotating, ``games`` games in all) against
        trained seats playing ``table``, played in the kernel (:func:`~.trained.play_probe_games`; the heuristic and
        the probes' base with the bot's default knobs); probes the kernel does not play are left out. A seat wins
        when it has the best return."""
        from trustme_analysis.games.liar.kernel import trained as TR
        from trustme_analysis.games.liar.players.heuristic import LiarKnobs

        cfg = layout.rules_array(game)
        tab = layout.build_tables(cfg)
        n = int(cfg[N])
        knobs = np.ascontiguousarray(np.tile(LiarKnobs().array(), (n, 1)))
        sc = A.new_scratch(cfg, tab)
        tkeys = np.ascontiguousarray(table[0], np.int64)
        tavg = np.ascontiguousarray(table[1], np.float64)

        def play(kinds: np.ndarray, seeds: np.ndarray) -> np.ndarray:
            rets = np.zeros((len(seeds), n))
            TR.play_probe_games(cfg, tab, seeds, kinds, knobs, tkeys, tavg, detail, rets, sc["row"], sc["descs"],
                                sc["probs"], sc["scratch"])
            return rets

        return rotating_screen(names, n, games, seed, TR.TRAINED,
                               lambda name: layout.HEURISTIC if name == "heuristic" else TR.PROBE_KINDS.get(name), play)


TRAINER = LiarTrainer()
