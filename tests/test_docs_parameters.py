"""The game pages' parameter tables against the engines' parameter tables.

Each page in ``docs/games/`` has a list-table of rule parameters with their defaults, either a "Parameter (default)"
column whose cells read ``name`` (default, ...) or a table with "Parameter" and "Default" columns. For every
registered game with a page, every parameter of ``get_type().parameter_specification`` must be on the page with the
engine's default, and the page may name no parameter the engine lacks. Where an assumption bullet states a default
(``- ``name`` (``value``)`` or ``- **name** (default ``value``)``) it must be the engine's too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "games"

#: game -> (page, the section that holds its parameter table).
PAGES = {
    "trustme_pinocchio": ("pinocchio.rst", "Rule to code and parameter"),
    "trustme_liar": ("liar.rst", "Rule to code and parameter"),
    "trustme_1981": ("board1981.rst", "Rule to code and parameter"),
    "trustme_1981_investment": ("board1981.rst", "The investing round alone"),
}

#: game -> (page, the section whose bullets state defaults).
ASSUMPTIONS = {
    "trustme_pinocchio": ("pinocchio.rst", "Assumptions"),
    "trustme_liar": ("liar.rst", "Assumptions"),
    "trustme_1981": ("board1981.rst", "Assumptions"),
}


def _sections(text: str) -> dict[str, list[str]]:
    """Section title -> its lines, for the titles underlined with ``-`` (the pages' second level)."""
    lines = text.splitlines()
    out: dict[str, list[str]] = {}
    current = None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and line.strip() and re.fullmatch(r"-{3,}", lines[i + 1]) \
                and len(lines[i + 1]) >= len(line.rstrip()):
            current = line.strip()
            out[current] = []
            continue
        if current is not None:
            out[current].append(line)
    return out


def _list_tables(lines: list[str]) -> list[list[list[str]]]:
    """The list-tables among ``lines``: rows of cells, each cell's lines joined by spaces."""
    tables = []
    i = 0
    while i < len(lines):
        if lines[i].strip().startswith(".. list-table::"):
            rows: list[list[str]] = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                s = lines[i].strip()
                if s.startswith("* - "):
                    rows.append([s[4:]])
                elif s.startswith("- ") and rows:
                    rows[-1].append(s[2:])
                elif s and rows and not s.startswith(":"):
                    rows[-1][-1] += " " + s
                i += 1
            tables.append(rows)
        else:
            i += 1
    return tables


def _value(text: str) -> str:
    """A default as written on a page, normalised: no backticks or quotes, ``true``/``false`` capitalised."""
    v = text.strip().strip("`").strip("'\"").strip()
    return {"true": "True", "false": "False"}.get(v.lower(), v)


def _engine_value(value) -> str:
    return _value(str(value))


#: ``name`` (default...) in a "Parameter (default)" cell; words may stand between the name and the parenthesis
#: (``payoff_mix`` one/two/empty/had (``6/4/4/2``, ...)).
PARAM = re.compile(r"``(\w+)``[\w/ ]*?\s*\((?!default\b)([^();,:]+)")


def page_parameters(game: str) -> dict[str, str]:
    """Parameter -> default as the page's table for ``game`` gives it."""
    page, section = PAGES[game]
    lines = _sections((DOCS / page).read_text())[section]
    found: dict[str, str] = {}
    for rows in _list_tables(lines):
        header = [h.lower() for h in rows[0]]
        if "parameter (default)" in header:
            col = header.index("parameter (default)")
            for row in rows[1:]:
                for name, default in PARAM.findall(row[col]):
                    found.setdefault(name, _value(default))
        elif "parameter" in header and "default" in header:
            pc, dc = header.index("parameter"), header.index("default")
            for row in rows[1:]:
                name = row[pc].strip().strip("`")
                found[name] = _value(re.split(r"[;,(]", row[dc])[0])
    return found


@pytest.mark.parametrize("game", sorted(PAGES))
def test_the_page_gives_every_parameter_with_the_engines_default(game):
    spec = pyspiel.load_game(game).get_type().parameter_specification
    page = PAGES[game][0]
    on_page = page_parameters(game)
    assert on_page, f"docs/games/{page}: no parameter table found for {game}"
    problems = []
    for name, value in sorted(spec.items()):
        if name not in on_page:
            problems.append(f"{name}: missing (engine default {_engine_value(value)!r})")
        elif on_page[name] != _engine_value(value):
            problems.append(f"{name}: page {on_page[name]!r}, engine {_engine_value(value)!r}")
    for name in sorted(set(on_page) - set(spec)):
        problems.append(f"{name}: on the page ({on_page[name]!r}) but not a parameter of {game}")
    assert not problems, f"docs/games/{page}, {game}:\n  " + "\n  ".join(problems)


#: An assumption bullet that opens with a parameter and its default: ``- ``name`` (``value``...`` or
#: ``- **name** (default ``value``...``.
BULLET = re.compile(r"^- (?:``(\w+)``|\*\*(\w+)\*\*) \((?:default )?``([^`]+)``")


@pytest.mark.parametrize("game", sorted(ASSUMPTIONS))
def test_the_assumptions_state_the_engines_defaults(game):
    spec = pyspiel.load_game(game).get_type().parameter_specification
    page, section = ASSUMPTIONS[game]
    lines = _sections((DOCS / page).read_text())[section]
    stated = {}
    for line in lines:
        m = BULLET.match(line)
        if m:
            stated[m.group(1) or m.group(2)] = _value(m.group(3))
    params = {k: v for k, v in stated.items() if k in spec}
    assert len(params) >= 3, f"docs/games/{page}: too few assumption bullets state a default ({stated})"
    wrong = [f"{k}: page {v!r}, engine {_engine_value(spec[k])!r}" for k, v in sorted(params.items())
             if v != _engine_value(spec[k])]
    assert not wrong, f"docs/games/{page}, Assumptions of {game}:\n  " + "\n  ".join(wrong)


def test_the_parser_reads_both_table_forms():
    text = "\n".join([
        "T", "---", "",
        ".. list-table::", "   :header-rows: 1", "",
        "   * - Rule", "     - Parameter (default)",
        "   * - x", "     - ``a`` (``1/2``; ``3``), ``b`` words (``True``,", "       assumption)",
        "   * - y", "     - -- (fixed reading ``c``)",
        "", ".. list-table::", "   :header-rows: 1", "",
        "   * - Parameter", "     - Default", "     - Meaning",
        "   * - ``d``", "     - 2", "     - players",
    ])
    rows = _list_tables(_sections(text)["T"])
    assert rows[0][1] == ["x", "``a`` (``1/2``; ``3``), ``b`` words (``True``, assumption)"]
    assert PARAM.findall(rows[0][1][1]) == [("a", "``1/2``"), ("b", "``True``")]
    assert PARAM.findall(rows[0][2][1]) == []
    assert rows[1][1] == ["``d``", "2", "players"]
