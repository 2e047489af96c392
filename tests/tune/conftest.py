"""The tuning tests use the sweep tests' toy games (kuhn_poker with records) and a stubbed evaluator."""

import sys
from pathlib import Path

# tests/sweep holds sweep_toy_game (registers kuhn_poker's records); the tuning tests import it by name.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sweep"))
