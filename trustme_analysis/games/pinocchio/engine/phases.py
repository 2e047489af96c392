"""The phases of a Pinocchio turn (:class:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState` is in
one at a time), and Characters as counts per value."""

from __future__ import annotations

# Phases, in the order they occur (the first player's draw, first_player=random, numbered last: it came last).
(DEAL_PARK, DEAL_HAND, DRAW, ACTION, VOTE, VOTE_COIN, COIN_OFFER, COIN_TOSS, REFILL, FREE_REPUTATION, TIE_BREAK,
 TERMINAL, FIRST_PLAYER) = range(13)
PHASE_NAMES = ("deal_park", "deal_hand", "draw", "action", "vote", "vote_coin", "coin_offer", "coin_toss", "refill",
               "free_reputation", "tie_break", "terminal", "first_player")
_CHANCE_PHASES = frozenset((DEAL_PARK, DEAL_HAND, DRAW, VOTE_COIN, COIN_TOSS, REFILL, TIE_BREAK, FIRST_PLAYER))
_CARD_PHASES = frozenset((DEAL_PARK, DEAL_HAND, DRAW, REFILL))


def values_of(counts: list[int]) -> list[int]:
    """The values held, one per Character, ascending (from counts per value)."""
    out: list[int] = []
    for i, n in enumerate(counts):
        out.extend([i + 1] * n)
    return out
