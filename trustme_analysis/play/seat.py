"""A seat at the table: a person plays one seat in the terminal against bots (``--seat N``).

At each of the seat's decisions the seat's own view is printed (:mod:`.views`), then its legal moves, numbered, in
the engine's words (``state.action_to_string``) with the game's ``describe`` words beside them where it has them; the
person answers with a number. Every other step is printed as the seat saw it: another player's move without its
face-down part, a chance outcome only where the seat saw it, each event in the words of the game's ``narrate`` part
(what the seat did not see left out). The end prints the Final Scoring.

Entries: a move's number; ``/TEXT`` lists the moves whose words contain TEXT (``/`` alone lists all); ``q`` leaves
the game. Anything else (not a number, out of range, empty) is answered with one line and the list again. The end of
input (Ctrl-D, or a script that runs out of lines) leaves the game like ``q``: a message, exit status 0.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

import numpy as np
import pyspiel

from trustme_analysis.play.views import SeatView, seat_view
from trustme_analysis.play.watch import event_text, events_of
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import joint_action, sample_chance
from trustme_analysis.players.trained import TrainedBot
from trustme_analysis.registry import find_game
from trustme_analysis.train import stored, train

#: Moves listed at once; a longer list (a Liar starter may hold thousands of plays) shows this many and says how to
#: list the others with ``/TEXT``.
LIST_LIMIT = 40
#: What the person types to leave the game.
QUIT = ("q", "quit")


class LeftGame(Exception):
    """The person left the game (``q`` or the end of input); ``reason`` says which."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Moves:
    """The seat's legal moves at one decision, numbered from 1, in words."""

    def __init__(self, state: pyspiel.State, seat: int, describe: Any | None):
        self.actions = list(state.legal_actions(seat))
        self.texts = [_move_words(state, seat, a, describe) for a in self.actions]

    def listing(self, numbers: Sequence[int] | None = None, limit: int | None = LIST_LIMIT) -> list[str]:
        """Lines ``"   3. Tale 1 below Park 3 (tell a tall tale: ...)"`` for ``numbers`` (1-based; default all), at
        most ``limit`` of them and a line naming how many more."""
        numbers = list(range(1, len(self.actions) + 1)) if numbers is None else list(numbers)
        shown = numbers if limit is None else numbers[:limit]
        lines = [f"  {i:4d}. {self.texts[i - 1]}" for i in shown]
        if len(shown) < len(numbers):
            lines.append(f"        ... and {len(numbers) - len(shown)} more: /TEXT lists the moves whose words contain "
                         "TEXT (e.g. /as 2x), / lists them all")
        return lines


def _move_words(state: pyspiel.State, player: int, action: int, describe: Any | None) -> str:
    text = state.action_to_string(player, action)
    if describe is not None:
        try:
            words = describe.action(state, player, action)
        except (ValueError, KeyError, IndexError, AttributeError, TypeError):  # a describe made for other positions
            words = None
        if words and words != text:
            return f"{text} ({words})"
    return text


def ask(moves: Moves, inp: TextIO, out: TextIO) -> int:
    """Read entries from ``inp`` until one names a move; returns its action. Raises :class:`LeftGame` on ``q`` or
    the end of input."""
    n = len(moves.actions)
    prompt = f"your move (1-{n}; /TEXT to find a move; q to leave): "
    for line in moves.listing():
        print(line, file=out)
    while True:
        out.write(prompt)
        out.flush()
        entry = inp.readline()
        if entry == "":
            print(file=out)
            raise LeftGame("the input ended")
        entry = entry.strip()
        if not inp.isatty():  # a script's entry, echoed so that the transcript reads as a session
            print(entry, file=out)
        if entry.lower() in QUIT:
            raise LeftGame("you left the game")
        if entry.startswith("/"):
            word = entry[1:].strip().lower()
            found = [i for i, t in enumerate(moves.texts, start=1) if word in t.lower()]
            if not found:
                print(f"no move's words contain {word!r}; your moves:", file=out)
                lines = moves.listing()
            else:
                lines = moves.listing(found, limit=None)
            for line in lines:
                print(line, file=out)
            continue
        try:
            number = int(entry)
        except ValueError:
            number = None
        if number is not None and 1 <= number <= n:
            return moves.actions[number - 1]
        if entry == "":
            why = "an empty entry is not a move"
        elif number is not None:
            why = f"{entry} is out of range"
        else:
            why = f"{entry!r} is not a number"
        print(f"{why}: enter a move's number from 1 to {n}; your moves:", file=out)
        for line in moves.listing():
            print(line, file=out)


def prepare_trained(bots: Mapping[int, Any], err: TextIO) -> None:
    """Train (or find) the trained players' policy before the first move, saying so once on ``err``: the bots of a
    game share one stored policy, trained on first use under its folder (``reports/out/trained`` by default)."""
    trained = [b for b in bots.values() if isinstance(b, TrainedBot)]
    if not trained:
        return
    bot = trained[0]
    found = stored(bot.game, bot.settings, bot.outdir)
    if found is not None:
        print(f"trained players: the stored policy {found.folder}", file=err)
        return
    budget = (f"{bot.settings.iterations:,} iterations" if bot.settings.iterations is not None
              else f"{bot.settings.seconds:g} CPU seconds")
    print(f"trained players: none stored for {bot.game} yet; training them now ({budget}, once: the policy is "
          f"stored under {bot.outdir} and reused)", file=err)
    policy = train(bot.game, bot.settings, bot.outdir, progress=lambda line: print("  " + line, file=err))
    print(f"trained players: stored at {policy.folder}", file=err)


def final_scoring(state: pyspiel.State, view: SeatView) -> list[str]:
    """The Final Scoring, one line a seat: points (and what they came from), money and shares, rank."""
    n = state.num_players()
    snap = state.snapshot() if hasattr(state, "snapshot") else {}
    rows: list[list[str]] = [[] for _ in range(n)]
    scores = snap.get("scores")
    for p in range(n):
        if scores is not None:
            s = scores[p]
            if isinstance(s, Mapping):
                total = s.get("total")
                rest = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s.items() if k not in ("total", "rank"))
                rows[p].append(f"{total} points ({rest})" if total is not None else rest)
            else:
                rows[p].append(f"{s:g} points")
        by_source = snap.get("points_by_source")
        if by_source is not None and scores is not None:  # the points count only where the game scores them
            rows[p].append("from " + ", ".join(f"{k.replace('_', ' ')} {v:+}" for k, v in by_source[p].items()))
        wealth = snap.get("wealth")
        if wealth is not None:
            w = wealth[p]
            rows[p].append(f"${w['money']} + {w['shares']} shares = {w['total']}")
        if snap.get("cards_left") is not None and scores is None:
            rows[p].append(f"{snap['cards_left'][p]} cards left in hand")
        ranks = snap.get("ranks")
        if ranks is None and scores is not None and isinstance(scores[p], Mapping):
            ranks = [s.get("rank") for s in scores]
        if ranks is not None and ranks[p] is not None:
            rows[p].append(f"rank {ranks[p]:g}")
    lines = ["Final Scoring"]
    lines += [f"  {view.who(p)}: " + "; ".join(rows[p] + [f"return {r:+g}"])
              for p, r in enumerate(state.returns())]
    if snap.get("winner") is not None:
        lines.append(f"  winner: {view.who(snap['winner'])}")
    return lines


def play_at_seat(game: pyspiel.Game, seat: int, kinds: Sequence[str], seed: int, knobs: dict[str, Any],
                 max_steps: int, inp: TextIO, out: TextIO, err: TextIO | None = None,
                 on_decision: Callable[[pyspiel.State], None] | None = None) -> pyspiel.State:
    """Play one game with a person at ``seat`` (entries read from ``inp``) and bots of ``kinds`` at the other seats
    (``kinds[seat]`` is not read), printing the game as the seat sees it to ``out``; returns the last state.

    Chance and the bots draw from one generator seeded with ``seed``, the person's entries draw nothing: the same
    seed and the same entries give the same game. ``on_decision(state)`` is called at each of the seat's decisions
    before its view is printed (the tests' check of the view). :class:`LeftGame` ends the game early: the message is
    printed and the state returned as it stood.
    """
    err = err if err is not None else sys.stderr
    rng = np.random.default_rng(seed)
    n = game.num_players()
    bots = {p: make_bot(game, kinds[p], p, rng, **knobs.get(kinds[p], {})) for p in range(n) if p != seat}
    prepare_trained(bots, err)
    view = seat_view(game, seat)
    entry = find_game(game.get_type().short_name)
    narrate = entry.part("narrate") if entry is not None else None
    describe = entry.part("describe") if entry is not None else None
    print(f"{game}  (seed {seed})", file=out)
    print("seats: " + ", ".join(f"{p}: you" if p == seat else f"{p}: {kinds[p]}" for p in range(n)), file=out)
    state = game.new_initial_state()
    seen = 0

    def decide(s: pyspiel.State) -> int:
        if on_decision is not None:
            on_decision(s)
        print(f"      your view, seat {seat}:", file=out)
        for line in view.lines(s):
            print("        " + line, file=out)
        print("      your moves:", file=out)
        return ask(Moves(s, seat, describe), inp, out)

    step = 0
    try:
        for step in range(1, max_steps + 1):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance(state, rng)
                line = f"{step:4d}  chance      {view.chance(state, action)}"
                state.apply_action(action)
            elif state.is_simultaneous_node():
                fixed = {seat: decide(state)} if len(state.legal_actions(seat)) > 1 else None
                actions = joint_action(state, lambda s, p: bots[p].step(s), fixed)
                line = f"{step:4d}  all         " + "; ".join(
                    f"{view.who(p)}: "
                    + (state.action_to_string(p, a) if p == seat else view.move(state, p, a))
                    for p, a in enumerate(actions))
                state.apply_actions(actions)
            else:
                p = state.current_player()
                if p == seat:
                    action = decide(state)
                    text = state.action_to_string(p, action)
                else:
                    action = bots[p].step(state)
                    text = view.move(state, p, action)
                line = f"{step:4d}  {view.who(p):<11s} {text}"
                state.apply_action(action)
            print(line, file=out)
            events = events_of(state)
            for event in events[seen:]:
                shown = view.event(event)
                if shown is not None:
                    print("            -> " + event_text(shown, narrate), file=out)
            seen = len(events)
    except LeftGame as left:
        print(f"{left.reason} at step {step}: the game is left unfinished", file=out)
        return state
    if state.is_terminal():
        for line in final_scoring(state, view):
            print(line, file=out)
    else:
        print(f"stopped after {max_steps} steps (--max-steps); the game is not over", file=out)
    return state

