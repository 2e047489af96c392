"""Compile a ``trustme_liar`` variant's game tree from the compiled kernel: the kernel producer of :mod:`cfr.compile`.

The pyspiel producer (:func:`cfr.compile_game`) walks the tree through the engine's Python API; this one enumerates
the same histories in compiled code (:func:`.kernel_core.enumerate_tree`) and hands the same depth-first preorder
record to :func:`cfr.build.from_preorder`, so the result is the same :class:`~cfr.tree.CompiledGame`, array for array
(``tests/games/test_liar_kernel_tree.py`` checks it on the reduced variants of the reports).

Information sets come out of the kernel as ids (a trie of what each player saw, see the kernel module); their
information-state strings are built by the engine, on request, by replaying one history of each information set
found in the finished tree (:class:`cfr.engine_keys.EngineKeys`), so the strings are the engine's own and the
compiled tree keeps no table of paths.

Memory: the enumerator returns its record in buffers up to twice the size needed; each is cut to size before the
finisher runs, so the finisher starts from the exact record (23 bytes per history). The compile peak is then the
enumerator's own (its trie and growing buffers, up to ~85 bytes per history, ``benchmarks/solve_scale.py``).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from cfr.build import from_preorder
from cfr.engine_keys import EngineKeys, RecordKeys
from cfr.tree import DEFAULT_MAX_HISTORIES, CompiledGame, TreeTooLargeError
from cfr.trie import share_utilities
from trustme_analysis.games.liar import kernel_core as core
from trustme_analysis.games.liar.game import LiarGame


def compile_tree(game: pyspiel.Game, max_histories: int = DEFAULT_MAX_HISTORIES) -> CompiledGame:
    """The variant's :class:`~cfr.tree.CompiledGame`, enumerated by the kernel (same result as
    :func:`cfr.compile_game`).

    Raises:
        TreeTooLargeError: the tree has more than ``max_histories`` histories.
        TypeError: ``game`` is not a ``trustme_liar`` game.
        ValueError: ``max_histories`` is not an integer >= 1.
    """
    if not isinstance(game, LiarGame):
        raise TypeError(f"the Liar kernel compiles only trustme_liar games, not {game}")
    if not isinstance(max_histories, int) or isinstance(max_histories, bool) or max_histories < 1:
        raise ValueError(f"max_histories={max_histories!r} is not allowed; allowed: an integer >= 1")
    t0 = time.perf_counter()
    cfg = core.build_config(game.rules)
    tab = core.build_tables(cfg)
    splits = np.asarray(game.deal_table.splits, dtype=np.int64).reshape(-1, game.rules.players)
    code, *arrays = core.enumerate_tree(cfg, tab, splits, max_histories)
    if code:
        raise TreeTooLargeError(
            f"{game}: the tree exceeds max_histories={max_histories}; raise max_histories if memory allows, or use "
            "the sampling solvers (algorithm='es-mccfr' or 'os-mccfr'), which do not compile the tree"
        )
    num_keys = int(arrays[-1].shape[0])
    del arrays[-1]  # the first history of each information set: the finished tree gives one (EngineKeys)
    # Each array is a view of a buffer grown by doubling: copied to size one at a time, the buffer freed at once.
    record = {}
    for name in ("depth", "player", "infoset", "action", "chance_prob"):
        record[name] = arrays.pop(0).copy()
    rets = arrays.pop(0)
    utilities, record["utility_index"] = share_utilities(record["player"], rets)
    del rets
    cg = from_preorder(game, game.num_players(), record, utilities, RecordKeys(game, record, num_keys), started=t0)
    cg.infoset_keys = EngineKeys(game, cg.parent, cg.edge_action, cg.infoset, num_keys)
    return cg
