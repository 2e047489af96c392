"""Computing a sweep's results set from its stored records: the generic tables every game gets, then the game's own
(its registry entry's ``statistics`` part), then the comparisons with the baseline and the headline findings.

Every statistic of a report is computed here, once; the report only draws. The order of the computations is fixed,
and the only randomness (bootstrap intervals) comes from one generator seeded by the sweep's seed, so the same
records always give the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyspiel

from trustme_analysis.outdir import RECORDS, load_manifest, stored_chunk_files, verify_chunks
from trustme_analysis.players import make_bot
from trustme_analysis.registry import find_game
from trustme_analysis.results.checks import ALPHA, load_index, skill_tables, trust_tables
from trustme_analysis.results.source import ChunkSource
from trustme_analysis.results.table import LazyTable, PieceStore, ResultSet, Table
from trustme_analysis.stats.balance import (
    equal_seats_test,
    games_table,
    ludii_metrics,
    merge_seat_tallies,
    seat_tallies,
    seat_win_rates,
)
from trustme_analysis.results.comparisons import (
    RULES,
    comparison_pairs,
    factor_comparisons,
    headline_rows,
    lineup_table,
    moment_value,
    stability,
)
from trustme_analysis.stats.compare import GameMetric
from trustme_analysis.stats.streaming import GameRows

#: Compared with the baseline when the game's statistics set no metrics of their own.
DEFAULT_METRICS = (
    GameMetric("first seat wins", "seat0_win", "rate", "share of games"),
    GameMetric("best score shared (tie-break)", "top_shared", "rate", "share of games"),
    GameMetric("turns per game", "turns", "mean", "turns"),
    GameMetric("lead changes", "lead_changes", "mean", "changes per game"),
)

#: Significant changes versus the baseline listed among the headline findings.
HEADLINE_CHANGES = 6


class Builder:
    """What a game's ``statistics`` part sees while a results set is computed.

    Attributes:
        manifest: the sweep's manifest.
        rng: the only randomness (bootstrap intervals), seeded from the sweep's seed.
        results: the results set being filled.

    Build it from a records frame (``Builder(manifest, records, rng)``) or from the chunk files of a sweep folder
    (``Builder(manifest, None, rng, source=ChunkSource(outdir))``); both give the same tables. :attr:`games` is the
    generic per-game table.
    """

    def __init__(self, manifest: dict[str, Any], records: pd.DataFrame | None, rng: np.random.Generator,
                 source: ChunkSource | None = None):
        if records is None and source is None:
            raise ValueError("Builder needs the records or a ChunkSource to read them from")
        self.manifest = manifest
        self.rng = rng
        self._records = records
        self._source = source
        self._games_at: dict[str, tuple[int, int]] | None = None
        self._games: pd.DataFrame | None = None
        #: The generic per-game table on disk, a chunk's games a piece (built from chunk files), else ``None``.
        self.game_pieces: PieceStore | None = None
        if records is not None:
            self._games = games_table(records)
            #: What the seat tables read: games and wins per variant and seat (:func:`seat_tallies`), summed over the
            #: chunks when built from them (exact integer counts), so no per-seat rows stay in memory.
            self.seat_tallies = seat_tallies(records)
        else:
            assert source is not None
            self.game_pieces, self.seat_tallies = _generic_rows(source)
        self.results = ResultSet(manifest=manifest)
        self._comparison_games: pd.DataFrame | Table | None = None
        self._comparison_rows: GameRows | None = None
        self.comparison_metrics: tuple[GameMetric, ...] = DEFAULT_METRICS

    @property
    def games(self) -> pd.DataFrame:
        """The generic per-game table (:func:`trustme_analysis.stats.balance.games_table`), one row per game of every
        variant. Built from chunk files, it is kept on disk (:attr:`game_pieces`) and read whole only here, on first
        use: the generic tables read it a variant and a chunk at a time (:meth:`games_of`, :attr:`comparison_rows`),
        so memory does not grow with the sweep unless a game's statistics ask for all of it."""
        if self._games is None:
            assert self.game_pieces is not None
            self._games = self.game_pieces.frame()
        return self._games

    @property
    def games_on_disk(self) -> bool:
        """Whether the generic per-game table is on disk only (built from chunk files, never read whole)."""
        return self.game_pieces is not None and self._games is None

    def games_count(self) -> dict[str, int]:
        """Games per variant with games, in :attr:`variant_ids` order."""
        if self.games_on_disk:
            return {vid: self.game_pieces.rows_of(vid) for vid in self.game_pieces.variant_ids}
        return {str(k): int(v) for k, v in self.games.groupby("variant").size().items()}

    def _first_game(self, variant_id: str) -> pd.Series:
        if self.games_on_disk:
            return self.game_pieces.first_rows[variant_id].iloc[0]
        return self.games.loc[self.games["variant"] == variant_id].iloc[0]

    @property
    def comparison_games(self) -> pd.DataFrame:
        """One row per game with a ``variant`` (and ``game_index``) column and the columns of
        :attr:`comparison_metrics`: what the variants are compared on (the generic per-game table with ``seat0_win``
        unless the game's statistics set their own, :meth:`set_comparisons`). The generic tables read
        :attr:`comparison_rows` instead (a piece at a time); this frame is made whole only when asked for."""
        if self._comparison_games is None:
            self._comparison_games = _default_comparison_games(self.games)
        games = self._comparison_games
        return games.frame if isinstance(games, Table) else games

    @comparison_games.setter
    def comparison_games(self, games: pd.DataFrame | Table) -> None:
        self._comparison_games = games
        self._comparison_rows = None

    @property
    def comparison_rows(self) -> GameRows:
        """:attr:`comparison_games` read a variant and a piece at a time, with the moments of its columns and of
        the pairs' differences cached (:class:`~trustme_analysis.stats.streaming.GameRows`): what the comparisons,
        the line-up table, the stability table and the headlines are computed from. From chunk files and without a
        game's own table, it reads the generic per-game table's pieces on disk; a game's own table set as a frame
        is read from that frame; set as a table of pieces (:meth:`add_pieces`), from its pieces."""
        if self._comparison_rows is None:
            games = self._comparison_games
            if games is None and self.games_on_disk:
                self._comparison_rows = _piece_rows(self.game_pieces, _default_comparison_games)
            elif isinstance(games, LazyTable) and isinstance(games.keep, PieceStore) and games.loaded is None:
                self._comparison_rows = _piece_rows(games.keep)
            else:
                self._comparison_rows = GameRows.from_frame(self.comparison_games)
        return self._comparison_rows

    @property
    def streaming(self) -> bool:
        """Whether the records are read from chunk files (one chunk at a time) rather than held as one frame."""
        return self._records is None and self._source is not None

    def chunks(self, variant_id: str, columns: Sequence[str] | None = None) -> Iterator[pd.DataFrame]:
        """One variant's records (only ``columns`` present) one chunk at a time, in game order; from a records frame,
        the variant's records as one piece. A game's rows are all in one chunk."""
        cols = self._present(columns)
        if not self.streaming:
            yield self.variant_records(variant_id, cols)
            return
        assert self._source is not None
        yield from self._source.iter_chunks(variant_id, cols)

    def fold_variants(self, partial: Callable[[pd.DataFrame], Any], finish: Callable[[str, list[Any]], pd.DataFrame],
                      columns: Sequence[str] | None = None, variants: Sequence[str] | None = None) -> pd.DataFrame:
        """A table computed from per-chunk partial aggregates, a variant at a time: for each variant (in
        ``variants`` order, default :attr:`variant_ids`), ``finish(variant, [partial(chunk), ...])`` over its chunks
        (only ``columns``), the variants' rows joined in order.

        ``partial`` keeps what the table needs of a chunk (integer tallies, per-game sums as compact arrays), so
        only one chunk's records are in memory at a time; ``finish`` computes the rows (bootstrap draws in variant
        order, as :meth:`per_variant` gives them). With exact pieces the table is the one from all records at once.
        """
        pieces = []
        for vid in variants if variants is not None else self.variant_ids:
            pieces.append(finish(vid, [partial(chunk) for chunk in self.chunks(vid, columns)]))
        filled = [p for p in pieces if len(p)]
        if not filled:
            return pieces[0] if pieces else pd.DataFrame()
        return pd.concat(filled, ignore_index=True) if len(filled) > 1 else filled[0].reset_index(drop=True)

    def accumulate_variants(self, start: Callable[[str, int], Any], columns: Sequence[str] | None = None,
                            variants: Sequence[str] | None = None) -> pd.DataFrame:
        """A table accumulated a chunk at a time, a variant at a time: for each variant (in ``variants`` order,
        default :attr:`variant_ids`), ``acc = start(variant, games)`` (``games``: the variant's number of games),
        ``acc.add(chunk)`` for each of its chunks (only ``columns``), then ``acc.rows()``; the variants' rows joined.

        Unlike :meth:`fold_variants`, no list of per-chunk pieces is kept: what a chunk gives is merged into the
        accumulator at once (counts, moments, block sums of :mod:`trustme_analysis.stats.streaming`), so memory
        stays bounded however many games a variant has.
        """
        counts = self.games_count()
        pieces = []
        for vid in variants if variants is not None else self.variant_ids:
            acc = start(vid, counts.get(vid, 0))
            for chunk in self.chunks(vid, columns):
                acc.add(chunk)
            pieces.append(acc.rows())
        filled = [p for p in pieces if len(p)]
        if not filled:
            return pieces[0] if pieces else pd.DataFrame()
        return pd.concat(filled, ignore_index=True) if len(filled) > 1 else filled[0].reset_index(drop=True)

    def accumulate_tables(self, starts: Mapping[str, Callable[[str, int], Any]], columns: Sequence[str] | None = None,
                          variants: Sequence[str] | None = None) -> dict[str, pd.DataFrame]:
        """Several tables accumulated in one pass over the chunks (:meth:`accumulate_variants` for each name of
        ``starts``, reading every chunk once instead of once per table); returns ``{name: table}``.

        Each variant's rows are made right after its chunks, table by table in ``starts`` order, so bootstrap draws
        come variant by variant, not table by table as separate :meth:`accumulate_variants` calls draw them: for
        tables that draw nothing (counts, moments), whose figures are then the same either way.
        """
        counts = self.games_count()
        pieces: dict[str, list[pd.DataFrame]] = {name: [] for name in starts}
        for vid in variants if variants is not None else self.variant_ids:
            accs = {name: start(vid, counts.get(vid, 0)) for name, start in starts.items()}
            for chunk in self.chunks(vid, columns):
                for acc in accs.values():
                    acc.add(chunk)
            for name, acc in accs.items():
                pieces[name].append(acc.rows())
        return {name: _joined(parts) for name, parts in pieces.items()}

    def games_of(self, variant_id: str, game_indices: np.ndarray | None = None) -> pd.DataFrame:
        """The rows of :attr:`games` of one variant (only those of ``game_indices``' range when given: a chunk's).
        Built from chunk files, only the pieces of that range are read (from disk)."""
        if self.games_on_disk:
            lo = int(np.min(game_indices)) if game_indices is not None and len(game_indices) else None
            hi = int(np.max(game_indices)) if game_indices is not None and len(game_indices) else None
            parts = list(self.game_pieces.read(variant_id, first=lo, last=hi))
            if not parts:
                return self.game_pieces.frame().iloc[0:0]
            rows = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
            if lo is not None:
                index = rows["game_index"].to_numpy()
                rows = rows.iloc[int(np.searchsorted(index, lo, side="left")):
                                 int(np.searchsorted(index, hi, side="right"))]
            return rows
        if self._games_at is None:
            variant = self.games["variant"].to_numpy()
            change = np.flatnonzero(variant[1:] != variant[:-1]) + 1
            starts = np.concatenate([[0], change])
            ends = np.concatenate([change, [len(variant)]])
            self._games_at = {variant[a]: (int(a), int(b)) for a, b in zip(starts, ends)} if len(variant) else {}
        a, b = self._games_at.get(variant_id, (0, 0))
        rows = self.games.iloc[a:b]
        if game_indices is not None and len(game_indices):
            index = rows["game_index"].to_numpy()
            lo = int(np.searchsorted(index, np.min(game_indices), side="left"))
            hi = int(np.searchsorted(index, np.max(game_indices), side="right"))
            rows = rows.iloc[lo:hi]
        return rows

    def add_pieces(self, name: str, pieces: Iterable[pd.DataFrame], title: str, definition: str,
                   interval: str = "", units: Mapping[str, str] | None = None) -> Table:
        """Add a table given in pieces (a per-game table, chunk by chunk). Reading chunk files, the pieces go to a
        temporary folder as they come (:class:`~trustme_analysis.results.table.PieceStore`) and the table is read
        back only when asked for (the store writes it piece by piece), so a per-game table of a million games is
        never in memory; from a records frame, they are joined. The table returned can be handed to
        :meth:`set_comparisons`, which then reads it a piece at a time."""
        if not self.streaming:
            parts = [p for p in pieces]
            frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else (parts[0] if parts else pd.DataFrame())
            return self.results.add(Table(name, frame, title, definition, interval, dict(units or {})))
        store = PieceStore(name)
        for piece in pieces:
            store.add(piece)
        return self.results.add(store.table(name, title, definition, interval, units))

    @property
    def seat_rows(self) -> pd.DataFrame:
        """One row per game and seat (variant, seat, win at least): the records, or those columns of every chunk
        (read on use; the seat tables themselves use :attr:`seat_tallies`)."""
        if self._records is not None or self._source is None:
            return self.records
        return pd.concat([self._source.read_variant(vid, SEAT_COLUMNS) for vid in self._source.variant_ids],
                         ignore_index=True)

    def fold(self, partial: Callable[[pd.DataFrame], pd.DataFrame], merge: Callable[[list[pd.DataFrame]], Any],
             columns: Sequence[str] | None = None) -> Any:
        """A statistic from per-chunk partial aggregates: ``partial`` on each chunk's records (only ``columns``), in
        variant then chunk order, and ``merge`` of the list of pieces. With exact pieces (counts, integer sums,
        tallies) the result is the one ``partial`` on all records gives, while one chunk is in memory at a time
        (from a records frame, it is ``partial`` per variant).
        """
        pieces: list[pd.DataFrame] = []
        if self._records is not None or self._source is None:
            for vid in self.variant_ids:
                pieces.append(partial(self.variant_records(vid, self._present(columns))))
        else:
            for vid in self._source.variant_ids:
                for chunk in self._source.iter_chunks(vid, self._present(columns)):
                    pieces.append(partial(chunk))
        return merge(pieces)

    @property
    def records(self) -> pd.DataFrame:
        """Every stored record, one row per game and seat: read from the chunk files on first use when built from
        them, so a statistic that needs one variant at a time should use :meth:`per_variant` or
        :meth:`variant_records` instead (every record at once is what makes memory grow with the sweep)."""
        if self._records is None:
            assert self._source is not None
            self._records = self._source.read_all()
        return self._records

    def variant_records(self, variant_id: str, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One variant's records, only ``columns`` when given: what a statistic that loops over the variants needs,
        without every record in memory at once."""
        if self._records is not None or self._source is None:
            frame = self.records[self.records["variant"] == variant_id].reset_index(drop=True)
            return frame[list(columns)] if columns is not None else frame
        return self._source.read_variant(variant_id, columns)

    def per_variant(self, table: Callable[[pd.DataFrame], pd.DataFrame], columns: Sequence[str] | None = None,
                    variants: Sequence[str] | None = None) -> pd.DataFrame:
        """``table`` computed on one variant's records at a time (only ``columns``), the pieces joined in order.

        For a statistic written over all records that handles the variants one after the other (``for variant in
        sorted(records["variant"].unique())``), this gives the same table, bootstrap draws included (they come in
        the same order), while only one variant's columns are in memory. ``variants`` sets the order of the pieces
        (default: :attr:`variant_ids`).
        """
        pieces = []
        for vid in variants if variants is not None else self.variant_ids:
            pieces.append(table(self.variant_records(vid, self._present(columns))))
        filled = [p for p in pieces if len(p)]
        if not filled:  # keep the columns of an empty table
            return pieces[0] if pieces else pd.DataFrame()
        return pd.concat(filled, ignore_index=True) if len(filled) > 1 else filled[0].reset_index(drop=True)

    def _present(self, columns: Sequence[str] | None) -> list[str] | None:
        # Records of older runs may lack a column added later; the statistics fill those in themselves.
        if columns is None:
            return None
        have = self._source.columns if self._records is None and self._source is not None else self.records.columns
        return [c for c in have if c in set(columns)]

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with records, in order."""
        if self.games_on_disk:
            return self.game_pieces.variant_ids
        return sorted(self.games["variant"].unique())

    @property
    def baseline(self) -> str:
        """The baseline variant id (the manifest's, else the first variant)."""
        base = self.manifest.get("baseline")
        return base if base in self.variant_ids else self.variant_ids[0]

    def add(self, name: str, frame: pd.DataFrame, title: str, definition: str, interval: str = "",
            units: Mapping[str, str] | None = None) -> pd.DataFrame:
        """Add a table to the results set; returns ``frame`` (so a computation can go on from it)."""
        self.results.add(Table(name, frame, title, definition, interval, dict(units or {})))
        return frame

    def set_comparisons(self, games: pd.DataFrame | Table, metrics: Sequence[GameMetric]) -> None:
        """Compare the variants with the baseline on the game's own per-game table and metrics: a frame, or a table
        of pieces (what :meth:`add_pieces` returns), which is then read a piece at a time and never whole."""
        self.comparison_games = games
        self.comparison_metrics = tuple(metrics)


#: The record columns the tables every game gets read (:func:`games_table` uses those present).
GAME_TABLE_COLUMNS = ("variant", "game_index", "seat", "win", "turns", "completed", "top_shared", "score_trace")
SEAT_COLUMNS = ("variant", "seat", "win")


def _generic_rows(source: ChunkSource) -> tuple[PieceStore, pd.DataFrame]:
    """The per-game table, on disk a chunk's games a piece, and the seat tallies (:func:`seat_tallies`), one chunk
    at a time: a game's rows are all in one chunk, chunks hold consecutive games, and :func:`games_table` orders by
    variant and game, so the pieces join into the same table as from all records at once; the tallies are counts,
    summed exactly; a chunk's records (score traces, seat rows) are dropped before the next is read, and its
    per-game rows are written out (none stay in memory)."""
    store, seats = PieceStore("games"), []
    columns = source.present(GAME_TABLE_COLUMNS)
    for vid in source.variant_ids:
        for frame in source.iter_chunks(vid, columns):
            store.add(games_table(frame))
            seats.append(seat_tallies(frame))
    return store, merge_seat_tallies(seats)


def _joined(pieces: list[pd.DataFrame]) -> pd.DataFrame:
    """Variants' rows joined in order (an empty table keeps its columns)."""
    filled = [p for p in pieces if len(p)]
    if not filled:
        return pieces[0] if pieces else pd.DataFrame()
    return pd.concat(filled, ignore_index=True) if len(filled) > 1 else filled[0].reset_index(drop=True)


def _piece_rows(store: PieceStore, transform: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> GameRows:
    """A per-game table on disk as :class:`GameRows` (``transform`` applied to each piece read)."""
    columns = list(store.columns)
    if transform is not None and store.first_rows:
        columns = list(transform(next(iter(store.first_rows.values()))).columns)

    def pieces(vid: str, wanted: Sequence[str]) -> Iterator[pd.DataFrame]:
        # A transform may derive a wanted column from others (seat0_win from winner): read every column then.
        read = None if transform is not None else wanted
        for piece in store.read(vid, read):
            yield (transform(piece) if transform is not None else piece)[list(wanted)]

    return GameRows(store.variant_ids, columns, pieces)


def _default_comparison_games(games: pd.DataFrame) -> pd.DataFrame:
    out = games.copy()
    out["seat0_win"] = (out["winner"] == 0).astype(float)
    if "top_shared" in out.columns:
        out["top_shared"] = out["top_shared"].astype(float)
    return out


def records_key(outdir: str | Path) -> dict[str, Any] | None:
    """What identifies the records of ``outdir`` (the spec's fingerprint and every chunk file with its size), or
    ``None`` when no records are stored."""
    root = Path(outdir)
    files = stored_chunk_files(outdir)
    if not files:
        return None
    # The checks' sub-sweeps (OUTDIR/checks/) feed the trust and skill tables.
    checks = sorted(root.glob(f"checks/*/{RECORDS}/*/chunk-*.parquet"))
    manifest = load_manifest(outdir)
    return {
        "fingerprint": manifest.get("fingerprint"),
        "chunks": [[str(f.relative_to(root)), f.stat().st_size] for f in files + checks],
    }


def compute(outdir: str | Path) -> ResultSet:
    """Every statistic of the sweep stored in ``outdir``, from its manifest and records (nothing is simulated).

    Every chunk file is first checked against the checksum the manifest recorded for it. The tables every game gets
    are computed a variant at a time from the few columns they need; the records as a whole are read only if the
    game's statistics ask for them.

    Raises:
        FileNotFoundError: ``outdir`` holds no sweep (no manifest or no records).
        DamagedFileError: the manifest or a chunk file is damaged, or a chunk file is not the one it was (named).
    """
    manifest = load_manifest(outdir)
    verify_chunks(outdir, manifest)
    return compute_from(manifest, None, source=ChunkSource(outdir), outdir=outdir)


def compute_from(manifest: dict[str, Any], records: pd.DataFrame | None, source: ChunkSource | None = None,
                 outdir: str | Path | None = None) -> ResultSet:
    """Every statistic from a manifest and the records (a frame, or a :class:`ChunkSource` to read them from); the
    checks' tables (trust, skill) too when ``outdir`` holds them."""
    # Bootstrap intervals draw from a generator seeded by the sweep's own seed, so recomputing gives the same tables.
    rng = np.random.default_rng([int(manifest.get("seed", 0)), 0x5EED])
    b = Builder(manifest, records, rng, source=source)
    _variants(b)
    _balance(b)
    entry = find_game(str(manifest.get("game", "")))
    statistics = entry.part("statistics") if entry is not None else None
    if statistics is not None:
        statistics(b)
    comparisons = _comparisons(b)
    _what_differs(b, entry)
    _lineup_comparison(b)
    if outdir is not None:
        _checks(b, outdir)
    _headlines(b, comparisons)
    return b.results


def _variants(b: Builder) -> None:
    per_variant = b.games_count()
    known = {v.get("id"): v for v in b.manifest.get("variants", [])}
    rows = []
    for vid in b.variant_ids:
        v = known.get(vid, {})
        rows.append({
            "variant": vid,
            "label": str(v.get("label") or v.get("game_string") or vid),
            "game_string": str(v.get("game_string", "")),
            "lineup": str(v.get("lineup", "")),
            "players": int(b._first_game(vid)["seats"]),
            "games": int(per_variant.get(vid, 0)),
            "baseline": vid == b.baseline,
        })
    b.add("variants", pd.DataFrame(rows), "The variants played",
          "One row per variant (rule variant x line-up) with games stored; 'baseline' marks the variant the others "
          "are compared with.", units={"games": "games"})


def _balance(b: Builder) -> None:
    rates = seat_win_rates(tallies=b.seat_tallies)
    b.add("seat_win_rates", rates, "Win rate per seat",
          "Share of games won from each seat (after tie-breaks); fair = 1 / players.", "Wilson 95%",
          {"win_rate": "share of games", "fair": "share of games"})
    b.add("equal_seats_test", equal_seats_test(tallies=b.seat_tallies), "Chi-square test that every seat wins equally often",
          "Observed wins per seat against total wins / seats; p_holm: the p-values adjusted over the variants "
          "(Holm), what the verdicts use; first_seat_advantage = seat 0's win rate - 1/players.",
          units={"first_seat_advantage": "share of games"})
    if b.games_on_disk:  # a variant's per-game rows at a time, from disk
        store = b.game_pieces
        ludii = ludii_metrics(None, b.rng, pieces=[(vid, store.rows_of(vid), store.read(vid))
                                                     for vid in store.variant_ids])
    else:
        ludii = ludii_metrics(None, b.rng, games=b.games)
    b.add("ludii_metrics", ludii, "Balance metrics (Ludii)",
          "Balance, AdvantageP1, Completion, Drawishness, Duration, LeadChange, Drama and Decisiveness per variant "
          "(definitions in the statistics guide).",
          "Wilson 95% for shares, t 95% for means, bootstrap 95% over games for Balance")
    title, definition = "One row per game", "Winner (-1: shared), seats, turns and the score-trace metrics of every game."
    if b.games_on_disk:  # written to the results set piece by piece
        b.results.add(b.game_pieces.table("games", title, definition))
    else:
        b.add("games", b.games, title, definition)


def _comparisons(b: Builder) -> pd.DataFrame:
    """One factor at a time (:mod:`trustme_analysis.results.comparisons`): rule variants against the baseline's rules
    under the same line-up, line-ups against the reference line-up under the same rules."""
    metrics = b.comparison_metrics if len(b.variant_ids) >= 2 else []
    comp = factor_comparisons(b.comparison_rows, metrics, b.manifest, b.variant_ids, b.baseline)
    b.add("comparisons", comp, "One factor at a time: each variant against its reference",
          "factor: what moved. rules: the variant against the baseline's rules under the same line-up (held); "
          "line-up: the variant against the reference line-up (the baseline's) under the same rules (held). "
          "reference: the variant compared with; baseline_value: its value; difference: variant minus reference, "
          "paired game by game where both played the same games (same seeds), else unpaired; p_holm adjusts the "
          "p-values within each factor (Holm); significant when p_holm < 0.05; effect = difference / the "
          "reference's standard deviation.",
          "unadjusted 95%: paired t on per-game differences; unpaired: Newcombe for shares of games, Welch for means")
    return comp


def _seat_reads(game: pyspiel.Game, seats: Any) -> tuple[str, ...] | None:
    """The scoring-only parameters any bot of a line-up reads (``None``: some bot may read any)."""
    entries = seats.get("pool", []) if isinstance(seats, dict) else list(seats or [])
    read: set[str] = set()
    for seat in entries:
        bot = make_bot(game, seat.get("bot", "random"), 0, np.random.default_rng(0), **(seat.get("knobs") or {}))
        if bot.reads is None:
            return None
        read |= set(bot.reads)
    return tuple(sorted(read))


def _what_differs(b: Builder, entry: Any) -> None:
    """For every variant: the rule parameters that set it apart from the baseline's rules, and whether they only
    change the scoring and go unread by its players (then it plays the games of its rule reference, the baseline's
    rules under the same line-up, move for move, scored differently)."""
    variants = {str(v.get("id")): v for v in b.manifest.get("variants", [])}
    base = variants.get(b.baseline, {})
    scoring_only = set(entry.scoring_only) if entry is not None else set()
    reference = dict(comparison_pairs(b.manifest, b.variant_ids, b.baseline)[RULES])
    rows = []
    for vid in b.variant_ids:
        v = variants.get(vid, {})
        params, base_params = v.get("params") or {}, base.get("params") or {}
        differs = sorted(k for k in set(params) | set(base_params) if params.get(k) != base_params.get(k))
        # Same play needs a reference of the same players: the baseline's rules under this variant's line-up.
        only_scoring = bool(differs) and set(differs) <= scoring_only and vid in reference
        read = None
        if only_scoring and v.get("game_string"):
            read = _seat_reads(pyspiel.load_game(str(v["game_string"])), v.get("seats"))
        unread = only_scoring and read is not None and not set(differs) & set(read)
        rows.append({"variant": vid, "reference": reference.get(vid, ""), "differs_in": ", ".join(differs),
                     "scoring_only": only_scoring, "read_by_players": "" if read is None else ", ".join(read),
                     "same_play": unread})
    b.add("variant_differences", pd.DataFrame(rows, columns=["variant", "reference", "differs_in", "scoring_only",
                                                             "read_by_players", "same_play"]),
          "What sets each variant apart from the baseline's rules",
          "The rule parameters whose values differ from the baseline's; reference: the variant of the baseline's "
          "rules under the same line-up, what the rule comparisons set it against (empty: none); scoring_only: they "
          "change only how a finished game is scored (the game's declaration), and a reference of the same players "
          "exists; same_play: and no player of the line-up reads them, so the variant's games are its reference's "
          "games scored again (a difference in game length or play between them is then chance, not the rule).")


def _lineup_comparison(b: Builder) -> None:
    """With several line-ups: every compared measure of each rule variant under each line-up, side by side."""
    variants = b.manifest.get("variants", [])
    lineups = list(dict.fromkeys(str(v.get("lineup", "")) for v in variants))
    if len(lineups) < 2:
        return
    rows = []
    for v in variants:
        vid = v.get("id")
        games = b.comparison_rows
        if vid not in games:
            continue
        rule = ", ".join(f"{k}={val}" for k, val in (v.get("grid") or {}).items()) or "the spec's rules"
        moments = games.moments(vid, [m.column for m in b.comparison_metrics])
        for metric in b.comparison_metrics:
            if metric.column not in games.columns:
                continue
            est, low, high, n = moment_value(moments[metric.column], metric)
            rows.append({"rules": rule, "lineup": str(v.get("lineup", "")), "variant": vid, "measure": metric.name,
                         "unit": metric.unit, "value": est, "low": low, "high": high, "games": n})
    b.add("lineup_comparison", pd.DataFrame(rows), "Each measure under each line-up",
          "Per rule variant, the value of every compared measure under each line-up of players, side by side: a "
          "conclusion holds under competent play when it holds in the competent line-up's row.",
          "Wilson 95% for shares of games, t 95% for means")


def _checks(b: Builder, outdir: str | Path) -> None:
    """The challengers' win rates, the verdicts and the skill trace, when the spec asked for them."""
    if not load_index(outdir):
        return
    lineup_of = {str(v.get("id")): str(v.get("lineup", "")) for v in b.manifest.get("variants", [])}
    trust, verdicts = trust_tables(outdir, lineup_of)
    if len(trust):
        b.add("trust", trust, "Challengers against the line-ups",
              "Each challenger (a probe: one of the game's named fixed strategies over the heuristic; or the search "
              "player) sits in one seat, the line-up's own bots in the others, seats rotating; win rate = share of "
              "its games it won; fair = its share if it were as good as the seats against it (1 / players without "
              "ties); edge = win rate - fair; p_value: one-sided binomial test of 'wins more than its fair share'; "
              "p_holm: Holm-adjusted over the variant's probes.", "Wilson 95%",
              {"win_rate": "share of games", "fair": "share of games", "edge": "share of games"})
        b.add("trust_verdicts", verdicts, "Can these players be trusted?",
              f"Per tested variant, decided by the probes: exploitable when a probe wins more than its fair share "
              f"(one-sided, Holm over the probes, {ALPHA:.0%}; best_challenger: the one with the largest edge among "
              "them); holds otherwise, and detectable is the excess over the fair share the probes' games would have "
              "found with 80% power (best_challenger: the probe with the largest edge). The search challenger does "
              "not decide it: search_gain is its win rate minus its fair share, with the 95% interval "
              "(search_low, search_high).", "Wilson 95%; one-sided binomial tests",
              {"win_rate": "share of games", "detectable": "share of games", "search_gain": "share of games"})
    trace, summary = skill_tables(outdir)
    if len(trace):
        b.add("skill_trace", trace, "Skill trace",
              "Search players of growing budget, each against the previous one (the stronger in one seat, seats "
              "rotating): the stronger's win rate at each step.", "Wilson 95%", {"win_rate": "share of games"})
        b.add("skill_summary", summary, "Skill vs luck",
              "Mean over the steps of (win rate - fair) / (1 - fair): 0 when more thinking never helps (luck), 1 when "
              "the stronger player always wins (skill).", "normal approximation 95%")


def _headlines(b: Builder, comparisons: pd.DataFrame) -> None:
    """The line-ups ranked (which carries the headline), each headline measure under a stronger line-up, and the
    findings the first page states (:mod:`trustme_analysis.results.comparisons`)."""
    games = b.games_count()
    verdicts = b.results["trust_verdicts"] if "trust_verdicts" in b.results else None
    lineups = lineup_table(b.manifest, b.variant_ids, games, verdicts, b.baseline)
    b.add("lineups", lineups, "The line-ups, most competent first in role",
          "One row per line-up: its seats, competence level (from the weakest seat's bot kind: 0 random, 1 "
          "heuristic or probe, 2 search, 3 trained or a stored policy), strength (level / rollout level / search "
          "budget of the weakest seat; search over trained rollouts counts two levels above search), the trust "
          "check's verdict (empty: not checked), games, the variant under the baseline's rules, and its role: "
          "headline (the figures page 1 leads with: not found exploitable first, then the highest level, then the "
          "most games), stronger (stronger than the headline's: the headline figures are weighed against it), "
          "reference (the baseline's line-up, what the line-up comparisons set the others against).")
    stable = stability(b.comparison_rows, b.comparison_metrics if len(b.variant_ids) >= 2 else [], lineups)
    b.add("stability", stable, "Has it stopped moving?",
          "Under the baseline's rules, each compared measure under the headline line-up and under each stronger "
          "line-up; difference: stronger minus headline (paired where both played the same games); verdict: still "
          "moves with skill when the 95% interval excludes 0, else stable under stronger play; largest_move: the "
          "largest move the interval allows.",
          "unadjusted 95%: paired t, else Newcombe for shares of games, Welch for means")
    lineup_of = {str(v.get("id")): str(v.get("lineup", "")) for v in b.manifest.get("variants", [])}
    rows = headline_rows(b.results, b.comparison_rows, b.comparison_metrics, comparisons, lineups, stable,
                         b.baseline, HEADLINE_CHANGES, lineup_of)
    b.add("headlines", rows, "Headline findings",
          "Under the headline variant (the baseline's rules under the headline line-up, see lineups): the seat win "
          "rates (reference: the fair rate), the chi-square test of equal seats (value: its p-value; p: "
          "Holm-adjusted over the variants) and the value of every compared measure (kind baseline); for each "
          "line-up tested, the strongest challenger's win rate (reference: the fair share) with the verdict; per "
          "factor (rules, line-up), the largest significant changes (value: variant minus compared_with; "
          "reference: compared_with's value; p: Holm-adjusted within the factor); and each measure under a "
          "stronger line-up (kind stability: value = stronger minus headline, reference = the headline's value, "
          "with the verdict). exploitable: the players behind the row were found exploitable by the trust check.",
          "Wilson 95% for shares of games, t 95% for means; changes: paired t, else Newcombe / Welch 95%")
