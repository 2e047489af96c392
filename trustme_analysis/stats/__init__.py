"""Statistics helpers every game uses: confidence intervals (:mod:`.intervals`), seat balance and the Ludii metrics
(:mod:`.balance`), and variant-vs-baseline comparisons (:mod:`.compare`). Pure functions over record tables; each
game's own statistics live in its package.
"""
