"""Trained line-ups in sweeps: the ``[train]`` section, the train stage (once per variant and settings, in parallel,
deterministic, stored policies reused, stale ones trained again), the trained policies in the data fingerprint, and
whole games with trained seats inside the kernel, playing the stored policy's probabilities exactly."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pyspiel
import pytest
from failure_cases import assert_refused, write

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.games.pinocchio.kernel import core as K
from trustme_analysis.games.pinocchio.kernel.trained import trained_action
from trustme_analysis.outdir import load_manifest, load_records
from trustme_analysis.players import make_bot
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.play import replay_game
from trustme_analysis.sweep.policies import trainings
from trustme_analysis.sweep.runner import SweepError, run_sweep
from trustme_analysis.sweep.spec import parse_spec
from trustme_analysis.train import game_settings, train

ITERATIONS = 2_000  # a policy in well under a second (its numba code cached after the first run)
TWO = "trustme_pinocchio(players=2)"


def spec_data(**extra):
    data = {
        "title": "trained sweep", "game": "trustme_pinocchio", "games": 30, "seed": 3, "chunk_size": 10,
        "params": {"players": 3}, "grid": {"stacks_to_end": [3, 4]},
        "lineups": {"trained": {"seats": ["trained"]},
                    "mixed": {"seats": ["trained", "heuristic", "random"]}},
        "train": {"iterations": ITERATIONS, "seed": 1},
    }
    data.update(extra)
    return data


def records_without_paths(outdir):
    """The records with the trained seats' ``outdir`` knob (this run's folder) taken out of ``bot_knobs``."""
    frame = load_records(outdir)
    frame["bot_knobs"] = [json.dumps({k: v for k, v in json.loads(s).items() if k != "outdir"}, sort_keys=True)
                          for s in frame["bot_knobs"]]
    return frame


def plain(value):
    """A record value as plain Python (a stored list column reads back as an array)."""
    return value.tolist() if hasattr(value, "tolist") else value


def policy_digests(outdir):
    return {p.parent.name: json.loads(p.read_text())["policy_digest"] for p in (outdir / "train").glob("*/summary.json")}


# ------------------------------------------------------------------------------------------------------- [train]

BASE = ('game = "trustme_pinocchio"\ngames = 2\n[params]\nplayers = 2\n[lineups.t]\nseats = ["trained"]\n')

FAILURES = [
    ("iterations 0", "[train]\niterations = 0\n",
     r"^error: train\.iterations: iterations=0 is not allowed; allowed: an integer from 1 to 2,000,000,000$"),
    ("iterations too many", "[train]\niterations = 20_000_000_000\n",
     r"^error: train\.iterations: iterations=20000000000 is not allowed; allowed: an integer from 1 to 2,000,000,000$"),
    ("iterations text", '[train]\niterations = "many"\n',
     r"^error: train\.iterations: iterations='many' is not allowed; allowed: a whole number$"),
    ("iterations boolean", "[train]\niterations = true\n",
     r"^error: train\.iterations: iterations=True is not allowed; allowed: a whole number$"),
    ("seconds negative", "[train]\nseconds = -1.5\n",
     r"^error: train\.seconds: seconds=-1\.5 is not allowed; allowed: a number > 0 and <= 604,800 \(a week\)$"),
    ("two budgets", "[train]\niterations = 10\nseconds = 2\n",
     r"^error: train: iterations=10 and seconds=2 are both set; allowed: one budget"),
    ("epsilon above 1", "[train]\nepsilon = 2.0\n",
     r"^error: train\.epsilon: epsilon=2\.0 is not allowed; allowed: 0 < epsilon <= 1$"),
    ("detail negative", "[train]\ndetail = -1\n",
     r"^error: train\.detail: detail=-1 is not allowed; allowed: 0 \(the coarsest\) or more$"),
    ("seed fraction", "[train]\nseed = 1.5\n",
     r"^error: train\.seed: seed=1\.5 is not allowed; allowed: a whole number$"),
    ("key typo", "[train]\niteration = 10\n",
     r"^error: train\.iteration: unknown key; did you mean 'iterations'\?"),
    ("outdir is the sweep's", '[train]\noutdir = "x"\n', r"^error: train\.outdir: unknown key"),
    ("not a table", "train = 3\n", r"^error: train: must be a table of training knobs \(iterations, "),
]


@pytest.mark.parametrize("name, text, pattern", FAILURES, ids=[f[0] for f in FAILURES])
def test_a_bad_train_section_is_one_line_with_exit_2_and_writes_nothing(name, text, pattern, tmp_path, capfd):
    # (A top-level key goes before the first table.)
    path = write(tmp_path, BASE + text if text.startswith("[") else text + BASE)
    assert_refused(lambda: main([path, "--out", str(tmp_path / "out")]), tmp_path, pattern, capfd)


def test_train_defaults_fill_every_trained_seat_and_seat_knobs_win():
    spec = parse_spec({
        "game": "trustme_pinocchio", "grid": {"players": [2]},
        "lineups": {"plain": {"seats": ["trained"]},
                    "own_seed": {"seats": [{"bot": "trained", "knobs": {"seed": 9}}]},
                    "own_budget": {"seats": [{"bot": "trained", "knobs": {"seconds": 5}}]},
                    "probe": {"seats": [{"bot": "probe", "knobs": {"strategy": "never trust", "base": "trained"}},
                                        "trained"]},
                    "heuristic": {"seats": ["heuristic"]}},
        "train": {"iterations": 500, "seed": 2, "detail": 0},
    })
    knobs = {name: [dict(s.knobs) for s in lu.seats] for name, lu in spec.lineups.items()}
    assert knobs["plain"] == [{"iterations": 500, "seed": 2, "detail": 0}]
    assert knobs["own_seed"] == [{"iterations": 500, "seed": 9, "detail": 0}]
    # A seat's own budget replaces [train]'s (seconds and iterations are one budget).
    assert knobs["own_budget"] == [{"seconds": 5, "seed": 2, "detail": 0}]
    assert knobs["probe"][0]["base_knobs"] == {"iterations": 500, "seed": 2, "detail": 0}
    assert knobs["heuristic"] == [{}]
    assert spec.as_dict()["train"] == {"iterations": 500, "seed": 2, "detail": 0}
    # The normalised spec reads back as the same spec.
    assert parse_spec(spec.as_dict()).data_fingerprint() == spec.data_fingerprint()


def test_trained_line_ups_play_in_the_kernel_when_they_share_one_policy():
    spec = parse_spec({
        "game": "trustme_pinocchio", "params": {"players": 3},
        "lineups": {"trained": {"seats": ["trained"]},
                    "mixed": {"seats": ["heuristic", "trained", "random"]},
                    "two_policies": {"seats": ["trained", {"bot": "trained", "knobs": {"seed": 5}}, "random"]},
                    "with_search": {"seats": ["trained", {"bot": "search", "knobs": {"budget": 4}}, "random"]}},
        "train": {"iterations": ITERATIONS},
    })
    engine = {v.lineup.name: (v.engine, v.engine_note) for v in spec.variants}
    assert engine["trained"] == ("kernel", "")
    assert engine["mixed"] == ("kernel", "")
    assert engine["two_policies"][0] == "pyspiel" and "one trained policy" in engine["two_policies"][1]
    assert engine["with_search"][0] == "pyspiel"


@pytest.mark.parametrize("game", ["trustme_liar", "trustme_1981"])
def test_liar_and_1981_trained_line_ups_play_in_their_kernels(game):
    """Both games' kernels take trained seats with a policy handed over (their entries' ``policy_seat_kinds``)."""
    spec = parse_spec({
        "game": game, "params": {"players": 2},
        "lineups": {"trained": {"seats": ["trained"]}, "mixed": {"seats": ["trained", "heuristic"]}},
        "train": {"iterations": ITERATIONS},
    })
    assert {v.lineup.name: (v.engine, v.engine_note) for v in spec.variants} == {
        "trained": ("kernel", ""), "mixed": ("kernel", "")}
    assert game_entry(game).kernel.policy_seat_kinds == ("trained",)


def test_the_kernel_contract_admits_trained_seats_only_with_a_policy(tmp_path):
    game = pyspiel.load_game(TWO)
    entry = game_entry("trustme_pinocchio")
    assert entry.kernel.policy_seat_kinds == ("trained",)
    refused = entry.kernel_reason(game, ["trained", "heuristic"])
    assert "not trained" in refused and "only when handed a trained policy" in refused
    assert entry.kernel_reason(game, ["trained", "heuristic"], trained=True) is None
    # Rollouts with trained seats: only given a policy (a search player over the trained policy).
    assert entry.kernel.policy_rollout_kinds == ("trained",)
    assert "only when handed a trained policy" in entry.kernel_reason(game, ["trained"], use="rollout")
    assert entry.kernel_reason(game, ["trained"], use="rollout", trained=True) is None
    with pytest.raises(ValueError, match="not trained"):
        entry.new_kernel(game, ["trained", "random"])
    policy = train(TWO, game_settings(TWO, iterations=ITERATIONS, seed=1), tmp_path)
    kern = entry.new_kernel(game, ["trained", "random"], trained=(*policy.lookup(), 0))
    assert len(kern.play(np.arange(5, dtype=np.uint64))) == 5
    rollouts = entry.new_kernel(game, ["trained"], use="rollout", trained=(*policy.lookup(), 0))
    assert rollouts.rollouts(rollouts.new_state(), 3, 7).shape == (2,)


# ------------------------------------------------------------------------------------------------ the train stage


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    out = tmp_path_factory.mktemp("trained1")
    result = run_sweep(parse_spec(spec_data(), name="t"), workers=1, out=out, report=False, quiet=True)
    return out, result


def test_each_variant_trains_once_and_its_line_ups_share_the_policy(one_worker):
    out, result = one_worker
    spec = parse_spec(spec_data(), name="t")
    found = trainings(spec, out)
    # Two rule variants, two line-ups each: one policy per variant.
    assert len(found) == 2 and sorted(len(t.variants) for t in found) == [2, 2]
    assert sorted(policy_digests(out)) == sorted(t.fingerprint for t in found)
    assert result.games_played == 4 * 30
    manifest = load_manifest(out)
    assert manifest["fingerprint"]["policies"] == {f"trained:{fp}": d for fp, d in policy_digests(out).items()}
    assert set(manifest["fingerprint"]["kernel_variants"]) == {v.id for v in spec.variants}
    # The manifest's description of a seat does not name the output folder.
    assert all("outdir" not in seat["knobs"] for v in manifest["variants"] for seat in v["seats"])
    frame = load_records(out)
    assert set(frame["bot"]) == {"trained", "heuristic", "random"}


def test_two_workers_train_in_parallel_and_give_the_same_policies_and_games(one_worker, tmp_path):
    out1, _ = one_worker
    lines = []

    class Stream:
        def write(self, text):
            lines.append(text)

        def flush(self):
            pass

    run_sweep(parse_spec(spec_data(), name="t"), workers=2, out=tmp_path, report=False, stream=Stream(),
              progress=False)
    text = "".join(lines)
    assert "2 policies to train (2,000 iterations each) on 2 workers" in text
    assert policy_digests(tmp_path) == policy_digests(out1)
    pd.testing.assert_frame_equal(records_without_paths(tmp_path), records_without_paths(out1))


def test_dask_trains_the_same_policies(one_worker, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    out1, _ = one_worker
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cl:
        with distributed.Client(cl) as client:
            run_sweep(parse_spec(spec_data(), name="t"), dask=client, out=tmp_path, report=False, quiet=True)
    assert policy_digests(tmp_path) == policy_digests(out1)
    pd.testing.assert_frame_equal(records_without_paths(tmp_path), records_without_paths(out1))


def test_stored_policies_are_reused_and_stale_ones_trained_again(one_worker, tmp_path):
    out1, _ = one_worker
    out = tmp_path / "out"
    shutil.copytree(out1, out)
    before = policy_digests(out)
    summary = next((out / "train").glob("*/summary.json"))
    lines = []

    class Stream:
        def write(self, text):
            lines.append(text)

        def flush(self):
            pass

    result = run_sweep(parse_spec(spec_data(), name="t"), workers=1, out=out, report=False, stream=Stream(),
                       progress=False)
    assert result.games_played == 0 and "2 of 2 trained policies already stored" in "".join(lines)
    # Stale: made by other code. Trained again (the same iterations give the same policy), and the stored games
    # are kept because the policy came out the same.
    data = json.loads(summary.read_text())
    data["code"] = "other code"
    summary.write_text(json.dumps(data))
    lines.clear()
    result = run_sweep(parse_spec(spec_data(), name="t"), workers=1, out=out, report=False, stream=Stream(),
                       progress=False)
    text = "".join(lines)
    assert "1 policy to train" in text and result.games_played == 0, text
    assert policy_digests(out) == before
    assert json.loads(summary.read_text())["code"] != "other code"


def test_games_of_another_policy_are_not_mixed_in(one_worker, tmp_path):
    out1, _ = one_worker
    out = tmp_path / "out"
    shutil.copytree(out1, out)
    spec = parse_spec(spec_data(games=40), name="t")
    # Another policy in the same folder (trained with another seed, stored under this one's fingerprint).
    target = trainings(spec, out)[0]
    other = train(target.game_string, game_settings(target.game_string, iterations=ITERATIONS, seed=77),
                  tmp_path / "other")
    folder = out / "train" / target.fingerprint
    shutil.copy(other.folder / "policy.npz", folder / "policy.npz")
    data = json.loads((folder / "summary.json").read_text())
    data["policy_digest"] = other.summary["policy_digest"]
    (folder / "summary.json").write_text(json.dumps(data))
    with pytest.raises(SweepError, match=r"differs in: policies"):
        run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    # A stale policy that comes out differently when trained again is refused after the training.
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["fingerprint"]["policies"][target.key] = "0" * 16
    (out / "manifest.json").write_text(json.dumps(manifest))
    data["code"] = "other code"
    (folder / "summary.json").write_text(json.dumps(data))
    with pytest.raises(SweepError, match=r"games played by another trained policy than the one trained now"):
        run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    assert not list((out / "records").rglob("c0003*"))  # the new games (30 -> 40) were never played


# ------------------------------------------------------------------------------- the kernel's trained seats, exactly


def kernel_games(outdir, game_string, kinds, seeds):
    """The sweep's kernel player for these seats (policy stored under ``outdir``) and its games with histories."""
    lineup = parse_spec({"game": "trustme_pinocchio", "params": {"players": len(kinds)},
                         "lineups": {"x": {"seats": list(kinds)}}, "train": {"iterations": ITERATIONS, "seed": 1},
                         }).lineups["x"]
    from trustme_analysis.sweep.policies import OUTDIR_KNOB

    seats = tuple(engines.trained_seat({**dict(s.knobs), OUTDIR_KNOB: str(outdir)}) if s.bot == "trained" else s.bot
                  for s in lineup.seats)
    player = engines.KernelPlayer(game_string, seats)
    return player, player.play(seeds, histories=True)


def test_kernel_trained_seats_play_only_moves_the_policy_gives_probability_and_replay_exactly(one_worker):
    """Mixed line-ups (trained, heuristic and random seats): every kernel game replays through the engine to the
    same records the sweep stored, and every move of a trained seat has positive probability under the trained bot,
    every move of a heuristic seat under the heuristic bot."""
    out, _ = one_worker
    spec = parse_spec(spec_data(), name="t")
    variant = next(v for v in spec.variants if v.lineup.name == "mixed")
    frame = load_records(out)
    frame = frame[frame["variant"] == variant.id]
    game = pyspiel.load_game(variant.game_string)
    records = game_entry("trustme_pinocchio").part("records")
    resolved = trainings(spec, out)[0]
    bots = {0: make_bot(game, "trained", 0, np.random.default_rng(0), iterations=ITERATIONS, seed=1,
                        outdir=resolved.outdir),
            1: make_bot(game, "heuristic", 1, np.random.default_rng(0))}
    from trustme_analysis.sweep.policies import resolve_trained

    lineup = next(v for v in resolve_trained(spec, out, require=True).variants if v.id == variant.id).lineup
    checked = 0
    for seed in frame["game_seed"].unique()[:12]:
        state = replay_game(variant.game_string, lineup, int(seed), engine="kernel")
        replay = game.new_initial_state()
        for a in state.history():
            p = replay.current_player()
            if p in bots:
                assert bots[p].action_probabilities(replay).get(a, 0.0) > 0.0
                checked += p == 0
            replay.apply_action(a)
        stored_rows = frame[frame["game_seed"] == seed].sort_values("seat")
        for row, mine in zip(stored_rows.to_dict("records"), records(game, state)):
            # (As JSON: NaN, an unset value, equals itself there.)
            assert (json.dumps({k: plain(row[k]) for k in mine}, sort_keys=True, default=str)
                    == json.dumps({k: plain(v) for k, v in mine.items()}, sort_keys=True, default=str))
    assert checked > 50


def test_kernel_trained_seat_draws_the_stored_policys_probabilities(tmp_path):
    """The kernel's trained seat draws a row entry by one uniform number, then one of the moves it describes (the
    pyspiel bot walks the moves with one uniform number instead, so the two engines' games differ by design): at
    positions of real games, its draws over many generator states match the trained bot's stated probabilities, and
    a move of probability 0 is never drawn."""
    policy = train(TWO, game_settings(TWO, iterations=ITERATIONS, seed=1), tmp_path)
    game = pyspiel.load_game(TWO)
    player, games = kernel_games(tmp_path, TWO, ["trained", "trained"], np.arange(3, dtype=np.uint64))
    kern = player.kernel
    keys, avg = policy.lookup()
    bot = make_bot(game, "trained", 0, np.random.default_rng(0), iterations=ITERATIONS, seed=1, outdir=str(tmp_path))
    scratch = [np.empty(K.MAXA, np.int64), np.empty(K.MAXC, np.int64), np.empty(K.MAXA, np.int64),
               np.empty(K.MAXA, np.int64), np.empty(K.MAXA)]
    draws = 1_500  # 5 sigma at 1,500 draws still tells a wrong share of 0.05 from 0.10
    positions = 0
    mixed = 0
    for g in range(2):  # two games' first decisions: 40-odd positions, enough mixed ones
        state = game.new_initial_state()
        for a in games.history(g)[:40]:
            p = state.current_player()
            if p >= 0:
                bot.player_id = p
                probs = bot.action_probabilities(state)
                ks = kern.from_history(state.history())  # (state_from starts the record counters at zero)
                counts: dict[int, int] = {}
                for r in range(draws):
                    rng = np.array([r * 0x9E3779B97F4A7C15 % 2**64], np.uint64)
                    move = int(trained_action(ks.s, kern.R, rng, keys, avg, 0, *scratch))
                    counts[move] = counts.get(move, 0) + 1
                for move, n in counts.items():
                    assert probs.get(move, 0.0) > 0.0, (move, probs)
                for move, q in probs.items():
                    share = counts.get(move, 0) / draws
                    assert abs(share - q) <= 5 * np.sqrt(q * (1 - q) / draws) + 1e-12, (move, share, q)
                positions += 1
                mixed += sum(q > 0 for q in probs.values()) > 1
            state.apply_action(a)
    assert positions > 20 and mixed > 10


# -------------------------------------------------------------------------------------------- [trust], trained


def test_the_trust_check_challenges_a_trained_line_up_with_its_stored_policy(tmp_path):
    """Probes (over the heuristic, at kernel speed) and the search player in one seat of the trained line-up: the
    check's sub-sweep plays the main sweep's stored policy (nothing trained again under ``checks/``), the probe gets
    its power-sized games ("auto") and the search player its own, and the table has every challenger."""
    from trustme_analysis.results.checks import trust_tables
    from trustme_analysis.sweep.checks import probe_games_for

    data = {"game": "trustme_pinocchio", "games": 4, "seed": 2, "params": {"players": 2},
            "lineups": {"trained": {"seats": ["trained"]}}, "train": {"iterations": ITERATIONS, "seed": 1},
            "trust": {"games": 2, "lineups": ["trained"], "probes": ["never trust"], "search": {"budget": 4}}}
    run_sweep(parse_spec(data, name="trust"), workers=1, out=tmp_path, report=False, quiet=True)
    assert not list((tmp_path / "checks").rglob("train"))
    sub = load_manifest(tmp_path / "checks" / "trust-v00")
    seats = [seat for lu in sub["spec"]["lineups"].values() for seat in lu["seats"]]
    trained = [s for s in seats if s["bot"] == "trained"]
    probes = [s for s in seats if s["bot"] == "probe"]
    assert trained and all(s["knobs"]["outdir"] == str(tmp_path.resolve()) for s in trained)
    assert probes and all(p["knobs"] == {"strategy": "never trust"} for p in probes)
    trust, verdicts = trust_tables(tmp_path, {"v00": "trained"})
    assert list(trust["challenger"]) == ["never trust", "search player"]
    # One probe, 2 players: 1,716 games find a 3-point excess over a fair half (in whole rounds of the seats).
    assert list(trust["games"]) == [probe_games_for(2, 1), 2] and list(trust["lineup"]) == ["trained", "trained"]
    assert len(verdicts) == 1 and verdicts["verdict"].iloc[0] in ("holds", "exploitable")
    assert verdicts["search_games"].iloc[0] == 2


def test_the_train_stage_hands_out_the_longest_trainings_first():
    from trustme_analysis.sweep.policies import Training
    from trustme_analysis.sweep.runner import longest_first
    from trustme_analysis.train import TrainSettings

    def training(players, iterations=None, seconds=None):
        return Training(f"trustme_pinocchio(players={players})",
                        TrainSettings(iterations=iterations, seconds=seconds), "out", f"f{players}-{iterations}")

    todo = [training(2, 1_200_000), training(3, 1_200_000), training(4, 1_200_000), training(2, 2_400_000),
            training(4, seconds=1.0)]
    order = [t.fingerprint for t in longest_first(todo)]
    # 4p x 1.2M = 4.8M, 3p = 3.6M, 2p x 2.4M = 4.8M (ties keep the variant order), 2p x 1.2M; 1 CPU s ~ 20,000 it
    assert order == ["f4-1200000", "f2-2400000", "f3-1200000", "f2-1200000", "f4-None"]
