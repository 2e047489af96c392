"""What every spec file of this library shares (sweeps, solves, tuning): the error that names the offending key,
and the checks of TOML keys and values behind it.

A :class:`SpecError` says which key is wrong (a dotted path such as ``grid.chart``), the value found and what is
allowed; the command lines print it as one line and exit with status 2.
"""

from __future__ import annotations

import difflib
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

