"""``--until-ci``: a sweep grows every line-up, its own ``games`` included, by one factor, playing only the games
after the stored ones."""

from __future__ import annotations

import math

import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry and the "edge" bot)

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.sweep.growing import (
    grow_until,
    grown_spec,
    spec_settings,
    widest_share_interval,
)
from trustme_analysis.sweep.runner import SweepError, check_outdir, run_sweep
from trustme_analysis.sweep.spec import parse_spec

# Random players in every seat at the spec's games; the edge bot (a fixed choice, ranked above random) at its own,
# fewer games: the edge line-up carries the headline, so its intervals are the widest.
SPEC = {"game": "kuhn_poker", "games": 40, "chunk_size": 10, "seed": 3,
        "lineups": {"random": {"seats": ["random"]},
                    "edge": {"seats": [{"bot": "edge", "knobs": {"end": "last"}}], "games": 20}}}
SPEC_TOML = '''game = "kuhn_poker"
games = 40
chunk_size = 10
seed = 3
[lineups.random]
seats = ["random"]
[lineups.edge]
seats = [{ bot = "edge", knobs = { end = "last" } }]
games = 20
'''


def chunk_bytes(outdir):
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted((outdir / RECORDS).rglob("*.parquet"))}


def test_grown_spec_scales_every_line_up_by_the_spec_s_factor_in_whole_chunks():
    spec = parse_spec({**SPEC, "lineups": {**SPEC["lineups"], "same": {"seats": ["random"], "games": 40}}})
    grown = grown_spec(spec, 100)  # 2.5 times
    assert grown.games == 100
    assert {v.lineup.name: grown.games_of(v) for v in grown.variants} == {"random": 100, "edge": 50, "same": 100}
    assert grown.lineups["random"].games is None
    assert grown.lineups["edge"].games == 50 and grown.lineups["same"].games == 100  # 40 x 2.5 = 100, at most games
    # 20 x 1.1 = 22 rounds up to whole chunks of 10.
    assert grown_spec(spec, 44).lineups["edge"].games == 30
    # The games are no part of the fingerprint: the grown spec is the same sweep, and its folder takes it.
    assert grown.data_fingerprint() == spec.data_fingerprint()
    assert spec_settings(grown) == "games = 100, lineups.edge.games = 50, lineups.same.games = 100"


def test_until_ci_grows_a_line_up_with_its_own_games_and_plays_only_the_new_games(tmp_path):
    spec = parse_spec(SPEC, name="grow")
    out = tmp_path / "out"
    first = run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    stored = chunk_bytes(out)
    start_width, which = widest_share_interval(out)
    assert which.startswith("v01: ")  # the edge line-up's variant: its own 20 games are what limits the precision
    target = 0.3
    assert start_width > target

    played, lines = [], []

    def play(grown, report):
        played.append(run_sweep(grown, workers=1, out=out, report=report, quiet=True).games_played)

    final, width = grow_until(spec, target, play, out, lines.append)
    assert width <= target
    games = {v["id"]: v["games"] for v in load_manifest(out)["variants"]}
    assert games["v01"] > 20, "the line-up with its own games grew"
    # Both line-ups grew by the same factor (in whole chunks of 10).
    factor = games["v00"] / 40
    assert factor > 1 and games["v01"] == math.ceil(20 * factor / 10) * 10
    assert {v.id: final.games_of(v) for v in final.variants} == games
    assert f"set games = {games['v00']}, lineups.edge.games = {games['v01']} in the spec" in lines[-1]
    # The first run's chunks are kept byte for byte, and every game was played once: the stored ones by the first
    # run (none again by grow_until's first round), each later round only the games after the stored ones.
    assert played[0] == 0
    assert first.games_played + sum(played) == games["v00"] + games["v01"]
    now = chunk_bytes(out)
    assert all(now[name] == data for name, data in stored.items())
    # Same seeds, same records: one run at the grown size in a fresh folder holds the same chunks.
    whole = tmp_path / "whole"
    run_sweep(parse_spec({**SPEC, "games": games["v00"],
                          "lineups": {**SPEC["lineups"], "edge": {**SPEC["lineups"]["edge"], "games": games["v01"]}}},
                         name="grow"), workers=1, out=whole, report=False, quiet=True)
    assert chunk_bytes(whole) == now
    pd.testing.assert_frame_equal(load_records(whole), load_records(out))
    # The folder now refuses the spec as it was (a sweep cannot shrink) and takes the one the last line names.
    assert check_outdir(final, out) is not None
    with pytest.raises(SweepError, match="a sweep can grow .*but not shrink"):
        check_outdir(spec, out)


def test_until_ci_from_the_command_line_grows_the_line_up_s_games(tmp_path, capsys):
    from trustme_analysis.sweep.__main__ import main

    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(SPEC_TOML, encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(spec_file), "--out", str(out), "--workers", "1", "--no-report", "--until-ci", "0.3"]) == 0
    err = capsys.readouterr().err
    assert "growing every line-up by" in err and "(line-up edge: " in err
    games = {v["id"]: v["games"] for v in load_manifest(out)["variants"]}
    assert games["v01"] > 20 and games["v00"] > 40
    assert widest_share_interval(out)[0] <= 0.3


@pytest.mark.parametrize("value", ["2", "0", "-0.1", "1", "nan", "wide"])
def test_a_bad_until_ci_is_one_line_and_exit_2(tmp_path, capsys, value):
    from trustme_analysis.sweep.__main__ import main

    spec_file = tmp_path / "spec.toml"
    spec_file.write_text(SPEC_TOML, encoding="utf-8")
    assert main([str(spec_file), "--out", str(tmp_path / "new"), f"--until-ci={value}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--until-ci" in err[0] and f"got '{value}'" in err[0] and "< 1" in err[0]
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("value", [0.0, 1.0, 1.5, -0.2, float("nan")])
def test_grow_until_refuses_a_width_that_is_no_share_width(tmp_path, value):
    with pytest.raises(ValueError, match=r"--until-ci .* is not allowed; allowed: the full width of a 95% interval"):
        grow_until(parse_spec(SPEC), value, lambda spec, report: None, tmp_path, print)


def test_the_trust_check_s_rows_do_not_drive_the_growth(monkeypatch, tmp_path):
    from trustme_analysis import results

    headlines = pd.DataFrame({
        "kind": ["seat", "trust", "balance test", "change"],
        "variant": ["v00", "v00", "v00", "v01"],
        "measure": ["seat 0 wins", "probe against heuristic", "all seats win equally often", "tall tales"],
        "unit": ["share of games", "share of games", "p-value", "share of tales"],
        "low": [0.40, 0.10, float("nan"), -0.05],
        "high": [0.50, 0.60, float("nan"), 0.10],
    })
    monkeypatch.setattr(results, "compute", lambda outdir: {"headlines": headlines})
    width, which = widest_share_interval(tmp_path)
    # The trust row (0.5 wide) plays the [trust] section's games, which growing does not change.
    assert (round(width, 6), which) == (0.15, "v01: tall tales")
