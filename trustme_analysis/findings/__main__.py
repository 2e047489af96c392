"""``python -m trustme_analysis.findings OUTDIR [OUTDIR ...] [--rst FILE] [--csv FILE]``: the findings of stored
sweeps (:mod:`trustme_analysis.findings`), printed, and written as the docs' table and as CSV when asked."""

from __future__ import annotations

import sys
from pathlib import Path

from trustme_analysis.findings import FindingsError, answers
from trustme_analysis.findings.table import lines, rst
from trustme_analysis.specfile import OneLineParser, OptionError


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns 0 done, 2 bad input (one line names the folder or option), 130
    interrupted."""
    parser = OneLineParser(prog="python -m trustme_analysis.findings",
                           description="Answer each game's findings questions from stored sweeps that played "
                           "heuristic and competent (trained or search) line-ups under the same rules.")
    parser.add_argument("outdirs", nargs="+", metavar="OUTDIR", help="a sweep's output folder")
    parser.add_argument("--rst", metavar="FILE", help="write the table as reStructuredText (the docs' include)")
    parser.add_argument("--csv", metavar="FILE", help="write the table as CSV")
    try:
        args = parser.parse_args(argv)
        for d in args.outdirs:
            if not d.strip():
                raise OptionError("OUTDIR", "must be a folder path, got an empty string")
        table = answers(args.outdirs)
        if table.empty:
            raise OptionError("OUTDIR", "these sweeps played no line-up more competent than the heuristic beside it "
                              "under the same rules; allowed: sweeps with a heuristic and a trained or search line-up")
        for text in lines(table):
            print(text)
        if args.rst:
            Path(args.rst).write_text(rst(table, args.outdirs, args.rst), encoding="utf-8")
            print(f"findings: {args.rst}")
        if args.csv:
            table.to_csv(args.csv, index=False)
            print(f"findings: {args.csv}")
    except (OptionError, FindingsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {exc.filename or 'the output'}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
