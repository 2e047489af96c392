"""What report pages share while a report is drawn: the results set they draw from and the pages made so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from trustme_analysis.results import ResultSet


@dataclass
class Page:
    """A finished page: its figure, title (searchable in the PDF) and section (where it goes in the report)."""

    figure: Figure
    title: str
    section: str


@dataclass
class Report:
    """Handed to every page drawer, including each game's ``pages`` part; pages read :attr:`results` only.

    Attributes:
        results: the sweep's results set (every statistic, computed once).
        outdir: the sweep folder (for the stored solutions under ``solve/``).
        pages: pages made so far, written in section order at the end.
    """

    results: ResultSet
    outdir: Path
    pages: list[Page] = field(default_factory=list)

    def __getitem__(self, name: str) -> pd.DataFrame:
        """The results table ``name``."""
        return self.results[name]

    @property
    def baseline(self) -> str:
        """The baseline variant id."""
        return self.results.baseline

    @property
    def variant_ids(self) -> list[str]:
        """Variant ids with games, in order."""
        return self.results.variant_ids

    def variant_label(self, variant_id: str) -> str:
        """The variant's label from the manifest (its id if the manifest has none)."""
        return self.results.variant_label(variant_id)

    @property
    def manifest(self) -> dict:
        """The sweep's manifest."""
        return self.results.manifest

    @property
    def game_title(self) -> str:
        """The sweep's title."""
        return self.results.title

    def add(self, figure: Figure, title: str, section: str = "game") -> None:
        """Keep a finished page; ``section`` is one of "front", "summary", "balance", "game", "solve", "comparisons"."""
        self.pages.append(Page(figure, title, section))

    def add_all(self, figures: Sequence[Figure], title: str, section: str = "game") -> None:
        """Keep several pages with one title (a table that ran over a page)."""
        for fig in figures:
            self.add(fig, title, section)
