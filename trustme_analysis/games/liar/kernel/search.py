"""The Liar search player's worlds, its belief and a whole round of sequential halving, compiled (numba).

:meth:`Kernel.action_rollouts <trustme_analysis.games.liar.kernel.kernel.Kernel.action_rollouts>` calls
:func:`~.trained_rollouts.action_means`:
one compiled call deals the worlds, weighs them, applies each candidate move and plays every world out (the search
player's ``_kernel_worlds`` path, as in Pinocchio and 1981), where the Python path deals each world with
:func:`~trustme_analysis.games.liar.engine.worlds.resample`, weighs it with ``bots.belief`` and copies it into the kernel.

**Worlds.** :func:`world_plan` turns the Python sampler's plan of a position (``worlds._plan``: the cards the player
cannot place, the hidden plays and hands they go to, the piles picked up, what the others saw) into arrays once per
position; :func:`deal_world` then deals one world into a kernel state with the same steps, in the same order, as
``worlds.resample`` and ``Kernel.state_from``. Fed the same uniform numbers (:func:`unit`) the two give the same kernel
state, array for array (``tests/games/test_liar_kernel_search.py``), so the compiled worlds keep what the player saw and
are drawn with the Python sampler's distribution.

**The model of the others, sampled per world.** ``bots.opponent_knobs`` plays every other seat by its likeliest
explanation (the heuristic, an "always" or a "never" habit, for bluffing and for calling apart). Before a seat has
had a chance to call, that is the heuristic; in four-player Liar against three "always challenge" seats the search
player met its first start having seen only the seat after it call, judged a bluff as good as an honest play (that
seat was the only caller in its worlds), bluffed, and lost the start for good (2% of 60 games; 12% with these
compiled worlds and the likeliest model). Here each world draws every other seat's explanations from their posterior
(:func:`seat_posteriors`), so the worlds in which the unseen seats call too come up, and there a bluff loses
heavily (38% of the same games). The prior is *hierarchical*: with probability :data:`SHARED` the other seats share
one explanation (a line-up of one kind), else each has its own (``bots.EXPLANATIONS``' prior odds); the likelihoods
are ``bots.explain``'s binomials of what each seat was seen doing, so one seat seen calling every time makes the
others likelier callers too (measured: no difference against "always challenge" or the heuristic in 60 four-player
games each). A world's play-outs and its weight (``bots.belief``'s rules, with the drawn explanations' bluff rates)
follow the drawn model.

Randomness: one SplitMix64 stream per call (``compiled_draws``); every candidate move of a round is scored on
the same worlds (paired comparison).

numba caches a compiled function by its own file only; these functions inline the compiled core's, so
:func:`cfr.numba_cache.tie_cache_to_sources` keys their cache by the core's sources too (:data:`SOURCES`; else an edit there
would leave them running the old rules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from cfr.numba_cache import tie_cache_to_sources
from cfr.numba_borrowing import borrowing
from trustme_analysis.engine import compiled_draws
from trustme_analysis.games.liar.kernel import actions, deal, heuristic, layout, moves, play

#: The chance that the other seats share one explanation of their bluffing (and, apart, of their calling): a
#: line-up of one kind. The rest of the prior is ``bots.EXPLANATIONS``' odds, seat by seat.
SHARED = 0.5
#: Candidate worlds drawn per kept world when the belief weighs them (the search player's ``BELIEF_CANDIDATES``).
CANDIDATES = 8

# Explanation codes (the order of ``bots.EXPLANATIONS``).
HEURISTIC, ALWAYS, NEVER = 0, 1, 2
# Modes of a picked-up pile's hidden plays (``worlds._plan``): the player's own pickup, still in the picker's hand,
# since played on.
OWN, HAND, POOL = 0, 1, 2


# ------------------------------------------------------------------------------------------- the plan (Python)


@dataclass
class WorldPlan:
    """One position's plan for a player's worlds, as arrays (see :func:`world_plan`). A *hidden play* is another
    player's face-down play the world deals anew; they are numbered: the plays on the table and burned first (in the
    Python plan's slot order), then those of the piles picked up, pile by pile."""

    viewer: int
    pool: np.ndarray  # the cards the player cannot place, one entry per card
    fallback: np.ndarray  # every card not publicly discarded
    nslots: int  # hidden plays dealt straight from the deck (the first ``nslots`` ids)
    size: np.ndarray  # per hidden play: cards
    owner: np.ndarray
    announced: np.ndarray
    position: np.ndarray  # its index in the pile on the table, -1 if not there
    burned: np.ndarray  # 1 if burned
    credited: np.ndarray  # 1 if its false cards scored
    hand_seat: np.ndarray  # the other hands, in the plan's order
    hand_size: np.ndarray  # their unknown cards
    pick_mode: np.ndarray  # per picked-up pile: OWN, HAND or POOL
    pick_picker: np.ndarray
    pick_need: np.ndarray  # cards of its hidden plays
    pick_rest: np.ndarray  # the cards its hidden plays share (OWN), concatenated
    pick_rest_at: np.ndarray  # offsets into pick_rest, one more than the piles
    pick_first: np.ndarray  # the first hidden play id of each pile, one more than the piles
    known_holder: np.ndarray  # per (pile picked up, other seat that saw it): the picker
    known_seat: np.ndarray  # the seat that saw it
    known_shown: np.ndarray  # the turned-over cards, counts per value (one row each)
    known_plays: np.ndarray  # that seat's hidden plays of the pile, concatenated ids
    known_at: np.ndarray  # offsets into known_plays
    empty: bool  # no world to deal (the game is over or not dealt): worlds are the position itself


def world_plan(state, player: int) -> WorldPlan:
    """The arrays :func:`deal_world` deals ``player``'s worlds of ``state`` from (``worlds._plan``, once per
    position: the plan is kept on the state)."""
    from trustme_analysis.games.liar.engine.worlds import _plan

    t = state._table
    rules = state._rules
    values = rules.values
    i64 = np.int64
    if t.end or t.first < 0 or t.dealt < values:
        z = np.zeros(0, i64)
        return WorldPlan(player, z, z, 0, z, z, z, z, z, z, z, z, z, z, z, z, np.zeros(1, i64), np.zeros(1, i64),
                         z, z, np.zeros((0, values), i64), z, np.zeros(1, i64), True)
    plan = _plan(state, player)
    ids: dict[int, int] = {}
    order = [i for i, _ in plan.slots]
    for plays, *_ in plan.picked:
        order += [i for i, _ in plays]
    for i in order:
        ids[i] = len(ids)
    events = t.events
    current = {i: k for k, i in enumerate(plan.current)}
    burned = set(plan.burned)
    credited = set(plan.credited)
    rest, rest_at, first = [], [0], [len(plan.slots)]
    modes = {"own": OWN, "hand": HAND, "pool": POOL}
    for plays, mode, _, cards, _ in plan.picked:
        rest += cards
        rest_at.append(len(rest))
        first.append(first[-1] + len(plays))
    k_holder, k_seat, k_shown, k_plays, k_at = [], [], [], [], [0]
    for h, shown, seats in plan.known:
        counts = np.bincount(np.asarray(events[shown][3], dtype=i64), minlength=values)
        for q, plays in seats:
            k_holder.append(h)
            k_seat.append(q)
            k_shown.append(counts)
            k_plays += [ids[i] for i in plays]
            k_at.append(len(k_plays))
    return WorldPlan(
        viewer=player,
        pool=np.asarray(plan.pool, i64),
        fallback=np.asarray(plan.fallback, i64),
        nslots=len(plan.slots),
        size=np.asarray([len(events[i][3]) for i in order], i64),
        owner=np.asarray([plan.meta[i][0] for i in order], i64),
        announced=np.asarray([plan.meta[i][1] for i in order], i64),
        position=np.asarray([current.get(i, -1) for i in order], i64),
        burned=np.asarray([i in burned for i in order], i64),
        credited=np.asarray([i in credited for i in order], i64),
        hand_seat=np.asarray([h for h, _ in plan.hand_slots], i64),
        hand_size=np.asarray([s for _, s in plan.hand_slots], i64),
        pick_mode=np.asarray([modes[m] for _, m, _, _, _ in plan.picked], i64),
        pick_picker=np.asarray([p for _, _, p, _, _ in plan.picked], i64),
        pick_need=np.asarray([need for *_, need in plan.picked], i64),
        pick_rest=np.asarray(rest, i64),
        pick_rest_at=np.asarray(rest_at, i64),
        pick_first=np.asarray(first, i64),
        known_holder=np.asarray(k_holder, i64),
        known_seat=np.asarray(k_seat, i64),
        known_shown=np.asarray(k_shown, i64).reshape(len(k_shown), values),
        known_plays=np.asarray(k_plays, i64),
        known_at=np.asarray(k_at, i64),
        empty=False,
    )


def _plan_args(plan: WorldPlan) -> tuple:
    return (plan.pool, plan.fallback, plan.nslots, plan.size, plan.owner, plan.announced, plan.position, plan.burned,
            plan.credited, plan.hand_seat, plan.hand_size, plan.pick_mode, plan.pick_picker, plan.pick_need,
            plan.pick_rest, plan.pick_rest_at, plan.pick_first, plan.known_holder, plan.known_seat, plan.known_shown,
            plan.known_plays, plan.known_at)


# --------------------------------------------------------------------------------- the model of the others (Python)


@dataclass
class SeatPosterior:
    """The search player's posterior over every seat's explanations (:data:`HEURISTIC`, :data:`ALWAYS`,
    :data:`NEVER`), for bluffing (``trait`` 0) and calling (``trait`` 1): with probability ``shared[trait]`` the
    other seats share the explanation drawn from ``shared_probs[trait]``, else seat ``q``'s is drawn from
    ``own_probs[trait, q]``. The player's own seat is always the heuristic. ``bluff_rows`` / ``call_rows``
    (``[seat, explanation]``) are the heuristic knobs each explanation plays with (``bots.opponent_knobs``' rows),
    ``call_columns`` the knobs a calling explanation sets; ``rates[seat, explanation]`` the bluff rate the belief
    weighs a play with."""

    shared: np.ndarray  # (2,)
    shared_probs: np.ndarray  # (2, 3)
    own_probs: np.ndarray  # (2, n, 3)
    bluff_rows: np.ndarray  # (n, 3, knobs)
    call_rows: np.ndarray  # (n, 3, knobs)
    call_columns: np.ndarray  # (knobs,) 1 where the calling explanation sets the knob
    rates: np.ndarray  # (n, 3)


def seat_posteriors(state, player: int, shared: float | None = None) -> SeatPosterior:
    """The posterior of :class:`SeatPosterior` from what ``player`` saw in ``state`` (``bots.habits``), the
    explanations' prior odds and rates of ``bots.EXPLANATIONS`` (the heuristic's calls ``bots.HEURISTIC_CALLS`` over
    the player count, its false share ``bots.HEURISTIC_FALSE_SHARE``), and ``shared`` the prior chance of a line-up of
    one kind (None: :data:`SHARED`)."""
    from trustme_analysis.games.liar.players import bots
    from trustme_analysis.games.liar.players.heuristic import KNOB_NAMES, LiarKnobs

    shared = SHARED if shared is None else shared

    seen = bots.habits(state)
    n = seen.shape[0]
    base = LiarKnobs()
    col = {name: i for i, name in enumerate(KNOB_NAMES)}
    priors = np.array([prior for _, prior, _ in bots.EXPLANATIONS])
    heuristic_rate = (bots.HEURISTIC_FALSE_SHARE, bots.HEURISTIC_CALLS / n)
    # Evidence per trait: (hits, trials) per seat.
    evidence = ((seen[:, 0], seen[:, 0] + seen[:, 1]), (seen[:, 2], seen[:, 3]))
    others = [q for q in range(n) if q != player]
    shared_out = np.zeros(2)
    shared_probs = np.zeros((2, 3))
    own_probs = np.zeros((2, n, 3))
    own_probs[:, :, HEURISTIC] = 1.0
    rates_of = np.zeros((2, 3))
    for trait, (hits, trials) in enumerate(evidence):
        rates = np.array([heuristic_rate[trait] if r is None else r for _, _, r in bots.EXPLANATIONS])
        rates_of[trait] = rates
        loglik = np.array([[hits[q] * math.log(r) + (trials[q] - hits[q]) * math.log1p(-r) for r in rates]
                           for q in range(n)])
        # The line-up of one kind: prior(e) * prod over the other seats of their likelihood under e.
        one = np.log(priors) + loglik[others].sum(axis=0)
        # Seat by seat: prod over the other seats of sum over e of prior(e) * likelihood.
        own = np.log(priors) + loglik
        each = [np.logaddexp.reduce(own[q]) for q in others]
        log_one = math.log(shared) + np.logaddexp.reduce(one) if shared > 0 else -math.inf
        log_each = math.log1p(-shared) + sum(each) if shared < 1 else -math.inf
        top = max(log_one, log_each)
        shared_out[trait] = math.exp(log_one - top) / (math.exp(log_one - top) + math.exp(log_each - top))
        shared_probs[trait] = np.exp(one - one.max()) / np.exp(one - one.max()).sum()
        for q in others:
            own_probs[trait, q] = np.exp(own[q] - own[q].max()) / np.exp(own[q] - own[q].max()).sum()
    bluff_rows = np.tile(base.array(), (n, 3, 1))
    call_rows = np.tile(base.array(), (n, 3, 1))
    max_play = state.get_game().rules.max_play
    for q in range(n):
        for e in (ALWAYS, NEVER):
            row = bluff_rows[q, e]
            rate = rates_of[0, e]
            row[col["bluff_start"]] = row[col["bluff_rate"]] = rate
            row[col["burn_rate"]] = 1.0 - rate
            if e == ALWAYS:
                row[col["bluff_slack"]] = max_play
                row[col["bluff_max_pile"]] = 1_000_000
            row = call_rows[q, e]
            row[col["call_rate"]] = rates_of[1, e]
            row[col["call_threshold"]] = row[col["call_last_threshold"]] = 2.0  # above 1: never by the odds
    call_columns = np.zeros(len(KNOB_NAMES), np.int64)
    for name in ("call_rate", "call_threshold", "call_last_threshold"):
        call_columns[col[name]] = 1
    rates = np.tile(rates_of[0], (n, 1))
    rates[:, HEURISTIC] = base.assumed_bluff
    return SeatPosterior(shared_out, shared_probs, own_probs, bluff_rows, call_rows, call_columns, rates)


def _round_moves(state, player: int, values: int) -> tuple[np.ndarray, np.ndarray, int]:
    """What ``bots.belief`` reads of this round: the sizes of the pile's plays, the seats whose last move this round
    was a pass (not ``player``), and the round's value (-1 before the starter played)."""
    from trustme_analysis.games.liar.engine import events as ev

    table = state._table
    passed: dict[int, bool] = {}
    for event in reversed(table.events):
        if event[0] in (ev.LIAR, ev.BURN, ev.DISCARD):
            break
        if event[0] in (ev.PLAY, ev.PASS) and event[1] not in passed:
            passed[event[1]] = event[0] == ev.PASS
    sizes = np.asarray([len(cards) for _, _, cards, _ in table.pile], np.int64)
    passes = np.asarray([q for q, was in passed.items() if was and q != player], np.int64)
    return sizes, passes, int(table.round_value)


# ---------------------------------------------------------------------------------------------- compiled worlds


@borrowing()
def unit(rng):
    """A uniform double in [0, 1) from the stream ``rng`` (``compiled_draws.uniform01``: the top 53 bits of one output): the
    numbers a world is dealt with (the Python sampler's ``sampler()``)."""
    return compiled_draws.uniform01(rng)


@borrowing()
def _shuffle(buf, length, rng):
    """Shuffle ``buf[:length]`` in place as ``worlds.resample``'s ``shuffled`` does (Fisher-Yates, same numbers)."""
    for i in range(length - 1, 0, -1):
        j = min(np.int64(unit(rng) * (i + 1)), i)
        x = buf[i]
        buf[i] = buf[j]
        buf[j] = x


@borrowing()
def deal_world(cfg, S0, W, viewer, rng, pool, fallback, nslots, size, owner, announced, position, burned, credited,
               hand_seat, hand_size, pick_mode, pick_picker, pick_need, pick_rest, pick_rest_at, pick_first,
               known_holder, known_seat, known_shown, known_plays, known_at, counts, deck, source, drawn, drawn_len):
    """Deal one world of ``viewer`` into ``W`` from the position ``S0`` (``Kernel.state_from`` of the real state):
    ``Kernel.state_from(worlds.resample(state, viewer, sampler))`` when ``sampler`` gives the numbers of :func:`unit`.

    Scratch: ``counts`` (hidden plays x values), ``deck`` (the pool's length), ``source`` (pool plus fallback),
    ``drawn`` (seats x pool length) and ``drawn_len`` (seats). It allocates nothing (the trained rounds borrow their
    arrays, :mod:`~.trained_rollouts`): an array copy (``W[:] = S0``) would need a temporary, hence the loop."""
    n, values = cfg[N_], cfg[V_]
    for i in range(S0.shape[0]):
        W[i] = S0[i]
    u = pool.shape[0]
    for i in range(u):
        deck[i] = pool[i]
    _shuffle(deck, u, rng)
    counts[:, :] = 0
    at = 0
    for k in range(nslots):
        for i in range(at, at + size[k]):
            counts[k, deck[i]] += 1
        at += size[k]
    drawn_len[:] = 0
    hands, known = cfg[O_HANDS_], cfg[O_KNOWN_]
    for k in range(hand_seat.shape[0]):
        h = hand_seat[k]
        for v in range(values):
            W[hands + h * values + v] = S0[known + (viewer * n + h) * values + v]
        for i in range(hand_size[k]):
            c = deck[at + i]
            drawn[h, i] = c
            W[hands + h * values + c] += 1
        drawn_len[h] = hand_size[k]
        at += hand_size[k]
    # The piles picked up: their hidden plays share out what is known of them.
    for p in range(pick_mode.shape[0]):
        mode = pick_mode[p]
        length = 0
        if mode == OWN:
            for i in range(pick_rest_at[p], pick_rest_at[p + 1]):
                source[length] = pick_rest[i]
                length += 1
            _shuffle(source, length, rng)
        elif mode == HAND:
            h = pick_picker[p]
            length = drawn_len[h]
            for i in range(length):
                source[i] = drawn[h, i]
            _shuffle(source, length, rng)
            need = pick_need[p]
            for i in range(need, length):
                drawn[h, i - need] = source[i]
            drawn_len[h] = max(length - need, 0)
        else:
            for i in range(u):
                source[i] = deck[i]
            _shuffle(source, u, rng)
            length = u
            if length < pick_need[p]:
                f = fallback.shape[0]
                for i in range(f):
                    source[u + i] = fallback[i]
                _shuffle(source[u:], f, rng)
                length = u + f
        at = 0
        for k in range(pick_first[p], pick_first[p + 1]):
            for i in range(at, at + size[k]):
                counts[k, source[i]] += 1
            at += size[k]
    # The world's pile, burned cards, bluff points and what the others know.
    pseat, pcounts, pfalse = cfg[O_PSEAT_], cfg[O_PCOUNTS_], cfg[O_PFALSE_]
    burnby, false, start = cfg[O_BURNBY_], cfg[O_FALSE_], cfg[O_START_]
    for q in range(n):
        if q == viewer:
            continue
        W[false + q] = 0
        W[start + q] = 0  # the others' deals are forgotten
        for v in range(values):
            W[pseat + q * values + v] = 0
            W[burnby + q * values + v] = 0
        for h in range(n):
            for v in range(values):
                W[known + (q * n + h) * values + v] = 0
    last = S0[layout.S_PLEN] - 1
    for k in range(size.shape[0]):
        q = owner[k]
        wrong = size[k] - counts[k, announced[k]]
        if position[k] >= 0:
            W[pfalse + position[k]] = wrong
            for v in range(values):
                W[pseat + q * values + v] += counts[k, v]
            if position[k] == last:
                m = 0
                for v in range(values):
                    if counts[k, v] > 0:
                        W[cfg[O_LASTV_] + m] = v
                        W[cfg[O_LASTC_] + m] = counts[k, v]
                        m += 1
                W[layout.S_LASTN] = m
                for i in range(m, cfg[M_]):
                    W[cfg[O_LASTV_] + i] = 0
                    W[cfg[O_LASTC_] + i] = 0
        if burned[k]:
            for v in range(values):
                W[burnby + q * values + v] += counts[k, v]
        if credited[k]:
            W[false + q] += wrong
    for v in range(values):
        total = 0
        for q in range(n):
            total += W[pseat + q * values + v]
        W[pcounts + v] = total
    for e in range(known_seat.shape[0]):
        q, h = known_seat[e], known_holder[e]
        row = known + (q * n + h) * values
        for v in range(values):
            W[row + v] += known_shown[e, v]
        for i in range(known_at[e], known_at[e + 1]):
            for v in range(values):
                W[row + v] += counts[known_plays[i], v]


# numba reads these module-level integers as compile-time constants.
N_, V_, M_ = layout.N, layout.V, layout.M
O_HANDS_, O_KNOWN_, O_PSEAT_, O_PCOUNTS_, O_PFALSE_ = layout.O_HANDS, layout.O_KNOWN, layout.O_PSEAT, layout.O_PCOUNTS, layout.O_PFALSE
O_BURNBY_, O_FALSE_, O_START_, O_LASTV_, O_LASTC_ = layout.O_BURNBY, layout.O_FALSE, layout.O_START, layout.O_LASTV, layout.O_LASTC
O_PPLAYER_ = layout.O_PPLAYER


@njit(cache=True)
def _deal_scratch(cfg, pool, fallback, size, pick_rest):
    """The work arrays :func:`deal_world` deals into, sized for one position's plan: ``(counts, deck, source, drawn,
    drawn_len)``, allocated once per call of a dealing loop rather than once per world."""
    n, u = cfg[N_], pool.shape[0]
    counts = np.zeros((max(size.shape[0], 1), cfg[V_]), np.int64)
    deck = np.empty(max(u, 1), np.int64)
    source = np.empty(max(u + fallback.shape[0], max(pick_rest.shape[0], 1)), np.int64)
    drawn = np.empty((n, max(u, 1)), np.int64)
    drawn_len = np.zeros(n, np.int64)
    return counts, deck, source, drawn, drawn_len


@borrowing()
def world_weight(cfg, W, viewer, rates, always, sizes, passes, value):
    """``bots.belief``'s weight of the world ``W``: each other seat's play in the pile weighs its bluff rate
    (``rates[seat]``) if false, else one less it; a round started with no card of the value announced weighs
    ``bots.PURE_BLUFF_START`` more unless its starter is an "always" bluffer (``always[seat]``); a seat whose last
    move this round was a pass (``passes``) while the world gives it the round's value weighs ``bots.PASS_HOLDING``."""
    values = cfg[V_]
    w = 1.0
    for k in range(W[layout.S_PLEN]):
        q = W[cfg[O_PPLAYER_] + k]
        if q == viewer:
            continue
        wrong = W[cfg[O_PFALSE_] + k]
        w *= rates[q] if wrong > 0 else 1.0 - rates[q]
        if k == 0 and wrong == sizes[0] and always[q] == 0:
            w *= PURE_BLUFF_START
    if value >= 0:
        for i in range(passes.shape[0]):
            if W[cfg[O_HANDS_] + passes[i] * values + value] > 0:
                w *= PASS_HOLDING
    return w


@borrowing()
def _draw(probs, rng):
    """An index drawn with the probabilities ``probs`` (summing to 1)."""
    u = unit(rng)
    acc = 0.0
    for i in range(probs.shape[0] - 1):
        acc += probs[i]
        if u < acc:
            return i
    return probs.shape[0] - 1


@borrowing()
def sample_model(viewer, shared, shared_probs, own_probs, bluff_rows, call_rows, call_columns, rates_of, rng, knobs,
                 rates, always, picks):
    """Draw every other seat's explanations from the posterior (:class:`SeatPosterior`) into ``picks`` (seats x 2),
    and their knob rows (``knobs``), bluff rates (``rates``) and "always bluffer" flags (``always``)."""
    n = knobs.shape[0]
    for trait in range(2):
        if unit(rng) < shared[trait]:
            e = _draw(shared_probs[trait], rng)
            for q in range(n):
                picks[q, trait] = e
        else:
            for q in range(n):
                picks[q, trait] = _draw(own_probs[trait, q], rng)
        picks[viewer, trait] = HEURISTIC
    for q in range(n):
        eb, ec = picks[q, 0], picks[q, 1]
        for c in range(knobs.shape[1]):
            knobs[q, c] = call_rows[q, ec, c] if call_columns[c] else bluff_rows[q, eb, c]
        rates[q] = rates_of[q, eb]
        always[q] = 1 if eb == ALWAYS else 0


# Both rounds call it (this file's and trained_rollouts', which borrows: cfr.numba_borrowing), so it allocates
# nothing and copies with loops.
@borrowing()
def round_world(cfg, S0, W, viewer, rng, use_belief, dealt, candidates, pool, fallback, nslots, size, owner,
                announced, position, burned, credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need,
                pick_rest, pick_rest_at, pick_first, known_holder, known_seat, known_shown, known_plays, known_at,
                shared, shared_probs, own_probs, bluff_rows, call_rows, call_columns, rates_of, sizes, passes, value,
                counts, deck, source, drawn, drawn_len, cand, weights, knobs, rates, always, picks):
    """One world of a search round into ``W``: without ``use_belief`` a world of ``viewer`` dealt from ``S0`` (or
    ``S0`` itself when nothing is hidden, ``dealt`` false); with it, the others' model drawn into ``knobs`` (and
    ``rates``, ``always``, ``picks``), ``candidates`` worlds dealt into ``cand`` and one kept in proportion to
    :func:`world_weight` (uniformly when none weighs anything). The arguments from ``pool`` to ``value`` are
    :func:`round_inputs`' ``world``; the rest is scratch (:func:`_deal_scratch`, ``cand``/``weights`` one row and
    one entry per candidate)."""
    if not use_belief:
        if dealt:
            deal_world(cfg, S0, W, viewer, rng, pool, fallback, nslots, size, owner, announced, position, burned,
                       credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need, pick_rest, pick_rest_at,
                       pick_first, known_holder, known_seat, known_shown, known_plays, known_at, counts, deck,
                       source, drawn, drawn_len)
        else:
            for i in range(S0.shape[0]):
                W[i] = S0[i]
        return
    sample_model(viewer, shared, shared_probs, own_probs, bluff_rows, call_rows, call_columns, rates_of, rng,
                 knobs, rates, always, picks)
    total = 0.0
    for c in range(candidates):
        if dealt:
            deal_world(cfg, S0, cand[c], viewer, rng, pool, fallback, nslots, size, owner, announced, position,
                       burned, credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need, pick_rest,
                       pick_rest_at, pick_first, known_holder, known_seat, known_shown, known_plays, known_at, counts,
                       deck, source, drawn, drawn_len)
        else:
            for i in range(S0.shape[0]):
                cand[c, i] = S0[i]
        weights[c] = world_weight(cfg, cand[c], viewer, rates, always, sizes, passes, value)
        total += weights[c]
    if total > 0:
        for c in range(candidates):
            weights[c] /= total
        kept = _draw(weights[:candidates], rng)
    else:
        kept = min(np.int64(unit(rng) * candidates), candidates - 1)
    for i in range(S0.shape[0]):
        W[i] = cand[kept, i]


# The belief's weights (``bots``' constants, read here so that numba compiles them in).
def _belief_constants() -> tuple[float, float]:
    from trustme_analysis.games.liar.players import bots

    return bots.PURE_BLUFF_START, bots.PASS_HOLDING


PURE_BLUFF_START, PASS_HOLDING = _belief_constants()


# ------------------------------------------------------------------------------------------------ entry points


def _position_inputs(state, viewer: int, values: int) -> tuple:
    """The plan, the posterior and the round's moves of ``viewer``'s worlds of ``state``. A search player asks for
    them once per round of halving at one position: they are kept on the state for the position (every action adds
    an event, so the event count tells a later position) and the viewer, as ``worlds._plan`` keeps its plan."""
    key = (len(state._table.events), viewer)
    cached = getattr(state, "_search_inputs", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    sizes, passes, value = _round_moves(state, viewer, values)
    if sizes.shape[0] == 0:
        sizes = np.zeros(1, np.int64)
    inputs = (world_plan(state, viewer), seat_posteriors(state, viewer), (sizes, passes, value))
    state._search_inputs = (key, inputs)
    return inputs


def round_inputs(kernel, state, viewer: int, position: np.ndarray | None = None) -> tuple:
    """What a compiled round (:func:`~.trained_rollouts.action_rollouts_trained`) reads of ``viewer``'s worlds of the pyspiel ``state``
    (``position``: its kernel array, when the caller has it): ``(S0, candidates, plan, world)``, the kernel array,
    the candidate worlds dealt per kept world, the :class:`WorldPlan`, and the arguments from the plan's arrays to
    the round's moves (``pool`` ... ``value``) in the compiled round's order."""
    plan, post, (sizes, passes, value) = _position_inputs(state, viewer, kernel.rules.values)
    S0 = kernel.state_from(state).array if position is None else position
    # Where no world can weigh more than another (no other seat's play in the pile, no pass this round), the kept
    # world of several candidates is one uniform world: dealt once.
    others = any(owner != viewer for owner, _, _, _ in state._table.pile)
    candidates = CANDIDATES if others or (value >= 0 and passes.shape[0] > 0) else 1
    world = (*_plan_args(plan), post.shared, post.shared_probs, post.own_probs, post.bluff_rows, post.call_rows,
             post.call_columns, post.rates, sizes, passes, value)
    return S0, candidates, plan, world


@njit(cache=True)
def _deal_many(cfg, S0, viewer, count, seed, pool, fallback, nslots, size, owner, announced, position, burned,
               credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need, pick_rest, pick_rest_at, pick_first,
               known_holder, known_seat, known_shown, known_plays, known_at):
    size_s = S0.shape[0]
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    counts, deck, source, drawn, drawn_len = _deal_scratch(cfg, pool, fallback, size, pick_rest)
    out = np.empty((count, size_s), np.int64)
    for i in range(count):
        deal_world(cfg, S0, out[i], viewer, rng, pool, fallback, nslots, size, owner, announced, position, burned,
                   credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need, pick_rest, pick_rest_at,
                   pick_first, known_holder, known_seat, known_shown, known_plays, known_at, counts, deck, source,
                   drawn, drawn_len)
    return out


def deal_worlds(kernel, state, viewer: int, count: int, seed: int) -> np.ndarray:
    """``count`` worlds of ``viewer`` in ``state`` dealt in compiled code from one stream (``seed``), one kernel
    state array per row, unweighted (for tests: row ``i`` is ``Kernel.state_from(worlds.resample(...))`` fed the
    stream's numbers)."""
    plan = world_plan(state, viewer)
    S0 = kernel.state_from(state).array
    if plan.empty:
        return np.tile(S0, (count, 1))
    return _deal_many(kernel.cfg, S0, int(viewer), int(count), np.uint64(seed), *_plan_args(plan))


# These functions inline the core's; numba checks only this file (module docstring).
#: The sources these functions compile into their own code: every module of the compiled core and the draw primitives.
SOURCES = (layout, deal, actions, moves, heuristic, play, compiled_draws)
tie_cache_to_sources((unit, round_world, _deal_many, _deal_scratch, world_weight, sample_model),
                     *SOURCES)
