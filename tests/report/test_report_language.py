"""The report speaks a designer's language: text read back out of generated PDFs has no code-style names and no raw
information-state strings, every page that shows an undefined figure says so, a partial folder says what is missing
and what is compared with what, and the PDF has a contents page and an outline (bookmarks)."""

from __future__ import annotations

import json
import re

import pytest
import test_report_build
from pypdf import PdfReader
from test_report_build import VARIANTS, write_sweep

from trustme_analysis.outdir import manifest_path
from trustme_analysis.report import build_report
from trustme_analysis.report.solve_pages import build_solve_report
from trustme_analysis.report.words import DASH, UNDEFINED_NOTE, estimate, number, percent
from trustme_analysis.solve import storage
from trustme_analysis.solve.run import run_solve
from trustme_analysis.solve.spec import parse_solve

#: Game names may keep their underscores: they are what a spec writes to load a game.
GAME_NAME = re.compile(r"^trustme_[a-z0-9_]+$")
#: A code-style name: letters and digits joined by underscores.
SNAKE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")
#: Pieces of the games' raw information-state strings (Pinocchio, Liar, 1981 investing round).
RAW_STATE = re.compile(r"\bp\d\||\bhand\d\+|\bdraw\d:|\bdealt:\d|\bhand:\d|\bcard:[?a-z]|\bseen:\d|\bmoney:\d|"
                       r"\bshares:\d|\breserve:\d|\bdecisions:\d")

TINY = {
    "pinocchio": ("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,"
                  "chart=1/3,runouts_to_end=1)"),
    "investment": ("trustme_1981_investment(players=2,payoff_mix=1/1/0/1,seen_each=0/50,money=2,shares=2,lots=1/2,"
                   "utility=wealth_diff)"),
    "liar_tiny": "trustme_liar(players=2,values=2,copies=2,max_play=1,max_turns=4)",
}


def _texts(pdf) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def code_names(text: str) -> list[str]:
    """Code-style names in ``text``, leaving out game names and file names (``stats/x_y.csv``, a solution folder)."""
    found = []
    for m in SNAKE.finditer(text):
        name = m.group(0)
        before, after = text[max(0, m.start() - 1) : m.start()], text[m.end() : m.end() + 6]
        in_path = before == "/" or after.startswith("/") or re.match(r"\.(csv|json|pdf|parquet|toml)\b", after)
        if not GAME_NAME.match(name) and not in_path:
            found.append(name)
    return found


def _outline_titles(reader: PdfReader) -> list[tuple[int, str, int]]:
    out = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                out.append((depth, item.title, reader.get_destination_page_number(item)))

    walk(reader.outline, 0)
    return out


@pytest.fixture(scope="module")
def solved_sweep(tmp_path_factory):
    """A small Pinocchio sweep with three tiny solved variants (one per game) in its folder, and its report."""
    out = tmp_path_factory.mktemp("language") / "sweep"
    write_sweep(out, VARIANTS)
    for order, (name, game) in enumerate(TINY.items()):
        spec = parse_solve({"name": name, "game": game, "algorithm": "dcfr", "iterations": 60, "eval_every": 20,
                            "lineups": {"heuristic": {"seats": ["heuristic"]}}})
        run_solve(spec, out, quiet=True, extra={"order": order})
    return out, build_report(out)


def test_pdf_text_has_no_code_names_nor_raw_information_states(solved_sweep):
    out, pdf = solved_sweep
    pages = _texts(pdf)
    solo = _texts(build_solve_report(out))
    assert len(pages) > 20 and len(solo) > 10
    raw_states = set()
    for folder in storage.solutions(out):
        sol = storage.load_solution(folder)
        raw_states |= set(sol["decisions"]["info_state"])
        for table in sol["best_response"].values():
            raw_states |= set(table["info_state"])
        # The stored tables carry the situations in the game's words beside the strings.
        assert sol["decisions"]["situation"].str.len().gt(0).all()
    assert len(raw_states) > 20
    for number_, text in enumerate(pages + solo, start=1):
        assert code_names(text) == [], (number_, code_names(text), text[:200])
        assert not RAW_STATE.search(text), (number_, RAW_STATE.search(text).group(0), text[:200])
        assert not [s for s in raw_states if len(s) > 12 and " ".join(s.split()) in text]
        assert not re.search(r"\bnan\b|\bNone\b", text), (number_, text[:200])
    every = " ".join(pages)
    # What the best response does, in the game's words.
    assert "investor (seat 1), has not looked" in every or "claimant (seat 0), has not looked" in every
    assert "tell a tall tale" in every or "tell a true tale" in every
    assert "call liar" in every or "play a " in every


def test_pdf_has_contents_outline_findings_and_glossary(solved_sweep):
    out, pdf = solved_sweep
    reader = PdfReader(pdf)
    pages = _texts(pdf)
    outline = _outline_titles(reader)
    top = [title for depth, title, _ in outline if depth == 0]
    assert top[:3] == ["The answer", "Contents", "What changed most"]
    for section in ("Seat balance", "Pinocchio: the game's pages", "Solved variants", "Glossary",
                    "One factor at a time: every comparison", "What was run and the rule assumptions"):
        assert section in top
    # A bookmark per solved variant and per variant described, each opening the page that holds it.
    titled = {title: page for _, title, page in outline}
    for name in ("pinocchio", "investment", "liar tiny"):
        assert f"Solved variant {name}" in pages[titled[f"Solved variant {name}"]]
    assert "v00: 2 players" in titled and "v01: 3 players" in titled
    assert "v01: 3 players, line-up random" in pages[titled["v01: 3 players"]]
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"
    # Page 2 is the contents: each section with the page it starts on.
    assert pages[1].startswith("Contents") and f"Glossary {titled['Glossary'] + 1}" in pages[1]
    # Findings first: the answer repeats the sections' findings; a game page opens with sentences with intervals.
    assert "From the pages that follow" in pages[0] and "Solved variant" in pages[0]
    scores = pages[titled["Scores"]]
    assert re.search(r"mean final score per seat is lowest in v0\d \(\d players\): [\d.]+ points \[", scores)
    # Codes like v00 are explained on every page that uses them.
    for text in pages:
        if re.search(r"\bv0[01]\b", text):
            assert "v00 = 2 players" in text or "v00: 2 players" in text or "v00 (2 players)" in text, text[:150]
    glossary = " ".join(p for p in pages if p.startswith("Glossary"))
    for term in ("Balance:", "Drama:", "Exploitability:", "NashConv:", "Best response:", "Probes:", "Skill trace:"):
        assert term in glossary


def test_undefined_figures_print_a_dash_with_its_note(tmp_path, monkeypatch):
    # One game per variant: shares of no games (a stack that never ran out, a second game) are undefined.
    monkeypatch.setattr(test_report_build, "GAMES", 1)
    write_sweep(tmp_path, VARIANTS)
    pages = _texts(build_report(tmp_path))
    every = " ".join(pages)
    assert "nan" not in every.lower().replace("nanc", "")
    assert DASH in every
    for text in pages:
        if DASH in text.replace(f"{DASH} :", ""):
            assert UNDEFINED_NOTE.split(" (")[0] in text, text[:150]


def test_a_partial_folder_says_what_is_missing_and_what_is_compared(tmp_path):
    variants = dict(VARIANTS)
    variants["v02"] = VARIANTS["v01"].replace("players=3", "players=4")
    write_sweep(tmp_path, variants, baseline="v01")
    manifest = json.loads(manifest_path(tmp_path).read_text())
    # The spec asked for a fourth variant that never played, the baseline's records are gone, the run never ended.
    manifest["variants"].append({**manifest["variants"][0], "id": "v03", "label": "players=5, lineup=random"})
    manifest["complete"] = False
    manifest["timing"].update({"finished": None, "games_per_second": None, "seconds": None})
    manifest_path(tmp_path).write_text(json.dumps(manifest))
    for chunk in (tmp_path / "records" / "v01").glob("*.parquet"):
        chunk.unlink()
    pages = _texts(build_report(tmp_path))
    first, every = pages[0], " ".join(pages)
    assert "The sweep is NOT complete" in first
    assert "2 of 4 variants have no records in this folder" in first
    assert "v01 (3 players, line-up random)" in first and "v03 (5 players, line-up random)" in first
    assert "The spec's baseline v01 has no records in this folder, so every comparison in this report is with v00" \
        in first
    assert "None" not in every and "games a second" not in every
    front = next(p for p in pages if "what was run" in p[:80])
    assert "not finished" in front and "v03: 5 players, line-up random" in front
    assert "no records in this folder" in front
    comparisons = next(p for p in pages[2:] if "The rules, one at a time: differences" in p)
    assert "The spec's baseline v01 has no records" in comparisons


@pytest.mark.parametrize("value, text", [(0.927, "93%"), (0.0043, "0.4%"), (0.99996, ">99.9%"), (1.0, "100%"),
                                         (0.0, "0%"), (float("nan"), DASH)])
def test_shares_are_percentages(value, text):
    assert percent(value) == text


@pytest.mark.parametrize("value, text", [(19.06, "19.1"), (0.0079449, "0.00794"), (-7.188, "-7.19"),
                                         (12345.6, "12,346"), (14.0, "14.0"), (float("nan"), DASH)])
def test_numbers_have_three_significant_digits(value, text):
    assert number(value) == text


def test_a_difference_of_shares_is_in_points_and_an_interval_is_bracketed():
    assert estimate(0.022, -0.021, 0.066, "share of games", signed=True) == "+2 pp [-2 pp, +7 pp]"
    assert estimate(0.54, 0.51, 0.57, "share of games") == "54% [51%, 57%]"
    assert estimate(float("nan"), 0.1, 0.2, "points") == DASH


@pytest.mark.parametrize("value, low, high, text", [
    (0.2, 0.00796, 0.392, "0.200 [0.008, 0.392]"),  # (the skill-vs-luck line printed "[0.00796, 0.392]")
    (19.12, 14.3, 25.77, "19.1 [14.3, 25.8]"),
    (1234.0, 1100.4, 1399.2, "1,234 [1,100, 1,399]"),
    (-7.188, -12.04, -2.5, "-7.19 [-12.04, -2.50]"),
    (0.054, 0.0049, 0.1031, "0.0540 [0.0049, 0.1031]"),
])
def test_an_interval_takes_the_precision_of_its_estimate(value, low, high, text):
    """One number style for the report: an estimate's three significant digits set the decimals of its interval's
    ends, so a value and its bounds never print in mixed precision."""
    assert estimate(value, low, high) == text
    places = {len(part.split(".")[1]) if "." in part else 0
              for part in text.replace("[", "").replace("]", "").replace(",", " ").split() if part[-1].isdigit()
              and "." in part}
    assert len(places) <= 1


def test_the_solve_page_says_who_built_the_tree():
    from trustme_analysis.report.solve_pages import _built_by
    from trustme_analysis.solve.run import ENGINE_PRODUCER

    assert _built_by({"compiled_by": "Liar kernel (numba)"}) == " by the Liar kernel (numba)"
    assert _built_by({"compiled_by": ENGINE_PRODUCER}) == " by walking the game through its Python API"
    assert _built_by({}) == ""  # a result stored before the solve recorded its producer
