"""Report pages of the solved reduced variants stored under ``OUTDIR/solve/`` (see :mod:`trustme_analysis.solve`).

Per solution: the variant (parameters, assumptions, tree size, solver, metric with its final value as a share of the
utility range, timing, seat values, how to read the numbers), the convergence curve and the strategy plots, the
game's strategy tables, and the exploitation of the bots (best-response gains, the best response's most reached
decisions, and the simple strategies with the near-optimal flag). :func:`add_solve_pages` adds them to a sweep
report; :func:`build_solve_report` writes them alone to ``OUTDIR/solve/report.pdf``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from trustme_analysis.atomic import atomic_path  # noqa: E402
from trustme_analysis.report.layout import (  # noqa: E402
    BOTTOM,
    LEFT,
    RC,
    RIGHT,
    TOP,
    Line,
    flow_pages,
    format_frame,
    new_page,
    table_pages,
    text_lines,
)
from trustme_analysis.solve import storage  # noqa: E402

#: Best-response decisions shown per line-up and seat.
BR_ROWS = 6
#: Rows of a strategy table shown on the pages (two pages); the CSV holds them all.
MAX_TABLE_ROWS = 52
#: Rows of a strategy table drawn as a bar chart beside the convergence curve.
MAX_PLOT_ROWS = 12

READING = (
    "How to read these pages. The policy is an approximate equilibrium of the reduced variant named here, found by "
    "the solver on the whole game tree (compiled exactly: every deal and every action). Its distance from an "
    "equilibrium is the exploitability (two players, zero-sum: what a best response gains on average per player) or "
    "NashConv (otherwise: the sum of every player's best-response gain); every number below is exact for this "
    "policy, but is an equilibrium figure only up to that distance. Rates are weighted by how often play reaches "
    "each decision; a 'reach' above 1 means the decision comes up more than once per game. Figures for the full "
    "game may differ: the variant is smaller (fewer cards, values, players or turns) than the rulebook's game."
)


def _result_lines(result: dict[str, Any]) -> list[Line]:
    sizes = result["sizes"]
    share = result.get("value_share_of_range")
    lines: list[Line] = []
    lines += text_lines("The variant", "h1")
    lines += text_lines(f"Game string: {result['game']}", "mono")
    params = result.get("parameters") or {}
    if params:
        lines += text_lines("Parameters: " + ", ".join(f"{k}={v}" for k, v in sorted(params.items())))
    if result.get("evaluation") == "lower_bound":
        lines += _lower_bound_lines(result)
        for a in result.get("assumptions") or []:
            lines += text_lines(f"- assumption {a.get('parameter')} = {a.get('value')}: {a.get('text')}", indent=2)
        return lines + text_lines("", "body") + text_lines(READING_BOUND)
    solved = ("solved exactly on the compiled tree" if result.get("exact", True) else
              f"solved by sampling ({result['algorithm']}) on the compiled tree and evaluated exactly")
    lines += text_lines(
        f"Tree: {sizes['histories']:,} histories ({sizes['terminals']:,} terminal), information sets per player "
        f"{sizes['infosets_per_player']}, {sizes['slots']:,} information-set actions, depth {sizes['max_depth']}; "
        f"{solved}."
    )
    lines += text_lines("The solution", "h1")
    target = result.get("target")
    lines += text_lines(
        f"Solver {result['algorithm']}: {result['iterations']:,} iterations, stopped by "
        f"{result['stop_reason'].replace('_', ' ')}. Final {result['metric'].replace('_', ' ')}: "
        f"{result['value']:.4g}" + (f" = {100 * share:.3g}% of the utility range {result['utility_range']:g} "
                                    f"({result['min_utility']:g} to {result['max_utility']:g})" if share is not None
                                    else "") + "."
    )
    if target is not None:
        reached = result.get("time_to_target_seconds")
        lines += text_lines(
            f"Target {target:.4g}: " + (f"reached after {reached:.2f} s (compile included)" if reached is not None
                                        else "not reached") + "."
        )
    lines += text_lines(
        f"Time: compile {result['compile_seconds']:.2f} s, solver {result['solver_seconds']:.2f} s, whole solve "
        f"{result['solve_wall_seconds']:.2f} s (evaluations included)."
    )
    lines += text_lines(
        "Value of each seat under the solved policy: "
        + ", ".join(f"seat {i}: {v:+.4f}" for i, v in enumerate(result["seat_values"]))
        + " (the solved policy's expected utility; utility as the game string's 'utility' parameter defines it)."
    )
    assumptions = result.get("assumptions") or []
    if assumptions:
        lines += text_lines("Assumptions in force", "h1")
        for a in assumptions:
            lines += text_lines(f"- {a.get('parameter')} = {a.get('value')}: {a.get('text')}", indent=2)
    lines += text_lines("", "body")
    lines += text_lines(READING)
    return lines


READING_BOUND = (
    "How to read these pages. The tree of this variant was too large to compile, so the policy was found by a "
    "sampling solver playing through the game's rules, and nothing was computed exactly. The quality figure is a "
    "lower bound: for each seat a best-response search looked for a better reply to the others' policy, and games "
    "measured what that reply wins. The policy is at least that exploitable (95% one-sided); a bound of 0 means the "
    "search found no evidence of exploitability at that number of games, not that the policy is an equilibrium. Seat "
    "values are estimated from games of the policy against itself. The strategy tables, exact best responses against "
    "the bots and the simple-strategy check need the compiled tree and are not shown."
)


def _lower_bound_lines(result: dict[str, Any]) -> list[Line]:
    """The variant and solution of a solve whose tree was not compiled (a lower bound instead of an exact figure)."""
    sizes, q = result["sizes"], result["quality"]
    size = ("size unknown" if sizes.get("histories") is None else
            f"about {sizes['histories']:.2g} histories (Knuth's estimate from {sizes.get('estimate_walks')} random "
            "walks)")
    lines = text_lines(
        f"Tree: {size}; not compiled ({result.get('not_compiled', 'too large')}). Information states visited by the "
        f"solver per player: {sizes['infosets_per_player']}."
    )
    lines += text_lines("The solution", "h1")
    lines += text_lines(
        f"Solver {result['algorithm']} through the game's API: {result['iterations']:,} iterations, stopped by "
        f"{result['stop_reason'].replace('_', ' ')}. Quality: {q['label']}: at least {q['bound_95']:.4g} (95% "
        f"one-sided; estimate {q['estimate']:.4g}, standard error {q['standard_error']:.2g}; {q['search_iterations']:,}"
        f" search walks per seat, {q['games']:,} games per response). Utility range {result['utility_range']:g}."
    )
    if result.get("target") is not None:
        lines += text_lines(f"Target {result['target']:.4g}: not checked (no exact evaluation without the tree).")
    lines += text_lines(
        f"Time: solver {result['solver_seconds']:.2f} s, bound and seat values {result['bound_seconds']:.2f} s, "
        f"whole solve {result['solve_wall_seconds']:.2f} s."
    )
    lines += text_lines(
        f"Value of each seat under the solved policy, estimated from {result['seat_values_games']:,} games: "
        + ", ".join(f"seat {i}: {v:+.4f} (standard error {e:.2g})"
                    for i, (v, e) in enumerate(zip(result["seat_values"], result["seat_values_se"]))) + "."
    )
    return lines


def _curve_page(name: str, result: dict[str, Any], curve: pd.DataFrame | None,
                strategy: dict[str, pd.DataFrame]) -> Figure:
    subtitle = (f"{result['metric'].replace('_', ' ')} of the average policy as the solver runs; strategy rates "
                "weighted by reach")
    if result.get("evaluation") == "lower_bound":
        subtitle = ("information states visited as the solver runs; the policy was judged once, at the end (a lower "
                    "bound)")
    fig = new_page(f"Solve {name}: convergence and strategy", subtitle)
    ax = fig.add_axes((LEFT + 0.03, BOTTOM + 0.08, 0.40, TOP - BOTTOM - 0.14))
    metric = result["metric"]
    if curve is not None and len(curve) and metric not in curve.columns:
        # No exact evaluation along the way (tree not compiled): the curve shows how many states were visited.
        ax.plot(curve["iteration"], curve["infosets"], marker="o", ms=3)
        ax.set_xlabel("iteration")
        ax.set_ylabel("information states visited")
        ax.set_title("tree not compiled: no evaluation along the way", fontsize=8)
    elif curve is not None and len(curve):
        values = curve[metric].clip(lower=1e-12)
        ax.plot(curve["iteration"], values, marker="o", ms=3, label=metric.replace("_", " "))
        ax.set_yscale("log")
        if result.get("target") is not None:
            ax.axhline(result["target"], color="C3", ls="--", lw=1, label="target")
        ax.set_xlabel("iteration")
        ax.set_ylabel(metric.replace("_", " ") + " (log scale)")
        ax.legend(loc="upper right")
        top = ax.secondary_xaxis("top", functions=_iteration_to_seconds(curve))
        top.xaxis.set_major_locator(MaxNLocator(4))
        top.set_xlabel("solver seconds")
    # Only short tables make readable bar charts; the long ones are on their own table pages.
    plots = [(t, df) for t, df in strategy.items() if _rate_columns(df) and 0 < len(df) <= MAX_PLOT_ROWS][:4]
    if plots:
        k = len(plots)
        height = (TOP - BOTTOM - 0.14) / k
        for i, (title, df) in enumerate(plots):
            axs = fig.add_axes((0.56, BOTTOM + 0.08 + (k - 1 - i) * height + 0.03, 0.39, height - 0.06))
            cols = _rate_columns(df)
            keys = _key_columns(df)
            labels = [", ".join(_short(df[c].iloc[r]) for c in keys) for r in range(len(df))]
            x = np.arange(len(df))
            width = 0.8 / len(cols)
            for j, col in enumerate(cols):
                axs.bar(x + j * width - 0.4 + width / 2, df[col].astype(float).fillna(0.0), width,
                        label=col.replace("_", " "))
            axs.set_xticks(x, labels, fontsize=6, rotation=20 if len(df) > 4 else 0, ha="right" if len(df) > 4 else
                           "center")
            axs.set_ylim(0, 1.05)
            axs.set_title(f"{title.replace('_', ' ')} (by {', '.join(k.replace('_', ' ') for k in keys)})",
                          fontsize=8)
            axs.legend(fontsize=6.5, loc="upper right")
    return fig


def _iteration_to_seconds(curve: pd.DataFrame):
    it = curve["iteration"].to_numpy(dtype=float)
    sec = curve["seconds"].to_numpy(dtype=float)
    if len(it) < 2 or np.any(np.diff(it) <= 0) or np.any(np.diff(sec) <= 0):
        return (lambda x: x, lambda x: x)
    return (lambda x: np.interp(x, it, sec), lambda x: np.interp(x, sec, it))


def _key_columns(df: pd.DataFrame) -> list[str]:
    """The columns that name a row (text, booleans and integers before the first measured column), at most 3."""
    keys = []
    for c in df.columns:
        kind = df[c].dtype
        if pd.api.types.is_float_dtype(kind):
            break
        keys.append(c)
    return keys[:3] or [df.columns[0]]


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 14 else text[:13] + "\u2026"


def _rate_columns(df: pd.DataFrame) -> list[str]:
    return [c for c in df.columns if "rate" in c and pd.api.types.is_numeric_dtype(df[c])][:4]


def solution_figures(folder: str | Path) -> list[tuple[Figure, str]]:
    """The pages of one stored solution, as (figure, title) pairs."""
    sol = storage.load_solution(folder)
    result = sol["result"]
    name = result["name"]
    pages: list[tuple[Figure, str]] = []
    for fig in flow_pages(f"Solve {name}: the variant and its solution", _result_lines(result)):
        pages.append((fig, f"Solve {name}"))
    pages.append((_curve_page(name, result, sol["curve"], sol["strategy"]), f"Solve {name}: convergence"))
    for table, df in sol["strategy"].items():
        title = f"Solve {name}: {table.replace('_', ' ')}"
        note = _table_note(table)
        if len(df) > MAX_TABLE_ROWS:
            # A long table (one row per history of signals, say) is cut to its most reached rows on the page.
            reach = [c for c in df.columns if "reach" in c and pd.api.types.is_numeric_dtype(df[c])]
            if reach:
                df = df.sort_values(reach[0], ascending=False, kind="stable")
            cut = (f"The {MAX_TABLE_ROWS} {'most reached ' if reach else 'first '}of {len(df)} rows; the whole table "
                   f"is {storage.STRATEGY}/{table}.csv in the solution folder.")
            note = f"{note} {cut}" if note else cut
            df = df.head(MAX_TABLE_ROWS)
        for fig in table_pages(title, format_frame(df, 4), note=note):
            pages.append((fig, title))
    exploitation = sol["exploitation"]
    if exploitation is not None and len(exploitation):
        title = f"Solve {name}: exploiting the bots"
        note = ("Each row: one seat plays a best response while the other seats play the line-up's bots (their "
                "stated mixed strategies). gain = best-response value - the value the seat's own bot gets in the "
                "line-up; equilibrium value = the seat's value under the solved policy. The best response's most "
                "reached decisions follow.")
        for fig in table_pages(title, format_frame(exploitation, 4), note=note):
            pages.append((fig, title))
        rows = []
        for key, df in sol["best_response"].items():
            for _, r in df.head(BR_ROWS).iterrows():
                rows.append({"line-up, seat": key.replace("_seat", ", seat "), "information state": r["info_state"],
                             "reach": r["reach"], "best response plays": r["action"],
                             "gain over next best": r["gain_over_next_best"]})
        if rows:
            title = f"Solve {name}: what the best response does"
            for fig in table_pages(title, format_frame(pd.DataFrame(rows), 4), widths=[1.2, 4.5, 0.7, 2.2, 1.0],
                                   rows_per_page=18):
                pages.append((fig, title))
    skipped = result.get("exploitation_skipped") or []
    if skipped:
        title = f"Solve {name}: line-ups not exploited"
        lines = text_lines("No exact best response could be computed against these line-ups:", "h2")
        for row in skipped:
            lines += text_lines(f"- {row['lineup']}: {row['reason']}", indent=2)
        for fig in flow_pages(title, lines):
            pages.append((fig, title))
    simple = sol["simple"]
    if simple is not None and len(simple):
        title = f"Solve {name}: simple strategies"
        flagged = simple[simple["near_optimal"].astype(bool)]
        note = (f"A seat plays the simple strategy wherever it applies (the solved policy elsewhere). regret = what "
                f"it loses against the solved policy compared with a best response; worst-case loss (two players, "
                f"zero-sum) = how far its guaranteed value falls below the solved policy's; loss = the worst-case loss "
                f"where defined, else the regret; near-optimal (flagged) when loss <= "
                f"{result.get('simple_tolerance', float('nan')):.4g} (1% of the utility range, or twice the final "
                "exploitability if larger). "
                + ("FLAGGED: " + "; ".join(f"{r.strategy} (seat {r.seat})" for r in flagged.itertuples())
                   if len(flagged) else "No simple strategy is near-optimal."))
        for fig in table_pages(title, format_frame(simple, 4), note=note):
            pages.append((fig, title))
    return pages


def _table_note(table: str) -> str | None:
    notes = {
        "tale_rate": "Per player, at turns where a Tale can be told: shares of those turns (reach-weighted). "
                     "turn reach = expected number of such turns per game.",
        "tall_by_difference": "How often a tall tale of this card difference is told when one is available.",
        "tall_by_ticket": "Ticket at stake: the Ticket a trusted tall tale would gain (0: none left).",
        "trust_rate": "Per voter; the true/tall split reads the face-down Character of each history (hidden from the "
                      "voter), weighted by the history's reach.",
        "tale_vs_park": "Value to the player (expected utility as the policy continues) of the best action of each "
                        "kind at turns where a Tale and a Take are both legal.",
    }
    return notes.get(table)


def add_solve_pages(ctx: Any) -> None:
    """Add the pages of every solution under ``ctx.outdir/solve/`` to a report being built (section ``solve``)."""
    for folder in storage.solutions(ctx.outdir):
        for fig, title in solution_figures(folder):
            ctx.add(fig, title, section="solve")


def build_solve_report(outdir: str | Path) -> Path | None:
    """Write the solve pages alone to ``OUTDIR/solve/report.pdf``; ``None`` when nothing is solved there."""
    folders = storage.solutions(outdir)
    if not folders:
        return None
    path = Path(outdir) / storage.SOLVE_DIR / "report.pdf"
    with (
        atomic_path(path) as tmp,
        matplotlib.rc_context(RC),
        PdfPages(tmp, metadata={"Title": "Solved variants"}) as pdf,
    ):
        pages = [p for folder in folders for p in solution_figures(folder)]
        for number, (fig, _title) in enumerate(pages, start=1):
            fig.text(RIGHT, 0.025, f"Solved variants \u2014 page {number} of {len(pages)}", ha="right",
                     fontsize=7, color="0.4")
            pdf.savefig(fig)
    return path
