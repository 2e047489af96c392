"""How the decisions of Trust Me (1981) are numbered: one flat action space, laid out by :class:`ActionCodec`.

The layout (``S`` spaces, ``P`` briefcases, ``W`` Wild Goose Chase spaces, ``N`` players):

- ``0..S-1``: move the piece to that space (the end of a roll; :mod:`~trustme_analysis.games.board1981.engine.board` lists the reachable ones);
- ``look``, ``claim_unseen``, ``decline`` (the choice on a colored space; ``decline`` also passes a Hot Tip, the
  optional peek and a Challenge card), ``roll`` (start the turn by rolling), ``claim_looked`` (claim the property
  looked at last turn), ``invest_now`` (start the investing round on the Company);
- ``P`` actions "look under briefcase q" (a Hot Tip or the optional peek);
- ``W`` actions "send the player to Wild Goose Chase space w";
- ``N`` actions "challenge player p";
- the investing decisions (:class:`~trustme_analysis.games.board1981.engine.investing.InvestingRules`: hold, buy a lot,
  buy max, divest a lot, divest all).

Example:
    >>> from trustme_analysis.games.board1981.engine.rules import Rules
    >>> codec = ActionCodec(Rules.from_params({"players": 2}))
    >>> codec.decode(codec.look_under(3))
    Move(verb='look_case', arg=3)
    >>> codec.decode(codec.invest(0))
    Move(verb='invest', arg=0)
"""

from __future__ import annotations

from typing import NamedTuple

from trustme_analysis.games.board1981.engine.rules import Rules

# Verbs of the flat action space (ActionCodec.decode).
MOVE_TO = "move_to"
LOOK = "look"
CLAIM_UNSEEN = "claim_unseen"
DECLINE = "decline"
ROLL = "roll"
CLAIM_LOOKED = "claim_looked"
INVEST_NOW = "invest_now"
LOOK_CASE = "look_case"
SEND_WGC = "send_wgc"
CHALLENGE = "challenge"
INVEST = "invest"


class Move(NamedTuple):
    """A decoded action: its verb and argument (a space, a briefcase, a Wild Goose Chase slot, a player or an
    investing decision's local index; 0 for the verbs without one)."""

    verb: str
    arg: int


class ActionCodec:
    """The numbering of one variant's actions (see the module docstring).

    Attributes:
        look, claim_unseen, decline, roll, claim_looked, invest_now: the single actions.
        first_case, first_send, first_challenge, first_invest: where each block starts.
        num_actions: the size of the action space.
    """

    def __init__(self, rules: Rules):
        board = rules.board
        spaces = board.num_spaces
        self.num_spaces = spaces
        self.look = spaces
        self.claim_unseen = spaces + 1
        self.decline = spaces + 2
        self.roll = spaces + 3
        self.claim_looked = spaces + 4
        self.invest_now = spaces + 5
        self.first_case = spaces + 6
        self.first_send = self.first_case + rules.num_properties
        self.first_challenge = self.first_send + len(board.wild_goose_chase)
        self.first_invest = self.first_challenge + rules.players
        self.investing = rules.investing
        self.num_actions = self.first_invest + self.investing.num_actions
        self._single = {
            self.look: LOOK,
            self.claim_unseen: CLAIM_UNSEEN,
            self.decline: DECLINE,
            self.roll: ROLL,
            self.claim_looked: CLAIM_LOOKED,
            self.invest_now: INVEST_NOW,
        }

    def __deepcopy__(self, memo: dict) -> "ActionCodec":
        # Immutable once built: clones of a state share it (pyspiel clones Python states with copy.deepcopy).
        return self

    def look_under(self, prop: int) -> int:
        """The action "look under briefcase ``prop``" (a Hot Tip or the optional peek)."""
        return self.first_case + prop

    def send_to(self, slot: int) -> int:
        """The action "send to the Wild Goose Chase space number ``slot``" (in the board's order)."""
        return self.first_send + slot

    def challenge(self, player: int) -> int:
        """The action "challenge ``player``"."""
        return self.first_challenge + player

    def invest(self, local: int) -> int:
        """The action of the investing decision with local index ``local``."""
        return self.first_invest + local

    def decode(self, action: int) -> Move:
        """The :class:`Move` an action number stands for (``ValueError`` out of range)."""
        if 0 <= action < self.num_spaces:
            return Move(MOVE_TO, action)
        verb = self._single.get(action)
        if verb is not None:
            return Move(verb, 0)
        if self.first_case <= action < self.first_send:
            return Move(LOOK_CASE, action - self.first_case)
        if self.first_send <= action < self.first_challenge:
            return Move(SEND_WGC, action - self.first_send)
        if self.first_challenge <= action < self.first_invest:
            return Move(CHALLENGE, action - self.first_challenge)
        if self.first_invest <= action < self.num_actions:
            return Move(INVEST, action - self.first_invest)
        raise ValueError(f"action {action} out of range 0..{self.num_actions - 1}")
