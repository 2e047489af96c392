"""``python -m cfr GAME``: solve a game from the command line and print the convergence curve.

Example::

    python -m cfr "leduc_poker" --algorithm dcfr --time-limit 10
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np


class _OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line on stderr (exit status 2), not a usage block."""

    def error(self, message: str):  # noqa: D401 - argparse hook
        self.exit(2, f"error: {message} (see --help)\n")


#: The largest count an option takes (iterations, an evaluation interval): a larger one is a slip, not a plan.
MAX_COUNT = 10_000_000_000


#: The largest seed (numpy's generators take any non-negative integer; one a 64-bit integer holds keeps files exact).
MAX_SEED = 2**63 - 1


def _int_at_least(low: int, high: int = MAX_COUNT):
    """An argparse ``type``: an integer from ``low`` to ``high``; the error says what is allowed."""
    allowed = f"an integer from {low} to {high:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def _finite(low: float | None = None, above: bool = False, high: float | None = None):
    """An argparse ``type``: a finite number (``>= low``, or ``> low`` with ``above``; ``<= high``)."""
    bounds = ([f"> {low:g}" if above else f">= {low:g}"] if low is not None else []) + (
        [f"<= {high:g}"] if high is not None else [])
    allowed = "a finite number" + (" " + " and ".join(bounds) if bounds else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if (not math.isfinite(value) or (low is not None and (value <= low if above else value < low))
                or (high is not None and value > high)):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (every flag documented in ``--help``)."""
    from cfr.api import algorithm_names
    from cfr.compile import DEFAULT_MAX_HISTORIES

    parser = _OneLineParser(
        prog="python -m cfr",
        description="Solve a pyspiel game with the CFR family and print the convergence curve and final figures. "
        "Stops at the first of --iterations, --time-limit and --target (1000 iterations when none is given).",
    )
    parser.add_argument("game", nargs="?", help='pyspiel game string, e.g. "kuhn_poker" or "leduc_poker" or '
                        '"kuhn_poker(players=3)"; Trust Me games are registered automatically')
    parser.add_argument("--algorithm", "-a", default="cfr+", choices=algorithm_names(), metavar="NAME",
                        help="one of: %(choices)s (default: %(default)s)")
    parser.add_argument("--list", action="store_true", help="list every registered game (the Trust Me games first) "
                        "and exit")
    parser.add_argument("--iterations", "-n", type=_int_at_least(1), default=None, help="stop after this many iterations")
    parser.add_argument("--time-limit", "-t", type=_finite(0, above=True), default=None,
                        help="stop after this many seconds of wall time (compile and evaluations included)")
    parser.add_argument("--target", type=_finite(0), default=None,
                        help="stop once exploitability (NashConv for games that are not two-player zero-sum) "
                        "is at or below this")
    parser.add_argument("--eval-every", type=_int_at_least(1), default=None,
                        help="evaluate every this many iterations (default: 10 full-tree, 1000 sampling)")
    parser.add_argument("--seed", type=_int_at_least(0, MAX_SEED), default=0, help="seed of the sampling solvers (default: 0)")
    parser.add_argument("--max-histories", type=_int_at_least(1), default=DEFAULT_MAX_HISTORIES,
                        help="refuse to compile a larger tree (default: %(default)s)")
    updates = parser.add_mutually_exclusive_group()
    updates.add_argument("--alternating", dest="alternating", action="store_true", default=None,
                         help="alternating updates (default for cfr+, linear, dcfr, pcfr+)")
    updates.add_argument("--simultaneous", dest="alternating", action="store_false",
                         help="simultaneous updates (default for cfr)")
    parser.add_argument("--alpha", type=_finite(), default=1.5, help="DCFR positive-regret exponent (default 1.5)")
    parser.add_argument("--beta", type=_finite(), default=0.0, help="DCFR negative-regret exponent (default 0)")
    parser.add_argument("--gamma", type=_finite(), default=2.0, help="DCFR averaging exponent (default 2)")
    parser.add_argument("--exploration", type=_finite(0, above=True, high=1), default=0.6,
                        help="outcome-sampling exploration probability (default 0.6)")
    parser.add_argument("--checkpoint", default=None, metavar="PATH",
                        help="save the solver state here at every evaluation and at the end")
    parser.add_argument("--resume", default=None, metavar="PATH", help="continue from a checkpoint")
    return parser


def load_game_quietly(game_string: str):
    """``pyspiel.load_game`` with OpenSpiel's own stderr chatter suppressed and a one-line error
    (:class:`cfr.gameload.GameLoadError`, a ``ValueError``): see :mod:`cfr.gameload`."""
    from cfr.gameload import load_game_quietly as load

    return load(game_string)


def _checkpoint_problem(path_text: str) -> str | None:
    """Why a checkpoint cannot be saved at ``path_text`` (``None``: it can)."""
    import os
    from pathlib import Path

    if not path_text.strip():
        return "must be a file path, got an empty string"
    path = Path(path_text)
    if path.is_dir():
        return f"{path_text!r} is a folder; give the path of a file"
    existing = path.parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{path_text!r} cannot be created: {str(existing)!r} is a file, not a folder"
    if not os.access(existing, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"{path_text!r} cannot be written (read-only or permission denied)"
    return None


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        import trustme_analysis  # noqa: F401  (registers the Trust Me games with pyspiel)
    except ImportError:
        pass
    if args.list:
        from cfr.gameload import listing

        print(listing())
        return 0
    if args.game is None:
        parser.error("the game is required (a game string such as kuhn_poker; --list lists them)")
    if args.checkpoint is not None:
        problem = _checkpoint_problem(args.checkpoint)
        if problem:  # found before solving, not when the first checkpoint is saved
            parser.error(f"argument --checkpoint: {problem}")
    try:
        import pandas as pd

        from cfr.api import solve
        from cfr.evaluate import expected_values

        game = load_game_quietly(args.game)
        result = solve(
            game,
            algorithm=args.algorithm,
            iterations=args.iterations,
            time_limit=args.time_limit,
            target_exploitability=args.target,
            eval_every=args.eval_every,
            seed=args.seed,
            max_histories=args.max_histories,
            alternating=args.alternating,
            alpha=args.alpha,
            beta=args.beta,
            gamma=args.gamma,
            exploration=args.exploration,
            checkpoint=args.checkpoint,
            resume=args.resume,
        )
    except KeyboardInterrupt:
        print("python -m cfr: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # one line for the user, whatever went wrong
        message = str(exc).strip().splitlines()
        print(f"error: {message[0] if message else type(exc).__name__}", file=sys.stderr)
        return 2
    if result.compiled is not None:
        summary = result.compiled.summary()
        print("game:", summary["game"])
        print(f"compiled: {summary['histories']} histories, {summary['infosets_per_player']} information sets per "
              f"player, {summary['slots']} actions, {summary['bytes'] / 1e6:.1f} MB in "
              f"{summary['compile_seconds']:.2f} s")
    with pd.option_context("display.max_rows", 60, "display.width", 120):
        print(result.curve.to_string(index=False))
    last = result.curve.iloc[-1]
    print(f"algorithm: {args.algorithm}  iterations: {int(last['iteration'])}  solver seconds: "
          f"{last['seconds']:.3f}  stopped by: {result.stop_reason}")
    print(f"{result.metric}: {last[result.metric]:.6g}")
    if result.compiled is not None:
        values = expected_values(result.compiled, result.average)
        print("expected value per player:", " ".join(f"{v:+.6f}" for v in np.asarray(values)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
