"""Games per chunk when a spec sets no ``chunk_size``: chosen per variant from the measured cost of its games.

A chunk is the unit of work handed to a worker and of storage (one Parquet file, one manifest entry). Each chunk pays
a fixed cost (a task sent to a worker, a file written, its checksum) that a kernel line-up, playing a game in
microseconds, only repays over many thousands of games; a search line-up, taking a second or more a game, wants chunks
of a few games so that an interrupted sweep loses little and the workers share the load. So a spec without
``chunk_size`` gets, for each line-up, engine and player count, the chunk that takes about
:data:`TARGET_CHUNK_SECONDS` of one core, rounded down to a step of :data:`LADDER` (so a slightly different measurement
gives the same size) and at most :data:`MAX_AUTO_CHUNK` games (a worker holds a chunk's records in memory).

The choice is the run's, not the spec's: it is stored in the manifest (``chunk_sizes``) and kept when the sweep
resumes or grows, so a folder's chunks never change size. Which chunk a game falls in changes only its ``chunk``
column: game ``i`` is played from its own seed whatever the chunking (:mod:`.seeding`). A spec's ``chunk_size`` wins.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from trustme_analysis.outdir import DamagedFileError, load_manifest, manifest_path
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.engines import KERNEL, seat_kinds
from trustme_analysis.sweep.play import chunk_task, encoded_chunk
from trustme_analysis.sweep.spec import Spec, Variant

#: One core's seconds a chosen chunk takes to play and encode: long beside a chunk's fixed cost (a few ms), short
#: enough that an interrupted run loses little and the progress line moves.
TARGET_CHUNK_SECONDS = 2.0
#: The chunk sizes a choice is rounded down to.
LADDER = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000)
#: The largest chosen chunk: its records are built in a worker's memory (a kernel chunk: about 2-4 KB a game).
MAX_AUTO_CHUNK = LADDER[-1]
#: Games played to measure a kernel line-up (after its compiled code is loaded), and the seconds spent at most on
#: measuring a pyspiel line-up (at least one game, after one untimed).
KERNEL_SAMPLE_GAMES = 2_000
PYSPIEL_SAMPLE_SECONDS = 0.5


def size_for(seconds_per_game: float) -> int:
    """The chunk size for games of this cost: the largest step of :data:`LADDER` taking at most
    :data:`TARGET_CHUNK_SECONDS` (one game at least)."""
    fits = TARGET_CHUNK_SECONDS / max(seconds_per_game, 1e-9)
    return max([s for s in LADDER if s <= fits] or [1])


def seconds_per_game(spec: Spec, variant: Variant) -> float:
    """One core's seconds to play and encode one game of ``variant`` as the sweep does (its first games: same seeds,
    same bots, same engine), measured on a sample (a kernel's compiled code loaded first)."""
    records = game_entry(spec.game).part("records")
    task = chunk_task(spec, variant, 0, records)
    if variant.engine == KERNEL:
        engines.warm_up(variant.game_string, seat_kinds(variant.lineup, variant.num_players))
        encoded_chunk(dataclasses.replace(task, num_games=min(50, KERNEL_SAMPLE_GAMES)))  # first-call costs
        count = KERNEL_SAMPLE_GAMES
        tick = time.process_time()
        encoded_chunk(dataclasses.replace(task, first_game=0, num_games=count))
        return (time.process_time() - tick) / count
    # The first game pays what a process pays once (the game loaded, a trained policy read): untimed, as a worker
    # pays it once for all its chunks (timed, it doubled a two-player search game's cost).
    encoded_chunk(dataclasses.replace(task, num_games=1))
    count = 0
    tick = time.process_time()
    while True:
        encoded_chunk(dataclasses.replace(task, first_game=1 + count, num_games=1))
        count += 1
        spent = time.process_time() - tick
        if spent >= PYSPIEL_SAMPLE_SECONDS or count >= 20:
            return spent / count


def choose_chunk_sizes(spec: Spec, measure: Callable[[Spec, Variant], float] | None = None
                       ) -> tuple[dict[str, int], dict[str, float]]:
    """The chunk size of every variant (id -> games) and the measured seconds per game each choice came from (by
    line-up, engine and player count, ``"heuristic/kernel/3p"``, see :func:`cost_key`): one variant of each is
    measured, its siblings (the same players on other rules) take its size. Player counts are measured apart: a
    search line-up's game at four players costs about twice its game at two."""
    measure = measure or seconds_per_game
    measured: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for v in spec.variants:
        key = cost_key(v)
        if key not in measured:
            measured[key] = round(measure(spec, v), 9)
        sizes[v.id] = size_for(measured[key])
    return sizes, measured


def cost_key(variant: Variant) -> str:
    """The variants measured together: line-up, engine and player count (``"heuristic/kernel/3p"``)."""
    return f"{variant.lineup.name}/{variant.engine}/{variant.num_players}p"


def predicted_costs(spec: Spec, measured: Mapping[str, float]) -> dict[str, float]:
    """Each variant's predicted seconds of one core per game (variant id -> seconds), for the time left: the cost
    measured for its line-up, engine and player count (``measured``, keyed by :func:`cost_key`), else the cost its
    chosen chunk size stands for (a resumed sweep measures nothing: its sizes were chosen from the costs). A variant
    with neither (a spec's own ``chunk_size``, nothing measured) is left out."""
    out: dict[str, float] = {}
    for v in spec.variants:
        cost = measured.get(cost_key(v))
        if cost is None and spec.chunk_auto and v.id in spec.chunk_sizes:
            cost = _cost_of_size(spec.chunk_sizes[v.id])
        if cost is not None and cost > 0:
            out[v.id] = cost
    return out


def _cost_of_size(size: int) -> float:
    # size_for gives a step of LADDER to every cost between TARGET / (next step) and TARGET / step: take the middle
    # (geometric) of that range; the first and last steps' ranges are open on one side, so their closed bound.
    if size not in LADDER or size in (LADDER[0], LADDER[-1]):
        return TARGET_CHUNK_SECONDS / size
    above = LADDER[LADDER.index(size) + 1]
    return TARGET_CHUNK_SECONDS / (size * above) ** 0.5


def stored_chunking(outdir: str | Path) -> dict[str, Any] | None:
    """The stored manifest's chunking (``chunk_size``, ``chunk_sizes``, fingerprint chunk size), if it has one."""
    if not manifest_path(outdir).is_file():
        return None
    try:
        stored = load_manifest(outdir)
    except DamagedFileError:
        return None  # check_outdir says what is wrong with it
    fingerprint = stored.get("fingerprint") if isinstance(stored.get("fingerprint"), dict) else {}
    return {"chunk_sizes": stored.get("chunk_sizes"), "fingerprint": fingerprint.get("chunk_size")}


def adopt_stored_chunking(spec: Spec, outdir: str | Path) -> Spec:
    """``spec`` with the chunking of the sweep stored in ``outdir`` where the spec sets no ``chunk_size``: the sizes
    chosen by its first run, or, for a folder made before sizes were chosen, the fixed size it was made with (so it
    resumes as it was played). Unchanged when the spec sets ``chunk_size`` or the folder holds no sweep."""
    if not spec.chunk_auto:
        return spec
    stored = stored_chunking(outdir)
    if stored is None:
        return spec
    if isinstance(stored["fingerprint"], int):  # made with one fixed size (the default one, before sizes were chosen)
        return dataclasses.replace(spec, chunk_auto=False, chunk_size=stored["fingerprint"])
    sizes = stored["chunk_sizes"]
    if isinstance(sizes, Mapping):
        kept = {vid: int(n) for vid, n in sizes.items() if isinstance(n, int) and n >= 1
                and any(v.id == vid for v in spec.variants)}
        return dataclasses.replace(spec, chunk_sizes=kept)
    return spec


def resolve_chunking(spec: Spec, say: Callable[[str], None] = lambda text: None,
                     measure: Callable[[Spec, Variant], float] | None = None) -> tuple[Spec, dict[str, float]]:
    """``spec`` with a chunk size for every variant the spec and the stored sweep (:func:`adopt_stored_chunking`)
    leave open, measured now; and the seconds per game measured (empty when nothing was)."""
    if not spec.chunk_auto or all(v.id in spec.chunk_sizes for v in spec.variants):
        return spec, {}
    say("measuring the cost of a game to choose the chunk sizes (the spec sets no chunk_size)")
    open_spec = dataclasses.replace(spec, variants=tuple(v for v in spec.variants if v.id not in spec.chunk_sizes))
    sizes, costs = choose_chunk_sizes(open_spec, measure)
    return dataclasses.replace(spec, chunk_sizes={**spec.chunk_sizes, **sizes}), costs


def chunking_text(spec: Spec) -> str:
    """How the spec's variants are chunked, in words (for ``--check`` and the run's first line)."""
    if not spec.chunk_auto:
        return f"{spec.chunks_per_variant} chunk(s) of up to {spec.chunk_size} games per variant"
    # A variant of fewer games than its chunk size is one chunk of all its games: say that, not the ceiling.
    by_size: dict[tuple[int, bool], list[Variant]] = {}
    unchosen: list[Variant] = []
    for v in spec.variants:
        if v.id not in spec.chunk_sizes:  # --check when a game could not be played to measure it
            unchosen.append(v)
            continue
        size, games = spec.chunk_size_of(v), spec.games_of(v)
        by_size.setdefault((min(size, games), size >= games), []).append(v)
    if not by_size:
        return "chunks chosen when the run starts, from the measured cost of a game (the spec sets no chunk_size)"
    parts = [f"{'one chunk of all' if whole else 'chunks of'} {size:,} game{'' if size == 1 else 's'} "
             f"({_who(spec, group)})" for (size, whole), group in sorted(by_size.items())]
    if unchosen:
        parts.append(f"chosen when the run starts ({_who(spec, unchosen)})")
    return "chunks chosen from the measured cost of a game (the spec sets no chunk_size): " + "; ".join(parts)


def _who(spec: Spec, group: list[Variant]) -> str:
    """A few variants by id; more by their line-ups (a line-up only some of whose variants are in ``group``: how
    many), since a sweep's ids in a size group are rarely a run of consecutive ones."""
    if len(group) <= 4:
        return ", ".join(v.id for v in group)
    names: dict[str, int] = {}
    for v in group:
        names[v.lineup.name] = names.get(v.lineup.name, 0) + 1
    of = {name: sum(v.lineup.name == name for v in spec.variants) for name in names}
    return f"{len(group)} variants: " + ", ".join(name if n == of[name] else f"{n} of {of[name]} {name}"
                                                   for name, n in names.items())
