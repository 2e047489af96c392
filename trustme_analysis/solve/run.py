"""Solve one ``[[solve]]`` section end to end: :func:`run_solve`.

Compile the reduced variant, run the solver to its stopping rule, then, on the average policy: the seat values, the
final exploitability (two-player constant-sum games) or NashConv (otherwise), the decision points and the game's
strategy statistics, a best response against every bot line-up named in the section, and the game's simple
strategies (the ``simple_strategies`` part of its registry entry) checked for near-optimality.
Everything is stored under ``OUTDIR/solve/<name>/`` (see :mod:`trustme_analysis.solve.storage`) and the headline
figures are printed with the metric's name, so no number is read as exact when it is not.

The tree's size is estimated first (:mod:`~trustme_analysis.solve.treesize`): a tree clearly above ``max_histories``
is not compiled. Then a full-tree solver is refused in one line; a sampling solver runs through the game's API and
is judged by a lower bound from best-response search (:mod:`~trustme_analysis.solve.uncompiled`), stored as the
metric ``exploitability_lower_bound`` / ``nash_conv_lower_bound`` with ``evaluation = "lower_bound"``.
"""

from __future__ import annotations

import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyspiel

import cfr
from cfr import evaluate
from trustme_analysis.players.policy import policy_fingerprint
from trustme_analysis.registry import find_game
from trustme_analysis.solve import storage
from trustme_analysis.solve.compare import compare_solutions
from trustme_analysis.solve.profile import (
    Representatives,
    bots_policy,
    decision_points,
    rule_choices,
    rule_policy,
)
from trustme_analysis.solve.spec import SolveSpec, make_lineup_bots
from trustme_analysis.solve.strategy import (
    DecisionPoint,
    simple_strategies_for,
    strategy_stats_for,
)
from trustme_analysis.solve.treesize import TreeEstimate, estimate_histories
from trustme_analysis.solve.uncompiled import (
    NOT_COMPUTED,
    check_runnable,
    solve_uncompiled,
)

#: Best-response decisions listed per line-up and seat (the most often reached ones).
TOP_DECISIONS = 15


def metric_of(cg: cfr.CompiledGame) -> str:
    """``"exploitability"`` for two-player constant-sum trees, ``"nash_conv"`` otherwise."""
    if cg.num_players == 2:
        try:
            evaluate._utility_sum(cg)
            return "exploitability"
        except ValueError:
            pass
    return "nash_conv"


def measure(cg: cfr.CompiledGame, policy: np.ndarray, metric: str) -> float:
    """The profile's exploitability or NashConv."""
    return evaluate.exploitability(cg, policy) if metric == "exploitability" else evaluate.nash_conv(cg, policy)


def describer(game: pyspiel.Game) -> Any | None:
    """The game's ``describe`` part (its decisions in the rulebook's words), or ``None`` if it has none."""
    entry = find_game(game.get_type().short_name)
    return entry.part("describe") if entry is not None else None


def situation(describe: Any | None, dp: DecisionPoint) -> str:
    """What the player knows at ``dp`` in the game's words (empty when the game gives no description)."""
    return describe.info_state(dp.state, dp.player) if describe is not None else ""


def decision_words(describe: Any | None, dp: DecisionPoint, action: int) -> str:
    """The action in the game's words (its action string when the game gives no description)."""
    if describe is not None:
        return describe.action(dp.state, dp.player, action)
    return dp.state.action_to_string(dp.player, action)


def decisions_table(game: pyspiel.Game, points: list[DecisionPoint]) -> pd.DataFrame:
    """One row per information set and legal action: player, info_state, situation (the information state in the
    game's words), reach, action, action_name, decision (the action in the game's words), prob, action_value."""
    describe = describer(game)
    rows = []
    for dp in points:
        state = dp.state
        words = situation(describe, dp)
        for k, a in enumerate(dp.actions):
            rows.append({
                "player": dp.player,
                "info_state": dp.info_state,
                "situation": words,
                "reach": dp.reach,
                "action": a,
                "action_name": state.action_to_string(dp.player, a),
                "decision": decision_words(describe, dp, a),
                "prob": float(dp.probs[k]),
                "action_value": float(dp.action_values[k]) if dp.action_values is not None else float("nan"),
            })
    return pd.DataFrame(rows, columns=["player", "info_state", "situation", "reach", "action", "action_name",
                                       "decision", "prob", "action_value"])


def strategy_tables(game: pyspiel.Game, points: list[DecisionPoint]) -> dict[str, pd.DataFrame]:
    """The game's registered strategy statistics of ``points`` (empty if the game registers none)."""
    fn = strategy_stats_for(game.get_type().short_name)
    return dict(fn(game, points)) if fn is not None else {}


def exploit_lineup(
    cg: cfr.CompiledGame, lineup, equilibrium: np.ndarray, seed: int = 0, shared: Representatives | None = None
) -> tuple[list[dict[str, Any]], dict[str, pd.DataFrame]]:
    """Best responses against one fixed-seat bot line-up.

    For each seat ``i``: the other seats play their bots' stated mixed strategies; seat ``i``'s best response value,
    the value seat ``i``'s own bot gets in the line-up, the gain (their difference), and the equilibrium value of
    seat ``i`` for reference. The best response's most reached decisions are returned as a table per seat (the
    information state, and it and the action in the game's words where the game describes them).
    """
    game = cg.game
    describe = describer(game)
    bots = make_lineup_bots(game, lineup, seed)
    shared = shared if shared is not None else Representatives(cg)
    profile = bots_policy(cg, bots, base=equilibrium, shared=shared)
    own = evaluate.expected_values(cg, profile)
    eq_values = evaluate.expected_values(cg, equilibrium)
    rows, tables = [], {}
    for seat in range(cg.num_players):
        value, br = evaluate.best_response(cg, profile, seat)
        rows.append({
            "lineup": lineup.name,
            "seat": seat,
            "bot": lineup.seats_for(cg.num_players)[seat].bot,
            "lineup_value": float(own[seat]),
            "best_response_value": float(value),
            "gain": float(value - own[seat]),
            "equilibrium_value": float(eq_values[seat]),
        })
        points = decision_points(cg, br, players=[seat], histories="one", shared=shared)
        points = [dp for dp in points if dp.reach > 0]
        points.sort(key=lambda dp: -dp.reach)
        br_rows = []
        for dp in points[:TOP_DECISIONS]:
            k = int(np.argmax(dp.probs))
            br_rows.append({
                "info_state": dp.info_state,
                "situation": situation(describe, dp),
                "reach": dp.reach,
                "action": dp.state.action_to_string(seat, dp.actions[k]),
                "decision": decision_words(describe, dp, dp.actions[k]),
                "gain_over_next_best": _gap(dp.action_values, k),
            })
        tables[f"{lineup.name}_seat{seat}"] = pd.DataFrame(
            br_rows, columns=["info_state", "situation", "reach", "action", "decision", "gain_over_next_best"])
    return rows, tables


def _gap(values: np.ndarray | None, k: int) -> float:
    if values is None or len(values) < 2:
        return float("nan")
    others = np.delete(values, k)
    return float(values[k] - np.nanmax(others)) if np.any(~np.isnan(others)) else float("nan")


def simple_strategies(cg: cfr.CompiledGame, equilibrium: np.ndarray, tolerance: float,
                      shared: Representatives | None = None) -> list[dict[str, Any]]:
    """Each simple strategy of the game, played by each seat where it applies (the solved policy elsewhere).

    Columns: ``regret``: what the seat loses by playing the simple strategy instead of a best response while the
    others play the solved policy (0: the simple strategy is itself a best response to it). ``worst_case_loss`` (two-
    player constant-sum games only): how much the seat's guaranteed value (against a best-responding opponent) drops
    below the solved policy's. ``loss`` is the worst-case loss where defined, else the regret. ``contradicted_by``
    names the other simple strategies of the same seat that also lose at most ``tolerance`` although they prefer
    none of the same actions at some decision where both apply ("always" and "never tell a tall tale"): the
    decision they disagree on then matters little in this variant, and neither is a recommendation. The strategy is
    flagged ``near_optimal`` when ``loss <= tolerance`` and nothing contradicts it.
    """
    rules = simple_strategies_for(cg.game)
    if not rules:
        return []
    n = cg.num_players
    zero_sum = metric_of(cg) == "exploitability"
    ev_eq = evaluate.expected_values(cg, equilibrium)
    br_eq = [evaluate.best_response_value(cg, equilibrium, p) for p in range(n)]
    rows = []
    shared = shared if shared is not None else Representatives(cg)
    choices: dict[tuple[str, int], dict[int, list[int]]] = {}
    for name, rule in rules.items():
        for seat in range(n):
            chosen = rule_choices(cg, seat, rule, shared=shared)
            modified, applied = rule_policy(cg, equilibrium, seat, rule, chosen)
            if not applied:
                continue
            choices[(name, seat)] = chosen
            ev = evaluate.expected_values(cg, modified)
            regret = br_eq[seat] - ev[seat]
            worst = float("nan")
            if zero_sum:
                other = 1 - seat
                # Constant sum: the seat's guaranteed value is the sum minus the opponent's best-response value.
                worst = evaluate.best_response_value(cg, modified, other) - br_eq[other]
            loss = worst if zero_sum else regret
            rows.append({
                "strategy": name,
                "seat": seat,
                "infosets": applied,
                "largest_change": float(np.abs(modified - equilibrium).max()),
                "seat_value_vs_solved": float(ev[seat] - ev_eq[seat]),
                "regret": float(regret),
                "worst_case_loss": float(worst),
                "loss": float(loss),
                "within_tolerance": bool(loss <= tolerance),
            })
    rivals = {
        id(row): [other["strategy"] for other in rows
                  if other is not row and other["seat"] == row["seat"] and row["within_tolerance"]
                  and other["within_tolerance"]
                  and contradict(choices[(row["strategy"], row["seat"])], choices[(other["strategy"], other["seat"])])]
        for row in rows
    }
    for row in rows:
        row["contradicted_by"] = "; ".join(rivals[id(row)])
        row["near_optimal"] = row.pop("within_tolerance") and not rivals[id(row)]
    return rows


def contradict(a: dict[int, list[int]], b: dict[int, list[int]]) -> bool:
    """Whether two simple rules (their :func:`~trustme_analysis.solve.profile.rule_choices`) prefer disjoint actions
    at some information set where both apply."""
    return any(not set(a[i]) & set(b[i]) for i in a.keys() & b.keys())


def run_solve(
    spec: SolveSpec,
    outdir: str | Path,
    *,
    quiet: bool = False,
    stream: TextIO | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Solve ``spec``, store everything under ``OUTDIR/solve/<name>/`` and return the summary (``result.json``).

    Args:
        spec: the validated section.
        outdir: the spec's output folder.
        quiet: print nothing.
        stream: where the summary is printed (stdout by default).
        extra: more keys for the summary (e.g. the sweep's title).
    """
    stream = stream if stream is not None else sys.stdout
    folder = storage.solution_dir(outdir, spec.name)
    started = time.perf_counter()
    game = pyspiel.load_game(spec.game)
    estimate, too_large = _refuse_early_or_announce(spec, game, quiet)
    cg = None
    if too_large is None:
        try:
            cg, producer = _compile(game, spec.max_histories)
        except cfr.TreeTooLargeError as exc:
            # Statistics, best responses and the exploitability all read the compiled tree; only the sampling
            # solvers can go on without it (uncompiled.check_runnable refuses the rest, naming the remedies).
            too_large = f"{str(exc).split('; ')[0]}"
            check_runnable(spec, too_large)
    if cg is None:
        return _run_uncompiled(spec, game, folder, started, estimate, too_large, quiet, stream, extra)
    sampled = spec.algorithm in cfr.api.SAMPLING
    metric = metric_of(cg)
    target = spec.absolute_target(game)
    remaining = None if spec.time_limit is None else max(spec.time_limit - cg.compile_seconds, 1e-3)
    result = cfr.solve(
        cg,
        algorithm=spec.algorithm,
        iterations=spec.iterations,
        time_limit=remaining,
        target_exploitability=target,
        eval_every=spec.eval_every,
        seed=spec.seed,
    )
    solve_wall = time.perf_counter() - started
    avg = result.average
    curve = result.curve
    final = float(curve[metric].iloc[-1])
    seat_values = evaluate.expected_values(cg, avg)
    reached = curve[curve[metric] <= target] if target is not None else curve.iloc[0:0]
    time_to_target = (
        float(reached["seconds"].iloc[0]) + cg.compile_seconds if len(reached) else None
    )
    urange = spec.utility_range(game)
    accuracy_range = spec.accuracy_range(game)

    points = decision_points(cg, avg, histories=spec.histories)
    decisions = decisions_table(game, points)
    tables = strategy_tables(game, points)

    exploitation_rows: list[dict[str, Any]] = []
    br_tables: dict[str, pd.DataFrame] = {}
    skipped: list[dict[str, str]] = []
    # Bots, best responses and simple strategies read one representative state per information set: replay them once.
    shared = Representatives(cg)
    for lineup in spec.lineups.values():
        try:
            rows, tabs = exploit_lineup(cg, lineup, avg, spec.seed, shared)
        except NotImplementedError as exc:
            # A bot that cannot state its mixed strategy has no exact best response; say so instead of failing.
            skipped.append({"lineup": lineup.name, "reason": str(exc)})
            continue
        exploitation_rows += rows
        br_tables.update(tabs)
    # 1% of the same range the target is a share of, so variants solved together are judged alike.
    tolerance = max(0.01 * accuracy_range, 2.0 * final)
    simple_rows = simple_strategies(cg, avg, tolerance, shared)

    policy_table = {k: [[int(a), float(q)] for a, q in v] for k, v in cfr.to_dict(cg, avg).items()}
    fingerprint = policy_fingerprint(str(game), policy_table)
    summary = cg.summary()
    out: dict[str, Any] = {
        "name": spec.name,
        "game": str(game),
        "short_name": game.get_type().short_name,
        "algorithm": spec.algorithm,
        "exact": not sampled,
        "evaluation": "exact",
        "quality": {"kind": "exact", "label": f"{metric.replace('_', ' ')}, exact on the compiled tree"},
        "sizes": {k: summary[k] for k in ("histories", "terminals", "infosets_per_player", "slots", "max_depth")},
        "metric": metric,
        "value": final,
        "utility_range": urange,
        "min_utility": float(game.min_utility()),
        "max_utility": float(game.max_utility()),
        "value_share_of_range": final / urange if urange else None,
        "target": target,
        "target_words": spec.target_words(game),
        "accuracy_range": accuracy_range,
        "target_reached": bool(len(reached)),
        "time_to_target_seconds": time_to_target,
        "stop_reason": result.stop_reason,
        "iterations": int(curve["iteration"].iloc[-1]),
        "compile_seconds": cg.compile_seconds,
        "compiled_by": producer,
        "solver_seconds": float(curve["seconds"].iloc[-1]),
        "solve_wall_seconds": solve_wall,
        "seat_values": [float(v) for v in seat_values],
        "simple_tolerance": tolerance,
        "exploitation_skipped": skipped,
        "spec": spec.as_dict(),
        "policy_fingerprint": fingerprint,
        "assumptions": _assumptions(game),
        "parameters": {k: v for k, v in game.get_parameters().items()},
    }
    out.update(extra or {})
    out["total_seconds"] = time.perf_counter() - started

    storage.write_csv(folder / storage.CURVE, curve)
    storage.write_csv(folder / storage.DECISIONS, decisions)
    for name, table in tables.items():
        storage.write_csv(folder / storage.STRATEGY / f"{name}.csv", table)
    storage.write_csv(folder / storage.EXPLOITATION, pd.DataFrame(
        exploitation_rows, columns=["lineup", "seat", "bot", "lineup_value", "best_response_value", "gain",
                                    "equilibrium_value"]))
    for name, table in br_tables.items():
        storage.write_csv(folder / storage.BEST_RESPONSE / f"{name}.csv", table)
    storage.write_csv(folder / storage.SIMPLE, pd.DataFrame(
        simple_rows, columns=["strategy", "seat", "infosets", "largest_change", "seat_value_vs_solved", "regret",
                              "worst_case_loss", "loss", "near_optimal", "contradicted_by"]))
    _write_policy(folder, spec, game, metric, final, out["iterations"], result.stop_reason, policy_table, fingerprint)
    storage.write_json(folder / storage.RESULT, out)
    if not quiet:
        print(describe(out, exploitation_rows, simple_rows), file=stream, flush=True)
    return out


def _write_policy(folder: Path, spec: SolveSpec, game: pyspiel.Game, metric: str, value: float, iterations: int,
                  stop_reason: str, policy_table: dict[str, list[list]], fingerprint: str) -> None:
    """``policy.json``: the policy with its fingerprint and the solve that made it."""
    storage.write_json(folder / storage.POLICY, {
        "game": str(game),
        "algorithm": spec.algorithm,
        "metric": metric,
        "value": value,
        "fingerprint": fingerprint,
        # The solve that made the policy: a sweep reuses it only for a [[solve]] section of the same inputs.
        "made_by": {
            "solve": spec.name,
            "section": spec.policy_inputs(),
            "reached": {"metric": metric, "value": value, "iterations": iterations, "stop_reason": stop_reason},
            "versions": _versions(),
        },
        "policy": policy_table,
    })


#: The producer named in the summary when the tree is compiled by walking the engine through the pyspiel API.
ENGINE_PRODUCER = "pyspiel walk"


def tree_producer(game: pyspiel.Game) -> tuple[Any | None, str]:
    """``(compile_tree, name)`` of the game's kernel when its kernel entry has a tree producer that takes this
    variant, else ``(None, ENGINE_PRODUCER)``: the producer gives the same tree as :func:`cfr.compile_game`."""
    entry = find_game(game.get_type().short_name)
    if entry is None or entry.kernel_reason(game, use="tree") is not None:
        return None, ENGINE_PRODUCER
    produce = entry.kernel_part("tree_producer")
    return produce, entry.kernel.tree_producer_name or f"{produce.__module__}.{produce.__name__}"


def _compile(game: pyspiel.Game, max_histories: int) -> tuple[cfr.CompiledGame, str]:
    """The variant's compiled tree and the producer that compiled it: the game's kernel when it has a tree producer,
    else the pyspiel walk."""
    produce, name = tree_producer(game)
    if produce is not None:
        return produce(game, max_histories), name
    return cfr.compile_game(game, max_histories=max_histories), name


#: The estimate must exceed max_histories this many times over before a solve is refused (or, for the sampling
#: solvers, run without compiling) on the estimate alone: it is rough, and below that compiling decides.
REFUSE_FACTOR = 4
#: Trees estimated above this many histories take a while to compile: say so before starting.
ANNOUNCE_HISTORIES = 200_000


def _refuse_early_or_announce(spec: SolveSpec, game: pyspiel.Game, quiet: bool) -> tuple[TreeEstimate | None,
                                                                                          str | None]:
    """Estimate the tree's size in about a second, before a compile that may take minutes.

    Returns the estimate (``None`` for games it does not cover) and, for a tree clearly too large to compile, the
    reason (a sampling section then runs without the tree); a full-tree section is refused here with the estimate.
    A large tree is announced on stderr (compiling prints nothing until it ends).
    """
    est = estimate_histories(game, seed=spec.seed,
                             enough_below=min(REFUSE_FACTOR * spec.max_histories, ANNOUNCE_HISTORIES) / 10)
    if est is None:
        return None, None
    if est.low > REFUSE_FACTOR * spec.max_histories:
        why = (f"{game}: the tree is estimated at about {est.low:.2g} histories ({est.walks} random walks, Knuth's "
               f"estimator), above max_histories={spec.max_histories}")
        check_runnable(spec, why)
        if not quiet:
            print(f"solve {spec.name!r}: {why}; {spec.algorithm} runs through the game's API without compiling",
                  file=sys.stderr, flush=True)
        return est, why
    if est.histories > ANNOUNCE_HISTORIES and not quiet:
        print(f"solve {spec.name!r}: compiling the tree of {game} (about {est.histories:.2g} histories estimated; "
              f"refused past max_histories={spec.max_histories}) ...", file=sys.stderr, flush=True)
    return est, None


def _run_uncompiled(spec: SolveSpec, game: pyspiel.Game, folder: Path, started: float, estimate: TreeEstimate | None,
                    why: str, quiet: bool, stream: TextIO, extra: dict[str, Any] | None) -> dict[str, Any]:
    """The sampling solver through the game's API, judged by a lower bound (:mod:`~trustme_analysis.solve.uncompiled`);
    stores the policy, the curve and the summary, as :func:`run_solve` does for a compiled tree."""
    compile_attempt = time.perf_counter() - started
    found = solve_uncompiled(spec, game, started)
    bound = found.bound
    policy_table = {k: [[int(a), float(q)] for a, q in v] for k, v in found.policy.items()}
    fingerprint = policy_fingerprint(str(game), policy_table)
    metric = f"{bound.metric}_lower_bound"
    urange = spec.utility_range(game)
    target = spec.absolute_target(game)
    out: dict[str, Any] = {
        "name": spec.name,
        "game": str(game),
        "short_name": game.get_type().short_name,
        "algorithm": spec.algorithm,
        "exact": False,
        "evaluation": "lower_bound",
        "quality": {
            "kind": "lower_bound",
            "label": f"{bound.metric.replace('_', ' ')} lower bound from best-response search (not exact)",
            "search_iterations": spec.bound_iterations,
            **bound.as_dict(),
        },
        "not_compiled": why,
        "not_computed": NOT_COMPUTED,
        "sizes": {
            "histories": None if estimate is None else round(estimate.histories),
            "histories_estimated": True,
            "estimate_walks": None if estimate is None else estimate.walks,
            "terminals": None,
            "infosets_per_player": found.infosets_per_player,
            "slots": None,
            "max_depth": None,
        },
        "metric": metric,
        "value": bound.bound,
        "utility_range": urange,
        "min_utility": float(game.min_utility()),
        "max_utility": float(game.max_utility()),
        "value_share_of_range": bound.bound / urange if urange else None,
        "target": target,
        "target_reached": None,
        "time_to_target_seconds": None,
        "stop_reason": found.stop_reason,
        "iterations": found.iterations,
        "compile_seconds": 0.0,
        "compile_attempt_seconds": compile_attempt,
        "solver_seconds": found.solver_seconds,
        "bound_seconds": found.bound_seconds,
        "solve_wall_seconds": time.perf_counter() - started,
        "seat_values": found.seat_values,
        "seat_values_se": found.seat_se,
        "seat_values_games": spec.bound_games,
        "exploitation_skipped": [{"lineup": name, "reason": "the tree was not compiled; an exact best response needs "
                                  "every history"} for name in spec.lineups],
        "spec": spec.as_dict(),
        "policy_fingerprint": fingerprint,
        "assumptions": _assumptions(game),
        "parameters": {k: v for k, v in game.get_parameters().items()},
    }
    out.update(extra or {})
    out["total_seconds"] = time.perf_counter() - started
    storage.write_csv(folder / storage.CURVE, found.curve)
    _write_policy(folder, spec, game, metric, bound.bound, found.iterations, found.stop_reason, policy_table,
                  fingerprint)
    storage.write_json(folder / storage.RESULT, out)
    if not quiet:
        print(describe(out), file=stream, flush=True)
    return out


def _versions() -> dict[str, str]:
    # The code that made a policy (the solvers live in this distribution, their kernels compiled by numba).
    found = {}
    for dist in ("trustme-analysis", "open_spiel", "numpy", "numba"):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "not installed"
    return found


def _assumptions(game: pyspiel.Game) -> list[dict[str, Any]]:
    fn = getattr(game, "assumptions", None)
    if fn is None:
        return []
    try:
        return [dict(a) for a in fn()]
    except Exception:  # an engine without assumptions for this variant: the page says none are listed
        return []


def signed(value: float, decimals: int = 4) -> str:
    """``value`` with a sign and ``decimals`` decimals; a value that rounds to zero prints as ``0.0000``, never
    ``-0.0000`` (a loss of -1e-9 is solver noise, not a loss)."""
    rounded = round(float(value), decimals)
    if rounded == 0:
        return f"{0.0:.{decimals}f}"
    return f"{rounded:+.{decimals}f}"


def describe(result: dict[str, Any], exploitation: list[dict[str, Any]] | None = None,
             simple: list[dict[str, Any]] | None = None) -> str:
    """The printed summary of a solve: sizes, metric and value, timing, seat values, exploitation, flags."""
    s = result["sizes"]
    if result.get("evaluation") == "lower_bound":
        q = result["quality"]
        size = "size unknown" if s["histories"] is None else f"about {s['histories']:.3g} histories (estimated)"
        lines = [
            f"solve {result['name']!r}: {result['game']}",
            f"  tree: {size}, not compiled; information states visited per player {s['infosets_per_player']} "
            "(solved by sampling through the game's API)",
            f"  {result['algorithm']}: {result['iterations']} iterations, stop: {result['stop_reason']}; "
            f"{q['label']}: >= {q['bound_95']:.4g} (95% one-sided; estimate {q['estimate']:.4g} +- "
            f"{q['standard_error']:.2g}, {q['games']} games per response, {q['search_iterations']} search walks)",
            f"  time: solver {result['solver_seconds']:.2f} s, bound {result['bound_seconds']:.2f} s, "
            f"total {result['solve_wall_seconds']:.2f} s" + ("; target not checked (no exact evaluation)"
                                                            if result["target"] is not None else ""),
            "  seat values (estimated from " + f"{result['seat_values_games']} games): "
            + ", ".join(f"seat {i}: {v:+.4f} +- {e:.2g}" for i, (v, e) in
                        enumerate(zip(result["seat_values"], result["seat_values_se"]))),
        ]
    else:
        lines = [
            f"solve {result['name']!r}: {result['game']}",
            f"  tree: {s['histories']} histories, information sets per player {s['infosets_per_player']}, "
            f"{s['slots']} slots (compiled by {result.get('compiled_by', ENGINE_PRODUCER)}; solved "
            + ("exactly" if result.get("exact", True) else "by sampling") + ", evaluated exactly)",
            f"  {result['algorithm']}: {result['iterations']} iterations, stop: {result['stop_reason']}; "
            f"{result['metric']} = {result['value']:.6g} "
            f"({100 * (result['value_share_of_range'] or 0):.3g}% of the utility range {result['utility_range']:g})",
            *([f"  {result['target_words']}"] if result.get("target_words") else []),
            f"  time: compile {result['compile_seconds']:.2f} s, solver {result['solver_seconds']:.2f} s, "
            f"total {result['solve_wall_seconds']:.2f} s; time to target "
            + (f"{result['time_to_target_seconds']:.2f} s" if result["time_to_target_seconds"] is not None
               else "not reached" if result["target"] is not None else "(no target)"),
            "  seat values: " + ", ".join(f"seat {i}: {signed(v)}" for i, v in enumerate(result["seat_values"])),
        ]
    for row in exploitation or []:
        lines.append(f"  best response vs {row['lineup']} (seat {row['seat']}): {signed(row['best_response_value'])} "
                     f"vs the bot's own {signed(row['lineup_value'])}: gain {signed(row['gain'])}")
    for row in result.get("exploitation_skipped") or []:
        lines.append(f"  best response vs {row['lineup']}: not computed ({row['reason']})")
    for row in simple or []:
        if row["near_optimal"]:
            lines.append(f"  FLAG: simple strategy {row['strategy']!r} (seat {row['seat']}) is near-optimal: "
                         f"loss {signed(row['loss'])}")
        elif row.get("contradicted_by"):
            lines.append(f"  note: simple strategy {row['strategy']!r} (seat {row['seat']}) loses only "
                         f"{signed(row['loss'])}, but so does {row['contradicted_by']!r}, which plays the opposite: "
                         "the decision matters little in this variant (neither is flagged near-optimal)")
    return "\n".join(lines)


def ensure_solved(
    solves, outdir: str | Path, *, quiet: bool = False, stream: TextIO | None = None
) -> list[dict[str, Any]]:
    """Run the ``[[solve]]`` sections of a sweep spec whose stored solution is missing or was made from a different
    section; a stored solution of the same section is reused (and its summary printed again).

    A stored solution is the same section's when its ``result.json`` holds the same section and its ``policy.json``
    was made by the same policy inputs (:func:`~trustme_analysis.solve.storage.stored_policy`); a stale policy (other
    solve parameters, or one stored without saying which solve made it) is solved again, with a line saying why.
    The sweep calls this before playing, so policy bots of its line-ups find the policies they name. Each summary
    returned has ``reused`` (True when the stored solution was kept).
    """
    stream = stream if stream is not None else sys.stderr
    results = []
    for spec in solves:
        folder = storage.solution_dir(outdir, spec.name)
        stored = None
        if (folder / storage.RESULT).is_file() and (folder / storage.POLICY).is_file():
            stored = storage.load_solution(folder)["result"]
        fingerprint, why = storage.stored_policy(outdir, spec)
        if stored is not None and fingerprint is not None and stored.get("spec") == _json_roundtrip(spec.as_dict()):
            if not quiet:
                print(f"solve {spec.name!r}: already stored in {folder} ({stored['metric']} = {stored['value']:.6g}, "
                      f"policy {fingerprint})", file=stream, flush=True)
            results.append({**stored, "reused": True})
            continue
        if stored is not None and fingerprint is None and not quiet:
            print(f"solve {spec.name!r}: {why}; solving again", file=stream, flush=True)
        results.append({**run_solve(spec, outdir, quiet=quiet, stream=stream, extra={"order": len(results)}),
                        "reused": False})
    for pair in compare_solutions(outdir):
        if not quiet:
            print(f"warning: {pair['text']}", file=stream, flush=True)
    return results


def _json_roundtrip(data: Any) -> Any:
    import json

    return json.loads(json.dumps(data))
