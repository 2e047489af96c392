"""The compiled (numba) twin of the ``trustme_liar`` engine: the kernel of the contract (:mod:`trustme_analysis.engine.kernels`), its compiled core, records, search worlds and tree producer."""
