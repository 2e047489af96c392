"""What one seat sees: the position from its side, and every step and event as that seat saw them.

A :class:`SeatView` answers, for its seat, four questions the seat's loop (:mod:`.seat`) asks:

- :meth:`~SeatView.lines`: the position as the seat sees it (its hand, the Park, the Reputations, what was revealed);
- :meth:`~SeatView.chance`: a chance outcome as the seat saw it (a Character drawn by another player is not named);
- :meth:`~SeatView.move`: another player's move as the seat saw it (the face-down part of a tale or a play is not
  named);
- :meth:`~SeatView.event`: an event of the engine's snapshot as the seat saw it (the cards of another player's
  play left out), or ``None`` when the seat saw nothing of it.

The core imports no game package (the import contracts), so the views of the three games here read only what each
game's state offers every caller: its documented ``player_view(seat)`` (Pinocchio, Liar) or ``snapshot()``, which a
view filters to what is public at the table plus what the seat alone knows (``known_cards(seat)`` in Trust Me 1981).
No game registers a per-seat view helper in the registry yet; a game without an entry in :data:`VIEWS` gets
:class:`SeatView` itself, which shows the game's ``observation_string(seat)`` and names no chance outcome and no
other player's move unless the game has perfect information.

The test of every view (``tests/test_play_seat.py``) checks its promise against the engine: two moves (or chance
outcomes) after which the seat's ``information_state_string`` is the same must read the same to the seat, and a
position resampled from the seat's information state must show the same lines.
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def values_text(values: list[int] | tuple[int, ...]) -> str:
    """Card values in a row, ``"1, 3, 3"``, or ``"none"``."""
    return ", ".join(str(v) for v in values) if values else "none"


def counts_text(counts: list[int] | tuple[int, ...]) -> str:
    """Counts per value (index 0 = value 1) as values in a row: ``[1, 0, 2]`` -> ``"1, 3, 3"``."""
    return values_text([v for v, n in enumerate(counts, start=1) for _ in range(n)])


def tally_text(counts: list[int] | tuple[int, ...]) -> str:
    """Counts per value (index 0 = value 1) as ``"1 x4, 2 x2"``, or ``"none"``."""
    return ", ".join(f"{v} x{n}" for v, n in enumerate(counts, start=1) if n) or "none"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _after(state: pyspiel.State, action: int) -> pyspiel.State:
    child = state.clone()
    child.apply_action(action)
    return child


class SeatView:
    """The view of a game this module has no view for: the game's observation string for the seat.

    Chance outcomes and other players' moves are named only in a game of perfect information (anything else might
    show a card the seat has not seen); events are shown only there too.
    """

    def __init__(self, game: pyspiel.Game, seat: int):
        self.game = game
        self.seat = seat
        self.perfect = game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION

    def who(self, player: int) -> str:
        """``"seat 2"``, or ``"seat 2 (you)"`` for the seat itself."""
        return f"seat {player} (you)" if player == self.seat else f"seat {player}"

    def lines(self, state: pyspiel.State) -> list[str]:
        """The position as the seat sees it, one fact a line."""
        kind = self.game.get_type()
        if kind.provides_observation_string:
            return state.observation_string(self.seat).splitlines()
        if kind.provides_information_state_string:
            return state.information_state_string(self.seat).splitlines()
        return ["(this game states no view of a seat)"]

    def chance(self, state: pyspiel.State, action: int) -> str:
        """A chance outcome of ``state`` as the seat saw it."""
        return state.action_to_string(pyspiel.PlayerId.CHANCE, action) if self.perfect else "(not shown to you)"

    def move(self, state: pyspiel.State, player: int, action: int) -> str:
        """``player``'s move (another seat's) as the seat saw it."""
        return state.action_to_string(player, action) if self.perfect else "(not shown to you)"

    def event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """An event as the seat saw it; ``None`` when it saw nothing of it."""
        return event if self.perfect else None


class PinocchioView(SeatView):
    """``trustme_pinocchio`` from one seat, from the engine's ``player_view(seat)``: other hands, the deck and a
    face-down tale Character (not the seat's own) are not shown, nor votes cast under simultaneous voting until the
    last one is in. The Park, the Reputations, the Tickets gained and the revealed tales are public."""

    _TALE = re.compile(r"^Tale \d+ below Park (\d+)$")

    def lines(self, state: pyspiel.State) -> list[str]:
        """Day, deck, Park, own hand, each seat's Reputation and Tickets, the tale on the table."""
        v = state.player_view(self.seat, include_events=False)
        n = v["players"]
        out = [f"{v['day']}, turn {v['turn']}; the deck holds {_plural(v['deck_size'], 'Character')} "
               f"(it has run out {_plural(v['runouts'], 'time')})",
               f"Park: {values_text(v['park'])}",
               f"your hand: {values_text(v['hands'][self.seat])}"]
        coin = self.game.get_parameters().get("coin_variant", False)
        for p in range(n):
            tickets = counts_text(v["tickets"][p])
            row = (f"{self.who(p)}: {_plural(v['hand_sizes'][p], 'Character')} in hand; Reputation: "
                   f"{values_text(v['reputations'][p])}; Tickets: {tickets}")
            if coin:
                row += "; Coin used" if v["coin_used"][p] else "; Coin unused"
            out.append(row)
        out.append("Tickets left by value (1 up): " + "/".join(str(s) for s in v["stacks_left"]))
        tale = v["tale"]
        if tale is not None:
            row = f"on the table: {self.who(tale['player'])}'s tale, a face-down Character said to be the Park's " \
                  f"{tale['park_value']}"
            if tale["hidden_value"] is not None and tale["player"] == self.seat:
                row += f" (it is your {tale['hidden_value']})"
            votes = [f"{self.who(q)} {'trusts' if t else 'does not trust'}" for q, t in enumerate(tale["votes"])
                     if t is not None]
            if votes:
                row += "; " + ", ".join(votes)
            out.append(row)
        if v["pending_bonus"]:
            out.append("a bonus turn is due")
        return out

    def chance(self, state: pyspiel.State, action: int) -> str:
        """A Character drawn into another hand is not named; one into the seat's hand, the Park or a Coin toss is."""
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        before = state.snapshot(include_events=False)["hand_sizes"]
        after = _after(state, action).snapshot(include_events=False)["hand_sizes"]
        grew = [p for p in range(len(before)) if after[p] > before[p]]
        if self.seat in grew:
            return f"{text} (into your hand)"
        if grew:
            return f"a Character drawn face down by {self.who(grew[0])}"
        return text

    def move(self, state: pyspiel.State, player: int, action: int) -> str:
        """A tale without its face-down Character; a vote cast under simultaneous voting while votes are hidden."""
        text = state.action_to_string(player, action)
        tale = self._TALE.match(text)
        if tale:
            return f"Tale (a face-down Character) below Park {tale.group(1)}"
        if (self.game.get_parameters().get("voting") == "simultaneous" and text in ("I trust you", "I do not trust you")
                and _after(state, action).snapshot(include_events=False)["phase"] == "vote"):
            return "votes (hidden until every vote is cast)"
        return text

    def event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Every Pinocchio event is public (a tale's event is logged when its Character is turned over)."""
        return event


class LiarView(SeatView):
    """``trustme_liar`` from one seat, from the engine's ``player_view(seat)``: the seat's hand, the hand sizes, the
    public pair discards, the plays of the round by count, the cards the seat knows in other hands (from a pile it
    picked up); another player's play is named by its count and announced value, never its cards; bluff points stay
    secret until the Final Scoring."""

    _PLAY = re.compile(r"^Play \[([\d,]*)\] as (\d+)x(\d+)$")
    _DEAL = re.compile(r"^Deal value (\d+): ([\d/]+)$")

    def lines(self, state: pyspiel.State) -> list[str]:
        """Hand, hand sizes, discards, the round's pile, what the seat knows of other hands."""
        v = state.player_view(self.seat)
        n = v["players"]
        out = [f"your hand: {counts_text(v['hand'])}",
               "cards in hand: " + ", ".join(f"{self.who(p)} {v['hand_sizes'][p]}" for p in range(n)),
               f"pairs discarded (face up), value x count: {tally_text(v['discarded'])}"]
        if v["round_value"] is None:
            out.append("no round under way: the starter plays")
        else:
            plays = ", ".join(f"{self.who(p)} {_plural(k, 'card')}" for p, k in v["pile"])
            out.append(f"round of {v['round_value']}s: {_plural(v['pile_size'], 'card')} face down in the pile "
                       f"({plays})")
            if v["last"] is not None:
                p, k = v["last"]
                out.append(f"the last play, {self.who(p)}'s {_plural(k, 'card')}, may be called")
            if any(v["own_in_pile"]):
                out.append(f"your cards in the pile: {counts_text(v['own_in_pile'])}")
        for q in range(n):
            if q != self.seat and any(v["known"][q]):
                out.append(f"you know {self.who(q)} holds: {counts_text(v['known'][q])}")
        if v["going_out"] is not None:
            out.append(f"{self.who(v['going_out'])} has played its last cards")
        return out

    def chance(self, state: pyspiel.State, action: int) -> str:
        """A deal names only the seat's own share of a value; the first player is public."""
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        deal = self._DEAL.match(text)
        if deal:
            share = int(deal.group(2).split("/")[self.seat])
            return f"Deal value {deal.group(1)}: {share} to you"
        return text

    def move(self, state: pyspiel.State, player: int, action: int) -> str:
        """A play by its count and announced value; a call of liar, a pass or a burn as it is."""
        text = state.action_to_string(player, action)
        play = self._PLAY.match(text)
        if play:
            return f"Play {_plural(int(play.group(2)), 'card')} face down as {play.group(2)}x{play.group(3)}"
        return text

    def event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Another player's play without its cards; a picked-up pile's cards only for the seat that picked it up."""
        kind = event.get("kind")
        if kind == "play" and event.get("player") != self.seat:
            return {k: v for k, v in event.items() if k not in ("cards", "false")}
        if kind == "liar" and event.get("picked_up_by") != self.seat:
            return {k: v for k, v in event.items() if k != "pile_cards"}
        return event


class Board1981View(SeatView):
    """``trustme_1981`` from one seat, from the engine's snapshot filtered to what is public at the table (pieces,
    claims, money, shares, the reserve, who looked under which briefcase, the briefcases turned over) plus the Payoff
    cards the seat itself looked at (``known_cards(seat)``); the deal of the Payoff cards is not named."""

    def lines(self, state: pyspiel.State) -> list[str]:
        """Whose turn, each seat's piece, claim and holdings, the briefcases, what the seat knows."""
        s = state.snapshot()
        n = s["players"]
        out = [f"turn {s['turn']}, {self.who(s['turn_player'])} to play; phase {s['phase']}"]
        for p in range(n):
            claim = f"claim on {s['claims'][p]}" if s["claims"][p] else "no claim"
            out.append(f"{self.who(p)}: at {s['positions'][p]}; {claim}; ${s['money'][p]} and "
                       f"{_plural(s['shares'][p], 'share')}")
        out.append(f"reserve account: ${s['reserve']}; Trust Me cards left: {s['trust_deck_left']}")
        if s["claimant"] is not None:
            out.append(f"investing on {self.who(s['claimant'])}'s claim")
        looked = []
        for name in s["cases_left"]:
            seats = s["knows"].get(name) or []
            looked.append(f"{name} (looked at by {', '.join(self.who(p) for p in seats)})" if seats else name)
        out.append("briefcases on the board: " + "; ".join(looked))
        if s["cases_revealed"]:
            out.append("turned over: " + "; ".join(f"{c['property']}: {c['card']}" for c in s["cases_revealed"]))
        names = list(s["cards"])
        left = set(s["cases_left"])
        known = [names[q] for q in sorted(state.known_cards(self.seat)) if names[q] in left]
        out.append("you have looked under: " + ("; ".join(f"{name}: {s['cards'][name]}" for name in known)
                                                 if known else "nothing still on the board"))
        return out

    def chance(self, state: pyspiel.State, action: int) -> str:
        """The deal of a Payoff card under a briefcase is face down; rolls and Trust Me cards are public."""
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        return "deal: a Payoff card face down under a briefcase" if text.startswith("deal:") else text

    def move(self, state: pyspiel.State, player: int, action: int) -> str:
        """Every move of the board game is made in the open (a look names the briefcase, not its card)."""
        return state.action_to_string(player, action)

    def event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Every event is public (a look's event names the briefcase only)."""
        return event


class InvestmentView(SeatView):
    """``trustme_1981_investment`` (one investing round) from one seat: holdings, who looked under the briefcase
    (public once the investing starts) and the Payoff card itself only if the seat looked."""

    def lines(self, state: pyspiel.State) -> list[str]:
        """The claimant, the card if seen, holdings and the reserve."""
        s = state.snapshot()
        seen = s.get("seen") or []
        out = [f"investing on {self.who(s['claimant'])}'s claim; phase {s['phase']}"]
        if self.seat < len(seen) and seen[self.seat]:
            out.append(f"the Payoff card (you looked): {s['card']}")
        else:
            out.append("the Payoff card: face down (you have not looked)")
        if seen:
            out.append("looked: " + (", ".join(self.who(p) for p, x in enumerate(seen) if x) or "nobody"))
        for p in range(len(s["money"])):
            out.append(f"{self.who(p)}: ${s['money'][p]} and {_plural(s['shares'][p], 'share')}")
        out.append(f"reserve account: ${s['reserve']}")
        return out

    _SEEN = re.compile(r"^p(\d+):(saw|did not see)$")

    def chance(self, state: pyspiel.State, action: int) -> str:
        """The deal is face down; whether another investor looked is shown once the investing starts (the engine
        makes it public then), whether the seat looked at once."""
        text = state.action_to_string(pyspiel.PlayerId.CHANCE, action)
        if text.startswith("deal:"):
            return "deal: the Payoff card, face down"
        seen = self._SEEN.match(text)
        if seen and int(seen.group(1)) != self.seat:
            return f"p{seen.group(1)}: looked or not (shown when the investing starts)"
        return text

    def move(self, state: pyspiel.State, player: int, action: int) -> str:
        """Investing decisions are made in the open."""
        return state.action_to_string(player, action)

    def event(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Every event is public."""
        return event


#: Short name -> its view class; any other game gets :class:`SeatView`.
VIEWS: dict[str, type[SeatView]] = {
    "trustme_pinocchio": PinocchioView,
    "trustme_liar": LiarView,
    "trustme_1981": Board1981View,
    "trustme_1981_investment": InvestmentView,
}


def seat_view(game: pyspiel.Game, seat: int) -> SeatView:
    """The view of ``game`` from ``seat``."""
    return VIEWS.get(game.get_type().short_name, SeatView)(game, seat)
