"""How the players' choices of the Pinocchio game are numbered as pyspiel actions.

A turn's action names the Character played from hand and what it does, in one number:

- Tell a Tale, hand Character ``w`` face-down below a Park ``v``: ``(v-1)*V + (w-1)``.
- Use Reputation, hand ``w`` face-up to the Park, discard combo ``c``: ``V*V + (w-1)*C + c``.
- Take a Character from the Park, hand ``w`` face-up to the Park, take a Park ``u``: ``V*V + V*C + (w-1)*V + (u-1)``.
- The free Use Reputation action at a day's end with a pending bonus turn, discard ``c``: ``V*V + V*C + V*V + c``.
- Then one id each, in this order: decline the free action, pass (no card in hand), "I trust you", "I do not trust
  you", toss the Coin, do not toss.

``V`` is the number of Character values and ``C`` the number of discard combos: a *set* of ``k`` equal values
(``k = 1..V``; ``k`` is the Ticket gained) or a *run* of ``k >= 2`` consecutive values, each once. Parks and hands are
kept as counts per value, so equal Characters are one choice, not several.

Chance outcomes: a dealt or drawn Character is its value minus 1; a Coin toss is 0 = donkey (not trusted), 1 = kid
(trusted); the final tie-break Coin names the winning seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from trustme_analysis.games.pinocchio.engine.rules import Rules

DONKEY, KID = 0, 1
COIN_SIDES = ("donkey", "kid")

# Move kinds.
TALE, REPUTATION, TAKE, FREE_REPUTATION, DECLINE, PASS, TRUST, DISTRUST, TOSS, NO_TOSS = range(10)
KIND_NAMES = ("tale", "reputation", "take", "free_reputation", "decline", "pass", "trust", "distrust", "toss",
              "no_toss")


@dataclass(frozen=True)
class Combo:
    """Characters discarded from a Reputation for one Ticket: a set of equal values or a run of consecutive ones.

    Attributes:
        start: the lowest value in it.
        length: how many Characters; also the value of the Ticket gained.
        run: True for a run of consecutive values, False for a set of equal values.
        counts: Characters of each value taken (index ``value - 1``).
    """

    start: int
    length: int
    run: bool
    counts: tuple[int, ...]

    def __str__(self) -> str:
        if self.run:
            return "run " + "-".join(str(self.start + i) for i in range(self.length))
        return f"set {self.length}x{self.start}"


@dataclass(frozen=True)
class Move:
    """A decoded player action.

    Attributes:
        kind: one of the move kinds (``TALE`` ... ``NO_TOSS``); ``KIND_NAMES[kind]`` names it.
        hand: value of the Character played from hand (or 0).
        park: for a tale, the Park value claimed; for a take, the Park value taken (or 0).
        combo: for Use Reputation, the discard (or None).
    """

    kind: int
    hand: int = 0
    park: int = 0
    combo: Combo | None = None

    @property
    def kind_name(self) -> str:
        """The kind as a word (``"tale"``, ``"reputation"``, ...)."""
        return KIND_NAMES[self.kind]

    @property
    def tall(self) -> bool:
        """For a tale: True when the hand Character does not match the Park one (a tall tale)."""
        return self.kind == TALE and self.hand != self.park


def make_combos(values: int, per_value: int) -> tuple[Combo, ...]:
    """Every set (size 1..min(values, per_value)) and run (length 2..values) a Reputation could discard."""
    combos: list[Combo] = []
    for start in range(1, values + 1):
        for k in range(1, min(values, per_value) + 1):
            counts = [0] * values
            counts[start - 1] = k
            combos.append(Combo(start, k, False, tuple(counts)))
    for start in range(1, values + 1):
        for k in range(2, values - start + 2):
            counts = [0] * values
            for v in range(start, start + k):
                counts[v - 1] = 1
            combos.append(Combo(start, k, True, tuple(counts)))
    return tuple(combos)


class ActionCodec:
    """Numbering of the actions of one variant; built once per game.

    Args:
        rules (trustme_analysis.games.pinocchio.engine.rules.Rules): the variant.
    """

    def __init__(self, rules: Rules):
        V = rules.values
        self.values = V
        self.combos = make_combos(V, rules.deck_per_value)
        C = len(self.combos)
        #: Largest set size offered; the set of ``k`` Characters of value ``a`` is combo ``(a-1)*set_max + k-1``.
        self.set_max = min(V, rules.deck_per_value)
        #: ``run_index[a][k]``: the combo number of the run of ``k`` values from ``a + 1`` (0-based ``a``).
        self.run_index: tuple[tuple[int, ...], ...] = tuple(
            tuple(next((i for i, c in enumerate(self.combos) if c.run and c.start == a + 1 and c.length == k), -1)
                  for k in range(V + 1))
            for a in range(V)
        )
        self.tale_base = 0
        self.rep_base = V * V
        self.take_base = self.rep_base + V * C
        self.free_base = self.take_base + V * V
        self.decline = self.free_base + C
        self.pass_ = self.decline + 1
        self.trust = self.pass_ + 1
        self.distrust = self.trust + 1
        self.toss = self.distrust + 1
        self.no_toss = self.toss + 1
        self.num_actions = self.no_toss + 1
        moves: list[Move] = []
        for v in range(1, V + 1):
            for w in range(1, V + 1):
                moves.append(Move(TALE, hand=w, park=v))
        for w in range(1, V + 1):
            for c in self.combos:
                moves.append(Move(REPUTATION, hand=w, combo=c))
        for w in range(1, V + 1):
            for u in range(1, V + 1):
                moves.append(Move(TAKE, hand=w, park=u))
        for c in self.combos:
            moves.append(Move(FREE_REPUTATION, combo=c))
        moves += [Move(DECLINE), Move(PASS), Move(TRUST), Move(DISTRUST), Move(TOSS), Move(NO_TOSS)]
        assert len(moves) == self.num_actions
        self.moves: tuple[Move, ...] = tuple(moves)

    def __deepcopy__(self, memo: dict) -> ActionCodec:
        return self

    def tale(self, park: int, hand: int) -> int:
        """Tell a tale: hand Character ``hand`` face-down below a Park Character ``park``."""
        return self.tale_base + (park - 1) * self.values + (hand - 1)

    def reputation(self, hand: int, combo: int) -> int:
        """Use Reputation: play ``hand`` face-up into the Park and discard combo number ``combo``."""
        return self.rep_base + (hand - 1) * len(self.combos) + combo

    def take(self, hand: int, park: int) -> int:
        """Take from the Park: play ``hand`` face-up into the Park and take a Park Character ``park``."""
        return self.take_base + (hand - 1) * self.values + (park - 1)

    def free_reputation(self, combo: int) -> int:
        """The free Use Reputation action at the day's end: discard combo number ``combo``."""
        return self.free_base + combo

    def combo_index(self, *, start: int, length: int, run: bool = False) -> int:
        """The number of the set (``run=False``) or run starting at ``start`` with ``length`` Characters."""
        for i, c in enumerate(self.combos):
            if c.start == start and c.length == length and (c.run == run or length == 1):
                return i
        raise ValueError(f"no {'run' if run else 'set'} of {length} from value {start} in this variant")

    def decode(self, action: int) -> Move:
        """The :class:`Move` an action number stands for."""
        return self.moves[action]

    def describe(self, action: int) -> str:
        """A short human-readable name of a player action (used by ``action_to_string``)."""
        m = self.moves[action]
        if m.kind == TALE:
            return f"Tale {m.hand} below Park {m.park}"
        if m.kind == REPUTATION:
            return f"Reputation: play {m.hand}, discard {m.combo} for Ticket {m.combo.length}"
        if m.kind == TAKE:
            return f"Take: play {m.hand}, take Park {m.park}"
        if m.kind == FREE_REPUTATION:
            return f"Free Reputation: discard {m.combo} for Ticket {m.combo.length}"
        return ("Decline free Reputation", "Pass (no card)", "I trust you", "I do not trust you", "Toss the Coin",
                "Do not toss")[m.kind - DECLINE]
