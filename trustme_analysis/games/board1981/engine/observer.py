"""What one player observes in ``trustme_1981``: information state strings, observation strings and tensors.

Follows OpenSpiel's ``make_py_observer`` pattern: one flat float tensor with named views in ``dict``, rewritten in
place by :meth:`TrustMe1981Observer.set_from`. The observation type says what to include:

- the *public* part (``public_info``): everything at the table (:mod:`~trustme_analysis.games.board1981.engine.views`): pieces, claims, money, shares, the
  reserve, the briefcases gone and their cards, who has looked where, the phase and who decides. It is the same for
  every player; no player prefix or player one-hot is added to it.
- the *private* part (``private_info=SINGLE_PLAYER``): the player's seat and the Payoff cards under the briefcases it
  has looked at (still on the board).

With ``perfect_recall`` the string is the information state: the private part, then every action after the deal
(rolls, Trust Me cards, moves, looks, claims, investing: all seen at the table; only the deal, the cards set aside
and the cards a player looked at are hidden).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.board1981.engine.investing import NUM_PAYOFF_KINDS
from trustme_analysis.games.board1981.engine.state import PHASE_NAMES
from trustme_analysis.games.board1981.engine.views import private_part, public_part


class TrustMe1981Observer:
    """Observer for ``trustme_1981``.

    Args:
        game: the loaded game.
        iig_obs_type: which information to include (pyspiel's ``IIGObservationType``).
    """

    def __init__(self, game: Any, iig_obs_type: pyspiel.IIGObservationType):
        rules = game.rules
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        n, spaces, props = rules.players, rules.board.num_spaces, rules.num_properties
        pieces: list[tuple[str, int]] = []
        if self.private:
            pieces += [("player", n), ("known_card", props * NUM_PAYOFF_KINDS)]
        if self.public:
            pieces += [
                ("position", n * spaces),
                ("claim", n * (props + 1)),
                ("money", n),
                ("shares", n),
                ("reserve", 1),
                ("gone", props),
                ("gone_card", props * NUM_PAYOFF_KINDS),
                ("seen_by", n * props),
                ("revealed", NUM_PAYOFF_KINDS),
                ("phase", len(PHASE_NAMES)),
                ("current", n),
            ]
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        index = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[index : index + size]
            index += size

    def set_from(self, state: Any, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor`` (in place)."""
        rules = self.game.rules
        n, spaces, props = rules.players, rules.board.num_spaces, rules.num_properties
        self.tensor.fill(0)
        d = self.dict
        if self.private:
            d["player"][player] = 1
            revealed = state.revealed_cards()
            for q, c in state.known_cards(player).items():
                if q not in revealed:
                    d["known_card"][q * NUM_PAYOFF_KINDS + c] = 1
        if not self.public:
            return
        positions, claims, money, shares = state.positions(), state.claims(), state.money(), state.shares()
        looked = state.looked_masks()
        for p in range(n):
            d["position"][p * spaces + positions[p]] = 1
            d["claim"][p * (props + 1) + claims[p] + 1] = 1
            d["money"][p] = money[p]
            d["shares"][p] = shares[p]
            for q in range(props):
                if looked[p] >> q & 1:
                    d["seen_by"][p * props + q] = 1
        d["reserve"][0] = state.reserve()
        for q, c in state.revealed_cards().items():
            d["gone"][q] = 1
            d["gone_card"][q * NUM_PAYOFF_KINDS + c] = 1
        d["revealed"][:] = state.revealed_counts()
        d["phase"][PHASE_NAMES.index(state.phase_name())] = 1
        current = state.current_player()
        if 0 <= current < n:
            d["current"][current] = 1

    def string_from(self, state: Any, player: int) -> str:
        """The information state string (perfect recall) or the current position as ``player`` sees it."""
        if self.perfect_recall:
            parts = [private_part(state, player)] if self.private else []
            if self.public:
                props = self.game.rules.num_properties
                parts.append("| " + " ".join(str(a) for a in state.history()[props:]))
            return " ".join(parts)
        parts = [public_part(state)] if self.public else []
        if self.private:
            parts.append(private_part(state, player))
        return " ".join(parts)
