"""Sweep specs: variants and line-ups expand as documented; every invalid spec fails naming its key, writing nothing."""

from __future__ import annotations

import copy
import tomllib

import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry and the "edge" bot)

from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.spec import SpecError, _coerce_param, default_spec_text, parse_spec

BASE = {
    "title": "toy",
    "game": "kuhn_poker",
    "games": 10,
    "chunk_size": 4,
    "seed": 3,
    "grid": {"players": [2, 3]},
    "lineups": {
        "edges": {"seats": [{"bot": "edge", "knobs": {"end": "last"}}]},
        "mixed": {"pool": [{"bot": "random", "weight": 3}, {"bot": "edge"}]},
    },
}


def spec_with(**changes):
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def test_variants_are_the_grid_product_times_the_lineups_in_spec_order():
    spec = parse_spec(BASE, name="toy")
    assert [(v.id, v.label) for v in spec.variants] == [
        ("v00", "players=2, lineup=edges"),
        ("v01", "players=2, lineup=mixed"),
        ("v02", "players=3, lineup=edges"),
        ("v03", "players=3, lineup=mixed"),
    ]
    assert [v.game_string for v in spec.variants] == ["kuhn_poker(players=2)"] * 2 + ["kuhn_poker(players=3)"] * 2
    assert [v.num_players for v in spec.variants] == [2, 2, 3, 3]
    # 10 games in chunks of 4: 4 + 4 + 2.
    assert spec.chunks_per_variant == 3
    assert [list(spec.chunk_games(c)) for c in range(3)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert spec.baseline == "v00"
    assert spec.out == "reports/out/toy"
    assert spec.total_games == 40


def test_a_single_seat_entry_sits_in_every_seat_and_pool_weights_normalise():
    spec = parse_spec(BASE)
    edges = spec.lineups["edges"]
    assert [s.bot for s in edges.seats_for(3)] == ["edge", "edge", "edge"]
    assert edges.describe(2) == [{"bot": "edge", "knobs": {"end": "last"}}] * 2
    assert list(spec.lineups["mixed"].pool_probabilities()) == [0.75, 0.25]
    assert spec.lineups["mixed"].describe(3) == {
        "pool": [{"bot": "random", "knobs": {}, "weight": 3.0}, {"bot": "edge", "knobs": {}, "weight": 1.0}]
    }


def test_baseline_table_picks_its_variant_and_missing_keys_take_the_first_value():
    assert parse_spec(spec_with(baseline={"players": 3, "lineup": "mixed"})).baseline == "v03"
    assert parse_spec(spec_with(baseline={"lineup": "mixed"})).baseline == "v01"
    assert parse_spec(spec_with(baseline={"players": 3})).baseline == "v02"


def test_toml_lists_become_slash_joined_strings_for_list_valued_parameters():
    assert _coerce_param("grid.chart[0]", [1, 3, 6, 10], "1/3/6/10/15/21") == "1/3/6/10"
    assert _coerce_param("params.chart", "1/2/4", "1/3/6/10/15/21") == "1/2/4"
    with pytest.raises(SpecError, match=r"^grid\.chart\[1\]: must be a string or a non-empty list of integers"):
        _coerce_param("grid.chart[1]", [1, 2.5], "1/3/6")
    with pytest.raises(SpecError, match=r"^params\.coin_variant: must be true or false, got 1"):
        _coerce_param("params.coin_variant", 1, False)


def test_players_fixed_in_params_gives_one_variant_per_lineup():
    spec = parse_spec(spec_with(grid=None, params={"players": 3}))
    assert [v.label for v in spec.variants] == ["lineup=edges", "lineup=mixed"]
    assert spec.variants[0].params == {"players": 3}


def test_no_lineups_means_random_bots_in_every_seat():
    spec = parse_spec(spec_with(lineups=None))
    assert [v.lineup.name for v in spec.variants] == ["random", "random"]


@pytest.mark.parametrize(
    ("changes", "pattern"),
    [
        ({"gmaes": 5}, r"^gmaes: unknown key; did you mean 'games'"),
        ({"games": "ten"}, r"^games: must be an integer, got 'ten'"),
        ({"games": 0}, r"^games: must be an integer >= 1, got 0"),
        ({"seed": -1}, r"^seed: must be an integer >= 0"),
        ({"chunk_size": 2.5}, r"^chunk_size: must be an integer"),
        ({"game": "kuhn_pokr"}, r"^game: unknown game 'kuhn_pokr'; did you mean 'kuhn_poker'"),
        ({"game": "leduc_poker"}, r"^game: game 'leduc_poker' cannot be swept \(it registers no records\); games that can be swept: .*kuhn"),
        ({"grid": {"playres": [2, 3]}},
         r"^grid\.playres: kuhn_poker has no parameter 'playres'; did you mean 'players'"),
        ({"grid": {"players": []}}, r"^grid\.players: is an empty list"),
        ({"grid": {}}, r"^grid: is empty"),
        ({"grid": {"players": 3}}, r"^grid\.players: must be a list of values"),
        ({"grid": {"players": [2, 2]}}, r"^grid\.players: lists the same value twice: 2"),
        ({"grid": {"players": [2, "3"]}}, r"^grid\.players\[1\]: must be an integer, got '3'"),
        ({"grid": {"players": [2, 1]}},
         r"^grid\.players: kuhn_poker rejects these parameters: .*\(in the variant players=1\)"),
        ({"params": {"players": 3}}, r"^grid\.players: is also fixed in params\.players"),
        ({"lineups": {"a": {"seats": [{"bot": "clever"}]}}},
         r"^lineups\.a\.seats\[0\]\.bot: unknown bot kind 'clever'.*available: edge, policy, probe, random, search"),
        ({"lineups": {"a": {"seats": [{"bot": "edge", "knobs": {"edn": "last"}}]}}},
         r"^lineups\.a\.seats\[0\]\.knobs\.edn: edge bot: unknown knob\(s\) \['edn'\]; valid knobs: end"),
        ({"lineups": {"a": {"seats": [{"bot": "edge", "knobs": {"end": "middle"}}]}}},
         r"^lineups\.a\.seats\[0\]\.knobs\.end: edge bot: knob end='middle'"),
        ({"lineups": {"a": {"pool": [{"bot": "random", "weight": 0}]}}},
         r"^lineups\.a\.pool\[0\]\.weight: must be a positive number"),
        ({"lineups": {"a": {"seats": ["random"], "pool": ["random"]}}}, r"^lineups\.a: needs exactly one of 'seats'"),
        ({"lineups": {"a": {"seat": ["random"]}}}, r"^lineups\.a\.seat: unknown key; did you mean 'seats'"),
        ({"lineups": {"a": {"seats": ["random", "random", "random"]}}},
         r"^lineups\.a\.seats: has 3 entries but the game has 2 seats \(in the variant players=2\)"),
        ({"lineups": {"a": {"seats": [{"bot": "random", "wieght": 2}]}}},
         r"^lineups\.a\.seats\[0\]\.wieght: unknown key"),
        ({"baseline": {"players": 4}}, r"^baseline\.players: 4 is not one of the grid's values \(2, 3\)"),
        ({"baseline": {"lineup": "edgse"}}, r"^baseline\.lineup: unknown line-up 'edgse'; did you mean 'edges'"),
        ({"baseline": {"chart": 1}}, r"^baseline\.chart: unknown key"),
    ],
)
def test_invalid_specs_name_the_key(changes, pattern):
    with pytest.raises(SpecError, match=pattern):
        parse_spec(spec_with(**changes))


def test_cli_rejects_a_bad_spec_with_exit_2_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text('game = "kuhn_poker"\ngames = 5\n[grid]\nplayers = [2, 11]\n')
    assert main(["bad.toml"]) == 2
    err = capsys.readouterr().err
    assert "error: grid.players:" in err and "players=11" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_cli_rejects_missing_file_and_bad_toml_with_exit_2(tmp_path, capsys):
    assert main([str(tmp_path / "nope.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err
    (tmp_path / "broken.toml").write_text("game = \n")
    assert main([str(tmp_path / "broken.toml")]) == 2
    assert "is not valid TOML" in capsys.readouterr().err
    assert main([str(tmp_path / "broken.toml"), "--workers", "0"]) == 2


def test_embedded_default_spec_is_the_checked_in_reports_default():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    assert tomllib.loads(default_spec_text()) == tomllib.loads((root / "reports" / "default.toml").read_text())


def test_baseline_reads_a_one_entry_chart_as_the_grid_does():
    # A one-entry chart is "5/" in a game string; the baseline's TOML list must be read the same way as the grid's.
    spec = parse_spec({"game": "trustme_pinocchio", "params": {"players": 2, "values": 1, "copies": 8,
                                                                 "stacks": [3], "two_player_removed": 0},
                       "grid": {"chart": [[5], [7]]}, "baseline": {"chart": [7]}, "games": 1})
    assert [v.grid["chart"] for v in spec.variants] == ["5/", "7/"]
    assert spec.baseline == spec.variants[1].id
