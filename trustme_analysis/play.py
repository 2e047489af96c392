"""``python -m trustme_analysis.play GAME``: play one game and print it move by move, in the rulebook's words.

Each step is printed as the game's engine names it (``state.action_to_string``), and each event the step caused
(a revealed tale, a Ticket gained, a challenge, a payoff) in the words of the game's ``narrate`` registry part when it
has one (else the event's fields). The end shows the returns and the final scores. Examples::

    python -m trustme_analysis.play trustme_pinocchio --seed 3
    python -m trustme_analysis.play "trustme_liar(players=3)" --bots heuristic,random,search --seed 1
    python -m trustme_analysis.play trustme_1981 --bots heuristic --max-steps 200

Exit status: 0 played; 2 a bad game string, bot kind or knob (one line naming it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import numpy as np
import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.players.play import joint_action, sample_chance
from trustme_analysis.players.lineup import check_knobs
from trustme_analysis.players.policy import load_policy
from trustme_analysis.registry import find_game
from trustme_analysis.specfile import OneLineParser, OptionError, SpecError, did_you_mean, int_option, load_game


def _event_text(event: dict[str, Any], narrate: Callable[[dict[str, Any]], str | None] | None) -> str:
    if narrate is not None:
        text = narrate(event)
        if text:
            return text
    kind = event.get("kind", event.get("type", event.get("event", "event")))
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "type", "event"))
    return f"{kind}: {rest}" if rest else str(kind)


def _events(state: pyspiel.State) -> list[dict[str, Any]]:
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
        events = _events(state)
        for event in events[seen:]:
            print("            -> " + _event_text(event, narrate), file=out)
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


def _parse_knobs(text: str, kinds: Sequence[str], known: Sequence[str]) -> dict[str, Any]:
    """``--knobs`` as a table of bot kind -> knob table; a kind that is not a known bot kind, or one no seat plays,
    is refused (a misspelt name would otherwise be ignored and the game played with the default knobs)."""
    try:
        knobs = json.loads(text)
    except json.JSONDecodeError as exc:
        raise OptionError("--knobs", f"{text!r} is not allowed; allowed: JSON such as "
                          f"'{{\"heuristic\": {{\"bluff_rate\": 0.5}}}}' ({exc.msg})") from None
    if not isinstance(knobs, dict) or not all(isinstance(v, dict) for v in knobs.values()):
        raise OptionError("--knobs", f"{text!r} is not allowed; allowed: a JSON table of bot kind -> knob table")
    for kind in knobs:
        if kind not in known:
            raise OptionError("--knobs", f"{kind!r} is not a bot kind{did_you_mean(kind, known)} (bot kinds: "
                              f"{', '.join(known)})")
        if kind not in kinds:
            raise OptionError("--knobs", f"{kind!r} plays no seat (--bots {','.join(kinds)}); give knobs for the "
                              "kinds that play")
    return knobs


def build_parser() -> OneLineParser:
    """The command-line parser."""
    parser = OneLineParser(prog="python -m trustme_analysis.play", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game string, e.g. trustme_pinocchio or \"trustme_liar(players=3)\"")
    parser.add_argument("--seed", type=int_option(0), default=0, help="the game's seed (chance and bots)")
    parser.add_argument("--bots", default="heuristic", help="bot kinds, one for every seat or one per seat "
                        "(comma-separated; default heuristic)")
    parser.add_argument("--knobs", default="{}", help="JSON: knobs per bot kind, e.g. '{\"search\": {\"budget\": 100}}'")
    parser.add_argument("--max-steps", type=int_option(1), default=5000, help="stop after this many steps")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (2, with one line on stderr, for any bad argument)."""
    out = out if out is not None else sys.stdout
    try:
        args = build_parser().parse_args(argv)
        game = load_game(args.game, "")
        kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
        n = game.num_players()
        if len(kinds) == 1:
            kinds = kinds * n
        if len(kinds) != n:
            raise OptionError("--bots", f"{args.bots!r} is not allowed; allowed: one kind, or {n} comma-separated "
                              "kinds")
        known = bot_kinds(game.get_type().short_name)
        for kind in kinds:
            if kind not in known:
                raise OptionError("--bots", f"{kind!r} is not allowed{did_you_mean(kind, known)} (allowed: "
                                  f"{', '.join(known)})")
        knobs = _parse_knobs(args.knobs, kinds, known)
        for kind, table in knobs.items():  # every seat's bot made once before the first move is printed
            for p in range(n):
                if kinds[p] == kind:
                    check_knobs(game, f"--knobs: {kind}", kind, table, p)
        if "policy" in kinds and isinstance(knobs.get("policy", {}).get("policy"), str):
            # A policy bot reads its file at its first move: read it now, so a missing one is refused up front.
            try:
                load_policy(knobs["policy"]["policy"])
            except (OSError, ValueError) as exc:
                raise OptionError("--knobs: policy.policy", str(exc)) from None
        play_and_print(game, kinds, args.seed, knobs, args.max_steps, out)
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, OSError) as exc:  # a bot refusing a position it was not made for: still one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
