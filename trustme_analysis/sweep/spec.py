"""A sweep spec: the TOML file a designer writes, checked completely before anything runs.

A spec names a game, fixed rule parameters, a ``grid`` of rule parameters whose cartesian product makes the rule
variants, and named bot line-ups; every (grid point, line-up) pair is one *variant* of the sweep. See
``docs/guide/sweeps.rst`` for the format with every key. :func:`load_spec` turns a file (or the embedded default) into
a :class:`Spec`; any problem raises :class:`SpecError` whose message names the offending key.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import pyspiel

from cfr.gameload import quiet_openspiel, unknown_game_message
from trustme_analysis.engine.params import LIST_SEPARATOR, ParameterError, format_int_list
from trustme_analysis.provenance import game_code_digest
from trustme_analysis.players.lineup import LineUp, check_bot, parse_lineups
from trustme_analysis.sweep.engines import DEFAULT_ENGINE, ENGINES, KERNEL, resolve_engine
from trustme_analysis.specfile import (
    SpecError,
    at_least,
    check_keys,
    did_you_mean,
    optional,
    read_spec_file,
    require,
    type_ok,
)

#: Every key a spec may have at its top level.
TOP_LEVEL_KEYS = (
    "title",
    "question",
    "game",
    "params",
    "grid",
    "lineups",
    "games",
    "seed",
    "out",
    "chunk_size",
    "baseline",
    "solve",
    "trust",
    "skill",
    "engine",
    "train",
)

#: Name of the embedded default spec (package data) and of its output folder under ``reports/out/``.
DEFAULT_SPEC_NAME = "default"
DEFAULT_GAMES = 200
DEFAULT_CHUNK_SIZE = 50
DEFAULT_SEED = 0
#: Most games in one chunk: a worker builds a chunk's records in memory (pinocchio: ~17 KB a game).
MAX_CHUNK_SIZE = 100_000
#: Most chunks in one sweep: each is one file and one entry of the manifest (which is rewritten as chunks finish).
MAX_CHUNKS = 200_000


@dataclass(frozen=True)
class Variant:
    """One rule variant played by one line-up: a row of the sweep."""

    index: int
    id: str
    #: Every rule parameter the spec sets (fixed and grid), as passed to ``pyspiel.load_game``.
    params: Mapping[str, Any]
    #: The grid parameters only (what varies between variants).
    grid: Mapping[str, Any]
    lineup: LineUp
    game_string: str
    num_players: int
    #: The engine that plays the variant's games (``"kernel"`` or ``"pyspiel"``, see :mod:`.engines`), and why
    #: ``engine = "auto"`` chose the pyspiel path (empty otherwise).
    engine: str = "pyspiel"
    engine_note: str = ""

    @property
    def label(self) -> str:
        """A short human label such as ``"players=3, chart=1/3/6, lineup=heuristic"``."""
        parts = [f"{k}={v}" for k, v in self.grid.items()]
        parts.append(f"lineup={self.lineup.name}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Spec:
    """A validated sweep spec with its variants expanded."""

    name: str
    path: str | None
    title: str
    question: str
    game: str
    params: Mapping[str, Any]
    grid: Mapping[str, tuple[Any, ...]]
    lineups: Mapping[str, LineUp]
    games: int
    seed: int
    out: str
    chunk_size: int
    baseline: str
    variants: tuple[Variant, ...]
    #: The ``[[solve]]`` sections (:class:`trustme_analysis.solve.spec.SolveSpec`), solved before the games are played.
    solves: tuple[Any, ...] = ()
    #: How far the players can be trusted (:mod:`trustme_analysis.sweep.checks`): challengers, and a skill trace.
    trust: Any = None
    skill: Any = None
    #: The fingerprints of the stored policies the policy seats play, once a run has resolved them
    #: (:func:`trustme_analysis.sweep.policies.resolve_policies`); part of :meth:`data_fingerprint`.
    policies: Mapping[str, str | None] = field(default_factory=dict)
    #: The ``engine`` key as asked (``"auto"``, ``"kernel"`` or ``"pyspiel"``); each variant's own is ``engine``.
    engine: str = "auto"
    #: Whether the spec left ``chunk_size`` unset: each variant's chunk size is then chosen by the run from the
    #: measured cost of its games (:mod:`.chunking`) and held in :attr:`chunk_sizes`; ``chunk_size`` is the default.
    chunk_auto: bool = False
    #: Variant id -> games per chunk, where chosen (:mod:`.chunking`); a variant not in it has ``chunk_size``.
    chunk_sizes: Mapping[str, int] = field(default_factory=dict)
    #: The ``[train]`` table as given (:func:`parse_train`): the training knobs every ``trained`` seat takes where it
    #: sets none of its own (already merged into the line-ups' seats); ``None`` when the spec has none.
    train: Mapping[str, Any] | None = None

    def chunk_size_of(self, variant: Variant) -> int:
        """Games per chunk of ``variant``: the spec's ``chunk_size``, or the one chosen for it (:mod:`.chunking`)."""
        return self.chunk_sizes.get(variant.id, self.chunk_size)

    @property
    def chunks_per_variant(self) -> int:
        """How many chunks a variant of the spec's ``games`` is split into (the last may be shorter); a variant whose
        line-up plays fewer games has fewer (:meth:`chunks_of`)."""
        return -(-self.games // self.chunk_size)

    def games_of(self, variant: Variant) -> int:
        """The games of ``variant``: its line-up's ``games`` where set (at most the spec's, as checked when parsed and
        as a sweep grown with ``--until-ci`` keeps it), else the spec's."""
        return min(variant.lineup.games or self.games, self.games)

    def chunks_of(self, variant: Variant) -> int:
        """How many chunks ``variant``'s games are split into."""
        return -(-self.games_of(variant) // self.chunk_size_of(variant))

    @property
    def total_games(self) -> int:
        """Games played by the whole sweep."""
        return sum(self.games_of(v) for v in self.variants)

    def fewer_games_note(self) -> str:
        """``" (line-up search: 100)"``: the line-ups that play fewer games than the spec's ``games`` (else empty)."""
        fewer = [f"{lu.name}: {lu.games:,}" for lu in self.lineups.values()
                 if lu.games is not None and lu.games < self.games]
        return f" (line-up {', '.join(fewer)})" if fewer else ""

    @property
    def total_chunks(self) -> int:
        """Chunks of the whole sweep."""
        return sum(self.chunks_of(v) for v in self.variants)

    def chunk_games(self, chunk_index: int, variant: Variant | None = None) -> range:
        """The indices (within a variant) of the games of chunk ``chunk_index`` of ``variant`` (default: a variant
        of the spec's ``games``)."""
        size = self.chunk_size if variant is None else self.chunk_size_of(variant)
        start = chunk_index * size
        stop = self.games if variant is None else self.games_of(variant)
        return range(start, min(start + size, stop))

    def baseline_table(self) -> dict[str, Any]:
        """The baseline variant as a table of grid values plus ``lineup``."""
        variant = next(v for v in self.variants if v.id == self.baseline)
        return {**dict(variant.grid), "lineup": variant.lineup.name}

    def as_dict(self) -> dict[str, Any]:
        """The validated spec as a plain (TOML/JSON-friendly) dict, defaults filled in."""
        return {
            "title": self.title,
            "question": self.question,
            "game": self.game,
            "params": dict(self.params),
            "grid": {k: list(v) for k, v in self.grid.items()},
            "lineups": {name: lu.as_dict() for name, lu in self.lineups.items()},
            "games": self.games,
            "seed": self.seed,
            "out": self.out,
            # Unset (chosen per variant by the run) stays unset, so the dict parses back to the same spec.
            **({} if self.chunk_auto else {"chunk_size": self.chunk_size}),
            "baseline": self.baseline_table(),
            **({"trust": self.trust.as_dict()} if self.trust is not None else {}),
            **({"skill": self.skill.as_dict()} if self.skill is not None else {}),
            **({"engine": self.engine} if self.engine != DEFAULT_ENGINE else {}),
            **({"train": dict(self.train)} if self.train is not None else {}),
        }

    def data_fingerprint(self) -> dict[str, Any]:
        """The keys that decide the records; two specs with equal fingerprints produce identical chunks (up to the
        number of games: the one with more plays more).

        With policy seats, ``policies`` holds the fingerprints of the policies they play, so games of a policy solved
        again with other settings never mix with the stored ones."""
        full = self.as_dict()
        # Not ``games``: game i's records do not depend on how many games there are (see .seeding), so a sweep can
        # grow (or its reading stop early) without playing its stored games again.
        out = {k: full[k] for k in ("game", "params", "grid", "lineups", "seed")}
        # A chosen chunking is the run's (stored in the manifest, kept when the sweep resumes), not the spec's.
        out["chunk_size"] = "auto" if self.chunk_auto else self.chunk_size
        # Nor a line-up's ``games``, for the same reason.
        out["lineups"] = {name: {k: v for k, v in lu.items() if k != "games"} for name, lu in out["lineups"].items()}
        if self.policies:
            out["policies"] = dict(self.policies)
        # The engines give the same records (the draw protocol, .seeding), but a folder's chunks still come from one
        # engine, so its provenance is plain (a sweep played on the pyspiel path alone keeps its old fingerprint).
        kernel = [v.id for v in self.variants if v.engine == KERNEL]
        if kernel:
            out["kernel_variants"] = kernel
        # The code that plays the games, and so the knobs as the bots resolve them (a changed default too).
        out["code"] = game_code_digest(self.game)
        return out


# --------------------------------------------------------------------------------------------------------- loading


def default_spec_text() -> str:
    """The embedded default spec (``trustme_analysis/sweep/default_spec.toml``)."""
    return resources.files("trustme_analysis.sweep").joinpath("default_spec.toml").read_text(encoding="utf-8")


def load_spec(path: str | Path | None = None) -> Spec:
    """Read and validate a spec file; ``None`` gives the embedded default spec."""
    if path is None:
        return parse_spec(tomllib.loads(default_spec_text()), name=DEFAULT_SPEC_NAME, path=None)
    p = Path(path)
    return parse_spec(read_spec_file(p), name=p.stem, path=str(p))


def parse_spec(data: Mapping[str, Any], name: str = "spec", path: str | None = None) -> Spec:
    """Validate a spec given as a dict (as read from TOML) and expand its variants."""
    from trustme_analysis.registry import find_game, game_names

    check_keys("", data, TOP_LEVEL_KEYS)

    game = require(data, "game", str)
    registered = sorted(pyspiel.registered_names())
    if game not in registered:
        raise SpecError("game", unknown_game_message(game))
    entry = find_game(game)
    if entry is None or entry.records is None:
        raise SpecError(
            "game", f"game {game!r} cannot be swept (it registers no records); games that can be swept: "
            f"{', '.join(game_names('records'))}"
        )
    spec_params = pyspiel.load_game(game).get_type().parameter_specification

    title = optional(data, "title", str, name)
    question = optional(data, "question", str, f"How do the variants of {title} compare?")
    games = optional(data, "games", int, DEFAULT_GAMES)
    at_least("games", games, 1)
    seed = optional(data, "seed", int, DEFAULT_SEED)
    at_least("seed", seed, 0)
    chunk_size = optional(data, "chunk_size", int, DEFAULT_CHUNK_SIZE)
    at_least("chunk_size", chunk_size, 1)
    if chunk_size > MAX_CHUNK_SIZE:
        # A worker holds a whole chunk's records in memory before handing them over.
        raise SpecError("chunk_size", f"must be at most {MAX_CHUNK_SIZE:,} games (a worker holds a chunk's records in "
                        f"memory), got {chunk_size:,}")
    out = optional(data, "out", str, str(Path("reports") / "out" / name))
    if not out.strip():
        raise SpecError("out", "must be a folder path, got an empty string")

    params = _parse_params(optional(data, "params", dict, {}), spec_params, game)
    grid = _parse_grid(data.get("grid"), spec_params, game, params)
    train = parse_train(data["train"]) if "train" in data else None
    lineups = parse_lineups(data.get("lineups"))
    if train is not None:
        lineups = with_train_defaults(lineups, train)
    for lineup in lineups.values():
        if lineup.games is not None and lineup.games > games:
            raise SpecError(f"lineups.{lineup.name}.games", f"must be at most the spec's games ({games:,}), got "
                            f"{lineup.games:,}; a line-up's games are for playing fewer (costly players)")
    _check_size(games, chunk_size, grid, lineups)
    variants = _expand(game, params, grid, lineups)
    engine = optional(data, "engine", str, DEFAULT_ENGINE)
    variants = _resolve_engines(engine, variants)
    baseline = _parse_baseline(data.get("baseline"), grid, lineups, variants, spec_params)
    solves: tuple[Any, ...] = ()
    from trustme_analysis.solve.spec import check_policy_seats, parse_solves

    if "solve" in data:
        solves = parse_solves(data["solve"])
    # A policy seat may name a [[solve]] section (knobs = {solve = NAME}): it must exist and solve the seat's variant.
    check_policy_seats(lineups, [(v.lineup.name, v.game_string, v.label) for v in variants], solves)
    trust = skill = None
    if "trust" in data:
        from trustme_analysis.sweep.checks import parse_trust

        trust = parse_trust(data["trust"], lineups, pyspiel.load_game(variants[0].game_string))
    if "skill" in data:
        from trustme_analysis.sweep.checks import parse_skill

        skill = parse_skill(data["skill"])
    if trust is not None or skill is not None:
        from trustme_analysis.sweep.checks import check_players

        check_players(trust, skill, variants)
    return Spec(
        name=name,
        path=path,
        title=title,
        question=question,
        game=game,
        params=params,
        grid=grid,
        lineups=lineups,
        games=games,
        seed=seed,
        out=out,
        chunk_size=chunk_size,
        baseline=baseline,
        variants=variants,
        solves=solves,
        trust=trust,
        skill=skill,
        engine=engine,
        chunk_auto="chunk_size" not in data,
        train=train,
    )


# ----------------------------------------------------------------------------------------------------------- [train]

#: The bot kind whose seats ``[train]`` sets defaults for, and the probe knobs through which a probe plays it.
TRAINED_KIND = "trained"
#: The two budgets of a training: a seat that sets either takes neither of ``[train]``'s.
BUDGET_KEYS = ("iterations", "seconds")
#: The type of each ``[train]`` key (those the trained bot takes, but ``outdir``: a sweep stores its policies under
#: ``OUTDIR/train/``).
_TRAIN_TYPES = {"iterations": int, "seconds": float, "seed": int, "detail": int, "epsilon": float, "shaping": float,
                "prior": float, "population": float}


def train_keys() -> tuple[str, ...]:
    """The keys a ``[train]`` table may have: the trained bot's knobs but ``outdir``."""
    from trustme_analysis.players.trained import KNOB_NAMES

    return tuple(k for k in KNOB_NAMES if k != "outdir")


def parse_train(table: Any) -> dict[str, Any]:
    """Validate the ``[train]`` table: the training knobs (budget, seed, detail, exploration) every ``trained`` seat
    of the spec takes unless it sets its own. Each value is checked as the trainer checks it
    (:class:`trustme_analysis.train.TrainSettings`), so a bad one is refused here, at ``train.KEY``."""
    from trustme_analysis.train import TrainSettings

    if not isinstance(table, dict):
        raise SpecError("train", f"must be a table of training knobs ({', '.join(train_keys())}), got {table!r}")
    check_keys("train", table, train_keys())
    for key, value in table.items():
        kind = _TRAIN_TYPES.get(key)
        if kind is not None and not type_ok(value, kind):
            raise SpecError(f"train.{key}", f"{key}={value!r} is not allowed; allowed: "
                            f"{'a whole number' if kind is int else 'a number'}")
    if all(k in table for k in BUDGET_KEYS):
        raise SpecError("train", f"iterations={table['iterations']!r} and seconds={table['seconds']!r} are both set; "
                        "allowed: one budget, iterations (reproducible) or seconds (CPU seconds)")
    for key, value in table.items():
        kw = {key: value, **({"iterations": None} if key == "seconds" else {})}
        try:
            TrainSettings(**kw)
        except (ValueError, TypeError) as exc:
            raise SpecError(f"train.{key}", str(exc)) from None
    return dict(table)


def _with_defaults(knobs: Mapping[str, Any], train: Mapping[str, Any]) -> dict[str, Any]:
    defaults = dict(train)
    if any(k in knobs for k in BUDGET_KEYS):  # a seat's own budget replaces [train]'s, whichever kind it is
        for k in BUDGET_KEYS:
            defaults.pop(k, None)
    return {**defaults, **dict(knobs)}


def with_train_defaults(lineups: Mapping[str, LineUp], train: Mapping[str, Any]) -> dict[str, LineUp]:
    """The line-ups with ``[train]``'s knobs merged into every ``trained`` seat (and every probe seat whose base is
    ``trained``, into its ``base_knobs``; every search seat whose rollouts are ``trained``, into its
    ``rollout_knobs``); a seat's own knobs win, and a seat that sets a budget (``iterations`` or
    ``seconds``) takes neither of ``[train]``'s."""

    def seat(s: Any) -> Any:
        if s.bot == TRAINED_KIND:
            return replace(s, knobs=_with_defaults(s.knobs, train))
        if s.bot == "probe" and s.knobs.get("base") == TRAINED_KIND:
            base = s.knobs.get("base_knobs", {})
            if isinstance(base, dict):  # (anything else: the probe's own check refuses it)
                return replace(s, knobs={**dict(s.knobs), "base_knobs": _with_defaults(base, train)})
        if s.bot == "search" and s.knobs.get("rollout") == TRAINED_KIND:
            base = s.knobs.get("rollout_knobs", {})
            if isinstance(base, dict):  # (anything else: the search bot's own check refuses it)
                return replace(s, knobs={**dict(s.knobs), "rollout_knobs": _with_defaults(base, train)})
        return s

    out = {}
    for name, lu in lineups.items():
        if lu.seats is not None:
            out[name] = replace(lu, seats=tuple(seat(s) for s in lu.seats))
        else:
            out[name] = replace(lu, pool=tuple(seat(s) for s in lu.pool or ()))
    return out


def _resolve_engines(engine: str, variants: tuple[Variant, ...]) -> tuple[Variant, ...]:
    """Each variant with the engine that plays it (``engine = "kernel"``: an error naming what the kernel lacks)."""
    if engine not in ENGINES:
        raise SpecError("engine", f"must be one of {', '.join(repr(e) for e in ENGINES)}, got {engine!r}"
                        f"{did_you_mean(engine, ENGINES)}")
    out = []
    for v in variants:
        try:
            chosen, note = resolve_engine(engine, v.game_string, v.lineup)
        except ValueError as exc:
            raise SpecError("engine", f'"kernel" cannot play variant {v.label}: {exc}') from None
        out.append(replace(v, engine=chosen, engine_note=note))
    return tuple(out)


def _check_size(games: int, chunk_size: int, grid: Mapping[str, tuple[Any, ...]], lineups: Mapping[str, Any]) -> None:
    """Refuse a sweep too big to hold its chunk list: every chunk is one file and one manifest entry."""
    variants = len(lineups)
    for values in grid.values():
        variants *= len(values)
    per_variant = -(-games // chunk_size)
    chunks = per_variant * variants
    if chunks > MAX_CHUNKS:
        fewest = -(-games * variants // MAX_CHUNKS)
        hint = (f"raise chunk_size to at least {fewest:,}" if fewest <= MAX_CHUNK_SIZE
                else f"lower games to at most {MAX_CHUNKS * chunk_size // variants:,} per variant (at most "
                f"{MAX_CHUNKS * MAX_CHUNK_SIZE // variants:,} with chunk_size = {MAX_CHUNK_SIZE:,})")
        raise SpecError(
            "games", f"{games:,} games x {variants} variant(s) in chunks of {chunk_size:,} make {chunks:,} chunks; "
            f"a sweep may have at most {MAX_CHUNKS:,} (one file and one manifest entry each): {hint}"
        )


# -------------------------------------------------------------------------------------------------- rule parameters


def _coerce_param(key: str, value: Any, default: Any) -> Any:
    """A TOML value as the scalar type of the game parameter whose default is ``default``."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        wanted = "true or false"
    elif isinstance(default, int):
        if type_ok(value, int):
            return value
        wanted = "an integer"
    elif isinstance(default, float):
        if type_ok(value, float):
            return float(value)
        wanted = "a number"
    elif isinstance(default, str):
        if isinstance(value, str):
            return _as_game_text(key, value)
        # A TOML list of integers is how a spec writes a list-valued rule number (a chart, stacks): the game takes it
        # as a "/"-joined string because a comma breaks OpenSpiel's game-string parser.
        if isinstance(value, list) and value and all(type_ok(v, int) for v in value):
            return format_int_list(value)
        wanted = f"a string or a non-empty list of integers (written as {LIST_SEPARATOR!r}-joined text)"
    else:  # pragma: no cover - pyspiel parameters are bool/int/float/str
        wanted = type(default).__name__
    raise SpecError(key, f"must be {wanted}, got {value!r}")


def _as_game_text(key: str, value: str) -> str:
    """A text value of a string parameter, written so that the variant's game string reads it back as text.

    The game string ``g(name=6)`` types a bare number as an integer (and ``true`` as a boolean), which a string
    parameter refuses; a list of one number is written ``"6/"`` (what a TOML list ``[6]`` becomes), which the engine
    reads as the same list.
    """
    text = value.strip()
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is not None:
        return format_int_list([number])
    if text.lower() in ("true", "false") or _reads_as_number(text):
        raise SpecError(key, f"{value!r} is not allowed; allowed: text the game string keeps as text (a game string "
                        f"reads {value!r} as a {'boolean' if text.lower() in ('true', 'false') else 'number'}), "
                        f"e.g. integers joined by {LIST_SEPARATOR!r}")
    return value


def _reads_as_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _check_param_name(where: str, name: str, spec_params: Mapping[str, Any], game: str) -> None:
    if name not in spec_params:
        allowed = sorted(spec_params)
        raise SpecError(
            f"{where}.{name}",
            f"{game} has no parameter {name!r}{did_you_mean(name, allowed)} (parameters: {', '.join(allowed)})",
        )


def _parse_params(table: Mapping[str, Any], spec_params: Mapping[str, Any], game: str) -> dict[str, Any]:
    out = {}
    for name, value in table.items():
        _check_param_name("params", name, spec_params, game)
        out[name] = _coerce_param(f"params.{name}", value, spec_params[name])
    return out


def _parse_grid(
    table: Any, spec_params: Mapping[str, Any], game: str, params: Mapping[str, Any]
) -> dict[str, tuple[Any, ...]]:
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise SpecError("grid", f"must be a table of parameter = [values], got {table!r}")
    if not table:
        raise SpecError("grid", "is empty; give at least one parameter with a list of values, or leave grid out")
    out: dict[str, tuple[Any, ...]] = {}
    for name, values in table.items():
        key = f"grid.{name}"
        _check_param_name("grid", name, spec_params, game)
        if name in params:
            raise SpecError(key, f"is also fixed in params.{name}; a parameter is either fixed or varied, not both")
        if not isinstance(values, list):
            raise SpecError(key, f"must be a list of values to try, got {values!r}")
        if not values:
            raise SpecError(key, "is an empty list; give at least one value")
        coerced = tuple(_coerce_param(f"{key}[{i}]", v, spec_params[name]) for i, v in enumerate(values))
        if len(set(coerced)) != len(coerced):
            dupes = sorted({str(v) for v in coerced if coerced.count(v) > 1})
            raise SpecError(key, f"lists the same value twice: {', '.join(dupes)}")
        out[name] = coerced
    return out


# --------------------------------------------------------------------------------------------------------- variants


def _load_variant_game(game: str, params: Mapping[str, Any], grid_values: Mapping[str, Any]) -> pyspiel.Game:
    try:
        with quiet_openspiel():  # OpenSpiel's own "OpenSpiel exception: ..." line: the SpecError below says it
            return pyspiel.load_game(game, dict(params))
    except ParameterError as exc:
        if exc.name in grid_values:
            key = f"grid.{exc.name}"
        elif exc.name in params:
            key = f"params.{exc.name}"
        else:  # a default the game rejects in combination with values the spec chose
            key = "grid" if grid_values else "params"
        raise SpecError(key, f"{exc}{_in_variant(grid_values)}") from None
    except (pyspiel.SpielError, ValueError, TypeError, RuntimeError) as exc:
        # OpenSpiel's own checks do not say which parameter failed; name the first key its message mentions.
        message = "; ".join(line.strip() for line in str(exc).strip().splitlines())
        named = [k for k in params if k in message]
        if named:
            key = f"grid.{named[0]}" if named[0] in grid_values else f"params.{named[0]}"
        else:
            key = "grid" if grid_values else "params"
        raise SpecError(key, f"{game} rejects these parameters: {message}{_in_variant(grid_values)}") from None


def _in_variant(grid_values: Mapping[str, Any]) -> str:
    if not grid_values:
        return ""
    return " (in the variant " + ", ".join(f"{k}={v}" for k, v in grid_values.items()) + ")"


def _expand(
    game: str, params: Mapping[str, Any], grid: Mapping[str, tuple[Any, ...]], lineups: Mapping[str, LineUp]
) -> tuple[Variant, ...]:
    points = [dict(zip(grid, combo)) for combo in itertools.product(*grid.values())]
    count = len(points) * len(lineups)
    width = max(2, len(str(count - 1)))
    variants = []
    for point in points:
        all_params = {**params, **point}
        loaded = _load_variant_game(game, all_params, point)
        n = loaded.num_players()
        for lineup in lineups.values():
            key = f"lineups.{lineup.name}"
            if lineup.seats is not None:
                if len(lineup.seats) not in (1, n):
                    raise SpecError(
                        f"{key}.seats",
                        f"has {len(lineup.seats)} entries but the game has {n} seats{_in_variant(point)}; "
                        "give one entry per seat, or a single entry that sits in every seat",
                    )
                for player, seat in enumerate(lineup.seats_for(n)):
                    index = player if len(lineup.seats) > 1 else 0
                    check_bot(loaded, f"{key}.seats[{index}]", seat, player)
            else:
                assert lineup.pool is not None
                for i, seat in enumerate(lineup.pool):
                    check_bot(loaded, f"{key}.pool[{i}]", seat, 0)
            index = len(variants)
            variants.append(
                Variant(
                    index=index,
                    id=f"v{index:0{width}d}",
                    params=all_params,
                    grid=point,
                    lineup=lineup,
                    game_string=str(loaded),
                    num_players=n,
                )
            )
    return tuple(variants)


def _parse_baseline(
    table: Any, grid: Mapping[str, tuple[Any, ...]], lineups: Mapping[str, LineUp], variants: Sequence[Variant],
    spec_params: Mapping[str, Any],
) -> str:
    if table is None:
        return variants[0].id
    if not isinstance(table, dict):
        raise SpecError("baseline", f"must be a table of grid values and a lineup name, got {table!r}")
    allowed = [*grid, "lineup"]
    check_keys("baseline", table, allowed)
    wanted = {}
    for name, values in grid.items():
        if name not in table:
            wanted[name] = values[0]  # unspecified: the grid's first value, as for the default baseline
            continue
        # Read exactly as the grid's values were (a TOML list for a chart becomes the same "/"-joined text).
        value = _coerce_param(f"baseline.{name}", table[name], spec_params[name])
        if value not in values or isinstance(value, bool) != isinstance(values[0], bool):
            listed = ", ".join(str(v) for v in values)
            raise SpecError(f"baseline.{name}", f"{table[name]!r} is not one of the grid's values ({listed})")
        wanted[name] = value
    lineup = table.get("lineup", next(iter(lineups)))
    if lineup not in lineups:
        raise SpecError(
            "baseline.lineup", f"unknown line-up {lineup!r}{did_you_mean(str(lineup), list(lineups))} "
            f"(line-ups: {', '.join(lineups)})"
        )
    for v in variants:
        if dict(v.grid) == wanted and v.lineup.name == lineup:
            return v.id
    raise AssertionError("every grid point and line-up has a variant")  # pragma: no cover
