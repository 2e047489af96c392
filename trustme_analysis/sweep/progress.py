"""A plain-text progress line on stderr: games done, games per second, time left."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Mapping
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class WorkLeft:
    """The playing time a sweep has left: each unit's games still to play times its seconds per game, over the
    workers.

    A sweep's games differ a hundredfold in cost (a search line-up against a kernel's), so games left over the
    average rate says little; here each unit (a variant whose chunks are played) counts at its own cost. Before any
    of its chunks has come back that is its predicted cost (``cost``: the one the chunk sizes were chosen from),
    scaled by how far real times have strayed from predicted ones on the chunks of its kind back so far (a busy
    machine); after, the seconds its own returned chunks took per game.

    Args:
        games: unit -> games it has still to play.
        cost: unit -> predicted seconds of one worker per game (a unit left out has none: it counts at the average
            cost of the games back so far).
        workers: processes playing chunks at the same time.
        kinds: unit -> its kind (the engine): a unit's prediction is scaled by the real over predicted time of its
            own kind's chunks alone, since a kernel chunk's time is mostly the fixed cost of a chunk, which the cost
            per game leaves out, and a search chunk's is all games.
    """

    def __init__(self, games: Mapping[str, int], cost: Mapping[str, float], workers: int,
                 kinds: Mapping[str, str] | None = None):
        self.left = {k: int(n) for k, n in games.items() if n > 0}
        self.predicted = {k: float(c) for k, c in cost.items() if c > 0}
        self.workers = max(1, int(workers))
        self.kinds = dict(kinds or {})
        self._back: dict[str, list[float]] = {}  # unit -> [seconds, games] of its returned chunks
        # Kind (None: units without one) -> [seconds taken, seconds predicted] of its returned predicted chunks.
        self._strayed: dict[str | None, list[float]] = {}

    def chunk_done(self, unit: str, games: int, seconds: float) -> None:
        """Count a returned chunk of ``unit``: ``games`` played in ``seconds`` of its worker."""
        self.left[unit] = max(0, self.left.get(unit, 0) - games)
        back = self._back.setdefault(unit, [0.0, 0.0])
        back[0] += seconds
        back[1] += games
        if unit in self.predicted:
            strayed = self._strayed.setdefault(self.kinds.get(unit), [0.0, 0.0])
            strayed[0] += seconds
            strayed[1] += games * self.predicted[unit]

    def ratio(self, unit: str | None = None) -> float:
        """Real over predicted seconds on the chunks of ``unit``'s kind back so far (1 before any: another kind's
        says nothing of it; a worker's first kernel chunk, loading the compiled code, takes a hundred times its
        games)."""
        real, predicted = self._strayed.get(self.kinds.get(unit) if unit is not None else None, (0.0, 0.0))
        return real / predicted if predicted > 0 else 1.0

    def cost_of(self, unit: str) -> float:
        """Seconds per game of ``unit`` as now estimated (NaN: nothing to go by yet)."""
        back = self._back.get(unit)
        if back and back[1] > 0:
            return back[0] / back[1]
        if unit in self.predicted:
            return self.predicted[unit] * self.ratio(unit)
        seconds = sum(b[0] for b in self._back.values())
        games = sum(b[1] for b in self._back.values())
        return seconds / games if games > 0 else math.nan

    def seconds(self) -> float:
        """Wall seconds of play left on all workers (NaN while some unit left has no cost to go by)."""
        return sum(n * self.cost_of(unit) for unit, n in self.left.items() if n > 0) / self.workers


class Progress:
    """Counts games as chunks finish and redraws one line (a new line every few seconds when not on a terminal).

    Args:
        total: games the whole sweep plays.
        done: games already stored before this run (a resumed sweep).
        stream: where to write (stderr by default).
        enabled: ``False`` prints nothing (``--quiet``).
        work: the games left with their costs (:class:`WorkLeft`), for the time left; without it that is the games
            left over the average rate so far.
    """

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, enabled: bool = True,
                 work: WorkLeft | None = None):
        self.total = total
        self.work = work
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
        if self.work is not None:
            eta = self.work.seconds() if self.done < self.total else 0.0
        else:
            eta = (self.total - self.done) / rate if rate > 0 else math.nan
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
        """Count ``games`` more games as finished and redraw if it is time to (a returned chunk's cost goes to
        :attr:`work` first: :meth:`WorkLeft.chunk_done`)."""
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
