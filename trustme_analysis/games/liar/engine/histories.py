"""Worlds reached by a history: :meth:`LiarState.resample_from_infostate` as OpenSpiel's own games resample.

OpenSpiel's games build a resampled state by replaying the history with the hidden chance outcomes drawn again
(``KuhnState::ResampleFromInfostate``). :func:`resample_by_replay` does the same for ``trustme_liar``: a new initial
state, the first player as it was, the deal's chance actions (one per value: how its copies split between the seats)
chosen so that each seat is dealt what it holds in the world, then every turn of the real history, the other seats'
face-down plays re-encoded with the cards the world gives them. So the world's ``history()`` replays to it,
``serialize_game_and_state`` round-trips it, and every seat's information state, observation and legal actions are
those of that replay (each other seat sees its own new deal, plays and pick-ups).

How. The cards ``player`` cannot place are arranged into the places :func:`~.worlds.resample` deals them to (the
unknown part of each other hand, beside the cards it knows there, the other seats' face-down plays of the pile on the
table and their burned plays), uniformly over the deals in which each seat that never picked up a pile holds, in its
hand and plays, at most one card of each value (:meth:`_Backward.arrange`, drawn exactly: ``resample``'s uniform deal
conditioned on that, which every world reached by a history meets). A history is then built backwards from that
arrangement, undoing the events from the last:

- undoing a face-down play of another seat gives its cards back to that seat's hand: the arranged cards for the pile
  on the table and the burned piles; for a pile since picked up, cards of that pile's share (below);
- undoing another seat's pick-up takes the pile back out of its hand: the turned-over cards and ``player``'s own
  cards of the pile (it saw them go there), and, for the other face-down plays of the pile, cards of that hand as it
  was just after the pick-up (its share); a pile ``player`` picked up itself has the share it saw;
- at the deal, each other seat's hand must hold at most one card of each value (pairs were discarded: what stays is
  one card of each value dealt an odd number of times); it was dealt that hand plus its public discards.

The choices (which cards of a hand were a pile's share, which of a share a play was) are drawn at random, weighted
to keep the hands dealable: a share takes first the values the hand holds most of; a play first the values its
player must hold at its last pick-up before the play (the cards seen going there), then those it holds fewest of.
An arrangement for which this finds no history is drawn again (a history always exists for the real one). This
search is greedy: it may miss a history that exists, so the worlds are drawn uniformly over the arrangements above
only where it finds one each time (every position with no pick-up yet); after a pick-up, arrangements it finds a
history for less often are drawn less often than uniform. After :data:`MAX_TRIES` arrangements the real state is
returned; both counts are measured (``tests/games/test_liar_worlds.py``).

The replay checks every step: each deal a chance outcome there, each turn a legal action, ``player``'s information
state unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trustme_analysis.games.liar.engine import events as ev
from trustme_analysis.games.liar.engine.worlds import _piles, _plan

#: Arrangements tried before the real state is returned (see the module docstring).
MAX_TRIES = 256


def resample_by_replay(state: Any, player: int, sampler: Callable[[], float]) -> Any:
    """A world ``player`` cannot tell from ``state``, reached by a history (module docstring)."""
    return draw_world(state, player, sampler)[0]


def draw_world(state: Any, player: int, sampler: Callable[[], float]) -> tuple[Any, int]:
    """:func:`resample_by_replay`'s world and the arrangements drawn for it (``MAX_TRIES + 1``: none had a history
    found, and the world is the real state; ``0``: nothing to resample, the real state)."""
    t = state._table
    rules = state._rules
    if t.end or t.first < 0 or t.dealt < rules.values:
        return state.clone(), 0
    back = _backward(state, player)
    target = state.information_state_string(player)
    for tries in range(1, MAX_TRIES + 1):
        actions = back.history(*back.arrange(sampler), sampler)
        if actions is None:
            continue
        world = _replay(state.get_game(), actions)
        if world is not None and world.information_state_string(player) == target:
            return world, tries
    return state.clone(), MAX_TRIES + 1


def _shuffle(items: list, sampler: Callable[[], float]) -> None:
    # Fisher-Yates with the sampler's numbers: a uniform permutation.
    for i in range(len(items) - 1, 0, -1):
        j = min(int(sampler() * (i + 1)), i)
        items[i], items[j] = items[j], items[i]


def _pick(sampler: Callable[[], float], n: int) -> int:
    return min(int(sampler() * n), n - 1)


def _take(pool: list[int], size: int, score: Callable[[int], Any], sampler: Callable[[], float]) -> list[int] | None:
    """``size`` cards taken out of ``pool`` (counts per value, changed in place) one at a time, each of a value of the
    highest ``score`` among those left, ties broken at random; ``None`` where the pool runs out."""
    out = []
    for _ in range(size):
        held = [v for v, c in enumerate(pool) if c > 0]
        if not held:
            return None
        best = max(score(v) for v in held)
        ties = [v for v in held if score(v) == best]
        v = ties[_pick(sampler, len(ties))]
        pool[v] -= 1
        out.append(v)
    return out


def _backward(state: Any, player: int) -> _Backward:
    # A search player draws many worlds of one position in a row: what they share is kept on the state, for the
    # position (each turn adds an event) and the player it was made for, as :func:`~.worlds._plan` is.
    cached = getattr(state, "_world_back", None)
    if cached is not None and cached[0] == len(state._table.events) and cached[1] == player:
        return cached[2]
    back = _Backward(state, player)
    state._world_back = (len(state._table.events), player, back)
    return back


class _Backward:
    """What of ``state``'s history the backward construction needs, computed once per call: the events, the pile
    of each play and challenge, the plays ``player`` did not see, and where the turns sit in the history."""

    def __init__(self, state: Any, player: int):
        t = state._table
        rules = state._rules
        self.player = player
        self.n, self.values, self.copies = rules.players, rules.values, rules.copies
        self.events = t.events
        self.discards = t.discards
        self.initial_player = t.initial[player]
        self.plays = state._plays
        self.splits = {s: i for i, s in enumerate(state._deals.splits)}
        plan = _plan(state, player)
        self.hidden = plan.meta  # hidden play event -> (owner, announced)
        self.arranged = {i for i, _ in plan.slots}  # hidden plays the arrangement deals (pile on the table, burned)
        self.pool, self.slots, self.hand_slots = plan.pool, plan.slots, plan.hand_slots
        self.known = t.known[player]
        self.hands_now = t.hands
        # owed[i]: for a hidden play i of another seat, the cards (counts per value) seen going into that seat's hand
        # at its last pick-up before i (the turned-over cards and player's own of the pile).
        self.owed: dict[int, list[int]] = {}
        self.events = t.events
        self.piles = _piles(t.events)
        last_seen = [[0] * rules.values for _ in range(rules.players)]
        for k, pile in enumerate(self.piles):
            for i in pile.plays:
                if i in self.hidden:
                    self.owed[i] = last_seen[self.events[i][1]]
            if pile.picker >= 0 and pile.picker != player:
                seen = [0] * rules.values
                for j in pile.plays:
                    if j not in self.hidden:
                        for v in self.events[j][3]:
                            seen[v] += 1
                last_seen[pile.picker] = seen
        self.unseen = [0] * rules.values
        for v in plan.pool:
            self.unseen[v] += 1
        # The seats that never picked up a pile: (seat, cards of theirs to deal, values they cannot get (a
        # turned-over card of theirs has the value)), and each one's Z before any other seat takes cards.
        pickers = {e[6] for e in t.events if e[0] == ev.LIAR}
        self.constrained: list[tuple[int, int, list[bool]]] = []
        for q in range(rules.players):
            if q == player or q in pickers:
                continue
            size = sum(sz for i, sz in plan.slots if self.hidden[i][0] == q)
            size += sum(sz for h, sz in plan.hand_slots if h == q)
            banned = [False] * rules.values
            for e in t.events:
                if e[0] == ev.LIAR and e[2] == q:
                    for v in e[4]:
                        banned[v] = True
            self.constrained.append((q, size, banned))
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.pile_of: dict[int, int] = {}  # play or liar event -> its pile's index
        self.piles = _piles(self.events)
        for k, pile in enumerate(self.piles):
            for i in pile.plays:
                self.pile_of[i] = k
            if pile.event >= 0:
                self.pile_of[pile.event] = k
        history = [int(a) for a in state.history()]
        self.prefix = 0 if rules.starter_seat is not None else 1  # the first player's chance action
        self.deal_at = self.prefix
        self.turns_at = self.prefix + rules.values
        self.real = history
        # The event of each turn action (a play, pass, challenge or burn; one per turn, in order).
        self.turn_events = [i for i, e in enumerate(self.events) if e[0] in ev.TURNS]
        if len(self.turn_events) != len(history) - self.turns_at:
            raise AssertionError("the turns of the event log are not the history's")

    def __deepcopy__(self, memo: dict) -> _Backward:
        # Shared, never changed but for its memo of counts (valid for the position it was made for).
        return self

    def arrange(self, sampler: Callable[[], float]) -> tuple[list[list[int]], dict[int, tuple[int, ...]]]:
        """The cards ``player`` cannot place dealt anew into the places :func:`~.worlds.resample` deals them to (the
        unknown part of each other hand, the other seats' hidden plays on the table and burned): the world's hands
        and the cards of each arranged hidden play.

        The deal is uniform over the labelled-card deals in which each seat that never picked up a pile holds, in
        its hand and its plays, at most one card of each value (it was dealt at most one of each after its pairs,
        so no history leads elsewhere): :func:`~.worlds.resample`'s uniform deal conditioned on that, drawn exactly.
        Which of those seats get a card of value ``v`` weighs the labelled cards giving it, ``u_v (u_v - 1) ...`` (one
        factor per seat, ``u_v`` the unplaced copies), and each seat gets as many values as it has cards to deal:
        drawn value by value from the counts of :meth:`_completions`. The other cards are then shuffled into the
        other places, and each such seat's values into its places.
        """
        left = list(self.unseen)
        deals: dict[int, list[int]] = {q: [] for q, _, _ in self.constrained}
        rem = tuple(size for _, size, _ in self.constrained)
        for v in range(self.values):
            total = self._completions(v, rem)
            u = sampler() * total
            for subset, weight in self._options(v, rem):
                after = tuple(r - (subset >> k & 1) for k, r in enumerate(rem))
                u -= weight * self._completions(v + 1, after)
                if u < 0:
                    break
            for k, (q, _, _) in enumerate(self.constrained):
                if subset >> k & 1:
                    deals[q].append(v)
                    left[v] -= 1
            rem = after
        for chosen in deals.values():
            _shuffle(chosen, sampler)
        rest = [v for v, c in enumerate(left) for _ in range(c)]
        _shuffle(rest, sampler)
        at = {q: 0 for q in deals}
        pos = 0

        def draw(owner: int, size: int) -> list[int]:
            nonlocal pos
            if owner in deals:
                out = deals[owner][at[owner]:at[owner] + size]
                at[owner] += size
                return out
            out = rest[pos:pos + size]
            pos += size
            return out

        cards: dict[int, tuple[int, ...]] = {}
        for i, size in self.slots:
            cards[i] = tuple(sorted(draw(self.hidden[i][0], size)))
        hands = [list(h) for h in self.hands_now]
        for h, size in self.hand_slots:
            counts = list(self.known[h])
            for v in draw(h, size):
                counts[v] += 1
            hands[h] = counts
        return hands, cards

    def _options(self, v: int, rem: tuple[int, ...]) -> list[tuple[int, int]]:
        """``(subset, weight)``: the sets of constrained seats (bit ``k``: the ``k``-th) that may get a card of value
        ``v`` with ``rem`` values still to get each, weighing the labelled cards giving them."""
        u = self.unseen[v]
        out = []
        for subset in range(1 << len(rem)):
            weight = 1
            t = 0
            for k, r in enumerate(rem):
                if subset >> k & 1:
                    if r == 0 or self.constrained[k][2][v]:
                        weight = 0
                        break
                    weight *= u - t
                    t += 1
            if weight > 0:
                out.append((subset, weight))
        return out

    def _completions(self, v: int, rem: tuple[int, ...]) -> int:
        """The summed weight of the ways values ``v..`` can give each constrained seat its ``rem`` values (exact;
        memoised per position)."""
        key = (v, rem)
        memo = self.memo
        if key in memo:
            return memo[key]
        if v == self.values:
            out = int(not any(rem))
        elif sum(rem) > (self.values - v) * len(rem):
            out = 0
        else:
            out = 0
            for subset, weight in self._options(v, rem):
                after = tuple(r - (subset >> k & 1) for k, r in enumerate(rem))
                out += weight * self._completions(v + 1, after)
        memo[key] = out
        return out

    def history(self, hands: list[list[int]], cards: dict[int, tuple[int, ...]],
                sampler: Callable[[], float]) -> list[int] | None:
        """The actions of a history leading to the arrangement (:meth:`arrange`: the other seats' hands now and the
        cards of the arranged hidden plays), or ``None`` where none is found (module docstring)."""
        p, n, V = self.player, self.n, self.values
        events = self.events
        hands = [list(h) for h in hands]  # the other seats' hands, undone event by event
        cards = dict(cards)
        share: dict[int, list[int]] = {}  # pile index -> counts per value of its hidden cards not yet given back
        for i in range(len(events) - 1, -1, -1):
            e = events[i]
            kind = e[0]
            if kind == ev.PLAY:
                q = e[1]
                if q == p:
                    continue
                if i in self.hidden and i not in cards:
                    hand = hands[q]
                    # First the values q's last pick-up before this play must find in its hand (the cards it was
                    # seen to take), then the values it holds fewest of (it was dealt one of each at most).
                    owed = self.owed[i]
                    got = _take(share[self.pile_of[i]], len(e[3]),
                                lambda v: (owed[v] > hand[v], -hand[v]), sampler)
                    if got is None:
                        return None
                    cards[i] = tuple(sorted(got))
                for v in cards.get(i, e[3]):
                    hands[q][v] += 1
            elif kind == ev.LIAR:
                k = self.pile_of[i]
                pile = self.piles[k]
                h = e[6]
                hidden = [j for j in pile.plays if j in self.hidden]
                if h == p:
                    rest = [0] * V
                    for v in e[7]:
                        rest[v] += 1
                    for j in pile.plays:
                        if j not in self.hidden:
                            for v in events[j][3]:
                                rest[v] -= 1
                    share[k] = rest
                    continue
                hand = hands[h]
                for j in pile.plays:
                    if j not in self.hidden:  # the turned-over play and player's own: seen going into h's hand
                        for v in events[j][3]:
                            hand[v] -= 1
                if min(hand) < 0:
                    return None
                need = sum(len(events[j][3]) for j in hidden)
                got = _take(hand, need, lambda v: hand[v], sampler)
                if got is None:
                    return None
                counts = [0] * V
                for v in got:
                    counts[v] += 1
                share[k] = counts
        # The deal: every other hand holds at most one card of each value once its pairs are discarded.
        initial = []
        for q in range(n):
            if q == p:
                initial.append(tuple(self.initial_player))
                continue
            if min(hands[q]) < 0 or max(hands[q]) > 1:
                return None
            initial.append(tuple(k + d for k, d in zip(hands[q], self.discards[q])))
        actions = list(self.real[:self.turns_at])
        for v in range(V):
            split = tuple(initial[q][v] for q in range(n))
            index = self.splits.get(split)
            if index is None:
                return None
            actions[self.deal_at + v] = index
        for a, i in zip(self.real[self.turns_at:], self.turn_events):
            if i in cards:
                a = self.plays.play_action(cards[i], events[i][2])
            actions.append(a)
        return actions


def _replay(game: Any, actions: list[int]) -> Any:
    """The state ``actions`` lead to, or ``None`` where one cannot happen (a split the deal cannot give, an illegal
    turn)."""
    world = game.new_initial_state()
    for a in actions:
        if world.is_chance_node():
            if not any(o == a for o, _ in world.chance_weights()):
                return None
        elif a not in world.legal_actions():
            return None
        world.apply_action(a)
    return world
