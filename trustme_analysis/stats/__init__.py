"""Statistics helpers every game uses: confidence intervals (:mod:`.intervals`), seat balance and the Ludii metrics
(:mod:`.balance`), variant-vs-baseline comparisons (:mod:`.compare`) and the smallest change their games could have
detected (:mod:`.power`). Pure functions over record tables; each game's own statistics live in its package.
"""
