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
from trustme_analysis.engine.compiled_draws import uniform01
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves
from trustme_analysis.games.liar.kernel.deal import apply_chance, sample_chance
from trustme_analysis.games.liar.kernel.layout import CHANCE, MAXT, N, SIZE, TERMINAL, current_player, init_state
from trustme_analysis.games.liar.kernel.moves import apply_player_action, results
from trustme_analysis.train import tables as T
from trustme_analysis.train.screen import rotating_screen

compiled = njit(cache=True)

#: Settings vector offsets (float64) of :func:`run_iterations` (:func:`trustme_analysis.train.driver.config_vector`).
(C_EPSILON, C_AVERAGING, C_EPOCH, C_ALPHA, C_BETA, C_GAMMA, C_DETAIL, C_WEIGHTING, C_BASELINE, C_SHAPING, C_PRIOR,
 C_POPULATION, C_OPPONENTS) = range(13)
CONFIG_SIZE = 13
#: Slots one iteration may add at most, as the driver keeps room for them (a game's decisions times its rows; a
#: 52-card game of a few hundred turns adds a few thousand).
SLOTS_PER_ITERATION = 1 << 16


@njit(cache=True, inline="always")
def _pick(probs, n, u):
    """The index drawn by uniform ``u`` walking ``probs[:n]`` (the last positive one if rounding runs past)."""
    last = 0
    for j in range(n):
        if probs[j] > 0.0:
            last = j
            if u < probs[j]:
                return j
            u -= probs[j]
    return last


@borrowing()  # (no reference counts: they took 40% of the training's CPU time, cfr.numba_borrowing)
def run_iterations(cfg, tab, keys, regret, avg, used, t0, t1, seed, ecfg, limit, S, rng, rets, ranks, pranks, reach,
                   node_off, node_n, node_pick, node_q, node_idx, node_sig, row, descs, sig, q, idx, scratch, hrow):
    """Iterations ``t0 .. t1 - 1`` (see the module docstring); returns the next iteration to run, earlier than
    ``t1`` when the table's ``used`` count passed ``limit`` (the caller grows it and goes on). The arrays after
    ``limit`` are scratch owned by the caller."""
    n = cfg[N]
    eps = ecfg[C_EPSILON]
    unbiased = ecfg[C_AVERAGING] > 0.5
    epoch = np.int64(ecfg[C_EPOCH])
    detail = np.int64(ecfg[C_DETAIL])
    on_policy = ecfg[C_WEIGHTING] > 0.5
    prior = ecfg[C_PRIOR]
    fictitious = ecfg[C_OPPONENTS] > 0.5
    for t in range(t0, t1):
        if used[0] > limit:
            return t
        i = t % n
        rng[0] = T.mix64(np.uint64(seed) ^ T.mix64(np.uint64(t) + np.uint64(0x632BE59BD9B4E019)))
        init_state(cfg, S)
        Q = 1.0
        for p in range(n):
            reach[p] = 1.0
        m = 0
        e = 0
        while True:
            p = current_player(cfg, S)
            if p == TERMINAL:
                break
            if p == CHANCE:
                apply_chance(cfg, tab, S, sample_chance(cfg, tab, S, rng))
                continue
            nu = A.row_of(cfg, tab, S, p, detail, row, descs, hrow, scratch)
            # (the buffers hold a whole game of the turn cap; a decision that would not fit is played, not updated)
            record = p == i and e + nu <= node_idx.shape[0] and m < node_off.shape[0]
            for u in range(nu):
                before = used[0]
                idx[u] = T.insert(keys, used, row[u])
                if used[0] != before and prior > 0.0:
                    # The heuristic prior (the module docstring): a new entry starts as the heuristic plays it.
                    regret[idx[u]] = prior * hrow[u]
                    avg[idx[u]] = prior * hrow[u]
            T.regret_matching(regret, idx, nu, sig)
            x = uniform01(rng)
            if p == i:
                for u in range(nu):
                    q[u] = eps / nu + (1.0 - eps) * sig[u]
                u = _pick(q, nu, x)
                if fictitious:
                    # The average strategy averages the traverser's current strategies (each visit one sample of
                    # them), and the opponents play it: fictitious play.
                    for b in range(nu):
                        avg[idx[b]] += sig[b]
                if record:
                    for b in range(nu):
                        node_idx[e + b] = idx[b]
                        node_sig[e + b] = sig[b]
                    node_off[m] = e
                    node_n[m] = nu
                    node_pick[m] = u
                    node_q[m] = q[u]
                    m += 1
                    e += nu
                Q *= q[u]
            elif fictitious:
                total = 0.0
                for b in range(nu):
                    total += avg[idx[b]]
                if total > 0.0:
                    for b in range(nu):
                        q[b] = avg[idx[b]] / total
                    u = _pick(q, nu, x)
                else:
                    u = _pick(sig, nu, x)
            else:
                w = 1.0
                if unbiased:
                    w = 1.0 / Q
                    for r in range(n):
                        if r != i and r != p:
                            w /= reach[r]
                for b in range(nu):
                    avg[idx[b]] += w * sig[b]
                u = _pick(sig, nu, x)
                reach[p] *= sig[u]
            a = A.sample_play(cfg, tab, S, p, descs[u], detail, rng, scratch)
            apply_player_action(cfg, tab, S, a)
        results(cfg, S, ranks, pranks, rets)
        ui = rets[i]
        tail = 1.0
        ratio = 1.0  # product of sigma / q over the traverser's decisions after k (on-policy weighting)
        for k in range(m - 1, -1, -1):
            base = node_off[k]
            nu = node_n[k]
            u = node_pick[k]
            su = node_sig[base + u]
            W = ui * ratio / node_q[k] if on_policy else ui * tail / Q
            for b in range(nu):
                regret[node_idx[base + b]] += W * ((1.0 if b == u else 0.0) - su)
            tail *= su
            ratio *= su / node_q[k]
        if epoch > 0 and (t + 1) % epoch == 0:
            ep = float((t + 1) // epoch)
            pa = ep ** ecfg[C_ALPHA]
            pb = ep ** ecfg[C_BETA]
            T.discount(keys, regret, avg, pa / (pa + 1.0), pb / (pb + 1.0), (ep / (ep + 1.0)) ** ecfg[C_GAMMA])
    return t1


#: Every source the trained tables depend on (the kernel's rules, the abstraction, this traversal, the tables).
SOURCES = (actions, deal, heuristic, layout, moves, compiled_draws, A, T)
tie_cache_to_sources((run_iterations,), sys.modules[__name__], *SOURCES)


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
        return source_digest(*SOURCES, sys.modules[__name__])

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
        return {
            "cfg": cfg, "tab": tab, "S": np.zeros(int(cfg[SIZE]), np.int64), "rng": np.zeros(1, np.uint64),
            "rets": np.zeros(n), "ranks": np.zeros(n), "pranks": np.zeros(n), "reach": np.zeros(n),
            "node_off": np.zeros(nodes, np.int64), "node_n": np.zeros(nodes, np.int64),
            "node_pick": np.zeros(nodes, np.int64), "node_q": np.zeros(nodes),
            "node_idx": np.zeros(min(nodes * rowcap, 1 << 22), np.int64), "node_sig": np.zeros(min(nodes * rowcap,
                                                                                                  1 << 22)),
            "row": sc["row"], "descs": sc["descs"], "sig": np.zeros(rowcap), "q": np.zeros(rowcap),
            "idx": np.zeros(rowcap, np.int64),
            "scratch": sc["scratch"], "hrow": np.zeros(rowcap),
        }

    def run(self, ctx: dict[str, Any], tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int:
        """Iterations ``t0 .. t1 - 1`` into ``tables``; returns the next iteration (earlier when the tables need
        room)."""
        limit = int(T.MAX_LOAD * tables.capacity) - SLOTS_PER_ITERATION
        c = ctx
        return int(run_iterations(c["cfg"], c["tab"], tables.keys, tables.regret, tables.avg, tables.used, t0, t1,
                                  np.uint64(seed & (2**64 - 1)), cfg, limit, c["S"], c["rng"], c["rets"],
                                  c["ranks"], c["pranks"], c["reach"], c["node_off"], c["node_n"], c["node_pick"],
                                  c["node_q"], c["node_idx"], c["node_sig"], c["row"], c["descs"], c["sig"],
                                  c["q"], c["idx"], c["scratch"], c["hrow"]))

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
        decision = np.flatnonzero(cg.infoset >= 0)
        infos = cg.infoset[decision]
        if every:
            groups: list[list[int]] = [[] for _ in range(cg.num_infosets)]
            for node, i in zip(decision.tolist(), infos.tolist()):
                groups[i].append(node)
        else:
            _, first = np.unique(infos, return_index=True)
            groups = [[int(decision[f])] for f in first]
        parent, action = cg.parent, cg.edge_action

        def state_of(node: int) -> np.ndarray:
            path = []
            v = node
            while parent[v] >= 0:
                path.append(int(action[v]))
                v = int(parent[v])
            st = kern.new_state()
            for a in reversed(path):
                st.apply_action(a)
            return st.array.copy()

        out = [[state_of(v) for v in nodes] for nodes in groups]
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
