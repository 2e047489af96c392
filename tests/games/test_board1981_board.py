"""The default board follows the rule text; malformed boards fail at load_game naming the space and the problem."""

from __future__ import annotations

import pyspiel
import pytest
from test_board1981_support import SMALL_BOARD, write_small_board

import trustme_analysis  # noqa: F401
from trustme_analysis.games.board1981.engine.board import BoardError, load_board


def test_default_board_matches_the_rule_text():
    board = load_board()
    assert board.streets == ("Crimson Circle", "Green Horn Avenue", "Gold Dust Drive", "Blueberry Boulevard")
    assert board.num_properties == 12
    assert all(len(spaces) == 3 for spaces in board.property_spaces)  # three colored spaces in front of each
    assert len(board.wild_goose_chase) == 4
    assert board.kinds.count("company") == 1
    assert all(len(board.area_properties(s)) == 3 for s in range(4))


def test_default_board_walks_from_the_company():
    board = load_board()
    exact, _ = board.destinations(board.company, 3)
    assert {board.space_ids[s] for s in exact} == {
        "crimson_junction", "greenhorn_junction", "golddust_junction", "blueberry_junction"
    }
    exact, _ = board.destinations(board.company, 4)
    assert {board.space_ids[s] for s in exact} == {
        f"{street}_{sp}" for street in ("crimson", "greenhorn", "golddust", "blueberry") for sp in ("2c", "3a")
    }


def _broken(tmp_path, old: str, new: str) -> str:
    text = SMALL_BOARD.replace(old, new, 1)
    assert text != SMALL_BOARD
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    "old, new, fragment",
    [
        ('id = "r3"\nkind = "hot_tip"', 'id = "r3"\nkind = "casino"', "space 'r3': unknown kind 'casino'"),
        ('id = "company"\nkind = "company"', 'id = "company"\nkind = "white"', "no Company"),
        ('links = ["r9"]', 'links = ["r99"]', "space 'r8': link to unknown space 'r99'"),
        ('property = "Delta"', 'property = "Omega"', "space 'r7': property 'Omega'"),
        ('area = "South"', 'area = "East"', "space 'r3': Hot Tip area 'East'"),
    ],
)
def test_malformed_board_names_space_and_problem(tmp_path, old, new, fragment):
    path = _broken(tmp_path, old, new)
    with pytest.raises(BoardError, match=fragment.replace("(", r"\(")):
        load_board(path)
    with pytest.raises(Exception, match="r3|r7|r8|Company"):
        pyspiel.load_game("trustme_1981", {"board": path, "payoff_mix": "2/1/1/2"})


def test_unreachable_space_is_named(tmp_path):
    path = tmp_path / "island.toml"
    path.write_text(
        SMALL_BOARD + '\n[[space]]\nid = "island"\nkind = "white"\nlinks = ["lagoon"]\n'
        '[[space]]\nid = "lagoon"\nkind = "white"\n',
        encoding="utf-8",
    )
    with pytest.raises(BoardError, match="space 'island': unreachable from the Company"):
        load_board(str(path))


def test_missing_board_file_and_too_few_cards(tmp_path):
    with pytest.raises(BoardError, match="no such file"):
        load_board(str(tmp_path / "nope.toml"))
    with pytest.raises(Exception, match="payoff_mix.*at least 4 cards"):
        pyspiel.load_game("trustme_1981", {"board": write_small_board(tmp_path), "payoff_mix": "1/1/0/1"})


@pytest.mark.parametrize(
    "params, fragment",
    [
        ({"players": 5}, "players=5"),
        ({"lots": "0"}, "lots='0'"),
        ({"bamboozled": "7"}, "bamboozled='7'"),
        ({"utility": "wealth_diff", "players": 3}, "utility='wealth_diff'"),
        ({"roll_off_tie": "coin"}, "roll_off_tie='coin'"),
        ({"trust_mix": "0/0/0"}, "trust_mix='0/0/0'"),
    ],
)
def test_bad_parameters_are_named(params, fragment):
    with pytest.raises(Exception, match=fragment):
        pyspiel.load_game("trustme_1981", params)


def test_assumptions_list_every_open_point():
    game = pyspiel.load_game("trustme_1981(players=2)")
    names = {a["parameter"] for a in game.assumptions()}
    assert {"board", "payoff_mix", "trust_mix", "bamboozled", "shares", "lots", "roll_off_tie", "max_turns"} <= names
    assert all(set(a) == {"parameter", "value", "text"} and a["text"] for a in game.assumptions())
    assert {a["parameter"]: a["value"] for a in game.assumptions()}["payoff_mix"] == "6/4/4/2"
