"""Shared fixtures of the solve tests: tiny variants, solved once per session."""

from __future__ import annotations

import pytest

import trustme_analysis  # noqa: F401  (registers the games)

#: One Tale decision per game: a Park of one Character, hands of one, one draw, one day (107 histories).
PINOCCHIO_TINY = ("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,"
                  "chart=1/3,runouts_to_end=1)")
INVESTMENT_TINY = ("trustme_1981_investment(players=2,payoff_mix=1/1/0/1,seen_each=0/50,money=2,shares=2,lots=1/2,"
                   "utility=wealth_diff)")


@pytest.fixture(scope="session")
def solved_tiny(tmp_path_factory):
    """The tiny Pinocchio variant solved to exploitability 1e-3 with a heuristic and a random line-up."""
    from trustme_analysis.solve.run import run_solve
    from trustme_analysis.solve.spec import parse_solve

    out = tmp_path_factory.mktemp("solve_out")
    spec = parse_solve({
        "name": "tiny", "game": PINOCCHIO_TINY, "algorithm": "dcfr", "target_exploitability": 1e-3,
        "iterations": 5000,
        "lineups": {"heuristic": {"seats": ["heuristic"]}, "random": {"seats": ["random"]}},
    })
    result = run_solve(spec, out, quiet=True)
    return out, result
