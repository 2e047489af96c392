"""``trustme_liar``: the Cheat/"Menteur" card game of rule text ``004`` as an OpenSpiel Python game: its game type,
the game object and the observer (the positions and moves are in :mod:`~trustme_analysis.games.liar.engine.state`).

See ``docs/games/liar.rst`` for the rule -> code table and :mod:`trustme_analysis.games.liar.engine.rules` for the
parameters and assumptions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.gametype import registered_type, with_utility
from trustme_analysis.games.liar.engine import deal, scoring
from trustme_analysis.games.liar.engine.rules import DEFAULTS, SHORT_NAME, Rules
from trustme_analysis.games.liar.engine.plays import PlayTable
from trustme_analysis.games.liar.engine.state import LiarState, timeout_action

_MAX_PLAYERS = 6

__all__ = ["GAME_TYPE", "LiarGame", "LiarObserver", "LiarState", "timeout_action"]

GAME_TYPE = registered_type(SHORT_NAME, 'Trust Me: Cheat / "Menteur" (Classique and Trust Me scoring)', _MAX_PLAYERS,
                            DEFAULTS, observation_tensor=False)


def _game_type(rules: Rules) -> pyspiel.GameType:
    # Rank and difference utilities are zero-sum, which solvers can exploit; points are general-sum.
    return with_utility(GAME_TYPE, rules.utility_in_force in ("rank", "difference"))


class LiarGame(pyspiel.Game):
    """The ``trustme_liar`` game; parameters as in :class:`~trustme_analysis.games.liar.engine.rules.Rules`.

    Attributes:
        rules: the checked parameters (:class:`~trustme_analysis.games.liar.engine.rules.Rules`).
        play_table: the numbering of the plays (:class:`~trustme_analysis.games.liar.engine.plays.PlayTable`).
        deal_table: the deal's chance outcomes (:class:`~trustme_analysis.games.liar.engine.deal.DealTable`).
    """

    def __init__(self, params: dict[str, Any] | None = None):
        rules = Rules.from_params(params)
        table = PlayTable(rules.values, rules.copies, rules.max_play)
        deal_table = deal.DealTable(rules.copies, rules.players)
        low, high = scoring.utility_bounds(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=table.num_actions,
            max_chance_outcomes=max(len(deal_table.splits), rules.players),
            num_players=rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if rules.utility_in_force in ("rank", "difference") else None,
            # The first player (when drawn), one deal per value, then the turns.
            max_game_length=1 + rules.values + rules.max_turns,
        )
        super().__init__(_game_type(rules), info, params or {})
        self.rules = rules
        self.play_table = table
        self.deal_table = deal_table

    def new_initial_state(self) -> LiarState:
        """A state before the deal (and before the first player is drawn, with ``first_player="random"``)."""
        return LiarState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None):
        """Observer giving information-state strings (perfect recall) and observation strings."""
        return LiarObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force, ``{"parameter", "value", "text"}`` each (see :class:`Rules`)."""
        return self.rules.assumptions()

    def play_action(self, cards: tuple[int, ...] | list[int], announced: int) -> int:
        """The action id for playing ``cards`` (values ``1..values``) while announcing ``announced`` (1-based)."""
        return self.play_table.play_action(tuple(v - 1 for v in cards), announced - 1)

    def deal_actions(self, hands: list[list[int]], first: int | None = None) -> list[int]:
        """The chance actions that deal exactly ``hands`` (lists of values ``1..values``, one per seat).

        With ``first_player="random"`` they begin with the draw of the first player, ``first`` (seat 0 if not
        given); with a fixed seat, ``first`` must be that seat or None. The hands must have the sizes of a deal from
        the first player's left (:meth:`Rules.hand_sizes`).
        """
        rules = self.rules
        fixed = rules.starter_seat
        if fixed is not None and first not in (None, fixed):
            raise ValueError(f"first={first}: seat {fixed} always starts in this variant")
        starter = fixed if fixed is not None else (0 if first is None else first)
        sizes = rules.hand_sizes(starter)
        if len(hands) != rules.players or any(len(h) != n for h, n in zip(hands, sizes)):
            raise ValueError(f"hands must hold {sizes} cards per seat (seat {starter} starts); got "
                             f"{[len(h) for h in hands]}")
        actions = [] if fixed is not None else [starter]
        for v in range(1, rules.values + 1):
            split = tuple(h.count(v) for h in hands)
            if sum(split) != rules.copies:
                raise ValueError(f"value {v} is dealt {sum(split)} times; the deck has {rules.copies}")
            actions.append(self.deal_table.splits.index(split))
        return actions


class LiarObserver:
    """Strings for OpenSpiel observers (no tensors: the solvers here work on strings).

    ``perfect_recall`` gives the history (:meth:`~trustme_analysis.games.liar.engine.state.LiarState.history_view`), otherwise the table now
    (:meth:`~trustme_analysis.games.liar.engine.state.LiarState.table_view`). The public part is the same for every player; the private part (the
    player's deal, hand, own cards in plays, piles it picked up, its bluff points) is added only with
    ``private_info=SINGLE_PLAYER``. Settings the game does not provide are refused.
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Any = None):
        if params:
            raise ValueError(f"trustme_liar observer takes no parameters; got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("trustme_liar observer: private_info=ALL_PLAYERS is not provided; allowed: NONE or "
                             "SINGLE_PLAYER")
        if not iig_obs_type.public_info:
            raise ValueError("trustme_liar observer: public_info=False is not provided (a player's private cards "
                             "are shown on the public table); allowed: public_info=True")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: LiarState, player: int) -> None:
        """Nothing to write: this observer has no tensor."""

    def string_from(self, state: LiarState, player: int) -> str:
        """The history (perfect recall) or the table of ``state`` as ``player`` sees it; without private information
        the same string for every player."""
        viewer = player if self.private else None
        if self.perfect_recall:
            return state.history_view(viewer)
        return state.table_view(viewer)


pyspiel.register_game(GAME_TYPE, LiarGame)
