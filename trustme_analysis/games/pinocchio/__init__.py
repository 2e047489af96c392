"""Trust Me, the Pinocchio card game (rule text ``000_0a67680c9204e9f0.txt``) as the pyspiel game
``trustme_pinocchio``.

Importing this package registers the game. The pieces, in the rulebook's words:

- :mod:`~trustme_analysis.games.pinocchio.engine.rules`: every rule number as a parameter, the assumptions, and Final Scoring (:func:`score_breakdown`).
- :mod:`~trustme_analysis.games.pinocchio.engine.actions`: how Tell a Tale, Use Reputation, Take from the Park, votes and Coin tosses are numbered.
- :mod:`~trustme_analysis.games.pinocchio.engine.state`: a turn, step by step, and :meth:`~trustme_analysis.games.pinocchio.engine.state.PinocchioState.snapshot`.
- :mod:`~trustme_analysis.games.pinocchio.engine.observer`: information states and observation tensors.
- :mod:`~trustme_analysis.games.pinocchio.engine.game`: the pyspiel game type and registration.
- :mod:`~trustme_analysis.games.pinocchio.engine.script`: scripted deals for scenario tests.

What the rest of the library reads, registered with :mod:`trustme_analysis.registry` (imported on first use):
:mod:`~trustme_analysis.games.pinocchio.players.bots` (the heuristic), :mod:`~trustme_analysis.games.pinocchio.analysis.records` (one row per seat of a finished game), :mod:`~trustme_analysis.games.pinocchio.analysis.stats` (the game's
statistics), :mod:`~trustme_analysis.games.pinocchio.analysis.pages` (its report pages) and :mod:`~trustme_analysis.games.pinocchio.analysis.strategy` (statistics of a solved policy).
"""

from trustme_analysis.games.pinocchio.engine.actions import ActionCodec, Combo, Move
from trustme_analysis.games.pinocchio.engine.game import GAME_TYPE, PinocchioGame
from trustme_analysis.engine.kernels import EVERY_VALUE, KernelEntry, only
from trustme_analysis.games.pinocchio.engine.rules import (
    DEFAULTS, EXAMPLES, PARAMETERS, SCORING_ONLY, SHORT_NAME, Rules, score_breakdown,
)
from trustme_analysis.games.pinocchio.engine.state import PHASE_NAMES, PinocchioState
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Pinocchio",
        package=__name__,
        scoring_only=SCORING_ONLY,
        records="analysis.records:records",
        bots="players.bots",
        statistics="analysis.stats:compute",
        pages="analysis.pages:draw",
        strategy="analysis.strategy:strategy_stats",
        simple_strategies="analysis.strategy:simple_strategies",
        belief="players.bots:belief",
        narrate="analysis.narrate:narrate",
        kernel=KernelEntry(
            # Each rule parameter the kernel plays, with the values it plays (every value the engine accepts, within
            # the arrays' limits): the lock-step tests (tests/games/test_pinocchio_kernel.py) replay kernel games of
            # every example and of random variants over the whole parameter space through the engine. Written out,
            # not read from DEFAULTS: a parameter or a value added to the engine alone is played by the engine.
            parameters={
                "players": EVERY_VALUE, "values": EVERY_VALUE, "copies": EVERY_VALUE,
                "two_player_removed": EVERY_VALUE, "park_size": EVERY_VALUE, "refill": EVERY_VALUE,
                "hand_size": EVERY_VALUE, "stacks": EVERY_VALUE, "chart": EVERY_VALUE, "stacks_to_end": EVERY_VALUE,
                "runouts_to_end": EVERY_VALUE, "coin_variant": only(False, True),
                "voting": only("simultaneous", "sequential"), "coin_tossers": only("any", "dissenters"),
                "empty_deck": only("skip", "reshuffle"), "utility": only("win_loss", "score", "score_diff"),
                "first_player": only("seat0", "random"),
            },
            kernel="kernel.kernel:Kernel",
            game_seat_kinds=("random", "heuristic"),
            policy_seat_kinds=("trained",),  # with the stored policy handed over (new_kernel(..., trained=...))
            # Probe seats over the default heuristic (kernel.trained.PROBE_KINDS; tests/games/
            # test_kernel_probe_seats.py checks their distribution against the Python probe's).
            probe_strategies=("never trust", "always trust", "never tell a tall tale", "always tell a tall tale"),
            rollout_seat_kinds=("random", "heuristic"),
            policy_rollout_kinds=("trained",),  # a search player over the trained policy (kernel.trained_rollouts)
            limits="kernel.kernel:limits",
            # A search player's default budget (rollouts per decision) when this kernel plays its rollouts: about 35
            # CPU ms a decision. At 400, sequential halving over 15-25 legal actions drops most of them after about
            # four rollouts each and the noise decides: 2-player win rate against a table that never trusts 0.38
            # [0.24, 0.53] at 400, 0.70 [0.57, 0.80] at 1,600 (60 games each, benchmarks/search_vs_probes.py).
            search_budget=1600,
            tree_producer="kernel.tree:compile_tree",
            tree_producer_name="Pinocchio kernel (numba)",
            # The trained player's abstraction and self-play traversal (trustme_analysis.train).
            trained="kernel.training:TRAINER",
            benchmark_variants={
                "pinocchio 2p": "trustme_pinocchio(players=2)",
                "pinocchio 3p": "trustme_pinocchio(players=3)",
                "pinocchio 4p": "trustme_pinocchio(players=4)",
                "pinocchio 4p coin": ("trustme_pinocchio(players=4,coin_variant=True,coin_tossers=dissenters,"
                                      "voting=sequential)"),
                "pinocchio 2p reduced": ("trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,"
                                         "park_size=2,stacks=1/1/1,chart=1/3/6,runouts_to_end=1)"),
                "pinocchio 3p reshuffle": ("trustme_pinocchio(players=3,values=4,copies=3,park_size=1,hand_size=2,"
                                           "refill=1,empty_deck=reshuffle,utility=score,runouts_to_end=3)"),
            },
        ),
        parameter_examples=EXAMPLES,
        describe="analysis.describe",
        findings="analysis.findings:FINDINGS",
        rescore="engine.rescore:rescore",
    )
)

Game = PinocchioGame
State = PinocchioState

__all__ = [
    "ActionCodec", "Combo", "DEFAULTS", "GAME_TYPE", "Game", "Move", "PARAMETERS", "PHASE_NAMES", "PinocchioGame",
    "PinocchioState", "Rules", "SHORT_NAME", "State", "score_breakdown",
]
