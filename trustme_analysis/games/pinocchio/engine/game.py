"""The ``trustme_pinocchio`` pyspiel game: type, sizes computed from the parameters, registration."""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.engine.gametype import registered_type, with_utility
from trustme_analysis.games.pinocchio.engine.actions import ActionCodec
from trustme_analysis.games.pinocchio.engine.observer import PinocchioObserver
from trustme_analysis.games.pinocchio.engine.rules import DEFAULTS, SHORT_NAME, Rules
from trustme_analysis.games.pinocchio.engine.state import PinocchioState

#: The registered type; each instance carries it with its variant's utility kind (``engine.gametype.with_utility``).
GAME_TYPE = registered_type(SHORT_NAME, "Trust Me (Pinocchio card game)", 4, DEFAULTS,
                            zero_sum=DEFAULTS["utility"] != "score")


def max_game_length(rules: Rules, codec: ActionCodec) -> int:
    """An upper bound on the number of actions (chance included) in one game.

    Between two run-outs every turn draws a Character from a deck that only shrinks, so a period has at most
    ``deck + 1`` turns; each turn has at most a draw, an action, the votes, a vote Coin, the Coin offers and toss, two
    Park refills and a free Use Reputation action.

    Args:
        rules (trustme_analysis.games.pinocchio.engine.rules.Rules): the variant.
        codec (trustme_analysis.games.pinocchio.engine.actions.ActionCodec): its action numbering.
    """
    n = rules.players
    per_turn = 2 + 2 * (n - 1) + 2 + 2 * rules.refill + 1
    turns = rules.runouts_to_end * (rules.total_characters + 1)
    first = 1 if rules.first_player == "random" else 0  # the first player's draw
    return first + rules.park_size + n * rules.hand_size + turns * per_turn + 1


def _game_info(rules: Rules, codec: ActionCodec) -> pyspiel.GameInfo:
    n = rules.players
    best = sum((v + 1) * k for v, k in enumerate(rules.stacks)) + max(rules.chart)
    if rules.utility == "win_loss":
        low, high, total = -1.0 / (n - 1), 1.0, 0.0
    elif rules.utility == "score":
        low, high, total = 0.0, float(best), None
    else:
        low, high, total = -float(best), float(best), 0.0
    return pyspiel.GameInfo(
        num_distinct_actions=codec.num_actions,
        max_chance_outcomes=max(rules.values, 2, n),
        num_players=n,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_game_length=max_game_length(rules, codec),
    )


class PinocchioGame(pyspiel.Game):
    """``trustme_pinocchio``: load with ``pyspiel.load_game("trustme_pinocchio(players=3)")``.

    Attributes:
        rules: the validated :class:`~trustme_analysis.games.pinocchio.engine.rules.Rules` of this variant.
        codec: the :class:`~trustme_analysis.games.pinocchio.engine.actions.ActionCodec` numbering its actions.
    """

    #: The registered pyspiel type (a subclass registered under another type, as the kernel's parameter-net test
    #: does, plays the same engine under that type).
    game_type = GAME_TYPE

    def __init__(self, params: dict[str, Any] | None = None):
        # Validate before super().__init__ so the sizes given to pyspiel come from these parameters.
        rules = Rules.from_params(params)
        codec = ActionCodec(rules)
        # Zero-sum unless the utility is the raw score (win/loss and the 2-player difference are zero-sum).
        super().__init__(with_utility(self.game_type, rules.utility != "score"), _game_info(rules, codec), params or {})
        self.rules = rules
        self.codec = codec

    def new_initial_state(self) -> PinocchioState:
        """The start of a game: chance deals the Park first, then each hand."""
        return PinocchioState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> PinocchioObserver:
        """The observer pyspiel uses for information state strings and observations."""
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported; got {params}")
        return PinocchioObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.rules)

    def assumptions(self) -> list[dict[str, Any]]:
        """Each assumption in force for this variant: ``{"parameter", "value", "text"}``."""
        return self.rules.assumptions()

    def decode_action(self, action: int):
        """The :class:`~trustme_analysis.games.pinocchio.engine.actions.Move` a player action number stands for."""
        return self.codec.decode(action)


pyspiel.register_game(GAME_TYPE, PinocchioGame)
