"""Pinocchio's players: the heuristic bot, its registration and the search player's belief model."""
