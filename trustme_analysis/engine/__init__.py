"""What the game engines share: checking rule parameters (:mod:`.params`: every error names the parameter, the value
and what is allowed) and the pyspiel game type of a variant (:mod:`.gametype`). The engines themselves live in their
game packages under :mod:`trustme_analysis.games`.
"""
