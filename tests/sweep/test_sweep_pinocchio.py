"""Sweeps of the Pinocchio engine with its heuristic bot and its statistics (small variants, few games)."""

from __future__ import annotations

import copy
import json

import pandas as pd
import pytest

from trustme_analysis.outdir import load_manifest, load_records
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import SpecError, load_spec, parse_spec

# The smallest rules the engine allows, so a game takes milliseconds.
SMALL = {
    "title": "small Pinocchio",
    "question": "Does the sweep run Pinocchio?",
    "game": "trustme_pinocchio",
    "games": 8,
    "chunk_size": 3,
    "seed": 4,
    "params": {"values": 3, "copies": 4, "stacks": [1, 1, 1], "chart": [1, 3, 6], "runouts_to_end": 1},
    "grid": {"players": [2, 3]},
    "lineups": {
        "heuristic": {"seats": [{"bot": "heuristic"}]},
        "mixed": {"pool": [{"bot": "heuristic", "knobs": {"bluff_rate": 0.8}}, {"bot": "random"}]},
    },
}


def small(**changes):
    data = copy.deepcopy(SMALL)
    data.update(changes)
    return data


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("pin")
    run_sweep(parse_spec(SMALL, name="pin"), workers=1, out=out, report=False, quiet=True)
    return out


def test_pinocchio_records_carry_common_and_game_columns(swept):
    frame = load_records(swept)
    assert len(frame) == 8 * (2 + 2 + 3 + 3)
    assert {"variant", "param_players", "param_chart", "game_seed", "seat", "bot", "bot_knobs"} <= set(frame.columns)
    assert set(frame["param_chart"]) == {"1/3/6"}
    assert set(frame["param_players"]) == {2, 3}
    # One winner per game (the records' ``win`` column), whatever the line-up.
    assert (frame.groupby(["variant", "game_index"])["win"].sum() == 1).all()
    heuristic = frame[frame["bot"] == "heuristic"]
    assert {json.loads(k).get("bluff_rate") for k in heuristic["bot_knobs"]} >= {0.8}


def test_pinocchio_manifest_lists_the_engine_assumptions(swept):
    manifest = load_manifest(swept)
    for variant in manifest["variants"]:
        assumptions = manifest["assumptions"][variant["id"]]
        assert assumptions, "the Pinocchio engine reports its assumptions"
        assert all({"parameter", "value", "text"} <= set(a) for a in assumptions)
    assert manifest["variants"][0]["game_string"].startswith("trustme_pinocchio(")


def test_pinocchio_pool_and_heuristic_records_match_on_two_workers(swept, tmp_path):
    run_sweep(parse_spec(SMALL, name="pin"), workers=2, out=tmp_path, report=False, quiet=True)
    pd.testing.assert_frame_equal(load_records(tmp_path), load_records(swept))


@pytest.mark.parametrize(
    ("changes", "pattern"),
    [
        ({"grid": {"players": [3, 5]}}, r"^grid\.players: trustme_pinocchio: parameter players=5 is not allowed"),
        ({"grid": {"players": [3, 4]}, "params": {**SMALL["params"], "coin_variant": True}},
         r"^params\.coin_variant: .*\(in the variant players=3\)"),
        ({"grid": {"chart": [[1, 3, 6], "1/x"]}, "params": {"values": 3, "copies": 4, "stacks": "1/1/1"}},
         r"^grid\.chart: trustme_pinocchio: parameter chart='1/x'"),
        ({"grid": {"voting": ["simultaneous", "secret"]}}, r"^grid\.voting: .*'secret'"),
        ({"lineups": {"h": {"seats": [{"bot": "heuristic", "knobs": {"bluf_rate": 0.2}}]}}},
         r"^lineups\.h\.seats\[0\]\.knobs\.bluf_rate: unknown knob.*valid knobs: bluff_rate"),
        ({"lineups": {"h": {"seats": [{"bot": "heuristic", "knobs": {"bluff_rate": 2}}]}}},
         r"^lineups\.h\.seats\[0\]\.knobs\.bluff_rate: .*bluff_rate=2"),
    ],
)
def test_engine_and_bot_errors_become_spec_errors_naming_the_key(changes, pattern):
    with pytest.raises(SpecError, match=pattern):
        parse_spec(small(**changes))


@pytest.mark.parametrize("name", ["default", "seat_balance", "chart_comparison", "bluff_rate"])
def test_checked_in_example_specs_validate(name):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    spec = load_spec(root / "reports" / f"{name}.toml")
    assert spec.game == "trustme_pinocchio" and spec.variants


def test_main_command_plays_a_small_pinocchio_sweep_and_writes_the_pdf(tmp_path):
    """The README's command path end to end, on a tiny one-variant spec: records, manifest, a PDF with the question."""
    from pypdf import PdfReader

    from trustme_analysis.sweep.__main__ import main

    spec = tmp_path / "tiny.toml"
    spec.write_text(
        'title = "Tiny Pinocchio sweep"\nquestion = "Does the main command write a report?"\n'
        'game = "trustme_pinocchio"\ngames = 6\nchunk_size = 3\nseed = 8\n'
        '[params]\nplayers = 2\nvalues = 3\ncopies = 4\nstacks = [1, 1, 1]\nchart = [1, 3, 6]\nrunouts_to_end = 1\n'
    )
    out = tmp_path / "out"
    assert main([str(spec), "--out", str(out), "--workers", "1", "--quiet"]) == 0
    pdf = out / "report.pdf"
    assert pdf.is_file()
    text = "\n".join(page.extract_text() or "" for page in PdfReader(pdf).pages)
    assert "Does the main command write a report?" in text
    assert load_manifest(out)["complete"] is True
    assert len(load_records(out)) == 6 * 2


def test_the_guides_example_spec_is_valid():
    """The spec shown in docs/guide/sweeps.rst validates as written (and expands to 3 x 2 x 2 variants)."""
    import re
    import tomllib
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "sweeps.rst").read_text()
    block = re.search(r"\.\. code-block:: toml\n\n((?:   .*\n|\n)+)", guide).group(1)
    spec = parse_spec(tomllib.loads("\n".join(line[3:] for line in block.splitlines())), name="guide")
    assert len(spec.variants) == 3 * 2 * 2
    baseline = next(v for v in spec.variants if v.id == spec.baseline)
    assert baseline.label == "players=3, stacks_to_end=4, lineup=heuristic"
