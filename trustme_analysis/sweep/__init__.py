"""Monte Carlo sweeps: a TOML spec of rule variants and bot line-ups -> seeded chunks of games -> stored records."""
