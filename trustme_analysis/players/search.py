"""The search player (bot kind ``"search"``): information-set search over determinizations, for any game whose states
can resample their hidden information.

At each decision the player samples *worlds*: full states consistent with what it has seen
(``state.resample_from_infostate(player, sampler)``, which the Trust Me engines implement: every arrangement of the
unseen cards equally likely). With ``belief`` on, and where the game models it (the ``belief`` part of its registry
entry: ``belief(state, player, worlds) -> weights``), it draws several candidate worlds and keeps one in proportion to
how likely the other players' observed choices were in each (in Pinocchio: would the teller have told this tale with
that hand?). It scores every legal
action (or, where the game names them, the moves worth trying: its ``search_actions`` part) by playing the game out from each world after that action (*rollouts*) and keeps the action with the best mean
return. The budget (rollouts per decision) is spread by sequential halving (Karnin, Koren and Somekh, "Almost optimal
exploration in multi-armed bandits", ICML 2013): every round scores the remaining actions on the same worlds (paired,
so the comparison is not blurred by the luck of the deal), then keeps the better half.

Rollouts run in the game's compiled kernel when it has one that supports the variant (tens of thousands per second),
else through the pyspiel API with the rollout policy's bots. Everything random comes from the bot's generator, so a
seeded game replays exactly.

Knobs: ``budget`` (rollouts per decision; by default 400, or the number the game's kernel names for its compiled
rollouts, e.g. 1,600 in Pinocchio), ``rollout`` (the bot kind playing every seat in rollouts: ``"random"``,
a game's ``"heuristic"`` (compiled where the kernel has it, else on the pyspiel path), ``"trained"`` (the stored
trained policy that ``rollout_knobs`` names, as a trained seat's knobs do; compiled where the kernel entry names it in
``policy_rollout_kinds``), or ``"auto"``, the default: the heuristic where the game's kernel compiles it, else
random), ``rollout_knobs`` (the rollout kind's knobs, a table), ``belief`` (weight worlds by the observed choices, where the game
models them; by default on, but off under the rollout kinds the game's entry names in ``belief_off_for``: Liar's
trained rollouts), ``rollouts_per_world`` (rollouts from each sampled world and action), ``engine`` (``"auto"``, ``"kernel"``
or ``"pyspiel"``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.play import joint_action, play_out
from trustme_analysis.registry import find_game

KNOBS = ("budget", "rollout", "rollout_knobs", "belief", "rollouts_per_world", "engine")
#: Rollouts per decision when the spec sets no ``budget``, unless the game's kernel plays the rollouts and names its
#: own default (its kernel entry's ``search_budget``, a number or a function of the variant: what its speed affords
#: in about 50 ms a decision).
DEFAULT_BUDGET = 400
#: The most rollouts a decision may take (``budget``): about half a minute a decision on the kernel at today's
#: speed, and hours on the pyspiel path; a larger number is a typing slip, not a plan.
MAX_BUDGET = 1_000_000
#: The most rollouts from each (world, action) pair.
MAX_ROLLOUTS_PER_WORLD = 10_000
#: Candidate worlds drawn per kept world when the belief weighs them.
BELIEF_CANDIDATES = 8
ENGINES = ("auto", "kernel", "pyspiel")
#: ``rollout = "auto"``: the first of these kinds the game's kernel compiles (else ``"random"``). Heuristic rollouts
#: in the kernel are about twice as slow as random ones and much stronger (Pinocchio 2p, budget 400: 0.93 against the
#: heuristic instead of 0.67; docs/games/pinocchio.rst).
AUTO_ROLLOUTS = ("heuristic",)

#: ``make_bot(game, kind, player_id, rng)``: builds the rollout players (handed in by the bot registry).
BotMaker = Callable[..., TrustMeBot]


class PyspielRollouts:
    """Play-outs through the pyspiel API, every seat played by a bot of the rollout kind."""

    def __init__(self, game: pyspiel.Game, kind: str, rng: np.random.Generator, make_bot: BotMaker):
        self.rng = rng
        self.bots = [make_bot(game, kind, p, rng) for p in range(game.num_players())]

    def pick(self, state: pyspiel.State, player: int) -> int:
        """The rollout bot's action for ``player`` at a simultaneous node."""
        return int(self.bots[player].step(state))

    def mean_returns(self, world: pyspiel.State, n: int) -> np.ndarray:
        """Mean returns of ``n`` play-outs from ``world`` (left unchanged)."""
        total = np.zeros(len(self.bots))
        for _ in range(n):
            total += np.asarray(play_out(world.clone(), self.bots, self.rng).returns(), dtype=float)
        return total / n


class KernelRollouts:
    """Play-outs in the game's compiled kernel: the world (a pyspiel state) is copied into a kernel state
    (``Kernel.state_from``), then played out in compiled code by the kernel's seats (the rollout kind)."""

    def __init__(self, kernel: Any, rng: np.random.Generator):
        self.kernel = kernel
        self.rng = rng

    def pick(self, state: pyspiel.State, player: int) -> int:
        """A uniform-random action for ``player`` at a simultaneous node (the kernel's rollout players are random)."""
        legal = state.legal_actions(player)
        return int(legal[self.rng.integers(len(legal))])

    def mean_returns(self, world: pyspiel.State, n: int) -> np.ndarray:
        """Mean returns of ``n`` play-outs from ``world``."""
        state = self.kernel.state_from(world)
        seed = int(self.rng.integers(2**63))
        return np.asarray(self.kernel.rollouts(state, n, seed), dtype=float)

    def action_means(self, state: pyspiel.State, player: int, actions: list[int], worlds: int, per_world: int,
                     belief: bool) -> np.ndarray:
        """Mean return to ``player`` of each action over the same ``worlds`` worlds sampled from what ``player``
        has seen (weighted by the game's belief when ``belief``), ``per_world`` play-outs each."""
        seed = int(self.rng.integers(2**63))
        means = self.kernel.action_rollouts(self.kernel.state_from(state), actions, worlds, per_world, seed, player,
                                            belief)
        return np.asarray(means, dtype=float)[:, player]


#: The rollout kind that plays a stored trained policy (``rollout_knobs`` name it, as a trained seat's knobs do).
TRAINED_ROLLOUT = "trained"
# Kernels with trained rollout seats by (game, policy folder): the bots of a sweep share one policy's kernel.
_TRAINED_KERNELS: dict[tuple[str, str], Any] = {}


class TrainedKernelRollouts(KernelRollouts):
    """:class:`KernelRollouts` whose seats play a stored trained policy: the policy of a trained bot ``seat`` (its
    knobs name it), read on the first play-out, and the game's kernel with trained rollout seats handed it."""

    def __init__(self, game: pyspiel.Game, seat: Any, rng: np.random.Generator):
        self.game = game
        self.seat = seat
        self.rng = rng
        self._kernel: Any | None = None

    @property
    def kernel(self) -> Any:  # type: ignore[override]
        """The kernel playing the seat's policy (built on first use, shared by the bots of the same policy)."""
        if self._kernel is None:
            self._kernel = kernel_for(self.game, TRAINED_ROLLOUT, self.seat.policy, int(self.seat.settings.detail))
        return self._kernel


def kernel_for(game: pyspiel.Game, rollout: str, policy: Any | None = None, detail: int = 0) -> Any | None:
    """The game's compiled kernel (:class:`~trustme_analysis.engine.kernels.Kernel`) with ``rollout`` seats when its
    kernel entry plays this variant's rollouts with them; else None.

    ``policy``: for ``rollout = "trained"``, the stored policy (:class:`trustme_analysis.train.TrainedPolicy`) the
    kernel's rollout seats play at abstraction level ``detail`` (the entry must name the kind in
    ``policy_rollout_kinds``)."""
    entry = find_game(game.get_type().short_name)
    trained = rollout == TRAINED_ROLLOUT and policy is not None
    if entry is None or entry.kernel_reason(game, (rollout,), use="rollout", trained=trained) is not None:
        return None
    if not trained:
        return entry.new_kernel(game, (rollout,), use="rollout")
    key = (str(game), str(policy.folder))
    if key not in _TRAINED_KERNELS:
        table = (*policy.lookup(), int(detail))
        _TRAINED_KERNELS[key] = entry.new_kernel(game, (rollout,), use="rollout", trained=table)
    return _TRAINED_KERNELS[key]


class SearchBot(TrustMeBot):
    """Determinized search with sequential halving over the legal actions; see the module docstring.

    Args:
        game: the game being played.
        player_id: its seat.
        rng: every random choice (worlds, rollouts, ties) is drawn from it.
        make_bot: builds rollout players (the bot registry's ``make_bot``).
        budget: rollouts per decision (None: the game's kernel entry's ``search_budget`` when its
            kernel plays the rollouts, else :data:`DEFAULT_BUDGET`).
        rollout: bot kind of every seat in the rollouts (``"auto"``: see :data:`AUTO_ROLLOUTS`).
        belief: weight worlds by how likely the others' observed choices were (games that model it); ``None``
            (the default): on, but for the rollout kinds the game's entry names in ``belief_off_for``.
        rollouts_per_world: rollouts from each (world, action) pair.
        engine: ``"kernel"`` (compiled rollouts; the game must support it), ``"pyspiel"``, or ``"auto"``.
    """

    kind = "search"

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, make_bot: BotMaker,
                 budget: int | None = None, rollout: str = "auto", belief: bool | None = None,
                 rollouts_per_world: int = 1, engine: str = "auto", rollout_knobs: dict | None = None):
        super().__init__(player_id, rng)
        if budget is not None:
            _check_int("budget", budget, 1, MAX_BUDGET)
        _check_int("rollouts_per_world", rollouts_per_world, 1, MAX_ROLLOUTS_PER_WORLD)
        if belief is not None and not isinstance(belief, bool):
            raise ValueError(f"search bot knob belief={belief!r} is not allowed; allowed: true or false")
        if engine not in ENGINES:
            raise ValueError(f"search bot knob engine={engine!r} is not allowed; allowed: {', '.join(ENGINES)}")
        if rollout == "search":
            raise ValueError("search bot knob rollout='search' is not allowed; allowed: a bot kind other than search")
        if rollout_knobs is not None and not isinstance(rollout_knobs, dict):
            raise ValueError(f"search bot knob rollout_knobs={rollout_knobs!r} is not allowed; allowed: a table of "
                             "the rollout kind's knobs")
        self.rollout_knobs = dict(rollout_knobs or {})
        if self.rollout_knobs and rollout == "auto":
            raise ValueError("search bot knob rollout_knobs is set but rollout is 'auto'; allowed: rollout_knobs "
                             "with a named rollout kind")
        if rollout == "auto":
            compiled = [k for k in AUTO_ROLLOUTS if engine != "pyspiel" and kernel_for(game, k) is not None]
            rollout = compiled[0] if compiled else "random"
        self.game = game
        self.rollout = rollout
        self.rollouts_per_world = int(rollouts_per_world)
        self.engine = engine
        self.perfect_information = (game.get_type().information
                                    == pyspiel.GameType.Information.PERFECT_INFORMATION)
        if not self.perfect_information and not hasattr(game.new_initial_state(), "resample_from_infostate"):
            raise ValueError(f"the search bot needs states that resample their hidden information; "
                             f"{game.get_type().short_name} has no resample_from_infostate")
        entry = find_game(game.get_type().short_name)
        if belief is None:
            belief = entry is None or rollout not in entry.belief_off_for
        self._belief = entry.part("belief") if entry is not None and belief else None
        # The moves worth trying, where the game says (else every legal move).
        self._candidates = entry.part("search_actions") if entry is not None else None
        self.belief = self._belief is not None
        # A trained rollout kind plays the stored policy its knobs name, read (or trained, where missing, as the
        # trained bot does) on the first decision, not here: a sweep checks its bots before its train stage stores
        # the policy.
        trained = (rollout == TRAINED_ROLLOUT and engine in ("auto", "kernel") and entry is not None
                   and entry.kernel_reason(game, (rollout,), use="rollout", trained=True) is None)
        kernel = kernel_for(game, rollout) if engine in ("auto", "kernel") and not trained else None
        compiled = trained or kernel is not None
        if engine == "kernel" and not compiled:
            raise ValueError(f"search bot knob engine='kernel' is not allowed for {game}: the game has no compiled "
                             f"kernel for this variant with {rollout!r} rollouts; allowed here: 'pyspiel' or 'auto'")
        if trained:
            seat = make_bot(game, rollout, player_id, rng, **self.rollout_knobs)  # (its knobs checked now)
            self.rollouts: KernelRollouts | PyspielRollouts = TrainedKernelRollouts(game, seat, rng)
        elif kernel is not None:
            self.rollouts = KernelRollouts(kernel, rng)
        else:
            def maker(g: pyspiel.Game, kind: str, p: int, r: np.random.Generator) -> TrustMeBot:
                return make_bot(g, kind, p, r, **self.rollout_knobs)

            self.rollouts = PyspielRollouts(game, rollout, rng, maker)
        self.engine_used = "kernel" if compiled else "pyspiel"
        if budget is None:
            named = find_game(game.get_type().short_name).search_budget(game) if compiled else None
            budget = DEFAULT_BUDGET if named is None else named
        self.budget = int(budget)
        # Worlds sampled in compiled code too, where the kernel can (not for games with simultaneous moves, whose
        # other players' moves are picked here).
        self._kernel_worlds = (compiled and not self.perfect_information
                               and game.get_type().dynamics != pyspiel.GameType.Dynamics.SIMULTANEOUS)

    def knobs(self) -> dict:
        """The knobs as a plain dict (recorded with sweep results)."""
        out = {"budget": self.budget, "rollout": self.rollout, "belief": self.belief,
               "rollouts_per_world": self.rollouts_per_world, "engine": self.engine}
        if self.rollout_knobs:
            out["rollout_knobs"] = dict(self.rollout_knobs)
        return out

    def sample_world(self, state: pyspiel.State) -> pyspiel.State:
        """A full state consistent with what this seat has seen in ``state`` (weighted by the belief, when on)."""
        if self.perfect_information:
            return state.clone()
        if self._belief is None:
            return state.resample_from_infostate(self.player_id, self.rng.random)
        worlds = [state.resample_from_infostate(self.player_id, self.rng.random) for _ in range(BELIEF_CANDIDATES)]
        weights = np.asarray(self._belief(state, self.player_id, worlds), dtype=float)
        total = weights.sum()
        if not total > 0:  # no candidate explains the observed choices: keep them all equally
            return worlds[int(self.rng.integers(len(worlds)))]
        return worlds[int(self.rng.choice(len(worlds), p=weights / total))]

    def _after(self, world: pyspiel.State, action: int) -> pyspiel.State:
        child = world.clone()
        if child.is_simultaneous_node():
            child.apply_actions(joint_action(child, self.rollouts.pick, {self.player_id: action}))
        else:
            child.apply_action(action)
        return child

    def action_values(self, state: pyspiel.State) -> dict[int, float]:
        """The mean return to this seat of each action tried (the legal actions, or the game's ``search_actions``)
        that survived to the last round of halving (the others carry the mean of the rounds they were scored in)."""
        if self._candidates is not None:
            legal = [int(a) for a in self._candidates(state, self.player_id)]
        else:
            legal = list(state.legal_actions(self.player_id))
        if len(legal) == 1:
            return {int(legal[0]): math.nan}
        rounds = max(1, math.ceil(math.log2(len(legal))))
        per_round = max(1, self.budget // rounds)
        sums = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        candidates = list(legal)
        for _ in range(rounds):
            worlds = max(1, per_round // (len(candidates) * self.rollouts_per_world))
            if self._kernel_worlds:
                n = worlds * self.rollouts_per_world
                means = self.rollouts.action_means(state, self.player_id, candidates, worlds,
                                                   self.rollouts_per_world, self.belief)
                for a, m in zip(candidates, means):
                    sums[a] += float(m) * n
                    counts[a] += n
                worlds = 0
            for _ in range(worlds):
                world = self.sample_world(state)
                for a in candidates:
                    returns = self.rollouts.mean_returns(self._after(world, a), self.rollouts_per_world)
                    sums[a] += float(returns[self.player_id]) * self.rollouts_per_world
                    counts[a] += self.rollouts_per_world
            if len(candidates) > 1:
                ranked = sorted(candidates, key=lambda a: sums[a] / counts[a], reverse=True)
                candidates = ranked[: max(1, math.ceil(len(candidates) / 2))]
        return {int(a): sums[a] / counts[a] for a in legal}

    def choose(self, state: pyspiel.State) -> int:
        values = self.action_values(state)
        if len(values) == 1:
            return next(iter(values))
        best = max(values.values())
        tied = [a for a, v in values.items() if v == best]
        return int(tied[int(self.rng.integers(len(tied)))])


def _check_int(name: str, value: Any, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"search bot knob {name}={value!r} is not allowed; allowed: an integer from {low:,} to "
                         f"{high:,}")


def make_search_bot(game: pyspiel.Game, player_id: int, rng: np.random.Generator, make_bot: BotMaker,
                    **knobs: Any) -> SearchBot:
    """The bot kind ``"search"`` of every game whose states resample their hidden information."""
    unknown = sorted(set(knobs) - set(KNOBS))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the search bot; valid knobs: {', '.join(KNOBS)}")
    return SearchBot(game, player_id, rng, make_bot, **knobs)
