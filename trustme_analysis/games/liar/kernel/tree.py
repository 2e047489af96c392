"""Compile a ``trustme_liar`` variant's game tree from the compiled kernel: the kernel producer of :mod:`cfr.compile`.

The pyspiel producer (:func:`cfr.compile_game`) walks the tree through the engine's Python API; this one enumerates
the same histories in compiled code (:func:`enumerate_tree`) and hands the same depth-first preorder
record to :func:`cfr.build.from_preorder`, so the result is the same :class:`~cfr.tree.CompiledGame`, array for array
(``tests/games/test_liar_kernel_tree.py`` checks it on the reduced variants of the reports).

Information sets come out of the enumeration as ids (a trie of what each player saw, see below); their
information-state strings are built by the engine, on request, by replaying one history of each information set
found in the finished tree (:class:`cfr.engine_keys.EngineKeys`), so the strings are the engine's own and the
compiled tree keeps no table of paths.

Memory: the enumerator returns its record in buffers up to twice the size needed; each is cut to size before the
finisher runs, so the finisher starts from the exact record (23 bytes per history). The compile peak is then the
enumerator's own (its trie and growing buffers, up to ~85 bytes per history, ``benchmarks/solve_scale.py``).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel
from numba import njit

import cfr.trie as _trie
from cfr.numba_cache import tie_cache_to_sources
from cfr.tree import DEFAULT_MAX_HISTORIES, CompiledGame
from cfr.trie import (
    check_max_histories,
    doubled,
    filled_to,
    finish_tree,
    new_record,
    new_trie,
    resolve_view,
    trie_grow,
)
from trustme_analysis.engine import compiled_draws
from trustme_analysis.games.liar.kernel import actions, deal, layout, moves
from trustme_analysis.games.liar.engine.game import LiarGame

# ------------------------------------------------------------------------------------------- the whole game tree
#
# Enumerating every history for the CFR compiler, stepping the compiled core's state (:mod:`.layout`). Each player's information state is kept as
# a node of one trie of observation *tokens*: the path from the player's root spells what the player saw, so equal
# nodes <=> equal views. Tokens are ``kind + TK_KINDS * payload``; each event gives a fixed number of tokens
# determined by the earlier ones, so the token sequence is decodable and two different views give different nodes.
# Events that follow from earlier public ones (a fixed first player, a seat going out, the turn cap) and the hand
# (own deal, discards, own plays and pickups give it) add no token. The trie itself and the growing buffers are
# :mod:`cfr.trie`'s; the enumerator's cache is tied to both files' source (end of this module).

TK_DEAL, TK_DISC, TK_PLAY, TK_OWN, TK_PASS, TK_LIAR, TK_TAKE, TK_BURN, TK_FIRST = range(9)
TK_KINDS = 16


#: :func:`_enumerate_run`'s answers: done, too many histories, a buffer to grow before it goes on.
_RUN_DONE, _RUN_TOO_MANY, _RUN_GROW = 0, 1, 2
#: Slots of the enumeration's resumable position (``st``): depth, the action and probability that reached the node
#: at that depth (``stf[0]``), histories, children stacked, terminals, information sets, whether ``S`` holds the
#: position at that depth unchanged since it was recorded.
_ST_D, _ST_ACT, _ST_COUNT, _ST_TOP, _ST_NTERM, _ST_NINFO, _ST_FRESH = range(7)


@njit(cache=True)
def enumerate_tree(cfg, tab, splits, max_histories):
    """Every history of the variant in depth-first preorder, children in the engine's order.

    Returns ``(code, depth, player, infoset, action, chance_prob, terminal_returns, first_history)``: ``code`` is 0,
    or 1 if the tree has more than ``max_histories`` histories; ``infoset`` ids are numbered by first appearance;
    ``terminal_returns`` holds the returns of each terminal in preorder; ``first_history[m]`` is the first history
    of information set ``m`` (its key is built from there).

    The walk itself is :func:`_enumerate_run`, which works in buffers of fixed size and stops, resumable, when one is
    full: this loop doubles that buffer and resumes it. Growing the buffers out here keeps the walk free of array
    variables reassigned in its loop (each costs numba reference counting on every history).
    """
    n, values = cfg[layout.N], cfg[layout.V]
    size = cfg[layout.SIZE]
    maxd = values + cfg[layout.MAXT] + 2
    S = np.empty(size, dtype=np.int64)
    layout.init_state(cfg, S)
    # states[d * size:(d + 1) * size]: the position at depth d of the current path, kept for nodes with more than
    # one child (the walk applies each move to S, copied from there).
    states = np.empty((maxd + 2) * size, dtype=np.int64)
    # view[d, p]: player p's trie node after the first d moves of the current path, or -1 while not yet looked up;
    # toks[d, p, :ntok[d, p]]: the tokens the d-th move adds to p's view. A view is looked up (the trie walked) only
    # when p is about to act, so the views at the leaves and of players who never act again cost nothing.
    view = np.full((maxd + 1, n), -1, dtype=np.int64)
    for p in range(n):
        view[0, p] = p  # trie roots: one per player
    tkmax = 1 + max(n, values)  # a deal and every seat's discards; a call and the pile's counts
    toks = np.zeros((maxd + 1, n, tkmax), dtype=np.int64)
    ntok = np.zeros((maxd + 1, n), dtype=np.int64)
    last_play = np.full(maxd + 1, -1, dtype=np.int64)
    dealt = np.zeros((n, values), dtype=np.int64)
    trie, used, node_info, first = new_trie(n)
    r_depth, r_player, r_info, r_action, r_prob, rets = new_record(n)
    # The children of the nodes on the current path, stacked: depth d's list is kids[kstart[d]:kstart[d]+kcount[d]].
    # A node has at most max(seats, splits, 3 + multisets * values) children, so the stack has a fixed size.
    kmax = max(n, deal.split_count(cfg, tab), 3 + tab[cfg[layout.T_OFFS] + cfg[layout.M] + 1] * values)
    kids = np.empty((maxd + 2) * kmax, dtype=np.int64)
    kprob = np.empty((maxd + 2) * kmax, dtype=np.float64)
    kstart = np.zeros(maxd + 2, dtype=np.int64)
    kcount = np.zeros(maxd + 2, dtype=np.int64)
    knext = np.zeros(maxd + 2, dtype=np.int64)
    curs = np.zeros(maxd + 2, dtype=np.int64)
    ranks = np.empty(n, dtype=np.float64)
    pranks = np.empty(n, dtype=np.float64)
    ret = np.empty(n, dtype=np.float64)
    st = np.zeros(7, dtype=np.int64)
    st[_ST_ACT] = -1
    st[_ST_FRESH] = 1
    stf = np.ones(1, dtype=np.float64)
    while True:
        code = _enumerate_run(cfg, tab, splits, max_histories, st, stf, S, states, view, toks, ntok, last_play, dealt,
                              trie, used, node_info, first, r_depth, r_player, r_info, r_action, r_prob, rets, kids,
                              kprob, kstart, kcount, knext, curs, ranks, pranks, ret)
        if code != _RUN_GROW:
            break
        count, nterm, num_info, d = st[_ST_COUNT], st[_ST_NTERM], st[_ST_NINFO], st[_ST_D]
        if count >= r_depth.shape[0]:
            r_depth, r_player = doubled(r_depth, count), doubled(r_player, count)
            r_info, r_action, r_prob = doubled(r_info, count), doubled(r_action, count), doubled(r_prob, count)
        if nterm >= rets.shape[0]:
            rets = doubled(rets, nterm)
        if num_info >= first.shape[0]:
            first = doubled(first, num_info)
        if used[1] * 2 + 2 * tkmax * (d + 1) > trie.shape[0]:
            trie = trie_grow(trie)
        node_info = filled_to(node_info, used[0] + tkmax * (d + 1) - 1, -1)
    if code == _RUN_TOO_MANY:
        return 1, r_depth[:0], r_player[:0], r_info[:0], r_action[:0], r_prob[:0], rets[:0], first[:0]
    count, nterm, num_info = st[_ST_COUNT], st[_ST_NTERM], st[_ST_NINFO]
    return (0, r_depth[:count], r_player[:count], r_info[:count], r_action[:count], r_prob[:count], rets[:nterm],
            first[:num_info])


@njit(cache=True)
def _enumerate_run(cfg, tab, splits, max_histories, st, stf, S, states, view, toks, ntok, last_play, dealt, trie,
                   used, node_info, first, r_depth, r_player, r_info, r_action, r_prob, rets, kids, kprob, kstart,
                   kcount, knext, curs, ranks, pranks, ret):
    """The walk of :func:`enumerate_tree` from the position saved in ``st``/``stf`` (``S`` the position at depth
    ``st[_ST_D]``, to be recorded); returns ``_RUN_GROW`` (the position saved again) before a node that a buffer has
    no room for, ``_RUN_TOO_MANY`` past ``max_histories``, ``_RUN_DONE`` at the end."""
    n, values = cfg[layout.N], cfg[layout.V]
    size = cfg[layout.SIZE]
    tkmax = toks.shape[2]
    d, act, count, top = st[_ST_D], st[_ST_ACT], st[_ST_COUNT], st[_ST_TOP]
    nterm, num_info, fresh = st[_ST_NTERM], st[_ST_NINFO], st[_ST_FRESH]
    prob = stf[0]
    while True:
        # --- record the node at depth d (reached by `act` with `prob`) and list its children
        if count >= max_histories:
            return _RUN_TOO_MANY
        cur = layout.current_player(cfg, S)
        if (count >= r_depth.shape[0] or (cur == layout.TERMINAL and nterm >= rets.shape[0])
                or (cur >= 0 and (num_info >= first.shape[0] or used[1] * 2 + 2 * tkmax * (d + 1) > trie.shape[0]
                                  or used[0] + tkmax * (d + 1) > node_info.shape[0]))):
            st[_ST_D], st[_ST_ACT], st[_ST_COUNT], st[_ST_TOP] = d, act, count, top
            st[_ST_NTERM], st[_ST_NINFO], st[_ST_FRESH] = nterm, num_info, fresh
            stf[0] = prob
            return _RUN_GROW
        r_depth[count] = d
        r_action[count] = act
        r_prob[count] = prob
        kstart[d] = top
        knext[d] = 0
        k = 0
        if cur == layout.TERMINAL:
            r_player[count] = -1
            r_info[count] = -1
            moves.results(cfg, S, ranks, pranks, ret)
            for q in range(n):
                rets[nterm, q] = ret[q]
            nterm += 1
        elif cur == layout.CHANCE:
            r_player[count] = n
            r_info[count] = -1
            k = deal.write_chance(cfg, tab, S, kids, kprob, top)
        else:
            r_player[count] = cur
            node = resolve_view(trie, used, view, toks, ntok, d, cur)
            m = node_info[node]
            if m < 0:
                m = num_info
                node_info[node] = m
                first[m] = count
                num_info += 1
            r_info[count] = m
            extras, announced, plays = actions.legal_shape(cfg, S, cur)
            if plays:
                actions.fill_hand_table(cfg, S, cur)
            k = actions.write_legal(cfg, tab, S, cur, extras, announced, plays, kids, top)
            for q in range(top, top + k):
                kprob[q] = 1.0
        kcount[d] = k
        top += k
        curs[d] = cur
        if k > 1:
            # Kept for the later children (S becomes the first child's position).
            base = d * size
            for q in range(size):
                states[base + q] = S[q]
        fresh = 1
        count += 1
        # --- the next node in preorder: the next unvisited child of the deepest node that has one
        while d >= 0 and knext[d] >= kcount[d]:
            top = kstart[d]
            d -= 1
            fresh = 0
        if d < 0:
            break
        j = kstart[d] + knext[d]
        knext[d] += 1
        act = kids[j]
        prob = kprob[j]
        if not fresh:
            base = d * size
            for q in range(size):
                S[q] = states[base + q]
        cur = curs[d]
        last_play[d + 1] = last_play[d]
        for p in range(n):
            view[d + 1, p] = -1
        if cur == layout.CHANCE and S[layout.S_FIRST] < 0:
            # The draw of the first player ("S<seat>" in every view).
            for p in range(n):
                toks[d + 1, p, 0] = TK_FIRST + TK_KINDS * act
                ntok[d + 1, p] = 1
            deal.apply_chance(cfg, tab, S, act)
        elif cur == layout.CHANCE:
            value = S[layout.S_DEALT]
            for p in range(n):
                dealt[p, value] = splits[act, p]
                toks[d + 1, p, 0] = TK_DEAL + TK_KINDS * splits[act, p]
                ntok[d + 1, p] = 1
            deal.apply_chance(cfg, tab, S, act)
            if value == values - 1:
                # The pair discards, face up: every seat's discards to every player.
                for s in range(n):
                    packed = 0
                    for v in range(values):
                        packed = packed * (cfg[layout.C] + 1) + dealt[s, v] - dealt[s, v] % 2
                    for p in range(n):
                        toks[d + 1, p, 1 + s] = TK_DISC + TK_KINDS * packed
                for p in range(n):
                    ntok[d + 1, p] = 1 + n
        else:
            plen = S[layout.S_PLEN]
            if act >= layout.FIRST_PLAY:
                psize, announced = actions.decode_play(cfg, tab, S, act)
                last_play[d + 1] = act
                for p in range(n):
                    if p == cur:
                        tok = TK_OWN + TK_KINDS * act
                    else:
                        tok = TK_PLAY + TK_KINDS * (cur + n * (announced + values * psize))
                    toks[d + 1, p, 0] = tok
                    ntok[d + 1, p] = 1
            elif act == layout.PASS:
                for p in range(n):
                    toks[d + 1, p, 0] = TK_PASS + TK_KINDS * cur
                    ntok[d + 1, p] = 1
            elif act == layout.BURN:
                for p in range(n):
                    toks[d + 1, p, 0] = TK_BURN + TK_KINDS * cur
                    ntok[d + 1, p] = 1
            else:
                liar = S[cfg[layout.O_PPLAYER] + plen - 1]
                false = S[cfg[layout.O_PFALSE] + plen - 1]
                picker = liar if false > 0 else cur
                for p in range(n):
                    toks[d + 1, p, 0] = TK_LIAR + TK_KINDS * (cur + n * last_play[d])
                    ntok[d + 1, p] = 1
                    if p == picker:
                        for v in range(values):
                            toks[d + 1, p, 1 + v] = TK_TAKE + TK_KINDS * S[cfg[layout.O_PCOUNTS] + v]
                        ntok[d + 1, p] = 1 + values
            moves.apply_player_action(cfg, tab, S, act)
        d += 1
        fresh = 0
    st[_ST_D], st[_ST_ACT], st[_ST_COUNT], st[_ST_TOP] = d, act, count, top
    st[_ST_NTERM], st[_ST_NINFO], st[_ST_FRESH] = nterm, num_info, fresh
    return _RUN_DONE


def compile_tree(game: pyspiel.Game, max_histories: int = DEFAULT_MAX_HISTORIES) -> CompiledGame:
    """The variant's :class:`~cfr.tree.CompiledGame`, enumerated by the kernel (same result as
    :func:`cfr.compile_game`).

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        TypeError: ``game`` is not a ``trustme_liar`` game.
        ValueError: ``max_histories`` is not an integer >= 1.
    """
    if not isinstance(game, LiarGame):
        raise TypeError(f"the Liar kernel compiles only trustme_liar games, not {game}")
    check_max_histories(max_histories)
    t0 = time.perf_counter()
    cfg = layout.rules_array(game)
    tab = layout.build_tables(cfg)
    splits = np.asarray(game.deal_table.splits, dtype=np.int64).reshape(-1, game.rules.players)
    code, *arrays = enumerate_tree(cfg, tab, splits, max_histories)
    num_keys = int(arrays.pop().shape[0])  # the first history of each set: the finished tree gives one (EngineKeys)
    return finish_tree(game, max_histories, t0, code == 1, arrays, num_keys)


# The enumerator compiles the core's and cfr.trie's functions into its own code; numba checks only this file.
tie_cache_to_sources((enumerate_tree, _enumerate_run), layout, deal, actions, moves, compiled_draws, _trie)
