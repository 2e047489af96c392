"""A tuning spec: the TOML file that asks which rule sets meet a designer's targets, checked before anything runs.

A tuning spec names a game, fixed rule parameters (``[params]``), the line-up that plays every candidate
(``[lineups.NAME]``, exactly one; default :data:`DEFAULT_LINEUP`), the searched rule parameters (``[search]``, see
:mod:`~trustme_analysis.tune.space`), one or more ``[[objective]]`` and optional ``[[constraint]]`` tables (see
:mod:`~trustme_analysis.tune.measures`), the ``[budget]`` in games with its racing schedule, the ``[sampler]`` and the
``[confirm]`` sweep, and with a line-up that plays trained policies a ``[train]`` table (the training of the
rulebook's *base policy* and ``candidate_iterations``, each candidate's training warm-started from it; see
:mod:`~trustme_analysis.tune.training`). The format with every key is in ``docs/guide/tuning.rst``. Problems raise
:class:`~trustme_analysis.specfile.SpecError` naming the key.

Each candidate rule set is played as an ordinary one-variant sweep spec (:meth:`TuneSpec.candidate_data`): every
candidate gets the same seed and so the same game seeds (common random numbers), and its records and results set live in
its own folder under ``OUT/candidates/``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from cfr.gameload import unknown_game_message
from trustme_analysis.provenance import game_code_digest
from trustme_analysis.specfile import (
    SpecError,
    at_least,
    check_keys,
    did_you_mean,
    optional,
    read_spec_file,
    require,
)
from trustme_analysis.tune.measures import Constraint, Objective, parse_constraints, parse_objectives
from trustme_analysis.tune.space import SearchSpace, as_game_value, as_spec_value, parse_space

TOP_LEVEL_KEYS = ("title", "question", "game", "params", "lineups", "search", "objective", "constraint", "budget",
                  "sampler", "confirm", "seed", "out", "train")
#: The ``[train]`` key of a tuning that a sweep's ``[train]`` has not: each candidate's training budget.
CANDIDATE_ITERATIONS = "candidate_iterations"
BUDGET_KEYS = ("games", "games_per_candidate", "first_rung", "reduction", "racing", "chunk_size", "max_trials",
               "parallel")
SAMPLER_KEYS = ("kind", "population", "startup_trials", "rulebook_first")
CONFIRM_KEYS = ("best", "games", "seed", "reports", "references")
RACING = ("interval", "halving", "off")
SAMPLERS = ("auto", "tpe", "nsga2", "random", "grid")

#: The line-up that plays the candidates when a spec names none. The competent search players will take its place
#: once they are ready: change this one line (e.g. ``{"search": {"seats": [{"bot": "search"}]}}``).
DEFAULT_LINEUP: dict[str, Any] = {"heuristic": {"seats": [{"bot": "heuristic"}]}}

DEFAULT_SEED = 0
DEFAULT_GAMES_PER_CANDIDATE = 800
DEFAULT_CHUNK_SIZE = 50
DEFAULT_REDUCTION = 2
DEFAULT_POPULATION = 16
DEFAULT_STARTUP = 8
DEFAULT_CONFIRM_BEST = 3
DEFAULT_CONFIRM_GAMES = 2000


@dataclass(frozen=True)
class Budget:
    """How many games the search may play, and how it spends them on one candidate (racing)."""

    games: int
    games_per_candidate: int
    first_rung: int
    reduction: int
    racing: str
    chunk_size: int
    max_trials: int | None
    parallel: int | None

    @property
    def rungs(self) -> tuple[int, ...]:
        """The games at which a candidate is looked at: first_rung, x reduction, ..., games_per_candidate."""
        if self.racing == "off":
            return (self.games_per_candidate,)
        out = [self.first_rung]
        while out[-1] < self.games_per_candidate:
            out.append(min(out[-1] * self.reduction, self.games_per_candidate))
        return tuple(out)


@dataclass(frozen=True)
class Sampler:
    """Which Optuna sampler proposes candidates."""

    kind: str
    population: int
    startup_trials: int
    rulebook_first: bool


@dataclass(frozen=True)
class Confirm:
    """The confirmation sweep: the best rule sets and the rulebook's, replayed with fresh seeds."""

    best: int
    games: int
    seed: int
    reports: bool
    #: Named rule sets confirmed beside the rulebook's (e.g. a house rule the designer already plays): name -> the
    #: searched rules they change, as the game takes them (the others are the rulebook's).
    references: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class TuneSpec:
    """A validated tuning spec."""

    name: str
    path: str | None
    title: str
    question: str
    game: str
    params: Mapping[str, Any]
    lineup_name: str
    lineup: Mapping[str, Any]
    space: SearchSpace
    objectives: tuple[Objective, ...]
    constraints: tuple[Constraint, ...]
    budget: Budget
    sampler: Sampler
    confirm: Confirm
    seed: int
    out: str
    #: The searched parameters' rulebook values (the game's defaults), as the game takes them.
    rulebook: Mapping[str, Any]
    #: The ``[train]`` table without ``candidate_iterations``: how the rulebook's base policy is trained (``None``:
    #: the line-up plays nothing trained).
    train: Mapping[str, Any] | None = None
    #: The iterations each candidate's policy trains, warm-started from the base policy.
    candidate_iterations: int | None = None

    @property
    def trained(self) -> bool:
        """Whether the line-up plays trained policies (the run trains a base policy, then one per candidate)."""
        return self.train is not None

    def candidate_train(self) -> dict[str, Any]:
        """The ``[train]`` table of a candidate's sweep: the base policy's settings with ``candidate_iterations`` as
        the budget and a warm start (from the base policy: :mod:`~trustme_analysis.tune.training` names it)."""
        assert self.train is not None and self.candidate_iterations is not None
        rest = {k: v for k, v in self.train.items() if k not in ("iterations", "seconds")}
        return {**rest, "iterations": self.candidate_iterations, "warm_start": True}

    @property
    def sampler_kind(self) -> str:
        """The sampler actually used: ``auto`` is TPE for one objective and NSGA-II for several."""
        if self.sampler.kind != "auto":
            return self.sampler.kind
        return "tpe" if len(self.objectives) == 1 else "nsga2"

    def candidate_data(self, rules: Mapping[str, Any], games: int, seed: int | None = None,
                       out: str | Path | None = None, title: str | None = None,
                       train: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The sweep spec (as a dict for :func:`trustme_analysis.sweep.spec.parse_spec`) that plays ``rules``.

        Every candidate gets the same seed, so game ``k`` of every candidate starts from the same seed (common
        random numbers). With a trained line-up the sweep's ``[train]`` is ``train``, by default a candidate's
        (:meth:`candidate_train`).
        """
        params = {**{k: as_spec_value(v) for k, v in self.params.items()},
                  **{k: as_spec_value(v) for k, v in rules.items()}}
        label = ", ".join(f"{k}={as_game_value(v)}" for k, v in rules.items())
        extra = {}
        if self.train is not None:
            extra["train"] = dict(train if train is not None else self.candidate_train())
        return {
            **extra,
            "title": title or f"{self.title}: {label}",
            "question": self.question,
            "game": self.game,
            "params": params,
            "lineups": {self.lineup_name: dict(self.lineup)},
            "games": games,
            "seed": self.seed if seed is None else seed,
            "chunk_size": self.budget.chunk_size,
            "out": str(out if out is not None else Path(self.out) / "candidate"),
        }

    def as_dict(self) -> dict[str, Any]:
        """The validated spec as plain data (defaults filled in)."""
        return {
            "title": self.title,
            "question": self.question,
            "game": self.game,
            "params": dict(self.params),
            "lineups": {self.lineup_name: dict(self.lineup)},
            "search": {p.name: p.describe() for p in self.space.parameters},
            "objective": [{"name": o.name, "measure": o.measure.describe(), "wanted": o.wanted()}
                          for o in self.objectives],
            "constraint": [{"name": c.name, "measure": c.measure.describe(), "wanted": c.wanted()}
                           for c in self.constraints],
            "budget": {**self.budget.__dict__, "rungs": list(self.budget.rungs)},
            "sampler": {**self.sampler.__dict__, "used": self.sampler_kind},
            "confirm": {**self.confirm.__dict__,
                        "references": {k: dict(v) for k, v in self.confirm.references.items()}},
            "seed": self.seed,
            "out": self.out,
            "rulebook": dict(self.rulebook),
            **({"train": {**self.train, CANDIDATE_ITERATIONS: self.candidate_iterations}}
               if self.train is not None else {}),
        }

    def study_fingerprint(self) -> dict[str, Any]:
        """What decides the study's trials: two specs with equal fingerprints continue the same study. The budget's
        games and trial cap, the confirmation, the title and the question may change between runs."""
        d = self.as_dict()
        budget = {k: v for k, v in d["budget"].items() if k not in ("games", "max_trials", "parallel")}
        objectives = [repr(o) for o in self.objectives]
        constraints = [repr(c) for c in self.constraints]
        space = [repr(p) for p in self.space.parameters]
        out = {"game": d["game"], "params": d["params"], "lineups": d["lineups"], "search": space,
               "objective": objectives, "constraint": constraints, "budget": budget, "sampler": d["sampler"],
               "seed": self.seed}
        if self.train is not None:  # (absent without training: the fingerprints of earlier studies stay the same)
            out["train"] = d["train"]
        # The code that plays the trials (the rules, the bots and the defaults they resolve).
        out["code"] = game_code_digest(self.game)
        return json.loads(json.dumps(out, default=str))


# --------------------------------------------------------------------------------------------------------- loading


def load_tune_spec(path: str | Path) -> TuneSpec:
    """Read and validate a tuning spec file."""
    p = Path(path)
    # A folder, a missing, binary or non-UTF-8 file and bad TOML: each one line, as for a sweep spec.
    return parse_tune_spec(read_spec_file(p), name=p.stem, path=str(p))


def _remap(exc: SpecError, searched: Mapping[str, Any]) -> SpecError:
    """A sweep-spec error about a candidate, with its key as the tuning spec writes it."""
    key = exc.key
    message = str(exc)[len(key) + 2:] if key and str(exc).startswith(f"{key}: ") else str(exc)
    for prefix in ("params.", "grid."):
        if key.startswith(prefix) and key[len(prefix):].split(".")[0].split("[")[0] in searched:
            key = "search." + key[len(prefix):]
    if key == "grid":
        key = "search"
    return SpecError(key, message)


def parse_tune_spec(data: Mapping[str, Any], name: str = "tune", path: str | None = None) -> TuneSpec:
    """Validate a tuning spec given as a dict (as read from TOML)."""
    from trustme_analysis.sweep.spec import parse_spec  # the sweep checks game, parameters and line-up

    check_keys("", data, TOP_LEVEL_KEYS)
    game = require(data, "game", str)
    registered = sorted(pyspiel.registered_names())
    if game not in registered:
        raise SpecError("game", unknown_game_message(game))
    spec_params = pyspiel.load_game(game).get_type().parameter_specification
    title = optional(data, "title", str, name)
    question = optional(data, "question", str, f"Which rule sets of {game} meet the targets?")
    seed = optional(data, "seed", int, DEFAULT_SEED)
    at_least("seed", seed, 0)
    out = optional(data, "out", str, str(Path("reports") / "out" / name))
    if not out.strip():
        raise SpecError("out", "must be a folder path, got an empty string")
    params = optional(data, "params", dict, {})
    for k in params:
        if k not in spec_params:
            allowed = sorted(spec_params)
            raise SpecError(f"params.{k}", f"{game} has no parameter {k!r}{did_you_mean(k, allowed)} "
                            f"(parameters: {', '.join(allowed)})")
    lineups = optional(data, "lineups", dict, DEFAULT_LINEUP)
    if len(lineups) != 1:
        raise SpecError("lineups", f"must name exactly one line-up (the players of every candidate), got "
                        f"{len(lineups)}: {', '.join(lineups) or 'none'}")
    lineup_name, lineup = next(iter(lineups.items()))
    space = parse_space(data.get("search"), spec_params, game, params)
    names: set[str] = set()
    objectives = parse_objectives(data.get("objective"), names)
    constraints = parse_constraints(data.get("constraint"), names)
    budget = _parse_budget(data.get("budget"))
    sampler = _parse_sampler(data.get("sampler"), len(objectives), budget)
    confirm = _parse_confirm(data.get("confirm"), seed, space.names)
    rulebook = {p: spec_params[p] for p in space.names}
    train, candidate_iterations = _parse_train(data["train"]) if "train" in data else (None, None)

    spec = TuneSpec(name=name, path=path, title=title, question=question, game=game,
                    params={k: as_game_value(v) if isinstance(v, list) else v for k, v in params.items()},
                    lineup_name=lineup_name, lineup=lineup, space=space, objectives=objectives,
                    constraints=constraints, budget=budget, sampler=sampler, confirm=confirm, seed=seed, out=out,
                    rulebook=rulebook, train=train, candidate_iterations=candidate_iterations)
    # The sweep checks the game, the fixed parameters and the line-up on the rulebook's rule set and on the search
    # space's first candidate; any message names the key as this spec writes it.
    first = {p.name: _first_value(p) for p in space.parameters}
    for rules in (rulebook, first):
        try:
            parse_spec(spec.candidate_data(rules, budget.games_per_candidate), name=name)
        except SpecError as exc:
            raise _remap(exc, rulebook) from None
    _check_choices(spec, spec_params)
    _check_trained_lineup(spec)
    # The confirmation plays the rulebook and the picks as sweeps of confirm.games: checked now, not after the search.
    try:
        parse_spec(spec.candidate_data(rulebook, confirm.games), name=name)
    except SpecError as exc:
        if exc.key != "games":
            raise _remap(exc, rulebook) from None
        raise SpecError("confirm.games", str(exc)[len("games: "):]) from None
    for ref_name, ref_rules in confirm.references.items():
        try:
            parse_spec(spec.candidate_data({**rulebook, **ref_rules}, confirm.games), name=name)
        except SpecError as exc:
            raise SpecError(f"confirm.references.{ref_name}", str(exc)) from None
    return spec


def _parse_train(table: Any) -> tuple[dict[str, Any], int]:
    """``[train]``: a sweep's training knobs (checked as a sweep checks them, at ``train.KEY``) but ``warm_start``,
    which the tuning sets, and the required ``candidate_iterations``."""
    from trustme_analysis.sweep.spec import parse_train, train_keys

    if not isinstance(table, dict):
        raise SpecError("train", f"must be a table of training knobs and {CANDIDATE_ITERATIONS}, got {table!r}")
    allowed = [k for k in train_keys() if k != "warm_start"] + [CANDIDATE_ITERATIONS]
    if "warm_start" in table:
        raise SpecError("train.warm_start", "is set by the tuning (the base policy starts from nothing, every "
                        "candidate's from the base policy); remove it")
    check_keys("train", table, allowed)
    if CANDIDATE_ITERATIONS not in table:
        raise SpecError(f"train.{CANDIDATE_ITERATIONS}", "missing (required with [train]): the iterations each "
                        "candidate's policy trains, warm-started from the rulebook's base policy (a whole number >= 1, "
                        "e.g. a quarter of the base policy's iterations)")
    value = table[CANDIDATE_ITERATIONS]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SpecError(f"train.{CANDIDATE_ITERATIONS}", f"{CANDIDATE_ITERATIONS}={value!r} is not allowed; allowed: a "
                        "whole number >= 1 (the iterations each candidate's policy trains from the base policy)")
    base = parse_train({k: v for k, v in table.items() if k != CANDIDATE_ITERATIONS})
    return base, value


def _check_trained_lineup(spec: TuneSpec) -> None:
    """A ``[train]`` table goes with a line-up that plays one trained policy per rule set, whose seats take their
    budget, warm start and folder from the tuning; trained seats need ``[train]``."""
    from trustme_analysis.sweep.policies import trainings
    from trustme_analysis.sweep.spec import parse_spec

    key = f"lineups.{spec.lineup_name}"
    here = os.path.abspath("OUT")  # (a stand-in: only whether a seat names its own folder matters here)
    if spec.train is None:
        if trainings(parse_spec(spec.candidate_data(spec.rulebook, spec.budget.games_per_candidate)), here):
            raise SpecError(key, "plays trained policies (bot \"trained\", a probe over one, or a search with "
                            "rollout = \"trained\"); a tuning trains them itself: add a [train] table (iterations, "
                            f"seed, detail, ... and {CANDIDATE_ITERATIONS}), see docs/guide/tuning.rst")
        return
    base = trainings(parse_spec(spec.candidate_data(spec.rulebook, spec.budget.games_per_candidate,
                                                    train=spec.train)), here)
    if not base:
        raise SpecError("train", f"the line-up {spec.lineup_name!r} plays no trained policy (no bot \"trained\", "
                        "probe over one, or search with rollout = \"trained\"); remove [train]")
    if len(base) > 1:
        raise SpecError(key, f"its trained seats play {len(base)} different policies (their knobs differ); a tuning "
                        "trains one policy per rule set: let [train] set their training knobs")
    cand = trainings(parse_spec(spec.candidate_data(spec.rulebook, spec.budget.games_per_candidate)), here)
    ok = (len(cand) == 1 and cand[0].outdir == here and base[0].outdir == here
          and cand[0].settings.iterations == spec.candidate_iterations and cand[0].settings.warm_start)
    if not ok:
        raise SpecError(key, "a trained seat sets its own budget (iterations, seconds), warm_start or outdir; in a "
                        "tuning [train] sets the budgets and the run decides where policies are stored: remove them "
                        "from the seat's knobs")


def _check_choices(spec: TuneSpec, spec_params: Mapping[str, Any]) -> None:
    """Each listed choice must be a rule the game accepts with the rulebook's other rules (a typo in a chart is
    caught here, not as failed trials)."""
    from trustme_analysis.tune.space import Choice

    for param in spec.space.parameters:
        if not isinstance(param, Choice):
            continue
        for i, value in enumerate(param.choices):
            rules = {**spec.params, **spec.rulebook, param.name: value}
            try:
                pyspiel.load_game(spec.game, {k: v for k, v in rules.items() if k in spec_params})
            except (pyspiel.SpielError, ValueError, TypeError, RuntimeError) as exc:
                message = "; ".join(line.strip() for line in str(exc).strip().splitlines())
                raise SpecError(f"search.{param.name}.choices[{i}]", f"{spec.game} rejects {value!r} with the "
                                f"rulebook's other rules: {message}") from None


def _first_value(param: Any) -> Any:
    from trustme_analysis.tune.space import Choice, IntRange

    if isinstance(param, Choice):
        return param.choices[0]
    if isinstance(param, IntRange):
        return param.low
    return as_game_value(param.build(param.low, [param.min_step] * (param.length - 1)))


#: The most games a tuning may play (``budget.games``, ``confirm.games``, a candidate's games): a thousand CPU hours
#: of kernel games, more than any machine here finishes; a larger number is a slip, and stated as one.
MAX_GAMES = 100_000_000
#: The most trials, parallel trials and the sampler's population a spec may ask for.
MAX_TRIALS = 1_000_000
MAX_PARALLEL = 1_024


def _int(table: Mapping[str, Any], key: str, default: Any, where: str, low: int, high: int | None = None) -> Any:
    value = optional(table, key, int, default, where=where)
    if value is not None and (value < low or (high is not None and value > high)):
        allowed = f"an integer from {low:,} to {high:,}" if high is not None else f"an integer >= {low}"
        raise SpecError(f"{where}.{key}", f"must be {allowed}, got {value!r}")
    return value


def _parse_budget(table: Any) -> Budget:
    if not isinstance(table, dict):
        raise SpecError("budget", "missing (required): a [budget] table with games = N (all games the search may "
                        "play)")
    check_keys("budget", table, BUDGET_KEYS)
    if "games" not in table:
        raise SpecError("budget.games", "missing (required): all games the search may play")
    games = _int(table, "games", None, "budget", 1, MAX_GAMES)
    chunk = _int(table, "chunk_size", DEFAULT_CHUNK_SIZE, "budget", 1)
    per = _int(table, "games_per_candidate", DEFAULT_GAMES_PER_CANDIDATE, "budget", 1, MAX_GAMES)
    if per % chunk:
        raise SpecError("budget.games_per_candidate", f"must be a multiple of chunk_size ({chunk}), got {per}")
    if per > games:
        raise SpecError("budget.games_per_candidate", f"({per}) is more than the whole budget ({games} games)")
    racing = optional(table, "racing", str, "interval", where="budget")
    if racing not in RACING:
        raise SpecError("budget.racing", f"unknown racing {racing!r}{did_you_mean(racing, RACING)} "
                        f"(allowed: {', '.join(RACING)})")
    reduction = _int(table, "reduction", DEFAULT_REDUCTION, "budget", 2)
    default_first = max(chunk, (per // 8) // chunk * chunk)
    first = _int(table, "first_rung", default_first, "budget", 1)
    if first % chunk:
        raise SpecError("budget.first_rung", f"must be a multiple of chunk_size ({chunk}), got {first}")
    if first > per:
        raise SpecError("budget.first_rung", f"({first}) is more than games_per_candidate ({per})")
    max_trials = _int(table, "max_trials", None, "budget", 1, MAX_TRIALS)
    parallel = _int(table, "parallel", None, "budget", 1, MAX_PARALLEL)
    budget = Budget(games, per, first, reduction, racing, chunk, max_trials, parallel)
    bad = [r for r in budget.rungs if r % chunk]
    if bad:
        raise SpecError("budget.reduction", f"the rungs {list(budget.rungs)} must all be multiples of chunk_size "
                        f"({chunk}); {bad[0]} is not")
    return budget


def _parse_sampler(table: Any, objectives: int, budget: Budget) -> Sampler:
    table = {} if table is None else table
    if not isinstance(table, dict):
        raise SpecError("sampler", f"must be a table (kind, population, startup_trials, rulebook_first), got {table!r}")
    check_keys("sampler", table, SAMPLER_KEYS)
    kind = optional(table, "kind", str, "auto", where="sampler")
    if kind not in SAMPLERS:
        raise SpecError("sampler.kind", f"unknown sampler {kind!r}{did_you_mean(kind, SAMPLERS)} "
                        f"(allowed: {', '.join(SAMPLERS)})")
    if kind == "tpe" and objectives > 1:
        raise SpecError("sampler.kind", "tpe searches one objective; with several use nsga2 (or auto)")
    if budget.racing == "halving" and objectives > 1:
        raise SpecError("budget.racing", "halving compares one objective (Optuna prunes single-objective studies "
                        "only); with several objectives use racing = \"interval\"")
    population = _int(table, "population", DEFAULT_POPULATION, "sampler", 2, MAX_TRIALS)
    startup = _int(table, "startup_trials", DEFAULT_STARTUP, "sampler", 0, MAX_TRIALS)
    rulebook_first = table.get("rulebook_first", True)
    if not isinstance(rulebook_first, bool):
        raise SpecError("sampler.rulebook_first", f"must be true or false, got {rulebook_first!r}")
    return Sampler(kind, population, startup, rulebook_first)


def _parse_confirm(table: Any, seed: int, searched: list[str]) -> Confirm:
    table = {} if table is None else table
    if not isinstance(table, dict):
        raise SpecError("confirm", f"must be a table (best, games, seed, reports, references), got {table!r}")
    check_keys("confirm", table, CONFIRM_KEYS)
    best = _int(table, "best", DEFAULT_CONFIRM_BEST, "confirm", 0, MAX_TRIALS)
    games = _int(table, "games", DEFAULT_CONFIRM_GAMES, "confirm", 1, MAX_GAMES)
    # Fresh seeds: another master seed than the search's, so no confirmation game was seen by the search.
    confirm_seed = _int(table, "seed", seed + 1, "confirm", 0)
    if confirm_seed == seed:
        raise SpecError("confirm.seed", f"must differ from the search's seed ({seed}): the confirmation replays the "
                        "rule sets on games the search never saw")
    reports = table.get("reports", True)
    if not isinstance(reports, bool):
        raise SpecError("confirm.reports", f"must be true or false, got {reports!r}")
    references = optional(table, "references", dict, {}, where="confirm")
    parsed: dict[str, dict[str, Any]] = {}
    for name, rules in references.items():
        key = f"confirm.references.{name}"
        if name in ("rulebook",) or name.startswith("best-"):
            raise SpecError(key, "is a name the confirmation gives its own rule sets; choose another")
        if not isinstance(rules, dict) or not rules:
            raise SpecError(key, f"must be a table of searched rules and their values, got {rules!r}")
        for rule in rules:
            if rule not in searched:
                raise SpecError(f"{key}.{rule}", f"is not a searched rule{did_you_mean(rule, searched)} (searched: "
                                f"{', '.join(searched)}); a reference changes searched rules only")
        parsed[name] = {k: as_game_value(v) for k, v in rules.items()}
    return Confirm(best, games, confirm_seed, reports, parsed)

