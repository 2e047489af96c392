"""Save a solver's state to one file and resume it later with identical results.

Full-tree solvers and compiled sampling solvers store their arrays with ``numpy.savez`` (the latter with their
random generator's state in the JSON header); sampling solvers through the pyspiel API (whose tables are keyed by
information-state strings) are pickled. Either file records the game string, and the ``.npz`` files a fingerprint of
the tree's information sets; loading refuses a file written for another game.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from cfr.compile import CompiledGame, compile_game
from cfr.solvers import TreeSolver
from cfr.tree import KeyTable

_MAGIC = "cfr-checkpoint-1"


def fingerprint(cg: CompiledGame) -> str:
    """A hash of the information-state strings and legal actions of a compiled tree."""
    digest = hashlib.sha256()
    keys = cg.infoset_keys
    if isinstance(keys, KeyTable):
        keys.digest_update(digest)
    else:
        for key in keys:
            digest.update(key.encode())
            digest.update(b"\0")
    # int64 whatever the stored dtype, so that fingerprints do not change with the compact layout.
    digest.update(cg.slot_action.astype(np.int64).tobytes())
    return digest.hexdigest()[:32]


def _atomic_write(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_checkpoint(solver, path: str | os.PathLike) -> Path:
    """Write ``solver``'s state to ``path`` (atomically: a crash leaves the previous file intact)."""
    path = Path(path)
    from cfr.sampling import CompiledSamplingSolver

    if isinstance(solver, (TreeSolver, CompiledSamplingSolver)):
        meta = {
            "magic": _MAGIC,
            "game": str(solver.compiled.game),
            "fingerprint": fingerprint(solver.compiled),
        }
        if isinstance(solver, TreeSolver):
            meta.update(kind="tree", config=solver.config.__dict__)
        else:
            meta.update(kind="sampling-tree", method=solver.method, exploration=solver.exploration,
                        bit_generator=type(solver.rng.bit_generator).__name__, rng_state=solver.rng.bit_generator.state)
        arrays = solver.state_arrays()
        _atomic_write(path, lambda h: np.savez(h, meta=np.asarray(json.dumps(meta)), **arrays))
    else:
        from cfr.mccfr import SamplingSolver

        if not isinstance(solver, SamplingSolver):
            raise TypeError(f"cannot checkpoint a {type(solver).__name__}; allowed: TreeSolver or a sampling solver")
        payload = {"magic": _MAGIC, "kind": "sampling", "game": str(solver.game), "state": solver.get_state()}
        _atomic_write(path, lambda h: pickle.dump(payload, h, protocol=pickle.HIGHEST_PROTOCOL))
    return path


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def load_checkpoint(path: str | os.PathLike, compiled: CompiledGame | None = None):
    """Rebuild the solver saved at ``path``.

    Args:
        path: the checkpoint file.
        compiled: the compiled tree to attach (saves compiling it again); must be of the same game.

    Returns:
        A :class:`~cfr.solvers.TreeSolver`, :class:`~cfr.sampling.CompiledSamplingSolver` or
        :class:`~cfr.mccfr.SamplingSolver`, ready to ``iterate`` further.
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"checkpoint {str(path)!r} is a folder; give the path of a checkpoint file")
    if not path.is_file():
        raise FileNotFoundError(f"checkpoint {str(path)!r} does not exist")
    with open(path, "rb") as handle:
        head = handle.read(6)
    if head.startswith(b"PK"):
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                arrays = {k: data[k] for k in data.files if k != "meta"}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:  # a truncated or foreign file
            raise ValueError(f"checkpoint {str(path)!r} is damaged or not a cfr checkpoint ({_first_line(exc)})") \
                from None
        if not isinstance(meta, dict) or meta.get("magic") != _MAGIC:
            raise ValueError(f"{str(path)!r} is not a cfr checkpoint")
        if compiled is None:
            compiled = compile_game(meta["game"])
        if str(compiled.game) != meta["game"] or fingerprint(compiled) != meta["fingerprint"]:
            raise ValueError(f"checkpoint {str(path)!r} was written for {meta['game']}, not for {compiled.game}")
        if meta.get("kind") == "sampling-tree":
            from cfr.sampling import CompiledSamplingSolver

            bit_generator = getattr(np.random, meta["bit_generator"])()
            bit_generator.state = meta["rng_state"]
            solver = CompiledSamplingSolver(compiled, meta["method"], np.random.Generator(bit_generator),
                                            meta["exploration"])
            solver.load_state_arrays(arrays)
            return solver
        cfg = meta["config"]
        solver = TreeSolver(
            compiled,
            cfg["algorithm"],
            alternating=cfg["alternating"],
            alpha=cfg["alpha"],
            beta=cfg["beta"],
            gamma=cfg["gamma"],
            averaging_exponent=cfg["averaging_exponent"],
        )
        solver.load_state_arrays(arrays)
        return solver
    try:
        with open(path, "rb") as handle:
            payload = pickle.load(handle)
    except Exception as exc:  # unpickling a foreign file can raise almost anything; the file is what is wrong
        raise ValueError(f"checkpoint {str(path)!r} is damaged or not a cfr checkpoint ({_first_line(exc)})") \
            from None
    if not isinstance(payload, dict) or payload.get("magic") != _MAGIC:
        raise ValueError(f"{str(path)!r} is not a cfr checkpoint")
    from cfr.mccfr import SamplingSolver

    return SamplingSolver.from_state(payload["state"])
