"""Every bad input of ``python -m trustme_analysis.tune`` is one line on stderr with exit status 2, for a run and
for ``--check`` alike, and writes nothing (the model is ``tests/sweep/test_sweep_failures.py``)."""

from __future__ import annotations

import json

import pytest
from failure_cases import assert_refused, read_only, write

from trustme_analysis.tune.__main__ import main

GOOD = ('{head}game = "trustme_pinocchio"\n[lineups.r]\nseats = ["random"]\n[search]\n'
        'park_size = {{ low = 3, high = 5 }}\n[[objective]]\nname = "x"\ntable = "game_length"\n'
        'column = "turns_mean"\n{objective}\n{constraint}[budget]\ngames = 1000\ngames_per_candidate = 200\n{extra}')


def spec(objective: str = 'goal = "maximize"', constraint: str = "", extra: str = "", head: str = "") -> str:
    """A good tuning spec (a search of Pinocchio's park size by random players), with changes."""
    return GOOD.format(objective=objective, constraint=constraint, extra=extra, head=head)


def _constraint(bound: str) -> str:
    return f'[[constraint]]\nname = "c"\ntable = "game_length"\ncolumn = "turns_mean"\n{bound}\n'


def case_under_a_file(tmp):
    (tmp / "afile").write_text("x")
    return [write(tmp, spec()), "--out", str(tmp / "afile" / "sub")]


def case_out_is_a_file(tmp):
    (tmp / "afile").write_text("x")
    return [write(tmp, spec()), "--out", str(tmp / "afile")]


def case_folder_spec(tmp):
    (tmp / "folder.toml").mkdir()
    return [str(tmp / "folder.toml"), "--out", str(tmp / "o")]


def case_damaged_state(tmp):
    (tmp / "o").mkdir()
    (tmp / "o" / "tune.json").write_text('{"fingerprint": {')
    return [write(tmp, spec()), "--out", str(tmp / "o")]


def case_other_study(tmp):
    (tmp / "o").mkdir()
    (tmp / "o" / "tune.json").write_text(json.dumps({"fingerprint": {"game": "trustme_liar"}}))
    return [write(tmp, spec()), "--out", str(tmp / "o")]


def case_study_by_other_code(tmp):
    # The same tuning spec, its trials played by another version of the bots (as after an upgrade).
    from trustme_analysis.tune.spec import load_tune_spec

    path = write(tmp, spec())
    fingerprint = load_tune_spec(path).study_fingerprint()
    fingerprint["code"] = {**fingerprint["code"], "players/search.py": "0" * 16}
    (tmp / "o").mkdir()
    (tmp / "o" / "tune.json").write_text(json.dumps({"fingerprint": fingerprint}))
    return [path, "--out", str(tmp / "o")]


def plain(text: str):
    return lambda tmp: [write(tmp, text), "--out", str(tmp / "o")]


def args(*extra: str):
    return lambda tmp: [write(tmp, spec()), "--out", str(tmp / "o"), *extra]


CASES = [
    # (case id, setup(tmp) -> arguments, pattern searched in the one line)
    ("spec missing", lambda tmp: [str(tmp / "nope.toml")], r"^error: spec file '.*nope\.toml' does not exist$"),
    ("spec is a folder", case_folder_spec, r"^error: spec file '.*folder\.toml' is a folder; give the path"),
    ("spec empty", plain(""), r"^error: game: missing \(required\)$"),
    ("spec not UTF-8", lambda tmp: [write(tmp, b'title = "caf\xe9"\n' + spec().encode()), "--out", str(tmp / "o")],
     r"^error: spec file '.*s\.toml' is not UTF-8 text: byte 0xe9 at line 1, column 13; save it as UTF-8$"),
    ("spec binary", plain(b"\x00\x01game"), r"^error: spec file '.*' is a binary file"),
    ("TOML syntax", plain("game = \n"), r"^error: .*s\.toml is not valid TOML: "),
    ("key typo", plain(spec(head="sed = 3\n")), r"^error: sed: unknown key; did you mean 'seed'\?"),
    ("unknown game", plain(spec().replace("trustme_pinocchio", "trustme_pinochio")),
     r"^error: game: unknown game 'trustme_pinochio'; did you mean 'trustme_pinocchio'"),
    ("unknown parameter", plain(spec(extra="[params]\nparksize = 3\n")),
     r"^error: params\.parksize: trustme_pinocchio has no parameter 'parksize'; did you mean 'park_size'"),
    ("wrong type", plain(spec().replace("games = 1000", 'games = "many"')),
     r"^error: budget\.games: must be an integer, got 'many'$"),
    ("target nan", plain(spec(objective="target = nan")),
     r"^error: objective\[0\]\.target: must be a finite number, got nan$"),
    ("target inf", plain(spec(objective="target = inf")),
     r"^error: objective\[0\]\.target: must be a finite number, got inf$"),
    ("at_most nan", plain(spec(constraint=_constraint("at_most = nan"))),
     r"^error: constraint\[0\]\.at_most: must be a finite number, got nan$"),
    ("range -inf", plain(spec(constraint=_constraint("range = [-inf, 40]"))),
     r"^error: constraint\[0\]\.range\[0\]: must be a finite number, got -inf$"),
    ("confirm games absurd", plain(spec(extra="[confirm]\ngames = 1000000000000\n")),
     r"^error: confirm\.games: must be an integer from 1 to 100,000,000, got 1000000000000$"),
    ("confirm games 0", plain(spec(extra="[confirm]\ngames = 0\n")),
     r"^error: confirm\.games: must be an integer from 1 to 100,000,000, got 0$"),
    ("budget games -1", plain(spec().replace("games = 1000", "games = -1")),
     r"^error: budget\.games: must be an integer from 1 to 100,000,000, got -1$"),
    ("unknown bot", plain(spec().replace('seats = ["random"]', 'seats = ["randm"]')),
     r"^error: lineups\.r\.seats\[0\]\.bot: unknown bot kind 'randm'; did you mean 'random'"),
    ("bot knob typo", plain(spec().replace('seats = ["random"]', 'seats = [{bot = "search", knobs = {budjet = 5}}]')),
     r"^error: lineups\.r\.seats\[0\]\.knobs\.budjet: unknown knob\(s\) \['budjet'\] for the search bot"),
    ("search range of text", plain(spec().replace("park_size = { low = 3, high = 5 }",
                                                  "voting = { low = 3, high = 5 }")),
     r"^error: search\.voting: a range needs a numeric rule"),
    ("budget games too many", plain(spec().replace("games = 1000", "games = 1_000_000_000")),
     r"^error: budget\.games: must be an integer from 1 to 100,000,000, got 1000000000$"),
    ("--budget abc", args("--budget", "abc"), r"^error: argument --budget: must be an integer from 1 to 100,000,000, got 'abc' \(see"),
    ("--budget 0", args("--budget", "0"), r"^error: argument --budget: must be an integer from 1 to 100,000,000, got 0 \(see --help\)$"),
    ("--workers 0", args("--workers", "0"), r"^error: argument --workers: must be an integer >= 1, got 0 \(see"),
    ("unknown option", args("--bugdet", "5"), r"^error: unrecognized arguments: --bugdet 5 \(see --help\)$"),
    ("--out empty", lambda tmp: [write(tmp, spec()), "--out", ""],
     r"^error: --out: must be a folder path, got an empty string$"),
    ("--out under a file", case_under_a_file,
     r"^error: output folder '.*afile/sub' cannot be created: '.*afile' is a file, not a folder$"),
    ("--out is a file", case_out_is_a_file, r"^error: output folder '.*afile' exists and is not a folder$"),
    ("--dask not a url", args("--dask", "not a url"),
     r"^error: --dask: 'not a url' is not a Dask scheduler address; allowed: 'local'"),
    ("tune.json damaged", case_damaged_state, r"^error: .*o/tune\.json is damaged \(.*\); it records which tuning"),
    ("study by other code", case_study_by_other_code,
     r"^error: .*o holds a study whose trials were played by other code than this installation's \(changed since: "
     r"players/search\.py\); choose another --out"),
    ("another study", case_other_study, r"^error: .*o holds a study made from a different tuning spec \(differs in: "),
]


@pytest.mark.parametrize("check", [False, True], ids=["run", "--check"])
@pytest.mark.parametrize("name, setup, pattern", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_one_line_with_exit_2_and_changes_nothing(name, setup, pattern, check, tmp_path, monkeypatch,
                                                                 capfd):
    monkeypatch.chdir(tmp_path)  # a run that wrongly wrote into the current folder would show in the snapshot
    argv = [*setup(tmp_path), "--workers", "1", "--quiet", *(["--check"] if check else [])]
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)


@pytest.mark.parametrize("check", [False, True], ids=["run", "--check"])
@pytest.mark.parametrize("where", ["folder", "parent", "lock file"])
def test_a_read_only_output_folder_is_refused_before_anything_is_written(where, check, tmp_path, monkeypatch, capfd):
    locked = tmp_path / "locked"
    locked.mkdir()
    target = {"folder": locked, "parent": locked / "new", "lock file": locked}[where]
    if where == "lock file":  # a study folder whose lock file cannot be written
        (locked / "tune.json").write_text(json.dumps({"fingerprint": {}}))
        (locked / "tune.lock").write_text("")
        read_only(locked / "tune.lock", monkeypatch)
        pattern = r"^error: .*locked/tune\.lock is not writable \(read-only or permission denied\)"
    else:
        read_only(locked, monkeypatch)
        pattern = (rf"^error: output folder '{target}' (is not writable|cannot be created: '{locked}' is not "
                   r"writable) \(read-only or permission denied\)")
    argv = [write(tmp_path, spec()), "--out", str(target), "--quiet", *(["--check"] if check else [])]
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)
