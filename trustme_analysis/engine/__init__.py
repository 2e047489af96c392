"""What the game engines share: checking rule parameters (:mod:`.params`: every error names the parameter, the value
and what is allowed), the pyspiel game type of a variant (:mod:`.gametype`) and the draw protocol both engine paths
follow (:mod:`.draws`). The engines themselves live in their game packages under :mod:`trustme_analysis.games`.
"""
