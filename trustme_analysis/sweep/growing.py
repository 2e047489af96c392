"""Growing a sweep until its headline figures are as precise as asked (``--until-ci WIDTH``).

Game ``i``'s records do not depend on how many games a sweep has (:mod:`.seeding`), so a stored sweep grows by
playing only the games after the stored ones. :func:`grow_until` plays the spec's games, measures the widest 95%
interval among the headline figures given as shares (the baseline's seat win rates and its share measures, the
significant changes in shares: the results set's ``headlines`` rows whose unit is a share), and, while that is wider
than the target, raises ``games`` to what the square-root law says is enough (interval width ~ 1 / sqrt(games)),
rounded up to whole chunks, and plays on.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from trustme_analysis.sweep.spec import MAX_CHUNKS, Spec

#: Rounds of growing before giving up (each at most :data:`MAX_FACTOR` times the games of the one before).
MAX_ROUNDS = 6
MAX_FACTOR = 16


def widest_share_interval(outdir: str | Path) -> tuple[float, str]:
    """The widest 95% interval (high - low) among the sweep's headline figures given as shares, and which figure
    it is ("v00: seat 0 wins"); ``(nan, "")`` when there is none."""
    from trustme_analysis import results  # the results layer only when asked

    table = results.compute(outdir)["headlines"]
    shares = table[table["unit"].astype(str).str.contains("share") & table["low"].notna() & table["high"].notna()]
    if shares.empty:
        return math.nan, ""
    widths = shares["high"] - shares["low"]
    row = shares.loc[widths.idxmax()]
    return float(widths.max()), f"{row['variant']}: {row['measure']}"


def games_needed(games: int, width: float, target: float, chunk_size: int) -> int:
    """Games per variant for an interval of ``width`` at ``games`` to shrink to ``target`` (width ~ 1/sqrt(games)),
    in whole chunks, more than ``games`` and at most :data:`MAX_FACTOR` times it.

    >>> games_needed(100, 0.10, 0.05, 50)  # 4 x 100 games, 5% over, in whole chunks
    450
    """
    wanted = games * (width / target) ** 2 * 1.05  # a little over: the estimate of the width itself moves
    wanted = min(max(wanted, games + 1), games * MAX_FACTOR)
    return int(math.ceil(wanted / chunk_size) * chunk_size)


def grow_until(spec: Spec, target: float, run: Callable[[Spec, bool], Any], outdir: str | Path,
               say: Callable[[str], None]) -> tuple[Spec, float]:
    """Run ``spec`` (``run(spec, report)``), then grow it until the widest headline share interval is at most
    ``target``; returns the spec last run (its ``games`` is what the folder holds) and that width.

    Raises:
        ValueError: ``target`` is not a share width in (0, 1).
    """
    if not 0.0 < target < 1.0:
        raise ValueError(f"--until-ci {target!r} is not allowed; allowed: the full width of a 95% interval of a "
                         "share, between 0 and 1 (0.02: +-1 percentage point)")
    for _ in range(MAX_ROUNDS):
        run(spec, False)
        width, which = widest_share_interval(outdir)
        if math.isnan(width) or width <= target:
            say(f"--until-ci {target}: the widest headline interval is {width:.4f} ({which}) with {spec.games} games "
                "per variant: done")
            break
        games = games_needed(spec.games, width, target, spec.chunk_size)
        limit = MAX_CHUNKS // max(len(spec.variants), 1) * spec.chunk_size
        if games > limit:
            say(f"--until-ci {target}: {games} games per variant would pass the sweep's limit of {limit}; stopping "
                f"at {spec.games} (widest interval {width:.4f}, {which})")
            break
        say(f"--until-ci {target}: the widest headline interval is {width:.4f} ({which}) with {spec.games} games "
            f"per variant; growing to {games}")
        spec = dataclasses.replace(spec, games=games)
    else:
        say(f"--until-ci {target}: stopped after {MAX_ROUNDS} rounds at {spec.games} games per variant")
    return spec, width
