"""Save a solver's state to one file and resume it later with identical results.

Every checkpoint is data: one ``numpy.savez`` archive of plain numeric arrays plus a ``meta`` entry holding a JSON
header (the format's magic, the solver kind, the game string, the settings, the random generator's state and, for
the sampling solvers through the pyspiel API, the information-state strings that key their tables). It is read with
``numpy.load(allow_pickle=False)`` and ``json.loads``: nothing in a checkpoint can make loading run code, and a file
that is not such an archive is refused from its first bytes, before anything in it is interpreted.

Full-tree and compiled sampling solvers also store a fingerprint of the tree's information sets; loading refuses a
file written for another game.

Checkpoints of the pyspiel-API sampling solvers written before this format (``cfr-checkpoint-1`` files of that
kind) were pickles. They are refused, in one line naming that version, rather than read through a restricted
unpickler: a restricted unpickler is still an interpreter of the file's opcodes, its allow-list has to be kept right
as numpy's pickling internals change, and such a checkpoint costs only the solver time to write again. The ``.npz``
checkpoints of ``cfr-checkpoint-1`` (full-tree and compiled sampling solvers) were already data and still load.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from cfr.compile import CompiledGame, compile_game
from cfr.solvers import TreeSolver
from cfr.tree import KeyTable

#: The magic every checkpoint written now carries (format 2: every kind is a numpy archive).
_MAGIC = "cfr-checkpoint-2"
#: Magics of archives this module reads (format 1's archives hold the same fields as format 2's).
_READABLE = ("cfr-checkpoint-1", _MAGIC)
#: The version whose pyspiel-API sampling checkpoints were pickles (named when one is refused).
_PICKLED_VERSION = "cfr-checkpoint-1"
#: The random bit generators a checkpoint may name (an allow-list: the name is looked up in ``numpy.random``).
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
_ALLOWED = "a cfr checkpoint (a numpy .npz archive written by cfr's --checkpoint or save_checkpoint)"


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


def _rng_meta(rng: np.random.Generator) -> dict:
    # json.loads(json.dumps(...)): some generators' states hold arrays (MT19937's key); as lists they are JSON, and
    # numpy takes the lists back when the state is set.
    state = json.loads(json.dumps(rng.bit_generator.state, default=lambda value: np.asarray(value).tolist()))
    return {"bit_generator": type(rng.bit_generator).__name__, "rng_state": state}


def _rng_from_meta(meta: dict) -> np.random.Generator:
    name = meta["bit_generator"]
    if name not in _BIT_GENERATORS:
        raise ValueError(f"bit_generator={name!r}; allowed: {', '.join(_BIT_GENERATORS)}")
    bit_generator = getattr(np.random, name)()
    bit_generator.state = meta["rng_state"]
    return np.random.Generator(bit_generator)


def _sampling_arrays(solver) -> tuple[dict, dict[str, np.ndarray]]:
    """A pyspiel-API sampling solver's tables as flat arrays: the keys (in table order) go in the header, their legal
    actions, regrets and strategy sums one after another in three arrays, cut by ``sizes``."""
    keys = list(solver.legal)
    sizes = np.asarray([len(solver.legal[k]) for k in keys], dtype=np.int64)

    def flat(values, dtype):
        return np.concatenate([np.asarray(v, dtype=dtype) for v in values]) if keys else np.zeros(0, dtype)

    arrays = {
        "sizes": sizes,
        "legal": flat((solver.legal[k] for k in keys), np.int64),
        "regrets": flat((solver.regrets[k] for k in keys), np.float64),
        "strategy_sum": flat((solver.strategy_sum[k] for k in keys), np.float64),
    }
    meta = {"keys": keys, "iteration": int(solver.iteration), "seconds": float(solver.seconds)}
    return meta, arrays


def save_checkpoint(solver, path: str | os.PathLike) -> Path:
    """Write ``solver``'s state to ``path`` (atomically: a crash leaves the previous file intact)."""
    path = Path(path)
    from cfr.mccfr import SamplingSolver
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
                        **_rng_meta(solver.rng))
        arrays = solver.state_arrays()
    elif isinstance(solver, SamplingSolver):
        tables, arrays = _sampling_arrays(solver)
        meta = {"magic": _MAGIC, "kind": "sampling", "game": str(solver.game), "method": solver.method,
                "exploration": solver.exploration, **_rng_meta(solver.rng), **tables}
    else:
        raise TypeError(f"cannot checkpoint a {type(solver).__name__}; allowed: TreeSolver or a sampling solver")
    _atomic_write(path, lambda h: np.savez(h, meta=np.asarray(json.dumps(meta)), **arrays))
    return path


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _refuse_non_archive(path: Path, head: bytes) -> ValueError:
    """The one-line refusal of a file that is not a zip archive, told from its first bytes and nothing else."""
    name = str(path)
    if head[:1] == b"\x80":  # pickle protocol 2 and later open with the PROTO opcode
        with open(path, "rb") as handle:
            old = _PICKLED_VERSION.encode() in handle.read(4096)  # a byte search, not an unpickling
        if old:
            return ValueError(
                f"checkpoint {name!r} is a pickled {_PICKLED_VERSION} checkpoint (a sampling solver's, from an older "
                f"cfr); pickles are not opened, since unpickling can run code; allowed: {_ALLOWED}: run the solver "
                f"again with --checkpoint")
        return ValueError(f"checkpoint {name!r} is a Python pickle, not a cfr checkpoint; pickles are not opened, "
                          f"since unpickling can run code; allowed: {_ALLOWED}")
    return ValueError(f"checkpoint {name!r} is damaged or not a cfr checkpoint (not a zip archive); allowed: {_ALLOWED}")


def _read_archive(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:  # a truncated or foreign file
        raise ValueError(f"checkpoint {str(path)!r} is damaged or not a cfr checkpoint ({_first_line(exc)})") \
            from None
    if not isinstance(meta, dict) or meta.get("magic") not in _READABLE:
        raise ValueError(f"{str(path)!r} is not a cfr checkpoint; allowed: {_ALLOWED}")
    return meta, arrays


def _sampling_solver(meta: dict, arrays: dict[str, np.ndarray]):
    """Rebuild a pyspiel-API sampling solver from its header and flat tables (see :func:`_sampling_arrays`)."""
    from cfr.mccfr import SamplingSolver

    keys, sizes = meta["keys"], np.asarray(arrays["sizes"], dtype=np.int64)
    legal = np.asarray(arrays["legal"], dtype=np.int64)
    regrets = np.asarray(arrays["regrets"], dtype=np.float64)
    strategy_sum = np.asarray(arrays["strategy_sum"], dtype=np.float64)
    total = int(sizes.sum())
    if (not isinstance(keys, list) or not all(isinstance(k, str) for k in keys) or sizes.shape != (len(keys),)
            or (sizes < 1).any() or any(a.shape != (total,) for a in (legal, regrets, strategy_sum))):
        raise ValueError("the tables' keys, sizes and arrays do not agree")
    solver = SamplingSolver(meta["game"], meta["method"], _rng_from_meta(meta), meta["exploration"])
    solver.iteration = int(meta["iteration"])
    solver.seconds = float(meta["seconds"])
    ends = np.cumsum(sizes).tolist()
    starts = [0, *ends[:-1]]
    for key, lo, hi in zip(keys, starts, ends):
        solver.legal[key] = tuple(legal[lo:hi].tolist())
        solver.regrets[key] = regrets[lo:hi].copy()
        solver.strategy_sum[key] = strategy_sum[lo:hi].copy()
    return solver


def load_checkpoint(path: str | os.PathLike, compiled: CompiledGame | None = None):
    """Rebuild the solver saved at ``path``.

    Args:
        path: the checkpoint file.
        compiled: the compiled tree to attach (saves compiling it again); must be of the same game.

    Returns:
        A :class:`~cfr.solvers.TreeSolver`, :class:`~cfr.sampling.CompiledSamplingSolver` or
        :class:`~cfr.mccfr.SamplingSolver`, ready to ``iterate`` further.

    Raises:
        ValueError: one line naming the file, when it is not a checkpoint this module wrote (a pickle included, which
            is refused from its first bytes and never unpickled), is damaged, or was written for another game.
    """
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"checkpoint {str(path)!r} is a folder; give the path of a checkpoint file")
    if not path.is_file():
        raise FileNotFoundError(f"checkpoint {str(path)!r} does not exist")
    with open(path, "rb") as handle:
        head = handle.read(6)
    if not head.startswith(b"PK"):
        raise _refuse_non_archive(path, head)
    meta, arrays = _read_archive(path)
    try:
        if compiled is not None and str(compiled.game) != meta["game"]:
            raise ValueError(f"checkpoint {str(path)!r} was written for {meta['game']}, not for {compiled.game}")
        if meta.get("kind") == "sampling":
            return _sampling_solver(meta, arrays)
        if compiled is None:
            compiled = compile_game(meta["game"])
        if str(compiled.game) != meta["game"] or fingerprint(compiled) != meta["fingerprint"]:
            raise ValueError(f"checkpoint {str(path)!r} was written for {meta['game']}, not for {compiled.game}")
        if meta.get("kind") == "sampling-tree":
            from cfr.sampling import CompiledSamplingSolver

            solver = CompiledSamplingSolver(compiled, meta["method"], _rng_from_meta(meta), meta["exploration"])
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
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # a field missing, of the wrong type or value
        if isinstance(exc, ValueError) and str(exc).startswith("checkpoint "):
            raise  # already names the file (another game's checkpoint)
        what = f"field {exc}" if isinstance(exc, KeyError) else _first_line(exc)
        raise ValueError(f"checkpoint {str(path)!r} is damaged or not a cfr checkpoint ({what})") from None
