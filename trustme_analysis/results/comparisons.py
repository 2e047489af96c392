"""One factor at a time: which variant each variant is compared with, which line-up carries the headline, and
whether the headline figures still move under stronger players.

A sweep's grid crosses rule variants with line-ups of players, so a variant can differ from the baseline in its rules,
its players, or both; a difference between two variants that differ in both answers no question. Here:

- **rule comparisons**: a variant whose rules differ from the baseline's is compared with the variant of the
  baseline's rules *under the same line-up* (so under the heuristic line-up, 2 players against 3 heuristic players;
  under the search line-up, 2 players against 3 search players);
- **line-up comparisons**: a variant whose line-up differs from the baseline's (the *reference line-up*) is compared
  with the variant of the reference line-up *under the same rules*.

Each kind is its own family: Holm's correction and the ranking of what changed most are done within it. A pair is
paired game by game where the two variants played the same games (every variant's game ``i`` starts from the same
seed, :mod:`trustme_analysis.sweep.seeding`), else compared as independent samples
(:func:`trustme_analysis.stats.compare.compare_pairs`).

**The headline line-up** is the most competent line-up the spec has, read from its seats' bot kinds: a line-up with
trained seats, else search, else heuristic (or probe), else random (a line-up is as competent as its weakest seat).
Where the spec ran the ``[trust]`` check, its verdict weighs first: a line-up found exploitable gives way to any that
was not. The verdict that weighs is the one under the baseline's rules, where the headline figures come from (when the
check tested the line-up there; else its verdict over every variant it tested): a probe that beats the trained
players with 2 players does not hand a 3-player headline to a line-up the check never tested. The headline figures
are those of the baseline's rules under that line-up.

**Has it stopped moving?** A line-up is *stronger* than the headline's when its weakest seat is: a higher kind (search
seats whose rollouts play the trained policy over trained seats), or the same kind with a larger search budget. For
each such line-up under the baseline's rules, each headline measure under both, with the difference (paired where the
games allow) and a verdict: "still moves with skill" when the 95% interval of the difference excludes zero, else
"stable under stronger play" (with how large a move the interval still allows).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from trustme_analysis.stats.compare import COLUMNS, GameMetric, compare_pairs
from trustme_analysis.stats.intervals import wilson
from trustme_analysis.stats.streaming import GameRows, Moments, mean_interval

#: The two factors a comparison can move.
RULES = "rules"
LINEUP = "line-up"
FACTORS = (RULES, LINEUP)

#: Competence of a seat by its bot kind (higher: more competent); unknown kinds (a game's own) count as heuristic.
KIND_LEVEL = {"random": 0, "heuristic": 1, "probe": 1, "search": 2, "policy": 3, "trained": 3}
#: The name of each level, for sentences.
LEVEL_NAMES = {0: "random", 1: "heuristic", 2: "search", 3: "trained"}

#: What a stability verdict says.
STABLE = "stable under stronger play"
MOVES = "still moves with skill"

#: Verdicts of the trust check (:mod:`trustme_analysis.results.checks`) and how far they let a line-up lead.
_TRUST_ORDER = {"exploitable": 0, "": 1, "holds": 2}


def rules_key(variant: Mapping[str, Any]) -> str:
    """What identifies a manifest variant's rules: its rule parameters (else its game string)."""
    params = variant.get("params")
    if isinstance(params, dict) and params:
        return json.dumps(params, sort_keys=True, default=str)
    return str(variant.get("game_string", ""))


def rules_words(variant: Mapping[str, Any]) -> str:
    """The rules of a variant in a few words: the grid's values ("players=3"), else "the spec's rules"."""
    grid = variant.get("grid") or {}
    return ", ".join(f"{k}={v}" for k, v in grid.items()) or "the spec's rules"


def _seats(variant: Mapping[str, Any]) -> list[dict[str, Any]]:
    seats = variant.get("seats")
    if isinstance(seats, dict):
        return [s for s in seats.get("pool", []) if isinstance(s, dict)]
    return [s for s in (seats or []) if isinstance(s, dict)]


def seat_strength(seat: Mapping[str, Any]) -> tuple[int, int, float]:
    """How strong one seat plays: (level of its kind, level of what its search rollouts play, its search budget).

    A search seat whose rollouts play trained seats (``rollout = "trained"``) is stronger than a trained seat: its
    level counts as one above. Budgets compare only between search seats (a missing one counts as 0: not known to be
    larger).
    """
    kind = str(seat.get("bot", "random"))
    knobs = seat.get("knobs") or {}
    level = KIND_LEVEL.get(kind, 1)
    if kind != "search":
        return level, 0, 0.0
    rollout = KIND_LEVEL.get(str(knobs.get("rollout", "random")), 0)
    budget = knobs.get("budget")
    budget = float(budget) if isinstance(budget, (int, float)) else 0.0
    return (level + 2 if rollout >= KIND_LEVEL["trained"] else level), rollout, budget


def lineup_strength(variant: Mapping[str, Any]) -> tuple[int, int, float]:
    """A line-up's strength: its weakest seat's (:func:`seat_strength`)."""
    seats = _seats(variant)
    return min((seat_strength(s) for s in seats), default=(0, 0, 0.0))


def lineup_level(variant: Mapping[str, Any]) -> int:
    """A line-up's competence level for choosing the headline: its weakest seat's kind (:data:`KIND_LEVEL`)."""
    seats = _seats(variant)
    return min((KIND_LEVEL.get(str(s.get("bot", "random")), 1) for s in seats), default=0)


def seats_words(variant: Mapping[str, Any]) -> str:
    """The seats of a line-up in a few words: "search seats, budget 200", "trained and heuristic seats"."""
    seats = _seats(variant)
    kinds = list(dict.fromkeys(str(s.get("bot", "?")) for s in seats))
    if not kinds:
        return "no seats recorded"
    budgets = sorted({s.get("knobs", {}).get("budget") for s in seats if s.get("bot") == "search"} - {None})
    rollouts = sorted({str(s.get("knobs", {}).get("rollout")) for s in seats if s.get("bot") == "search"} - {"None"})
    extra = []
    if budgets:
        extra.append("budget " + "/".join(f"{b:,}" if isinstance(b, int) else str(b) for b in budgets))
    if rollouts:
        extra.append("rollouts by " + "/".join(rollouts))
    kinds_text = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
    return ", ".join([f"{kinds_text} seats", *extra])


def _variants(manifest: Mapping[str, Any], variant_ids: Sequence[str]) -> list[dict[str, Any]]:
    """The manifest's variants that have games, in the manifest's order; a variant the manifest does not describe
    counts as rules of its own under the baseline's line-up (compared with the baseline, as before factors)."""
    present = set(variant_ids)
    known = [v for v in manifest.get("variants", []) if str(v.get("id")) in present]
    described = {str(v.get("id")) for v in known}
    base = next((v for v in known if str(v.get("id")) == str(manifest.get("baseline"))), {})
    known += [{"id": vid, "params": {"variant": vid}, "lineup": base.get("lineup", "")}
              for vid in variant_ids if vid not in described]
    return known


def comparison_pairs(manifest: Mapping[str, Any], variant_ids: Sequence[str], baseline: str
                     ) -> dict[str, list[tuple[str, str]]]:
    """The ``(variant, reference)`` pairs of each factor (:data:`RULES`, :data:`LINEUP`); see the module docstring.

    A variant whose reference has no games (its line-up never played the baseline's rules) is left out of that
    factor's comparisons.
    """
    variants = _variants(manifest, variant_ids)
    by_id = {str(v.get("id")): v for v in variants}
    out: dict[str, list[tuple[str, str]]] = {RULES: [], LINEUP: []}
    if baseline not in by_id:
        return out
    base_rules, base_lineup = rules_key(by_id[baseline]), str(by_id[baseline].get("lineup", ""))
    cell = {(rules_key(v), str(v.get("lineup", ""))): str(v.get("id")) for v in variants}
    for v in variants:
        vid, rules, lineup = str(v.get("id")), rules_key(v), str(v.get("lineup", ""))
        if rules != base_rules and (base_rules, lineup) in cell:
            out[RULES].append((vid, cell[(base_rules, lineup)]))
        if lineup != base_lineup and (rules, base_lineup) in cell:
            out[LINEUP].append((vid, cell[(rules, base_lineup)]))
    return out


def _moved_words(factor: str, variant: Mapping[str, Any], reference: Mapping[str, Any]) -> str:
    """What moved between a variant and its reference, in words: "players=2 (reference players=3)"."""
    if factor == LINEUP:
        return f"line-up {variant.get('lineup')} (reference {reference.get('lineup')})"
    grid, ref_grid = variant.get("grid") or {}, reference.get("grid") or {}
    keys = [k for k in dict.fromkeys([*grid, *ref_grid]) if grid.get(k) != ref_grid.get(k)]
    if not keys:
        params, ref_params = variant.get("params") or {}, reference.get("params") or {}
        keys = sorted(k for k in set(params) | set(ref_params) if params.get(k) != ref_params.get(k))
        grid, ref_grid = variant.get("params") or {}, reference.get("params") or {}
    now = ", ".join(f"{k}={grid.get(k)}" for k in keys)
    was = ", ".join(f"{k}={ref_grid.get(k)}" for k in keys)
    return f"{now} (reference {was})" if keys else "the rules"


def as_rows(games: pd.DataFrame | GameRows) -> GameRows:
    """A per-game table as :class:`~trustme_analysis.stats.streaming.GameRows` (read a piece at a time, its moments
    cached): pass one to several comparisons of the same games so each variant's games are read once."""
    return games if isinstance(games, GameRows) else GameRows.from_frame(games)


def factor_comparisons(games: pd.DataFrame | GameRows, metrics: Sequence[GameMetric], manifest: Mapping[str, Any],
                       variant_ids: Sequence[str], baseline: str) -> pd.DataFrame:
    """Both kinds of comparison in one table, each corrected (Holm) within its own kind.

    Returns:
        The columns of :func:`~trustme_analysis.stats.compare.compare_pairs` after ``factor`` (:data:`RULES` or
        :data:`LINEUP`), ``held`` (what stays the same: the line-up, or the rules) and ``moved`` (what changes, with
        the reference's value); ``baseline_value`` is the reference's value.
    """
    by_id = {str(v.get("id")): v for v in _variants(manifest, variant_ids)}
    pieces = []
    games = as_rows(games)
    for factor, pairs in comparison_pairs(manifest, variant_ids, baseline).items():
        if not pairs:
            continue
        comp = compare_pairs(games, metrics, pairs)
        held = {vid: (f"line-up {by_id[vid].get('lineup')}" if factor == RULES else rules_words(by_id[vid]))
                for vid, _ in pairs}
        moved = {vid: _moved_words(factor, by_id[vid], by_id[ref]) for vid, ref in pairs}
        comp.insert(0, "factor", factor)
        comp.insert(3, "held", comp["variant"].map(held))
        comp.insert(4, "moved", comp["variant"].map(moved))
        pieces.append(comp)
    columns = ["factor", *COLUMNS[:2], "held", "moved", *COLUMNS[2:]]
    if not pieces:
        return pd.DataFrame(columns=columns)
    return pd.concat(pieces, ignore_index=True)[columns]


def lineup_table(manifest: Mapping[str, Any], variant_ids: Sequence[str], games: Mapping[str, int],
                 verdicts: pd.DataFrame | None, baseline: str) -> pd.DataFrame:
    """One row per line-up with games: its seats in words, competence level, strength, trust verdict, games, and its
    role: ``headline`` (the most competent: the headline figures are its), ``stronger`` (stronger than the
    headline's, under the baseline's rules: the figures are weighed against it), ``reference`` (the baseline's
    line-up, what the other line-ups are compared with) or empty.

    The trust verdict of a line-up is "exploitable" when any of its tested variants was, "holds" when all held
    against every probe, and empty when untested (or tested by the search player alone); ``verdict_at_baseline_rules``
    is the verdict of its variant under the baseline's rules (empty when untested there), which weighs first in the
    choice of the headline (:func:`headline_lineup`).
    """
    variants = _variants(manifest, variant_ids)
    by_id = {str(v.get("id")): v for v in variants}
    base = by_id.get(baseline, {})
    base_rules, base_lineup = rules_key(base), str(base.get("lineup", ""))
    tested: dict[str, list[str]] = {}
    verdict_of: dict[str, str] = {}
    if verdicts is not None and len(verdicts):
        lineup_of = {vid: str(v.get("lineup", "")) for vid, v in by_id.items()}
        for vid, verdict in zip(verdicts["variant"].astype(str), verdicts["verdict"].astype(str)):
            tested.setdefault(lineup_of.get(vid, ""), []).append(verdict)
            verdict_of[vid] = verdict
    rows = []
    for name in dict.fromkeys(str(v.get("lineup", "")) for v in variants):
        mine = [v for v in variants if str(v.get("lineup", "")) == name]
        at_base = [v for v in mine if rules_key(v) == base_rules]
        example = at_base[0] if at_base else mine[0]
        found = tested.get(name, [])
        if "exploitable" in found:
            verdict = "exploitable"
        elif found and all(f == "holds" for f in found):
            verdict = "holds"
        else:
            verdict = ""
        level = lineup_level(example)
        rows.append({"lineup": name, "seats": seats_words(example), "level": level,
                     "level_name": LEVEL_NAMES.get(level, str(level)), "strength": list(lineup_strength(example)),
                     "verdict": verdict, "games": int(sum(games.get(str(v.get("id")), 0) for v in mine)),
                     "variant_at_baseline_rules": str(at_base[0].get("id")) if at_base else "",
                     "verdict_at_baseline_rules": verdict_of.get(str(at_base[0].get("id")), "") if at_base else "",
                     "role": ""})
    table = pd.DataFrame(rows, columns=["lineup", "seats", "level", "level_name", "strength", "verdict", "games",
                                        "variant_at_baseline_rules", "verdict_at_baseline_rules", "role"])
    if table.empty:
        return table
    head = headline_lineup(table)
    strong = stronger_lineups(table, head)
    table["role"] = ["headline" if n == head else "stronger" if n in strong else "reference" if n == base_lineup
                     else "" for n in table["lineup"]]
    table["strength"] = [" / ".join(str(x) for x in s) for s in table["strength"]]
    return table


def _strength(row: Mapping[str, Any]) -> tuple:
    s = row["strength"]
    return tuple(float(x) for x in (s.split(" / ") if isinstance(s, str) else s))


def deciding_verdict(row: Mapping[str, Any]) -> str:
    """The trust verdict that weighs for a ``lineup_table`` row: the one under the baseline's rules where the check
    tested the line-up there, else its verdict over all the variants it tested ("" when untested)."""
    return str(row.get("verdict_at_baseline_rules", "") or "") or str(row.get("verdict", "") or "")


def headline_lineup(table: pd.DataFrame) -> str:
    """The line-up that carries the headline (see the module docstring): among those that played the baseline's
    rules, not found exploitable first (under the baseline's rules where the check tested them there), then the
    highest level, then trust held against every probe, then the most games, then the strongest, then the spec's
    order."""
    rows = [r for _, r in table.iterrows() if r["variant_at_baseline_rules"]]
    if not rows:
        return str(table["lineup"].iloc[0])

    def key(item: tuple[int, pd.Series]) -> tuple:
        i, r = item
        trust = _TRUST_ORDER.get(deciding_verdict(r), 1)
        return (trust > 0, int(r["level"]), trust, int(r["games"]), _strength(r), -i)

    return str(max(enumerate(rows), key=key)[1]["lineup"])


def stronger_lineups(table: pd.DataFrame, headline: str) -> list[str]:
    """The line-ups stronger than ``headline`` (:func:`lineup_strength`) that played the baseline's rules, strongest
    first."""
    rows = {str(r["lineup"]): r for _, r in table.iterrows()}
    if headline not in rows:
        return []
    mine = _strength(rows[headline])
    found = [(n, _strength(r)) for n, r in rows.items()
             if n != headline and r["variant_at_baseline_rules"] and _strength(r) > mine]
    return [n for n, _ in sorted(found, key=lambda item: item[1], reverse=True)]


def stability(games: pd.DataFrame | GameRows, metrics: Sequence[GameMetric], lineups: pd.DataFrame) -> pd.DataFrame:
    """Each headline measure under the headline line-up and under each stronger one (the baseline's rules), with the
    difference and the verdict (:data:`STABLE` or :data:`MOVES`, from the unadjusted 95% interval: a figure is called
    stable only when its own interval allows no move).

    Returns:
        Columns: variant (the headline's), stronger (the stronger line-up's variant), lineup, stronger_lineup, metric,
        unit, kind, value (under the headline line-up), stronger_value, difference (stronger minus headline), low,
        high, paired, largest_move (the largest move the interval allows, in the measure's unit), verdict.
    """
    columns = ["variant", "stronger", "lineup", "stronger_lineup", "metric", "unit", "kind", "value",
               "stronger_value", "difference", "low", "high", "paired", "largest_move", "verdict"]
    if lineups.empty:
        return pd.DataFrame(columns=columns)
    rows = lineups.set_index("lineup")
    head = [n for n, r in rows.iterrows() if r["role"] == "headline"]
    strong = [n for n, r in rows.iterrows() if r["role"] == "stronger"]
    if not head or not strong:
        return pd.DataFrame(columns=columns)
    h = str(rows.loc[head[0], "variant_at_baseline_rules"])
    pieces = []
    games = as_rows(games)
    for name in strong:
        s = str(rows.loc[name, "variant_at_baseline_rules"])
        comp = compare_pairs(games, metrics, [(s, h)])
        for r in comp.itertuples():
            moves = not (math.isnan(r.low) or math.isnan(r.high)) and (r.low > 0 or r.high < 0)
            largest = max(abs(r.low), abs(r.high)) if not (math.isnan(r.low) or math.isnan(r.high)) else math.nan
            pieces.append({"variant": h, "stronger": s, "lineup": head[0], "stronger_lineup": name,
                           "metric": r.metric, "unit": r.unit, "kind": r.kind, "value": r.baseline_value,
                           "stronger_value": r.value, "difference": r.difference, "low": r.low, "high": r.high,
                           "paired": bool(r.paired), "largest_move": largest,
                           "verdict": MOVES if moves else STABLE})
    return pd.DataFrame(pieces, columns=columns)


#: The headlines' columns (:func:`headline_rows`).
HEADLINE_COLUMNS = ["kind", "variant", "lineup", "measure", "unit", "value", "low", "high", "reference", "p", "games",
                    "verdict", "factor", "compared_with", "exploitable"]


def headline_variant(lineups: pd.DataFrame, baseline: str) -> str:
    """The variant whose figures are the headline: the baseline's rules under the headline line-up (the baseline
    itself when no line-up table says otherwise)."""
    if lineups.empty or "role" not in lineups.columns:
        return baseline
    head = lineups[lineups["role"] == "headline"]
    vid = str(head["variant_at_baseline_rules"].iloc[0]) if len(head) else ""
    return vid or baseline


def exploitable_lineups(lineups: pd.DataFrame) -> set[str]:
    """The line-ups the trust check found exploitable."""
    if lineups.empty:
        return set()
    return set(lineups.loc[lineups["verdict"] == "exploitable", "lineup"].astype(str))


def variant_exploitable(variant_id: str, verdicts: pd.DataFrame | None, lineups: pd.DataFrame, lineup: str) -> bool:
    """Whether the trust check found the players of ``variant_id`` (of line-up ``lineup``) exploitable: its own
    verdict where the check tested that variant (a line-up beaten with 2 players may hold with 3), else its line-up's
    over the variants tested."""
    if verdicts is not None and len(verdicts):
        own = verdicts.loc[verdicts["variant"].astype(str) == variant_id, "verdict"].astype(str)
        if len(own):
            return bool((own == "exploitable").any())
    return lineup in exploitable_lineups(lineups)


def measure_value(games: pd.DataFrame | GameRows, metric: GameMetric, variant: str | None = None
                  ) -> tuple[float, float, float, int]:
    """A measure's value over one variant's games with its 95% interval (Wilson for a rate, t for a mean) and the
    games it counts: ``games`` holds that variant's games only, or ``variant`` names it."""
    if isinstance(games, GameRows) or variant is not None:
        rows = as_rows(games)
        m = rows.moments(variant, [metric.column])[metric.column] if variant in rows else Moments()
    else:
        m = Moments.of(games[metric.column].to_numpy(dtype=float))
    return moment_value(m, metric)


def moment_value(m: Moments, metric: GameMetric) -> tuple[float, float, float, int]:
    """:func:`measure_value` from the moments of the variant's values (NaNs dropped)."""
    if metric.kind == "rate":
        est, low, high = wilson(int(m.sum), m.n)
    else:
        est, low, high = mean_interval(m)
    return est, low, high, int(m.n)


def headline_rows(results: Any, games: pd.DataFrame | GameRows, metrics: Sequence[GameMetric], comparisons: pd.DataFrame,
                  lineups: pd.DataFrame, stable: pd.DataFrame, baseline: str, changes: int,
                  lineup_of: Mapping[str, str]) -> pd.DataFrame:
    """The headline findings (columns :data:`HEADLINE_COLUMNS`): under the headline variant
    (:func:`headline_variant`) its seat win rates (``seat``), the test of equal seats (``balance test``) and every
    compared measure (``baseline``); each tested line-up's strongest challenger (``trust``); the ``changes`` largest
    significant changes of each factor (``change``, with ``factor`` and ``compared_with``); and each measure under a
    stronger line-up (``stability``: value = the difference, reference = the value under the headline line-up,
    verdict :data:`STABLE` or :data:`MOVES`). ``exploitable`` marks the rows whose players the trust check found
    exploitable."""
    from trustme_analysis.stats.compare import biggest_changes

    head = headline_variant(lineups, baseline)
    verdicts = results["trust_verdicts"] if "trust_verdicts" in results else None

    def worn(vid: str) -> bool:
        return variant_exploitable(vid, verdicts, lineups, lineup_of.get(vid, ""))

    rows: list[dict[str, Any]] = []
    common = {"variant": head, "lineup": lineup_of.get(head, ""), "exploitable": worn(head)}
    rates = results["seat_win_rates"]
    for r in rates[rates["variant"] == head].itertuples():
        rows.append({**common, "kind": "seat", "measure": f"seat {r.seat} wins", "unit": "share of games",
                     "value": r.win_rate, "low": r.low, "high": r.high, "reference": r.fair, "games": r.games})
    test = results["equal_seats_test"]
    test = test[test["variant"] == head]
    if len(test):
        rows.append({**common, "kind": "balance test", "measure": "all seats win equally often", "unit": "p-value",
                     "value": float(test["p_value"].iloc[0]), "p": float(test["p_holm"].iloc[0]),
                     "games": int(test["games"].iloc[0])})
    games = as_rows(games)
    for metric in metrics:
        if metric.column not in games.columns:
            continue
        est, low, high, n = measure_value(games, metric, head)
        rows.append({**common, "kind": "baseline", "measure": metric.name, "unit": metric.unit, "value": est,
                     "low": low, "high": high, "games": n})
    if "trust_verdicts" in results:
        from trustme_analysis.results.checks import search_text, verdict_text

        for _, r in results["trust_verdicts"].iterrows():
            # The verdict in words (the probe and its margin, or the excess no probe reaches), then the search
            # player's own figure.
            said = "; ".join(x for x in (verdict_text(r) if r["verdict"] else "", search_text(r)) if x)
            rows.append({"kind": "trust", "variant": r["variant"], "lineup": r["lineup"],
                         "measure": f"{r['best_challenger']} against {r['lineup']}", "unit": "share of games",
                         "value": r["win_rate"], "low": r["low"], "high": r["high"], "reference": r["fair"],
                         "games": r["games"], "verdict": said, "exploitable": r["verdict"] == "exploitable"})
    for factor in FACTORS:
        comp = comparisons[comparisons["factor"] == factor] if len(comparisons) else comparisons
        top = biggest_changes(comp, limit=changes) if len(comp) else comp
        for r in top[top["significant"].astype(bool)].itertuples() if len(top) else []:
            rows.append({"kind": "change", "variant": r.variant, "lineup": lineup_of.get(r.variant, ""),
                         "measure": r.metric, "unit": r.unit, "value": r.difference, "low": r.low, "high": r.high,
                         "reference": r.baseline_value, "p": r.p_holm, "factor": factor,
                         "compared_with": r.reference, "exploitable": worn(r.variant) or worn(r.reference)})
    for r in stable.itertuples():
        rows.append({"kind": "stability", "variant": r.variant, "lineup": r.lineup, "measure": r.metric,
                     "unit": r.unit, "value": r.difference, "low": r.low, "high": r.high, "reference": r.value,
                     "verdict": r.verdict, "factor": LINEUP, "compared_with": r.stronger,
                     "exploitable": worn(r.variant)})
    out = pd.DataFrame(rows, columns=HEADLINE_COLUMNS)
    for column in ("p", "reference", "low", "high", "games"):
        out[column] = out[column].astype(float)
    for column in ("verdict", "factor", "compared_with"):
        out[column] = out[column].astype(object).where(out[column].notna(), "").astype(str)
    out["exploitable"] = out["exploitable"].astype(object).where(out["exploitable"].notna(), False).astype(bool)
    return out
