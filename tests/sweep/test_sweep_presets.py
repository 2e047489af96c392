"""Every preset in reports/ runs with --out into a fresh folder from a checkout that has no reports/out/, as a new user
runs it: its policy seats play the policies solved into that folder, whatever the spec's own ``out`` says."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from trustme_analysis.outdir import load_manifest, load_records
from trustme_analysis.players.policy import load_policy
from trustme_analysis.solve import storage
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.spec import load_spec

REPORTS = Path(__file__).resolve().parents[2] / "reports"
# reports/tune_*.toml are tuning specs (python -m trustme_analysis.tune), run by tests/tune/test_tune_presets.py.
PRESETS = sorted(p for p in REPORTS.glob("*.toml") if not p.stem.startswith("tune_"))
GAMES, CHUNK_SIZE, ITERATIONS = 4, 2, 2
TRAIN_ITERATIONS = 500

# Compiling and analysing the solve presets' variants takes from ten seconds to over a minute per section on two
# cores (Liar's tiny_plays2 has 134,127 histories), whatever the iteration budget. These presets are run on a smaller
# variant instead: the same substitutions in [params] and in the [[solve]] game strings, so each policy seat still
# plays the variant its solve solved (the spec check refuses anything else).
SHRINK = {
    "solve_liar": [("max_turns = 6", "max_turns = 3"), ("max_turns=6", "max_turns=3")],
    "solve_pinocchio": [
        ("values = 3", "values = 2"), ("stacks = [1, 1, 1]", "stacks = [1, 1]"),
        ("chart = [1, 3, 6]", "chart = [1, 3]"), ("park_size = 2", "park_size = 1"),
        ("values=3", "values=2"), ("stacks=1/1/1", "stacks=1/1"), ("chart=1/3/6", "chart=1/3"),
        ("park_size=2", "park_size=1"),
    ],
    # The bigger-variant presets (0.6 to 0.8 million histories each): one day, three turns, no looking and two lots.
    "solve_pinocchio_three": [("runouts_to_end = 2", "runouts_to_end = 1"), ("runouts_to_end=2", "runouts_to_end=1")],
    "solve_liar_long": [("max_turns = 8", "max_turns = 3"), ("max_turns=8", "max_turns=3")],
    "solve_1981_lots": [("seen = 50", "seen = 0"), ("seen=50", "seen=0"), ('lots = "1/2/5/10"', 'lots = "1/5"'),
                        ("lots=1/2/5/10", "lots=1/5")],
}


def reduced(preset: Path) -> str:
    """The preset with fewer games, a solve budget of a few iterations, and (see SHRINK) a smaller variant."""
    text = preset.read_text(encoding="utf-8")
    for old, new in SHRINK.get(preset.stem, []):
        assert old in text, f"{preset.name} no longer has {old!r}; update SHRINK"
        text = text.replace(old, new)
    # The main sweep's games and those of the [trust] and [skill] checks, where the preset asks for them.
    text, n = re.subn(r"^games = \d+", f"games = {GAMES}", text, flags=re.M)
    assert n >= 1, preset.name
    text = re.sub(r"^budgets = \[[^\]]*\]", "budgets = [2, 4]", text, flags=re.M)
    text = re.sub(r"^search = \{ budget = \d+ \}", "search = { budget = 4 }", text, flags=re.M)
    text = re.sub(r"^chunk_size = \d+", f"chunk_size = {CHUNK_SIZE}", text, flags=re.M)
    # A trained line-up's training budget (the [train] table, written inline).
    text = re.sub(r"^(train = \{[^}]*iterations = )\d+", rf"\g<1>{TRAIN_ITERATIONS}", text, flags=re.M)
    assert not re.search(r"^iterations\s*=", text, flags=re.M), f"{preset.name}: budget set twice"
    text = re.sub(r"^\[\[solve\]\]$", f"[[solve]]\niterations = {ITERATIONS}", text, flags=re.M)
    tomllib.loads(text)
    return text


def test_the_presets_are_found():
    assert {"default", "solve_1981", "solve_liar", "solve_pinocchio"} <= {p.stem for p in PRESETS}


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_preset_runs_with_out_into_a_fresh_folder(preset, tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / preset.name).write_text(reduced(preset), encoding="utf-8")
    monkeypatch.chdir(checkout)
    out = tmp_path / "runs" / preset.stem
    # One solve preset on a process pool, as a designer runs it: spawned workers must find the policies too.
    workers = "2" if preset.stem == "solve_1981" else "1"
    assert main([preset.name, "--out", str(out), "--workers", workers, "--quiet", "--no-report"]) == 0
    assert sorted(p.name for p in checkout.iterdir()) == [preset.name]  # no reports/out/ beside the spec

    spec = load_spec(checkout / preset.name)
    manifest = load_manifest(out)
    assert manifest["complete"]
    records = load_records(out)
    assert len(records) == sum(GAMES * v.num_players for v in spec.variants)

    named = {}
    for lineup in spec.lineups.values():
        for seat in lineup.seats or lineup.pool or ():
            if seat.bot == "policy":
                assert "solve" in seat.knobs, f"{preset.name}: a policy seat names a file, not its solve"
                named[seat.knobs["solve"]] = load_policy(storage.solution_dir(out, seat.knobs["solve"]))
    for solve in spec.solves:
        assert (storage.solution_dir(out, solve.name) / storage.POLICY).is_file()
    trained = {k: v for k, v in manifest["fingerprint"].get("policies", {}).items() if k.startswith("trained:")}
    assert {k: v for k, v in manifest["fingerprint"].get("policies", {}).items() if k not in trained} == {
        f"solve:{n}": p["fingerprint"] for n, p in named.items()}
    # Trained seats: each policy they play is stored in this folder, its digest recorded.
    assert trained == {f"trained:{s.parent.name}": json.loads(s.read_text())["policy_digest"]
                       for s in (out / "train").glob("*/summary.json")}
    assert bool(trained) == any(s.bot == "trained" for lu in spec.lineups.values() for s in lu.seats or lu.pool)
    played = [json.loads(k) for k in records.loc[records["bot"] == "policy", "bot_knobs"]]
    assert bool(played) == bool(named)
    for knobs in played:
        assert knobs["fingerprint"] == named[knobs["solve"]]["fingerprint"]
