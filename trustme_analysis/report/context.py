"""What report pages share while a report is built: the stored sweep, its statistics and the pages made so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from trustme_analysis.stats.compare import GameMetric


@dataclass
class Page:
    """A finished page: its figure, title (searchable in the PDF) and section (where it goes in the report)."""

    figure: Figure
    title: str
    section: str


@dataclass
class ReportContext:
    """Handed to every page builder, including each game's ``GamePlugin.pages``.

    Attributes:
        outdir: the sweep folder.
        manifest: the sweep's manifest (see :mod:`trustme_analysis.outdir`).
        records: all stored records (one row per game and seat).
        games: the generic per-game table (:func:`trustme_analysis.stats.balance.games_table`).
        rng: the only randomness (bootstrap intervals); seeded from the sweep's seed so reports are reproducible.
        stats_dir: where statistics tables are written as CSV.
        pages: pages made so far, written in section order at the end.
        comparison_games: per-game table the variant-vs-baseline comparisons use.
        comparison_metrics: metrics compared with the baseline (a game plug-in may set its own).
    """

    outdir: Path
    manifest: dict[str, Any]
    records: pd.DataFrame
    games: pd.DataFrame
    rng: np.random.Generator
    stats_dir: Path
    pages: list[Page] = field(default_factory=list)
    comparison_games: pd.DataFrame | None = None
    comparison_metrics: Sequence[GameMetric] = ()
    csv_written: list[Path] = field(default_factory=list)

    @property
    def baseline(self) -> str:
        """The baseline variant id (the manifest's, else the first variant)."""
        base = self.manifest.get("baseline")
        return base if base in self.variant_ids else self.variant_ids[0]

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with records, in order."""
        return sorted(self.records["variant"].unique())

    def variant_label(self, variant_id: str) -> str:
        """The variant's label from the manifest (its id if the manifest has none)."""
        for v in self.manifest.get("variants", []):
            if v.get("id") == variant_id:
                return str(v.get("label") or v.get("game_string") or variant_id)
        return variant_id

    @property
    def game_title(self) -> str:
        """The sweep's title."""
        return str(self.manifest.get("title") or f"Sweep of {self.manifest.get('game', 'a game')}")

    def add(self, figure: Figure, title: str, section: str = "game") -> None:
        """Keep a finished page; ``section`` is one of "front", "summary", "balance", "game", "comparisons"."""
        self.pages.append(Page(figure, title, section))

    def add_all(self, figures: Sequence[Figure], title: str, section: str = "game") -> None:
        """Keep several pages with one title (a table that ran over a page)."""
        for fig in figures:
            self.add(fig, title, section)

    def write_csv(self, name: str, table: pd.DataFrame) -> Path:
        """Write a statistics table to ``OUTDIR/stats/<name>.csv`` (list columns as "/"-joined text)."""
        self.stats_dir.mkdir(parents=True, exist_ok=True)
        out = table.copy()
        for col in out.columns:
            if out[col].dtype == object and len(out) and isinstance(out[col].iloc[0], (list, tuple, np.ndarray)):
                out[col] = ["/".join(str(x) for x in v) for v in out[col]]
        path = self.stats_dir / f"{name}.csv"
        out.to_csv(path, index=False)
        self.csv_written.append(path)
        return path

    def set_comparisons(self, games: pd.DataFrame, metrics: Sequence[GameMetric]) -> None:
        """Replace the variant-vs-baseline comparisons with a game's own per-game table and metrics."""
        self.comparison_games = games
        self.comparison_metrics = tuple(metrics)
