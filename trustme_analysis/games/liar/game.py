"""``trustme_liar``: the Cheat/"Menteur" card game of rule text ``004`` as an OpenSpiel Python game.

A round: the starter plays 1 to ``max_play`` cards face down and announces a value (only the value can be a lie);
then each player in turn calls liar on the last play, plays more cards announcing the same value, or passes. A
challenge turns over only the last play: any false card and the liar picks up the whole pile, else the accuser does;
the one who did not pick up starts the next round. When all the others have passed, the last player to have played
adds cards or burns the pile and starts a new round. The starter cannot pass. A player who plays their last cards is
out, and the game over, if the play survives the others' calls. See ``docs/games/liar.rst`` for the rule -> code
table and :mod:`trustme_analysis.games.liar.config` for the parameters and assumptions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine.gametype import with_utility
from trustme_analysis.games.liar import deal, plays, scoring
from trustme_analysis.games.liar.config import DEFAULTS, SHORT_NAME, LiarConfig
from trustme_analysis.games.liar.plays import BURN, FIRST_PLAY, LIAR, PASS

_MAX_PLAYERS = 6

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name='Trust Me: Cheat / "Menteur" (Classique and Trust Me scoring)',
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=dict(DEFAULTS),
)


def _game_type(config: LiarConfig) -> pyspiel.GameType:
    # Rank and difference utilities are zero-sum, which solvers can exploit; points are general-sum.
    return with_utility(GAME_TYPE, config.utility_in_force in ("rank", "difference"))


class LiarRules:
    """The fixed data of one variant, shared by every state (never copied when a state is cloned)."""

    def __init__(self, config: LiarConfig):
        self.config = config
        self.multisets = plays.all_multisets(config.values, config.copies, config.max_play)
        self.multiset_index = {m: i for i, m in enumerate(self.multisets)}
        # Counts per value of each multiset: a hand can play a multiset when it holds every count (one numpy test).
        self.multiset_counts = np.array(
            [plays.to_counts(m, config.values) for m in self.multisets], dtype=np.int16
        ).reshape(len(self.multisets), config.values)
        self.splits = deal.splits(config.copies, config.players)
        self.hand_sizes = config.hand_sizes()

    def __deepcopy__(self, memo: dict) -> LiarRules:
        return self

    def playable(self, hand: list[int]) -> np.ndarray:
        """Indices (ascending) of the multisets ``hand`` (counts per value) can play."""
        return np.flatnonzero((self.multiset_counts <= np.asarray(hand, dtype=np.int16)).all(axis=1))

    def play_actions(self, hand: list[int], announced: list[int] | np.ndarray) -> list[int]:
        """The play actions (ascending) of ``hand`` with each announced value in ``announced`` (ascending)."""
        index = self.playable(hand)
        ids = FIRST_PLAY + index[:, None] * self.config.values + np.asarray(announced, dtype=np.int64)[None, :]
        return ids.ravel().tolist()

    def play_action(self, cards: tuple[int, ...], announced: int) -> int:
        """The action id of playing 0-based ``cards`` and announcing 0-based ``announced``."""
        index = self.multiset_index.get(tuple(sorted(cards)))
        if index is None or not 0 <= announced < self.config.values:
            c = self.config
            raise ValueError(
                f"not a play: cards {[v + 1 for v in cards]} announced as {announced + 1}; a play is 1 to "
                f"{c.max_play} cards of values 1..{c.values} (each at most {c.copies} times) and a value 1..{c.values}"
            )
        return FIRST_PLAY + index * self.config.values + announced

    def decode_play(self, action: int) -> tuple[tuple[int, ...], int]:
        """``(cards, announced)``, 0-based, of a play action."""
        index, announced = divmod(action - FIRST_PLAY, self.config.values)
        return self.multisets[index], announced


class LiarGame(pyspiel.Game):
    """The ``trustme_liar`` game; parameters as in :class:`~trustme_analysis.games.liar.config.LiarConfig`."""

    def __init__(self, params: dict[str, Any] | None = None):
        config = LiarConfig.from_params(params)
        rules = LiarRules(config)
        low, high = scoring.utility_bounds(config)
        info = pyspiel.GameInfo(
            num_distinct_actions=FIRST_PLAY + len(rules.multisets) * config.values,
            max_chance_outcomes=len(rules.splits),
            num_players=config.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if config.utility_in_force in ("rank", "difference") else None,
            max_game_length=config.values + config.max_turns,
        )
        super().__init__(_game_type(config), info, params or {})
        self.config = config
        self.rules = rules

    def new_initial_state(self) -> LiarState:
        """A state before the deal."""
        return LiarState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None):
        """Observer giving information-state strings (perfect recall) and observation strings."""
        return LiarObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force, ``{"parameter", "value", "text"}`` each (see :class:`LiarConfig`)."""
        return self.config.assumptions()

    def play_action(self, cards: tuple[int, ...] | list[int], announced: int) -> int:
        """The action id for playing ``cards`` (values ``1..values``) while announcing ``announced`` (1-based)."""
        return self.rules.play_action(tuple(v - 1 for v in cards), announced - 1)

    def deal_actions(self, hands: list[list[int]]) -> list[int]:
        """The chance actions that deal exactly ``hands`` (lists of values ``1..values``, one per seat)."""
        config = self.config
        if len(hands) != config.players or any(len(h) != n for h, n in zip(hands, self.rules.hand_sizes)):
            raise ValueError(f"hands must hold {self.rules.hand_sizes} cards per seat; got {[len(h) for h in hands]}")
        actions = []
        for v in range(1, config.values + 1):
            split = tuple(h.count(v) for h in hands)
            if sum(split) != config.copies:
                raise ValueError(f"value {v} is dealt {sum(split)} times; the deck has {config.copies}")
            actions.append(self.rules.splits.index(split))
        return actions


class LiarTable:
    """The mutable position of one game: hands, pile, round, counters and the event log.

    Kept in one object so that cloning a state (which OpenSpiel does by deep-copying each attribute) copies plain
    lists of ints and immutable tuples in one pass instead of walking them element by element.
    """

    __slots__ = (
        "dealt", "hands", "initial", "discards", "pile", "credited", "round_value", "round_starter", "passes",
        "current", "going_out", "out", "end", "turns", "burned", "false_cards", "unmasked", "wrongly_accused",
        "events",
    )

    def __init__(self, config: LiarConfig):
        n, values = config.players, config.values
        self.dealt = 0  # values dealt so far; the deal is over at ``values``
        self.hands = [[0] * values for _ in range(n)]  # cards per value in each hand
        self.initial: tuple[tuple[int, ...], ...] = ()  # hands as dealt, before discarding pairs
        self.discards: tuple[tuple[int, ...], ...] = ()
        # The face-down pile of this round: (player, announced, cards, false cards) per play, oldest first.
        self.pile: list[tuple[int, int, tuple[int, ...], int]] = []
        self.credited = 0  # leading plays of the pile whose false cards have already scored
        self.round_value = -1  # the announced value of this round; -1 before the starter plays
        self.round_starter = config.first_player
        self.passes = 0
        self.current = config.first_player
        self.going_out = -1  # a player whose last cards are on the table, awaiting the others' calls
        self.out = [False] * n
        self.end = ""  # "", "out", "setup" (out after discarding pairs) or "turn_cap"
        self.turns = 0
        self.burned = [0] * values
        self.false_cards = [0] * n  # false cards accepted or burned, per player (secret bluff points)
        self.unmasked = [0] * n
        self.wrongly_accused = [0] * n
        self.events: list[tuple] = []  # immutable tuples, so a shallow copy of the list is a deep copy

    def __deepcopy__(self, memo: dict) -> LiarTable:
        new = object.__new__(LiarTable)
        for name in ("dealt", "initial", "discards", "credited", "round_value", "round_starter", "passes",
                     "current", "going_out", "end", "turns"):
            setattr(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        for name in ("pile", "out", "burned", "false_cards", "unmasked", "wrongly_accused", "events"):
            setattr(new, name, list(getattr(self, name)))
        return new


class LiarState(pyspiel.State):
    """A position of ``trustme_liar``: the deal (chance, one node per value), then the players' turns."""

    def __init__(self, game: LiarGame):
        super().__init__(game)
        self._rules = game.rules
        self._table = LiarTable(game.rules.config)

    # --- pyspiel API -------------------------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE during the deal, TERMINAL at the end."""
        if self._table.end:
            return pyspiel.PlayerId.TERMINAL
        if self._table.dealt < self._rules.config.values:
            return pyspiel.PlayerId.CHANCE
        return self._table.current

    def is_terminal(self) -> bool:
        """Whether the game is over (someone is out, or the turn cap was reached)."""
        return bool(self._table.end)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """How the copies of the next value split between the seats, with their probabilities."""
        rules = self._rules
        room = [size - sum(hand) for size, hand in zip(rules.hand_sizes, self._table.hands)]
        return deal.split_outcomes(rules.splits, room, rules.config.copies)

    def _legal_actions(self, player: int) -> list[int]:
        rules = self._rules
        hand = self._table.hands[player]
        if self._table.going_out >= 0:
            actions = [LIAR, PASS]
            if rules.config.last_cards == "until_covered":
                actions += rules.play_actions(hand, [self._table.round_value])
            return actions
        if self._table.round_value < 0:
            announceable = [v for v in range(rules.config.values) if self._may_announce(v)]
            return rules.play_actions(hand, announceable)
        if player == self._table.pile[-1][0]:
            # Everyone else passed: the last player adds cards or burns; passing again is not an option.
            return [BURN] + rules.play_actions(hand, [self._table.round_value])
        return [LIAR, PASS] + rules.play_actions(hand, [self._table.round_value])

    def _may_announce(self, value: int) -> bool:
        if self._rules.config.announce_gone == "allowed":
            return True
        return sum(d[value] for d in self._table.discards) < self._rules.config.copies

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._deal(action)
            return
        player = self._table.current
        if action == LIAR:
            self._call_liar(player)
        elif action == PASS:
            self._pass(player)
        elif action == BURN:
            self._burn(player)
        else:
            self._play(player, action)
        self._table.turns += 1
        if not self._table.end and self._table.turns >= self._rules.config.max_turns:
            self._table.events.append(("turn_cap",))
            self._finish("turn_cap")

    # --- the rules ---------------------------------------------------------------------------------------------

    def _deal(self, action: int) -> None:
        split = self._rules.splits[action]
        for seat, k in enumerate(split):
            self._table.hands[seat][self._table.dealt] = k
        self._table.dealt += 1
        if self._table.dealt == self._rules.config.values:
            self._discard_pairs()

    def _discard_pairs(self) -> None:
        self._table.initial = tuple(tuple(h) for h in self._table.hands)
        discards = []
        for seat, hand in enumerate(self._table.hands):
            gone = [0] * len(hand)
            for v, count in enumerate(hand):
                hand[v], gone[v] = deal.discard_pairs(count)
            discards.append(tuple(gone))
            self._table.events.append(("discard", seat, tuple(plays.counts_to_cards(gone))))
        self._table.discards = tuple(discards)
        empty = [seat for seat, hand in enumerate(self._table.hands) if not any(hand)]
        if empty:
            for seat in empty:
                self._table.out[seat] = True
                self._table.events.append(("out", seat))
            self._finish("setup")

    def _play(self, player: int, action: int) -> None:
        cards, announced = self._rules.decode_play(action)
        hand = self._table.hands[player]
        for v in cards:
            hand[v] -= 1
        false = sum(1 for v in cards if v != announced)
        if not self._table.pile:
            self._table.round_starter = player
        elif self._rules.config.false_card_accepted == "covered":
            self._credit(len(self._table.pile))  # the play below can no longer be turned over
        self._table.pile.append((player, announced, cards, false))
        self._table.round_value = announced
        self._table.passes = 0
        self._table.events.append(("play", player, announced, cards, false))
        if self._table.going_out >= 0:
            # last_cards="until_covered": covering the last cards ends their challenge window; they held.
            self._table.out[self._table.going_out] = True
            self._table.events.append(("out", self._table.going_out))
            self._finish("out")
            return
        if not any(hand):
            self._table.going_out = player
        self._table.current = self._next(player)

    def _pass(self, player: int) -> None:
        self._table.passes += 1
        self._table.events.append(("pass", player))
        n = self._rules.config.players
        if self._table.going_out >= 0 and self._table.passes == n - 1:
            self._table.out[self._table.going_out] = True
            self._table.events.append(("out", self._table.going_out))
            self._finish("out")
            return
        self._table.current = self._next(player)

    def _call_liar(self, accuser: int) -> None:
        liar, announced, cards, false = self._table.pile[-1]
        picker, starter = (liar, accuser) if false else (accuser, liar)
        taken = self._pick_up(picker)
        if false:
            self._table.unmasked[accuser] += 1
        else:
            self._table.wrongly_accused[liar] += 1
        self._table.events.append(("liar", accuser, liar, announced, cards, false, picker, taken))
        self._new_round(starter)
        if self._table.going_out >= 0:
            going_out, self._table.going_out = self._table.going_out, -1
            if not false:
                self._table.out[going_out] = True
                self._table.events.append(("out", going_out))
                self._finish("out")

    def _burn(self, player: int) -> None:
        self._credit(len(self._table.pile))
        size = 0
        for _, _, cards, _ in self._table.pile:
            for v in cards:
                self._table.burned[v] += 1
            size += len(cards)
        self._table.events.append(("burn", player, size))
        self._table.pile = []
        self._table.credited = 0
        self._new_round(player)

    def _pick_up(self, picker: int) -> tuple[int, ...]:
        """Move the whole pile into ``picker``'s hand; return its cards (sorted 0-based values)."""
        hand = self._table.hands[picker]
        taken = sorted(v for _, _, cards, _ in self._table.pile for v in cards)
        for v in taken:
            hand[v] += 1
        self._table.pile = []
        self._table.credited = 0
        return tuple(taken)

    def _new_round(self, starter: int) -> None:
        self._table.round_value = -1
        self._table.round_starter = starter
        self._table.passes = 0
        self._table.current = starter

    def _credit(self, upto: int) -> None:
        """Score the false cards of the plays ``[credited, upto)`` of the pile: they were accepted."""
        for player, _, _, false in self._table.pile[self._table.credited : upto]:
            self._table.false_cards[player] += false
        self._table.credited = max(self._table.credited, upto)

    def _finish(self, end: str) -> None:
        # Whatever is still face down and unrevealed at the end was accepted (both readings agree on this).
        self._credit(len(self._table.pile))
        self._table.end = end

    def _next(self, player: int) -> int:
        return (player + 1) % self._rules.config.players

    # --- results -------------------------------------------------------------------------------------------------

    def cards_left(self) -> list[int]:
        """Cards in each player's hand."""
        return [sum(h) for h in self._table.hands]

    def ranks(self) -> list[float]:
        """Each player's place (1 = best, ties shared): Classique order, or by points in Trust Me mode."""
        if self._rules.config.mode == "classique":
            return scoring.classique_ranks(self.cards_left(), self._table.out)
        return scoring.shared_ranks([-x for x in self.points()])

    def points_by_source(self) -> list[dict[str, int]]:
        """Trust Me points of each player by source, as they stand."""
        return scoring.points_by_source(
            self._rules.config,
            self.cards_left(),
            self._table.out,
            self._table.false_cards,
            self._table.unmasked,
            self._table.wrongly_accused,
        )

    def points(self) -> list[int]:
        """Trust Me points of each player, as they stand."""
        return [sum(src.values()) for src in self.points_by_source()]

    def returns(self) -> list[float]:
        """The utility in force at the end (rank, points or difference); zeros before."""
        n = self._rules.config.players
        if not self._table.end:
            return [0.0] * n
        kind = self._rules.config.utility_in_force
        if kind == "rank":
            if self._rules.config.mode == "classique":
                return scoring.rank_utility(self.ranks())
            return scoring.rank_utility(scoring.shared_ranks([-x for x in self.points()]))
        if kind == "points":
            return [float(x) for x in self.points()]
        return scoring.difference_utility(self.points())

    # --- strings and the referee's view --------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            split = self._rules.splits[action]
            return f"Deal value {self._table.dealt + 1}: " + "/".join(str(k) for k in split)
        if action == LIAR:
            return "Liar"
        if action == PASS:
            return "Pass"
        if action == BURN:
            return "Burn"
        cards, announced = self._rules.decode_play(action)
        return f"Play [{plays.labels(cards)}] as {len(cards)}x{announced + 1}"

    def __str__(self) -> str:
        t = self._table
        hands = " ".join(f"[{plays.labels(plays.counts_to_cards(h))}]" for h in t.hands)
        pile = " ".join(f"{p}:{plays.labels(c)}@{a + 1}" for p, a, c, _ in t.pile)
        return (
            f"hands {hands} | pile {pile or '-'} | value {t.round_value + 1} | to act {self.current_player()} "
            f"| passes {t.passes} | going out {t.going_out} | turns {t.turns} | end {t.end or '-'}"
        )

    def private_view(self, player: int) -> str:
        """The history as ``player`` saw it (perfect recall): own deal, public events, own cards played and taken."""
        pieces = [f"p{player}"]
        if self._table.dealt < self._rules.config.values:
            pieces.append("dealt:" + "".join(str(k) for k in self._table.hands[player][: self._table.dealt]))
            return " ".join(pieces)
        pieces.append("dealt:" + "".join(str(k) for k in self._table.initial[player]))
        for event in self._table.events:
            pieces.append(_event_string(event, player))
        pieces.append("hand:" + "".join(str(k) for k in self._table.hands[player]))
        return " ".join(pieces)

    def public_view(self, player: int | None) -> str:
        """What is on the table now (no history); with ``player``, also that player's hand and bluff points."""
        pieces = []
        if player is not None:
            pieces.append(f"p{player} hand:" + "".join(str(k) for k in self._table.hands[player]))
            pieces.append(f"bluffs:{self._table.false_cards[player]}")
        if self._table.dealt < self._rules.config.values:
            pieces.append(f"dealing:{self._table.dealt}")
            return " ".join(pieces)
        pieces.append("sizes:" + "/".join(str(n) for n in self.cards_left()))
        discarded = [sum(d[v] for d in self._table.discards) for v in range(self._rules.config.values)]
        pieces.append("discards:" + "".join(map(str, discarded)))
        pieces.append(f"burned:{sum(self._table.burned)} pile:{sum(len(c) for _, _, c, _ in self._table.pile)}")
        if self._table.pile:
            last, announced, cards, _ = self._table.pile[-1]
            pieces.append(f"last:{last}:{len(cards)}x{announced + 1} passes:{self._table.passes}")
        pieces.append(f"starter:{self._table.round_starter} going_out:{self._table.going_out} turn:{self._table.turns}")
        pieces.append("unmasked:" + "/".join(map(str, self._table.unmasked)))
        pieces.append("accused:" + "/".join(map(str, self._table.wrongly_accused)))
        return " ".join(pieces)

    def phase(self) -> str:
        """Where play stands: ``deal``, ``start`` (a round's starter must play), ``respond`` (liar, play or pass),
        ``add_or_burn`` (all the others passed), ``last_cards`` (a player's last cards await the calls) or ``over``."""
        t = self._table
        if t.end:
            return "over"
        if t.dealt < self._rules.config.values:
            return "deal"
        if t.going_out >= 0:
            return "last_cards"
        if t.round_value < 0:
            return "start"
        if t.current == t.pile[-1][0]:
            return "add_or_burn"
        return "respond"

    def player_view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees now, cheap to build, for bots (values 1-based as in :meth:`snapshot`).

        Keys: ``phase``, ``hand`` (counts per value, index 0 = value 1), ``hand_sizes``, ``discarded`` (public
        discards per value, all players), ``round_value``, ``pile_size`` (all announced as the round's value),
        ``last`` (``(player, count)`` of the play open to a challenge, or None), ``own_in_pile`` (counts per value
        of the cards this player put in the pile this round), ``going_out``, ``max_play``, ``copies``, ``mode``.
        """
        t = self._table
        config = self._rules.config
        discarded = [sum(d[v] for d in t.discards) for v in range(config.values)] if t.discards else [0] * config.values
        return {
            "phase": self.phase(),
            "hand": list(t.hands[player]),
            "hand_sizes": [sum(h) for h in t.hands],
            "discarded": discarded,
            "round_value": t.round_value + 1 if t.round_value >= 0 else None,
            "pile_size": sum(len(c) for _, _, c, _ in t.pile),
            "last": (t.pile[-1][0], len(t.pile[-1][2])) if t.pile else None,
            "own_in_pile": plays.to_counts([v for p, _, c, _ in t.pile if p == player for v in c], config.values),
            "going_out": t.going_out if t.going_out >= 0 else None,
            "max_play": config.max_play,
            "copies": config.copies,
            "mode": config.mode,
        }

    def snapshot(self) -> dict[str, Any]:
        """Everything a referee sees, as a plain JSON-serialisable dict (values numbered ``1..values``).

        Keys: ``game``, ``mode``, ``players``, ``turn_seconds``, ``assumptions``, ``phase``, ``to_act``, ``turns``,
        ``dealt`` and ``discards`` (per seat), ``hands``, ``pile`` (plays of this round, oldest first),
        ``round_value``, ``round_starter``, ``last_player``, ``passes_in_a_row``, ``going_out``, ``burned``,
        ``cards_left``, ``counts`` (false cards accepted, liars unmasked, wrongly accused per player),
        ``points_by_source``, ``events``; at the end also ``end``, ``out``, ``ranks``, ``scores`` and ``returns``.
        """
        config = self._rules.config

        def cards(counts: tuple[int, ...] | list[int]) -> list[int]:
            return [v + 1 for v in plays.counts_to_cards(counts)]

        snap: dict[str, Any] = {
            "game": SHORT_NAME,
            "mode": config.mode,
            "players": config.players,
            "turn_seconds": config.seconds_per_turn,
            "assumptions": config.assumptions(),
            "phase": self.phase(),
            "to_act": int(self.current_player()),
            "turns": self._table.turns,
            "dealt": [cards(h) for h in self._table.initial],
            "discards": [cards(d) for d in self._table.discards],
            "hands": [cards(h) for h in self._table.hands],
            "pile": [
                {"player": p, "announced": a + 1, "count": len(c), "cards": [v + 1 for v in c], "false": f}
                for p, a, c, f in self._table.pile
            ],
            "round_value": self._table.round_value + 1 if self._table.round_value >= 0 else None,
            "round_starter": self._table.round_starter,
            "last_player": self._table.pile[-1][0] if self._table.pile else None,
            "passes_in_a_row": self._table.passes,
            "going_out": self._table.going_out if self._table.going_out >= 0 else None,
            "burned": cards(self._table.burned),
            "cards_left": self.cards_left(),
            "counts": {
                "false_cards": list(self._table.false_cards),
                "unmasked": list(self._table.unmasked),
                "wrongly_accused": list(self._table.wrongly_accused),
            },
            "points_by_source": self.points_by_source(),
            "events": [_event_dict(e) for e in self._table.events],
        }
        if self._table.end:
            snap["end"] = self._table.end
            snap["out"] = [s for s in range(config.players) if self._table.out[s]]
            snap["ranks"] = self.ranks()
            snap["scores"] = self.points() if config.mode == "trustme" else None
            snap["returns"] = self.returns()
        return snap


def timeout_action(state: LiarState) -> int:
    """The action the turn timer imposes on the player to act (the text's default when time runs out).

    A starter plays their lowest card (smallest value number) without bluff: one card, announcing its true value.
    Anyone else passes. The last player, asked to add cards or burn after all the others passed, cannot pass; for
    them, playing nothing means not adding, so the pile is burned (an assumption: the text names no third choice).
    """
    player = state.current_player()
    if player < 0:
        raise ValueError("timeout_action: no player is to act (chance node or game over)")
    if state._table.going_out >= 0:
        return PASS
    if state._table.round_value < 0:
        lowest = next(v for v, n in enumerate(state._table.hands[player]) if n)
        return state._rules.play_action((lowest,), lowest)
    if state._table.pile[-1][0] == player:
        return BURN
    return PASS


def _event_string(event: tuple, viewer: int) -> str:
    kind = event[0]
    if kind == "discard":
        return f"D{event[1]}[{plays.labels(event[2])}]"
    if kind == "play":
        _, player, announced, cards, _ = event
        own = f"[{plays.labels(cards)}]" if player == viewer else ""
        return f"P{player}:{len(cards)}x{announced + 1}{own}"
    if kind == "pass":
        return f"-{event[1]}"
    if kind == "liar":
        _, accuser, liar, _, cards, false, picker, taken = event
        # The picker sees what they pick up; the others only how many cards.
        seen = f"[{plays.labels(taken)}]" if picker == viewer else ""
        return f"L{accuser}>{liar}[{plays.labels(cards)}]{'F' if false else 'T'}^{picker}:{len(taken)}{seen}"
    if kind == "burn":
        return f"B{event[1]}:{event[2]}"
    if kind == "out":
        return f"O{event[1]}"
    return "cap"


def _event_dict(event: tuple) -> dict[str, Any]:
    kind = event[0]
    if kind == "discard":
        return {"type": "discard", "player": event[1], "cards": [v + 1 for v in event[2]]}
    if kind == "play":
        _, player, announced, cards, false = event
        return {
            "type": "play",
            "player": player,
            "announced": announced + 1,
            "count": len(cards),
            "cards": [v + 1 for v in cards],
            "false": false,
        }
    if kind == "pass":
        return {"type": "pass", "player": event[1]}
    if kind == "liar":
        _, accuser, liar, announced, cards, false, picker, taken = event
        return {
            "type": "liar",
            "accuser": accuser,
            "player": liar,
            "announced": announced + 1,
            "cards": [v + 1 for v in cards],
            "false": false,
            "caught": bool(false),
            "picked_up_by": picker,
            "pile_size": len(taken),
            "pile_cards": [v + 1 for v in taken],
        }
    if kind == "burn":
        return {"type": "burn", "player": event[1], "pile_size": event[2]}
    if kind == "out":
        return {"type": "out", "player": event[1]}
    return {"type": "turn_cap"}


class LiarObserver:
    """Strings for OpenSpiel observers: perfect recall gives the information state, otherwise the table now."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, params: Any = None):
        if params:
            raise ValueError(f"trustme_liar observer takes no parameters; got {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        # No tensors: the solvers here work on strings; OpenSpiel still expects the attributes.
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: LiarState, player: int) -> None:
        """Nothing to write: this observer has no tensor."""

    def string_from(self, state: LiarState, player: int) -> str:
        """The information state (perfect recall) or the observation of ``state`` for ``player``."""
        if self.perfect_recall:
            return state.private_view(player)
        return state.public_view(player if self.private else None)


pyspiel.register_game(GAME_TYPE, LiarGame)
