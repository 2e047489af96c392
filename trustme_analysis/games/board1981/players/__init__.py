"""The players of Trust Me (1981): the heuristic policy (:mod:`.heuristic`), the bots and the belief model
(:mod:`.bots`)."""
