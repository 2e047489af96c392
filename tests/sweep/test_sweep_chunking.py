"""Chunk sizes chosen from the measured cost of a game when a spec sets no ``chunk_size`` (sweep/chunking.py)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from trustme_analysis.outdir import MANIFEST, load_manifest, load_records
from trustme_analysis.sweep import chunking
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

LINEUPS = {"random": {"seats": ["random"]}, "heuristic": {"seats": ["heuristic"]}}


def auto_spec(**extra):
    return parse_spec({"game": "trustme_pinocchio", "games": 30, "seed": 4, "grid": {"players": [2, 3]},
                       "lineups": LINEUPS, **extra}, name="auto")


def test_the_size_is_the_largest_step_within_the_target_time():
    assert chunking.size_for(chunking.TARGET_CHUNK_SECONDS / 7) == 5
    assert chunking.size_for(10.0) == 1
    assert chunking.size_for(1e-7) == chunking.MAX_AUTO_CHUNK


def test_cheap_line_ups_get_large_chunks_and_costly_ones_small(monkeypatch):
    costs = {"random": 1e-5, "heuristic": 0.3}
    spec, measured = chunking.resolve_chunking(auto_spec(), measure=lambda s, v: costs[v.lineup.name])
    assert {v.lineup.name: spec.chunk_size_of(v) for v in spec.variants} == {"random": 20_000, "heuristic": 5}
    assert measured == {"random/kernel/2p": 1e-5, "random/kernel/3p": 1e-5, "heuristic/kernel/2p": 0.3,
                        "heuristic/kernel/3p": 0.3}
    assert spec.chunks_of(spec.variants[1]) == 6 and spec.chunk_games(5, spec.variants[1]) == range(25, 30)
    # A spec's own chunk_size wins: nothing is measured.
    explicit = auto_spec(chunk_size=7)
    assert chunking.resolve_chunking(explicit, measure=lambda s, v: pytest.fail("measured"))[0] is explicit


def test_chosen_chunks_hold_the_same_games_and_are_kept_when_the_sweep_resumes(tmp_path, monkeypatch):
    costs = {"random": 1e-5, "heuristic": 0.3}
    monkeypatch.setattr(chunking, "seconds_per_game", lambda s, v: costs[v.lineup.name])
    out = tmp_path / "auto"
    result = run_sweep(auto_spec(), workers=1, out=out, report=False, quiet=True)
    manifest = load_manifest(out)
    assert manifest["chunk_size"] == "auto" and manifest["fingerprint"]["chunk_size"] == "auto"
    assert manifest["chunk_sizes"] == {"v00": 20_000, "v01": 5, "v02": 20_000, "v03": 5}
    assert result.chunks_run == 1 + 6 + 1 + 6
    fixed = tmp_path / "fixed"
    run_sweep(auto_spec(chunk_size=4), workers=1, out=fixed, report=False, quiet=True)
    # The same games, record for record; only the chunk a game is stored in differs.
    a, b = (load_records(p).drop(columns="chunk").sort_values(["variant", "game_index", "seat"]).reset_index(drop=True)
            for p in (out, fixed))
    pd.testing.assert_frame_equal(a, b)
    # Resumed where the costs measure otherwise now: the stored sizes are kept, nothing is played again.
    costs.update(random=0.3, heuristic=1e-5)
    again = run_sweep(parse_spec({**auto_spec().as_dict(), "games": 40}, name="auto"), workers=1, out=out,
                      report=False, quiet=True)
    assert load_manifest(out)["chunk_sizes"] == manifest["chunk_sizes"]
    assert again.games_played == 4 * 10


def test_a_folder_made_with_the_old_fixed_default_resumes_with_it(tmp_path):
    out = tmp_path / "old"
    run_sweep(auto_spec(chunk_size=50), workers=1, out=out, report=False, quiet=True)
    path = out / MANIFEST
    manifest = json.loads(path.read_text())
    del manifest["spec"]["chunk_size"]  # as an older run of a spec without chunk_size stored it
    path.write_text(json.dumps(manifest))
    again = run_sweep(auto_spec(), workers=1, out=out, report=False, quiet=True)
    assert again.chunks_run == 0 and load_manifest(out)["chunk_size"] == 50


def test_check_states_the_chosen_sizes(tmp_path, capsys):
    spec_file = tmp_path / "s.toml"
    spec_file.write_text('game = "trustme_pinocchio"\ngames = 100\n[lineups.random]\nseats = ["random"]\n')
    assert main([str(spec_file), "--check", "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    # The chosen size (20,000 for kernel games) holds all 100 games: said as one chunk of them, not as the ceiling.
    assert ("chunks chosen from the measured cost of a game (the spec sets no chunk_size): one chunk of all 100 "
            "games (v00)") in out
