"""Trust Me (1981), the Parker Brothers board game (rule text ``003_0c5ac23cec43b539.txt``), as two pyspiel games:
``trustme_1981`` (the whole board game) and ``trustme_1981_investment`` (one investing round alone, small enough to
solve).

Importing this package registers both. The pieces, in the rulebook's words:

- :mod:`~trustme_analysis.games.board1981.engine.rules`: every parameter, its checks and the assumptions (:class:`~trustme_analysis.games.board1981.engine.rules.Rules`).
- :mod:`~trustme_analysis.games.board1981.engine.board`: the board as data (``board.toml``): spaces, properties, the Company, Hot Tips, moves by exact count.
- :mod:`~trustme_analysis.games.board1981.engine.investing`: the investing round and the Payoff cards (shared by both games: the one place those rules live).
- :mod:`~trustme_analysis.games.board1981.engine.actions`: how moves, looks, claims, sends, challenges and investing decisions are numbered.
- :mod:`~trustme_analysis.games.board1981.engine.state`: a game step by step: turns, claims, Trust Me cards, challenges, investing, the end.
- :mod:`~trustme_analysis.games.board1981.engine.events`: every event the snapshot reports, its fields and their types.
- :mod:`~trustme_analysis.games.board1981.engine.views` and :mod:`~trustme_analysis.games.board1981.engine.observer`: the referee's snapshot, and what each player observes.
- :mod:`~trustme_analysis.games.board1981.engine.game`: the pyspiel game ``trustme_1981`` and its registration.
- :mod:`~trustme_analysis.games.board1981.engine.investment`: the investing round alone, ``trustme_1981_investment``.
- :mod:`~trustme_analysis.games.board1981.kernel`: the compiled twin of the engine: the kernel of ``trustme_1981``
  (whole games, rollouts, a search player's worlds) and the investing round's tree producer for the solvers.

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.board1981.players.bots` (the heuristics), :mod:`~trustme_analysis.games.board1981.analysis.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.board1981.analysis.stats` (the games'
statistics), :mod:`~trustme_analysis.games.board1981.analysis.pages` (their report pages), :mod:`~trustme_analysis.games.board1981.analysis.strategy` (statistics of a solved investing round) and :mod:`~trustme_analysis.games.board1981.analysis.describe`
(a solved round's decisions in the rulebook's words).
"""

from trustme_analysis.engine.kernels import EVERY_VALUE, KernelEntry
from trustme_analysis.games.board1981.engine import investment
from trustme_analysis.games.board1981.engine.game import TrustMe1981Game
from trustme_analysis.games.board1981.engine.observer import TrustMe1981Observer
from trustme_analysis.games.board1981.engine.rules import DEFAULTS, EXAMPLES, SCORING_ONLY, SHORT_NAME, Rules
from trustme_analysis.games.board1981.engine.state import TrustMe1981State
from trustme_analysis.games.board1981.engine.investment import (
    SHORT_NAME as INVESTMENT_SHORT_NAME,
    TrustMe1981InvestmentGame,
    TrustMe1981InvestmentState,
)
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Trust Me (1981)",
        package=__name__,
        scoring_only=SCORING_ONLY,
        records="analysis.records:records",
        bots="players.bots",
        statistics="analysis.stats:compute",
        pages="analysis.pages:draw",
        simple_strategies="analysis.strategy:simple_strategies",
        belief="players.bots:belief",
        narrate="analysis.narrate:narrate",
        # The kernel plays every parameter at every value within its limits (briefcases, players, 64-bit money):
        # each proven by the lock-step tests at the values of EXAMPLES (tests/games/test_board1981_kernel.py).
        kernel=KernelEntry(
            parameters={name: EVERY_VALUE for name in DEFAULTS},
            kernel="kernel.kernel:Kernel",
            game_seat_kinds=("random", "heuristic"),
            rollout_seat_kinds=("random", "heuristic"),
            limits="kernel.kernel:limits",
            # What about 50 ms a decision affords on one core (docs/games/board1981.rst).
            search_budget=1600,
            benchmark_variants={"1981 2p": "trustme_1981(players=2)", "1981 4p": "trustme_1981(players=4)"},
        ),
        parameter_examples=EXAMPLES,
    )
)
register_game(
    GameEntry(
        INVESTMENT_SHORT_NAME,
        title="Trust Me (1981), one investing round",
        package=__name__,
        scoring_only=("utility",),
        records="analysis.records:investment_records",
        bots="players.bots",
        statistics="analysis.stats:compute_investment",
        pages="analysis.pages:draw_investment",
        strategy="analysis.strategy:strategy_stats",
        simple_strategies="analysis.strategy:simple_strategies",
        narrate="analysis.narrate:narrate",
        describe="analysis.describe",
        # A tree producer only: every parameter at every value, each proven by the tree tests at the values of
        # investment.EXAMPLES (tests/games/test_board1981_investment_tree.py).
        kernel=KernelEntry(
            parameters={name: EVERY_VALUE for name in investment.DEFAULTS},
            kernel=None,
            tree_producer="kernel.investment:compile_tree",
            tree_producer_name="Trust Me (1981) investing-round kernel (numba)",
        ),
        parameter_examples=investment.EXAMPLES,
    )
)

__all__ = [
    "INVESTMENT_SHORT_NAME", "Rules", "SHORT_NAME", "TrustMe1981Game", "TrustMe1981InvestmentGame",
    "TrustMe1981InvestmentState", "TrustMe1981Observer", "TrustMe1981State", "investment",
]
