"""How much work a sweep is: games, chunks, and estimated playing time and disk, from a few games played in memory.

``--check`` prints this before anything runs. The estimate plays the first games of a few variants exactly as the
sweep would (same seeds, same bots) and encodes their records as the chunks would be, writing nothing; it is rough
(a handful of games, or a few thousand for a kernel's line-up, in one process), so it is printed as "about".
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

from trustme_analysis.registry import game_entry
from trustme_analysis.sweep.chunking import KERNEL_SAMPLE_GAMES
from trustme_analysis.sweep.engines import KERNEL
from trustme_analysis.sweep.play import ChunkTask, chunk_task, encoded_chunk
from trustme_analysis.sweep.rescoring import sources
from trustme_analysis.sweep.spec import Spec

#: Seconds of sample play spent on the estimate (spread over up to :data:`SAMPLE_VARIANTS` variants).
SAMPLE_SECONDS = 1.5
SAMPLE_VARIANTS = 6
#: Games of a variant played for the estimate at most.
SAMPLE_GAMES = 20


@dataclass(frozen=True)
class Estimate:
    """Estimated cost of a whole sweep."""

    games: int
    chunks: int
    workers: int
    sampled_games: int
    seconds_per_game: float
    #: Seconds of play for the whole sweep on ``workers`` processes.
    seconds: float
    #: Bytes of records on disk for the whole sweep.
    disk_bytes: float


def estimate_work(spec: Spec, workers: int | None = None) -> Estimate:
    """Play a few games of a few variants in memory and scale their time and record size to the whole sweep.

    Raises:
        Exception: whatever playing a sample game raises (the caller reports it as "not estimated").
    """
    workers = max(1, min(workers or os.cpu_count() or 1, os.cpu_count() or 1))
    records = game_entry(spec.game).part("records")
    step = max(1, len(spec.variants) // SAMPLE_VARIANTS)
    sample = list(spec.variants[::step][:SAMPLE_VARIANTS])
    # Every line-up is sampled: players differ in cost far more than rule variants do (a search line-up).
    sample += [next(v for v in spec.variants if v.lineup.name == name) for name in spec.lineups
               if all(v.lineup.name != name for v in sample)]
    budget = SAMPLE_SECONDS / len(sample)
    seconds = 0.0
    played = 0
    lineup_time: dict[str, list[float]] = {}
    per_game_bytes: list[float] = []
    per_file_bytes: list[float] = []
    single: list[float] = []
    for variant in sample:
        # One game first (it also pays the game's loading), then as many as the budget allows.
        one = replace(chunk_task(spec, variant, 0, records), num_games=1)
        size_one = _encoded_size(one)
        tick = time.perf_counter()
        _encoded_size(one)
        first = time.perf_counter() - tick
        if variant.engine == KERNEL:
            # A kernel plays a game in microseconds and pays a fixed cost per chunk (its records' table and file):
            # a sample of a few games would pass that cost for the games' and overstate the sweep a hundredfold.
            count = min(KERNEL_SAMPLE_GAMES, len(spec.chunk_games(0, variant)))
        else:
            count = int(max(1, min(SAMPLE_GAMES, len(spec.chunk_games(0, variant)), budget / max(first, 1e-6))))
        task = replace(one, num_games=count)
        tick = time.perf_counter()
        size = _encoded_size(task)
        took = time.perf_counter() - tick
        seconds += took
        played += count
        spent = lineup_time.setdefault(variant.lineup.name, [0.0, 0.0])
        spent[0] += took
        spent[1] += count
        # A Parquet file has a fixed part (schema, footer) and a part per game.
        # A one-game sample cannot split its file into the fixed part and the game's: it counts only when no
        # variant sampled more (else its whole file, mostly schema and footer, would pass for one game's bytes).
        if count > 1:
            per_game_bytes.append((size - size_one) / (count - 1))
            per_file_bytes.append(size_one - per_game_bytes[-1])
        else:
            single.append(size_one)
    seconds_per_game = seconds / played
    rescored = sources(spec)
    chunks = spec.total_chunks
    if not per_game_bytes:
        per_game_bytes, per_file_bytes = single, [0.0]
    disk = spec.total_games * max(sum(per_game_bytes) / len(per_game_bytes), 1.0) + chunks * max(
        sum(per_file_bytes) / len(per_file_bytes), 0.0)
    return Estimate(
        games=spec.total_games,
        chunks=chunks,
        workers=workers,
        sampled_games=played,
        seconds_per_game=seconds_per_game,
        # Variants scored again from another's games (sweep/rescoring.py) are not played: their time is left out.
        seconds=sum(spec.games_of(v) * lineup_time[v.lineup.name][0] / lineup_time[v.lineup.name][1]
                    for v in spec.variants if v.id not in rescored) / workers,
        disk_bytes=disk,
    )


def _encoded_size(task: ChunkTask) -> int:
    """Bytes of the chunk file of ``task``'s own variant, played and encoded as the sweep does."""
    return len(encoded_chunk(replace(task, own=True, followers=()))[task.variant_id])


def duration_text(seconds: float) -> str:
    """``"under a second"``, ``"45 s"``, ``"12 min"``, ``"3.5 h"``, ``"41 days"``, ``"3,170 years"``."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    if seconds < 730 * 86400:
        return f"{seconds / 86400:,.0f} days"
    return f"{seconds / (365.25 * 86400):,.0f} years"


def size_text(size: float) -> str:
    """``"850 KB"``, ``"12 MB"``, ``"3.4 GB"``, ``"1.2 TB"`` (powers of 1000)."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if size >= scale:
            return f"{size / scale:.2g} {unit}" if size < 10 * scale else f"{size / scale:,.0f} {unit}"
    return f"{size:.0f} bytes"
