"""Every bad input of ``python -m trustme_analysis.solve`` is one line on stderr with exit status 2 and writes
nothing (the model is ``tests/sweep/test_sweep_failures.py``)."""

from __future__ import annotations

import pytest
from failure_cases import assert_refused, read_only, write

from trustme_analysis.solve.__main__ import main


def spec(section: str = "", head: str = "") -> str:
    """A good solve spec (Kuhn poker, one iteration of DCFR), with changes."""
    return f'{head}[[solve]]\nname = "k"\ngame = "kuhn_poker"\niterations = 1\n{section}'


def plain(text: str | bytes, *extra: str):
    return lambda tmp: [write(tmp, text), "--out", str(tmp / "o"), *extra]


def case_under_a_file(tmp):
    (tmp / "afile").write_text("x")
    return [write(tmp, spec()), "--out", str(tmp / "afile" / "sub")]


def case_folder_spec(tmp):
    (tmp / "folder.toml").mkdir()
    return [str(tmp / "folder.toml")]


CASES = [
    ("spec missing", lambda tmp: [str(tmp / "nope.toml")], r"^error: spec file '.*nope\.toml' does not exist$"),
    ("spec is a folder", case_folder_spec, r"^error: spec file '.*folder\.toml' is a folder; give the path"),
    ("spec empty", plain(""), r"^error: solve: .*s\.toml has no \[\[solve\]\] section$"),
    ("spec not UTF-8", plain(b'title = "caf\xe9"\n'), r"^error: spec file '.*' is not UTF-8 text: byte 0xe9"),
    ("TOML syntax", plain("[[solve]\n"), r"^error: .*s\.toml is not valid TOML: "),
    ("key typo", plain(spec("iteratons = 3\n")), r"^error: solve\[0\]\.iteratons: unknown key; did you mean"),
    ("top-level typo", plain(spec(head="titel = 'x'\n")), r"^error: titel: unknown key; did you mean 'title'"),
    ("unknown game", plain(spec().replace("kuhn_poker", "kuhn_pokr")),
     r"^error: solve\[0\]\.game: unknown game 'kuhn_pokr'; did you mean 'kuhn_poker'.* OpenSpiel games: "
     r"`python -m cfr --list`\)$"),
    ("unknown parameter", plain(spec().replace('"kuhn_poker"', '"kuhn_poker(playerz=3)"')),
     r"^error: solve\[0\]\.game: game 'kuhn_poker\(playerz=3\)' cannot be loaded: Unknown parameter 'playerz'"),
    ("bad parameter value", plain(spec().replace('"kuhn_poker"', '"trustme_pinocchio(players=9)"')),
     r"^error: solve\[0\]\.game: game 'trustme_pinocchio\(players=9\)' cannot be loaded: .*players=9"),
    ("unknown algorithm", plain(spec('algorithm = "cfrr"\n')), r"^error: solve\[0\]\.algorithm: 'cfrr' is not"),
    ("iterations 0", plain(spec().replace("iterations = 1", "iterations = 0")),
     r"^error: solve\[0\]\.iterations: must be an integer > 0 and <= 10,000,000,000, got 0$"),
    ("iterations text", plain(spec().replace("iterations = 1", 'iterations = "1"')),
     r"^error: solve\[0\]\.iterations: must be an integer > 0 and <= 10,000,000,000, got '1'$"),
    ("time_limit inf", plain(spec("time_limit = inf\n")), r"^error: solve\[0\]\.time_limit: must be a number > 0 "
                                                          r"and <= 604,800, got inf$"),
    ("iterations too many", plain(spec().replace("iterations = 1", "iterations = 100_000_000_000")),
     r"^error: solve\[0\]\.iterations: must be an integer > 0 and <= 10,000,000,000, got 100000000000$"),
    ("target nan", plain(spec("target = nan\n")), r"^error: solve\[0\]\.target: must be a number >= 0, got nan$"),
    ("target 1", plain(spec("target = 1.0\n")), r"^error: solve\[0\]\.target: is a share of the utility range"),
    ("seed -1", plain(spec("seed = -1\n")),
     r"^error: solve\[0\]\.seed: must be an integer >= 0 and <= 9,223,372,036,854,775,807, got -1$"),
    ("name twice", plain(spec() + spec().replace("[[solve]]", "[[solve]]")),
     r"^error: solve\[1\]\.name: 'k' is used by two \[\[solve\]\] sections"),
    ("unknown bot", plain(spec('[solve.lineups.r]\nseats = ["randm"]\n')),
     r"^error: solve\[0\]\.lineups\.r\.seats\[0\]\.bot: unknown bot kind 'randm'; did you mean 'random'"),
    ("policy file missing", plain(spec('[solve.lineups.p]\nseats = [{bot = "policy", knobs = {policy = "no.json"}}]\n')),
     r"^error: solve\[0\]\.lineups\.p\.seats\[0\]\.knobs(\.policy)?: .*no\.json"),
    ("--only unknown", plain(spec(), "--only", "kk"), r"^error: --only: 'kk' is not a \[\[solve\]\] name; names: k$"),
    ("unknown option", plain(spec(), "--quite"), r"^error: unrecognized arguments: --quite \(see --help\)$"),
    ("--out empty", lambda tmp: [write(tmp, spec()), "--out", " "], r"^error: --out: must be a folder path, got an "),
    ("--out under a file", case_under_a_file,
     r"^error: output folder '.*afile/sub' cannot be created: '.*afile' is a file, not a folder$"),
]


@pytest.mark.parametrize("name, setup, pattern", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_one_line_with_exit_2_and_changes_nothing(name, setup, pattern, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    argv = [*setup(tmp_path), "--quiet"]
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)


def test_a_read_only_output_folder_is_refused_before_anything_is_solved(tmp_path, monkeypatch, capfd):
    locked = tmp_path / "locked"
    locked.mkdir()
    read_only(locked, monkeypatch)
    argv = [write(tmp_path, spec()), "--out", str(locked / "new")]
    assert_refused(lambda: main(argv), tmp_path, rf"^error: output folder '{locked}/new' cannot be created: "
                   rf"'{locked}' is not writable \(read-only or permission denied\)", capfd)
