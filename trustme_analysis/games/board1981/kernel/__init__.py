"""The compiled twin of the engine (numba): the kernel of ``trustme_1981`` (:mod:`.kernel`, its compiled core and its
records) and the investing round's tree producer (:mod:`.investment`, :mod:`.investment_tree`)."""
