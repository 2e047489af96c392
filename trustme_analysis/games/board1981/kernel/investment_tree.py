"""The investing round ``trustme_1981_investment`` in compiled code, and the enumeration of its whole tree.

A second implementation of the round's step rules (:mod:`~trustme_analysis.games.board1981.engine.investment`, which
applies :mod:`~trustme_analysis.games.board1981.engine.investing`, the specification): the state as one integer array,
the chance outcomes, the legal actions, the effect of an action and the returns, each carrying the engine's method name.
Any change to the round's rules must be mirrored here; ``tests/games/test_board1981_investment_tree.py`` steps this code
and the engine in lock step over every history of several variants, and compares the tree :func:`enumerate_tree`
produces with :func:`cfr.compile_game`'s, array for array.

Why the step functions and the enumerator share this one module: numba's on-disk cache (``cache=True``) is
invalidated only when the cached function's own file changes, and the enumerator compiles the step functions into
its own code.

Information sets: a player's information state at its decision is the card it saw (or nothing), who has looked, and
the decisions so far (money, shares and the reserve follow from them; ``InvestmentObserver``). The enumerator walks a
trie of those (:mod:`cfr.trie`) from one root per player: first one token for the card seen and who looked, then one
per decision; equal information states <=> equal trie nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cfr import trie as trie_module
from cfr.numba_cache import tie_cache_to_sources
from cfr.trie import doubled, filled_to, new_record, new_trie, trie_grow, trie_step

# ---------------------------------------------------------------------------------------------- the state
# The engine's phases (investment.DEAL, SEEN, INVEST, OVER); a test checks they agree.
DEAL, SEEN, INVEST, OVER = range(4)
#: pyspiel's player ids for chance and the terminal state.
CHANCE_ID, TERMINAL_ID = -1, -4
MAX_PLAYERS = 4
NUM_PAYOFF_KINDS = 4
#: The card token of a player that has not looked (the cards are 0..3).
UNSEEN_CARD = NUM_PAYOFF_KINDS
# Payoff rows (investing.ONE_STACK, TWO_STACKS, EMPTY, BEEN_HAD).
ONE_STACK, TWO_STACKS, EMPTY, BEEN_HAD = range(4)
# The utility parameter as a code (investing.UTILITIES' order).
U_WIN_LOSS, U_WEALTH, U_WEALTH_DIFF = range(3)

# State fields: phase, card, index into the seen chances, index into the investing order, who has looked (bit p),
# the reserve, then money and shares per player.
S_PHASE, S_CARD, S_SEEN_IDX, S_IDX, S_SEEN, S_RESERVE = range(6)
S_MONEY = 6
S_SHARES = S_MONEY + MAX_PLAYERS
STATE_SIZE = S_SHARES + MAX_PLAYERS

# Rules array fields (packed by ``investment.rules_array`` from the loaded game); the lots follow at R_LOTS.
R_N, R_CLAIMANT, R_MIX_TOTAL, R_NUM_SEEN_CHANCE, R_BUY_MAX, R_UTILITY, R_NUM_ACTIONS, R_NUM_LOTS = range(8)
R_MIX = 8
R_SEEN_PCT = R_MIX + NUM_PAYOFF_KINDS
R_SEEN_CHANCE = R_SEEN_PCT + MAX_PLAYERS
R_MONEY = R_SEEN_CHANCE + MAX_PLAYERS
R_SHARES = R_MONEY + MAX_PLAYERS
R_ORDER = R_SHARES + MAX_PLAYERS
R_LOTS = R_ORDER + MAX_PLAYERS


@njit(cache=True)
def init_state(s, R):
    """TrustMe1981InvestmentState.__init__: the card not dealt; the players seen with chance 100 have looked."""
    s[:] = 0
    s[S_PHASE] = DEAL
    s[S_CARD] = -1
    for p in range(R[R_N]):
        if R[R_SEEN_PCT + p] == 100:
            s[S_SEEN] |= 1 << p
        s[S_MONEY + p] = R[R_MONEY + p]
        s[S_SHARES + p] = R[R_SHARES + p]


@njit(cache=True)
def current_player(s, R):
    """TrustMe1981InvestmentState.current_player."""
    ph = s[S_PHASE]
    if ph == OVER:
        return TERMINAL_ID
    if ph == DEAL or ph == SEEN:
        return CHANCE_ID
    return R[R_ORDER + s[S_IDX]]


@njit(cache=True)
def chance_outcomes(s, R, ids, probs):
    """TrustMe1981InvestmentState.chance_outcomes into ``ids`` / ``probs``; returns their count. The deal: each card
    kind in the mix, ``count / total`` (the engine's float division); a look: not seen then seen."""
    if s[S_PHASE] == DEAL:
        k = 0
        for c in range(NUM_PAYOFF_KINDS):
            count = R[R_MIX + c]
            if count > 0:
                ids[k] = c
                probs[k] = count / R[R_MIX_TOTAL]
                k += 1
        return k
    pct = R[R_SEEN_PCT + R[R_SEEN_CHANCE + s[S_SEEN_IDX]]] / 100.0
    ids[0] = 0
    probs[0] = 1.0 - pct
    ids[1] = 1
    probs[1] = pct
    return 2


@njit(cache=True)
def legal_actions(s, R, out):
    """InvestingRules.legal for the player to act, into ``out``; returns the count: hold; buy a lot the money pays
    for; buy max (when offered, with money that is not itself a lot); divest a lot held; divest all when holding."""
    p = R[R_ORDER + s[S_IDX]]
    money = s[S_MONEY + p]
    shares = s[S_SHARES + p]
    num_lots = R[R_NUM_LOTS]
    first_divest = num_lots + 1 + R[R_BUY_MAX]
    out[0] = 0
    k = 1
    money_is_a_lot = False
    for i in range(num_lots):
        if R[R_LOTS + i] <= money:
            out[k] = 1 + i
            k += 1
        if R[R_LOTS + i] == money:
            money_is_a_lot = True
    if R[R_BUY_MAX] and money > 0 and not money_is_a_lot:
        out[k] = num_lots + 1
        k += 1
    for i in range(num_lots):
        if R[R_LOTS + i] <= shares:
            out[k] = first_divest + i
            k += 1
    if shares > 0:
        out[k] = first_divest + num_lots
        k += 1
    return k


@njit(cache=True)
def apply_action(s, R, action):
    """TrustMe1981InvestmentState._apply_action: deal the card, decide a look, or one investing decision
    (investing.invest; after the last, the reveal)."""
    ph = s[S_PHASE]
    if ph == DEAL:
        s[S_CARD] = action
        s[S_PHASE] = SEEN if R[R_NUM_SEEN_CHANCE] > 0 else INVEST
        return
    if ph == SEEN:
        q = R[R_SEEN_CHANCE + s[S_SEEN_IDX]]
        if action:
            s[S_SEEN] |= 1 << q
        else:
            s[S_SEEN] &= ~(1 << q)
        s[S_SEEN_IDX] += 1
        if s[S_SEEN_IDX] == R[R_NUM_SEEN_CHANCE]:
            s[S_PHASE] = INVEST
        return
    p = R[R_ORDER + s[S_IDX]]
    num_lots = R[R_NUM_LOTS]
    first_divest = num_lots + 1 + R[R_BUY_MAX]
    bought = 0
    divested = 0
    if 1 <= action <= num_lots:
        bought = R[R_LOTS + action - 1]
    elif R[R_BUY_MAX] and action == num_lots + 1:
        bought = s[S_MONEY + p]  # buy max: as many shares as the money pays for
    elif first_divest <= action < first_divest + num_lots:
        divested = R[R_LOTS + action - first_divest]
    elif action == first_divest + num_lots:
        divested = s[S_SHARES + p]
    if p != R[R_CLAIMANT]:
        s[S_RESERVE] += bought  # bought into an opponent's claim: to the reserve account (own claim: to the Bank)
    s[S_MONEY + p] += divested - bought
    s[S_SHARES + p] += bought - divested
    s[S_IDX] += 1
    if s[S_IDX] == R[R_N]:
        _reveal(s, R)


@njit(cache=True)
def _reveal(s, R):
    """TrustMe1981InvestmentState._reveal: the payoff row (investing.payoff) for every holder; the claimant takes the
    reserve."""
    card = s[S_CARD]
    for p in range(R[R_N]):
        shares = s[S_SHARES + p]
        if card == ONE_STACK:
            s[S_MONEY + p] += shares
        elif card == TWO_STACKS:
            s[S_MONEY + p] += 2 * shares
        elif card == BEEN_HAD:
            s[S_SHARES + p] = 0
    s[S_MONEY + R[R_CLAIMANT]] += s[S_RESERVE]
    s[S_RESERVE] = 0
    s[S_PHASE] = OVER


@njit(cache=True)
def returns_into(s, R, out):
    """TrustMe1981InvestmentState.returns (investing.wealth_returns) into ``out``: zeros before the end."""
    n = R[R_N]
    for p in range(n):
        out[p] = 0.0
    if s[S_PHASE] != OVER:
        return
    if R[R_UTILITY] == U_WEALTH:
        for p in range(n):
            out[p] = np.float64(s[S_MONEY + p] + s[S_SHARES + p])
        return
    if R[R_UTILITY] == U_WEALTH_DIFF:
        w0 = s[S_MONEY] + s[S_SHARES]
        w1 = s[S_MONEY + 1] + s[S_SHARES + 1]
        out[0] = np.float64(w0 - w1)
        out[1] = np.float64(w1 - w0)
        return
    # win_loss: the richest share the win; all tied gives 0.
    top = s[S_MONEY] + s[S_SHARES]
    for p in range(1, n):
        top = max(top, s[S_MONEY + p] + s[S_SHARES + p])
    k = 0
    for p in range(n):
        if s[S_MONEY + p] + s[S_SHARES + p] == top:
            k += 1
    if k == n:
        return
    for p in range(n):
        out[p] = 1.0 / k if s[S_MONEY + p] + s[S_SHARES + p] == top else -1.0 / (n - k)


# ---------------------------------------------------------------------------------------------- the tree
@njit(cache=True)
def enumerate_tree(R, max_histories):
    """Every history of the variant in depth-first preorder, children in the engine's order.

    Returns ``(code, depth, player, infoset, action, chance_prob, terminal_returns, num_infosets)``: ``code`` is 0,
    or 1 if the tree has more than ``max_histories`` histories; ``infoset`` ids are numbered by first appearance;
    ``terminal_returns`` holds the returns of each terminal in preorder. Every history has the same length: the
    deal, one look per seen chance, one decision per player, so the tree is ``1 + seen chances + players`` deep.
    """
    n = R[R_N]
    looks = R[R_NUM_SEEN_CHANCE]
    max_depth = 1 + looks + n
    first_decision = 1 + looks
    states = np.empty((max_depth + 1, STATE_SIZE), dtype=np.int64)
    init_state(states[0], R)
    width = max(R[R_NUM_ACTIONS], NUM_PAYOFF_KINDS)
    kids = np.empty((max_depth + 1, width), dtype=np.int64)
    kprob = np.empty((max_depth + 1, width), dtype=np.float64)
    kcount = np.zeros(max_depth + 1, dtype=np.int64)
    knext = np.zeros(max_depth + 1, dtype=np.int64)
    path = np.full(max_depth + 1, -1, dtype=np.int64)
    # node_info maps a trie node to its information set id (the first histories are not needed: EngineKeys finds
    # them in the finished tree).
    trie, used, node_info, _ = new_trie(n)
    num_info = 0
    r_depth, r_player, r_info, r_action, r_prob, rets = new_record(n)
    nterm = 0
    ret = np.empty(n, dtype=np.float64)
    count = 0
    d = 0
    prob = 1.0
    while True:
        # --- record the node at depth d (reached by path[d] with prob) and list its children
        if count >= max_histories:
            return 1, r_depth[:0], r_player[:0], r_info[:0], r_action[:0], r_prob[:0], rets[:0], num_info
        if count >= r_depth.shape[0]:
            r_depth, r_player = doubled(r_depth, count), doubled(r_player, count)
            r_info, r_action, r_prob = doubled(r_info, count), doubled(r_action, count), doubled(r_prob, count)
        s = states[d]
        r_depth[count] = d
        r_action[count] = path[d]
        r_prob[count] = prob
        cur = current_player(s, R)
        k = 0
        if cur == TERMINAL_ID:
            r_player[count] = -1
            r_info[count] = -1
            returns_into(s, R, ret)
            if nterm >= rets.shape[0]:
                rets = doubled(rets, nterm)
            rets[nterm] = ret
            nterm += 1
        elif cur == CHANCE_ID:
            r_player[count] = n
            r_info[count] = -1
            k = chance_outcomes(s, R, kids[d], kprob[d])
        else:
            r_player[count] = cur
            # The player's view: the card it saw (or none) and who looked, then each decision so far.
            if used[1] * 2 + 2 * (n + 1) > trie.shape[0]:
                trie = trie_grow(trie)
            seen = s[S_SEEN]
            card = s[S_CARD] if (seen >> cur) & 1 else UNSEEN_CARD
            node = trie_step(trie, used, cur, card + (UNSEEN_CARD + 1) * seen)
            for e in range(first_decision + 1, d + 1):
                node = trie_step(trie, used, node, path[e])
            node_info = filled_to(node_info, node, -1)
            m = node_info[node]
            if m < 0:
                m = num_info
                node_info[node] = m
                num_info += 1
            r_info[count] = m
            k = legal_actions(s, R, kids[d])
            for j in range(k):
                kprob[d, j] = 1.0
        kcount[d] = k
        knext[d] = 0
        count += 1
        # --- the next node in preorder: the next unvisited child of the deepest node that has one
        while d >= 0 and knext[d] >= kcount[d]:
            d -= 1
        if d < 0:
            break
        j = knext[d]
        knext[d] += 1
        c = states[d + 1]
        c[:] = states[d]
        apply_action(c, R, kids[d, j])
        prob = kprob[d, j]
        d += 1
        path[d] = kids[d - 1, j]
    return (0, r_depth[:count], r_player[:count], r_info[:count], r_action[:count], r_prob[:count], rets[:nterm],
            num_info)


# The enumerator compiles cfr.trie's functions into its own code: its cache must follow that file too.
tie_cache_to_sources([enumerate_tree], trie_module)
