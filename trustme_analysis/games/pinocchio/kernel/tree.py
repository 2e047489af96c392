"""Compile a ``trustme_pinocchio`` game tree from the compiled kernel: a kernel producer of :mod:`cfr.compile`.

The pyspiel producer (:func:`cfr.compile_game`) walks the tree through the engine's Python API; this one enumerates
the same histories in compiled code (:func:`enumerate_tree`, stepping the kernel state with
:func:`.core.apply_action`, :func:`.core.legal_actions` and the engine's chance outcomes) and hands the
same depth-first preorder record to :func:`cfr.build.from_preorder`, so the result is the same
:class:`~cfr.tree.CompiledGame`, array for array (``tests/games/test_pinocchio_kernel_tree.py`` checks it on the
solve presets' variants and a few more).

Information sets come out of the enumeration as ids: each player's view is a node of a trie of observation *tokens*
(see the token section below), so equal views <=> equal nodes. Their information-state strings are built by the
engine, on request, by replaying one history of each information set (:class:`cfr.engine_keys.EngineKeys`), so the
strings are the engine's own. The trie and the growing buffers are :mod:`cfr.trie`'s.

Caching: numba's on-disk cache of a function is invalidated only when *its own* file changes, yet the enumerator
compiles the compiled core's functions and constants into its own code; cached plainly it would keep a stale copy
of the rules after one of its files changed. So its cache is keyed by a hash of the core's modules
(:data:`.core.SOURCES`: its section modules and the draw primitives) and ``cfr/trie.py`` as well (:func:`cfr.numba_cache.tie_cache_to_sources`): a changed kernel compiles anew (15-25 s here), an unchanged one
loads in under a second.
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
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel.kernel import limits, rules_array
from trustme_analysis.games.pinocchio.engine.rules import SHORT_NAME

# ------------------------------------------------------------------------------------------- observation tokens
#
# What a player sees of one step of play is one *primary* token (the step itself, as the engine's log entry shows it to
# that player), then, if the step revealed something hidden, a token for it: the votes of a simultaneous vote once all
# are cast, and the face-down Character of a tale when the tale is resolved. Tokens are ``kind + TK_KINDS * payload``;
# the primary kinds differ from the two follow-up kinds, so a token sequence splits into steps in one way only, and two
# different views give different trie nodes. The engine's other log entries (a turn's start, a run-out, a reshuffle, a
# missed draw, a day's end, the game's end) follow from what the player saw up to and including the step (deck size,
# discard pile, Park, Reputations, Tickets and stacks are public, and a tale's result follows from the votes, the Coin
# and the revealed Character), so they add no token; the tests against the engine's strings confirm it.
(TK_PARK, TK_HAND_OWN, TK_HAND_HIDDEN, TK_DRAW_OWN, TK_DRAW_HIDDEN, TK_REFILL, TK_COIN, TK_TIE, TK_TALE_OWN, TK_TALE,
 TK_VOTE, TK_VOTE_HIDDEN, TK_MOVE, TK_VOTES, TK_REVEAL, TK_FIRST) = range(16)
TK_KINDS = 16
#: Tokens one step adds to a view at most: the primary one, the votes, the revealed Character.
TK_MAX = 3


@njit(inline="always")
def _step_tokens(P, C, R, act, toks, ntok, e, n):
    """Write each player's tokens for the ``e``-th step of the path, from ``P`` by ``act`` to ``C``, into
    ``toks[e, p, :ntok[e, p]]`` (indexed in place: slicing a view per step cost more than the writes)."""
    ph = P[K.PHASE]
    for p in range(n):
        ntok[e, p] = 1
    if ph == K.DEAL_PARK:
        for p in range(n):
            toks[e, p, 0] = TK_PARK + TK_KINDS * act
    elif ph == K.DEAL_HAND or ph == K.DRAW:
        seat = P[K.DEAL_SEAT] if ph == K.DEAL_HAND else P[K.ACTIVE]
        own, hidden = (TK_HAND_OWN, TK_HAND_HIDDEN) if ph == K.DEAL_HAND else (TK_DRAW_OWN, TK_DRAW_HIDDEN)
        for p in range(n):
            toks[e, p, 0] = own + TK_KINDS * act if p == seat else hidden + TK_KINDS * seat
    elif ph == K.REFILL:
        for p in range(n):
            toks[e, p, 0] = TK_REFILL + TK_KINDS * act
    elif ph == K.VOTE_COIN or ph == K.COIN_TOSS:
        for p in range(n):
            toks[e, p, 0] = TK_COIN + TK_KINDS * (act + (2 if ph == K.COIN_TOSS else 0))
    elif ph == K.TIE_BREAK:
        for p in range(n):
            toks[e, p, 0] = TK_TIE + TK_KINDS * act
    elif ph == K.FIRST_PLAYER:
        for p in range(n):
            toks[e, p, 0] = TK_FIRST + TK_KINDS * act
    else:
        cur = P[K.ACTOR]
        if act < R[K.R_REP_BASE]:
            # Tell a Tale: the teller knows the face-down Character; the others see the Park Character claimed.
            for p in range(n):
                toks[e, p, 0] = TK_TALE_OWN + TK_KINDS * act if p == cur else TK_TALE + TK_KINDS * R[K.R_DEC_X + act]
        elif act == R[K.R_TRUST] or act == R[K.R_DISTRUST]:
            trust = 1 if act == R[K.R_TRUST] else 0
            sequential = R[K.R_SEQUENTIAL] == 1
            for p in range(n):
                if sequential or p == cur:
                    toks[e, p, 0] = TK_VOTE + TK_KINDS * (2 * cur + trust)
                else:
                    toks[e, p, 0] = TK_VOTE_HIDDEN + TK_KINDS * cur
            if not sequential and P[K.VOTE_I] + 1 == n - 1:
                # The last simultaneous vote: every vote is shown.
                packed = 0
                for q in range(n):
                    v = trust if q == cur else P[K.VOTES + q]
                    packed = packed * 3 + v + 1
                for p in range(n):
                    toks[e, p, 1] = TK_VOTES + TK_KINDS * packed
                    ntok[e, p] = 2
        else:
            for p in range(n):
                toks[e, p, 0] = TK_MOVE + TK_KINDS * act
    if P[K.TALE_PARK] != 0 and C[K.TALE_PARK] == 0:
        # The tale was resolved: its face-down Character is flipped for everyone.
        for p in range(n):
            toks[e, p, ntok[e, p]] = TK_REVEAL + TK_KINDS * P[K.TALE_HIDDEN]
            ntok[e, p] += 1


@njit(cache=True)
def enumerate_tree(R, max_depth, max_histories):
    """Every history of the variant in depth-first preorder, children in the engine's order.

    Returns ``(code, depth, player, infoset, action, chance_prob, terminal_returns, first_history)``: ``code`` is 0,
    or 1 if the tree has more than ``max_histories`` histories, or 2 if a history is longer than ``max_depth``;
    ``infoset`` ids are numbered by first appearance; ``terminal_returns`` holds the returns of each terminal in
    preorder; ``first_history[m]`` is the first history of information set ``m`` (its key is built from there).
    """
    n = R[K.R_PLAYERS]
    states = np.empty((max_depth + 1, K.STATE_SIZE), dtype=np.int32)
    K.init_state(states[0], R)
    no_trace = np.zeros((0, n), dtype=np.int32)
    # view[d, p]: player p's trie node after the first d steps of the current path, or -1 while not yet looked up;
    # toks[d, p, :ntok[d, p]]: the tokens the d-th step adds to p's view. A view is looked up (the trie walked) only
    # when p is about to act, so the views at the leaves and of players who never act again cost nothing.
    view = np.full((max_depth + 1, n), -1, dtype=np.int64)
    for p in range(n):
        view[0, p] = p  # trie roots: one per player
    toks = np.zeros((max_depth + 1, n, TK_MAX), dtype=np.int64)
    ntok = np.zeros((max_depth + 1, n), dtype=np.int64)
    trie, used, node_info, first = new_trie(n)
    num_info = 0
    r_depth, r_player, r_info, r_action, r_prob, rets = new_record(n)
    nterm = 0
    # The children of the nodes on the current path, stacked: depth d's list is kids[kstart[d]:kstart[d]+kcount[d]].
    width = max(R[K.R_NUM_ACTIONS], K.MAXV, K.MAXP)
    kids = np.empty(1 << 16, dtype=np.int64)
    kprob = np.empty(1 << 16, dtype=np.float64)
    kstart = np.zeros(max_depth + 2, dtype=np.int64)
    kcount = np.zeros(max_depth + 2, dtype=np.int64)
    knext = np.zeros(max_depth + 2, dtype=np.int64)
    acts = np.empty(width, dtype=np.int64)
    probs = np.empty(width, dtype=np.float64)
    cbuf = np.empty(K.MAXC, dtype=np.int64)
    ret = np.empty(n, dtype=np.float64)
    count = 0
    d = 0
    act = -1
    prob = 1.0
    top = 0
    while True:
        # --- record the node at depth d (reached by `act` with `prob`) and list its children
        if count >= max_histories:
            return 1, r_depth[:0], r_player[:0], r_info[:0], r_action[:0], r_prob[:0], rets[:0], first[:0]
        if count >= r_depth.shape[0]:
            r_depth, r_player = doubled(r_depth, count), doubled(r_player, count)
            r_info, r_action, r_prob = doubled(r_info, count), doubled(r_action, count), doubled(r_prob, count)
        S = states[d]
        r_depth[count] = d
        r_action[count] = act
        r_prob[count] = prob
        cur = K.current_player(S)
        kstart[d] = top
        knext[d] = 0
        k = 0
        if cur == K.TERMINAL_ID:
            r_player[count] = -1
            r_info[count] = -1
            K.returns_into(S, R, ret)
            if nterm >= rets.shape[0]:
                rets = doubled(rets, nterm)
            rets[nterm] = ret
            nterm += 1
        elif cur == K.CHANCE_ID:
            r_player[count] = n
            r_info[count] = -1
            k = K.chance_outcomes(S, R, acts, probs)
        else:
            r_player[count] = cur
            if used[1] * 2 + 2 * TK_MAX * (d + 1) > trie.shape[0]:
                trie = trie_grow(trie)
            node = resolve_view(trie, used, view, toks, ntok, d, cur)
            node_info = filled_to(node_info, node, -1)
            m = node_info[node]
            if m < 0:
                m = num_info
                node_info[node] = m
                if m >= first.shape[0]:
                    first = doubled(first, m)
                first[m] = count
                num_info += 1
            r_info[count] = m
            k = K.legal_actions(S, R, acts, cbuf)
            for j in range(k):
                probs[j] = 1.0
        if k:
            while top + k > kids.shape[0]:
                kids, kprob = doubled(kids, top), doubled(kprob, top)
            kids[top:top + k] = acts[:k]
            kprob[top:top + k] = probs[:k]
        kcount[d] = k
        top += k
        count += 1
        # --- the next node in preorder: the next unvisited child of the deepest node that has one
        while d >= 0 and knext[d] >= kcount[d]:
            top = kstart[d]
            d -= 1
        if d < 0:
            break
        if d + 1 > max_depth:
            return 2, r_depth[:0], r_player[:0], r_info[:0], r_action[:0], r_prob[:0], rets[:0], first[:0]
        j = kstart[d] + knext[d]
        knext[d] += 1
        act = kids[j]
        prob = kprob[j]
        P = states[d]
        C = states[d + 1]
        C[:] = P
        K.apply_action(C, R, act, no_trace)
        for p in range(n):
            view[d + 1, p] = -1
        _step_tokens(P, C, R, act, toks, ntok, d + 1, n)
        d += 1
    return (0, r_depth[:count], r_player[:count], r_info[:count], r_action[:count], r_prob[:count], rets[:nterm],
            first[:num_info])


def compile_tree(game: pyspiel.Game, max_histories: int = DEFAULT_MAX_HISTORIES) -> CompiledGame:
    """The variant's :class:`~cfr.tree.CompiledGame`, enumerated by the kernel (same result as
    :func:`cfr.compile_game`): the registry entry's tree producer.

    Args:
        game: a ``trustme_pinocchio`` game the kernel plays (:func:`.kernel.limits`).
        max_histories: refuse (``TreeTooLargeError``) once the tree has more histories than this.

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        TypeError: ``game`` is not a ``trustme_pinocchio`` game the kernel's arrays hold.
        ValueError: ``max_histories`` is not an integer >= 1.
    """
    if not isinstance(game, pyspiel.Game) or game.get_type().short_name != SHORT_NAME:
        raise TypeError(f"the Pinocchio kernel compiles only {SHORT_NAME} games, not {game}")
    reason = limits(game)
    if reason is not None:
        raise TypeError(reason)
    check_max_histories(max_histories)
    R = rules_array(game)
    t0 = time.perf_counter()
    max_depth = game.max_game_length()
    code, *arrays = enumerate_tree(R, max_depth, max_histories)
    if code == 2:  # pragma: no cover - max_game_length bounds every history
        raise AssertionError(f"{game}: a history is longer than max_game_length() = {max_depth}")
    num_keys = int(arrays.pop().shape[0])  # the first history of each set: the finished tree gives one (EngineKeys)
    return finish_tree(game, max_histories, t0, code == 1, arrays, num_keys)


# The enumerator compiles the core's and cfr.trie's functions into its own code; numba checks only this file.
tie_cache_to_sources((enumerate_tree,), *K.SOURCES, _trie)
