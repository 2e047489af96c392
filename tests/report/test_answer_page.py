"""Page 1 (the answer) stays one page: it spells out fewer measures and changes per group before it spills two
lines onto a continuation page, and still flows on when even one per group does not fit."""

from __future__ import annotations

from types import SimpleNamespace

import matplotlib.pyplot as plt
import pytest

from trustme_analysis.report import front


def _answer(monkeypatch, sentences_per_limit):
    """Pages of the answer when the headline has ``sentences_per_limit(limit)`` long sentences; the limits asked."""
    asked = []

    def headline(ctx, limit=front.FRONT_CHANGES):
        asked.append(limit)
        return [f"Finding {i}: " + "a measure with its interval, " * 6 for i in range(sentences_per_limit(limit))]

    monkeypatch.setattr(front, "headline_lines", headline)
    monkeypatch.setattr(front, "coverage_lines", lambda ctx: [])
    monkeypatch.setattr(front, "_games_per_variant", lambda ctx: {"v00": 10})
    added = []
    ctx = SimpleNamespace(manifest={"question": "Does a seat win too often?", "game": "g", "seed": 1},
                          variant_ids=["v00"], front_findings=[], game_title="T",
                          add_all=lambda figures, title, section: added.extend(figures))
    front.add_answer_page(ctx)
    for fig in added:
        plt.close(fig)
    return added, asked


def test_the_answer_spells_out_fewer_changes_until_it_fits_one_page(monkeypatch):
    # Two lines a sentence, about 21 sentences a page: 3 per group (23 sentences) do not fit, 2 per group (18) do.
    pages, asked = _answer(monkeypatch, lambda limit: 8 + 5 * limit)
    assert asked == [3, 2] and len(pages) == 1


@pytest.mark.parametrize("per_group", [False, True])
def test_an_answer_too_long_even_at_one_per_group_flows_onto_more_pages(monkeypatch, per_group):
    pages, asked = _answer(monkeypatch, (lambda limit: 24 + limit) if per_group else (lambda limit: 25))
    assert asked == [3, 2, 1] and len(pages) == 2
