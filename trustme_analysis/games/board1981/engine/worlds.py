"""Worlds for search players of ``trustme_1981`` and ``trustme_1981_investment``: states reached by a history.

``resample_from_infostate(player, sampler)`` returns what OpenSpiel's own games return
(``KuhnState::ResampleFromInfostate``): a new initial state, then the real history replayed, except that the deal's
chance outcomes ``player`` did not see are drawn again. In both games the deal comes first in the history (one chance
outcome per briefcase, in property order, in the board game; the claimed briefcase's one card in the investing
round), and nothing later depends on a card ``player`` has not seen (a card is seen when a player looks under its
briefcase or it is revealed, and a revealed card is seen by all), so the replay of every later action always succeeds:
the world's ``history()`` replays to it, ``serialize_game_and_state`` round-trips it, and every seat's information
state is that of the replay (each other seat sees the world's card under each briefcase it looked under).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def shuffle(items: list, sampler: Callable[[], float]) -> None:
    """Fisher-Yates with ``sampler()``'s uniform numbers in [0, 1): a uniform permutation, in place."""
    for i in range(len(items) - 1, 0, -1):
        j = min(int(sampler() * (i + 1)), i)
        items[i], items[j] = items[j], items[i]


def replay(state: Any, deal: Sequence[int]) -> Any:
    """A new initial state of ``state``'s game with ``deal`` applied, then the rest of ``state``'s history (the
    actions after its first ``len(deal)``)."""
    world = state.get_game().new_initial_state()
    for a in deal:
        world.apply_action(int(a))
    for a in state.history()[len(deal):]:
        world.apply_action(a)
    return world
