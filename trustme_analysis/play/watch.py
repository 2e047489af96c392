"""Bots at every seat: one game printed move by move, each step and event in the rulebook's words.

Each step is printed as the game's engine names it (``state.action_to_string``), and each event the step caused
(a revealed tale, a Ticket gained, a challenge, a payoff) in the words of the game's ``narrate`` registry part when it
has one (else the event's fields). The end shows the returns and the final scores. This is what
``python -m trustme_analysis.play GAME`` prints without ``--seat``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np
import pyspiel

from trustme_analysis.players import make_bot
from trustme_analysis.players.play import joint_action, sample_chance
from trustme_analysis.registry import find_game


def event_text(event: dict[str, Any], narrate: Callable[[dict[str, Any]], str | None] | None) -> str:
    """One event in the words of the game's ``narrate`` part, or as its fields where it has none (or no words)."""
    if narrate is not None:
        text = narrate(event)
        if text:
            return text
    kind = event.get("kind", event.get("type", event.get("event", "event")))
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "type", "event"))
    return f"{kind}: {rest}" if rest else str(kind)


def events_of(state: pyspiel.State) -> list[dict[str, Any]]:
    """The events of the engine's snapshot so far (none for a game without a snapshot)."""
    snapshot = getattr(state, "snapshot", None)
    if snapshot is None:
        return []
    return list(snapshot().get("events") or [])


def play_and_print(game: pyspiel.Game, kinds: Sequence[str], seed: int, knobs: dict[str, Any], max_steps: int,
                   out: TextIO) -> pyspiel.State:
    """Play one game with bots of ``kinds`` (one per seat) and print every step and event to ``out``."""
    rng = np.random.default_rng(seed)
    n = game.num_players()
    bots = [make_bot(game, kinds[p], p, rng, **knobs.get(kinds[p], {})) for p in range(n)]
    entry = find_game(game.get_type().short_name)
    narrate = entry.part("narrate") if entry is not None else None
    print(f"{game}  (seed {seed})", file=out)
    print("seats: " + ", ".join(f"{p}: {kinds[p]}" for p in range(n)), file=out)
    state = game.new_initial_state()
    seen = 0
    for step in range(1, max_steps + 1):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = sample_chance(state, rng)
            line = f"{step:4d}  chance      {state.action_to_string(pyspiel.PlayerId.CHANCE, action)}"
            state.apply_action(action)
        elif state.is_simultaneous_node():
            actions = joint_action(state, lambda s, p: bots[p].step(s))
            line = f"{step:4d}  all         " + "; ".join(
                f"seat {p}: {state.action_to_string(p, a)}" for p, a in enumerate(actions))
            state.apply_actions(actions)
        else:
            p = state.current_player()
            action = bots[p].step(state)
            line = f"{step:4d}  seat {p:<6d} {state.action_to_string(p, action)}"
            state.apply_action(action)
        print(line, file=out)
        events = events_of(state)
        for event in events[seen:]:
            print("            -> " + event_text(event, narrate), file=out)
        seen = len(events)
    if state.is_terminal():
        print("end: returns " + ", ".join(f"seat {p}: {r:+g}" for p, r in enumerate(state.returns())), file=out)
        snap = state.snapshot() if hasattr(state, "snapshot") else {}
        for key in ("scores", "winner", "ranks", "points", "wealth"):
            if snap.get(key) is not None:
                print(f"{key}: {json.dumps(snap[key])}", file=out)
    else:
        print(f"stopped after {max_steps} steps (--max-steps); the game is not over", file=out)
    return state
