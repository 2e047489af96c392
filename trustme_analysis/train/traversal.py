"""The outcome-sampling MCCFR traversal, written once for every game over the compiled-game protocol below.

One iteration plays one game in a game's compiled rules and updates the tables of :mod:`.tables`, keyed by the
game's abstraction. The method is outcome-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling, "Monte Carlo
Sampling for Regret Minimization in Extensive Games", NeurIPS 2009) with alternating traversers:

- chance deals and draws by its own probabilities (so chance probabilities cancel out of every estimate);
- the traverser ``t mod players`` samples its row entry from ``eps * uniform + (1 - eps) * current strategy``; with
  ``eps = 1`` this is the robust sampling of Li et al. ("Double Neural Counterfactual Regret Minimization", ICLR
  2020) with one action, whose importance weights do not depend on the current strategy;
- the other seats play their current strategy, and their average strategy takes the visit (``averaging = 0``: weight
  1; ``averaging = 1``: the unbiased weight, the seat's reach over the sampling probability); with ``opponents =
  "average"`` they play their average strategy instead, which then averages the traverser's current strategies
  (fictitious play with regret matching as the best-response learner);
- at the end, each traverser decision ``k`` with sampled entry ``a`` gets ``W_k * ([b == a] - sigma_k(a))`` for each
  entry ``b``: ``W_k = u * T_k / Q`` (``weighting = "importance"``: ``u`` the traverser's return, ``Q`` the
  probability its own sampled entries had, ``T_k`` the product of its current-strategy probabilities after ``k``)
  or ``u * prod_{j > k} sigma_j / q_j / q_k`` (``"on_policy"``: bounded weights on a deep game); with a
  ``baseline`` (VR-MCCFR, Schmid et al., "Variance Reduction in Monte Carlo Counterfactual Regret Minimization",
  AAAI 2019) each entry's value is its running mean instead, the sampled one corrected by the sampled value;
- optional: ``prior`` (a row entry new to the table starts with the heuristic's probability of the moves it
  describes, ``prior`` visits' worth), ``shaping`` (the game's score margin added to the return as a denser
  signal), ``population`` (an opponent seat plays one of the game's personas for a whole game); DCFR discounting
  once per epoch.

Iteration ``t`` draws from a generator seeded by ``(seed, t)`` alone, so the tables after ``t`` iterations do not
depend on how the iterations were split into batches: a resumed training equals an uninterrupted one.

**The protocol.** A game hands :func:`run_iterations` its compiled functions (``numba`` dispatchers, each taken as
an argument, so numba compiles one specialisation per game with every call inlined; numba pull request 6373 made
such functions cacheable). ``G`` is the game's own tuple of arrays (its rules and the scratch its functions use),
``s`` its state array; the traversal reads nothing else of either:

- ``start(G, s, rng)``: ``s`` becomes a new game's start (draws allowed);
- ``to_move(G, s) -> int``: the seat to act, :data:`CHANCE` or :data:`TERMINAL`;
- ``chance(G, s, rng)``: one chance outcome drawn by its probability, applied;
- ``legal(G, s, acts) -> int``: the legal moves into ``acts`` (a game whose row reads the state alone may return 0);
- ``row(G, s, p, acts, na, row, which, detail, hrow) -> int``: seat ``p``'s row, its ``nu`` table keys into
  ``row``, each legal move's entry into ``which``, the heuristic's probability of each entry into ``hrow``;
- ``play(G, s, p, acts, na, which, u, detail, rng) -> int``: the concrete move that row entry ``u`` stands for;
- ``apply(G, s, a)``: move ``a`` applied;
- ``returns(G, s, out)``: every seat's return into ``out``;
- ``margin(G, s, i) -> float``: seat ``i``'s score margin (``shaping``);
- ``persona(G, s, p, kind, rng) -> int``: persona ``kind`` (1 ..)'s move (``population``).

A game's training module wraps :func:`run_iterations` in its own cached compiled function that passes its
functions (so the cache lives with the game and is tied to its sources); this module is compiled only inside them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from trustme_analysis.engine.compiled_draws import below, uniform01
from trustme_analysis.train import tables as T

#: What ``to_move`` answers when chance moves or the game is over (OpenSpiel's values).
CHANCE, TERMINAL = -1, -4
#: Settings vector offsets (float64; :func:`trustme_analysis.train.driver.config_vector`).
(C_EPSILON, C_AVERAGING, C_EPOCH, C_ALPHA, C_BETA, C_GAMMA, C_DETAIL, C_WEIGHTING, C_BASELINE, C_SHAPING, C_PRIOR,
 C_POPULATION, C_OPPONENTS) = range(13)
CONFIG_SIZE = 13

#: Compiled only inside a game's cached wrapper (see the module docstring), where numba inlines it.
generic = njit(cache=False, inline="always")


@njit(cache=False, inline="always")
def pick(probs, n, u):
    """The index drawn by uniform ``u`` walking ``probs[:n]`` (the last positive one if rounding runs past)."""
    last = 0
    for j in range(n):
        if probs[j] > 0.0:
            last = j
            if u < probs[j]:
                return j
            u -= probs[j]
    return last


@generic
def run_iterations(start, to_move, chance, legal, row_of, play, apply, returns, margin, persona, G, s, consts,
                   tables, t0, t1, seed, cfg, limit, nodes, scratch):
    """Iterations ``t0 .. t1 - 1`` of the game whose protocol functions come first (the module docstring) into
    ``tables`` (``keys, regret, avg, used, base, visits`` of :class:`~.tables.Tables`); returns the next iteration
    to run, earlier than ``t1`` when the table's ``used`` count passed ``limit`` (the caller grows it and goes on).

    ``consts``: the players, the game's constant in each iteration's seed, how many personas ``persona`` plays, and
    the score margin per unit of the shaped return. ``nodes``: the traverser decisions' buffers (``off, n, pick, q``
    per decision, ``idx, sig`` per row entry); ``scratch``: ``rng, acts, sig, q, rets, idx, reach, row, which, hrow,
    uhat, kind`` (a row's or a seat's worth each). The arrays are grouped so that a call stays under the 30 arguments
    past which Python passes them as one tuple (numba then calls the functions through pointers, uncached)."""
    n, salt, personas, margin_scale = consts
    keys, regret, avg, used, base, visits = tables
    node_off, node_n, node_pick, node_q, node_idx, node_sig = nodes
    rng, acts, sig, q, rets, idx, reach, row, which, hrow, uhat, kind = scratch
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
        rng[0] = T.mix64(np.uint64(seed) ^ T.mix64(np.uint64(t) + np.uint64(salt)))
        for r in range(n):
            kind[r] = 0
            # Draws only when asked for, so that a training without personas keeps its generator's stream.
            if population > 0.0 and r != i and uniform01(rng) < population:
                kind[r] = 1 + below(rng, personas)
        start(G, s, rng)
        Q = 1.0
        for r in range(n):
            reach[r] = 1.0
        m = 0
        e = 0
        while True:
            p = to_move(G, s)
            if p == TERMINAL:
                break
            if p == CHANCE:
                chance(G, s, rng)
                continue
            if kind[p] > 0:
                # A persona seat plays its fixed strategy and learns nothing (its probabilities cancel out of the
                # traverser's estimates like any opponent's).
                apply(G, s, persona(G, s, p, kind[p], rng))
                continue
            na = legal(G, s, acts)
            nu = row_of(G, s, p, acts, na, row, which, detail, hrow)
            # (the buffers hold far more than a game; a decision that would not fit is played, not updated)
            record = p == i and e + nu <= node_idx.shape[0] and m < node_off.shape[0]
            for u in range(nu):
                before = used[0]
                idx[u] = T.insert(keys, used, row[u])
                if used[0] != before and prior > 0.0:
                    # The heuristic prior: a new entry starts as the heuristic plays it, ``prior`` visits' worth,
                    # and leaves it only as far as its sampled regrets say.
                    regret[idx[u]] = prior * hrow[u]
                    avg[idx[u]] = prior * hrow[u]
            T.regret_matching(regret, idx, nu, sig)
            x = uniform01(rng)
            if p == i:
                for u in range(nu):
                    q[u] = eps / nu + (1.0 - eps) * sig[u]
                u = pick(q, nu, x)
                if fictitious:
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
                    u = pick(q, nu, x)
                else:
                    u = pick(sig, nu, x)
            else:
                w = 1.0
                if unbiased:
                    w = 1.0 / Q
                    for r in range(n):
                        if r != i and r != p:
                            w /= reach[r]
                for b in range(nu):
                    avg[idx[b]] += w * sig[b]
                u = pick(sig, nu, x)
                reach[p] *= sig[u]
            apply(G, s, play(G, s, p, acts, na, which, u, detail, rng))
        returns(G, s, rets)
        ui = rets[i]
        if shaping > 0.0:
            # The score margin as a second, denser signal (a point changes it, a win changes the other).
            ui += shaping * margin(G, s, i) / margin_scale
        if baseline:
            # VR-MCCFR: each entry's value is its baseline, the sampled entry's corrected by the sampled value over
            # its sampling probability; the decision's value (the strategy's mean of them) is what the decision
            # before it sampled. The baseline of the sampled entry then takes the sampled value into its mean.
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
        else:
            tail = 1.0
            ratio = 1.0  # product of sigma / q over the traverser's decisions after k (on-policy weighting)
            for k in range(m - 1, -1, -1):
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


def tables_of(tables: T.Tables) -> tuple:
    """The arrays of ``tables`` as :func:`run_iterations` takes them."""
    return tables.keys, tables.regret, tables.avg, tables.used, tables.base, tables.visits


def node_buffers(decisions: int, entries: int) -> tuple:
    """The traverser decisions' buffers for :func:`run_iterations`: ``decisions`` decisions of a game, ``entries``
    row entries in all."""
    return (np.zeros(decisions, np.int64), np.zeros(decisions, np.int64), np.zeros(decisions, np.int64),
            np.zeros(decisions), np.zeros(entries, np.int64), np.zeros(entries))


def scratch(row_size: int, players: int) -> tuple:
    """The scratch of :func:`run_iterations` for rows of at most ``row_size`` entries and ``players`` seats."""
    return (np.zeros(1, np.uint64), np.zeros(row_size, np.int64), np.zeros(row_size), np.zeros(row_size),
            np.zeros(players), np.zeros(row_size, np.int64), np.zeros(players), np.zeros(row_size, np.int64),
            np.zeros(row_size, np.int64), np.zeros(row_size), np.zeros(row_size), np.zeros(players, np.int64))


def infoset_histories(cg, every: bool = False) -> list[list[list[int]]]:
    """The histories (action lists from the root) of the compiled tree ``cg``'s information sets, in information-set
    order: each set's first history, or with ``every`` all of them (a trainer's ``tree_states`` turns each into its
    kernel state for the exact evaluators)."""
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

    def history(node: int) -> list[int]:
        path = []
        while parent[node] >= 0:
            path.append(int(action[node]))
            node = int(parent[node])
        return path[::-1]

    return [[history(v) for v in nodes] for nodes in groups]
