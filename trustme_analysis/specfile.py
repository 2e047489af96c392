"""What every spec file of this library shares (sweeps, solves, tuning): the error that names the offending key,
and the checks of TOML keys and values behind it.

A :class:`SpecError` says which key is wrong (a dotted path such as ``grid.chart``), the value found and what is
allowed; the command lines print it as one line and exit with status 2.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any


class SpecError(ValueError):
    """A spec is invalid; ``key`` is the dotted path of the offending key (e.g. ``grid.chart``)."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"{key}: {message}" if key else message)


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

