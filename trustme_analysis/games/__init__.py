"""The Trust Me engines, one module per rule text; importing this package registers each with pyspiel.

- ``trustme_pinocchio``: :mod:`trustme_analysis.games.pinocchio` (rule text ``000_0a67680c9204e9f0.txt``)
- ``trustme_1981``: :mod:`trustme_analysis.games.board1981` (rule text ``003_0c5ac23cec43b539.txt``)
- ``trustme_1981_investment``: :mod:`trustme_analysis.games.investment1981` (the investing round of ``003``)
- ``trustme_liar``: :mod:`trustme_analysis.games.liar` (rule text ``004_17bc6a636195b0a6.txt``)
"""

# Each engine module registers its game with pyspiel when imported. Keep one import line per engine.
from trustme_analysis.games import board1981  # noqa: E402,F401  (trustme_1981)
from trustme_analysis.games import pinocchio  # noqa: E402,F401  (trustme_pinocchio)
from trustme_analysis.games import investment1981  # noqa: E402,F401  (trustme_1981_investment)
from trustme_analysis.games import liar  # noqa: E402,F401  (trustme_liar)
