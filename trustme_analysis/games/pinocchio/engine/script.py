"""Play a Pinocchio game by the rulebook's words, choosing the chance outcomes: scripted scenarios for tests and docs.

>>> t = Table("trustme_pinocchio(players=3)", park=[1, 2, 3, 4], hands=[[5], [6], [1]])
>>> t.draw(1)                      # seat 0 draws Pinocchio (1)
>>> t.tale(park=1, hand=1)         # ... and places it below the Pinocchio in the Park: a true tale
>>> t.vote(False, False)           # seats 1 and 2: "I do not trust you"
>>> t.snap["reputations"][0], t.snap["pending_bonus"], t.snap["current_player"]
([1, 1], False, -1)
>>> t.events("bonus_turn")
[{'kind': 'bonus_turn', 'turn': 1, 'player': 0}]
"""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.games.pinocchio.engine import actions as A


class Table:
    """A game in progress whose every chance outcome and move is given by name.

    Each method checks that its action is legal (or, for chance, possible) before applying it, and fails with the
    list of what was possible.

    Args:
        game: a loaded ``trustme_pinocchio`` game or its game string.
        park: the Characters flipped into the Park at set-up.
        hands: each seat's starting hand.
        first: the seat chance picks to start (``first_player=random`` only).
    """

    def __init__(self, game: pyspiel.Game | str, park: list[int], hands: list[list[int]], first: int | None = None):
        if isinstance(game, str):
            # Importing this module imported its package, which registered the game with pyspiel.
            game = pyspiel.load_game(game)
        self.game = game
        self.codec: A.ActionCodec = game.codec
        self.state = game.new_initial_state()
        if first is not None:
            if self.snap["phase"] != "first_player":
                raise ValueError("no first-player draw here: the variant has first_player=seat0")
            self._chance(first)
        for v in park:
            self._chance(v - 1)
        for hand in hands:
            for v in hand:
                self._chance(v - 1)

    # -- looking

    @property
    def snap(self) -> dict[str, Any]:
        """The state's :meth:`snapshot`."""
        return self.state.snapshot()

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The events so far, or only those of ``kind``."""
        return [e for e in self.snap["events"] if kind is None or e["kind"] == kind]

    def legal_moves(self) -> list[A.Move]:
        """The current player's legal actions, decoded."""
        return [self.codec.decode(a) for a in self.state.legal_actions()]

    # -- chance

    def _chance(self, outcome: int) -> None:
        if not self.state.is_chance_node():
            raise ValueError(f"not a chance node: phase {self.snap['phase']}")
        possible = dict(self.state.chance_outcomes())
        if outcome not in possible:
            raise ValueError(f"chance outcome {outcome} impossible here; possible: {sorted(possible)}")
        self.state.apply_action(outcome)

    def draw(self, *values: int) -> None:
        """Chance draws these Characters (a turn's draw, a Park refill), in order."""
        for v in values:
            if self.snap["phase"] not in ("draw", "refill"):
                raise ValueError(f"no draw now: phase {self.snap['phase']}")
            self._chance(v - 1)

    def coin(self, side: str) -> None:
        """The Coin lands ``"kid"`` (trusted) or ``"donkey"`` (not trusted)."""
        self._chance(A.COIN_SIDES.index(side))

    def tie_coin(self, winner: int) -> None:
        """The final tie-break Coin picks ``winner``."""
        self._chance(winner)

    # -- moves

    def _move(self, action: int) -> None:
        legal = self.state.legal_actions()
        if action not in legal:
            names = [self.codec.describe(a) for a in legal]
            raise ValueError(f"illegal: {self.codec.describe(action)}; legal: {names}")
        self.state.apply_action(action)

    def tale(self, park: int, hand: int) -> None:
        """Tell a Tale: the hand Character ``hand`` face-down below a Park Character ``park``."""
        self._move(self.codec.tale(park, hand))

    def vote(self, *trust: bool) -> None:
        """The voters' declarations in turn order from the active player's left (True = "I trust you")."""
        for t in trust:
            self._move(self.codec.trust if t else self.codec.distrust)

    def offer(self, toss: bool) -> None:
        """Coin variant: the offered player tosses the Coin (True) or not."""
        self._move(self.codec.toss if toss else self.codec.no_toss)

    def reputation(self, hand: int, start: int, length: int, run: bool = False) -> None:
        """Use Reputation: play ``hand`` face-up into the Park, discard a set or run, gain Ticket ``length``."""
        self._move(self.codec.reputation(hand, self.codec.combo_index(start=start, length=length, run=run)))

    def free_reputation(self, start: int, length: int, run: bool = False) -> None:
        """The free Use Reputation action at a day's end (no Character played)."""
        self._move(self.codec.free_reputation(self.codec.combo_index(start=start, length=length, run=run)))

    def decline(self) -> None:
        """Decline the free Use Reputation action."""
        self._move(self.codec.decline)

    def take(self, hand: int, park: int) -> None:
        """Take a Character from the Park: play ``hand`` face-up into the Park, take a ``park`` Character."""
        self._move(self.codec.take(hand, park))

    def pass_turn(self) -> None:
        """Pass (only when the hand is empty)."""
        self._move(self.codec.pass_)
