"""Game-agnostic CFR solvers for any turn-based, perfect-recall pyspiel game.

The tree is compiled once into flat numpy arrays (:func:`compile_game`); the CFR family runs over it as a few array
operations per depth (:class:`TreeSolver`); best responses, NashConv and exploitability are computed on the same
arrays (:mod:`cfr.evaluate`); Monte Carlo CFR runs compiled on the tree (:class:`CompiledSamplingSolver`) or through
the pyspiel API when a tree is too large to compile (:class:`SamplingSolver`). :func:`solve` ties them together::

    import cfr
    policy, curve = cfr.solve("leduc_poker", algorithm="dcfr", target_exploitability=1e-3)
"""

from cfr.api import SolveResult, algorithm_names, solve
from cfr.build import from_preorder
from cfr.checkpoint import load_checkpoint, save_checkpoint
from cfr.compile import (
    CompiledGame,
    KeyTable,
    TreeTooLargeError,
    UnsupportedGameError,
    compile_game,
)
from cfr.evaluate import (
    best_response,
    best_response_value,
    expected_values,
    exploitability,
    nash_conv,
)
from cfr.mccfr import SamplingSolver
from cfr.policy_io import from_dict, from_tabular_policy, to_dict, to_tabular_policy
from cfr.sampling import CompiledSamplingSolver
from cfr.solvers import ALGORITHMS, TreeSolver

__all__ = [
    "ALGORITHMS",
    "CompiledGame",
    "CompiledSamplingSolver",
    "KeyTable",
    "SamplingSolver",
    "SolveResult",
    "TreeSolver",
    "TreeTooLargeError",
    "UnsupportedGameError",
    "algorithm_names",
    "best_response",
    "best_response_value",
    "compile_game",
    "expected_values",
    "exploitability",
    "from_dict",
    "from_preorder",
    "from_tabular_policy",
    "load_checkpoint",
    "nash_conv",
    "save_checkpoint",
    "solve",
    "to_dict",
    "to_tabular_policy",
]
