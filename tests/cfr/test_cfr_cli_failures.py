"""Every bad input of ``python -m cfr`` is one line on stderr with exit status 2 and writes nothing; ``--list``
lists the games an unknown name's message points to (the model is ``tests/sweep/test_sweep_failures.py``)."""

from __future__ import annotations

import pyspiel
import pytest
from failure_cases import assert_refused, read_only

from cfr.__main__ import main


def _a_file(tmp, *rest):
    (tmp / "afile").write_text("x")
    return str(tmp.joinpath("afile", *rest))


def _checkpoint(tmp):
    """A checkpoint of Kuhn poker (two iterations), written before the snapshot."""
    path = tmp / "kuhn.ckpt"
    assert main(["kuhn_poker", "-n", "2", "--checkpoint", str(path)]) == 0
    return str(path)


def _damaged_checkpoint(tmp):
    path = _checkpoint(tmp)
    data = open(path, "rb").read()
    open(path, "wb").write(data[: len(data) // 2])
    return path


K = "kuhn_poker"
CASES = [
    # (case id, setup(tmp) -> arguments, pattern searched in the one line)
    ("no game", lambda tmp: [], r"^error: the game is required \(a game string such as kuhn_poker; "
                                r"--list lists them\) \(see --help\)$"),
    ("unknown game", lambda tmp: ["kuhn_pokr"], r"^error: unknown game 'kuhn_pokr'; did you mean "
                                                r"'kuhn_poker'.* OpenSpiel games: `python -m cfr --list`\)$"),
    ("unknown parameter", lambda tmp: ["kuhn_poker(playerz=3)"],
     r"^error: game 'kuhn_poker\(playerz=3\)' cannot be loaded: Unknown parameter 'playerz'"),
    ("game string syntax", lambda tmp: ["kuhn_poker(players=3"], r"^error: game 'kuhn_poker\(players=3' "
                                                                 r"cannot be loaded: "),
    ("unknown algorithm", lambda tmp: [K, "-a", "cfrr"], r"^error: argument --algorithm/-a: invalid "
                                                         r"choice: 'cfrr' \(choose from .*'cfr+'"),
    ("--iterations 0", lambda tmp: [K, "-n", "0"], r"argument --iterations/-n: must be an integer from 1 to 10,000,000,000, got 0 \(see"),
    ("--iterations abc", lambda tmp: [K, "-n", "abc"], r"argument --iterations/-n: must be an integer from 1 to 10,000,000,000, got 'abc'"),
    ("--time-limit 0", lambda tmp: [K, "-t", "0"], r"argument --time-limit/-t: must be a finite number > 0, got '0'"),
    ("--time-limit inf", lambda tmp: [K, "-t", "inf"], r"argument --time-limit/-t: must be a finite number > 0, got "),
    ("--target nan", lambda tmp: [K, "--target", "nan"], r"argument --target: must be a finite number >= 0, got 'nan'"),
    ("--target -1", lambda tmp: [K, "--target", "-1"], r"argument --target: must be a finite number >= 0, got '-1'"),
    ("--eval-every 0", lambda tmp: [K, "--eval-every", "0"], r"argument --eval-every: must be an integer from 1 to 10,000,000,000, got 0"),
    ("--seed -1", lambda tmp: [K, "--seed", "-1"], r"argument --seed: must be an integer from 0 to 9,223,372,036,854,775,807, got -1 \(see --help\)$"),
    ("--seed abc", lambda tmp: [K, "--seed", "abc"], r"argument --seed: must be an integer from 0 to 9,223,372,036,854,775,807, got 'abc'"),
    ("--max-histories 0", lambda tmp: [K, "--max-histories", "0"], r"argument --max-histories: must be an integer from 1 to 10,000,000,000"),
    ("tree too large", lambda tmp: [K, "--max-histories", "5", "-n", "1"], r"^error: .*5"),
    ("--alpha nan", lambda tmp: [K, "--alpha", "nan"], r"argument --alpha: must be a finite number, got 'nan'"),
    ("--exploration 0", lambda tmp: [K, "--exploration", "0"],
     r"argument --exploration: must be a finite number > 0 and <= 1, got '0'"),
    ("--exploration 1.5", lambda tmp: [K, "--exploration", "1.5"], r"argument --exploration: must be a finite number"),
    ("both update orders", lambda tmp: [K, "--alternating", "--simultaneous"],
     r"argument --simultaneous: not allowed with argument --alternating \(see --help\)$"),
    ("unknown option", lambda tmp: [K, "--iteratons", "3"], r"unrecognized arguments: --iteratons 3 \(see --help\)$"),
    ("--checkpoint under a file", lambda tmp: [K, "-n", "1", "--checkpoint", _a_file(tmp, "c.ckpt")],
     r"argument --checkpoint: '.*afile/c\.ckpt' cannot be created: '.*afile' is a file, not a folder \(see --help\)$"),
    ("--checkpoint a folder", lambda tmp: [K, "-n", "1", "--checkpoint", str(tmp)],
     r"argument --checkpoint: '.*' is a folder; give the path of a file"),
    ("--checkpoint empty", lambda tmp: [K, "-n", "1", "--checkpoint", ""],
     r"argument --checkpoint: must be a file path, got an empty string"),
    ("--resume missing", lambda tmp: [K, "-n", "1", "--resume", str(tmp / "nope.ckpt")],
     r"^error: checkpoint '.*nope\.ckpt' does not exist$"),
    ("--resume a folder", lambda tmp: [K, "-n", "1", "--resume", str(tmp)],
     r"^error: checkpoint '.*' is a folder; give the path of a checkpoint file$"),
    ("--resume not a checkpoint", lambda tmp: [K, "-n", "1", "--resume", _a_file(tmp)],
     r"^error: checkpoint '.*afile' is damaged or not a cfr checkpoint \("),
    ("--resume truncated", lambda tmp: [K, "-n", "3", "--resume", _damaged_checkpoint(tmp)],
     r"^error: checkpoint '.*kuhn\.ckpt' is damaged or not a cfr checkpoint \("),
    ("--resume of another game", lambda tmp: ["kuhn_poker(players=3)", "-n", "3", "--resume", _checkpoint(tmp)],
     r"^error: checkpoint '.*kuhn\.ckpt' was written for kuhn_poker\(\), not for "),
]


@pytest.mark.parametrize("name, setup, pattern", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_one_line_with_exit_2_and_writes_nothing(name, setup, pattern, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    argv = setup(tmp_path)
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)


def test_a_read_only_checkpoint_folder_is_refused_before_solving(tmp_path, monkeypatch, capfd):
    locked = tmp_path / "locked"
    locked.mkdir()
    read_only(locked, monkeypatch)
    argv = ["kuhn_poker", "-n", "1", "--checkpoint", str(locked / "c.ckpt")]
    assert_refused(lambda: main(argv), tmp_path, r"argument --checkpoint: '.*locked/c\.ckpt' cannot be written "
                   r"\(read-only or permission denied\)", capfd)


def test_list_names_every_registered_game_the_trust_me_games_first(capfd):
    assert main(["--list"]) == 0
    lines = capfd.readouterr().out.splitlines()
    names = [line.strip() for line in lines if line.startswith("  ")]
    assert lines[0].startswith("Trust Me games (") and names[0].startswith("trustme_")
    assert sorted(names) == sorted(pyspiel.registered_names())
