"""Loading a game by its string without OpenSpiel's own chatter, and one line that says what is wrong.

OpenSpiel's C++ side writes an ``OpenSpiel exception: ...`` line to the stderr file descriptor before it raises, and
for an unknown game name its whole list of registered games (some 130 lines). The command lines of this project
promise one line per failure, so an unknown name is caught before OpenSpiel sees it and file descriptor 2 is silenced
while a game loads; the error raised instead is a :class:`GameLoadError` of one line.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pyspiel

#: Prefix of the Trust Me games' short names (the games this project is about, listed apart from OpenSpiel's own).
TRUST_ME_PREFIX = "trustme_"


class GameLoadError(ValueError):
    """A game string names no registered game, or the game refuses its parameters; the message is one line."""


@contextlib.contextmanager
def quiet_openspiel() -> Iterator[None]:
    """Silence the stderr file descriptor (what OpenSpiel's C++ side writes before raising) inside the block.

    Python's own ``sys.stderr`` is flushed first so nothing printed before the block is lost.
    """
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no fd 2 (an embedded interpreter): nothing to silence
        yield
        return
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def register_python_games() -> None:
    """Register OpenSpiel's own Python games (``python_kuhn_poker``, ...): importing their package takes about 0.2 s
    (it brings absl's flags and logging), so it is done when a game name is looked up, not at every process start
    (a sweep's workers, each command line)."""
    import open_spiel.python.games  # noqa: F401  (registers the games with pyspiel at import)


def load_game(game: str) -> pyspiel.Game:
    """``pyspiel.load_game(game)``, OpenSpiel's Python games included (:func:`register_python_games`)."""
    if game.split("(", 1)[0].strip() not in pyspiel.registered_names():
        register_python_games()
    return pyspiel.load_game(game)


def game_names() -> tuple[list[str], list[str]]:
    """The registered games: (the Trust Me games, every other OpenSpiel game), each sorted."""
    register_python_games()
    names = sorted(pyspiel.registered_names())
    ours = [n for n in names if n.startswith(TRUST_ME_PREFIX)]
    return ours, [n for n in names if not n.startswith(TRUST_ME_PREFIX)]


def unknown_game_message(name: str) -> str:
    """``unknown game 'X'; did you mean 'Y'? (available: ...)``: one line, however many games are registered."""
    ours, others = game_names()
    close = difflib.get_close_matches(name, ours + others, n=3)
    hint = "; did you mean " + " or ".join(repr(c) for c in close) + "?" if close else ""
    return (f"unknown game {name!r}{hint} (available: the Trust Me games {', '.join(ours)} and {len(others)} "
            "OpenSpiel games: `python -m cfr --list`)")


def listing() -> str:
    """Every registered game, the Trust Me games first (what ``python -m cfr --list`` prints)."""
    ours, others = game_names()
    return "\n".join([f"Trust Me games ({len(ours)}):", *[f"  {n}" for n in ours],
                      f"OpenSpiel games ({len(others)}):", *[f"  {n}" for n in others]])


def _one_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    return "; ".join(lines) if lines else type(exc).__name__


def load_game_quietly(game: str, params: dict[str, Any] | None = None) -> pyspiel.Game:
    """``pyspiel.load_game(game[, params])`` in silence; a :class:`GameLoadError` of one line when it cannot.

    ``game`` is a game string (``"kuhn_poker(players=3)"``) or, with ``params``, a short name. The engines' own
    parameter checks (a ``ValueError`` naming the parameter) pass through with their message.
    """
    name = game.split("(", 1)[0].strip()
    if name not in pyspiel.registered_names():
        register_python_games()
    if name not in pyspiel.registered_names():
        raise GameLoadError(unknown_game_message(name))
    try:
        with quiet_openspiel():
            return pyspiel.load_game(game) if params is None else pyspiel.load_game(game, params)
    except (pyspiel.SpielError, ValueError, TypeError, RuntimeError) as exc:
        message = _one_line(exc)
        if "Expected type: kString, got kInt" in message:
            # The game string types a bare number as an integer; the Trust Me games write a list of one as "6/".
            message += " (a game string reads a bare number as an integer: write a list of one number as 6/)"
        raise GameLoadError(f"game {game!r} cannot be loaded: {message}") from None
