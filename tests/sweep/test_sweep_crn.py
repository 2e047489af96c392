"""Common random numbers and growing sweeps: game i of every variant starts from the same seed, whatever the number of
games, so variants can be compared game by game and a stored sweep can grow."""

from __future__ import annotations

import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry and the "edge" bot)

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep.play import chunk_task, run_chunk
from trustme_analysis.sweep.runner import SweepError, run_sweep
from trustme_analysis.sweep.seeding import SEED_BLOCK, game_seed, game_seeds
from trustme_analysis.sweep.spec import parse_spec

CHARTS = {
    "title": "two charts",
    "game": "trustme_pinocchio",
    "games": 40,
    "chunk_size": 16,
    "seed": 5,
    "params": {"players": 3, "values": 3, "copies": 4, "stacks": [1, 1, 1], "runouts_to_end": 1},
    "grid": {"chart": [[1, 3, 6], [1, 4, 9]]},
    # Random players read no rule parameter: the chart only changes how a finished game is scored.
    "lineups": {"random": {"seats": ["random"]}},
}


def chunk_bytes(outdir):
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted((outdir / RECORDS).rglob("*.parquet"))}


def test_game_seeds_depend_only_on_the_master_seed_and_the_game_index():
    whole = game_seeds(3, 0, 2 * SEED_BLOCK + 5)
    assert len(set(whole)) == len(whole)
    # Any window (crossing seed blocks) is the same slice of the whole.
    assert game_seeds(3, SEED_BLOCK - 2, 9) == whole[SEED_BLOCK - 2: SEED_BLOCK + 7]
    assert game_seed(3, 2 * SEED_BLOCK + 4) == whole[-1]
    assert game_seeds(4, 0, 5) != whole[:5]
    with pytest.raises(ValueError, match="first_game=-1"):
        game_seeds(3, -1, 2)


def test_two_charts_share_every_game_seed_and_a_chart_blind_line_up_plays_the_same_games(tmp_path):
    run_sweep(parse_spec(CHARTS, name="charts"), workers=1, out=tmp_path, report=False, quiet=True)
    frame = load_records(tmp_path)
    first = frame[frame["seat"] == 0].set_index(["variant", "game_index"])
    a, b = first.loc["v00"], first.loc["v01"]
    assert len(a) == len(b) == 40
    assert a["game_seed"].tolist() == b["game_seed"].tolist()
    assert a["game_seed"].tolist() == game_seeds(5, 0, 40)
    # Same deals, same choices: every game lasts the same number of turns under both charts ...
    assert a["turns"].tolist() == b["turns"].tolist()
    # The sweep scores v00's games again for v01 (the chart is scoring-only and unread): playing v01 itself from the
    # same seeds gives the same games.
    spec = parse_spec(CHARTS, name="charts")
    records = game_entry("trustme_pinocchio").part("records")
    played = pd.concat([run_chunk(chunk_task(spec, spec.variants[1], c, records)) for c in range(3)],
                       ignore_index=True)
    assert played[played["seat"] == 0]["turns"].tolist() == a["turns"].tolist()
    pd.testing.assert_frame_equal(played, frame[frame["variant"] == "v01"].reset_index(drop=True))
    # ... and only the scoring differs (some game's points change with the chart).
    assert (frame[frame["variant"] == "v00"]["score"].to_numpy() != frame[frame["variant"] == "v01"]["score"]
            .to_numpy()).any()


def test_a_sweep_grown_from_100_to_200_games_equals_one_run_at_200(tmp_path):
    spec = {"title": "grow", "game": "kuhn_poker", "games": 100, "chunk_size": 30, "seed": 8,
            "grid": {"players": [2, 3]}, "lineups": {"mixed": {"pool": [{"bot": "random"}, {"bot": "edge", "knobs": {"end": "last"}}]}}}
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    first = run_sweep(parse_spec(spec, name="g"), workers=1, out=grown, report=False, quiet=True)
    assert first.games_played == 200
    stored = chunk_bytes(grown)
    again = run_sweep(parse_spec({**spec, "games": 200}, name="g"), workers=1, out=grown, report=False, quiet=True)
    # Chunks 0-2 (90 games) are kept as they were; chunk 3 (games 90-99) grows to 30 games; chunks 4-6 are new.
    assert again.games_played == 2 * 100
    for name in ("records/v00/chunk-00000.parquet", "records/v01/chunk-00002.parquet"):
        assert chunk_bytes(grown)[name] == stored[name]
    run_sweep(parse_spec({**spec, "games": 200}, name="g"), workers=1, out=whole, report=False, quiet=True)
    pd.testing.assert_frame_equal(load_records(grown), load_records(whole))
    assert chunk_bytes(grown) == chunk_bytes(whole)
    assert load_manifest(grown)["chunks"] == load_manifest(whole)["chunks"]
    assert load_manifest(grown)["complete"] is True


def test_a_sweep_cannot_shrink(tmp_path):
    spec = {"game": "kuhn_poker", "games": 6, "chunk_size": 4, "seed": 1}
    run_sweep(parse_spec(spec), workers=1, out=tmp_path, report=False, quiet=True)
    with pytest.raises(SweepError, match=r"holds 6 games per variant and the spec asks for 4: a sweep can grow"):
        run_sweep(parse_spec({**spec, "games": 4}), workers=1, out=tmp_path, report=False, quiet=True)


def test_until_ci_grows_the_sweep_until_the_headline_shares_are_precise(tmp_path):
    from trustme_analysis.sweep.__main__ import main
    from trustme_analysis.sweep.growing import widest_share_interval

    spec_file = tmp_path / "spec.toml"
    spec_file.write_text('game = "kuhn_poker"\ngames = 20\nchunk_size = 10\nseed = 3\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(spec_file), "--out", str(out), "--workers", "1", "--no-report", "--quiet",
                 "--until-ci", "0.25"]) == 0
    manifest = load_manifest(out)
    assert manifest["games_per_variant"] > 20 and manifest["complete"] is True
    width, _ = widest_share_interval(out)
    assert width <= 0.25
    # The grown folder holds the games of one run at that size.
    whole = tmp_path / "whole"
    run_sweep(parse_spec({"game": "kuhn_poker", "games": manifest["games_per_variant"], "chunk_size": 10, "seed": 3}),
              workers=1, out=whole, report=False, quiet=True)
    assert chunk_bytes(out) == chunk_bytes(whole)
    # A spec asking for fewer games than the folder holds is refused, and so is a width that is not a share width.
    assert main([str(spec_file), "--out", str(out), "--quiet"]) == 2
    assert main([str(spec_file), "--out", str(tmp_path / "new"), "--until-ci", "2"]) == 2
    assert not (tmp_path / "new").exists()
