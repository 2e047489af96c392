"""What every entry point's table of bad inputs asserts: exit status 2, one line on stderr naming the problem, no
traceback, nothing on stdout (OpenSpiel's own chatter included: stderr is captured at the file descriptor), and no
file under the test's folder created, changed or removed."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under ``root`` with its kind, modification time and contents."""
    return {
        p.relative_to(root).as_posix(): (p.is_dir(), p.stat().st_mtime_ns, None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


def exit_status(call: Callable[[], int | None]) -> int | None:
    """``call()``'s exit status, whether it returns it or raises ``SystemExit`` (as argparse does)."""
    try:
        return call()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1


def assert_refused(call: Callable[[], int | None], root: Path, pattern: str, capfd: pytest.CaptureFixture) -> str:
    """Run ``call`` and assert it refused in one line matching ``pattern`` (a regex searched), changing nothing
    under ``root``; returns the line."""
    before = snapshot(root)
    capfd.readouterr()
    status = exit_status(call)
    out, err = capfd.readouterr()
    assert "Traceback" not in err and "OpenSpiel exception" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert status == 2, (status, err)
    assert out == "", out
    assert re.search(pattern, lines[0]), lines[0]
    assert snapshot(root) == before
    return lines[0]


def read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` read-only (for root, who writes anywhere, make it look read-only to ``os.access``)."""
    if os.geteuid() == 0:
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: (Path(p) != folder or not mode & os.W_OK)
                            and real(p, mode, **kw))
    else:
        folder.chmod(0o555)


def write(tmp: Path, text: str | bytes, name: str = "s.toml") -> str:
    """Write ``text`` to ``tmp/name``; returns the path as text."""
    path = tmp / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)
