"""Every failure a sweep meets ends in one line on stderr, with the exit status it documents, and loses nothing.

A bad input (spec file, pool weights, --out, --dask, a damaged manifest) changes no file; a folder that stops taking
files part-way keeps the chunks stored so far; a damaged or foreign chunk is played again; a sweep of very many
chunks makes its chunk tasks as it goes.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import socket
from pathlib import Path

import pandas as pd
import pytest
import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry)

import trustme_analysis.sweep.play as play
import trustme_analysis.sweep.runner as runner
from trustme_analysis.outdir import CHUNKS, MANIFEST, RECORDS, chunk_path, file_sha256, load_manifest, load_records
from trustme_analysis.sweep import storage
from trustme_analysis.sweep.__main__ import main
from trustme_analysis.sweep.manifest import write_manifest
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import load_spec, parse_spec

SPEC = 'title = "failures"\ngame = "kuhn_poker"\ngames = 6\nchunk_size = 2\n[grid]\nplayers = [2, 3]\n'
CHUNKS_TOTAL = 6


def snapshot(root: Path) -> dict[str, tuple]:
    """Every file and folder under ``root`` with its kind, modification time and contents."""
    return {
        p.relative_to(root).as_posix(): (p.is_dir(), p.stat().st_mtime_ns, None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _spec(tmp: Path, text: str | bytes = SPEC, name: str = "s.toml") -> str:
    path = tmp / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def _swept(tmp: Path) -> tuple[str, Path]:
    """A finished sweep of SPEC in tmp/out (for the cases that damage it)."""
    spec = _spec(tmp)
    run_sweep(load_spec(spec), workers=1, out=tmp / "out", report=False, quiet=True)
    return spec, tmp / "out"


def _pool(weights: str) -> str:
    return f'game = "kuhn_poker"\ngames = 2\n[lineups.p]\npool = [{weights}]\n'


def case_not_utf8(tmp):
    return [_spec(tmp, b'title = "caf\xe9"\ngame = "kuhn_poker"\n')]


def case_binary(tmp):
    return [_spec(tmp, b"\x7fELF\x02\x01\x01\x00\x00\x00game = 1")]


def case_folder(tmp):
    (tmp / "folder.toml").mkdir()
    return [str(tmp / "folder.toml")]


def case_truncated_manifest(tmp):
    spec, out = _swept(tmp)
    text = (out / MANIFEST).read_text()
    (out / MANIFEST).write_text(text[: len(text) // 2])
    return [spec, "--out", str(out)]


def case_list_manifest(tmp):
    spec, out = _swept(tmp)
    (out / MANIFEST).write_text("[]\n")
    return [spec, "--out", str(out)]


def case_out_under_a_file(tmp):
    (tmp / "afile").write_text("x")
    return [_spec(tmp), "--out", str(tmp / "afile" / "sub")]


def case_out_is_a_file(tmp):
    (tmp / "afile").write_text("x")
    return [_spec(tmp), "--out", str(tmp / "afile")]


BAD_INPUTS = [
    # (case id, setup(tmp) -> arguments, pattern of the one line)
    ("spec not UTF-8", case_not_utf8,
     r"error: spec file '.*s\.toml' is not UTF-8 text: byte 0xe9 at line 1, column 13; save it as UTF-8"),
    ("spec binary", case_binary, r"error: spec file '.*s\.toml' is a binary file \(it holds NUL bytes\)"),
    ("spec is a folder", case_folder, r"error: spec file '.*folder\.toml' is a folder; give the path of a"),
    ("spec missing", lambda tmp: [str(tmp / "nope.toml")], r"error: spec file '.*nope\.toml' does not exist"),
    ("pool weight inf", lambda tmp: [_spec(tmp, _pool('{bot = "random", weight = inf}'))],
     r"error: lineups\.p\.pool\[0\]\.weight: must be a positive number \(a finite one.*\), got inf$"),
    ("pool weight nan", lambda tmp: [_spec(tmp, _pool('{bot = "random", weight = nan}'))],
     r"error: lineups\.p\.pool\[0\]\.weight: must be a positive number \(a finite one.*\), got nan$"),
    ("pool weights overflow", lambda tmp: [_spec(tmp, _pool('{bot = "random", weight = 1e308}, "random", '
                                                         '{bot = "random", weight = 1e308}'))],
     r"error: lineups\.p\.pool: the weights add up to more than the largest number .* use smaller weights"),
    ("games absurd", lambda tmp: [_spec(tmp, 'game = "kuhn_poker"\ngames = 1000000000000\n')],
     r"error: games: 1,000,000,000,000 games x 1 variant\(s\) in chunks of 50 make 20,000,000,000 chunks; a "
     r"sweep may have at most 200,000 .*: lower games to at most 10,000,000 per variant"),
    ("chunk_size absurd", lambda tmp: [_spec(tmp, 'game = "kuhn_poker"\nchunk_size = 1000000\n')],
     r"error: chunk_size: must be at most 100,000 games .*, got 1,000,000$"),
    ("--out empty", lambda tmp: [_spec(tmp), "--out", ""],
     r"error: --out: must be a folder path, got an empty string$"),
    ("--out under a file", case_out_under_a_file,
     r"error: output folder '.*afile/sub' cannot be created: '.*afile' is a file, not a folder$"),
    ("--out is a file", case_out_is_a_file, r"error: output folder '.*afile' exists and is not a folder$"),
    ("--dask not a url", lambda tmp: [_spec(tmp), "--out", str(tmp / "o"), "--dask", "not a url"],
     r"error: --dask: 'not a url' is not a Dask scheduler address; allowed: 'local' .* tcp://host:8786$"),
    ("--dask refused", lambda tmp: [_spec(tmp), "--out", str(tmp / "o"), "--dask", f"tcp://127.0.0.1:{closed_port()}"],
     r"error: --dask: cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:\d+': Connection refused; start one"),
    ("manifest truncated", case_truncated_manifest,
     r"error: .*out/manifest\.json is damaged \(not valid JSON: .*, line \d+, column \d+\); it records which spec"),
    ("manifest holds []", case_list_manifest,
     r"error: .*out/manifest\.json is not a sweep manifest \(it holds a JSON list, not an object\)"),
]


@pytest.mark.parametrize("check", [False, True], ids=["run", "--check"])
@pytest.mark.parametrize("name, setup, pattern", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_a_bad_input_is_one_line_with_exit_2_and_changes_nothing(name, setup, pattern, check, tmp_path, monkeypatch,
                                                                 capsys):
    monkeypatch.chdir(tmp_path)  # a run that wrongly wrote into the current folder would show in the snapshot
    args = setup(tmp_path)
    before = snapshot(tmp_path)
    capsys.readouterr()
    assert main([*args, "--workers", "1", "--no-report", *(["--check"] if check else [])]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.match(pattern, one_line(captured.err)), captured.err
    assert snapshot(tmp_path) == before


def test_a_read_only_output_folder_is_refused_before_anything_is_written(tmp_path, monkeypatch, capsys):
    spec = _spec(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: make the folder look read-only to the check instead
        real = os.access
        monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != locked and real(p, mode, **kw))
    else:
        locked.chmod(0o555)
    before = snapshot(tmp_path)
    for target, words in ((locked, "is not writable (read-only or permission denied)"),
                          (locked / "new", f"cannot be created: '{locked}' is not writable")):
        for check in ([], ["--check"]):
            assert main([spec, "--out", str(target), "--no-report", *check]) == 2
            line = one_line(capsys.readouterr().err)
            assert line.startswith(f"error: output folder '{target}' ") and words in line, line
    assert snapshot(tmp_path) == before


def test_a_utf8_byte_order_mark_is_accepted(tmp_path, capsys):
    plain = _spec(tmp_path, SPEC, "plain.toml")
    marked = _spec(tmp_path, b"\xef\xbb\xbf" + SPEC.encode(), "bom.toml")
    assert load_spec(marked).variants == load_spec(plain).variants
    assert main([marked, "--check"]) == 0
    assert capsys.readouterr().out.startswith(f"spec {marked} is valid: failures\n")


def test_an_unreachable_dask_address_says_what_it_waits_for_and_gives_up(tmp_path, monkeypatch, capsys):
    # Something accepts connections but never answers: the client's own timeout would wait forever.
    monkeypatch.setattr(runner, "DASK_CONNECT_SECONDS", 1)
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
        assert main([_spec(tmp_path), "--out", str(tmp_path / "o"), "--dask", address, "--no-report"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"connecting to the Dask scheduler at {address} (waiting up to 1 s)",
                     f"error: --dask: nothing answered as a Dask scheduler at '{address}' within 1 s (the address "
                     "accepts connections but says nothing); check the address"]
    assert not (tmp_path / "o").exists()


# ------------------------------------------------------------------------------------------- failures part-way


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> pd.DataFrame:
    tmp = tmp_path_factory.mktemp("reference")
    _, out = _swept(tmp)
    return load_records(out)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS], ids=["disk full", "turned read-only"])
def test_a_folder_refusing_files_part_way_stops_in_one_line_and_keeps_the_chunks(code, reference, tmp_path,
                                                                                   monkeypatch, capsys):
    spec = _spec(tmp_path)
    out = tmp_path / "out"
    real_write_chunk, real_write_manifest = storage.write_chunk, runner.write_manifest
    written = []

    def write_chunk(*args, **kwargs):
        if len(written) == 2:
            raise OSError(code, os.strerror(code))
        written.append(args[1:3])
        return real_write_chunk(*args, **kwargs)

    def write_manifest_(*args, **kwargs):
        if len(written) == 2:  # the manifest cannot be saved either once the folder refuses files
            raise OSError(code, os.strerror(code))
        return real_write_manifest(*args, **kwargs)

    monkeypatch.setattr(storage, "write_chunk", write_chunk)
    monkeypatch.setattr(runner, "write_manifest", write_manifest_)
    assert main([spec, "--out", str(out), "--workers", "1", "--no-report", "--quiet"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith(f"error: cannot write {chunk_path(out, 'v00', 2)}: {os.strerror(code)}; 2 of "
                           f"{CHUNKS_TOTAL} chunks are stored in {out}; free space (or make the folder writable), "
                           "then run the same command again to play only the missing ones"), line
    stored = sorted((out / RECORDS).rglob("*"))
    assert [p.name for p in stored if p.is_file()] == ["chunk-00000.parquet", "chunk-00001.parquet"]
    assert all(len(pd.read_parquet(p)) == 4 for p in stored if p.is_file())  # whole chunks: 2 games x 2 seats
    assert not list(out.glob(f"{MANIFEST}.tmp-*"))

    monkeypatch.undo()
    assert main([spec, "--out", str(out), "--workers", "1", "--no-report", "--quiet"]) == 0
    pd.testing.assert_frame_equal(load_records(out), reference)


def test_the_manifest_records_each_chunks_checksum_and_games(tmp_path):
    _, out = _swept(tmp_path)
    chunks = load_manifest(out)[CHUNKS]
    assert sorted(chunks) == ["v00", "v01"]
    for vid, entries in chunks.items():
        assert sorted(entries) == ["0", "1", "2"]
        for c, entry in entries.items():
            assert entry == {"sha256": file_sha256(chunk_path(out, vid, int(c))), "games": 2}


def _damage_truncate(out: Path) -> Path:
    path = chunk_path(out, "v01", 1)
    path.write_bytes(path.read_bytes()[:100])
    return path


def _damage_copy_from_other_variant(out: Path) -> Path:
    path = chunk_path(out, "v01", 1)
    shutil.copyfile(chunk_path(out, "v00", 1), path)
    return path


def _damage_copy_unrecorded(out: Path) -> Path:
    # As a killed run leaves it: the manifest lacks the chunk's checksum, and the file is not that chunk.
    manifest = load_manifest(out)
    del manifest[CHUNKS]["v01"]["1"]
    write_manifest(out, manifest)
    return _damage_copy_from_other_variant(out)


@pytest.mark.parametrize("damage, problem", [
    (_damage_truncate, "its checksum differs from the one manifest.json recorded"),
    (_damage_copy_from_other_variant, "its checksum differs from the one manifest.json recorded"),
    (_damage_copy_unrecorded, "holds the records of variant v00, not v01"),
], ids=["truncated", "copied from another variant", "copied, unrecorded"])
def test_a_damaged_or_foreign_chunk_is_played_again(damage, problem, reference, tmp_path, capsys):
    spec, out = _swept(tmp_path)
    path = damage(out)
    capsys.readouterr()
    assert main([spec, "--out", str(out), "--workers", "1", "--no-report"]) == 0
    err = capsys.readouterr().err
    assert f"{path} {problem}" in err and ": playing it again" in err, err
    pd.testing.assert_frame_equal(load_records(out), reference)
    assert load_manifest(out)[CHUNKS]["v01"]["1"]["sha256"] == file_sha256(path)


def test_chunks_a_killed_run_did_not_record_are_checked_and_kept(reference, tmp_path, capsys):
    spec, out = _swept(tmp_path)
    manifest = load_manifest(out)
    manifest.pop(CHUNKS)
    manifest["complete"] = False
    write_manifest(out, manifest)
    before = {p: p.stat().st_mtime_ns for p in (out / RECORDS).rglob("*.parquet")}
    assert main([spec, "--out", str(out), "--workers", "1", "--no-report"]) == 0
    assert "playing it again" not in capsys.readouterr().err
    assert {p: p.stat().st_mtime_ns for p in (out / RECORDS).rglob("*.parquet")} == before  # kept, not replayed
    assert sum(len(v) for v in load_manifest(out)[CHUNKS].values()) == CHUNKS_TOTAL
    pd.testing.assert_frame_equal(load_records(out), reference)


def test_a_huge_sweep_makes_its_chunk_tasks_as_it_goes(tmp_path, monkeypatch, capsys):
    # 100,000 chunks: building every task up front is what made a huge spec hang; only a handful are ever made here.
    spec = parse_spec({"game": "kuhn_poker", "games": 10_000_000, "chunk_size": 100}, name="huge")
    made = []
    real_task, real_write = play.chunk_task, storage.write_chunk

    def counting_task(*args, **kwargs):
        made.append(args[2])
        return real_task(*args, **kwargs)

    def stop_after_three(outdir, variant_id, chunk_index, data):
        if chunk_index == 3:
            raise KeyboardInterrupt
        return real_write(outdir, variant_id, chunk_index, data)

    monkeypatch.setattr(play, "chunk_task", counting_task)
    monkeypatch.setattr(storage, "write_chunk", stop_after_three)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, workers=1, out=tmp_path, report=False)
    assert made == [0, 1, 2, 3]
    assert "stopped: 3 of 100000 chunks are stored" in capsys.readouterr().err
    # --check states the work of the same spec without making its tasks.
    (tmp_path / "huge.toml").write_text('game = "kuhn_poker"\ngames = 10000000\nchunk_size = 100\n')
    assert main([str(tmp_path / "huge.toml"), "--check", "--out", str(tmp_path / "x")]) == 0
    assert "work: 10,000,000 games in 100,000 chunk(s); about " in capsys.readouterr().out


def test_more_workers_than_cores_is_warned_about(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert main([_spec(tmp_path), "--out", str(tmp_path / "o"), "--workers", "2", "--no-report"]) == 0
    assert ("warning: --workers 2 is more than the 1 core(s) of this machine: the extra workers only share the cores"
            in capsys.readouterr().err)
    assert main([_spec(tmp_path), "--out", str(tmp_path / "p"), "--workers", "1", "--no-report"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_manifest_temp_files_are_never_left_behind(tmp_path, monkeypatch, capsys):
    spec, out = _swept(tmp_path)
    # A run killed between writing the manifest's temporary file and renaming it leaves one; the next run removes it.
    (out / f"{MANIFEST}.tmp-424242").write_text("{")
    chunk_path(out, "v00", 0).unlink()
    assert main([spec, "--out", str(out), "--workers", "1", "--no-report"]) == 0
    assert "removed 1 half-written file(s) left by an interrupted run" in capsys.readouterr().err
    assert not list(out.glob(f"{MANIFEST}.tmp-*"))
    # A failed write removes its own temporary file.
    manifest = load_manifest(out)

    def refuse(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        write_manifest(out, manifest)
    monkeypatch.undo()
    assert not list(out.glob(f"{MANIFEST}.tmp-*"))
    assert hashlib.sha256((out / MANIFEST).read_bytes()).hexdigest() == hashlib.sha256(
        (json.dumps(manifest, indent=2) + "\n").encode()).hexdigest()


def test_a_solve_section_too_large_to_compile_is_refused_from_an_estimate(tmp_path, monkeypatch, capsys):
    def never(*args, **kwargs):
        raise AssertionError("the tree was compiled")

    monkeypatch.setattr("trustme_analysis.solve.run.cfr.compile_game", never)
    spec = _spec(tmp_path, 'game = "trustme_pinocchio"\ngames = 2\n[[solve]]\nname = "full"\ngame = '
                           '"trustme_pinocchio"\niterations = 1\nmax_histories = 100000\n')
    before = snapshot(tmp_path)
    assert main([spec, "--out", str(tmp_path / "out"), "--no-report"]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("error: solve 'full': trustme_pinocchio(") and (
        "the tree is estimated at about " in line and "Knuth's estimator), above max_histories=100000" in line
        and "choose smaller parameters, raise max_histories, or use a sampling solver" in line
        and line.endswith("reports a lower bound on the exploitability")), line
    assert snapshot(tmp_path) == before
    # The solve command itself says the same, in one line.
    from trustme_analysis.solve.__main__ import main as solve_main

    assert solve_main([spec, "--out", str(tmp_path / "out")]) == 2
    line = one_line(capsys.readouterr().err)
    assert line.startswith("error: solve 'full': ") and "above max_histories=100000" in line, line
    assert snapshot(tmp_path) == before
