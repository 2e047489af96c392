"""Pinocchio's Monte Carlo CFR traversal over the compiled kernel: the game's part of :mod:`trustme_analysis.train`.

One iteration plays one game in the kernel (:mod:`~trustme_analysis.games.pinocchio.kernel.core`) and updates the
tables of :mod:`trustme_analysis.train.tables`, keyed by the abstraction of :mod:`.abstraction`. The method is
outcome-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling, "Monte Carlo Sampling for Regret Minimization in
Extensive Games", NeurIPS 2009) with alternating traversers:

- chance deals and draws by its own probabilities (so chance probabilities cancel out of every estimate);
- the traverser ``t mod players`` samples its action from ``eps * uniform + (1 - eps) * current strategy``; with
  ``eps = 1`` this is the robust sampling of Li et al. ("Double Neural Counterfactual Regret Minimization", ICLR
  2020) with one action, whose importance weights do not depend on the current strategy;
- the other seats play their current strategy, and their average strategy takes the visit (``averaging = 0``: weight
  1; ``averaging = 1``: the unbiased weight, the seat's reach over the sampling probability);
- at the end, each traverser decision ``k`` with sampled action ``a`` gets the sampled regret
  ``u * T_k / Q * ([b == a] - sigma_k(a))`` for each action ``b``, where ``u`` is the traverser's return, ``Q`` the
  probability its own sampled actions had and ``T_k`` the product of its current-strategy probabilities after ``k``
  (opponents' and chance probabilities cancel).

Iteration ``t`` draws from a generator seeded by ``(seed, t)`` alone, so the tables after ``t`` iterations do not
depend on how the iterations were split into batches: a resumed training equals an uninterrupted one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
from numba import njit

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import source_digest, tie_cache_to_sources
from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.games.pinocchio.kernel import abstraction as A
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel import trained as TR
from trustme_analysis.train import tables as T
from trustme_analysis.train.screen import rotating_screen

compiled = njit(cache=True)

#: Settings vector offsets (float64) of :func:`run_iterations`.
(C_EPSILON, C_AVERAGING, C_EPOCH, C_ALPHA, C_BETA, C_GAMMA, C_DETAIL, C_WEIGHTING, C_BASELINE, C_SHAPING, C_PRIOR,
 C_POPULATION, C_OPPONENTS) = range(13)
CONFIG_SIZE = 13
#: The personas an opponent seat may play for a whole training game (``population``): 1 the heuristic, 2.. the
#: probes of :data:`~.trained.PROBE_KINDS` (the kernel's probe codes are ``PERSONA_PROBE_BASE + persona``).
PERSONAS = 5
PERSONA_PROBE_BASE = TR.PROBE_NEVER_TRUST - 2
#: Ticket points per unit of the shaped return (``shaping``): the seat's score minus the others' mean, over this.
SHAPING_SCALE = 10.0
#: Entries of the per-game decision buffers (every traverser decision's legal actions).
NODE_BUFFER = 1 << 17
#: Slots one iteration may add at most (every decision of a game, all legal actions): the room kept free.
SLOTS_PER_ITERATION = 1 << 14


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


@njit(cache=True, inline="always")
def _concrete(which, na, u, rng):
    """One of the legal moves whose description is row entry ``u``, uniformly (moves described alike are one move
    to the trained player)."""
    c = 0
    for j in range(na):
        if which[j] == u:
            c += 1
    k = below(rng, c) if c > 1 else 0
    for j in range(na):
        if which[j] == u:
            if k == 0:
                return j
            k -= 1
    return 0


@borrowing()  # (no reference counts: they took a quarter of the training's CPU time, cfr.numba_borrowing)
def run_iterations(R, keys, regret, avg, used, t0, t1, seed, cfg, limit, s, rng, acts, cbuf, sig, q, rets,
                   node_off, node_n, node_pick, node_idx, node_sig, reach, trace, row, which, node_q, base, visits,
                   uhat, H, persona, hacts, hprobs, hbuf, hrow):
    """Iterations ``t0 .. t1 - 1`` (see the module docstring); returns the next iteration to run, earlier than
    ``t1`` when the table's ``used`` count passed ``limit`` (the caller grows it and goes on). The arrays after
    ``limit`` are scratch owned by the caller."""
    n = R[K.R_PLAYERS]
    eps = cfg[C_EPSILON]
    unbiased = cfg[C_AVERAGING] > 0.5
    epoch = np.int64(cfg[C_EPOCH])
    detail = np.int64(cfg[C_DETAIL])
    on_policy = cfg[C_WEIGHTING] > 0.5
    baseline = cfg[C_BASELINE] > 0.5 and on_policy
    shaping = cfg[C_SHAPING]
    prior = cfg[C_PRIOR]
    population = cfg[C_POPULATION]
    fictitious = cfg[C_OPPONENTS] > 0.5
    for t in range(t0, t1):
        if used[0] > limit:
            return t
        i = t % n
        rng[0] = T.mix64(np.uint64(seed) ^ T.mix64(np.uint64(t) + np.uint64(0x632BE59BD9B4E019)))
        for r in range(n):
            persona[r] = 0
            # Draws only when asked for, so that a training without personas keeps its generator's stream.
            if population > 0.0 and r != i and uniform01(rng) < population:
                persona[r] = 1 + below(rng, PERSONAS)
        K.init_state(s, R)
        Q = 1.0
        for p in range(n):
            reach[p] = 1.0
        m = 0
        e = 0
        while s[K.PHASE] != K.TERMINAL:
            if K.is_chance_phase(s[K.PHASE]):
                K.apply_action(s, R, K.sample_chance(s, R, rng), trace)
                continue
            p = s[K.ACTOR]
            if persona[p] > 0:
                # A persona seat plays its fixed strategy and learns nothing (its probabilities cancel out of the
                # traverser's estimates like any opponent's).
                if persona[p] == 1:
                    a = K.heuristic_action(s, R, H[p], rng, hacts, hprobs, hbuf)
                else:
                    a = TR.probe_action(s, R, H, rng, PERSONA_PROBE_BASE + persona[p], hacts, hprobs, hbuf)
                K.apply_action(s, R, a, trace)
                continue
            na = K.legal_actions(s, R, acts, cbuf)
            nu = A.row_of(s, R, p, acts, na, row, which, detail, hrow)
            if e + nu > node_idx.shape[0] or m >= node_off.shape[0]:
                e = 0  # cannot happen for the kernel's games (the buffers hold far more than a game); stay in bounds
                m = 0
            idx = node_idx[e:e + nu]
            for u in range(nu):
                before = used[0]
                idx[u] = T.insert(keys, used, row[u])
                if used[0] != before and prior > 0.0:
                    # The heuristic prior: a row entry new to the table starts with the heuristic's probability of
                    # the moves it describes as regret and as average mass, ``prior`` visits' worth, so that a row
                    # starts as the heuristic plays it and leaves it only as far as its sampled regrets say.
                    regret[idx[u]] = prior * hrow[u]
                    avg[idx[u]] = prior * hrow[u]
            T.regret_matching(regret, idx, nu, sig)
            x = uniform01(rng)
            if p == i:
                for u in range(nu):
                    q[u] = eps / nu + (1.0 - eps) * sig[u]
                    node_sig[e + u] = sig[u]
                u = _pick(q, nu, x)
                if fictitious:
                    # The average strategy is the average of the traverser's current strategies (each visit one
                    # sample of them), which the opponents play: fictitious play with regret matching as the
                    # best-response learner.
                    for b in range(nu):
                        avg[idx[b]] += sig[b]
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
            K.apply_action(s, R, acts[_concrete(which, na, u, rng)], trace)
        K.returns_into(s, R, rets)
        ui = rets[i]
        if shaping > 0.0:
            # The Ticket-score margin as a second, denser signal (a point changes it, a win changes the other).
            others = 0.0
            for r in range(n):
                if r != i:
                    others += s[K.SCORE + r]
            ui += shaping * (s[K.SCORE + i] - others / (n - 1)) / SHAPING_SCALE
        if baseline:
            # VR-MCCFR: each move's value is its baseline, the sampled move's corrected by the sampled value over
            # its sampling probability; the decision's value (the strategy's mean of them) is what the decision
            # before it sampled. The baseline of the sampled move then takes the sampled value into its mean.
            v = ui
            for k in range(m - 1, -1, -1):
                off = node_off[k]
                nu = node_n[k]
                u = node_pick[k]
                iu = node_idx[off + u]
                vi = 0.0
                for b in range(nu):
                    ib = node_idx[off + b]
                    x = base[ib]
                    if b == u:
                        x += (v - base[iu]) / node_q[k]
                    uhat[b] = x
                    vi += node_sig[off + b] * x
                for b in range(nu):
                    regret[node_idx[off + b]] += uhat[b] - vi
                visits[iu] += 1.0
                base[iu] += (v - base[iu]) / visits[iu]
                v = vi
        tail = 1.0
        ratio = 1.0  # product of sigma / q over the traverser's decisions after k (on_policy weighting)
        for k in range(m - 1, -1, -1):
            if baseline:
                break
            off = node_off[k]
            nu = node_n[k]
            u = node_pick[k]
            su = node_sig[off + u]
            W = ui * ratio / node_q[k] if on_policy else ui * tail / Q
            for b in range(nu):
                regret[node_idx[off + b]] += W * ((1.0 if b == u else 0.0) - su)
            tail *= su
            ratio *= su / node_q[k]
        if epoch > 0 and (t + 1) % epoch == 0:
            ep = float((t + 1) // epoch)
            pa = ep ** cfg[C_ALPHA]
            pb = ep ** cfg[C_BETA]
            T.discount(keys, regret, avg, pa / (pa + 1.0), pb / (pb + 1.0), (ep / (ep + 1.0)) ** cfg[C_GAMMA])
    return t1


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


tie_cache_to_sources((run_iterations, policy_at, A.info_key_of, A.row_of_compiled), *K.SOURCES, A, T, TR)


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

        return source_digest(*K.SOURCES, A, TR, sys.modules[__name__], T)

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
        return {
            "R": R, "players": n, "s": np.zeros(K.STATE_SIZE, np.int32), "rng": np.zeros(1, np.uint64),
            "acts": np.zeros(K.MAXA, np.int64), "cbuf": np.zeros(K.MAXC, np.int64), "sig": np.zeros(K.MAXA),
            "q": np.zeros(K.MAXA), "rets": np.zeros(n), "node_off": np.zeros(4096, np.int64),
            "node_n": np.zeros(4096, np.int64), "node_pick": np.zeros(4096, np.int64),
            "node_idx": np.zeros(NODE_BUFFER, np.int64), "node_sig": np.zeros(NODE_BUFFER),
            "reach": np.zeros(n), "trace": np.zeros((0, n), np.int32), "row": np.zeros(K.MAXA, np.int64),
            "which": np.zeros(K.MAXA, np.int64), "node_q": np.zeros(4096), "uhat": np.zeros(K.MAXA),
            # The heuristic (the prior's and the personas' strategy) with its default knobs, every seat.
            "H": Kernel(game, ["heuristic"] * n).H, "persona": np.zeros(n, np.int64),
            "hacts": np.zeros(K.MAXA, np.int64), "hprobs": np.zeros(K.MAXA),
            "hbuf": np.zeros(K.scratch_size(R), np.int64), "hrow": np.zeros(K.MAXA),
        }

    def run(self, ctx: dict[str, Any], tables: T.Tables, t0: int, t1: int, seed: int, cfg: np.ndarray) -> int:
        """Iterations ``t0 .. t1 - 1`` into ``tables``; returns the next iteration (earlier when the tables need
        room)."""
        limit = int(T.MAX_LOAD * tables.capacity) - SLOTS_PER_ITERATION
        c = ctx
        return int(run_iterations(c["R"], tables.keys, tables.regret, tables.avg, tables.used, t0, t1,
                                  np.uint64(seed & (2**64 - 1)), cfg, limit, c["s"], c["rng"], c["acts"], c["cbuf"],
                                  c["sig"], c["q"], c["rets"], c["node_off"], c["node_n"], c["node_pick"],
                                  c["node_idx"], c["node_sig"], c["reach"], c["trace"], c["row"], c["which"],
                                  c["node_q"], tables.base, tables.visits, c["uhat"], c["H"], c["persona"],
                                  c["hacts"], c["hprobs"], c["hbuf"], c["hrow"]))


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
            return kern.from_history(path[::-1]).s.copy()

        out = [[state_of(v) for v in nodes] for nodes in groups]
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
