"""Result files appear whole, with ordinary permissions, or not at all."""

import os
import stat

import pytest

from trustme_analysis.atomic import atomic_path


def test_file_appears_only_when_the_block_succeeds(tmp_path):
    target = tmp_path / "sub" / "report.pdf"
    with atomic_path(target) as tmp:
        tmp.write_text("partial")
        assert not target.exists()
        assert tmp.parent == target.parent
    assert target.read_text() == "partial"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert os.listdir(target.parent) == ["report.pdf"]


def test_failure_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "result.json"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_text("new")
            raise RuntimeError("interrupted")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["result.json"]
