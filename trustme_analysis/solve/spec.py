"""The ``[[solve]]`` sections of a spec: which reduced variant to solve, how, and which bot line-ups to exploit.

A section (in a solve spec of its own, or inside a sweep spec)::

    [[solve]]
    name = "tiny"                           # folder OUTDIR/solve/tiny
    game = "trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,stacks=1/1,chart=1/3)"
    algorithm = "dcfr"                      # any name cfr.solve accepts
    iterations = 100000                     # stopping rule: the first of iterations, time_limit and the target
    time_limit = 600                        # seconds (wall time, compile and evaluations included)
    target = 0.01                           # exploitability (or NashConv) as a share of the utility range ...
    # target_exploitability = 0.02          # ... or as an absolute number (give at most one of the two)
    eval_every = 10
    seed = 0                                # sampling solvers only
    max_histories = 2000000                 # largest tree compiled; a larger one runs only with es-mccfr/os-mccfr,
    bound_iterations = 1000                 # ... through the game's API, judged by a lower bound from
    bound_games = 10000                     # ... best-response search (walks per player, games per response)
    [solve.lineups.heuristic]               # bot line-ups to exploit (same form as a sweep's line-ups)
    seats = ["heuristic"]

Sections of one game (and one ``utility`` mode) that give ``target`` as a share are solved to one absolute accuracy:
the share of the *smallest* of their utility ranges (:func:`common_accuracy`). Otherwise two charts whose score ranges
differ would be solved to different exploitabilities and their policies compared at different precisions; the
printed summary and the report state the absolute target and where it comes from.

A solve spec file has an optional ``title`` and ``out`` (default ``reports/out/<file stem>``) and one or more
``[[solve]]`` sections. Every problem raises :class:`~trustme_analysis.sweep.spec.SpecError` naming the key.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.players import make_bot
from trustme_analysis.players.lineup import LineUp, check_bot, parse_lineups
from trustme_analysis.specfile import SpecError, check_keys, did_you_mean, load_game, read_spec_file

SOLVE_KEYS = (
    "name",
    "game",
    "algorithm",
    "iterations",
    "time_limit",
    "target",
    "target_exploitability",
    "eval_every",
    "seed",
    "max_histories",
    "lineups",
    "histories",
    "bound_iterations",
    "bound_games",
)
FILE_KEYS = ("title", "out", "solve")
#: The keys of :meth:`SolveSpec.as_dict` that decide the solved policy (see :meth:`SolveSpec.policy_inputs`).
POLICY_INPUTS = ("game", "algorithm", "iterations", "time_limit", "target", "target_exploitability", "target_range",
                 "eval_every", "seed", "max_histories")
DEFAULT_MAX_HISTORIES = 2_000_000
#: Best-response search and games per response of the lower bound, for trees too large to compile.
DEFAULT_BOUND_ITERATIONS = 1000
DEFAULT_BOUND_GAMES = 10_000
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class SolveSpec:
    """One validated ``[[solve]]`` section.

    Attributes:
        name: folder name under ``OUTDIR/solve/``.
        game: the canonical game string (``str(pyspiel.load_game(...))``).
        algorithm: the ``cfr.solve`` algorithm.
        iterations, time_limit, target_share, target_exploitability, eval_every: the stopping rule (see
            :func:`cfr.solve`); ``target_share`` is the target as a share of the utility range.
        seed: generator seed of the sampling solvers.
        max_histories: largest tree compiled exactly.
        lineups: bot line-ups to compute best responses against (fixed seats only).
        histories: which histories the strategy statistics see (``all``, ``reached``, ``one``).
        bound_iterations, bound_games: for a tree too large to compile (sampling solvers only): the best-response
            search's sampled walks per player and the games played to measure each response
            (:func:`~trustme_analysis.solve.bounds.lower_bound`).
        target_range: the utility range ``target_share`` is a share of when several sections are solved to one
            absolute accuracy (:func:`common_accuracy`); ``None``: this game's own range.
        solved_with: the names of the sections sharing that accuracy (this one included); empty when alone.
    """

    name: str
    game: str
    algorithm: str = "dcfr"
    iterations: int | None = None
    time_limit: float | None = None
    target_share: float | None = None
    target_exploitability: float | None = None
    eval_every: int | None = None
    seed: int = 0
    max_histories: int = DEFAULT_MAX_HISTORIES
    lineups: Mapping[str, LineUp] = field(default_factory=dict)
    histories: str = "all"
    bound_iterations: int = DEFAULT_BOUND_ITERATIONS
    bound_games: int = DEFAULT_BOUND_GAMES
    target_range: float | None = None
    solved_with: tuple[str, ...] = ()

    def utility_range(self, game: pyspiel.Game) -> float:
        """``max_utility - min_utility`` of the game."""
        return float(game.max_utility() - game.min_utility())

    def absolute_target(self, game: pyspiel.Game) -> float | None:
        """The target as an absolute exploitability/NashConv (``None`` when the spec sets none)."""
        if self.target_exploitability is not None:
            return self.target_exploitability
        if self.target_share is not None:
            return self.target_share * self.accuracy_range(game)
        return None

    def accuracy_range(self, game: pyspiel.Game) -> float:
        """The utility range that shares (the target, the near-optimal tolerance) are taken of: the range common to
        the sections solved together (:func:`common_accuracy`), else this game's own."""
        return self.target_range if self.target_range is not None else self.utility_range(game)

    def target_words(self, game: pyspiel.Game) -> str:
        """Where the absolute target comes from, in words (empty when the spec sets no target)."""
        target = self.absolute_target(game)
        if target is None:
            return ""
        if self.target_exploitability is not None:
            return f"target {target:.6g} (absolute, as the spec gives it)"
        share = f"{100 * self.target_share:.3g}%"
        if self.target_range is None:
            return f"target {target:.6g} ({share} of the utility range {self.utility_range(game):g})"
        return (f"target {target:.6g} ({share} of {self.target_range:g}, the smallest utility range of the sections "
                f"solved to one accuracy: {', '.join(self.solved_with)})")

    def policy_inputs(self) -> dict[str, Any]:
        """What decides the solved policy: the game string, the algorithm, the stopping rule, the seed and the tree
        limit (not the name, nor the line-ups and histories the analysis reads). A stored policy carries these
        (``made_by.section`` of its ``policy.json``); one made by other inputs is not this section's policy."""
        full = self.as_dict()
        return {key: full[key] for key in POLICY_INPUTS}

    def as_dict(self) -> dict[str, Any]:
        """The section as a plain dict (as stored with the result)."""
        return {
            "name": self.name,
            "game": self.game,
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "time_limit": self.time_limit,
            "target": self.target_share,
            "target_exploitability": self.target_exploitability,
            "eval_every": self.eval_every,
            "seed": self.seed,
            "max_histories": self.max_histories,
            "lineups": {name: lu.as_dict() for name, lu in self.lineups.items()},
            "histories": self.histories,
            "bound_iterations": self.bound_iterations,
            "bound_games": self.bound_games,
            "target_range": self.target_range,
            "solved_with": list(self.solved_with),
        }


@dataclass(frozen=True)
class SolveFile:
    """A solve spec file: title, output folder and its sections."""

    title: str
    out: str
    solves: tuple[SolveSpec, ...]


#: The most iterations, histories or games a solve may ask for, and the longest time limit (a week, in seconds): a
#: larger number is a slip, not a plan, and is stated as one.
MAX_COUNT = 10_000_000_000
MAX_SECONDS = 7 * 24 * 3600


def _number(key: str, value: Any, integer: bool, low: float, strict: bool, high: float | None = None) -> Any:
    # TOML writes nan and inf: neither is a count, a time or a target.
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if integer:
        ok = ok and isinstance(value, int)
        high = MAX_COUNT if high is None else high
    if ok:
        ok = (value > low if strict else value >= low) and (high is None or value <= high)
    if not ok:
        what = "an integer" if integer else "a number"
        bound = f"> {low}" if strict else f">= {low}"
        if high is not None:
            bound += f" and <= {high:,}"
        raise SpecError(key, f"must be {what} {bound}, got {value!r}")
    return value


def parse_solve(data: Any, index: int = 0, names: Sequence[str] = ()) -> SolveSpec:
    """Validate one ``[[solve]]`` section (``index`` is its position, for the error messages)."""
    from cfr import algorithm_names

    where = f"solve[{index}]"
    if not isinstance(data, dict):
        raise SpecError(where, f"must be a table, got {data!r}")
    check_keys(where, data, SOLVE_KEYS)
    name = data.get("name", f"solve{index}")
    if not isinstance(name, str) or not _NAME.match(name):
        raise SpecError(f"{where}.name", f"must be a folder name of letters, digits, '_', '.', '-', got {name!r}")
    if name in names:
        raise SpecError(f"{where}.name", f"{name!r} is used by two [[solve]] sections; names must differ")
    if "game" not in data:
        raise SpecError(f"{where}.game", "missing (required): a game string such as 'trustme_pinocchio(players=2)'")
    game_text = data["game"]
    if not isinstance(game_text, str):
        raise SpecError(f"{where}.game", f"must be a game string, got {game_text!r}")
    game = load_game(game_text, f"{where}.game")  # one line, without OpenSpiel's own chatter
    algorithm = data.get("algorithm", "dcfr")
    allowed = algorithm_names()
    if not isinstance(algorithm, str) or algorithm.lower() not in [a.lower() for a in allowed]:
        raise SpecError(f"{where}.algorithm", f"{algorithm!r} is not allowed; allowed: {', '.join(allowed)}")
    iterations = data.get("iterations")
    if iterations is not None:
        _number(f"{where}.iterations", iterations, True, 0, True)
    time_limit = data.get("time_limit")
    if time_limit is not None:
        time_limit = float(_number(f"{where}.time_limit", time_limit, False, 0, True, MAX_SECONDS))
    if "target" in data and "target_exploitability" in data:
        raise SpecError(f"{where}.target", "give either target (share of the utility range) or "
                        "target_exploitability (absolute), not both")
    target = data.get("target")
    if target is not None:
        target = float(_number(f"{where}.target", target, False, 0, False))
        if target >= 1:
            raise SpecError(f"{where}.target", f"is a share of the utility range and must be below 1, got {target!r}")
    target_abs = data.get("target_exploitability")
    if target_abs is not None:
        target_abs = float(_number(f"{where}.target_exploitability", target_abs, False, 0, False))
    if iterations is None and time_limit is None and target is None and target_abs is None:
        raise SpecError(where, "needs a stopping rule: at least one of iterations, time_limit, target, "
                        "target_exploitability")
    eval_every = data.get("eval_every")
    if eval_every is not None:
        _number(f"{where}.eval_every", eval_every, True, 0, True)
    seed = data.get("seed", 0)
    _number(f"{where}.seed", seed, True, 0, False, 2**63 - 1)
    max_histories = data.get("max_histories", DEFAULT_MAX_HISTORIES)
    _number(f"{where}.max_histories", max_histories, True, 0, True)
    histories = data.get("histories", "all")
    if histories not in ("all", "reached", "one"):
        raise SpecError(f"{where}.histories", f"{histories!r} is not allowed; allowed: 'all', 'reached', 'one'")
    bound_iterations = data.get("bound_iterations", DEFAULT_BOUND_ITERATIONS)
    _number(f"{where}.bound_iterations", bound_iterations, True, 0, True)
    bound_games = data.get("bound_games", DEFAULT_BOUND_GAMES)
    _number(f"{where}.bound_games", bound_games, True, 1, True)
    lineups: dict[str, LineUp] = {}
    if "lineups" in data:
        try:
            parsed = parse_lineups(data["lineups"])
        except SpecError as exc:
            raise SpecError(f"{where}.{exc.key}", str(exc).split(": ", 1)[-1]) from None
        n = game.num_players()
        for lu in parsed.values():
            key = f"{where}.lineups.{lu.name}"
            if lu.pool is not None:
                raise SpecError(f"{key}.pool", "a best response needs fixed seats; pools are not supported here")
            if len(lu.seats) not in (1, n):
                raise SpecError(f"{key}.seats", f"has {len(lu.seats)} entries but the game has {n} seats")
            for player, seat in enumerate(lu.seats_for(n)):
                seat_key = f"{key}.seats[{player if len(lu.seats) > 1 else 0}]"
                check_bot(game, seat_key, seat, player)
                if seat.bot == "policy" and "solve" in seat.knobs:
                    # Solves run before any policy they would name is known to be stored; a file is unambiguous.
                    raise SpecError(f"{seat_key}.knobs.solve", "a [[solve]] line-up cannot name a solve; give the "
                                    "stored policy's path instead (knobs = {policy = \"PATH/policy.json\"})")
        lineups = parsed
    return SolveSpec(
        name=name,
        game=str(game),
        algorithm=algorithm.lower(),
        iterations=iterations,
        time_limit=time_limit,
        target_share=target,
        target_exploitability=target_abs,
        eval_every=eval_every,
        seed=seed,
        max_histories=max_histories,
        lineups=lineups,
        histories=histories,
        bound_iterations=bound_iterations,
        bound_games=bound_games,
    )


def parse_solves(sections: Any) -> tuple[SolveSpec, ...]:
    """Validate a list of ``[[solve]]`` sections."""
    if not isinstance(sections, list) or not sections:
        raise SpecError("solve", "must be one or more [[solve]] tables")
    out: list[SolveSpec] = []
    for i, section in enumerate(sections):
        out.append(parse_solve(section, i, [s.name for s in out]))
    return common_accuracy(out)


def common_accuracy(solves: Sequence[SolveSpec]) -> tuple[SolveSpec, ...]:
    """The sections with their share targets made one absolute target per game and utility mode.

    Sections of the same game and ``utility`` parameter that give ``target`` as a share of the utility range are the
    variants of one question; each is solved to the share of the smallest utility range among them (the strictest
    of their absolute targets), so their policies are compared at the same precision. Sections with an absolute
    ``target_exploitability``, or alone in their group, are returned unchanged.
    """
    groups: dict[tuple[str, str], list[int]] = {}
    ranges: dict[int, float] = {}
    for i, spec in enumerate(solves):
        if spec.target_share is None:
            continue
        game = pyspiel.load_game(spec.game)
        key = (game.get_type().short_name, str(game.get_parameters().get("utility", "")))
        groups.setdefault(key, []).append(i)
        ranges[i] = spec.utility_range(game)
    out = list(solves)
    for members in groups.values():
        if len(members) < 2:
            continue
        common = min(ranges[i] for i in members)
        names = tuple(solves[i].name for i in members)
        for i in members:
            out[i] = replace(solves[i], target_range=common, solved_with=names)
    return tuple(out)


def check_policy_seats(
    lineups: Mapping[str, LineUp], plays: Sequence[tuple[str, str, str]], solves: Sequence[SolveSpec]
) -> None:
    """Check the policy seats of a sweep spec that name a solve (``knobs = {solve = NAME}``).

    The name must be one of the spec's ``[[solve]]`` sections, the seat must not also give a ``policy`` path, and the
    solved game must be the game of every variant the line-up plays (a policy plays only the variant it was solved
    for). ``plays`` lists ``(line-up name, game string, variant label)`` for every variant.

    Raises:
        SpecError: naming the seat's ``knobs.solve`` key, its value and the spec's solves.
    """
    by_name = {s.name: s for s in solves}
    for lineup in lineups.values():
        which, seats = ("seats", lineup.seats) if lineup.seats is not None else ("pool", lineup.pool or ())
        for i, seat in enumerate(seats):
            if seat.bot != "policy" or "solve" not in seat.knobs:
                continue
            key = f"lineups.{lineup.name}.{which}[{i}].knobs"
            name = seat.knobs["solve"]
            if "policy" in seat.knobs:
                raise SpecError(key, f"gives both solve = {name!r} and policy = {seat.knobs['policy']!r}; give "
                                "solve (a [[solve]] section of this spec) or policy (a stored policy's path)")
            if name not in by_name:
                listed = (f"the spec's solves: {', '.join(by_name)}" if by_name
                          else "this spec has no [[solve]] sections")
                raise SpecError(f"{key}.solve", f"{name!r} is not a [[solve]] section of this spec"
                                f"{did_you_mean(str(name), list(by_name))} ({listed})")
            solved = by_name[name].game
            for lineup_name, game_string, label in plays:
                if lineup_name == lineup.name and game_string != solved:
                    raise SpecError(f"{key}.solve", f"[[solve]] {name!r} solves {solved}, but the variant {label} "
                                    f"plays {game_string}; a policy plays only the variant it was solved for")


def load_solve_file(path: str | Path) -> SolveFile:
    """Read and validate a solve spec file (also accepts a sweep spec: only its ``[[solve]]`` sections are read)."""
    p = Path(path)
    data = read_spec_file(p)
    if "solve" not in data:
        raise SpecError("solve", f"{p} has no [[solve]] section")
    if "game" not in data:  # a pure solve spec: only its own keys
        check_keys("", data, FILE_KEYS)
    title = data.get("title", p.stem)
    if not isinstance(title, str):
        raise SpecError("title", f"must be a string, got {title!r}")
    out = data.get("out", str(Path("reports") / "out" / p.stem))
    if not isinstance(out, str) or not out.strip():
        raise SpecError("out", f"must be a folder path, got {out!r}")
    return SolveFile(title=title, out=out, solves=parse_solves(data["solve"]))


def make_lineup_bots(game: pyspiel.Game, lineup: LineUp, seed: int = 0) -> dict[int, Any]:
    """The bots of a fixed-seat line-up, one per seat (their generators are unused by exact evaluation)."""
    n = game.num_players()
    return {
        p: make_bot(game, seat.bot, p, np.random.default_rng([seed, p]), **dict(seat.knobs))
        for p, seat in enumerate(lineup.seats_for(n))
    }
