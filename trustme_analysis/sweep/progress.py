"""A plain-text progress line on stderr: games done, games per second, time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class Progress:
    """Counts games as chunks finish and redraws one line (a new line every few seconds when not on a terminal).

    Args:
        total: games the whole sweep plays.
        done: games already stored before this run (a resumed sweep).
        stream: where to write (stderr by default).
        enabled: ``False`` prints nothing (``--quiet``).
    """

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, enabled: bool = True):
        self.total = total
        self.done = done
        self.start_done = done
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.start = time.perf_counter()
        self._last_draw = 0.0
        self._drawn_at = -1
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._interval = 0.2 if self._tty else 5.0

    @property
    def tty(self) -> bool:
        """Whether the line is redrawn in place (the stream is a terminal)."""
        return self._tty

    def line(self) -> str:
        """The current progress text."""
        elapsed = time.perf_counter() - self.start
        played = self.done - self.start_done
        rate = played / elapsed if elapsed > 0 else 0.0
        share = self.done / self.total if self.total else 1.0
        eta = (self.total - self.done) / rate if rate > 0 else float("nan")
        width = 24
        filled = int(round(width * share))
        bar = "#" * filled + "-" * (width - filled)
        eta_text = _clock(eta) if eta == eta else "--:--"
        return (
            f"[{bar}] {self.done}/{self.total} games ({100 * share:5.1f}%)  {rate:8.1f} games/s  "
            f"elapsed {_clock(elapsed)}  ETA {eta_text}"
        )

    def restart_clock(self) -> None:
        """Count the elapsed time, rate and time left from now (after a wait that played no games, e.g. a compile)."""
        self.start = time.perf_counter()

    def note(self, text: str) -> None:
        """Show ``text`` in place of the rate and times (e.g. while compiled code is being built) until the next
        update."""
        if not self.enabled:
            return
        share = self.done / self.total if self.total else 1.0
        width = 24
        filled = int(round(width * share))
        line = f"[{'#' * filled}{'-' * (width - filled)}] {self.done}/{self.total} games ({100 * share:5.1f}%)  {text}"
        self.stream.write(("\r" + line) if self._tty else line + "\n")
        self.stream.flush()

    def update(self, games: int) -> None:
        """Count ``games`` more games as finished and redraw if it is time to."""
        self.done += games
        now = time.perf_counter()
        if self.enabled and (now - self._last_draw >= self._interval or self.done >= self.total):
            self._draw()
            self._last_draw = now

    def _draw(self) -> None:
        self._drawn_at = self.done
        if self._tty:
            self.stream.write("\r" + self.line())
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Finish the line."""
        if self.enabled:
            if self._drawn_at != self.done:
                self._draw()
            if self._tty:
                self.stream.write("\n")
            self.stream.flush()
