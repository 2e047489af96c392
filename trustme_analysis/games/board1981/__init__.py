"""Trust Me (1981), the Parker Brothers board game (rule text ``003_0c5ac23cec43b539.txt``), as two pyspiel games:
``trustme_1981`` (the whole board game) and ``trustme_1981_investment`` (one investing round alone, small enough to
solve).

Importing this package registers both. The pieces, in the rulebook's words:

- :mod:`.board`: the board as data (``board.toml``): spaces, properties, the Company, Hot Tips, moves by exact count.
- :mod:`.investing`: the investing round and the Payoff cards (shared by both games: the one place those rules live).
- :mod:`~trustme_analysis.games.board1981.game`: the board game ``trustme_1981``: turns, claims, Trust Me cards, challenges, the end.
- :mod:`.investment`: the investing round alone, ``trustme_1981_investment``.

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`.bots` (the heuristics), :mod:`.records` (one row per seat of a finished game), :mod:`.stats` (the games'
statistics), :mod:`.pages` (their report pages), :mod:`.strategy` (statistics of a solved investing round) and :mod:`.describe`
(a solved round's decisions in the rulebook's words).
"""

from trustme_analysis.games.board1981 import investment
from trustme_analysis.games.board1981.game import SHORT_NAME, TrustMe1981Game, TrustMe1981Observer, TrustMe1981State
from trustme_analysis.games.board1981.investment import (
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
        scoring_only=("utility",),
        records="records:records",
        bots="bots",
        statistics="stats:compute",
        pages="pages:draw",
        kernel="kernel",
    )
)
register_game(
    GameEntry(
        INVESTMENT_SHORT_NAME,
        title="Trust Me (1981), one investing round",
        package=__name__,
        scoring_only=("utility",),
        records="records:investment_records",
        bots="bots",
        statistics="stats:compute_investment",
        pages="pages:draw_investment",
        strategy="strategy:strategy_stats",
        simple_strategies="strategy:simple_strategies",
        describe="describe",
    )
)

__all__ = [
    "INVESTMENT_SHORT_NAME", "SHORT_NAME", "TrustMe1981Game", "TrustMe1981InvestmentGame",
    "TrustMe1981InvestmentState", "TrustMe1981Observer", "TrustMe1981State", "investment",
]
