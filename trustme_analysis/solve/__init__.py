"""Equilibria of reduced variants: solve specs, stored solutions, policy bots, exploitation of the bots."""
