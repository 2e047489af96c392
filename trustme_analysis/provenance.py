"""Which code plays a game: a digest of the source files that decide a sweep's or a tuning's records.

A sweep folder grows over several runs (``--resume``, a raised ``games``) and a tuning study over several sessions.
Chunks made by two versions of the rules or of the bots must never be mixed, and a changed *default* (a bot's knob a
spec does not write, a game's belief setting) changes the games as surely as a changed rule. The knobs a spec leaves
out are resolved by code in the files digested here (the bots' factories, the game's registry entry), so the digest
covers the knobs as the bots resolve them, not only as they are written.

What is digested, for a game whose package is ``P`` (its registry entry's ``package``):

- ``P``'s rules, compiled kernel, bots and records: every ``.py`` file of ``P`` except its ``analysis`` folder's
  pages and prose (report-only code: editing a page's wording must not make a stored sweep unusable);
- the core that plays games: :mod:`trustme_analysis.engine`, :mod:`trustme_analysis.players`,
  :mod:`trustme_analysis.train`, the registry, and the sweep modules that play, seed and rescore games.

The digest is per file (16 hex digits of SHA-256 of the bytes), so a refusal can name the files that changed.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

#: The package root (``trustme_analysis/``); file names in a digest are relative to it.
ROOT = Path(__file__).resolve().parent

#: Core folders and files that play games (relative to :data:`ROOT`).
CORE_PLAYING = ("engine", "players", "train", "registry.py", "sweep/play.py", "sweep/engines.py",
                "sweep/seeding.py", "sweep/policies.py", "sweep/rescoring.py")

#: Files of a game package's ``analysis`` folder that decide stored records (the rest draws pages and prose).
ANALYSIS_RECORDS = ("records.py", "__init__.py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _files(base: Path) -> list[Path]:
    if base.is_file():
        return [base]
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


def _game_folder(package: str) -> Path | None:
    """The folder of a game package inside this package (``None`` for a game installed from elsewhere)."""
    prefix = ROOT.name + "."
    if not package.startswith(prefix):
        return None
    folder = ROOT.joinpath(*package[len(prefix):].split("."))
    return folder if folder.is_dir() else None


@lru_cache(maxsize=None)
def code_digest(package: str) -> dict[str, str]:
    """``{file: digest}`` of the code that plays games of the game package ``package`` (see the module docstring).

    A game package from outside this project (an entry point) is digested from its own folder, found through its
    module's ``__file__``; its name then prefixes its files.
    """
    out: dict[str, str] = {}
    for part in CORE_PLAYING:
        for path in _files(ROOT / part):
            out[path.relative_to(ROOT).as_posix()] = _digest(path)
    folder = _game_folder(package)
    prefix = ""
    if folder is None and package:
        import importlib

        module = importlib.import_module(package)
        folder = Path(module.__file__).resolve().parent if getattr(module, "__file__", None) else None
        prefix = package + ":"
    if folder is not None:
        for path in _files(folder):
            rel = path.relative_to(folder)
            if rel.parts[0] == "analysis" and rel.name not in ANALYSIS_RECORDS:
                continue
            name = (prefix + rel.as_posix()) if prefix else path.relative_to(ROOT).as_posix()
            out[name] = _digest(path)
    return dict(sorted(out.items()))


def game_code_digest(short_name: str) -> dict[str, str]:
    """:func:`code_digest` of the registered game ``short_name`` (only the core's files for an unregistered one)."""
    from trustme_analysis.registry import find_game

    entry = find_game(short_name)
    return code_digest(entry.package if entry is not None else "")


def changed_files(old: object, new: dict[str, str], most: int = 4) -> str:
    """The files that differ between two digests, in words (``"games/liar/engine/state.py and 2 more"``)."""
    before = old if isinstance(old, dict) else {}
    names = sorted(k for k in set(before) | set(new) if before.get(k) != new.get(k))
    if not names:
        return "no file"
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
