"""A position of ``trustme_liar`` and the moves of a round, in the rule text's words.

A round: the starter plays 1 to ``max_play`` cards face down and announces a value (only the value can be a lie);
then each player in turn calls liar on the last play, plays more cards announcing the same value, or passes. A
challenge turns over only the last play: any false card and the liar picks up the whole pile, else the accuser does;
the one who did not pick up starts the next round. When all the others have passed, the last player to have played
adds cards or burns the pile and starts a new round. The starter cannot pass. A player who plays their last cards is
out, and the game over, if the play survives the others' calls.

Before the deal, with ``first_player="random"``, a chance node draws the first round's starter; the deck is then dealt
from the starter's left, one chance node per value (:mod:`~trustme_analysis.games.liar.engine.deal`).

Besides the rules, the table keeps what each player *knows* of the others' hands, which the bots and the search
player's worlds read (:meth:`LiarState.player_view`, :mod:`~trustme_analysis.games.liar.engine.worlds`): the cards a player saw go into another hand when
a pile was picked up (the turned-over cards, seen by all, and its own cards in the pile), until that player plays again
(then any of them may have left the hand), and each player's own burned cards.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from trustme_analysis.games.liar.engine import deal, plays, scoring
from trustme_analysis.games.liar.engine import events as ev
from trustme_analysis.games.liar.engine.rules import SHORT_NAME, Rules
from trustme_analysis.games.liar.engine.plays import BURN, LIAR, PASS

#: The pile: (player, announced, cards, false cards) per play, oldest first (0-based values).
Play = tuple[int, int, tuple[int, ...], int]


class LiarTable:
    """The mutable position of one game: hands, pile, round, counters, what each player knows, and the event log.

    Kept in one object so that cloning a state (which OpenSpiel does by deep-copying each attribute) copies plain
    lists of ints and immutable tuples in one pass instead of walking them element by element.
    """

    __slots__ = (
        "first", "sizes", "dealt", "hands", "initial", "discards", "pile", "credited", "round_value",
        "round_starter", "passes", "current", "going_out", "out", "end", "turns", "burned_by", "false_cards",
        "unmasked", "wrongly_accused", "claims_burned", "known", "revealed", "events",
    )

    def __init__(self, rules: Rules):
        n, values = rules.players, rules.values
        zero = (0,) * values
        self.first = -1  # the first round's starter; -1 until the chance node draws it
        self.sizes: tuple[int, ...] = ()  # cards each seat is dealt (known once the first player is)
        self.dealt = 0  # values dealt so far; the deal is over at ``values``
        self.hands = [[0] * values for _ in range(n)]  # cards per value in each hand
        self.initial: tuple[tuple[int, ...] | None, ...] = ()  # hands as dealt, before discarding pairs
        self.discards: tuple[tuple[int, ...], ...] = ()
        self.pile: list[Play] = []  # the face-down pile of this round, oldest play first
        self.credited = 0  # leading plays of the pile whose false cards have already scored
        self.round_value = -1  # the announced value of this round; -1 before the starter plays
        self.round_starter = -1
        self.passes = 0
        self.current = -1
        self.going_out = -1  # a player whose last cards are on the table, awaiting the others' calls
        self.out = [False] * n
        self.end = ""  # "", "out", "setup" (out after discarding pairs) or "turn_cap"
        self.turns = 0
        self.burned_by = [zero] * n  # cards per value each seat has seen burned of its own
        self.claims_burned = [zero] * n  # cards each seat claimed as each value in burned piles (public)
        self.false_cards = [0] * n  # false cards accepted or burned, per player (secret bluff points)
        self.unmasked = [0] * n
        self.wrongly_accused = [0] * n
        # known[w][h]: cards per value w knows are in h's hand (picked up in w's sight, h has not played since);
        # revealed[h]: the part everyone knows (turned-over cards h picked up since h last played).
        self.known = [[zero] * n for _ in range(n)]
        self.revealed = [zero] * n
        self.events: list[tuple] = []  # immutable tuples, so a shallow copy of the list is a deep copy

    def __deepcopy__(self, memo: dict) -> LiarTable:
        new = object.__new__(LiarTable)
        for name in ("first", "sizes", "dealt", "initial", "discards", "credited", "round_value", "round_starter",
                     "passes", "current", "going_out", "end", "turns"):
            setattr(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        new.known = [list(k) for k in self.known]
        for name in ("pile", "out", "burned_by", "false_cards", "unmasked", "wrongly_accused", "claims_burned",
                     "revealed", "events"):
            setattr(new, name, list(getattr(self, name)))
        return new

    @property
    def burned(self) -> list[int]:
        """Burned cards per value (every seat's)."""
        return [sum(col) for col in zip(*self.burned_by)]

    def start(self, seat: int, rules: Rules) -> None:
        """``seat`` starts the first round: the deal goes round the table from its left."""
        self.first = self.round_starter = self.current = seat
        self.sizes = rules.hand_sizes(seat)
        self.events.append(ev.first_player(seat))


class LiarState(pyspiel.State):
    """A position of ``trustme_liar``: the first player (a chance node with ``first_player="random"``), the deal
    (chance, one node per value), then the players' turns."""

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self._rules: Rules = game.rules
        self._plays: plays.PlayTable = game.play_table
        self._deals: deal.DealTable = game.deal_table
        self._table = LiarTable(game.rules)
        if game.rules.starter_seat is not None:
            self._table.start(game.rules.starter_seat, game.rules)

    # --- pyspiel API -------------------------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, CHANCE while drawing the first player and dealing, TERMINAL at the end."""
        t = self._table
        if t.end:
            return pyspiel.PlayerId.TERMINAL
        if t.first < 0 or t.dealt < self._rules.values:
            return pyspiel.PlayerId.CHANCE
        return t.current

    def is_terminal(self) -> bool:
        """Whether the game is over (someone is out, or the turn cap was reached)."""
        return bool(self._table.end)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Who starts (every seat equally likely), then how the copies of each value split between the seats."""
        t = self._table
        n = self._rules.players
        if t.first < 0:
            return [(seat, 1.0 / n) for seat in range(n)]
        return self._deals.outcomes(self._room())

    def chance_weights(self) -> list[tuple[int, int]]:
        """The chance outcomes with whole-number weights (probability = weight / their sum): each seat 1 (who
        starts); each split of a value by its number of deals. Chance draws by these
        (:mod:`trustme_analysis.engine.draws`)."""
        t = self._table
        if t.first < 0:
            return [(seat, 1) for seat in range(self._rules.players)]
        return self._deals.weights(self._room())

    def _room(self) -> list[int]:
        """Cards each seat has still to be dealt."""
        t = self._table
        return [size - sum(hand) for size, hand in zip(t.sizes, t.hands)]

    def _legal_actions(self, player: int) -> list[int]:
        t = self._table
        hand = t.hands[player]
        if t.going_out >= 0:
            actions = [LIAR, PASS]
            if self._rules.last_cards == "until_covered":
                actions += self._plays.play_actions(hand, [t.round_value])
            return actions
        if t.round_value < 0:
            announceable = [v for v in range(self._rules.values) if self._may_announce(v)]
            return self._plays.play_actions(hand, announceable)
        if player == t.pile[-1][0]:
            # Everyone else passed: the last player adds cards or burns; passing again is not an option.
            return [BURN] + self._plays.play_actions(hand, [t.round_value])
        return [LIAR, PASS] + self._plays.play_actions(hand, [t.round_value])

    def _may_announce(self, value: int) -> bool:
        if self._rules.announce_gone == "allowed":
            return True
        return sum(d[value] for d in self._table.discards) < self._rules.copies

    def _apply_action(self, action: int) -> None:
        t = self._table
        if t.first < 0:
            t.start(action, self._rules)
            return
        if t.dealt < self._rules.values:
            self._deal(action)
            return
        player = t.current
        if action == LIAR:
            self._call_liar(player)
        elif action == PASS:
            self._pass(player)
        elif action == BURN:
            self._burn(player)
        else:
            self._play(player, action)
        t.turns += 1
        if not t.end and t.turns >= self._rules.max_turns:
            t.events.append(ev.turn_cap())
            self._finish("turn_cap")

    # --- the rules ---------------------------------------------------------------------------------------------

    def _deal(self, action: int) -> None:
        t = self._table
        for seat, k in enumerate(self._deals.splits[action]):
            t.hands[seat][t.dealt] = k
        t.dealt += 1
        if t.dealt == self._rules.values:
            self._discard_pairs()

    def _discard_pairs(self) -> None:
        t = self._table
        t.initial = tuple(tuple(h) for h in t.hands)
        discards = []
        for seat, hand in enumerate(t.hands):
            gone = [0] * len(hand)
            for v, count in enumerate(hand):
                hand[v], gone[v] = deal.discard_pairs(count)
            discards.append(tuple(gone))
            t.events.append(ev.discard(seat, tuple(plays.counts_to_cards(gone))))
        t.discards = tuple(discards)
        empty = [seat for seat, hand in enumerate(t.hands) if not any(hand)]
        if empty:
            for seat in empty:
                t.out[seat] = True
                t.events.append(ev.out(seat))
            self._finish("setup")

    def _play(self, player: int, action: int) -> None:
        t = self._table
        cards, announced = self._plays.decode_play(action)
        hand = t.hands[player]
        for v in cards:
            hand[v] -= 1
        false = sum(1 for v in cards if v != announced)
        if not t.pile:
            t.round_starter = player
        elif self._rules.false_card_accepted == "covered":
            self._credit(len(t.pile))  # the play below can no longer be turned over
        t.pile.append((player, announced, cards, false))
        t.round_value = announced
        t.passes = 0
        t.events.append(ev.play(player, announced, cards, false))
        # Any card the others knew in this hand may be among those played: they know nothing of it any more.
        zero = (0,) * self._rules.values
        for row in t.known:
            row[player] = zero
        t.revealed[player] = zero
        if t.going_out >= 0:
            # last_cards="until_covered": covering the last cards ends their challenge window; they held.
            self._go_out(t.going_out)
            self._finish("out")
            return
        if not any(hand):
            t.going_out = player
        t.current = self._next(player)

    def _pass(self, player: int) -> None:
        t = self._table
        t.passes += 1
        t.events.append(ev.pass_(player))
        if t.going_out >= 0 and t.passes == self._rules.players - 1:
            self._go_out(t.going_out)
            self._finish("out")
            return
        t.current = self._next(player)

    def _call_liar(self, accuser: int) -> None:
        t = self._table
        liar, announced, cards, false = t.pile[-1]
        picker, starter = (liar, accuser) if false else (accuser, liar)
        taken = self._pick_up(picker)
        if false:
            t.unmasked[accuser] += 1
        else:
            t.wrongly_accused[liar] += 1
        t.events.append(ev.liar(accuser, liar, announced, cards, false, picker, taken))
        self._new_round(starter)
        if t.going_out >= 0:
            going_out, t.going_out = t.going_out, -1
            if not false:
                self._go_out(going_out)
                self._finish("out")

    def _burn(self, player: int) -> None:
        t = self._table
        self._credit(len(t.pile))
        size = 0
        burned = [list(b) for b in t.burned_by]
        claims = [list(c) for c in t.claims_burned]
        for owner, announced, cards, _ in t.pile:
            for v in cards:
                burned[owner][v] += 1
            claims[owner][announced] += len(cards)
            size += len(cards)
        t.burned_by = [tuple(b) for b in burned]
        t.claims_burned = [tuple(c) for c in claims]
        t.events.append(ev.burn(player, size))
        t.pile = []
        t.credited = 0
        self._new_round(player)

    def _pick_up(self, picker: int) -> tuple[int, ...]:
        """Move the whole pile into ``picker``'s hand; return its cards (sorted 0-based values).

        Every other player now knows the turned-over cards and its own cards of the pile are in ``picker``'s hand.
        """
        t = self._table
        values = self._rules.values
        hand = t.hands[picker]
        taken = sorted(v for _, _, cards, _ in t.pile for v in cards)
        for v in taken:
            hand[v] += 1
        shown = plays.to_counts(t.pile[-1][2], values)
        t.revealed[picker] = tuple(a + b for a, b in zip(t.revealed[picker], shown))
        own = [[0] * values for _ in range(self._rules.players)]
        for owner, _, cards, _ in t.pile[:-1]:  # the last play is the turned-over one, counted in ``shown``
            for v in cards:
                own[owner][v] += 1
        for w, row in enumerate(t.known):
            if w != picker:
                row[picker] = tuple(k + s + o for k, s, o in zip(row[picker], shown, own[w]))
        t.pile = []
        t.credited = 0
        return tuple(taken)

    def _go_out(self, player: int) -> None:
        self._table.out[player] = True
        self._table.events.append(ev.out(player))

    def _new_round(self, starter: int) -> None:
        t = self._table
        t.round_value = -1
        t.round_starter = starter
        t.passes = 0
        t.current = starter

    def _credit(self, upto: int) -> None:
        """Score the false cards of the plays ``[credited, upto)`` of the pile: they were accepted."""
        t = self._table
        for player, _, _, false in t.pile[t.credited : upto]:
            t.false_cards[player] += false
        t.credited = max(t.credited, upto)

    def _finish(self, end: str) -> None:
        # Whatever is still face down and unrevealed at the end was accepted (both readings agree on this).
        self._credit(len(self._table.pile))
        self._table.end = end

    def _next(self, player: int) -> int:
        return (player + 1) % self._rules.players

    # --- results -------------------------------------------------------------------------------------------------

    def cards_left(self) -> list[int]:
        """Cards in each player's hand."""
        return [sum(h) for h in self._table.hands]

    def ranks(self) -> list[float]:
        """Each player's place (1 = best, ties shared): the Classique order, or by points in Trust Me mode."""
        if self._rules.mode == "classique":
            return scoring.classique_ranks(self.cards_left(), self._table.out)
        return scoring.shared_ranks([-x for x in self.points()])

    def points_by_source(self) -> list[dict[str, int]]:
        """Trust Me points of each player by source, as they stand."""
        t = self._table
        return scoring.points_by_source(self._rules, self.cards_left(), t.out, t.false_cards, t.unmasked,
                                        t.wrongly_accused)

    def points(self) -> list[int]:
        """Trust Me points of each player, as they stand."""
        return [sum(src.values()) for src in self.points_by_source()]

    def returns(self) -> list[float]:
        """The utility in force at the end (rank, points or difference); zeros before."""
        rules = self._rules
        if not self._table.end:
            return [0.0] * rules.players
        kind = rules.utility_in_force
        if kind == "rank":
            return scoring.rank_utility(self.ranks())
        if kind == "points":
            return [float(x) for x in self.points()]
        return scoring.difference_utility(self.points())

    # --- strings and views -----------------------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._table.first < 0:
                return f"First player: seat {action}"
            split = self._deals.splits[action]
            return f"Deal value {self._table.dealt + 1}: " + "/".join(str(k) for k in split)
        if action == LIAR:
            return "Liar"
        if action == PASS:
            return "Pass"
        if action == BURN:
            return "Burn"
        cards, announced = self._plays.decode_play(action)
        return f"Play [{plays.labels(cards)}] as {len(cards)}x{announced + 1}"

    def __str__(self) -> str:
        t = self._table
        hands = " ".join(f"[{plays.labels(plays.counts_to_cards(h))}]" for h in t.hands)
        pile = " ".join(f"{p}:{plays.labels(c)}@{a + 1}" for p, a, c, _ in t.pile)
        return (
            f"first {t.first} | hands {hands} | pile {pile or '-'} | value {t.round_value + 1} | to act "
            f"{self.current_player()} | passes {t.passes} | going out {t.going_out} | turns {t.turns} | end "
            f"{t.end or '-'}"
        )

    def history_view(self, player: int | None) -> str:
        """The history as ``player`` saw it (perfect recall): own deal, every event, own cards played and taken.

        ``player=None``: what everyone saw (the public history, no hand, no private card).
        """
        t = self._table
        pieces = [f"p{player}"] if player is not None else []
        if player is not None:
            own = t.hands[player] if t.dealt < self._rules.values else t.initial[player]
            upto = t.dealt if t.dealt < self._rules.values else self._rules.values
            pieces.append("dealt:" + ("?" if own is None else "".join(str(k) for k in own[:upto])))
        pieces += [ev.info_string(event, player) for event in t.events]
        if t.dealt < self._rules.values:
            pieces.append(f"dealing:{t.dealt}")
        elif player is not None:
            pieces.append("hand:" + "".join(str(k) for k in t.hands[player]))
        return " ".join(pieces)

    def table_view(self, player: int | None) -> str:
        """What is on the table now (no history); with ``player``, also that player's hand and bluff points."""
        t = self._table
        pieces = []
        if player is not None:
            pieces.append(f"p{player} hand:" + "".join(str(k) for k in t.hands[player]))
            pieces.append(f"bluffs:{t.false_cards[player]}")
        if t.first >= 0:
            pieces.append(f"first:{t.first}")
        if t.dealt < self._rules.values:
            pieces.append(f"dealing:{t.dealt}")
            return " ".join(pieces)
        pieces.append("sizes:" + "/".join(str(n) for n in self.cards_left()))
        pieces.append("discards:" + "".join(map(str, self.discarded())))
        pieces.append(f"burned:{sum(self._table.burned)} pile:{sum(len(c) for _, _, c, _ in t.pile)}")
        if t.pile:
            last, announced, cards, _ = t.pile[-1]
            pieces.append(f"last:{last}:{len(cards)}x{announced + 1} passes:{t.passes}")
        pieces.append(f"starter:{t.round_starter} going_out:{t.going_out} turn:{t.turns}")
        pieces.append("unmasked:" + "/".join(map(str, t.unmasked)))
        pieces.append("accused:" + "/".join(map(str, t.wrongly_accused)))
        return " ".join(pieces)

    def discarded(self) -> list[int]:
        """The public pair discards per value (all seats)."""
        if not self._table.discards:
            return [0] * self._rules.values
        return [sum(col) for col in zip(*self._table.discards)]

    def phase(self) -> str:
        """Where play stands: ``deal`` (the first player and the deal), ``start`` (a round's starter must play),
        ``respond`` (liar, play or pass), ``add_or_burn`` (all the others passed), ``last_cards`` (a player's last
        cards await the calls) or ``over``."""
        t = self._table
        if t.end:
            return "over"
        if t.first < 0 or t.dealt < self._rules.values:
            return "deal"
        if t.going_out >= 0:
            return "last_cards"
        if t.round_value < 0:
            return "start"
        if t.current == t.pile[-1][0]:
            return "add_or_burn"
        return "respond"

    def player_view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees and knows now, cheap to build, for bots (counts per value, index 0 = value 1).

        Keys: ``phase``, ``player``, ``players``, ``hand``, ``hand_sizes``, ``discarded`` (public discards per value,
        all players), ``round_value`` (1-based, or None), ``pile_size`` (cards, all announced as the round's value),
        ``pile`` (``(player, count)`` of each play of this round, oldest first), ``last`` (``(player, count)`` of the
        play open to a challenge, or None), ``own_in_pile`` (this player's cards in the pile), ``own_burned`` (its
        cards burned so far), ``known`` (per seat: the cards it knows are in that hand; zeros for itself),
        ``others_burned`` (cards the other players have had burned, all values) and ``others_claims_burned`` (per
        value: the cards they claimed as that value in burned piles; public), ``going_out``, ``max_play``,
        ``copies``, ``mode``.
        """
        t = self._table
        rules = self._rules
        own = [0] * rules.values
        for p, _, cards, _ in t.pile:
            if p == player:
                for v in cards:
                    own[v] += 1
        return {
            "phase": self.phase(),
            "player": player,
            "players": rules.players,
            "hand": list(t.hands[player]),
            "hand_sizes": self.cards_left(),
            "discarded": self.discarded(),
            "round_value": t.round_value + 1 if t.round_value >= 0 else None,
            "pile_size": sum(len(c) for _, _, c, _ in t.pile),
            "pile": [(p, len(c)) for p, _, c, _ in t.pile],
            "last": (t.pile[-1][0], len(t.pile[-1][2])) if t.pile else None,
            "own_in_pile": own,
            "own_burned": list(t.burned_by[player]),
            "known": [list(k) for k in t.known[player]],
            "others_burned": sum(sum(b) for q, b in enumerate(t.burned_by) if q != player),
            "others_claims_burned": [sum(col) for col in zip(*(c for q, c in enumerate(t.claims_burned)
                                                               if q != player))],
            "going_out": t.going_out if t.going_out >= 0 else None,
            "max_play": rules.max_play,
            "copies": rules.copies,
            "mode": rules.mode,
        }

    def snapshot(self) -> dict[str, Any]:
        """Everything a referee sees, as a plain JSON-serialisable dict (values numbered ``1..values``).

        Keys: ``game``, ``mode``, ``players``, ``turn_seconds``, ``assumptions``, ``first_player`` (the seat that
        starts the first round; None before the chance node draws it), ``phase``, ``to_act``, ``turns``, ``dealt``
        and ``discards`` (per seat), ``hands``, ``pile`` (plays of this round, oldest first), ``round_value``,
        ``round_starter``, ``last_player``, ``passes_in_a_row``, ``going_out``, ``burned``, ``cards_left``,
        ``counts`` (false cards accepted, liars unmasked, wrongly accused per player), ``points_by_source``,
        ``events`` (:mod:`~trustme_analysis.games.liar.engine.events`); at the end also ``end``, ``out``, ``ranks``, ``scores`` and ``returns``.
        """
        rules = self._rules
        t = self._table

        def cards(counts: tuple[int, ...] | list[int] | None) -> list[int] | None:
            return None if counts is None else [v + 1 for v in plays.counts_to_cards(counts)]

        snap: dict[str, Any] = {
            "game": SHORT_NAME,
            "mode": rules.mode,
            "players": rules.players,
            "turn_seconds": rules.seconds_per_turn,
            "assumptions": rules.assumptions(),
            "first_player": t.first if t.first >= 0 else None,
            "phase": self.phase(),
            "to_act": int(self.current_player()),
            "turns": t.turns,
            "dealt": [cards(h) for h in t.initial],
            "discards": [cards(d) for d in t.discards],
            "hands": [cards(h) for h in t.hands],
            "pile": [
                {"player": p, "announced": a + 1, "count": len(c), "cards": [v + 1 for v in c], "false": f}
                for p, a, c, f in t.pile
            ],
            "round_value": t.round_value + 1 if t.round_value >= 0 else None,
            "round_starter": t.round_starter if t.round_starter >= 0 else None,
            "last_player": t.pile[-1][0] if t.pile else None,
            "passes_in_a_row": t.passes,
            "going_out": t.going_out if t.going_out >= 0 else None,
            "burned": cards(t.burned),
            "cards_left": self.cards_left(),
            "counts": {
                "false_cards": list(t.false_cards),
                "unmasked": list(t.unmasked),
                "wrongly_accused": list(t.wrongly_accused),
            },
            "points_by_source": self.points_by_source(),
            "events": [ev.to_dict(e) for e in t.events],
        }
        if t.end:
            snap["end"] = t.end
            snap["out"] = [s for s in range(rules.players) if t.out[s]]
            snap["ranks"] = self.ranks()
            snap["scores"] = self.points() if rules.mode == "trustme" else None
            snap["returns"] = self.returns()
        return snap

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LiarState:
        """A state ``player_id`` cannot tell from this one, reached by a history: the cards it cannot locate dealt
        anew, uniformly (:func:`~trustme_analysis.games.liar.engine.worlds.resample`), then a history found that leads
        there, the deal and the other seats' face-down plays redrawn to match, and replayed
        (:mod:`~trustme_analysis.games.liar.engine.histories`). ``history()`` replays to the world,
        ``serialize_game_and_state`` round-trips it, and every seat's information state is that of the replay.
        ``probability_sampler()`` gives uniform numbers in [0, 1)."""
        from trustme_analysis.games.liar.engine.histories import resample_by_replay

        return resample_by_replay(self, player_id, probability_sampler)


def timeout_action(state: LiarState) -> int:
    """The action the turn timer imposes on the player to act (the text's default when time runs out).

    A starter plays their lowest card (smallest value number) without bluff: one card, announcing its true value.
    Anyone else passes. The last player, asked to add cards or burn after all the others passed, cannot pass; for
    them, playing nothing means not adding, so the pile is burned (an assumption: the text names no third choice).
    """
    player = state.current_player()
    if player < 0:
        raise ValueError("timeout_action: no player is to act (chance node or game over)")
    t = state._table
    if t.going_out >= 0:
        return PASS
    if t.round_value < 0:
        lowest = next(v for v, n in enumerate(t.hands[player]) if n)
        return state._plays.play_action((lowest,), lowest)
    if t.pile[-1][0] == player:
        return BURN
    return PASS
