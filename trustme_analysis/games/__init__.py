"""The Trust Me games, one package per rule text.

Each game package holds everything that knows that game: its engine (the only place its rules live), its bots,
records, statistics, strategy statistics and report pages. It registers itself with pyspiel and with
:mod:`trustme_analysis.registry` when imported; :func:`trustme_analysis.registry.load_games` (run by
``import trustme_analysis``) imports every package found here.

- ``trustme_pinocchio``: :mod:`trustme_analysis.games.pinocchio` (rule text ``000_0a67680c9204e9f0.txt``)
- ``trustme_1981`` and ``trustme_1981_investment`` (its investing round alone): :mod:`trustme_analysis.games.board1981`
  (rule text ``003_0c5ac23cec43b539.txt``)
- ``trustme_liar``: :mod:`trustme_analysis.games.liar` (rule text ``004_17bc6a636195b0a6.txt``)

What the engines share (parameter checking, the game type) is in :mod:`trustme_analysis.engine`.
"""
