"""Writing a report's pages as a PDF one can find one's way in: a contents page, a foot on every page (page number,
what the variant codes mean, the note on undefined figures), and PDF bookmarks (the outline a viewer shows beside
the pages) per section, per page title, per solved variant and per variant described.

matplotlib's ``PdfPages`` writes the pages but has no outline; the outline is added afterwards with pypdf, which
changes nothing else in the file. The result is deterministic: the same pages give the same bytes.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from pypdf import PdfReader, PdfWriter  # noqa: E402

from trustme_analysis.atomic import atomic_path  # noqa: E402
from trustme_analysis.report.context import SECTIONS, Page  # noqa: E402
from trustme_analysis.report.layout import BOTTOM, LEFT, TOP, add_footer, new_page, shorten  # noqa: E402

#: Rows of one column of the contents; a page has two columns.
CONTENTS_ROWS = 36
CONTENTS_COLUMNS = 2


@dataclass
class Entry:
    """One bookmark: its label, the page it opens (0-based, in the written PDF) and its sub-entries."""

    label: str
    page: int
    children: list[Entry] = field(default_factory=list)


def outline(pages: Sequence[Page], section_names: dict[str, str] | None = None) -> list[Entry]:
    """The outline of ``pages`` (in written order): a section, then its groups (solved variants), then the distinct
    page titles, then the bookmarks of single pages (variants described on a page)."""
    names = {**SECTIONS, **(section_names or {})}
    entries: list[Entry] = []
    for section in dict.fromkeys(p.section for p in pages):
        indices = [i for i, p in enumerate(pages) if p.section == section]
        node = Entry(names.get(section, section), indices[0])
        groups: dict[str | None, Entry] = {}
        for i in indices:
            page = pages[i]
            parent = node
            if page.group:
                if page.group not in groups:
                    groups[page.group] = Entry(page.group, i)
                    node.children.append(groups[page.group])
                parent = groups[page.group]
            # Under a group ("Solved variant duel") a title drops the group's name it starts with.
            label = page.title
            if page.group and label.startswith(page.group + ": "):
                label = label[len(page.group) + 2:]
                label = label[:1].upper() + label[1:]
            if not any(c.label == label for c in parent.children):
                parent.children.append(Entry(label, i))
            title_entry = next(c for c in parent.children if c.label == label)
            title_entry.children += [Entry(b, i) for b in page.bookmarks]
        # A section of one page title needs no sub-entry of the same name.
        if len(node.children) == 1 and not node.children[0].children and not groups:
            node.children = []
        entries.append(node)
    return entries


def _flatten(entries: Sequence[Entry], level: int = 0) -> list[tuple[int, Entry]]:
    out: list[tuple[int, Entry]] = []
    for e in entries:
        out.append((level, e))
        out += _flatten(e.children, level + 1)
    return out


def contents_pages(entries: Sequence[Entry], number: Callable[[int], int], title: str = "Contents") -> list[Figure]:
    """The contents: every outline entry down to page titles (two levels below a section at most), with the page
    number ``number(index)`` it starts on."""
    rows = [(lvl, e) for lvl, e in _flatten(entries) if lvl <= 2]
    figs: list[Figure] = []
    step = (TOP - BOTTOM - 0.02) / CONTENTS_ROWS
    per_page = CONTENTS_ROWS * CONTENTS_COLUMNS
    # One column when it is enough; else two columns side by side.
    columns = [(LEFT, 0.80, 100)] if len(rows) <= CONTENTS_ROWS else [(LEFT, 0.47, 58), (0.52, 0.95, 58)]
    for start in range(0, max(len(rows), 1), per_page):
        fig = new_page(title if start == 0 else f"{title} (continued)",
                       "Every section and page title with the page it starts on; the same entries are the PDF's "
                       "bookmarks (the outline panel of a PDF viewer).")
        chunk = rows[start : start + per_page]
        for c, (x, right, width) in enumerate(columns):
            y = TOP - 0.01
            for level, entry in chunk[c * CONTENTS_ROWS : (c + 1) * CONTENTS_ROWS]:
                weight = "bold" if level == 0 else "normal"
                size = 9.5 if level == 0 else 8.5
                fig.text(x + 0.015 * level, y, shorten(entry.label, width - 3 * level), fontsize=size,
                         fontweight=weight, va="top")
                fig.text(right, y, str(number(entry.page)), fontsize=size, fontweight=weight, va="top", ha="right")
                y -= step
        figs.append(fig)
    return figs


def count_contents_pages(entries: Sequence[Entry]) -> int:
    """How many pages :func:`contents_pages` takes."""
    rows = [1 for lvl, _ in _flatten(entries) if lvl <= 2]
    return max(1, math.ceil(len(rows) / (CONTENTS_ROWS * CONTENTS_COLUMNS)))


def write_pdf(
    pages: Sequence[Page],
    path: str | Path,
    *,
    title: str,
    subject: str,
    key: Callable[[Page], str | None] = lambda page: None,
    section_names: dict[str, str] | None = None,
    contents_after: int = 1,
) -> Path:
    """Write ``pages`` (in order) to ``path`` with a contents page after the first ``contents_after`` pages, a foot
    on every page and the PDF outline; atomically (a reader never sees half a file). Closes the figures.

    Args:
        key: the variant key of a page's foot (what its variant codes mean), or None.
        section_names: names of sections in the contents and the outline, over :data:`SECTIONS`.
    """
    path = Path(path)
    pages = list(pages)
    try:
        contents_after = min(contents_after, len(pages))
        entries = outline(pages, section_names)
        n_contents = count_contents_pages(entries) if pages else 0

        def number(index: int) -> int:
            # A page's 1-based number once the contents pages are in.
            return index + 1 + (n_contents if index >= contents_after else 0)

        contents = [Page(fig, "Contents", "contents") for fig in contents_pages(entries, number)] if pages else []
        written = pages[:contents_after] + contents + pages[contents_after:]
        total = len(written)
        for n, page in enumerate(written, start=1):
            add_footer(page.figure, f"{title} \u2014 page {n} of {total}", key(page))
        # No creation date: the same results set gives the same PDF, byte for byte.
        metadata = {"Title": title, "Subject": subject, "CreationDate": None}
        with atomic_path(path) as tmp:
            raw = Path(f"{tmp}.pages")
            try:
                with PdfPages(raw, metadata=metadata) as pdf:
                    for page in written:
                        pdf.savefig(page.figure)
                _add_outline(raw, tmp, entries, number, contents_after if contents else None)
            finally:
                if raw.exists():
                    os.unlink(raw)
    finally:
        for page in pages:
            plt.close(page.figure)
    return path


def _add_outline(source: Path, target: Path, entries: Sequence[Entry], number: Callable[[int], int],
                 contents_at: int | None) -> None:
    writer = PdfWriter(clone_from=PdfReader(source))

    def add(entry: Entry, parent=None) -> None:
        item = writer.add_outline_item(title=entry.label, page_number=number(entry.page) - 1, parent=parent)
        for child in entry.children:
            add(child, item)

    # The contents' bookmark sits where its pages are: after the entries of the pages before it.
    placed = contents_at is None
    for entry in entries:
        if not placed and number(entry.page) - 1 > contents_at:
            writer.add_outline_item(title="Contents", page_number=contents_at)
            placed = True
        add(entry)
    if not placed:
        writer.add_outline_item(title="Contents", page_number=contents_at)
    # Viewers open the outline panel beside the first page.
    writer.page_mode = "/UseOutlines"
    with open(target, "wb") as fh:
        writer.write(fh)
