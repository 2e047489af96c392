"""What every spec file of this library shares (sweeps, solves, tuning): the error that names the offending key,
and the checks of TOML keys and values behind it.

A :class:`SpecError` says which key is wrong (a dotted path such as ``grid.chart``), the value found and what is
allowed; the command lines print it as one line and exit with status 2. It is the one type of the library's
refusals of what a user gave: a spec's key, a command-line option (:class:`OptionError`, raised by
:class:`OneLineParser`), a game string (:func:`load_game`) or a damaged stored file
(:class:`trustme_analysis.results.ResultsError`) all raise it or a subclass of it.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: The byte-order mark some Windows editors put at the start of a UTF-8 file; TOML parsers reject it, so it is dropped.
_BOM = "\ufeff"


class SpecError(ValueError):
    """A spec is invalid; ``key`` is the dotted path of the offending key (e.g. ``grid.chart``)."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"{key}: {message}" if key else message)


class OptionError(SpecError):
    """A command-line option (or argument) is invalid; ``key`` is the option (``--seed``)."""


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are an :class:`OptionError` (one line naming the option), not a usage block.

    The command lines catch it with every other :class:`SpecError`, print it as one line and exit with status 2.
    """

    def error(self, message: str):  # noqa: D401 - argparse hook
        raise OptionError("", f"{message} (see --help)")


def int_option(low: int, high: int | None = None) -> Any:
    """An argparse ``type`` reading an integer from ``low`` (to ``high``); its error says what is allowed."""
    allowed = f"an integer from {low:,} to {high:,}" if high is not None else f"an integer >= {low:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {value:,}")
        return value

    parse.__name__ = "integer"
    return parse


def float_option(low: float | None = None, *, above: bool = False, high: float | None = None,
                 below: bool = False) -> Any:
    """An argparse ``type`` reading a finite number (``>= low``, or ``> low`` when ``above``; ``<= high``, or
    ``< high`` when ``below``)."""
    parts = [f"> {low:g}" if above else f">= {low:g}"] if low is not None else []
    if high is not None:
        parts.append(f"< {high:g}" if below else f"<= {high:g}")
    allowed = "a finite number" + (" " + " and ".join(parts) if parts else "")

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}") from None
        if (not math.isfinite(value) or (low is not None and (value <= low if above else value < low))
                or (high is not None and (value >= high if below else value > high))):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
        return value

    parse.__name__ = "number"
    return parse


def load_game(game: str, key: str = "game", params: Mapping[str, Any] | None = None) -> Any:
    """``pyspiel.load_game`` without OpenSpiel's stderr chatter; a :class:`SpecError` of one line at ``key`` when the
    game is unknown (with the closest names and where to find the rest) or refuses its parameters."""
    from cfr.gameload import GameLoadError, load_game_quietly

    try:
        return load_game_quietly(game, dict(params) if params is not None else None)
    except GameLoadError as exc:
        raise SpecError(key, str(exc)) from None


def check_output_folder(outdir: str | Path, option: str = "--out", inner: Sequence[str] = ()) -> Path:
    """Refuse, before anything is written, an output folder that cannot be created or written: an empty path, a
    file, a path under a file, a read-only folder (or read-only nearest existing parent), or a read-only folder among
    ``inner`` (paths inside it that the command writes to) and their subfolders. Returns it as a Path.

    The one check of every command's output folder (sweep, tune, solve, report).

    Raises:
        OptionError: one line naming the folder and what is wrong with it.
    """
    if not str(outdir).strip():
        raise OptionError(option, "must be a folder path, got an empty string")
    path = Path(outdir)
    if path.exists() and not path.is_dir():
        raise OptionError("", f"output folder {str(path)!r} exists and is not a folder")
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing != path and not existing.is_dir():
        raise OptionError("", f"output folder {str(path)!r} cannot be created: {str(existing)!r} is a file, not a "
                          "folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        what = "is not writable" if existing == path else f"cannot be created: {str(existing)!r} is not writable"
        raise OptionError("", f"output folder {str(path)!r} {what} (read-only or permission denied); choose another "
                          f"{option} or change its permissions")
    for name in inner if path.is_dir() else ():
        folder = path / name
        for f in [folder, *(folder.iterdir() if folder.is_dir() else ())]:
            if f.is_dir() and not os.access(f, os.W_OK | os.X_OK):
                raise OptionError("", f"output folder {str(path)!r} is not writable: {str(f)!r} is read-only "
                                  f"(permission denied); choose another {option} or change its permissions")
    return path


def read_spec_file(path: str | Path) -> dict[str, Any]:
    """Read a TOML spec file into a dict; every problem with the file itself is a :class:`SpecError` of one line.

    A folder, a missing or unreadable file, a binary file, text that is not UTF-8 (the message gives the line and
    column of the first bad byte) and invalid TOML are refused; a UTF-8 byte-order mark is accepted and dropped.
    """
    p = Path(path)
    shown = repr(str(p))
    if p.is_dir():
        raise SpecError("", f"spec file {shown} is a folder; give the path of a .toml file")
    if not p.exists():
        raise SpecError("", f"spec file {shown} does not exist")
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise SpecError("", f"cannot read spec file {shown}: {exc.strerror or exc}") from None
    if b"\0" in raw:
        raise SpecError("", f"spec file {shown} is a binary file (it holds NUL bytes), not TOML text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise SpecError(
            "", f"spec file {shown} is not UTF-8 text: byte 0x{raw[exc.start]:02x} at line {line}, column {column}; "
            "save it as UTF-8"
        ) from None
    if text.startswith(_BOM):
        text = text[len(_BOM):]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError("", f"{p} is not valid TOML: {exc}") from None


def did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=3)
    if close:
        return "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    return ""


def check_keys(where: str, table: Mapping[str, Any], allowed: Sequence[str]) -> None:
    for key in table:
        if key not in allowed:
            full = f"{where}.{key}" if where else key
            raise SpecError(
                full, f"unknown key{did_you_mean(key, allowed)} (valid keys here: {', '.join(allowed)})"
            )


TYPE_NAMES = {str: "a string", int: "an integer", dict: "a table", list: "a list", float: "a number"}


def type_ok(value: Any, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, kind)


def require(table: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in table:
        raise SpecError(key, "missing (required)")
    return optional(table, key, kind, None)


def optional(table: Mapping[str, Any], key: str, kind: type, default: Any, where: str = "") -> Any:
    if key not in table:
        return default
    value = table[key]
    if not type_ok(value, kind):
        full = f"{where}.{key}" if where else key
        raise SpecError(full, f"must be {TYPE_NAMES[kind]}, got {value!r}")
    return value


def at_least(key: str, value: int, low: int) -> None:
    if value < low:
        raise SpecError(key, f"must be an integer >= {low}, got {value!r}")


def require_in(table: Mapping[str, Any], where: str, key: str, kind: type) -> Any:
    if key not in table:
        raise SpecError(f"{where}.{key}", "missing (required)")
    return optional(table, key, kind, None, where=where)

