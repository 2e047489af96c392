"""Trained players: Monte Carlo CFR over an information abstraction, learned by self-play in a game's kernel.

The core here knows no game: :mod:`.tables` holds the numba regret and average-strategy tables, :mod:`.driver` runs a
game's traversal (its kernel entry's ``trained`` part, a :class:`~.driver.GameTrainer`) for a budget, with
progress, checkpoints and storage under ``OUTDIR/train/<fingerprint>/``. See ``docs/guide/trained.rst``.
"""

from trustme_analysis.train.driver import (
    GameTrainer,
    StalePolicyError,
    TrainedPolicy,
    TrainSettings,
    fingerprint,
    game_settings,
    stored,
    train,
    trainer_for,
)

__all__ = ["GameTrainer", "StalePolicyError", "TrainSettings", "TrainedPolicy", "fingerprint", "game_settings", "stored", "train",
           "trainer_for"]
