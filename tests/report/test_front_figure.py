"""Page 1 leads with the seat figure (each seat's win share per rule variant under each line-up, the fair share as a
dashed line), and the report's plots name variants in words ("3 players, trained"), not by their codes."""

import json
import re
from types import SimpleNamespace

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import ErrorbarContainer
from test_report_build import VARIANTS, write_sweep
from test_report_factors import _crossed_sweep

from trustme_analysis import results
from trustme_analysis.outdir import manifest_path
from trustme_analysis.report import build as build_module
from trustme_analysis.report import front
from trustme_analysis.report.context import Report
from trustme_analysis.report.layout import close, name_variant_axes, new_page
from trustme_analysis.report.panels import axis_names
from trustme_analysis.report.words import axis_words, pair_words

CODE = re.compile(r"\bv\d\d\b")
#: Sections drawn by the report's own pages (front.py, generic.py): every plot there names variants in words.
OWN_SECTIONS = ("answer", "summary", "balance", "comparisons")


def _tick_texts(fig):
    texts = []
    for ax in fig.axes:
        texts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        legend = ax.get_legend()
        texts += [t.get_text() for t in legend.get_texts()] if legend is not None else []
    for legend in fig.legends:
        texts += [t.get_text() for t in legend.get_texts()]
    return texts


def _dashed_levels(ax):
    return sorted(float(line.get_ydata()[0]) for line in ax.get_lines()
                  if line.get_linestyle() == "--" and len(set(line.get_ydata())) == 1)


def test_page_one_leads_with_the_seat_figure_and_plots_name_variants_in_words(tmp_path, monkeypatch):
    ids = _crossed_sweep(tmp_path)  # players 2/3 x line-ups heuristic, trained, strong
    kept = {}
    real_write = build_module.write_pdf

    def write_pdf(pages, path, **kwargs):
        kept["pages"] = list(pages)
        # Read the tick labels before the figures are written (and closed).
        kept["ticks"] = [(p.section, p.title, _tick_texts(p.figure)) for p in pages]
        return real_write(pages, path, **kwargs)

    monkeypatch.setattr(build_module, "write_pdf", write_pdf)
    build_module.build_report(tmp_path)
    answer = [p for p in kept["pages"] if p.section == "answer"]
    assert len(answer) == 1, "page 1 (the answer, with its figure) stays one page"
    fig = answer[0].figure
    panels = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in panels] == ["2 players", "3 players"]
    rates = results.load(tmp_path)["seat_win_rates"]
    for ax, players in zip(panels, (2, 3)):
        assert list(ax.get_xticks()) == list(range(players))
        # One marker series with its interval per line-up, and the fair share dashed.
        assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 3
        fair = rates[rates["variant"].isin([ids[(players, n)] for n in ("heuristic", "trained", "strong")])]["fair"]
        assert _dashed_levels(ax) == pytest.approx(sorted(set(fair.round(9))))
        assert _dashed_levels(ax) == pytest.approx([1 / players])  # random play here ties no game
        # The plotted point of seat 0 of the heuristic line-up is its win share.
        heuristic = ax.containers[0]
        seat0 = rates[(rates["variant"] == ids[(players, "heuristic")]) & (rates["seat"] == 0)]
        assert heuristic.lines[0].get_ydata()[0] == pytest.approx(float(seat0["win_rate"].iloc[0]))
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend[:3] == ["heuristic", "trained", "strong"] and legend[3].startswith("fair share")
    # The text starts under the figure: no text line overlaps a panel.
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    lowest = min(ax.get_tightbbox(renderer).y0 for ax in panels)
    body = [t for t in fig.texts if t.get_gid() is None and t.get_text().strip()]
    assert body and all(t.get_window_extent(renderer).y1 < lowest for t in body)

    seen = {section for section, _, _ in kept["ticks"]}
    assert {"answer", "balance", "comparisons"} <= seen
    for section, title, texts in kept["ticks"]:
        if section in OWN_SECTIONS:
            assert not [t for t in texts if CODE.search(t)], (section, title)
    balance = next(texts for section, _, texts in kept["ticks"] if section == "balance")
    assert "2 players\nheuristic" in balance and "3 players\nstrong" in balance
    comparisons = [texts for section, title, texts in kept["ticks"] if section == "comparisons"]
    assert any("3 vs\n2 players\nheuristic" in texts for texts in comparisons)


def test_the_game_pages_plots_lose_their_codes_to_name_variant_axes(tmp_path):
    # The games' own pages label their ticks with codes; Report.add puts the words in their place (name_variant_axes).
    _crossed_sweep(tmp_path)
    ctx = Report(results=results.load(tmp_path), outdir=tmp_path)
    from trustme_analysis.games.pinocchio.analysis.pages import draw

    draw(ctx)
    names = axis_names(ctx)
    try:
        assert ctx.pages
        assert not [t for p in ctx.pages for t in _tick_texts(p.figure) if CODE.search(t)]
        # Ticks break the words over lines; legends keep them on one: some page names the variants in words.
        words = {n.replace(", ", "\n") for n in names.values()} | set(names.values())
        assert any(set(_tick_texts(p.figure)) & words for p in ctx.pages)
        # name_variant_axes itself replaces a code it finds.
        fig = ctx.pages[0].figure
        ax = fig.add_axes((0.1, 0.1, 0.2, 0.2))
        ax.set_xticks([0, 1], labels=list(names)[:2])
        name_variant_axes(fig, names)
        assert not [t for t in _tick_texts(fig) if CODE.search(t)]
    finally:
        close([p.figure for p in ctx.pages])


def test_axis_words_name_what_differs_between_variants():
    labels = {"v00": "players=2, lineup=heuristic", "v01": "players=3, lineup=trained",
              "v02": "players=3, lineup=heuristic"}
    assert axis_words(labels) == {"v00": "2 players, heuristic", "v01": "3 players, trained",
                                  "v02": "3 players, heuristic"}
    # No player-count grid: the changed rule parameter names each variant; the shared line-up is left out.
    rules = {"v00": "chart=1/3/6, lineup=trained", "v01": "chart=1/2/4, lineup=trained"}
    assert axis_words(rules) == {"v00": "chart 1/3/6", "v01": "chart 1/2/4"}
    # A variant alone keeps its whole label; a free-text label is kept in words.
    assert axis_words({"v00": "players=3, lineup=search_bot"}) == {"v00": "3 players, search bot"}
    assert axis_words({"v00": "park_size 2", "v01": "park_size 3"}) == {"v00": "park size 2", "v01": "park size 3"}
    assert pair_words(["trained", "3 players"], ["heuristic", "3 players"]) == "trained vs heuristic\n3 players"
    assert pair_words(["4 players"], ["3 players"]) == "4 vs 3 players"


def _rules_sweep(out):
    """Two rule variants of the same player count under one line-up: no player-count grid."""
    two = VARIANTS["v00"]
    write_sweep(out, {"v00": two, "v01": two.replace("chart=1/3/6/10", "chart=1/2/4/8")})
    manifest = json.loads(manifest_path(out).read_text())
    for v, chart in zip(manifest["variants"], ("1/3/6/10", "1/2/4/8")):
        v.update(label=f"chart={chart}, lineup=random", grid={"chart": chart})
    manifest_path(out).write_text(json.dumps(manifest))


def test_without_a_player_grid_each_rule_variant_gets_its_panel(tmp_path):
    _rules_sweep(tmp_path)
    ctx = Report(results=results.load(tmp_path), outdir=tmp_path)
    panels = front.seat_panels(ctx)
    assert [p["title"] for p in panels] == ["chart 1/3/6/10", "chart 1/2/4/8"]
    assert [[s["lineup"] for s in p["series"]] for p in panels] == [["random"], ["random"]]
    fig = new_page("t")
    try:
        front.draw_seat_figure(fig, panels)
        axes = [ax for ax in fig.axes if ax.get_title()]
        assert len(axes) == 2 and all(_dashed_levels(ax) == pytest.approx([0.5]) for ax in axes)
        assert not [t for t in _tick_texts(fig) if CODE.search(t)]
    finally:
        close([fig])


def test_no_seat_data_no_figure(monkeypatch):
    # A results set without seat win rates (or none at all): page 1 is its text alone, from the page's head.
    assert front.seat_panels(SimpleNamespace()) == []
    assert front.seat_panels(SimpleNamespace(results={}, variant_ids=["v00"])) == []
    monkeypatch.setattr(front, "headline_lines", lambda ctx, limit=front.FRONT_CHANGES: ["A finding."])
    monkeypatch.setattr(front, "coverage_lines", lambda ctx: [])
    monkeypatch.setattr(front, "_games_per_variant", lambda ctx: {"v00": 10})
    added = []
    ctx = SimpleNamespace(results={}, manifest={"question": "Q?", "game": "g", "seed": 1}, variant_ids=["v00"],
                          front_findings=[], game_title="T",
                          add_all=lambda figures, title, section: added.extend(figures))
    front.add_answer_page(ctx)
    try:
        assert len(added) == 1 and not added[0].axes and not added[0].legends
    finally:
        close(added)


def test_a_long_answer_draws_the_figure_lower_before_it_spills_onto_a_second_page(monkeypatch):
    drawn = []
    monkeypatch.setattr(front, "seat_panels", lambda ctx: [{"title": "2 players"}])
    monkeypatch.setattr(front, "draw_seat_figure", lambda fig, panels, rest=0, bottom=0.0: drawn.append(bottom))
    monkeypatch.setattr(front, "coverage_lines", lambda ctx: [])
    monkeypatch.setattr(front, "_games_per_variant", lambda ctx: {"v00": 10})

    def answer(sentences):
        monkeypatch.setattr(front, "headline_lines", lambda ctx, limit=front.FRONT_CHANGES: ["A finding."] * sentences)
        added = []
        ctx = SimpleNamespace(manifest={"question": "Q?", "game": "g", "seed": 1}, variant_ids=["v00"],
                              front_findings=[], game_title="T",
                              add_all=lambda figures, title, section: added.extend(figures))
        front.add_answer_page(ctx)
        close(added)
        return drawn[-1], len(added)

    normal, compact = (top + front._TICKS_ROOM for top in (front.FIGURE_TEXT_TOP, front.COMPACT_TEXT_TOP))
    runs = [answer(n) for n in range(10, 40)]
    bottoms = [b for b, _ in runs]
    # The usual figure while the text fits under it, then the lower one, which is kept once the text spills over.
    assert bottoms[0] == pytest.approx(normal) and bottoms[-1] == pytest.approx(compact)
    first_low = next(i for i, b in enumerate(bottoms) if b == pytest.approx(compact))
    assert all(b == pytest.approx(compact) for b in bottoms[first_low:])
    assert all(pages == 1 for b, pages in runs[:first_low]) and runs[first_low][1] == 1
    assert runs[-1][1] == 2
