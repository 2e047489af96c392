"""Validation and parsing of game parameters shared by every Trust Me engine.

OpenSpiel game parameters must be scalars, and a comma inside a game string breaks its parser, so list-valued rule
numbers (a scoring chart, ticket stacks) travel as ``/``-separated strings such as ``"1/3/6/10/15/21"`` and are parsed
once, here, when the game is loaded.

Every check raises :class:`ParameterError` (a ``ValueError``) whose message names the parameter, the value given and
what is allowed, so a designer who mistypes a rule sees the problem at ``load_game`` time and not deep inside play.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

LIST_SEPARATOR = "/"


class ParameterError(ValueError):
    """A game parameter is out of range or malformed; the message names parameter, value and what is allowed."""

    def __init__(self, game: str, name: str, value: Any, allowed: str):
        self.game = game
        self.name = name
        self.value = value
        self.allowed = allowed
        super().__init__(f"{game}: parameter {name}={value!r} is not allowed; allowed: {allowed}")


def merged(defaults: Mapping[str, Any], params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's default parameters overlaid with the given ones (pyspiel already rejects unknown keys)."""
    out = dict(defaults)
    out.update(params or {})
    return out


def int_in_range(game: str, params: Mapping[str, Any], name: str, low: int, high: int | None = None) -> int:
    """``params[name]`` as an int in ``[low, high]`` (``high=None``: no upper bound)."""
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(game, name, value, "an integer")
    if value < low or (high is not None and value > high):
        bound = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
        raise ParameterError(game, name, value, bound)
    return value


def choice(game: str, params: Mapping[str, Any], name: str, choices: Iterable[str]) -> str:
    """``params[name]`` as one of ``choices`` (strings)."""
    options = list(choices)
    value = params[name]
    if value not in options:
        raise ParameterError(game, name, value, "one of " + ", ".join(repr(c) for c in options))
    return value


def int_list(
    game: str,
    params: Mapping[str, Any],
    name: str,
    *,
    length: int | None = None,
    min_length: int = 1,
    low: int | None = None,
    high: int | None = None,
    non_decreasing: bool = False,
) -> tuple[int, ...]:
    """Parse a ``/``-separated list of integers such as ``"1/3/6/10/15/21"``.

    A single integer (pyspiel types ``chart=5`` as an int) is accepted as a list of one.
    """
    raw = params[name]
    if isinstance(raw, bool):
        raise ParameterError(game, name, raw, f"integers separated by {LIST_SEPARATOR!r}")
    if isinstance(raw, int):
        text = str(raw)
    elif isinstance(raw, str):
        text = raw
    else:
        raise ParameterError(game, name, raw, f"integers separated by {LIST_SEPARATOR!r}")
    parts = [p.strip() for p in text.split(LIST_SEPARATOR)]
    if len(parts) > 1 and parts[-1] == "":
        # "5/" is a list of one: a bare "5" in a game string would be typed as an int by pyspiel's parser.
        parts.pop()
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        raise ParameterError(game, name, raw, f"integers separated by {LIST_SEPARATOR!r}, e.g. '1/3/6'") from None
    if length is not None and len(values) != length:
        raise ParameterError(game, name, raw, f"exactly {length} integers separated by {LIST_SEPARATOR!r}")
    if len(values) < min_length:
        raise ParameterError(game, name, raw, f"at least {min_length} integers separated by {LIST_SEPARATOR!r}")
    if low is not None and any(v < low for v in values):
        raise ParameterError(game, name, raw, f"integers >= {low}")
    if high is not None and any(v > high for v in values):
        raise ParameterError(game, name, raw, f"integers <= {high}")
    if non_decreasing and any(b < a for a, b in zip(values, values[1:])):
        raise ParameterError(game, name, raw, "a non-decreasing list of integers")
    return values


def format_int_list(values: Sequence[int]) -> str:
    """The inverse of :func:`int_list`: ``(1, 3, 6)`` -> ``"1/3/6"`` (also what a sweep spec's TOML list becomes).

    A list of one is written ``"5/"`` so that the game string ``g(chart=5/)`` still parses as a string parameter.
    """
    text = LIST_SEPARATOR.join(str(int(v)) for v in values)
    return text + LIST_SEPARATOR if len(values) == 1 else text
