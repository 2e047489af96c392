"""Playing games with bots and turning a chunk of games into record rows.

Everything here runs inside worker processes (local pool or Dask), so a :class:`ChunkTask` carries all it needs and
pickles small; the game's records function travels by reference (module + name), and unpickling it imports its
module, which (through ``trustme_analysis``) registers the games themselves.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyspiel

import trustme_analysis  # noqa: F401  (Python games register with pyspiel at import; workers need them)
import trustme_analysis.players  # noqa: F401  (registers every game's bots)
from trustme_analysis.players import TrustMeBot, make_bot
from trustme_analysis.players.play import play_game
from trustme_analysis.engine.draws import GameStream
from trustme_analysis.sweep import storage
from trustme_analysis.engine.record_arrays import arrow_type
from trustme_analysis.sweep.engines import KERNEL, PYSPIEL, kernel_player, kernel_reason, seat_kinds
from trustme_analysis.sweep.rescoring import Follower, followers, score_again, sources
from trustme_analysis.sweep.seeding import ChanceStream, game_generators, game_seeds
from trustme_analysis.players.lineup import LineUp, Seat
from trustme_analysis.sweep.spec import Spec, Variant

#: The columns the sweep adds to every record, in this order, before the game's own columns.
COMMON_COLUMNS = (
    "variant",
    "game_string",
    # then one ``param_<name>`` column per fixed or grid parameter of the spec, in spec order
    "lineup",
    "chunk",
    "game_index",
    "game_seed",
    "seat",
    "bot",
    "bot_knobs",
)


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of one variant: everything a worker needs to play it and build its rows."""

    variant_id: str
    variant_index: int
    chunk_index: int
    first_game: int
    num_games: int
    master_seed: int
    game_string: str
    lineup: LineUp
    params: Mapping[str, Any]
    records: Callable[[pyspiel.Game, pyspiel.State], list[dict[str, Any]]]
    #: Games of the chunk already stored (a chunk made when the sweep had fewer games, grown now): the task plays
    #: only the games after them, and the runner appends its rows to the stored ones.
    stored_games: int = 0
    #: Variants whose same chunk is this one's games scored again (:mod:`.rescoring`), recorded by the same task.
    followers: tuple[Follower, ...] = ()
    #: Whether the variant's own chunk is wanted (``False``: it is stored, the task plays it for its followers).
    own: bool = True

    @property
    def variant_ids(self) -> tuple[str, ...]:
        """The variants whose chunk this task records, in order."""
        return ((self.variant_id,) if self.own else ()) + tuple(f.variant_id for f in self.followers)
    #: ``"kernel"``: played by the game's compiled kernel (:mod:`.engines`); ``"pyspiel"``: by Python bots.
    engine: str = PYSPIEL


def chunk_task(spec: Spec, variant: Variant, chunk_index: int,
               records: Callable[..., list[dict[str, Any]]], stored_games: int = 0,
               followers: Sequence[Follower] = (), own: bool = True) -> ChunkTask:
    """The task of one chunk of one variant (its games after the first ``stored_games``, which are stored), and of
    the same chunk of its ``followers``."""
    games = spec.chunk_games(chunk_index, variant)
    return ChunkTask(
        followers=tuple(followers),
        own=own,
        variant_id=variant.id,
        variant_index=variant.index,
        chunk_index=chunk_index,
        first_game=games.start + stored_games,
        num_games=len(games) - stored_games,
        stored_games=stored_games,
        master_seed=spec.seed,
        game_string=variant.game_string,
        lineup=variant.lineup,
        params=dict(variant.params),
        records=records,
        engine=variant.engine,
    )


def iter_chunk_tasks(
    spec: Spec, records: Callable[..., list[dict[str, Any]]], skip: Container[tuple[str, int]] = (),
    stored_games: Mapping[tuple[str, int], int] | None = None, rescore: bool = False,
) -> Iterator[ChunkTask]:
    """Every chunk of the sweep not in ``skip`` (variant id, chunk index), variant by variant, in chunk order;
    ``stored_games`` gives the games already stored of chunks to grow (see :attr:`ChunkTask.stored_games`).

    With ``rescore``, a variant whose games are another's scored again (:func:`.rescoring.sources`) is recorded by
    that variant's task of the same chunk, unless the two chunks stand differently (grown from different numbers of
    stored games): then it is played itself, which gives the same records.

    Made one at a time as the runner asks for them: a sweep of very many chunks never holds them all.
    """
    stored_games = stored_games or {}
    source_of = sources(spec) if rescore else {}
    following = followers(spec) if rescore else {}
    for variant in spec.variants:
        for c in range(spec.chunks_of(variant)):
            key = (variant.id, c)
            have = stored_games.get(key, 0)
            source = source_of.get(variant.id)
            if source is not None and stored_games.get((source, c), 0) == have:
                continue  # recorded by its source's task
            joined = [f for f in following.get(variant.id, ()) if (f.variant_id, c) not in skip
                      and stored_games.get((f.variant_id, c), 0) == have]
            if key not in skip or joined:
                yield chunk_task(spec, variant, c, records, have if key not in skip else 0, joined,
                                 own=key not in skip)


def chunk_tasks(spec: Spec, records: Callable[..., list[dict[str, Any]]]) -> list[ChunkTask]:
    """Every chunk of the sweep, variant by variant, in chunk order, each variant's played by its own task (as a
    list; see :func:`iter_chunk_tasks`)."""
    return list(iter_chunk_tasks(spec, records))


@functools.lru_cache(maxsize=64)
def cached_game(game_string: str) -> pyspiel.Game:
    """``pyspiel.load_game`` once per game string per process."""
    return pyspiel.load_game(game_string)


def seat_bots(
    game: pyspiel.Game, lineup: LineUp, game_rng: np.random.Generator, bot_rngs: Sequence[np.random.Generator]
) -> tuple[list[Seat], list[TrustMeBot]]:
    """The bots of one game: fixed seats, or each seat drawn from the pool with the game's generator."""
    n = game.num_players()
    if lineup.pool is not None:
        picks = game_rng.choice(len(lineup.pool), size=n, p=lineup.pool_probabilities())
        seats = [lineup.pool[int(i)] for i in picks]
    else:
        seats = list(lineup.seats_for(n))
    bots = [make_bot(game, s.bot, p, bot_rngs[p], **s.knobs) for p, s in enumerate(seats)]
    return seats, bots


def follows_protocol(game_string: str, lineup: LineUp) -> bool:
    """Whether games of this variant and line-up draw by the draw protocol from one
    :class:`~trustme_analysis.engine.draws.GameStream` (the line-up is one the game's kernel plays, so both engine
    paths give the same records; :mod:`.seeding`)."""
    return kernel_reason(game_string, lineup) is None


def game_randomness(
    protocol: bool, game_seed: int, num_players: int,
) -> tuple[np.random.Generator | GameStream, list[np.random.Generator | GameStream]]:
    """The chance stream of one game and the generator of each seat (:mod:`.seeding`): one ``GameStream`` for all of
    them where the line-up follows the draw protocol (:func:`follows_protocol`), else the game's and the seats' numpy
    generators."""
    if protocol:
        stream = GameStream(game_seed)
        return stream, [stream] * num_players
    return game_generators(game_seed, num_players)


def replay_game(game_string: str, lineup: LineUp, game_seed: int, engine: str = PYSPIEL) -> pyspiel.State:
    """Play again the game stored with ``game_seed`` (same seats, same chance, same bot choices) as a pyspiel state.

    ``engine`` is the one that played it (the variant's ``engine``): a kernel's game is replayed from the kernel's
    action sequence through the engine.
    """
    game = cached_game(game_string)
    if engine == KERNEL:
        state = game.new_initial_state()
        for action in kernel_player(game_string, seat_kinds(lineup, game.num_players())).history(game_seed):
            state.apply_action(action)
        return state
    game_rng, bot_rngs = game_randomness(follows_protocol(game_string, lineup), game_seed, game.num_players())
    _, bots = seat_bots(game, lineup, game_rng, bot_rngs)
    return play_game(game, bots, game_rng)


def _knobs_json(seat: Seat, bot: TrustMeBot) -> str:
    # The bot's own report of its settings includes defaults the spec left out; the spec's knobs fill in for bots
    # that do not report them.
    knobs = {**dict(seat.knobs), **bot.knobs()}
    return json.dumps(knobs, sort_keys=True)


def _kernel_frame(task: ChunkTask, game: pyspiel.Game, seeds: Sequence[int]) -> pd.DataFrame:
    """The chunk's records played by the game's kernel (the whole chunk in one compiled call), built column by column
    into the frame :func:`run_chunk` builds row by row on the pyspiel path (the same columns, values and types)."""
    n = game.num_players()
    seats = list(task.lineup.seats_for(n))
    rng = np.random.default_rng(0)  # never drawn from: the bots are made only for the bot_knobs column
    bots = [make_bot(game, s.bot, p, rng, **s.knobs) for p, s in enumerate(seats)]
    own = kernel_player(task.game_string, seat_kinds(task.lineup, n)).columns(seeds)
    rows = len(seeds) * n
    data: dict[str, list[Any]] = {
        "variant": [task.variant_id] * rows,
        "game_string": [task.game_string] * rows,
        **{f"param_{k}": [v] * rows for k, v in task.params.items()},
        "lineup": [task.lineup.name] * rows,
        "chunk": [task.chunk_index] * rows,
        "game_index": [task.first_game + g for g in range(len(seeds)) for _ in range(n)],
        "game_seed": [seed for seed in seeds for _ in range(n)],
        "seat": list(range(n)) * len(seeds),
        "bot": [s.bot for s in seats] * len(seeds),
        "bot_knobs": [_knobs_json(s, b) for s, b in zip(seats, bots)] * len(seeds),
    }
    clash = data.keys() & own.keys()
    if clash:
        raise ValueError(f"records columns {sorted(clash)} clash with the sweep's common columns")
    data.update(own)
    return pd.DataFrame(data)


def _kernel_table(task: ChunkTask, game: pyspiel.Game, seeds: Sequence[int]) -> pa.Table:
    """The chunk's records played by the game's kernel as one Arrow table: the columns, values and types of
    :func:`_kernel_frame`'s frame (so its Parquet file is byte for byte the one the frame gives), built from the
    kernel's arrays with no Python object per game or seat."""
    n = game.num_players()
    seats = list(task.lineup.seats_for(n))
    rng = np.random.default_rng(0)  # never drawn from: the bots are made only for the bot_knobs column
    bots = [make_bot(game, s.bot, p, rng, **s.knobs) for p, s in enumerate(seats)]
    own = kernel_player(task.game_string, seat_kinds(task.lineup, n)).arrays(seeds)
    games = len(seeds)
    rows = games * n
    seat_index = pa.array(np.tile(np.arange(n, dtype=np.int64), games))

    def constant(value: Any) -> pa.Array:
        return pa.repeat(pa.scalar(value, type=arrow_type([value])), rows)

    data: dict[str, pa.Array] = {
        "variant": constant(task.variant_id),
        "game_string": constant(task.game_string),
        **{f"param_{k}": constant(v) for k, v in task.params.items()},
        "lineup": constant(task.lineup.name),
        "chunk": constant(task.chunk_index),
        "game_index": pa.array(np.repeat(np.arange(task.first_game, task.first_game + games, dtype=np.int64), n)),
        "game_seed": pa.array(np.repeat(np.asarray(seeds, dtype=np.int64), n)),
        "seat": seat_index,
        "bot": pa.array([s.bot for s in seats], type=pa.large_string()).take(seat_index),
        "bot_knobs": pa.array([_knobs_json(s, b) for s, b in zip(seats, bots)], type=pa.large_string()).take(
            seat_index),
    }
    clash = data.keys() & own.keys()
    if clash:
        raise ValueError(f"records columns {sorted(clash)} clash with the sweep's common columns")
    data.update(own)
    return storage.with_pandas_schema(pa.table(data))


def kernel_tables(task: ChunkTask) -> dict[str, pa.Table]:
    """The records of every variant a kernel task records (:attr:`ChunkTask.variant_ids`) as Arrow tables: what
    :func:`run_chunk_all` gives as frames, the same values and the same stored bytes, at the kernel's pace."""
    if task.engine != KERNEL:
        raise ValueError(f"variant {task.variant_id} is played on the {task.engine} path, not by a kernel")
    seeds = game_seeds(task.master_seed, task.first_game, task.num_games)
    targets = [(task.variant_id, task.game_string, task.params)] if task.own else []
    targets += [(f.variant_id, f.game_string, f.params) for f in task.followers]
    return {vid: _kernel_table(dataclasses.replace(task, variant_id=vid, game_string=game_string, params=params),
                               cached_game(game_string), seeds)
            for vid, game_string, params in targets}


def encoded_chunk(task: ChunkTask) -> dict[str, bytes]:
    """Play one chunk and return the Parquet bytes of every variant it records (:attr:`ChunkTask.variant_ids`): a
    kernel's chunk through Arrow tables (:func:`kernel_tables`), a pyspiel chunk through its frames."""
    if task.engine == KERNEL:
        return {vid: storage.encode_chunk(table) for vid, table in kernel_tables(task).items()}
    return {vid: storage.encode_chunk(frame) for vid, frame in run_chunk_all(task).items()}


def run_chunk(task: ChunkTask) -> pd.DataFrame:
    """Play the games of one chunk and return their records: one row per game and seat (the variant's own rows;
    :func:`run_chunk_all` gives its followers' too)."""
    return run_chunk_all(dataclasses.replace(task, own=True))[task.variant_id]


def run_chunk_all(task: ChunkTask) -> dict[str, pd.DataFrame]:
    """Play the games of one chunk, score each again for every follower, and return the records of every variant
    the task records (:attr:`ChunkTask.variant_ids`), each one row per game and seat."""
    game = cached_game(task.game_string)
    n = game.num_players()
    targets = [(task.variant_id, task.game_string, task.params)] if task.own else []
    targets += [(f.variant_id, f.game_string, f.params) for f in task.followers]
    rows: dict[str, list[dict[str, Any]]] = {vid: [] for vid, _, _ in targets}
    game_name = game.get_type().short_name
    # Game i's seed is the same in every variant (common random numbers; see .seeding).
    seeds = game_seeds(task.master_seed, task.first_game, task.num_games)
    if task.engine == KERNEL:
        # The kernel plays each variant's games itself from the same seeds (a follower's games are played again
        # rather than scored again: the kernel keeps no finished states, and a chunk costs it milliseconds).
        return {vid: _kernel_frame(dataclasses.replace(task, variant_id=vid, game_string=game_string, params=params),
                                   cached_game(game_string), seeds)
                for vid, game_string, params in targets}
    protocol = follows_protocol(task.game_string, task.lineup)
    for offset, seed in enumerate(seeds):
        game_rng, bot_rngs = game_randomness(protocol, seed, n)
        seats, bots = seat_bots(game, task.lineup, game_rng, bot_rngs)
        # A GameStream remembers its own draws; a numpy generator is wrapped to (the followers' scoring rewinds it).
        stream = ChanceStream(game_rng) if task.followers and not isinstance(game_rng, GameStream) else game_rng
        final = play_game(game, bots, stream)
        for vid, game_string, params in targets:
            if vid == task.variant_id:
                target, state = game, final
            else:
                target = cached_game(game_string)
                state = score_again(game_name, target, final, stream)
            game_rows = task.records(target, state)
            if len(game_rows) != n:
                raise ValueError(
                    f"{task.records.__module__}.{task.records.__qualname__} returned {len(game_rows)} rows for a "
                    f"{n}-player game; it must return one row per seat"
                )
            param_columns = {f"param_{k}": v for k, v in params.items()}
            for seat, own in enumerate(game_rows):
                row: dict[str, Any] = {
                    "variant": vid,
                    "game_string": game_string,
                    **param_columns,
                    "lineup": task.lineup.name,
                    "chunk": task.chunk_index,
                    "game_index": task.first_game + offset,
                    "game_seed": seed,
                    "seat": seat,
                    "bot": seats[seat].bot,
                    "bot_knobs": _knobs_json(seats[seat], bots[seat]),
                }
                clash = row.keys() & own.keys()
                if clash:
                    raise ValueError(f"records columns {sorted(clash)} clash with the sweep's common columns")
                row.update(own)
                rows[vid].append(row)
    return {vid: pd.DataFrame(r) for vid, r in rows.items()}
