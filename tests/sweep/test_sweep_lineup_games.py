"""A line-up's ``games``: costly players play fewer games per variant than the spec's ``games``."""

from __future__ import annotations

import pytest

from trustme_analysis.outdir import load_manifest, load_records
from trustme_analysis.specfile import SpecError
from trustme_analysis.sweep.__main__ import describe
from trustme_analysis.sweep.runner import SweepError, run_sweep
from trustme_analysis.sweep.spec import parse_spec


def spec_dict(search_games: int = 6, games: int = 10) -> dict:
    return {"game": "kuhn_poker", "games": games, "chunk_size": 4, "seed": 3, "grid": {"players": [2, 3]},
            "lineups": {"random": {"seats": [{"bot": "random"}]},
                        "few": {"seats": [{"bot": "random"}], "games": search_games}}}


def test_a_line_up_with_fewer_games_plays_only_those(tmp_path):
    spec = parse_spec(spec_dict())
    assert [spec.games_of(v) for v in spec.variants] == [10, 6, 10, 6]
    assert spec.total_games == 32
    assert [spec.chunks_of(v) for v in spec.variants] == [3, 2, 3, 2]
    assert list(spec.chunk_games(1, spec.variants[1])) == [4, 5]
    result = run_sweep(spec, workers=1, out=tmp_path, report=False, quiet=True)
    assert result.chunks_run == 10
    records = load_records(tmp_path)
    games = records.groupby("variant")["game_index"].nunique().to_dict()
    assert games == {"v00": 10, "v01": 6, "v02": 10, "v03": 6}
    # The games a line-up plays are the first ones of every line-up: the same seeds (common random numbers).
    seeds = records.groupby("variant")["game_seed"].apply(lambda s: sorted(set(s)))
    assert set(seeds["v01"]) <= set(seeds["v00"])
    manifest = load_manifest(tmp_path)
    assert [v["games"] for v in manifest["variants"]] == [10, 6, 10, 6]
    assert "x 10 games (line-up few: 6) = 32 games" in describe(spec)


def test_a_line_ups_games_grow_but_do_not_shrink(tmp_path):
    run_sweep(parse_spec(spec_dict(6)), workers=1, out=tmp_path, report=False, quiet=True)
    grown = run_sweep(parse_spec(spec_dict(9)), workers=1, out=tmp_path, report=False, quiet=True)
    # Each of the few line-up's two variants: chunk 1 grown from 2 games to 4, chunk 2 new (1 game); 3 games each.
    assert (grown.chunks_run, grown.games_played) == (4, 6)
    assert load_records(tmp_path).groupby("variant")["game_index"].nunique().to_dict()["v01"] == 9
    with pytest.raises(SweepError, match=r"holds 9 games of variant v01 and line-up 'few' now asks for 5: a sweep can "
                                         r"grow but not shrink; set lineups.few.games = 9 or more"):
        run_sweep(parse_spec(spec_dict(5)), workers=1, out=tmp_path, report=False, quiet=True)


@pytest.mark.parametrize(("value", "message"), [
    (0, "lineups.few.games: must be a whole number of games >= 1"),
    ("ten", "lineups.few.games: must be a whole number of games >= 1"),
    (True, "lineups.few.games: must be a whole number of games >= 1"),
    (11, "lineups.few.games: must be at most the spec's games (10), got 11"),
])
def test_a_bad_line_up_games_is_one_clear_error(value, message):
    with pytest.raises(SpecError) as info:
        parse_spec(spec_dict(value))
    assert message in str(info.value)
