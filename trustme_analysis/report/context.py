"""What report pages share while a report is drawn: the results set they draw from and the pages made so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from trustme_analysis.report.layout import add_findings, name_variant_axes
from trustme_analysis.report.words import axis_words, label_words
from trustme_analysis.results import ResultSet
from trustme_analysis.results.comparisons import variant_exploitable

#: The sections of a report, in order, with their names in the contents and the PDF outline.
SECTIONS: dict[str, str] = {
    "answer": "The answer",
    "contents": "Contents",
    "summary": "What changed most",
    "checks": "Can these players be trusted?",
    "balance": "Seat balance",
    "game": "The game's own pages",
    "solve": "Solved variants",
    "comparisons": "One factor at a time: every comparison",
    "front": "What was run and the rule assumptions",
    "glossary": "Glossary",
}
#: Sections whose pages name variants by their codes (v00, ...): their foot explains the codes.
KEYED_SECTIONS = ("summary", "checks", "balance", "game", "comparisons", "front")


@dataclass
class Page:
    """A finished page.

    Attributes:
        figure: the drawn page.
        title: its title (searchable in the PDF; the contents and the outline list it).
        section: where it goes in the report (a key of :data:`SECTIONS`).
        findings: the sentences it opens with.
        group: a sub-heading of its section in the outline (the solved variant a solve page belongs to).
        variants: the variant codes it shows (explained at its foot); ``None``: every variant, on the pages of
            :data:`KEYED_SECTIONS`.
        bookmarks: further outline entries that point at this page (a variant described on it).
    """

    figure: Figure
    title: str
    section: str
    findings: list[str] = field(default_factory=list)
    group: str | None = None
    variants: list[str] | None = None
    bookmarks: list[str] = field(default_factory=list)


@dataclass
class Report:
    """Handed to every page drawer, including each game's ``pages`` part; pages read :attr:`results` only.

    Attributes:
        results: the sweep's results set (every statistic, computed once).
        outdir: the sweep folder (for the stored solutions under ``solve/``).
        pages: pages made so far, written in section order at the end.
        front_findings: sentences pages offered for the first page, as (page order, sentence).
    """

    results: ResultSet
    outdir: Path
    pages: list[Page] = field(default_factory=list)
    front_findings: list[tuple[int, str]] = field(default_factory=list)

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
        """The variant's label in words ("2 players, line-up heuristic"; its id if the manifest has none)."""
        return label_words(self.results.variant_label(variant_id))

    def variant_name(self, variant_id: str) -> str:
        """The code with what it means, for a sentence: "v01 (3 players)"; only what sets the variant apart from
        the others is named."""
        return f"{variant_id} ({self.variant_short(variant_id)})"

    def variant_short(self, variant_id: str) -> str:
        """What sets ``variant_id`` apart from the other variants, in words (its whole label when alone)."""
        labels = {v: [p.strip() for p in self.variant_label(v).split(",")] for v in self.variant_ids}
        own = labels.get(variant_id, [self.variant_label(variant_id)])
        if len(labels) > 1:
            shared = set.intersection(*(set(parts) for parts in labels.values()))
            own = [p for p in own if p not in shared] or own
        return ", ".join(own)

    def variant_key(self, variants: Sequence[str] | None = None) -> str:
        """What the codes mean, for a page's foot: "Variants: v00 = 2 players; v01 = 3 players (baseline); ..."."""
        shown = list(dict.fromkeys(self.variant_ids if variants is None else variants))
        if not shown:
            return ""
        parts = [f"{v} = {self.variant_short(v)}" + (" (baseline)" if v == self.baseline else "") for v in shown]
        return "Variants: " + "; ".join(parts) + "."

    def lineup_of(self, variant_id: str) -> str:
        """The name of the line-up that played ``variant_id`` (empty when the manifest does not say)."""
        for v in self.manifest.get("variants", []):
            if str(v.get("id")) == str(variant_id):
                return str(v.get("lineup", ""))
        return ""

    @property
    def lineups(self) -> pd.DataFrame:
        """The results set's ``lineups`` table (empty for a results set computed before it existed)."""
        return self.results["lineups"] if "lineups" in self.results else pd.DataFrame(
            columns=["lineup", "seats", "level", "level_name", "strength", "verdict", "games",
                     "variant_at_baseline_rules", "verdict_at_baseline_rules", "role"])

    @property
    def headline_variant(self) -> str:
        """The variant whose figures lead the report: the baseline's rules under the most competent line-up (the
        ``lineups`` table's headline), else the baseline."""
        head = self.lineups[self.lineups["role"] == "headline"]
        vid = str(head["variant_at_baseline_rules"].iloc[0]) if len(head) else ""
        return vid if vid in self.variant_ids else self.baseline

    def exploitable(self, variant_id: str) -> bool:
        """Whether the trust check found the players of ``variant_id`` exploitable (its own verdict where the check
        tested it, else its line-up's: :func:`~trustme_analysis.results.comparisons.variant_exploitable`)."""
        verdicts = self.results["trust_verdicts"] if "trust_verdicts" in self.results else None
        return variant_exploitable(variant_id, verdicts, self.lineups, self.lineup_of(variant_id))

    def players_tag(self, variant_id: str) -> str:
        """" (players found exploitable)" for a variant whose players the trust check found exploitable (its own
        verdict where the check tested it, else its line-up's: :meth:`exploitable`), else ""."""
        return " (players found exploitable)" if self.exploitable(variant_id) else ""

    @property
    def manifest(self) -> dict:
        """The sweep's manifest."""
        return self.results.manifest

    @property
    def game_title(self) -> str:
        """The sweep's title."""
        return self.results.title

    def add(self, figure: Figure, title: str, section: str = "game", findings: Sequence[str] = (), front: int = 0,
            group: str | None = None, variants: Sequence[str] | None = None) -> None:
        """Keep a finished page; ``section`` is one of :data:`SECTIONS`.

        Args:
            findings: the sentences the page opens with (two to four, each with its interval or caveat); drawn in a
                band under the title, the page's content moved down to make room.
            front: how many of ``findings`` (the first ones) the first page of the report repeats.
            group: the outline's sub-heading of the section for this page.
            variants: the variant codes the page shows (default: all of them on the pages of a keyed section).
        """
        if section not in SECTIONS:
            raise ValueError(f"section={section!r} is not allowed; allowed: {', '.join(SECTIONS)}")
        findings = [f for f in findings if f]
        # Every page's axes and legends name variants in words (the games' own pages draw codes); tables keep codes.
        name_variant_axes(figure, axis_words({v: self.results.variant_label(v) for v in self.variant_ids}))
        add_findings(figure, findings)
        self.front_findings += [(len(self.pages), f) for f in findings[:front]]
        self.pages.append(Page(figure, title, section, findings, group, None if variants is None else list(variants)))

    def add_all(self, figures: Sequence[Figure], title: str, section: str = "game", findings: Sequence[str] = (),
                front: int = 0, group: str | None = None, bookmarks: dict[int, list[str]] | None = None) -> None:
        """Keep several pages with one title (a table that ran over a page); the first opens with ``findings``."""
        for i, fig in enumerate(figures):
            self.add(fig, title, section, findings if i == 0 else (), front if i == 0 else 0, group)
            self.pages[-1].bookmarks = list((bookmarks or {}).get(i, []))
