"""The readable engine of Trust Me (1981): the rules, the board, the investing round, actions, states, observers and
the two pyspiel games. Engine modules import only this sub-package and :mod:`trustme_analysis.engine`."""
