"""Per-game record extractors and the statistics computed over stored sweep records.

Importing this package registers each game's sweep plug-in (see :mod:`trustme_analysis.sweep.plugins`).
"""

# Each game's statistics module registers its plug-in when imported. Keep one import line per game.
from trustme_analysis.stats import pinocchio  # noqa: F401,E402  (registers the trustme_pinocchio sweep plug-in)
from trustme_analysis.stats import board1981  # noqa: F401,E402  (registers trustme_1981 and trustme_1981_investment)
from trustme_analysis.stats import liar  # noqa: F401,E402  (registers the trustme_liar sweep plug-in)
from trustme_analysis.stats import pinocchio_strategy  # noqa: F401,E402  (trustme_pinocchio strategy statistics)
from trustme_analysis.stats import board1981_strategy  # noqa: F401,E402  (trustme_1981_investment strategy statistics)
from trustme_analysis.stats import liar_strategy  # noqa: F401,E402  (trustme_liar strategy statistics)
