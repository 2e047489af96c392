"""Worlds a player cannot tell from the real game: the history replayed with the hidden deals drawn again.

:meth:`PinocchioState.resample_from_infostate` returns a state *reached by a history*, as OpenSpiel's own games do
(``KuhnState::ResampleFromInfostate``): a new initial state, then every action of the real history, except that

- each Character dealt or drawn into another player's hand, which the player did not see, is drawn again;
- a face-down tale Character of another player not yet flipped is drawn again (and the tale action names it);
- under simultaneous voting, the votes cast but not yet shown are drawn again (trust or not, even odds).

So the world's ``history()`` replays to it, ``serialize_game_and_state`` round-trips it, and every seat's
information state, observation and legal actions are those of that replay (each other seat sees its own new hand).

How the hidden deals are drawn. The Characters the player cannot locate (:meth:`~PinocchioState.unseen`) are dealt
anew, uniformly, into the places they can be (each other hand keeps its size, a face-down tale Character stays one,
the deck the rest), as before; then a history is built that leads there. Each other seat owes, to its hidden deals,
the Characters it later played face-up from hand (a Reputation, a take, a flipped tale), each due before the move
that played it, and the Characters of its new hand (and a face-down tale), due at the end. The hidden deals are
filled in the order they happened, each with the owed Character due first among those the deck can still give
then: a deal can give value ``v`` only while the hidden deals so far took fewer ``v`` than the deck held, now and at
every later draw the player saw (a Character dealt before a day's end cannot be one that was in the discard pile
then). Ties are broken at random, so the other seats' own records of their deals vary with the world.

The replay then checks every step (a deal finds its Character in the deck, every move is legal, the player's
information state comes out unchanged). An arrangement no history is found for is drawn again, so worlds are drawn
uniformly over the arrangements a history is found for (the real one always has one; an arrangement with none is
impossible, and today's in-place deal drew those too). After :data:`MAX_TRIES` failed arrangements the real state is
returned; how often that happens is measured in ``tests/games/test_openspiel_clients.py``.
"""

from __future__ import annotations

from typing import Any, Callable

import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A

#: Arrangements tried before the real state is returned (see the module docstring).
MAX_TRIES = 64


def _pick(sampler: Callable[[], float], n: int) -> int:
    return min(int(sampler() * n), n - 1)


def _shuffle(items: list, sampler: Callable[[], float]) -> None:
    # Fisher-Yates with the sampler's numbers.
    for i in range(len(items) - 1, 0, -1):
        j = _pick(sampler, i + 1)
        items[i], items[j] = items[j], items[i]


class _Hidden:
    """What of a history ``player`` did not see: the hidden deals per seat, the Characters each seat later showed
    from its hand, a pending face-down tale, the votes not yet shown, and how many Characters of each value the
    hidden deals may have taken by each deal (:attr:`room`)."""

    def __init__(self, state: Any, player: int):
        from trustme_analysis.games.pinocchio.engine import state as S

        game = state.get_game()
        codec = game.codec
        n = game.num_players()
        V = game.rules.values
        self.actions = [int(a) for a in state.history()]
        #: Hidden deals in the order they happened: (history index, seat).
        self.slots: list[tuple[int, int]] = []
        self.shown: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.tale_index = -1
        self.votes: list[int] = []
        replay = game.new_initial_state()
        last_tale = any_tale = -1
        hidden_so_far = [0] * V
        # cap[k][v]: the deck's count of v after the k-th hidden deal's step plus the hidden deals' v so far, i.e.
        # how many v the hidden deals up to then may have taken; checked again after every later step.
        caps: list[list[int]] = []
        low = None
        for i, a in enumerate(self.actions):
            ph = replay._phase
            seat = -1
            if ph == S.DEAL_HAND and replay._deal_seat != player:
                seat = replay._deal_seat
            elif ph == S.DRAW and replay._active != player:
                seat = replay._active
            elif ph == S.ACTION:
                move = codec.decode(a)
                if move.kind == A.TALE:
                    any_tale = i
                if replay._actor != player and move.kind in (A.TALE, A.REPUTATION, A.TAKE):
                    self.shown[replay._actor].append((i, move.hand))
                    if move.kind == A.TALE:
                        last_tale = i
            elif ph == S.VOTE and replay._actor != player and game.rules.voting == "simultaneous":
                self.votes.append(i)
            replay.apply_action(a)
            if seat >= 0:
                self.slots.append((i, seat))
                hidden_so_far[a] += 1
            if seat >= 0 or ph in S._CARD_PHASES:
                cap = [d + h for d, h in zip(replay._deck, hidden_so_far)]
                if seat >= 0:
                    caps.append(cap)
                # Every earlier hidden deal's room is bounded by this step's too (the hidden count only grows).
                for row in caps:
                    for v in range(V):
                        if cap[v] < row[v]:
                            row[v] = cap[v]
        del low
        #: room[k][v]: how many Characters of value v the hidden deals up to the k-th may have taken in all.
        self.room = caps
        if state._tale is not None and state._active != player:
            # Face-down still: its Character is one the player cannot locate, not one it saw.
            self.tale_index = last_tale
            self.shown[state._active] = [(i, v) for i, v in self.shown[state._active] if i != last_tale]
        # Only the votes on the tale still in play are unshown (and only while it is voted on).
        self.votes = [i for i in self.votes if i > any_tale] if state._phase == S.VOTE else []


def resample_by_replay(state: Any, player: int, sampler: Callable[[], float]) -> Any:
    """A world ``player`` cannot tell from ``state``, reached by a history (see the module docstring)."""
    return draw_world(state, player, sampler)[0]


def draw_world(state: Any, player: int, sampler: Callable[[], float]) -> tuple[Any, int]:
    """:func:`resample_by_replay`'s world and the arrangements it drew (``MAX_TRIES + 1``: none had a history
    found, and the world is the real state)."""
    from trustme_analysis.games.pinocchio.engine import state as S

    if state._phase == S.TERMINAL:
        return state.clone(), 0
    game = state.get_game()
    codec = game.codec
    n = game.num_players()
    V = game.rules.values
    hidden = _Hidden(state, player)
    target_info = state.information_state_string(player)
    sizes = [sum(h) for h in state._hands]
    end = len(hidden.actions)
    for tries in range(1, MAX_TRIES + 1):
        pool = S._values_of(state.unseen(player))
        _shuffle(pool, sampler)
        tale_value = pool[0] if hidden.tale_index >= 0 else 0
        taken = 1 if hidden.tale_index >= 0 else 0
        # What each other seat owes its hidden deals: (due before this history index, value).
        owed: list[list[tuple[int, int]]] = [list(hidden.shown[q]) for q in range(n)]
        for q in range(n):
            if q != player:
                owed[q] += [(end, v) for v in pool[taken:taken + sizes[q]]]
                taken += sizes[q]
        if tale_value:
            owed[state._active].append((hidden.tale_index, tale_value))
        actions = _fill(hidden, owed, V, sampler)
        if actions is None:
            continue
        if hidden.tale_index >= 0:
            move = codec.decode(actions[hidden.tale_index])
            actions[hidden.tale_index] = codec.tale(move.park, tale_value)
        for i in hidden.votes:
            actions[i] = codec.trust if sampler() < 0.5 else codec.distrust
        world = _replay(game, actions)
        if world is not None and world.information_state_string(player) == target_info:
            return world, tries
    return state.clone(), MAX_TRIES + 1


def _fill(hidden: _Hidden, owed: list[list[tuple[int, int]]], V: int,
          sampler: Callable[[], float]) -> list[int] | None:
    """The history's actions with every hidden deal given an owed Character (see the module docstring), or ``None``
    where the deals run out of room or a seat misses a Character it owes."""
    actions = list(hidden.actions)
    took = [0] * V
    for k, (index, seat) in enumerate(hidden.slots):
        room = hidden.room[k]
        mine = owed[seat]
        due = min((d for d, v in mine if d > index and took[v - 1] < room[v - 1]), default=None)
        if due is None or any(d <= index for d, _ in mine):
            return None
        choices = [j for j, (d, v) in enumerate(mine) if d == due and took[v - 1] < room[v - 1]]
        d, v = mine.pop(choices[_pick(sampler, len(choices))])
        took[v - 1] += 1
        actions[index] = v - 1
    if any(owed):
        return None
    return actions


def _replay(game: pyspiel.Game, actions: list[int]) -> Any:
    """The state the actions lead to, or ``None`` where one of them cannot happen (a Character not in the deck, an
    illegal move)."""
    world = game.new_initial_state()
    for a in actions:
        if world.is_chance_node():
            if not any(o == a for o, _ in world.chance_weights()):
                return None
        elif a not in world.legal_actions():
            return None
        world.apply_action(a)
    return world
