"""Game-agnostic CFR solvers for any turn-based, perfect-recall pyspiel game (temporary init)."""
from cfr.compile import CompiledGame, TreeTooLargeError, UnsupportedGameError, compile_game
from cfr.solvers import TreeSolver
from cfr.evaluate import best_response_value, exploitability, expected_values, nash_conv
