"""The compiled twin of the engine (numba).

The kernel of ``trustme_1981`` (the contract of :mod:`trustme_analysis.engine.kernels`): :mod:`.kernel` (the Kernel
class, its state, the rules array and the limits) and :mod:`.records` (its played games and their records) over the
compiled core, split along the rules: :mod:`.layout` (the state and rules arrays, codes, the numba cache's ties),
:mod:`.basics` (what every rule reads and writes, a turn's start and end), :mod:`.moves` (a turn: moves, claims,
sends, Trust Me cards, challenges), :mod:`.investing` (the investing round and the reveal), :mod:`.step` (the pyspiel
API and the chance outcomes), :mod:`.heuristic` (the compiled heuristic), :mod:`.play` (whole games and rollouts) and
:mod:`.worlds` (a search player's worlds).

The investing round's tree producer for the solvers (``trustme_1981_investment``): :mod:`.investment` and
:mod:`.investment_tree`.
"""
