"""The ``engine`` key: kernel or pyspiel path per variant, the same records' shape, determinism and agreement."""

from __future__ import annotations

import io
import time

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.outdir import RECORDS, load_manifest, load_records
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.play import COMMON_COLUMNS, chunk_task, replay_game, run_chunk
from trustme_analysis.sweep.runner import SweepError, run_sweep
from trustme_analysis.sweep.spec import SpecError, parse_spec

RANDOM = {"random": {"seats": [{"bot": "random"}]}}


def spec_dict(game: str, players: int = 2, games: int = 40, chunk_size: int = 13, **extra):
    return {"game": game, "games": games, "chunk_size": chunk_size, "seed": 5, "grid": {"players": [players]},
            "lineups": RANDOM, **extra}


def chunk_bytes(outdir):
    return {p.relative_to(outdir).as_posix(): p.read_bytes() for p in sorted((outdir / RECORDS).rglob("*.parquet"))}


def test_the_engine_key_takes_three_values():
    with pytest.raises(SpecError, match=r"^engine: must be one of 'auto', 'kernel', 'pyspiel', got 'kernal'; did "):
        parse_spec(spec_dict("trustme_liar", engine="kernal"))


@pytest.mark.parametrize("game", ["trustme_pinocchio", "trustme_liar", "trustme_1981"])
def test_auto_plays_random_seats_with_the_kernel_and_other_line_ups_on_pyspiel(game):
    lineups = {**RANDOM, "searching": {"seats": [{"bot": "search"}]},
               "drawn": {"pool": [{"bot": "random", "weight": 1}]}}
    spec = parse_spec(spec_dict(game, lineups=lineups))
    by_lineup = {v.lineup.name: v for v in spec.variants}
    assert by_lineup["random"].engine == "kernel" and by_lineup["random"].engine_note == ""
    assert by_lineup["searching"].engine == "pyspiel" and "search" in by_lineup["searching"].engine_note
    assert by_lineup["drawn"].engine == "pyspiel" and "pool" in by_lineup["drawn"].engine_note
    assert {v.engine for v in parse_spec(spec_dict(game, lineups=lineups, engine="pyspiel")).variants} == {"pyspiel"}


@pytest.mark.parametrize("game", ["trustme_pinocchio", "trustme_liar", "trustme_1981"])
def test_a_heuristic_line_up_uses_the_kernel_only_where_its_game_loop_plays_heuristic_seats(game):
    """A kernel whose compiled heuristic serves only rollouts (its entry's ``game_seat_kinds`` lacks ``heuristic``) must not
    play a sweep's heuristic line-up: its whole-game loop would play uniform random seats under the heuristic's
    name. Where the loop does play them, its games are the heuristic's, not random ones."""
    lineups = {"heuristic": {"seats": [{"bot": "heuristic"}]}}
    variant = parse_spec(spec_dict(game, lineups=lineups)).variants[0]
    if "heuristic" in game_entry(game).kernel.game_seat_kinds:
        assert variant.engine == "kernel", variant.engine_note
        seeds = list(range(1, 201))
        played = {kind: engines.kernel_player(variant.game_string, (kind,) * 2).columns(seeds)
                  for kind in ("heuristic", "random")}
        assert played["heuristic"]["turns"] != played["random"]["turns"]
    else:
        assert variant.engine == "pyspiel" and "rollouts" in variant.engine_note
        with pytest.raises(SpecError, match="plays whole games with random seats only, not heuristic"):
            parse_spec(spec_dict(game, lineups=lineups, engine="kernel"))


def test_kernel_engine_refuses_a_seat_kind_it_cannot_play_in_one_line(tmp_path, capsys):
    with pytest.raises(SpecError, match=r"""^engine: "kernel" cannot play variant players=2, lineup=searching: .*not search"""):
        parse_spec(spec_dict("trustme_pinocchio", engine="kernel", lineups={"searching": {"seats": ["search"]}}))
    with pytest.raises(SpecError, match="set knobs, which kernels do not take"):
        parse_spec(spec_dict("trustme_liar", engine="kernel",
                             lineups={"h": {"seats": [{"bot": "heuristic", "knobs": {"bluff_rate": 0.5}}]}}))
    spec_file = tmp_path / "k.toml"
    spec_file.write_text('game = "trustme_liar"\nengine = "kernel"\n[lineups.drawn]\npool = [{ bot = "random" }]\n')
    assert main([str(spec_file), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "draws its seats from a pool" in err[0], err
    assert not (tmp_path / "out").exists()


def test_a_game_whose_kernel_only_produces_trees_plays_on_pyspiel_and_cannot_be_forced():
    spec = parse_spec({"game": "trustme_1981_investment", "lineups": RANDOM})
    why = "trustme_1981_investment's kernel only produces game trees for the solvers; it plays no games"
    assert (spec.variants[0].engine, spec.variants[0].engine_note) == ("pyspiel", why)
    with pytest.raises(SpecError, match="trustme_1981_investment's kernel only produces game trees"):
        parse_spec({"game": "trustme_1981_investment", "lineups": RANDOM, "engine": "kernel"})


#: A random line-up (kernel) and a pool of random seats (pyspiel path: pools are drawn game by game).
SWEEP = spec_dict("trustme_liar", lineups={**RANDOM, "drawn": {"pool": [{"bot": "random"}]}}, games=30, chunk_size=11)


@pytest.fixture(scope="module")
def liar_kernel_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("kernel1")
    spec = parse_spec(SWEEP, name="eng")
    run_sweep(spec, workers=1, out=out, report=False, quiet=True)
    return spec, out


def test_manifest_records_each_variants_engine(liar_kernel_sweep):
    spec, out = liar_kernel_sweep
    variants = {v["lineup"]: v for v in load_manifest(out)["variants"]}
    assert variants["random"]["engine"] == "kernel" and "engine_note" not in variants["random"]
    assert variants["drawn"]["engine"] == "pyspiel" and "pool" in variants["drawn"]["engine_note"]
    assert load_manifest(out)["fingerprint"]["kernel_variants"] == ["v00"]


def test_kernel_sweep_is_identical_on_one_and_two_workers_and_replays(liar_kernel_sweep, tmp_path):
    spec, out = liar_kernel_sweep
    run_sweep(spec, workers=2, out=tmp_path, report=False, quiet=True)
    assert chunk_bytes(tmp_path) == chunk_bytes(out)
    frame = load_records(out)
    kernel = next(v for v in spec.variants if v.engine == "kernel")
    rows = frame[frame["variant"] == kernel.id]
    assert list(frame.columns[: len(COMMON_COLUMNS) + 1]) == ["variant", "game_string", "param_players",
                                                               *COMMON_COLUMNS[2:]]
    records = game_entry("trustme_liar").part("records")
    for index in (0, 17, 29):
        game_rows = rows[rows["game_index"] == index].sort_values("seat")
        state = replay_game(kernel.game_string, kernel.lineup, int(game_rows["game_seed"].iloc[0]), engine="kernel")
        assert state.is_terminal()
        want = pd.DataFrame(records(state.get_game(), state))
        got = game_rows[want.columns].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, want, check_dtype=False)


def test_a_sweep_played_on_one_engine_is_not_resumed_on_the_other(liar_kernel_sweep):
    spec, out = liar_kernel_sweep
    other = parse_spec({**SWEEP, "engine": "pyspiel"}, name="eng")
    with pytest.raises(SweepError):
        run_sweep(other, workers=1, out=out, report=False, quiet=True)


def _chunk(game: str, engine: str, games: int, lineups: dict = RANDOM):
    spec = parse_spec(spec_dict(game, games=games, chunk_size=games, engine=engine, lineups=lineups))
    return run_chunk(chunk_task(spec, spec.variants[0], 0, game_entry(game).part("records")))


HEURISTIC = {"heuristic": {"seats": [{"bot": "heuristic"}]}}


def mixed(players: int) -> dict:
    """Heuristic and random seats taking turns."""
    return {"mixed": {"seats": [{"bot": ("heuristic", "random")[p % 2]} for p in range(players)]}}


def _same_on_both_engines(game: str, players: int, games: int, lineups: dict, **rules) -> pd.DataFrame:
    """The chunk of ``games`` games played by the kernel and by the pyspiel path: asserted identical, returned."""
    frames = {}
    for engine in ("kernel", "pyspiel"):
        spec = parse_spec(spec_dict(game, players=players, games=games, chunk_size=games, engine=engine,
                                    lineups=lineups, **({"params": rules} if rules else {})))
        assert spec.variants[0].engine == engine
        frames[engine] = run_chunk(chunk_task(spec, spec.variants[0], 0, game_entry(game).part("records")))
    pd.testing.assert_frame_equal(frames["kernel"], frames["pyspiel"])
    return frames["kernel"]


@pytest.mark.parametrize(("game", "players", "games", "lineups", "rules"), [
    ("trustme_pinocchio", 2, 300, RANDOM, {}),
    ("trustme_pinocchio", 2, 300, HEURISTIC, {}),
    ("trustme_pinocchio", 3, 150, mixed(3), {}),
    ("trustme_pinocchio", 4, 100, HEURISTIC, {"chart": "1/3/6/10/15/21", "coin_tossers": "any"}),
    ("trustme_liar", 2, 300, RANDOM, {}),
    ("trustme_liar", 2, 300, HEURISTIC, {}),
    ("trustme_liar", 4, 150, mixed(4), {}),
    ("trustme_liar", 5, 100, HEURISTIC, {"values": 7, "copies": 3, "max_play": 2, "first_player": "seat2"}),
    # A deal of 8 copies into 160 cards: C(160, 8) ~ 4.2e11 deals, past 2**32 (the draw's 128-bit branch).
    ("trustme_liar", 2, 12, RANDOM, {"values": 20, "copies": 8, "max_play": 6}),
    ("trustme_1981", 2, 100, RANDOM, {}),
    ("trustme_1981", 2, 100, HEURISTIC, {}),
    ("trustme_1981", 3, 60, mixed(3), {}),
])
def test_both_engines_give_identical_records_from_the_same_seeds(game, players, games, lineups, rules):
    """The standard: the same spec and seed give identical results whichever engine plays them. A line-up the kernel
    plays draws from one stream per game by the draw protocol (trustme_analysis/engine/draws.py) on both paths, so
    the compiled kernel and the Python engine with the Python bots give the same games, record for record."""
    frame = _same_on_both_engines(game, players, games, lineups, **rules)
    assert frame["game_seed"].nunique() == games
    # The games differ from each other (the seeds are used), so the frames are not equal by accident.
    own = [c for c in frame.columns if c not in COMMON_COLUMNS and not c.startswith("param_")]
    assert frame[own].astype(str).drop_duplicates().shape[0] > 10


def test_1981_kernel_records_have_the_pyspiel_paths_columns_and_types():
    kernel, pyspiel_path = _chunk("trustme_1981", "kernel", 6), _chunk("trustme_1981", "pyspiel", 6)
    assert list(kernel.columns) == list(pyspiel_path.columns)
    assert (kernel.dtypes == pyspiel_path.dtypes).all()


def test_the_progress_line_says_compiling_while_kernels_compile(tmp_path, monkeypatch):
    def slow_warm_up(game_string, kinds):
        time.sleep(1.6)  # longer than the runner waits before it calls it a compile

    monkeypatch.setattr(engines, "warm_up", slow_warm_up)
    stream = io.StringIO()
    run_sweep(parse_spec(spec_dict("trustme_liar", games=4, chunk_size=4)), workers=1, out=tmp_path, report=False,
              stream=stream)
    text = stream.getvalue()
    assert "0/4 games (  0.0%)  compiling (first run only)" in text
    assert text.index("compiling") < text.index("4/4 games")


def test_kernel_rows_come_from_the_kernels_own_seeds():
    """A chunk's kernel rows are the kernel's games of the chunk's game seeds (each game from its seed alone)."""
    spec = parse_spec(spec_dict("trustme_pinocchio", games=9, chunk_size=9))
    frame = run_chunk(chunk_task(spec, spec.variants[0], 0, game_entry("trustme_pinocchio").part("records")))
    seeds = frame.loc[frame["seat"] == 0, "game_seed"].tolist()
    player = engines.kernel_player(spec.variants[0].game_string, ("random", "random"))
    alone = [player.rows([s])[0] for s in seeds[::4]]
    together = player.rows(seeds)[::4]
    # (frames: the rows hold NaN, which is not equal to itself in a plain comparison)
    pd.testing.assert_frame_equal(pd.DataFrame(sum(alone, [])), pd.DataFrame(sum(together, [])))
    assert frame.loc[frame["game_index"] == 4, "score"].tolist() == [r["score"] for r in together[1]]
    assert np.all(frame["bot_knobs"] == "{}")


@pytest.mark.parametrize("game_string", ["trustme_pinocchio(players=3)", "trustme_liar(players=4)",
                                         "trustme_1981(players=2)", "trustme_pinocchio(players=2,values=3,copies=2,"
                                         "two_player_removed=0,park_size=2,stacks=1/1/1,chart=1/3/6,runouts_to_end=1)"])
def test_kernel_columns_are_the_kernels_rows_column_by_column(game_string):
    """The sweep reads a kernel's records column by column (fast); they are its ``to_rows()``, in order and type."""
    player = engines.KernelPlayer(game_string, ["random"] * engines._game(game_string).num_players())
    seeds = list(range(300, 500))
    by_rows = pd.DataFrame([row for game in player.rows(seeds) for row in game])
    pd.testing.assert_frame_equal(pd.DataFrame(player.columns(seeds)), by_rows)


@pytest.mark.parametrize("game_string,kind", [
    ("trustme_pinocchio(players=2)", "random"), ("trustme_pinocchio(players=4)", "heuristic"),
    ("trustme_liar(players=4)", "random"), ("trustme_liar(players=3)", "heuristic"),
    ("trustme_1981(players=2)", "random"), ("trustme_1981(players=2)", "heuristic"),
])
def test_a_kernel_chunk_stored_through_arrow_is_the_frames_file_byte_for_byte(game_string, kind):
    """The sweep stores a kernel's chunk from Arrow arrays (no Python object per value); the file is the one the
    row-built frame gives (same columns, types, values, NaN as null, pandas' schema), so records do not change."""
    from trustme_analysis.players.lineup import LineUp, Seat
    from trustme_analysis.sweep import storage
    from trustme_analysis.sweep.play import ChunkTask, encoded_chunk, kernel_tables

    short = engines._game(game_string).get_type().short_name
    task = ChunkTask("v03", 3, 2, 40, 120, 11, game_string, LineUp(kind, seats=(Seat(kind),)),
                     {"players": 2, "chart": "1/3", "rate": 0.5, "flag": True}, game_entry(short).part("records"),
                     engine="kernel")
    frame = run_chunk(task)
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False, **storage.PARQUET_OPTIONS)
    assert encoded_chunk(task)["v03"] == buffer.getvalue() == storage.encode_chunk(frame)
    pd.testing.assert_frame_equal(kernel_tables(task)["v03"].to_pandas(), pd.read_parquet(buffer))
