"""Trust Me (1981), the Parker Brothers board game, as the OpenSpiel game ``trustme_1981``: its type, its sizes
computed from the parameters, and its registration with pyspiel.

The rules live in :mod:`~trustme_analysis.games.board1981.engine.rules` (parameters and assumptions), :mod:`~trustme_analysis.games.board1981.engine.actions` (the action numbering), :mod:`~trustme_analysis.games.board1981.engine.state`
(a game step by step), :mod:`~trustme_analysis.games.board1981.engine.investing` (the investing round and the Payoff cards, shared with
``trustme_1981_investment``), :mod:`~trustme_analysis.games.board1981.engine.board` (the board as data) and :mod:`~trustme_analysis.games.board1981.engine.events` (what the snapshot reports).

Example:
    >>> import pyspiel, trustme_analysis
    >>> game = pyspiel.load_game("trustme_1981(players=3)")
    >>> game.num_players(), game.rules.payoff_mix
    (3, (6, 4, 4, 2))
"""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.engine.gametype import registered_type, with_utility
from trustme_analysis.games.board1981.engine.actions import ActionCodec, Move
from trustme_analysis.games.board1981.engine.events import EVENTS, EventWriter
from trustme_analysis.games.board1981.engine.investing import NUM_PAYOFF_KINDS
from trustme_analysis.games.board1981.engine.observer import TrustMe1981Observer
from trustme_analysis.games.board1981.engine.rules import (
    DEFAULTS,
    DIE_FACES,
    MAX_ROLL_OFF_TIES,
    SHORT_NAME,
    Rules,
)
from trustme_analysis.games.board1981.engine.state import TrustMe1981State

GAME_TYPE = registered_type(SHORT_NAME, "Trust Me (1981 board game)", 4, DEFAULTS)


def steps_per_turn(rules: Rules) -> int:
    """An upper bound on the actions and chance outcomes of one turn (rolls, moves, cards, a challenge's roll-offs,
    the sends, the investing decisions)."""
    return 60 + 2 * MAX_ROLL_OFF_TIES + 2 * rules.players


def _game_info(rules: Rules, codec: ActionCodec) -> pyspiel.GameInfo:
    n, props = rules.players, rules.num_properties
    # Each reveal at most triples everybody's wealth together (Two Stacks pays twice the shares held).
    w_max = float(n * rules.start_wealth * 3**props)
    low, high = {"win_loss": (-1.0, 1.0), "wealth": (0.0, w_max), "wealth_diff": (-w_max, w_max)}[rules.utility]
    info: dict[str, Any] = dict(
        num_distinct_actions=codec.num_actions,
        max_chance_outcomes=max(NUM_PAYOFF_KINDS, DIE_FACES, n, props + 2),
        num_players=n,
        min_utility=low,
        max_utility=high,
        max_game_length=props + 1 + n + rules.max_turns * steps_per_turn(rules),
    )
    if rules.utility != "wealth":
        info["utility_sum"] = 0.0
    return pyspiel.GameInfo(**info)


class TrustMe1981Game(pyspiel.Game):
    """``trustme_1981``: load with ``pyspiel.load_game("trustme_1981(players=3)")``.

    Attributes:
        rules: the validated :class:`~trustme_analysis.games.board1981.engine.rules.Rules` of this variant.
        actions: the :class:`~trustme_analysis.games.board1981.engine.actions.ActionCodec` numbering its actions.
        board: the board (``rules.board``).
        event_writer: writes the logged events as dicts (:mod:`~trustme_analysis.games.board1981.engine.events`).
    """

    def __init__(self, params: dict[str, Any] | None = None):
        # Validate before super().__init__ so the sizes given to pyspiel come from these parameters.
        rules = Rules.from_params(params)
        codec = ActionCodec(rules)
        super().__init__(with_utility(GAME_TYPE, rules.utility != "wealth"), _game_info(rules, codec), rules.params)
        self.rules = rules
        self.actions = codec
        self.board = rules.board
        self.event_writer = EventWriter(EVENTS, rules.investing, rules.board)

    def __reduce__(self):
        # States hold their game; pickling it by its string makes an unpickled state carry a fully built game.
        return (pyspiel.load_game, (str(self),))

    def __deepcopy__(self, memo):
        # The game is immutable once built: clones of a state share it instead of rebuilding the board.
        return self

    def new_initial_state(self) -> TrustMe1981State:
        """The start of a game: nothing dealt yet."""
        return TrustMe1981State(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> TrustMe1981Observer:
        """The observer pyspiel uses for information state strings, observation strings and tensors."""
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported; got {params}")
        return TrustMe1981Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def decode_action(self, action: int) -> Move:
        """The :class:`~trustme_analysis.games.board1981.engine.actions.Move` (verb, argument) an action number stands
        for, e.g. ``("move_to", space)``, ``("invest", local index)``."""
        return self.actions.decode(action)

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force: ``{"parameter", "value", "text"}`` per open point of the rule text."""
        return self.rules.assumptions()


pyspiel.register_game(GAME_TYPE, TrustMe1981Game)
