"""A sweep spec's game parameters load in every form the docs allow, and its ``[trust]``, ``[skill]`` and
``[params]`` refusals come when the spec is read (``--check`` too), in one line at the key the spec writes, before
anything is played or written."""

from __future__ import annotations

import json
import tomllib

import pyspiel
import pytest
from failure_cases import assert_refused, write

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.params import LIST_SEPARATOR
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.spec import parse_spec

GAMES = ["trustme_1981", "trustme_1981_investment", "trustme_liar", "trustme_pinocchio"]


def toml_value(value) -> str:
    """``value`` as TOML writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value) if isinstance(value, str) else str(value)


def int_list(text: str) -> list[int] | None:
    """A ``/``-joined list of integers as a list (``None``: the text is not one)."""
    parts = [p for p in text.split(LIST_SEPARATOR) if p.strip()]
    try:
        return [int(p) for p in parts] if parts else None
    except ValueError:
        return None


def forms(game: str, name: str, default) -> list[tuple[str, object]]:
    """Every form the docs allow for the parameter ``name`` whose default is ``default``: the game's own type; for a
    list-valued rule number, the ``/``-joined text, a TOML list, and a list of one written as a bare number in text
    (``"6"``), as ``"6/"`` and as ``[6]`` (when the game takes a list of one)."""
    if isinstance(default, str) and not default:
        # Empty means "not set" (e.g. money_each: the same money for every seat); a per-seat list is its other form.
        loaded = pyspiel.load_game(game)
        base = loaded.get_type().parameter_specification.get(name.removesuffix("_each"))
        out = [("as the game types it", default)]
        if isinstance(base, int) and name.endswith("_each"):
            seats = [base] * loaded.num_players()
            out += [("per-seat joined text", LIST_SEPARATOR.join(map(str, seats))), ("per-seat TOML list", seats)]
        return out
    if not isinstance(default, str) or int_list(default) is None:
        return [("as the game types it", default)]
    values = int_list(default)
    out = [("joined text", default), ("TOML list", values)]
    for one in dict.fromkeys([values[-1], values[0]]):
        try:
            pyspiel.load_game(game, {name: f"{one}{LIST_SEPARATOR}"})
        except Exception:  # noqa: BLE001  (this game needs more than one number here)
            continue
        out += [("one number as text", str(one)), ("one number as text with /", f"{one}/"), ("list of one", [one])]
        break
    return out


CASES = [(game, name, label, value)
         for game in GAMES
         for name, default in sorted(pyspiel.load_game(game).get_type().parameter_specification.items())
         for label, value in forms(game, name, default)]


@pytest.mark.parametrize("game, name, label, value", CASES, ids=[f"{g}.{n}: {lbl}" for g, n, lbl, _ in CASES])
def test_every_game_parameter_loads_from_a_spec_in_every_form(game, name, label, value):
    for table in ("params", "grid"):
        text = toml_value(value if table == "params" else [value])
        spec = parse_spec(tomllib.loads(f'game = "{game}"\ngames = 1\n[{table}]\n{name} = {text}\n'))
        variant = spec.variants[0]
        # The variant's game string is what the workers load: it must read back as the same game.
        again = pyspiel.load_game(variant.game_string)
        assert str(again) == variant.game_string
        stored = again.get_parameters()[name]
        if isinstance(value, (list, str)) and int_list(str(stored)) is not None:
            wanted = value if isinstance(value, list) else int_list(value)
            assert int_list(str(stored)) == wanted, (table, stored)
        else:
            assert stored == value, (table, stored)


BASE = 'game = "trustme_pinocchio"\ngames = 2\n[params]\nplayers = 2\n[lineups.h]\nseats = ["heuristic"]\n'


def sweep(text: str) -> str:
    return BASE + text


BAD = [
    # (case id, spec text, pattern searched in the one line)
    ("trust search budget 0", sweep("[trust]\nsearch = { budget = 0 }\n"),
     r"^error: trust\.search\.budget: search bot knob budget=0 is not allowed; allowed: an integer from 1 to 1,000,000$"),
    ("trust search knob typo", sweep("[trust]\nsearch = { budjet = 20 }\n"),
     r"^error: trust\.search\.budjet: unknown knob\(s\) \['budjet'\] for the search bot; valid knobs: budget"),
    ("trust search rollout unknown", sweep('[trust]\nsearch = { rollout = "nonsense" }\n'),
     r"^error: trust\.search\.rollout: unknown bot kind 'nonsense'"),
    ("trust search not a table", sweep("[trust]\nsearch = 3\n"),
     r"^error: trust\.search: must be a table of search-player knobs or false, got 3$"),
    ("trust games 0", sweep("[trust]\ngames = 0\n"), r"^error: trust\.games: must be an integer from 1 to 1,000,000, got 0$"),
    ("trust games too many", sweep("[trust]\ngames = 10_000_000\n"),
     r"^error: trust\.games: must be an integer from 1 to 1,000,000, got 10000000$"),
    ("trust key typo", sweep("[trust]\nprobe = 'all'\n"), r"^error: trust\.probe: unknown key; did you mean "),
    ("trust unknown line-up", sweep("[trust]\nlineups = ['hh']\n"), r"^error: trust\.lineups: unknown line-up 'hh'"),
    ("trust unknown probe", sweep("[trust]\nprobes = ['never']\n"), r"^error: trust\.probes: 'never' is not "),
    ("skill rollout unknown", sweep('[skill]\nknobs = { rollout = "nonsense" }\n'),
     r"^error: skill\.knobs\.rollout: unknown bot kind 'nonsense'"),
    ("skill knob typo", sweep("[skill]\nknobs = { belif = 1 }\n"),
     r"^error: skill\.knobs\.belif: unknown knob\(s\) \['belif'\] for the search bot"),
    ("skill budget in knobs", sweep("[skill]\nknobs = { budget = 5 }\n"),
     r"^error: skill\.knobs\.budget: is set by skill\.budgets; remove it from the knobs$"),
    ("skill one budget", sweep("[skill]\nbudgets = [5]\n"),
     r"^error: skill\.budgets: must be at least two increasing integers from 1 to 1,000,000, got \[5\]$"),
    ("skill games -1", sweep("[skill]\ngames = -1\n"), r"^error: skill\.games: must be an integer from 1 to 1,000,000, got -1$"),
    ("param text for an integer", sweep("").replace("players = 2", 'players = "2"'),
     r"^error: params\.players: must be an integer, got '2'$"),
    ("param out of range", sweep("").replace("players = 2", "players = 9"),
     r"^error: params\.players: trustme_pinocchio: parameter players=9 is not allowed; allowed: "),
    ("param unknown", sweep("").replace("players = 2", "player = 2"),
     r"^error: params\.player: trustme_pinocchio has no parameter 'player'; did you mean 'players'"),
    ("param text read as a boolean", sweep("").replace("players = 2", 'voting = "true"'),
     r"^error: params\.voting: 'true' is not allowed; allowed: text the game string keeps as text"),
    ("param text read as a number", sweep("").replace("players = 2", 'chart = "1.5"'),
     r"^error: params\.chart: '1\.5' is not allowed; allowed: text the game string keeps as text"),
    ("param list of text", sweep("").replace("players = 2", 'chart = ["1", "3"]'),
     r"^error: params\.chart: must be a string or a non-empty list of integers"),
    ("param empty list", sweep("").replace("players = 2", "chart = []"),
     r"^error: params\.chart: must be a string or a non-empty list of integers"),
    ("param list refused by the game", sweep("").replace("players = 2", "chart = [1, 3, -6]"),
     r"^error: params\.chart: trustme_pinocchio: parameter chart='1/3/-6/' is not allowed|"
     r"^error: params\.chart: trustme_pinocchio: parameter chart='1/3/-6' is not allowed"),
    ("policy file missing", sweep('[lineups.p]\nseats = [{bot = "policy", knobs = {policy = "no.json"}}]\n'),
     r"^error: policy seat policy = 'no\.json': no stored policy at 'no\.json'; run the solve first"),
    ("grid one value in two forms", 'game = "trustme_1981"\ngames = 2\n[grid]\nbamboozled = ["6", [6]]\n',
     r"^error: grid\.bamboozled: lists the same value twice: 6/$"),
]


@pytest.mark.parametrize("check", [False, True], ids=["run", "--check"])
@pytest.mark.parametrize("name, text, pattern", BAD, ids=[c[0] for c in BAD])
def test_a_bad_section_is_one_line_with_exit_2_and_writes_nothing(name, text, pattern, check, tmp_path, monkeypatch,
                                                                  capfd):
    monkeypatch.chdir(tmp_path)
    argv = [write(tmp_path, text), "--out", str(tmp_path / "o"), "--workers", "1", "--no-report",
            *(["--check"] if check else [])]
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)
