"""Growing a sweep until its headline figures are as precise as asked (``--until-ci WIDTH``).

Game ``i``'s records do not depend on how many games a sweep has (:mod:`.seeding`), so a stored sweep grows by
playing only the games after the stored ones. :func:`grow_until` plays the spec's games, measures the widest 95%
interval among the headline figures given as shares (the headline variant's seat win rates and its share measures,
the significant changes in shares, each share under a stronger line-up: the results set's ``headlines`` rows whose
unit is a share, less the trust check's, whose games are the ``[trust]`` section's and do not grow), and, while that
is wider than the target, grows every line-up by one factor, the one the square-root law says is enough (interval
width ~ 1 / sqrt(games)), and plays on.

Every line-up grows by the same factor (:func:`grown_spec`): the spec's ``games`` and each line-up's own ``games``
(a costly line-up that plays fewer) are multiplied alike, so the line-ups keep the proportions the designer gave
them, a line-up with its own ``games`` grows with the rest (its intervals narrow too), and one factor taken from the
widest interval narrows every interval to about the target at once (each shrinks as 1 / sqrt(factor)). The widest is
usually the line-up with the fewest games; the cheaper line-ups then play more games than their own figures need,
which costs little beside the costly line-up's games.
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
    it is ("v00: seat 0 wins"); ``(nan, "")`` when there is none. The trust check's rows are left out: their games
    are the ``[trust]`` section's, which growing the sweep does not change."""
    from trustme_analysis import results  # the results layer only when asked

    table = results.compute(outdir)["headlines"]
    shares = table[table["unit"].astype(str).str.contains("share") & table["low"].notna() & table["high"].notna()
                   & (table["kind"].astype(str) != "trust")]
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


def grown_spec(spec: Spec, games: int) -> Spec:
    """``spec`` with ``games`` games per variant and every line-up's own ``games`` scaled by the same factor
    (``games / spec.games``), rounded up to whole chunks of ``spec.chunk_size`` and at most ``games``.

    >>> from trustme_analysis.sweep.spec import parse_spec
    >>> spec = parse_spec({"game": "trustme_pinocchio", "games": 200, "chunk_size": 50,
    ...                    "lineups": {"many": {"seats": ["random"]}, "few": {"seats": ["random"], "games": 60}}})
    >>> grown = grown_spec(spec, 400)
    >>> [grown.games_of(v) for v in grown.variants]  # 60 x 2 = 120, in whole chunks of 50
    [400, 150]
    """
    factor = games / spec.games
    lineups = {}
    for name, lineup in spec.lineups.items():
        if lineup.games is not None:
            own = math.ceil(lineup.games * factor / spec.chunk_size) * spec.chunk_size
            lineup = dataclasses.replace(lineup, games=min(max(own, lineup.games), games))
        lineups[name] = lineup
    # Each variant holds its line-up (games_of reads it there), so the variants take the grown line-ups too.
    variants = tuple(dataclasses.replace(v, lineup=lineups.get(v.lineup.name, v.lineup)) for v in spec.variants)
    return dataclasses.replace(spec, games=games, lineups=lineups, variants=variants)


def games_text(spec: Spec) -> str:
    """``"400 games per variant (line-up search: 150)"``: the games of each line-up."""
    return f"{spec.games:,} games per variant{spec.fewer_games_note()}"


def spec_settings(spec: Spec) -> str:
    """``"games = 400, lineups.search.games = 150"``: what to write in the spec for it to ask for the games ``spec``
    plays (a run of the spec file as it was would be refused by the grown folder: a sweep cannot shrink)."""
    own = [f"lineups.{name}.games = {lu.games}" for name, lu in spec.lineups.items() if lu.games is not None]
    return ", ".join([f"games = {spec.games}", *own])


def grow_until(spec: Spec, target: float, run: Callable[[Spec, bool], Any], outdir: str | Path,
               say: Callable[[str], None]) -> tuple[Spec, float]:
    """Run ``spec`` (``run(spec, report)``), then grow it (:func:`grown_spec`: every line-up by one factor) until
    the widest headline share interval is at most ``target``; returns the spec last run (its ``games`` and its
    line-ups' ``games`` are what the folder holds) and that width.

    Raises:
        ValueError: ``target`` is not a share width in (0, 1).
    """
    if not (isinstance(target, (int, float)) and 0.0 < target < 1.0):
        raise ValueError(f"--until-ci {target!r} is not allowed; allowed: the full width of a 95% interval of a "
                         "share, between 0 and 1 (0.02: +-1 percentage point)")
    width = math.nan
    for _ in range(MAX_ROUNDS):
        run(spec, False)
        width, which = widest_share_interval(outdir)
        if math.isnan(width) or width <= target:
            say(f"--until-ci {target}: the widest headline interval is {width:.4f} ({which}) with "
                f"{games_text(spec)}: done; to run this folder again, set {spec_settings(spec)} in the spec")
            break
        grown = grown_spec(spec, games_needed(spec.games, width, target, spec.chunk_size))
        if grown.total_chunks > MAX_CHUNKS:
            say(f"--until-ci {target}: {games_text(grown)} would pass the sweep's limit of {MAX_CHUNKS:,} chunks; "
                f"stopping at {games_text(spec)} (widest interval {width:.4f}, {which}); to run this folder again, set "
                f"{spec_settings(spec)} in the spec")
            break
        say(f"--until-ci {target}: the widest headline interval is {width:.4f} ({which}) with {games_text(spec)}; "
            f"growing every line-up by {grown.games / spec.games:.3g} times, to {games_text(grown)}")
        spec = grown
    else:
        say(f"--until-ci {target}: stopped after {MAX_ROUNDS} rounds at {games_text(spec)}; to run this folder again, "
            f"set {spec_settings(spec)} in the spec")
    return spec, width
