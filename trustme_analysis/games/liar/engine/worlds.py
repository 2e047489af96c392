"""Worlds for search players: a state one player cannot tell from the real one, the cards it cannot place dealt anew.

``LiarState.resample_from_infostate`` returns a state reached by a history (:mod:`~.histories`), dealt into the
places this module names. :func:`resample` is the in-place world the compiled search player's worlds still mirror
(``kernel/search.py``): it keeps everything the player has seen: its hand and deal, the
public discards, every count, claim, pass, challenge and burn, the cards turned over, its own plays, the piles it
picked up, and the cards it knows are in another hand (:class:`~trustme_analysis.games.liar.engine.state.LiarTable` ``known``). The cards it cannot
place (:func:`pool`) are shared out again uniformly among the places it cannot see into: the other players' hands
(beside the cards it knows there), the other players' face-down plays in the pile, and their burned plays.

The other players' pasts are made to agree with the new cards, so that the world plays on as a whole game:

- a face-down play of another player gets the cards dealt to it, and its false cards are recounted;
- the plays of a pile this player picked up share out the pile's cards it did not play itself (it saw the pile, not
  whose cards were whose), uniformly;
- the plays of a pile another player picked up and still holds (it has not played since) are drawn from the cards
  dealt to that hand; of a pile since played on, from the cards this player cannot place (an estimate, for the bluff
  points and the others' memories only: where those cards are now is dealt above);
- each other player's bluff points are those of its accepted plays in the world, and what it knows of the other
  hands is what the world says it saw (the turned-over cards and its own cards of the piles picked up);
- the other players' deals are forgotten (``None``; the information-state string shows ``dealt:?``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from trustme_analysis.games.liar.engine import events as ev


@dataclass
class _Pile:
    """One pile of the game, as the events show it."""

    plays: list[int] = field(default_factory=list)  # indices into the event log, oldest first
    picker: int = -1  # who picked it up after a challenge (-1: burned, or still on the table)
    event: int = -1  # the index of its ``liar`` (or ``burn``) event
    burned: bool = False


def pool(state, player: int) -> list[int]:
    """Cards per value ``player`` cannot place: the deck less the public discards, its hand, its own cards in the
    pile and burned, and the cards it knows are in another hand."""
    t = state._table
    rules = state._rules
    own = [0] * rules.values
    for owner, _, cards, _ in t.pile:
        if owner == player:
            for v in cards:
                own[v] += 1
    known = [sum(col) for col in zip(*t.known[player])]
    discarded = state.discarded()
    return [rules.copies - discarded[v] - t.hands[player][v] - own[v] - t.burned_by[player][v] - known[v]
            for v in range(rules.values)]


def _piles(events: list[tuple]) -> list[_Pile]:
    piles = [_Pile()]
    for i, event in enumerate(events):
        kind = event[0]
        if kind == ev.PLAY:
            piles[-1].plays.append(i)
        elif kind in (ev.LIAR, ev.BURN):
            piles[-1].event = i
            if kind == ev.LIAR:
                piles[-1].picker = event[6]
            else:
                piles[-1].burned = True
            piles.append(_Pile())
    return piles


@dataclass
class _Plan:
    """What a world of one position for one player needs besides the random draw (computed once per position)."""

    pool: list[int]  # the cards the player cannot place, one entry per card
    slots: list[tuple[int, int]]  # (event index, cards) of the hidden plays on the table, then the burned ones
    hand_slots: list[tuple[int, int]]  # (seat, unknown cards) of every other hand
    picked: list[tuple[list[tuple[int, int]], str, int, list[int], int]]  # hidden plays of picked-up piles
    meta: dict[int, tuple[int, int]]  # hidden play event index -> (player, announced)
    current: list[int]  # event indices of the pile's plays, oldest first
    burned: list[int]  # hidden plays that were burned
    credited: list[int]  # hidden plays whose false cards have scored
    known: list[tuple[int, int, list[tuple[int, list[int]]]]]  # (holder, shown play, [(seat, its plays)])
    rewrites: list[tuple[int, list[int]]]  # (liar event, its pile's plays) of piles another player picked up
    fallback: list[int]  # every card not publicly discarded


def _plan(state, player: int) -> _Plan:
    # The search player draws many worlds of one position in a row: the plan is kept on the state, for the position
    # (every action adds an event, so the event count tells a later position) and the player it was made for.
    t = state._table
    cached: tuple[int, int, _Plan] | None = getattr(state, "_world_plan", None)
    if cached is not None and cached[0] == len(t.events) and cached[1] == player:
        return cached[2]
    rules = state._rules
    n, values = rules.players, rules.values
    events = t.events
    piles = _piles(events)
    current = piles[-1]
    last_play = [-1] * n  # index of each player's last play event
    for i, event in enumerate(events):
        if event[0] == ev.PLAY:
            last_play[event[1]] = i
    revealed = {p.plays[-1] for p in piles if p.picker >= 0}
    hidden = {i for p in piles for i in p.plays if events[i][1] != player and i not in revealed}
    unseen = pool(state, player)
    if min(unseen) < 0:
        raise AssertionError(f"player {player} places more cards than the deck holds: {unseen}")
    slots = [(i, len(events[i][3])) for pile in [current] + [p for p in piles if p.burned] for i in pile.plays
             if i in hidden]
    hand_slots = [(h, sum(t.hands[h]) - sum(t.known[player][h])) for h in range(n) if h != player]
    if sum(size for _, size in slots + hand_slots) != sum(unseen):
        raise AssertionError(f"{sum(unseen)} cards to place but other places for them")
    picked = []
    for pile in piles:
        if pile.picker < 0:
            continue
        plays = [(i, len(events[i][3])) for i in pile.plays if i in hidden]
        if not plays:
            continue
        rest: list[int] = []
        if pile.picker == player:
            mode = "own"
            rest = list(events[pile.event][7])
            for i in pile.plays:
                if i not in hidden:
                    for v in events[i][3]:
                        rest.remove(v)
        elif last_play[pile.picker] < pile.event:
            mode = "hand"  # still in the picker's hand
        else:
            mode = "pool"  # since played on
        picked.append((plays, mode, pile.picker, rest, sum(size for _, size in plays)))
    covered = rules.false_card_accepted == "covered"
    credited = [i for pile in piles for k, i in enumerate(pile.plays) if i in hidden and (
        pile.burned or (pile is current and k < t.credited) or (pile.picker >= 0 and covered
                                                                 and k < len(pile.plays) - 1))]
    known = []
    for pile in piles:
        h = pile.picker
        if h < 0 or last_play[h] > pile.event:
            continue
        seats = [(q, [i for i in pile.plays[:-1] if events[i][1] == q]) for q in range(n) if q not in (h, player)]
        known.append((h, pile.plays[-1], seats))
    discarded = state.discarded()
    plan = _Plan(
        pool=[v for v in range(values) for _ in range(unseen[v])],
        slots=slots,
        hand_slots=hand_slots,
        picked=picked,
        meta={i: (events[i][1], events[i][2]) for i in hidden},
        current=list(current.plays),
        burned=[i for pile in piles if pile.burned for i in pile.plays if i in hidden],
        credited=credited,
        known=known,
        rewrites=[(pile.event, list(pile.plays)) for pile in piles if pile.picker >= 0 and pile.picker != player],
        fallback=[v for v in range(values) for _ in range(rules.copies - discarded[v])],
    )
    state._world_plan = (len(events), player, plan)
    return plan


def resample(state, player: int, sampler: Callable[[], float]):
    """A world for ``player`` (module docstring); ``sampler()`` gives uniform numbers in [0, 1)."""
    world = state.clone()
    # The plan kept on ``state`` (see :func:`_plan`) is not the world's: dropped, so that cloning the world stays cheap.
    vars(world).pop("_world_plan", None)
    t = state._table
    rules = state._rules
    n, values = rules.players, rules.values
    if t.end or t.first < 0 or t.dealt < values:
        return world

    def shuffled(cards: list[int]) -> list[int]:
        # Fisher-Yates with the sampler's numbers: a uniform permutation.
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j = min(int(sampler() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    plan = _plan(state, player)
    events = t.events
    # The cards this player cannot place, dealt in turn to the hidden plays on the table, the burned ones and the
    # unknown part of each other hand.
    deck = shuffled(plan.pool)
    cards: dict[int, tuple[int, ...]] = {}  # the world's cards of each hidden play
    at = 0
    for i, size in plan.slots:
        cards[i] = tuple(sorted(deck[at:at + size]))
        at += size
    hands: list[list[int]] = [list(h) for h in t.hands]
    drawn: list[list[int]] = [[] for _ in range(n)]
    for h, size in plan.hand_slots:
        drawn[h] = deck[at:at + size]
        at += size
        counts = list(t.known[player][h])
        for v in drawn[h]:
            counts[v] += 1
        hands[h] = counts
    # Piles picked up: their hidden plays share out what is known of them.
    for plays, mode, picker, rest, need in plan.picked:
        if mode == "own":
            source = shuffled(rest)
        elif mode == "hand":
            # Still in the picker's hand: among the cards dealt there (the rest of that hand is known).
            source = shuffled(drawn[picker])
            drawn[picker] = source[need:]
        else:
            # Since played on: anywhere this player cannot see (late in a game these may be fewer than the pile
            # held; then any card of the deck not publicly discarded stands in).
            source = shuffled(deck)
            if len(source) < need:
                source += shuffled(plan.fallback)
        at = 0
        for i, size in plays:
            cards[i] = tuple(sorted(source[at:at + size]))
            at += size

    # The world's table: hands, the pile, burned cards, bluff points, what the others know, and their pasts.
    w = world._table
    w.hands = hands
    new_events = list(events)
    for i, c in cards.items():
        owner, announced = plan.meta[i]
        new_events[i] = ev.play(owner, announced, c, sum(1 for v in c if v != announced))
    w.pile = [(owner, announced, cards.get(i, c), new_events[i][4])
              for i, (owner, announced, c, _) in zip(plan.current, t.pile)]
    burned = [list(b) if q == player else [0] * values for q, b in enumerate(t.burned_by)]
    for i in plan.burned:
        for v in cards[i]:
            burned[plan.meta[i][0]][v] += 1
    w.burned_by = [tuple(b) for b in burned]
    false = [0] * n
    for i in plan.credited:
        false[plan.meta[i][0]] += new_events[i][4]
    w.false_cards = [f if q == player else false[q] for q, f in enumerate(t.false_cards)]
    zero = (0,) * values
    known = [[zero] * n for _ in range(n)]
    for h, shown, seats in plan.known:
        for q, plays in seats:
            add = [0] * values
            for v in new_events[shown][3]:
                add[v] += 1
            for i in plays:
                for v in new_events[i][3]:
                    add[v] += 1
            known[q][h] = tuple(a + b for a, b in zip(known[q][h], add))
    known[player] = list(t.known[player])
    w.known = known
    for event, plays in plan.rewrites:
        e = events[event]
        taken = tuple(sorted(v for j in plays for v in new_events[j][3]))
        new_events[event] = ev.liar(e[1], e[2], e[3], e[4], e[5], e[6], taken)
    w.events = new_events
    w.initial = tuple(h if q == player else None for q, h in enumerate(t.initial))
    return world
