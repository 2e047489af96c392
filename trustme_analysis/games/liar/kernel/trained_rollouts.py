"""The Liar kernel's rollouts, one loop for every line-up: play-outs of a position (:func:`rollouts_trained`) and a
search player's round of sequential halving (:func:`action_rollouts_trained`, every candidate action played out from
the same worlds).

The play-out (:func:`play_out_trained`): every seat of kind :data:`~.trained.TRAINED` plays the stored policy's row at
the position (:func:`~.trained.trained_action`, the trained seat of whole games; the kernel hands an empty table when
no seat is trained), the others their own kind. The worlds are dealt, weighed and drawn by
:func:`~.search.round_world` (the plan, the posterior, the numbers of the one stream). One play-out from the start
with seed ``s`` is the kernel's whole game of seed ``s`` (:func:`~.trained.play_games`: the same draws in the same
order). The untrained copies of these loops (``play.rollouts``, ``search.action_rollouts``) are gone: with no trained
seat these gave their returns bit for bit.

Why: a search player over the trained policy is the stronger line-up a report weighs its trained headline against
("has it stopped moving?"); its play-outs must be as cheap as the trained seat's whole games, so they stay compiled.

The compiled functions borrow their arrays (:func:`cfr.numba_borrowing.borrowing`: no reference counts, so they
allocate nothing): their scratch is allocated by the Python callers, once a call. numba caches a compiled function by its own file only; these inline the compiled core's, the trained seat's,
the search worlds' and the policy tables', so their cache is keyed by those sources too.
"""

from __future__ import annotations

import sys

import numpy as np

from cfr.numba_borrowing import borrowing
from cfr.numba_cache import tie_cache_to_sources
from trustme_analysis.games.liar.kernel import abstraction as A
from trustme_analysis.games.liar.kernel import heuristic, layout, search
from trustme_analysis.games.liar.kernel import trained as TR
from trustme_analysis.games.liar.kernel.deal import apply_chance, sample_chance
from trustme_analysis.games.liar.kernel.layout import CHANCE, ERR_NO_ACTION, N, TERMINAL, current_player
from trustme_analysis.games.liar.kernel.moves import apply_player_action, results
from trustme_analysis.games.liar.kernel.play import apply_checked
from trustme_analysis.games.liar.kernel.search import _deal_scratch, round_world
from trustme_analysis.games.liar.kernel.trained import _choose
from trustme_analysis.train import tables as T


@borrowing()
def play_out_trained(cfg, tab, S, rng, kinds, knobs, hbuf, tkeys, tavg, detail, row, descs, probs, scratch):
    """Play ``S`` to the end: chance by the draw protocol, trained seats by the policy ``tkeys``/``tavg`` at level
    ``detail``, heuristic seats with their row of ``knobs`` (``hbuf``: the heuristic's scratch), random seats
    uniformly; the same draws, in the same order, as :func:`~.trained.play_games`.
    The arguments after ``detail`` are scratch owned by the caller. Returns 0, or :data:`~.layout.ERR_NO_ACTION`
    when a seat to act had no legal action."""
    while True:
        p = current_player(cfg, S)
        if p == TERMINAL:
            return 0
        if p == CHANCE:
            apply_chance(cfg, tab, S, sample_chance(cfg, tab, S, rng))
        else:
            a = _choose(cfg, tab, S, rng, kinds, knobs, tkeys, tavg, detail, row, descs, probs, scratch, hbuf)
            if a < 0:
                return ERR_NO_ACTION
            apply_player_action(cfg, tab, S, a)


@borrowing()
def rollouts_trained(cfg, tab, S0, count, seed, kinds, knobs, out, S, rng, ranks, points_ranks, rets, hbuf, tkeys,
                     tavg, detail, row, descs, probs, scratch):
    """``count`` play-outs of position ``S0`` (one SplitMix64 stream
    seeded with ``seed``), their returns added into ``out`` (one entry per seat). ``S`` (a state), ``rng`` (one
    entry), ``ranks``/``points_ranks``/``rets`` (one per seat) and the arguments after ``hbuf`` are scratch owned by
    the caller. Returns 0, or :data:`~.layout.ERR_NO_ACTION`."""
    rng[0] = seed
    n = cfg[N]
    for _ in range(count):
        for i in range(S0.shape[0]):
            S[i] = S0[i]
        error = play_out_trained(cfg, tab, S, rng, kinds, knobs, hbuf, tkeys, tavg, detail, row, descs, probs,
                                 scratch)
        if error:
            return error
        results(cfg, S, ranks, points_ranks, rets)
        for p in range(n):
            out[p] += rets[p]
    return 0


@borrowing()
def action_rollouts_trained(cfg, tab, S0, viewer, actions, worlds, per_world, seed, use_belief, candidates, kinds,
                            pool, fallback, nslots, size, owner, announced, position, burned, credited, hand_seat,
                            hand_size, pick_mode, pick_picker, pick_need, pick_rest, pick_rest_at, pick_first,
                            known_holder, known_seat, known_shown, known_plays, known_at, shared, shared_probs,
                            own_probs, bluff_rows, call_rows, call_columns, rates_of, sizes, passes, value, out,
                            rng, counts, deck, source, drawn, drawn_len, cand, weights, W, S, knobs, hbuf, rates,
                            always, picks, ranks, points_ranks, rets, tkeys, tavg, detail, row, descs, probs,
                            scratch):
    """A round of the search player's halving, every action of
    ``actions`` scored on the same ``worlds`` worlds of ``viewer`` (dealt, weighed and kept as there, from one stream
    seeded with ``seed``), ``per_world`` play-outs each by :func:`play_out_trained`, the returns added into ``out``
    (actions x seats). The arguments from ``pool`` to ``value`` are :func:`~.search.round_inputs`' ``world``; those
    after ``out`` are scratch owned by the caller: ``knobs`` holds the heuristic seats' knobs (the kernel's, when
    ``use_belief`` is off; else each world's drawn model overwrites them) and the rest is sized as
    the Python caller allocates it. Returns 0, or :data:`~.layout.ERR_NO_ACTION`."""
    n = cfg[N]
    rng[0] = seed
    dealt = pool.shape[0] > 0 or size.shape[0] > 0 or hand_seat.shape[0] > 0
    for _ in range(worlds):
        round_world(cfg, S0, W, viewer, rng, use_belief, dealt, candidates, pool, fallback, nslots, size, owner,
                    announced, position, burned, credited, hand_seat, hand_size, pick_mode, pick_picker, pick_need,
                    pick_rest, pick_rest_at, pick_first, known_holder, known_seat, known_shown, known_plays, known_at,
                    shared, shared_probs, own_probs, bluff_rows, call_rows, call_columns, rates_of, sizes, passes,
                    value, counts, deck, source, drawn, drawn_len, cand, weights, knobs, rates, always, picks)
        for j in range(actions.shape[0]):
            for _ in range(per_world):
                for i in range(S0.shape[0]):
                    S[i] = W[i]
                if not apply_checked(cfg, tab, S, actions[j]):
                    return ERR_NO_ACTION
                error = play_out_trained(cfg, tab, S, rng, kinds, knobs, hbuf, tkeys, tavg, detail, row, descs,
                                         probs, scratch)
                if error:
                    return error
                results(cfg, S, ranks, points_ranks, rets)
                for p in range(n):
                    out[j, p] += rets[p]
    return 0


# ------------------------------------------------------------------------------------------------ entry points


def _trained_args(kernel) -> tuple:
    """The kernel's policy (lookup keys, average strategy, abstraction level) and its rows' scratch, in the order
    :func:`~.trained.trained_action` takes them."""
    tkeys, tavg, detail, sc = kernel._policy
    return tkeys, tavg, int(detail), sc["row"], sc["descs"], sc["probs"], sc["scratch"]


def rollouts(kernel, S0: np.ndarray, count: int, seed: int, knobs: np.ndarray) -> tuple[np.ndarray, int]:
    """Mean returns (one per seat) of ``count`` play-outs of the kernel array ``S0`` by ``kernel``'s seats, trained
    seats by its policy, heuristic seats with ``knobs`` (a row per seat), and the error code (0, or
    :data:`~.layout.ERR_NO_ACTION`)."""
    n = int(kernel.cfg[N])
    out = np.zeros(n, np.float64)
    error = rollouts_trained(kernel.cfg, kernel.tab, S0, int(count), np.uint64(seed), kernel._kinds, knobs, out,
                             np.empty(S0.shape[0], np.int64), np.zeros(1, np.uint64), np.empty(n), np.empty(n),
                             np.empty(n), heuristic.new_buffer(kernel.cfg, knobs), *_trained_args(kernel))
    return out / max(int(count), 1), int(error)


def action_means(kernel, state, actions, worlds: int, per_world: int, seed: int, viewer: int, belief: bool = True,
                 position: np.ndarray | None = None) -> np.ndarray:
    """With ``kernel``'s seats (trained ones playing its policy), the mean returns
    (``len(actions) x players``) of each of ``actions`` over the same ``worlds`` worlds of ``viewer`` in the pyspiel
    ``state``, ``per_world`` play-outs each (one compiled call)."""
    cfg = kernel.cfg
    n = kernel.rules.players
    S0, candidates, plan, world = search.round_inputs(kernel, state, viewer, position)
    acts = np.ascontiguousarray(actions, dtype=np.int64)
    out = np.zeros((len(acts), n), np.float64)
    size_s = S0.shape[0]
    # The round's scratch, sized for its deal (search._deal_scratch).
    counts, deck, source, drawn, drawn_len = _deal_scratch(cfg, plan.pool, plan.fallback, plan.size, plan.pick_rest)
    error = action_rollouts_trained(
        cfg, kernel.tab, S0, int(viewer), acts, int(worlds), int(per_world), np.uint64(seed), bool(belief),
        candidates, kernel._kinds, *world, out, np.zeros(1, np.uint64), counts, deck, source, drawn, drawn_len,
        np.empty((max(candidates, 1), size_s), np.int64), np.empty(max(candidates, 1)), np.empty(size_s, np.int64),
        np.empty(size_s, np.int64), kernel._seat_knobs.copy(),
        # (sized for any knobs: a drawn model's knobs change from world to world)
        np.zeros(heuristic.buffer_entries(cfg, cfg[layout.V] - 1), np.int64), np.zeros(n), np.zeros(n, np.int64),
        np.zeros((n, 2), np.int64), np.empty(n), np.empty(n), np.empty(n), *_trained_args(kernel))
    if error:
        raise RuntimeError("a move searched is not legal in a world, or a seat to act had no legal action")
    return out / max(int(worlds) * int(per_world), 1)


tie_cache_to_sources((play_out_trained, rollouts_trained, action_rollouts_trained), sys.modules[__name__],
                     *search.SOURCES, search, A, T, TR)
