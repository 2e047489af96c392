"""Shared fixtures for the trustme_1981 tests: a small board file and helpers that play exact actions.

The small board (a ring of 10 spaces and the Company joined to r0 and r5) keeps scripted scenarios short:

    r0 white (junction) - r1 Alpha - r2 Beta - r3 Hot Tip (area South) - r4 Wild Goose Chase -
    r5 white (junction) - r6 Gamma - r7 Delta - r8 Hot Tip (area North) - r9 Wild Goose Chase - back to r0

Alpha and Beta are on the street North, Gamma and Delta on South. From the Company a roll of 2 reaches r1, r9, r4, r6.
"""

from __future__ import annotations

from pathlib import Path

import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.board1981.engine.board import load_board

SMALL_BOARD = """
name = "small test ring"
[[property]]
name = "Alpha"
street = "North"
[[property]]
name = "Beta"
street = "North"
[[property]]
name = "Gamma"
street = "South"
[[property]]
name = "Delta"
street = "South"

[[space]]
id = "company"
kind = "company"
links = ["r0", "r5"]
[[space]]
id = "r0"
kind = "white"
links = ["r1"]
[[space]]
id = "r1"
kind = "property"
property = "Alpha"
links = ["r2"]
[[space]]
id = "r2"
kind = "property"
property = "Beta"
links = ["r3"]
[[space]]
id = "r3"
kind = "hot_tip"
area = "South"
links = ["r4"]
[[space]]
id = "r4"
kind = "wild_goose_chase"
links = ["r5"]
[[space]]
id = "r5"
kind = "white"
links = ["r6"]
[[space]]
id = "r6"
kind = "property"
property = "Gamma"
links = ["r7"]
[[space]]
id = "r7"
kind = "property"
property = "Delta"
links = ["r8"]
[[space]]
id = "r8"
kind = "hot_tip"
area = "North"
links = ["r9"]
[[space]]
id = "r9"
kind = "wild_goose_chase"
links = ["r0"]
"""

# Property indices on the small board, and Payoff card kinds.
ALPHA, BETA, GAMMA, DELTA = range(4)
ONE, TWO, EMPTY, HAD = range(4)


def write_small_board(directory: Path) -> str:
    """Write the small board into ``directory``; return its path as a game parameter string."""
    path = directory / "small_board.toml"
    path.write_text(SMALL_BOARD, encoding="utf-8")
    return str(path)


def small_game(directory: Path, **params) -> pyspiel.Game:
    """``trustme_1981`` on the small board, 2 players by default, with ``params`` on top."""
    p = {"players": 2, "board": write_small_board(directory), "payoff_mix": "2/1/1/2"}
    p.update(params)
    return pyspiel.load_game("trustme_1981", p)


def space(game: pyspiel.Game, space_id: str) -> int:
    """The MOVE action (= space index) of a space id."""
    return game.board.space_ids.index(space_id)


def die(face: int) -> int:
    """The chance outcome of a die roll of ``face``."""
    return face - 1


def start(game: pyspiel.Game, cards=(ONE, TWO, EMPTY, HAD), first: int = 0):
    """A state after dealing ``cards`` into the briefcases (in property order) and choosing the first player."""
    state = game.new_initial_state()
    for c in cards:
        assert c in dict(state.chance_outcomes())
        state.apply_action(c)
    state.apply_action(first)
    return state


def play(state, *actions):
    """Apply ``actions`` in order, checking each is legal (chance outcomes included); return the state."""
    for a in actions:
        if state.is_chance_node():
            assert a in dict(state.chance_outcomes()), (a, state.chance_outcomes())
        else:
            assert a in state.legal_actions(), (a, state.legal_actions(), state.phase_name())
        state.apply_action(a)
    return state


def test_small_board_loads(tmp_path):
    board = load_board(write_small_board(tmp_path))
    assert board.num_properties == 4 and board.streets == ("North", "South")
    assert [board.space_ids[s] for s in board.wild_goose_chase] == ["r4", "r9"]
