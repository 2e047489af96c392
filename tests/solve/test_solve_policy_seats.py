"""Policy seats that name a [[solve]] section: resolved inside the run's output folder, keyed by the policy's
fingerprint, and a stale policy (other solve parameters) solved again or refused, never played."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pyspiel
import pytest

from tests.solve.conftest import PINOCCHIO_TINY
from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.players import make_bot
from trustme_analysis.players.policy import load_policy, policy_fingerprint
from trustme_analysis.solve import storage
from trustme_analysis.solve.run import run_solve
from trustme_analysis.solve.spec import parse_solve
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.spec import SpecError, load_spec

PARAMS = """
[params]
players = 2
values = 2
copies = 2
two_player_removed = 0
park_size = 1
stacks = [1, 1]
chart = [1, 3]
runouts_to_end = 1
"""


def sweep_text(iterations: int = 3, seat: str = '{ bot = "policy", knobs = { solve = "tiny" } }',
               solve: bool = True, game: str = PINOCCHIO_TINY) -> str:
    text = f'''
title = "policy seats"
game = "trustme_pinocchio"
games = 6
chunk_size = 3
seed = 4
out = "reports/out/policy_seats"
{PARAMS}
[lineups.policy]
seats = [{seat}]
[lineups.policy_vs_heuristic]
seats = [{seat}, "heuristic"]
'''
    if solve:
        text += f'''
[[solve]]
name = "tiny"
game = "{game}"
iterations = {iterations}
'''
    return text


def write(tmp_path, text: str, name: str = "spec.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def run(spec, out, capsys=None) -> tuple[int, str]:
    code = main([str(spec), "--out", str(out), "--workers", "1", "--no-report"])
    err = capsys.readouterr().err if capsys is not None else ""
    return code, err


def chunk_bytes(outdir):
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted((outdir / RECORDS).rglob("*.parquet"))}


# ------------------------------------------------------------------------------------------------- spec validation


@pytest.mark.parametrize("text, key, words", [
    (sweep_text(seat='{ bot = "policy", knobs = { solve = "tiyn" } }'), "lineups.policy.seats[0].knobs.solve",
     ["'tiyn' is not a [[solve]] section of this spec", "did you mean 'tiny'", "the spec's solves: tiny"]),
    (sweep_text(solve=False), "lineups.policy.seats[0].knobs.solve",
     ["'tiny' is not a [[solve]] section", "this spec has no [[solve]] sections"]),
    (sweep_text(seat='{ bot = "policy", knobs = { solve = "tiny", policy = "x/policy.json" } }'),
     "lineups.policy.seats[0].knobs", ["both solve = 'tiny' and policy = 'x/policy.json'"]),
    (sweep_text(game=PINOCCHIO_TINY.replace("chart=1/3", "chart=1/4")), "lineups.policy.seats[0].knobs.solve",
     ["[[solve]] 'tiny' solves trustme_pinocchio(", "chart=1/4", "but the variant lineup=policy plays",
      "only the variant it was solved for"]),
    (sweep_text(seat='{ bot = "policy", knobs = { solve = 3 } }'), "lineups.policy.seats[0].knobs.solve",
     ["solve=3 is not allowed"]),
    (sweep_text() + '[lineups.pool]\npool = [{ bot = "policy", knobs = { solve = "other" } }]\n',
     "lineups.pool.pool[0].knobs.solve", ["'other' is not a [[solve]] section"]),
    (sweep_text() + '[solve.lineups.own]\nseats = [{ bot = "policy", knobs = { solve = "tiny" } }]\n',
     "solve[0].lineups.own.seats[0].knobs.solve", ["a [[solve]] line-up cannot name a solve"]),
])
def test_a_policy_seat_must_name_a_solve_of_the_spec_for_its_variant(tmp_path, text, key, words):
    with pytest.raises(SpecError) as info:
        load_spec(write(tmp_path, text))
    assert info.value.key == key
    for word in words:
        assert word in str(info.value)


def test_the_command_reports_an_unknown_solve_in_one_line_and_exit_2(tmp_path, capsys):
    spec = write(tmp_path, sweep_text(seat='{ bot = "policy", knobs = { solve = "duel" } }'))
    assert main([str(spec), "--check"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.splitlines() == [err]
    assert err.startswith("error: lineups.policy.seats[0].knobs.solve: 'duel' is not a [[solve]] section")
    assert "solves: tiny" in err


# --------------------------------------------------------------------------------------------------- the policy bot


def _first_decision(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_fingerprint_is_the_contents_in_either_form_and_an_edited_file_is_refused(solved_tiny, tmp_path):
    out, result = solved_tiny
    path = storage.solution_dir(out, "tiny") / storage.POLICY
    data = json.loads(path.read_text())
    loaded = load_policy(path)
    assert data["fingerprint"] == loaded["fingerprint"] == result["policy_fingerprint"]
    assert policy_fingerprint(data["game"], data["policy"]) == policy_fingerprint(loaded["game"], loaded["policy"])
    assert data["made_by"]["solve"] == "tiny" and data["made_by"]["section"]["iterations"] == 5000
    assert data["made_by"]["reached"]["value"] == result["value"]
    assert set(data["made_by"]["versions"]) >= {"trustme-analysis", "open_spiel"}
    key = next(iter(data["policy"]))
    row = data["policy"][key]
    row[0][1] += 0.25  # another probability: another policy
    assert policy_fingerprint(data["game"], data["policy"]) != data["fingerprint"]
    edited = tmp_path / "policy.json"
    edited.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="was changed after it was stored"):
        load_policy(edited)


def test_the_bot_refuses_a_policy_of_another_fingerprint_and_an_unresolved_solve(solved_tiny):
    out, result = solved_tiny
    path = str(storage.solution_dir(out, "tiny"))
    game = pyspiel.load_game(PINOCCHIO_TINY)
    with pytest.raises(ValueError, match="has fingerprint .* not 0123456789abcdef as expected"):
        make_bot(game, "policy", 0, np.random.default_rng(0), policy=path, fingerprint="0123456789abcdef")
    same = make_bot(game, "policy", 0, np.random.default_rng(0), policy=path, fingerprint=result["policy_fingerprint"])
    assert same.choose(_first_decision(game)) in _first_decision(game).legal_actions()
    unresolved = make_bot(game, "policy", 0, np.random.default_rng(0), solve="tiny")  # a spec check builds this
    with pytest.raises(ValueError, match="only a sweep resolves it"):
        unresolved.choose(_first_decision(game))


# ------------------------------------------------------------------------------------- sweeps with --out elsewhere


def test_named_solve_is_played_from_the_runs_output_folder_wherever_out_is(tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    spec = write(checkout, sweep_text())
    monkeypatch.chdir(checkout)
    first, second = tmp_path / "first", tmp_path / "elsewhere" / "second"
    assert run(spec.name, first)[0] == 0
    assert run(spec.name, second)[0] == 0
    assert not (checkout / "reports").exists()  # nothing went to the spec's own out
    fingerprint = load_policy(storage.solution_dir(first, "tiny"))["fingerprint"]
    manifest = load_manifest(first)
    assert manifest["fingerprint"]["policies"] == {"solve:tiny": fingerprint}
    # The manifest names the policy by its solve and fingerprint, not by where the output folder is.
    assert manifest["variants"][0]["seats"][0] == {"bot": "policy", "knobs": {"solve": "tiny",
                                                                              "fingerprint": fingerprint}}
    records = load_records(first)
    policy_rows = records[records["bot"] == "policy"]
    assert len(policy_rows) == 6 * 2 + 6
    knobs = {json.loads(k)["fingerprint"] for k in policy_rows["bot_knobs"]}
    assert knobs == {fingerprint}
    assert str(tmp_path) not in "".join(policy_rows["bot_knobs"])
    # Same spec, another output folder: the same games, byte for byte.
    assert chunk_bytes(first) == chunk_bytes(second)


def test_a_stale_policy_in_a_fresh_output_folder_is_solved_again(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(write(tmp_path, sweep_text(iterations=2), "old.toml"), out)[0] == 0
    old = load_policy(storage.solution_dir(out, "tiny"))
    # Keep the old policy, drop the games: the folder now holds only a policy of other solve parameters.
    shutil.rmtree(out / RECORDS)
    (out / "manifest.json").unlink()
    code, err = run(write(tmp_path, sweep_text(iterations=30), "new.toml"), out, capsys)
    assert code == 0
    assert "solve 'tiny': the policy at" in err and "made by another [[solve]] section" in err
    assert "differs in: iterations 2 -> 30" in err
    new = load_policy(storage.solution_dir(out, "tiny"))
    assert new["made_by"]["section"]["iterations"] == 30 and new["fingerprint"] != old["fingerprint"]
    records = load_records(out)
    played = {json.loads(k)["fingerprint"] for k in records.loc[records["bot"] == "policy", "bot_knobs"]}
    assert played == {new["fingerprint"]}


def test_a_policy_stored_without_its_solve_is_solved_again(tmp_path, capsys):
    out = tmp_path / "out"
    spec = write(tmp_path, sweep_text(iterations=2))
    assert run(spec, out)[0] == 0
    shutil.rmtree(out / RECORDS)
    (out / "manifest.json").unlink()
    path = storage.solution_dir(out, "tiny") / storage.POLICY
    data = json.loads(path.read_text())
    path.write_text(json.dumps({k: v for k, v in data.items() if k not in ("made_by", "fingerprint")}))
    code, err = run(spec, out, capsys)
    assert code == 0 and "does not say which solve made it; solving again" in err
    assert "made_by" in json.loads(path.read_text())


def test_games_of_another_policy_are_refused_before_solving_again(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(write(tmp_path, sweep_text(iterations=2), "old.toml"), out)[0] == 0
    policy = storage.solution_dir(out, "tiny") / storage.POLICY
    before, chunks = policy.read_bytes(), chunk_bytes(out)
    capsys.readouterr()
    code, err = run(write(tmp_path, sweep_text(iterations=30), "new.toml"), out, capsys)
    assert code == 2
    assert err.strip().splitlines() == [err.strip()]
    assert err.startswith(f"error: {out} holds a sweep made from a different spec (differs in: policies)")
    # Nothing was solved or played: the stored games still go with the stored policy.
    assert policy.read_bytes() == before and chunk_bytes(out) == chunks


def test_a_policy_solved_again_must_be_the_one_the_stored_games_were_played_with(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(write(tmp_path, sweep_text(iterations=2), "old.toml"), out)[0] == 0
    # The stored policy claims the inputs of the new section (so it is not refused before solving) while its
    # result.json does not (so the section is solved again): the new policy differs from the one that played.
    path = storage.solution_dir(out, "tiny") / storage.POLICY
    data = json.loads(path.read_text())
    data["made_by"]["section"]["iterations"] = 30
    path.write_text(json.dumps(data))
    played, chunks = data["fingerprint"], chunk_bytes(out)
    capsys.readouterr()
    code, err = run(write(tmp_path, sweep_text(iterations=30), "new.toml"), out, capsys)
    assert load_policy(path)["fingerprint"] != played  # solved again
    assert code == 2 and "differs in: policies" in err.strip().splitlines()[-1]
    assert chunk_bytes(out) == chunks


def test_a_policy_file_from_elsewhere_is_keyed_by_its_fingerprint(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    run_solve(parse_solve({"name": "tiny", "game": PINOCCHIO_TINY, "iterations": 2}), elsewhere, quiet=True)
    path = storage.solution_dir(elsewhere, "tiny") / storage.POLICY
    spec = write(tmp_path, sweep_text(seat=f'{{ bot = "policy", knobs = {{ policy = "{path}" }} }}', solve=False))
    out = tmp_path / "out"
    assert run(spec, out)[0] == 0
    first = load_policy(path)["fingerprint"]
    assert load_manifest(out)["fingerprint"]["policies"] == {f"file:{path}": first}
    # The file is replaced by another policy: the stored games are not resumed with it.
    data = json.loads(path.read_text())
    data["policy"][next(iter(data["policy"]))][0][1] += 0.25
    del data["fingerprint"]
    path.write_text(json.dumps(data))
    capsys.readouterr()
    code, err = run(spec, out, capsys)
    assert code == 2 and "differs in: policies" in err
    # A missing file is one line too, before anything is written.
    path.unlink()
    code, err = run(spec, tmp_path / "other", capsys)
    assert code == 2 and err.strip().splitlines() == [err.strip()]
    assert f"policy seat policy = '{path}': no stored policy at" in err
    assert not (tmp_path / "other").exists()
