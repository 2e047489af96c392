"""``trustme_liar``: the Cheat/"Menteur" game of rule text ``004`` with Classique and Trust Me scoring.

Importing this package registers the game with pyspiel::

    import pyspiel
    import trustme_analysis
    game = pyspiel.load_game("trustme_liar(players=4,mode=trustme)")

Its parts, one sub-package each:

- :mod:`~trustme_analysis.games.liar.engine`: the readable engine, the specification, in the rule text's order:
  :mod:`~.engine.rules` (the parameters, :class:`~.engine.rules.Rules`, the assumptions, the parameter examples),
  :mod:`~.engine.deal` (set-up: the deal and the pair discards), :mod:`~.engine.plays` (the action encoding),
  :mod:`~.engine.state` (rounds, challenges, passing, burning, going out, the turn timer, what each player knows),
  :mod:`~.engine.events` (the event kinds and their fields), :mod:`~.engine.game` (the pyspiel game and its
  observer), :mod:`~.engine.scoring` (Classique ranking, Trust Me points, utilities), :mod:`~.engine.rescore` (a
  finished game scored under other points), :mod:`~.engine.worlds` (the worlds a search player samples) and
  :mod:`~.engine.variants` (reduced variants for exact solvers);
- :mod:`~trustme_analysis.games.liar.kernel`: the compiled twin (numba): :mod:`~.kernel.kernel` (the kernel of the
  contract :mod:`trustme_analysis.engine.kernels`), its compiled core from :mod:`~.kernel.layout` on, its records,
  its search worlds (:mod:`~.kernel.search`), its tree producer (:mod:`~.kernel.tree`) and the lock-step harness's
  per-step comparison (:mod:`~.kernel.verify`);
- :mod:`~trustme_analysis.games.liar.players`: the heuristic bot (:mod:`~.players.heuristic`, :mod:`~.players.bots`:
  the bots' registration, the search player's belief and search actions);
- :mod:`~trustme_analysis.games.liar.analysis`: what reads the engine from outside: :mod:`~.analysis.records` (one row
  per seat of a finished game), :mod:`~.analysis.stats`, :mod:`~.analysis.pages`, :mod:`~.analysis.strategy` and
  :mod:`~.analysis.describe`.

The registry entry (:mod:`trustme_analysis.registry`) names the parts, imported on first use, and declares as data
what the kernel plays: every rule parameter at every value the engine accepts (each proven by the lock-step tests
over :data:`~.engine.rules.EXAMPLES` and the reduced variants of ``tests/games/test_liar_kernel.py``; the turn timers
are recorded in the snapshot only, never read by the play or the records), with random and heuristic seats, and
trained seats (whole games and a search player's rollouts) when handed a stored policy.
"""

from trustme_analysis.engine.kernels import EVERY_VALUE, KernelEntry
from trustme_analysis.games.liar.engine.game import LiarGame, LiarObserver, LiarState, timeout_action
from trustme_analysis.games.liar.engine.plays import BURN, LIAR, PASS
from trustme_analysis.games.liar.engine.rules import DEFAULTS, EXAMPLES, SCORING_ONLY, SHORT_NAME, Rules
from trustme_analysis.registry import GameEntry, register_game

register_game(
    GameEntry(
        SHORT_NAME,
        title="Liar",
        package=__name__,
        # The Trust Me points and the utility score a finished game; they never change the play.
        scoring_only=SCORING_ONLY,
        records="analysis.records:records",
        bots="players.bots",
        statistics="analysis.stats:compute",
        pages="analysis.pages:draw",
        strategy="analysis.strategy:strategy_stats",
        simple_strategies="analysis.strategy:simple_strategies",
        belief="players.bots:belief",
        # The belief weighs worlds by heuristic-like bluffing; a search over the trained policy's rollouts was weaker
        # with it against the trained line-up on every seed measured (2 players: 6.5-41% with it, 23-68% without;
        # docs/games/liar.rst).
        belief_off_for=("trained",),
        search_actions="players.bots:search_actions",
        describe="analysis.describe",
        findings="analysis.findings:FINDINGS",
        rescore="engine.rescore:rescore",
        kernel=KernelEntry(
            # Every parameter of the game at every value the engine accepts: the kernel's arrays are sized from the
            # variant (no limits: the largest deck, 20 values x 8 copies with plays of 6, numbers its actions below
            # 2**31 and its deals below 2**63).
            parameters={name: EVERY_VALUE for name in DEFAULTS},
            kernel="kernel.kernel:Kernel",
            game_seat_kinds=("random", "heuristic"),
            rollout_seat_kinds=("random", "heuristic"),
            policy_seat_kinds=("trained",),  # with the stored policy handed over (new_kernel(..., trained=...))
            # Probe seats over the default heuristic (kernel.trained.PROBE_KINDS; tests/games/
            # test_kernel_probe_seats.py checks their distribution against the Python probe's).
            probe_strategies=("always bluff", "never bluff", "always challenge", "never challenge"),
            policy_rollout_kinds=("trained",),  # a search player over the trained policy (kernel.trained_rollouts)
            search_budget="kernel.kernel:search_budget",
            tree_producer="kernel.tree:compile_tree",
            tree_producer_name="Liar kernel (numba)",
            # The trained player's abstraction and self-play traversal (trustme_analysis.train; kernel.abstraction).
            trained="kernel.training:TRAINER",
            # The 52-card deck at 2, 4 and 6 players, and reduced ones.
            benchmark_variants={
                "Liar 2p": "trustme_liar(players=2)",
                "Liar 4p": "trustme_liar(players=4)",
                "Liar 6p": "trustme_liar(players=6)",
                "Liar 4p Trust Me": "trustme_liar(players=4,mode=trustme)",
                "Liar 4p 32 cards": "trustme_liar(players=4,values=8)",
                "Liar tiny": "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6)",
            },
        ),
        parameter_examples=EXAMPLES,
    )
)

__all__ = ["BURN", "LIAR", "PASS", "LiarGame", "LiarObserver", "LiarState", "Rules", "SHORT_NAME", "timeout_action"]
