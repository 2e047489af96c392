"""Pinocchio's compiled kernel: the engine's rules again in numba over integer arrays, kept identical to the engine by
the lock-step tests."""
