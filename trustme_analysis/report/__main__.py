"""``python -m trustme_analysis.report OUTDIR``: rebuild the statistics and the PDF from a stored sweep."""

from __future__ import annotations

import sys
import tempfile
import traceback

from trustme_analysis.report import build_report
from trustme_analysis.specfile import OneLineParser, OptionError


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code: 0 done; 2 OUTDIR holds no sweep, a file of it is damaged
    (named) or OUTDIR cannot be written; 130 interrupted; 1 anything else (one line; the traceback goes to a log
    file the line names)."""
    parser = OneLineParser(
        prog="python -m trustme_analysis.report",
        description="Rebuild the results set (OUTDIR/stats/) when the records changed, and draw OUTDIR/report.pdf, "
        "without simulating.",
    )
    parser.add_argument("outdir", help="the sweep's output folder (holds manifest.json and records/)")
    try:
        args = parser.parse_args(argv)
        if not args.outdir.strip():  # would be the current folder
            raise OptionError("OUTDIR", "must be a folder path, got an empty string")
        path = build_report(args.outdir)
    except OptionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ValueError) as exc:  # no sweep there, a damaged file (ResultsError names it)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the folder refuses the results set or the PDF (read-only, full)
        where = f" {exc.filename}" if exc.filename else " in the output folder"
        print(f"error: cannot write{where}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug: one line, the traceback in a log file
        log = _log_traceback(exc)
        first = (str(exc).strip().splitlines() or [""])[0]
        print(f"error: building the report failed ({type(exc).__name__}: {first})"
              + (f" (traceback in {log})" if log else ""), file=sys.stderr)
        return 1
    print(f"report: {path}")
    return 0


def _log_traceback(exc: BaseException) -> str | None:
    try:
        with tempfile.NamedTemporaryFile("w", prefix="trustme-report-", suffix=".log", delete=False,
                                         encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)))
            return fh.name
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(main())
