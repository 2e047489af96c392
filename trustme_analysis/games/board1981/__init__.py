"""Trust Me (1981), the Parker Brothers board game (rule text ``003_0c5ac23cec43b539.txt``), as two pyspiel games:
``trustme_1981`` (the whole board game) and ``trustme_1981_investment`` (one investing round alone, small enough to
solve).

Importing this package registers both. Its four parts, in the rulebook's words:

- :mod:`.engine` (the readable engine, the specification): :mod:`~.engine.rules` (every parameter, its checks, the
  assumptions and the parameter examples), :mod:`~.engine.board` (the board as data: spaces, properties, the Company,
  Hot Tips, moves by exact count), :mod:`~.engine.investing` (the investing round and the Payoff cards, shared by both
  games), :mod:`~.engine.actions` (how moves, looks, claims, sends, challenges and investing decisions are numbered),
  :mod:`~.engine.state` (a game step by step), :mod:`~.engine.events`, :mod:`~.engine.views` and
  :mod:`~.engine.observer` (the referee's snapshot and what each player observes), :mod:`~.engine.game` (the pyspiel
  game ``trustme_1981``) and :mod:`~.engine.investment` (the investing round alone, ``trustme_1981_investment``).
- :mod:`.kernel`: the compiled twin of the engine: the kernel of ``trustme_1981`` (whole games, rollouts, a search
  player's worlds) and the investing round's tree producer for the solvers.
- :mod:`.players`: the heuristic policy and the bots, the belief model of a search player.
- :mod:`.analysis`: what the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on
  first use): records (one row per seat of a finished game), statistics, report pages, statistics of a solved
  investing round, a solved round's decisions in the rulebook's words, and the narration.
"""

from trustme_analysis.engine.kernels import EVERY_VALUE, KernelEntry, only
from trustme_analysis.games.board1981.engine import investment
from trustme_analysis.games.board1981.engine.game import TrustMe1981Game
from trustme_analysis.games.board1981.engine.observer import TrustMe1981Observer
from trustme_analysis.games.board1981.engine.rules import EXAMPLES, SCORING_ONLY, SHORT_NAME, Rules
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
        findings="analysis.findings:FINDINGS",
        # The parameters the kernel plays, written out (a parameter or a word value added to the engine alone is
        # played on the engine): numbers, lists of numbers and boards at every value within the kernel's limits
        # (briefcases, players, 64-bit money), the switches and word-valued ones at the values it restates; each
        # proven by the lock-step tests at the values of EXAMPLES (tests/games/test_board1981_kernel.py).
        kernel=KernelEntry(
            parameters={
                "players": EVERY_VALUE,
                "board": EVERY_VALUE,
                "payoff_mix": EVERY_VALUE,
                "trust_mix": EVERY_VALUE,
                "bamboozled": EVERY_VALUE,
                "money": EVERY_VALUE,
                "shares": EVERY_VALUE,
                "peek": only(False, True),
                "lots": EVERY_VALUE,
                "buy_max": only(True, False),
                "roll_off_tie": only("reroll", "defender", "challenger"),
                "utility": only("win_loss", "wealth", "wealth_diff"),
                "max_turns": EVERY_VALUE,
            },
            kernel="kernel.kernel:Kernel",
            game_seat_kinds=("random", "heuristic"),
            rollout_seat_kinds=("random", "heuristic"),
            policy_seat_kinds=("trained",),  # with the stored policy handed over (new_kernel(..., trained=...))
            policy_rollout_kinds=("trained",),  # a search player over the trained policy (kernel.trained_rollouts)
            limits="kernel.kernel:limits",
            # What about 50 ms a decision affords on one core (docs/games/board1981.rst).
            search_budget=1600,
            # The trained player's abstraction and self-play traversal (trustme_analysis.train).
            trained="kernel.training:TRAINER",
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
        # A tree producer only; the parameters it plays written out as for the board game, each proven by the tree
        # tests at the values of investment.EXAMPLES (tests/games/test_board1981_investment_tree.py).
        kernel=KernelEntry(
            parameters={
                "players": EVERY_VALUE,
                "claimant": EVERY_VALUE,
                "payoff_mix": EVERY_VALUE,
                "seen": EVERY_VALUE,
                "seen_each": EVERY_VALUE,
                "money": EVERY_VALUE,
                "money_each": EVERY_VALUE,
                "shares": EVERY_VALUE,
                "shares_each": EVERY_VALUE,
                "lots": EVERY_VALUE,
                "buy_max": only(False, True),
                "utility": only("wealth", "wealth_diff", "win_loss"),
            },
            kernel=None,
            tree_producer="kernel.investment:compile_tree",
            tree_producer_name="Trust Me (1981) investing-round kernel (numba)",
            # The same trained player, the round embedded in the board game's kernel (kernel.training.embed_round).
            trained="kernel.training:INVESTMENT_TRAINER",
        ),
        parameter_examples=investment.EXAMPLES,
    )
)

__all__ = [
    "INVESTMENT_SHORT_NAME", "Rules", "SHORT_NAME", "TrustMe1981Game", "TrustMe1981InvestmentGame",
    "TrustMe1981InvestmentState", "TrustMe1981Observer", "TrustMe1981State", "investment",
]
