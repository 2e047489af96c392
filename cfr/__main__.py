"""``python -m cfr GAME``: solve a game from the command line and print the convergence curve.

Example::

    python -m cfr "leduc_poker" --algorithm dcfr --time-limit 10
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


class _OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line on stderr (exit status 2), not a usage block."""

    def error(self, message: str):  # noqa: D401 - argparse hook
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (every flag documented in ``--help``)."""
    from cfr.api import algorithm_names
    from cfr.compile import DEFAULT_MAX_HISTORIES

    parser = _OneLineParser(
        prog="python -m cfr",
        description="Solve a pyspiel game with the CFR family and print the convergence curve and final figures. "
        "Stops at the first of --iterations, --time-limit and --target (1000 iterations when none is given).",
    )
    parser.add_argument("game", help='pyspiel game string, e.g. "kuhn_poker" or "leduc_poker" or '
                        '"kuhn_poker(players=3)"; Trust Me games are registered automatically')
    parser.add_argument("--algorithm", "-a", default="cfr+", choices=algorithm_names(), metavar="NAME",
                        help="one of: %(choices)s (default: %(default)s)")
    parser.add_argument("--iterations", "-n", type=int, default=None, help="stop after this many iterations")
    parser.add_argument("--time-limit", "-t", type=float, default=None,
                        help="stop after this many seconds of wall time (compile and evaluations included)")
    parser.add_argument("--target", type=float, default=None,
                        help="stop once exploitability (NashConv for games that are not two-player zero-sum) "
                        "is at or below this")
    parser.add_argument("--eval-every", type=int, default=None,
                        help="evaluate every this many iterations (default: 10 full-tree, 1000 sampling)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampling solvers (default: 0)")
    parser.add_argument("--max-histories", type=int, default=DEFAULT_MAX_HISTORIES,
                        help="refuse to compile a larger tree (default: %(default)s)")
    updates = parser.add_mutually_exclusive_group()
    updates.add_argument("--alternating", dest="alternating", action="store_true", default=None,
                         help="alternating updates (default for cfr+, linear, dcfr, pcfr+)")
    updates.add_argument("--simultaneous", dest="alternating", action="store_false",
                         help="simultaneous updates (default for cfr)")
    parser.add_argument("--alpha", type=float, default=1.5, help="DCFR positive-regret exponent (default 1.5)")
    parser.add_argument("--beta", type=float, default=0.0, help="DCFR negative-regret exponent (default 0)")
    parser.add_argument("--gamma", type=float, default=2.0, help="DCFR averaging exponent (default 2)")
    parser.add_argument("--exploration", type=float, default=0.6,
                        help="outcome-sampling exploration probability (default 0.6)")
    parser.add_argument("--checkpoint", default=None, metavar="PATH",
                        help="save the solver state here at every evaluation and at the end")
    parser.add_argument("--resume", default=None, metavar="PATH", help="continue from a checkpoint")
    return parser


def load_game_quietly(game_string: str):
    """``pyspiel.load_game`` with OpenSpiel's own stderr chatter suppressed and a short error message.

    OpenSpiel's C++ side prints the whole list of registered games to the stderr file descriptor before raising on an
    unknown name; the command line promises a one-line error, so the name is checked first and fd 2 is silenced
    during the load.
    """
    import difflib
    import os
    import tempfile

    import pyspiel

    name = game_string.split("(", 1)[0].strip()
    known = pyspiel.registered_names()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see pyspiel.registered_names()"
        raise ValueError(f"unknown game {name!r}{hint}")
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            return pyspiel.load_game(game_string)
        except pyspiel.SpielError as exc:
            lines = str(exc).strip().splitlines() or ["invalid game string"]
            raise ValueError(f"cannot load game {game_string!r}: {lines[0]}") from None
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        import trustme_analysis  # noqa: F401  (registers the Trust Me games with pyspiel)
    except ImportError:
        pass
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
        print(f"python -m cfr: error: {message[0] if message else type(exc).__name__}", file=sys.stderr)
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
