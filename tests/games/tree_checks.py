"""What the kernel tree producers' tests share: two compiled trees compared array for array."""

from __future__ import annotations

import dataclasses

import numpy as np

import cfr


def assert_same_tree(kernel: cfr.CompiledGame, engine: cfr.CompiledGame) -> None:
    """Every array field of the producer's tree equals the pyspiel path's, dtype included (at least 20 are compared,
    so a renamed field cannot leave the check empty), and both have the same number of players."""
    assert kernel.num_players == engine.num_players
    compared = 0
    for f in dataclasses.fields(engine):
        want = getattr(engine, f.name)
        if isinstance(want, np.ndarray):
            got = getattr(kernel, f.name)
            assert got.dtype == want.dtype, f.name
            np.testing.assert_array_equal(got, want, err_msg=f.name)
            compared += 1
    assert compared >= 20
