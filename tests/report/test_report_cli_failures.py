"""Every bad input of ``python -m trustme_analysis.report`` (each damage of ``test_results_load_failures.py``, a file
or nothing given as OUTDIR, a bad option) is one line on stderr with exit status 2 and changes nothing."""

from __future__ import annotations

import pytest
from failure_cases import assert_refused
from test_results_load_failures import DAMAGE, damaged, make_stored

from trustme_analysis.report.__main__ import main


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """The finished sweep each test damages a copy of."""
    return make_stored(tmp_path_factory)


@pytest.mark.parametrize("name, damage, file, field, pattern", DAMAGE, ids=[c[0] for c in DAMAGE])
def test_a_damaged_folder_is_one_line_with_exit_2_and_changes_nothing(name, damage, file, field, pattern, stored,
                                                                       tmp_path, capfd):
    out = damaged(stored, tmp_path, damage)
    assert_refused(lambda: main([str(out)]), tmp_path, "^error: .*" + pattern, capfd)


def _a_file(tmp):
    (tmp / "afile").write_text("x")
    return [str(tmp / "afile")]


OPTIONS = [
    ("no OUTDIR", lambda tmp: [], r"^error: the following arguments are required: outdir \(see --help\)$"),
    ("OUTDIR is a file", _a_file, r"^error: .*afile: no sweep results here \(missing manifest\.json\)$"),
    ("OUTDIR empty text", lambda tmp: [""], r"^error: OUTDIR: must be a folder path, got an empty string$"),
    ("unknown option", lambda tmp: [str(tmp), "--pdf"], r"^error: unrecognized arguments: --pdf \(see --help\)$"),
]


@pytest.mark.parametrize("name, setup, pattern", OPTIONS, ids=[c[0] for c in OPTIONS])
def test_a_bad_argument_is_one_line_with_exit_2(name, setup, pattern, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    argv = setup(tmp_path)
    assert_refused(lambda: main(argv), tmp_path, pattern, capfd)
