"""How far a sweep's players can be trusted: the spec's ``[trust]`` and ``[skill]`` tables, played as sub-sweeps.

``[trust]`` puts a *challenger* in one seat of a line-up, the line-up's own bots in the others, and counts how often
the challenger wins: each of the game's probes (named simple strategies such as "never bluff", over the heuristic
elsewhere) and the search player. A challenger that wins more than its fair share has found a weakness: the line-up's
statistics describe exploitable players. Seats rotate: the challenger sits in every seat for an equal share of the
games.

The probes play at kernel speed where the game's kernel plays them, so by default (``probe_games = "auto"``) each gets
the games a decision needs: enough that a probe winning its fair share + :data:`PROBE_MARGIN` is found with 80% power
by a one-sided test at the 5% level, Holm-corrected over the probes (:func:`probe_games_for`). The search challenger
keeps ``games``, its own smaller budget, and its own figure (the points it gains over its fair share).

``[skill]`` is a skill trace (after Ludii's SkillTrace): search players with budgets b1 < b2 < ... , each one against
the previous (one seat the stronger, the others the weaker, seats rotating). If doubling the thinking keeps winning,
skill matters; if the win rate stays at the fair share, the game is luck.

Both are ordinary sweeps stored under ``OUTDIR/checks/<name>/`` (one per rule variant), with their own seeds (derived
from the spec's seed), so they resume and stay deterministic like the main sweep; ``OUTDIR/checks/checks.json`` says
which line-up of which sub-sweep is which challenger in which seat. The results layer turns them into the
``trust`` and ``skill_trace`` tables (:mod:`trustme_analysis.results.checks`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.atomic import atomic_path
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.players.search import MAX_BUDGET
from trustme_analysis.specfile import SpecError, check_keys, optional

TRUST_KEYS = ("games", "probe_games", "lineups", "probes", "search")
#: The excess over the fair share that ``probe_games = "auto"`` sizes each probe's games to find (80% power).
PROBE_MARGIN = 0.03
#: The most games "auto" gives one probe of one variant (a fair share near one half with many probes needs about
#: 3,000); a spec may ask for more with a number.
MAX_AUTO_PROBE_GAMES = 20_000
#: The most games a ``[trust]`` or ``[skill]`` check may play per variant (a check's games are search games at
#: hundreds of milliseconds each, or probe games; a million is days of them).
MAX_CHECK_GAMES = 1_000_000
SKILL_KEYS = ("games", "budgets", "knobs")
CHECKS_DIR = "checks"
CHECKS_INDEX = "checks.json"
#: Seeds of the checks are drawn from (spec seed, this tag, check number), apart from the main sweep's.
SEED_TAG = 0xC0FFEE


@dataclass(frozen=True)
class TrustSpec:
    """The ``[trust]`` table: challengers against the tested line-ups."""

    games: int  # the search challenger's games per variant
    lineups: tuple[str, ...]
    probes: tuple[str, ...] | None  # None: every probe of the game
    search: Mapping[str, Any] | None  # the search challenger's knobs; None: no search challenger
    probe_games: int | None = None  # each probe's games per variant; None: "auto" (power-sized)

    def as_dict(self) -> dict[str, Any]:
        """As written in a spec (normalised)."""
        return {"games": self.games, "probe_games": "auto" if self.probe_games is None else self.probe_games,
                "lineups": list(self.lineups),
                "probes": "all" if self.probes is None else list(self.probes),
                "search": dict(self.search) if self.search is not None else False}


@dataclass(frozen=True)
class SkillSpec:
    """The ``[skill]`` table: a trace of search players of growing budget."""

    games: int
    budgets: tuple[int, ...]
    knobs: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """As written in a spec (normalised)."""
        return {"games": self.games, "budgets": list(self.budgets), "knobs": dict(self.knobs)}


def parse_trust(table: Any, lineups: Mapping[str, Any], game: pyspiel.Game) -> TrustSpec:
    """Validate the ``[trust]`` table (``lineups``: the spec's line-ups; ``game``: a loaded variant, for its probes)."""
    if not isinstance(table, dict):
        raise SpecError("trust", f"must be a table (games, lineups, probes, search), got {table!r}")
    check_keys("trust", table, TRUST_KEYS)
    games = optional(table, "games", int, 200, where="trust")
    if not 1 <= games <= MAX_CHECK_GAMES:
        raise SpecError("trust.games", f"must be an integer from 1 to {MAX_CHECK_GAMES:,}, got {games!r}")
    probe_games = table.get("probe_games", "auto")
    if probe_games == "auto":
        probe_games = None
    elif isinstance(probe_games, bool) or not isinstance(probe_games, int) or not 1 <= probe_games <= MAX_CHECK_GAMES:
        raise SpecError("trust.probe_games", f"must be 'auto' or an integer from 1 to {MAX_CHECK_GAMES:,}, got "
                        f"{probe_games!r}")
    fixed = [name for name, lu in lineups.items() if lu.seats is not None]
    names = optional(table, "lineups", list, fixed, where="trust")
    for name in names:
        if name not in lineups:
            raise SpecError("trust.lineups", f"unknown line-up {name!r}; line-ups: {', '.join(lineups)}")
        if lineups[name].seats is None:
            raise SpecError("trust.lineups", f"line-up {name!r} draws its seats from a pool; a challenger needs "
                            f"fixed seats; allowed: {', '.join(fixed) or 'none'}")
    known = list(probe_strategies(game))
    probes = table.get("probes", "all")
    if probes == "all":
        chosen: tuple[str, ...] | None = None
    elif isinstance(probes, list) and all(isinstance(p, str) for p in probes):
        for p in probes:
            if p not in known:
                raise SpecError("trust.probes", f"{p!r} is not allowed; allowed: 'all' or a list of "
                                f"{', '.join(repr(k) for k in known) or 'none (the game defines no probes)'}")
        chosen = tuple(probes)
    else:
        raise SpecError("trust.probes", f"must be 'all' or a list of probe names, got {probes!r}")
    search = table.get("search", {})
    if search is False:
        search_knobs = None
    elif isinstance(search, dict):
        search_knobs = dict(search)
    else:
        raise SpecError("trust.search", f"must be a table of search-player knobs or false, got {search!r}")
    return TrustSpec(games=games, lineups=tuple(names), probes=chosen, search=search_knobs, probe_games=probe_games)


def probe_games_for(players: int, probes: int, margin: float = PROBE_MARGIN) -> int:
    """Each probe's games per variant under ``probe_games = "auto"``: what finds a probe winning ``1 / players +
    margin`` with 80% power (one-sided 5%, Holm over ``probes``), rounded up to whole rounds of the seats (the probe
    sits in each seat equally often) and at most :data:`MAX_AUTO_PROBE_GAMES`."""
    from trustme_analysis.stats.power import games_to_detect

    n = games_to_detect(1.0 / players, margin, tests=max(1, probes))
    return min(MAX_AUTO_PROBE_GAMES, -(-n // players) * players)


def parse_skill(table: Any) -> SkillSpec:
    """Validate the ``[skill]`` table."""
    if not isinstance(table, dict):
        raise SpecError("skill", f"must be a table (games, budgets, knobs), got {table!r}")
    check_keys("skill", table, SKILL_KEYS)
    games = optional(table, "games", int, 200, where="skill")
    if not 1 <= games <= MAX_CHECK_GAMES:
        raise SpecError("skill.games", f"must be an integer from 1 to {MAX_CHECK_GAMES:,}, got {games!r}")
    budgets = optional(table, "budgets", list, [25, 50, 100, 200], where="skill")
    if (len(budgets) < 2 or not all(isinstance(b, int) and not isinstance(b, bool) and 1 <= b <= MAX_BUDGET
                                    for b in budgets)
            or sorted(set(budgets)) != budgets):
        raise SpecError("skill.budgets", f"must be at least two increasing integers from 1 to {MAX_BUDGET:,}, got "
                        f"{budgets!r}")
    knobs = optional(table, "knobs", dict, {}, where="skill")
    if "budget" in knobs:
        raise SpecError("skill.knobs.budget", "is set by skill.budgets; remove it from the knobs")
    return SkillSpec(games=games, budgets=tuple(budgets), knobs=dict(knobs))


def check_players(trust: TrustSpec | None, skill: SkillSpec | None, variants: Sequence[Any]) -> None:
    """Make every player the ``[trust]`` and ``[skill]`` checks would seat, on each rule variant they check, so a
    bad knob is refused when the spec is read (``--check`` too), at the key the spec writes (``trust.search.budget``,
    ``skill.knobs.rollout``), and not after the main sweep has been played."""
    from trustme_analysis.players.lineup import check_knobs

    seen: set[tuple[str, str]] = set()
    for variant in variants:
        if trust is not None and trust.search is not None and variant.lineup.name in trust.lineups:
            if ("trust", variant.game_string) not in seen:
                seen.add(("trust", variant.game_string))
                check_knobs(pyspiel.load_game(variant.game_string), "trust.search", "search", trust.search)
        if skill is not None and ("skill", variant.game_string) not in seen:
            seen.add(("skill", variant.game_string))
            game = pyspiel.load_game(variant.game_string)
            for budget in skill.budgets:
                check_knobs(game, "skill.knobs", "search", skill.knobs, fixed={"budget": budget})


# ----------------------------------------------------------------------------------------------------- sub-sweeps


@dataclass(frozen=True)
class Check:
    """One sub-sweep: its name (folder under ``OUTDIR/checks/``), kind, the main variant it checks, the spec data to
    play, and which seat of which of its line-ups is the challenger."""

    name: str
    kind: str  # "trust" or "skill"
    variant: str  # the main variant (trust) or the first main variant of the rule point (skill)
    data: dict[str, Any]
    seats: dict[str, dict[str, Any]]  # line-up name -> {"challenger", "seat", ...}


def _seat_dict(seat: Any) -> dict[str, Any]:
    return {"bot": seat.bot, "knobs": dict(seat.knobs)}


def _kernel_plays(game_string: str, seats: list[dict[str, Any]]) -> bool:
    """Whether the game's kernel plays these seats (a probe among them) as the pyspiel path would."""
    from trustme_analysis.players.lineup import parse_lineups
    from trustme_analysis.sweep.engines import kernel_reason

    return kernel_reason(game_string, parse_lineups({"probe": {"seats": seats}})["probe"]) is None


def check_seed(seed: int, index: int) -> int:
    """The master seed of check ``index``: drawn from (the spec's seed, a tag, the index), apart from the main sweep."""
    return int(np.random.SeedSequence([int(seed), SEED_TAG, index]).generate_state(1, np.uint32)[0])


def _base_data(spec: Any, variant: Any, index: int, games: int) -> dict[str, Any]:
    return {"title": f"{spec.title}: checks of {variant.id}", "game": spec.game, "params": dict(variant.params),
            "games": games, "seed": check_seed(spec.seed, index), "chunk_size": spec.chunk_size}


def checks_of(spec: Any) -> list[Check]:
    """The sub-sweeps the spec's ``[trust]`` and ``[skill]`` tables ask for, in a fixed order."""
    out: list[Check] = []
    trust: TrustSpec | None = spec.trust
    if trust is not None:
        for variant in spec.variants:
            if variant.lineup.name not in trust.lineups:
                continue
            n = variant.num_players
            seats = [_seat_dict(s) for s in variant.lineup.seats_for(n)]
            challengers: list[tuple[str, dict[str, Any]]] = []
            game = pyspiel.load_game(variant.game_string)
            for probe in (trust.probes if trust.probes is not None else tuple(probe_strategies(game))):
                challengers.append((probe, {"bot": "probe", "knobs": {"strategy": probe}}))
            if trust.search is not None:
                challengers.append(("search player", {"bot": "search", "knobs": dict(trust.search)}))
            lineups: dict[str, Any] = {}
            roles: dict[str, dict[str, Any]] = {}
            probe_count = sum(1 for _, ch in challengers if ch["bot"] == "probe")
            auto = probe_games_for(n, probe_count)
            for c, (label, challenger) in enumerate(challengers):
                if challenger["bot"] != "probe":
                    games = trust.games
                elif trust.probe_games is not None:
                    games = trust.probe_games
                else:
                    # Power-sized where the kernel plays the probe; on the pyspiel path (a hundredfold slower) the
                    # search challenger's games, and the verdict states the excess those games could see.
                    games = auto if _kernel_plays(variant.game_string, [challenger] + seats[1:]) else trust.games
                for s in range(n):
                    row = [dict(x) for x in seats]
                    # A probe plays the heuristic wherever its strategy says nothing (the probe's default base, as
                    # in the training's screens and the benchmarks: a simple strategy, the same against every line-up
                    # and played by the kernel where the game's kernel knows it).
                    row[s] = challenger
                    name = f"c{c}s{s}"
                    # Games per seat: the challenger sits in every seat equally often.
                    lineups[name] = {"seats": row, "games": -(-games // n)}
                    roles[name] = {"challenger": label, "seat": s,
                                   "kind": "probe" if challenger["bot"] == "probe" else "search"}
            data = {**_base_data(spec, variant, len(out), max(v["games"] for v in lineups.values()) if lineups
                                 else 1), "lineups": lineups}
            out.append(Check(f"trust-{variant.id}", "trust", variant.id, data, roles))
    skill: SkillSpec | None = spec.skill
    if skill is not None:
        seen: set[str] = set()
        for variant in spec.variants:
            if variant.game_string in seen:
                continue
            seen.add(variant.game_string)
            n = variant.num_players
            lineups, roles = {}, {}
            for k in range(1, len(skill.budgets)):
                weak = {"bot": "search", "knobs": {**skill.knobs, "budget": skill.budgets[k - 1]}}
                strong = {"bot": "search", "knobs": {**skill.knobs, "budget": skill.budgets[k]}}
                for s in range(n):
                    name = f"k{k}s{s}"
                    lineups[name] = {"seats": [strong if p == s else weak for p in range(n)]}
                    roles[name] = {"challenger": f"budget {skill.budgets[k]} vs {skill.budgets[k - 1]}", "seat": s,
                                   "step": k, "budget": skill.budgets[k], "previous": skill.budgets[k - 1]}
            data = {**_base_data(spec, variant, len(out), -(-skill.games // n)), "lineups": lineups}
            out.append(Check(f"skill-{variant.id}", "skill", variant.id, data, roles))
    return out


def write_index(outdir: str | Path, checks: Sequence[Check]) -> Path:
    """Write ``OUTDIR/checks/checks.json``: every check's name, kind, variant and challenger seats."""
    path = Path(outdir) / CHECKS_DIR / CHECKS_INDEX
    path.parent.mkdir(parents=True, exist_ok=True)
    index = [{"name": c.name, "kind": c.kind, "variant": c.variant, "lineups": c.seats} for c in checks]
    with atomic_path(path) as tmp:
        Path(tmp).write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return path
