"""The command line of ``python -m trustme_analysis.play`` (see the package docstring for what it does)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.play.seat import play_at_seat
from trustme_analysis.play.watch import play_and_print
from trustme_analysis.players import bot_kinds
from trustme_analysis.players.lineup import check_knobs
from trustme_analysis.players.policy import load_policy
from trustme_analysis.specfile import OneLineParser, OptionError, SpecError, did_you_mean, int_option, load_game

#: The most steps ``--max-steps`` allows: far beyond any game's length (the longest play a few thousand).
MAX_STEPS = 10_000_000
DESCRIPTION = "play one game and print it move by move, in the rulebook's words; --seat N: take seat N yourself"


def _parse_knobs(text: str, kinds: Sequence[str], known: Sequence[str], played_by: str) -> dict[str, Any]:
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
            raise OptionError("--knobs", f"{kind!r} plays no seat ({played_by}); give knobs for the kinds that play")
    return knobs


def build_parser() -> OneLineParser:
    """The command-line parser."""
    parser = OneLineParser(prog="python -m trustme_analysis.play", description=DESCRIPTION)
    parser.add_argument("game", help="a game string, e.g. trustme_pinocchio or \"trustme_liar(players=3)\"")
    parser.add_argument("--seed", type=int_option(0), default=0, help="the game's seed (chance and bots)")
    parser.add_argument("--bots", default=None, help="bot kinds, one for every seat or one per seat "
                        "(comma-separated; default heuristic); not with --seat")
    parser.add_argument("--seat", type=int_option(0), default=None,
                        help="take this seat yourself (0 is the first seat): your view only, your moves numbered")
    parser.add_argument("--against", default=None,
                        help="with --seat: the other seats' bot kinds, one for all or one per other seat in seat "
                             "order (default: trained where the game has a trainer, else heuristic)")
    parser.add_argument("--knobs", default="{}", help="JSON: knobs per bot kind, e.g. '{\"search\": {\"budget\": 100}}'")
    parser.add_argument("--max-steps", type=int_option(1, MAX_STEPS), default=5000,
                        help="stop after this many steps")
    return parser


def _check_kinds(kinds: Sequence[str], known: Sequence[str], option: str) -> None:
    for kind in kinds:
        if kind not in known:
            raise OptionError(option, f"{kind!r} is not allowed{did_you_mean(kind, known)} (allowed: "
                              f"{', '.join(known)})")


def _seat_kinds(game: pyspiel.Game, seat: int, against: str | None, known: Sequence[str]) -> list[str]:
    """One bot kind per seat (the seat's own entry is ``"you"``) from ``--against``."""
    n = game.num_players()
    if seat >= n:
        raise OptionError("--seat", f"{seat} is not allowed; allowed: a seat from 0 to {n - 1} ({n} players)")
    if against is None:
        others = ["trained" if "trained" in known else "heuristic"]
    else:
        others = [k.strip() for k in against.split(",") if k.strip()]
        if len(others) not in (1, n - 1):
            raise OptionError("--against", f"{against!r} is not allowed; allowed: one kind, or {n - 1} comma-separated "
                              "kinds (one per other seat, in seat order)")
        _check_kinds(others, known, "--against")
    if len(others) == 1:
        others = others * (n - 1)
    kinds = list(others)
    kinds.insert(seat, "you")
    return kinds


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, inp: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (2, with one line on stderr, for any bad argument; 0 for a game
    played, stopped by ``--max-steps`` or left by the person at the seat)."""
    out = out if out is not None else sys.stdout
    inp = inp if inp is not None else sys.stdin
    try:
        args = build_parser().parse_args(argv)
        game = load_game(args.game, "")
        n = game.num_players()
        known = bot_kinds(game.get_type().short_name)
        if args.seat is not None:
            if args.bots is not None:
                raise OptionError("--bots", f"{args.bots!r} is not allowed with --seat; allowed: --against KIND for "
                                  "the other seats")
            kinds = _seat_kinds(game, args.seat, args.against, known)
            seats = [p for p in range(n) if p != args.seat]
            played_by = "--against " + ",".join(kinds[p] for p in seats)
        else:
            if args.against is not None:
                raise OptionError("--against", f"{args.against!r} is not allowed without --seat; allowed: --seat N "
                                  "--against KIND, or --bots for every seat")
            bots = args.bots if args.bots is not None else "heuristic"
            kinds = [k.strip() for k in bots.split(",") if k.strip()]
            if len(kinds) == 1:
                kinds = kinds * n
            if len(kinds) != n:
                raise OptionError("--bots", f"{bots!r} is not allowed; allowed: one kind, or {n} comma-separated "
                                  "kinds")
            _check_kinds(kinds, known, "--bots")
            seats = list(range(n))
            played_by = "--bots " + ",".join(kinds)
        knobs = _parse_knobs(args.knobs, [kinds[p] for p in seats], known, played_by)
        for kind, table in knobs.items():  # every seat's bot made once before the first move is printed
            for p in seats:
                if kinds[p] == kind:
                    check_knobs(game, f"--knobs: {kind}", kind, table, p)
        if "policy" in kinds and isinstance(knobs.get("policy", {}).get("policy"), str):
            # A policy bot reads its file at its first move: read it now, so a missing one is refused up front.
            try:
                load_policy(knobs["policy"]["policy"])
            except (OSError, ValueError) as exc:
                raise OptionError("--knobs: policy.policy", str(exc)) from None
        if args.seat is not None:
            try:
                play_at_seat(game, args.seat, kinds, args.seed, knobs, args.max_steps, inp, out)
            except KeyboardInterrupt:
                print("\ninterrupted: the game is left unfinished", file=out)
                return 130
        else:
            play_and_print(game, kinds, args.seed, knobs, args.max_steps, out)
    except SpecError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, OSError) as exc:  # a bot refusing a position it was not made for: still one line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
