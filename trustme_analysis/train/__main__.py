"""Train a policy from the command line: ``python -m trustme_analysis.train GAME [--iterations N | --seconds S]
[--seed K] [--detail D] [--out OUTDIR]``.

Prints the progress line every few CPU seconds and the stored policy's folder at the end; Ctrl-C leaves a checkpoint
that the same command resumes.
"""

from __future__ import annotations

import argparse
import sys

import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.train.driver import game_settings, train


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trustme_analysis.train", description=__doc__)
    parser.add_argument("game", help='a game string, e.g. "trustme_pinocchio(players=3)"')
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=None)
    budget.add_argument("--seconds", type=float, default=None, help="CPU seconds (not reproducible)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--detail", type=int, default=0, help="the abstraction's level (0: coarsest)")
    parser.add_argument("--out", default="reports/out/trained", help="the output folder (policies go to OUT/train/)")
    args = parser.parse_args(argv)
    iterations = args.iterations if args.iterations is not None or args.seconds is not None else 400_000
    try:
        settings = game_settings(args.game, iterations=iterations, seconds=args.seconds, seed=args.seed,
                                 detail=args.detail)
        policy = train(args.game, settings, args.out, lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        return 130
    except (ValueError, TypeError, pyspiel.SpielError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(("reused " if policy.reused else "") + str(policy.folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
