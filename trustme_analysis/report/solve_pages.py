"""Report pages of the solved reduced variants stored under ``OUTDIR/solve/`` (see :mod:`trustme_analysis.solve`), in
the game's own words.

Per solution, under one bookmark: what the solution says (findings in sentences, each with the exploitability
caveat), the variant (its rule parameters in words, tree size, solver, timing, seat values, assumptions), the
convergence curve and the strategy charts, the game's strategy tables (headers, units and key cells in the game's
words: its registry entry's ``describe`` part), and the exploitation of the bots (best-response gains, what the best
response does in each situation, the simple strategies with the near-optimal flag). :func:`add_solve_pages` adds
them to a sweep report; :func:`build_solve_report` writes them alone to ``OUTDIR/solve/report.pdf``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from trustme_analysis.registry import find_game  # noqa: E402
from trustme_analysis.report.context import Page  # noqa: E402
from trustme_analysis.report.layout import (  # noqa: E402
    BOTTOM,
    LEFT,
    RC,
    RIGHT,
    TOP,
    Line,
    add_findings,
    draw_table,
    fit_rows,
    flow_pages,
    new_page,
    percent_axis,
    plain,
    table_pages,
    text_lines,
    wrap,
)
from trustme_analysis.report.words import (  # noqa: E402
    DASH,
    count,
    figure,
    in_words,
    is_share,
    missing,
    number,
    percent,
    setting,
    words,
    yes_no,
)
from trustme_analysis.solve import storage  # noqa: E402
from trustme_analysis.solve.compare import load_comparison  # noqa: E402
from trustme_analysis.solve.run import ENGINE_PRODUCER  # noqa: E402

#: Best-response decisions shown per line-up and seat (the most reached; one page in all, the CSV files hold all).
BR_ROWS = 4
#: Rows of a strategy table shown on its page (the most reached ones); the CSV holds them all.
MAX_TABLE_ROWS = 26
#: Strategy tables this short share a page (as many as fit).
SMALL_TABLE_ROWS = 8
#: Rows of a strategy table drawn as a bar chart beside the convergence curve.
MAX_PLOT_ROWS = 16

METRIC_WORDS = {"exploitability": "exploitability", "nash_conv": "NashConv"}
STOP_WORDS = {"target": "reaching its target", "time_limit": "its time limit", "iterations": "its iteration count"}

READING = (
    "How to read these pages: the policy is an approximate equilibrium of this reduced variant, solved on its whole "
    "game tree. Every figure is exact for the policy, but an equilibrium figure only up to its exploitability (or "
    "NashConv; see the glossary). Rates are weighted by how often play reaches each decision. The rulebook's game is "
    "larger (more cards, values, players or turns), and its figures may differ."
)


def _describe(result: dict[str, Any]) -> Any | None:
    entry = find_game(str(result.get("short_name", "")))
    return entry.part("describe") if entry is not None else None


def _utility_words(result: dict[str, Any]) -> str:
    utility = (result.get("parameters") or {}).get("utility")
    return f"utility ({in_words(utility)})" if utility else "utility"


def _metric(result: dict[str, Any]) -> str:
    return METRIC_WORDS.get(result["metric"], words(result["metric"]))


def _share_of_range(share: float) -> str:
    # Solutions are often far below 1% of the range, where the digits matter: three significant digits, not "<0.1%".
    return f"{number(100 * share)}%"


def _built_by(result: dict[str, Any]) -> str:
    """Who built the tree, as the Time line says it: the game's compiled kernel or the walk through its Python API
    (results stored before the solve recorded it say nothing)."""
    producer = result.get("compiled_by")
    if not producer:
        return ""
    if producer == ENGINE_PRODUCER:
        return " by walking the game through its Python API"
    return f" by the {producer}"


def _target_basis(result: dict[str, Any]) -> str:
    """Where the absolute target comes from, as a parenthesis (empty when the solution does not say)."""
    text = str(result.get("target_words") or "")
    if "(" not in text:
        return ""
    return " " + text[text.index("("):]


def caveat(result: dict[str, Any]) -> str:
    """The exploitability caveat every finding of a solution carries."""
    share = result.get("value_share_of_range")
    where = f" ({_share_of_range(share)} of the utility range)" if share is not None else ""
    return f"{_metric(result)} {number(result['value'])}{where}"


def solution_findings(result: dict[str, Any], sol: dict[str, Any], describe: Any | None) -> list[str]:
    """What the solution says, in sentences: the game's strategy findings, the seat values, the best responses'
    gains and the near-optimal simple strategies; each with the exploitability caveat."""
    out: list[str] = []
    if describe is not None and hasattr(describe, "strategy_findings"):
        out += describe.strategy_findings(sol["strategy"])
    values = result.get("seat_values") or []
    if values:
        out.append("Under the solved policy the seats expect " + ", ".join(
            f"{number(v, signed=True)} (seat {i})" for i, v in enumerate(values)) + f" in {_utility_words(result)}.")
    ex = sol["exploitation"]
    if ex is not None and len(ex):
        best = ex.loc[ex["gain"].idxmax()]
        out.append(f"Against the {words(best['lineup'])} line-up a best response gains up to "
                   f"{number(best['gain'])} (seat {int(best['seat'])}) over the seat's own bot.")
    simple = sol["simple"]
    if simple is not None and len(simple):
        flagged = simple[simple["near_optimal"].astype(bool)]
        matters_little = _matters_little(simple)
        if len(flagged):
            names = sorted({f"{r.strategy} (seat {int(r.seat)})" for r in flagged.itertuples()})
            out.append("Near-optimal simple strategies: " + "; ".join(names) + ".")
        elif not matters_little:
            out.append("No simple strategy is near-optimal: rational play mixes.")
        out += matters_little
    out.append(f"All of this holds up to the policy's {caveat(result)}.")
    return out


def _matters_little(simple: pd.DataFrame) -> list[str]:
    """One sentence per seat where simple strategies that play opposite ways both lose little (so neither is
    flagged near-optimal: the decision they disagree on matters little in this variant)."""
    if "contradicted_by" not in simple.columns:
        return []
    out = []
    for seat, rows in simple.groupby("seat", sort=True):
        named = rows["contradicted_by"]
        pairs = rows[named.notna() & (named.astype(str) != "")]
        if len(pairs):
            names = " and ".join(f"{r.strategy} (loss {number(r.loss)})" for r in pairs.itertuples())
            out.append(f"For seat {int(seat)}, {names} play opposite ways yet each loses little: the choice between "
                       "them matters little in this variant, so neither is called near-optimal.")
    return out


def _result_lines(result: dict[str, Any], findings: list[str]) -> list[Line]:
    sizes = result["sizes"]
    share = result.get("value_share_of_range")
    lines: list[Line] = []
    lines += text_lines("What the solution says", "h1")
    for sentence in findings:
        lines += text_lines("- " + sentence, indent=2)
    lines.append(Line(""))
    lines += text_lines("The variant", "h1")
    lines += text_lines(f"Game: {result.get('short_name', '?')}.")
    params = result.get("parameters") or {}
    if params:
        shown = {k: v for k, v in params.items() if str(v) != ""}
        lines += text_lines("Rule parameters: " + ", ".join(setting(k, v) for k, v in sorted(shown.items())) + ".")
    if result.get("evaluation") == "lower_bound":
        lines += _lower_bound_lines(result)
        for a in result.get("assumptions") or []:
            lines += text_lines(f"- assumption {a.get('parameter')} = {a.get('value')}: {a.get('text')}", indent=2)
        return lines + text_lines("", "body") + text_lines(READING_BOUND)
    solved = ("solved exactly on the whole tree" if result.get("exact", True) else
              f"solved by sampling ({result['algorithm']}) and evaluated exactly on the whole tree")
    infosets = " and ".join(count(n) for n in sizes["infosets_per_player"])
    lines += text_lines(
        f"Tree: {count(sizes['histories'])} positions ({count(sizes['terminals'])} game ends), {infosets} decision "
        f"situations per player, {count(sizes['slots'])} situation-action pairs, at most {sizes['max_depth']} moves "
        f"deep; {solved}."
    )
    lines += text_lines("The solution", "h1")
    target = result.get("target")
    lines += text_lines(
        f"Solver {result['algorithm'].upper()}: {count(result['iterations'])} iterations, stopped by "
        f"{STOP_WORDS.get(result['stop_reason'], words(result['stop_reason']))}. Final {_metric(result)}: "
        f"{number(result['value'])}" + (f" = {_share_of_range(share)} of the utility range {number(result['utility_range'])} "
                                        f"({number(result['min_utility'])} to {number(result['max_utility'])})"
                                        if share is not None else "") + "."
    )
    if target is not None:
        reached = result.get("time_to_target_seconds")
        basis = _target_basis(result)
        lines += text_lines(f"Target {number(target)}{basis}: " + (f"reached after {number(reached)} s (building the tree "
                                                            "included)" if reached is not None else "not reached")
                            + ".")
    lines += text_lines(
        f"Time: building the tree {number(result['compile_seconds'])} s{_built_by(result)}, solver "
        f"{number(result['solver_seconds'])} s, whole solve {number(result['solve_wall_seconds'])} s (evaluations "
        "included)."
    )
    lines += text_lines(
        "Value of each seat under the solved policy: "
        + ", ".join(f"seat {i}: {number(v, signed=True)}" for i, v in enumerate(result["seat_values"]))
        + f" (expected {_utility_words(result)})."
    )
    lines += text_lines("", "small")
    lines += text_lines(READING, "small")
    # The assumptions come last: a long list runs on to a second page without splitting the rest.
    assumptions = result.get("assumptions") or []
    if assumptions:
        lines += text_lines("Assumptions in force", "h1")
        for a in assumptions:
            lines += text_lines(f"- {setting(a.get('parameter'), a.get('value'))}: {in_words(a.get('text'))}",
                                "small", indent=2)
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


# --- tables in the game's words ----------------------------------------------------------------------------------------


def _columns(describe: Any | None) -> dict[str, tuple[str, str]]:
    return dict(getattr(describe, "COLUMNS", {}) or {})


def header(column: str, columns: dict[str, tuple[str, str]]) -> str:
    """A column's header in words, with its unit when it is not a share (shares are printed as percentages)."""
    name, unit = columns.get(column, (words(column), ""))
    if unit and unit not in ("seat", "utility") and not is_share(unit) and unit not in name:
        return f"{name} ({unit})"
    return name


def words_frame(df: pd.DataFrame, columns: dict[str, tuple[str, str]], describe: Any | None = None) -> pd.DataFrame:
    """``df`` as display text in the game's words: headers from ``columns``, shares as percentages, seats as "seat N",
    other figures with three significant digits, key cells reworded by the game's ``cell``."""
    cell = getattr(describe, "cell", None)
    out = {}
    for col in df.columns:
        unit = columns.get(col, ("", ""))[1]
        texts = []
        for v in df[col]:
            text = cell(col, v) if cell is not None else None
            if text is None:
                if isinstance(v, (bool, np.bool_)):
                    text = yes_no(v)
                elif unit == "seat" and not missing(v):
                    text = f"seat {int(v)}"
                elif isinstance(v, (int, np.integer)):
                    text = str(int(v))
                elif isinstance(v, (float, np.floating)):
                    text = figure(v, unit, with_unit=False)
                elif v is None or (isinstance(v, float) and np.isnan(v)):
                    text = DASH
                else:
                    text = in_words(v)
            texts.append(text)
        out[header(col, columns)] = texts
    return pd.DataFrame(out)


def _curve_page(name: str, result: dict[str, Any], curve: pd.DataFrame | None,
                strategy: dict[str, pd.DataFrame], describe: Any | None) -> Figure:
    metric = _metric(result)
    left = f"the {metric} of the average policy as the solver runs"
    if result.get("evaluation") == "lower_bound":
        left = ("the information states the solver visited as it ran (the policy was judged once, at the end, by a "
                "lower bound)")
    fig = new_page(f"Solved variant {words(name)}: convergence and strategy",
                   f"Left: {left}. Right: the strategy's rates in the short tables, weighted by how often play reaches "
                   "each decision.")
    ax = fig.add_axes((LEFT + 0.03, BOTTOM + 0.08, 0.38, TOP - BOTTOM - 0.14))
    column = result["metric"]
    if curve is not None and len(curve) and column not in curve.columns:
        # No exact evaluation along the way (tree not compiled): the curve shows how many states were visited.
        ax.plot(curve["iteration"], curve["infosets"], marker="o", ms=3)
        ax.set_xlabel("solver iterations")
        ax.set_ylabel("information states visited")
        ax.set_title("tree not compiled: no evaluation along the way", fontsize=8)
    elif curve is not None and len(curve):
        values = curve[column].clip(lower=1e-12)
        ax.plot(curve["iteration"], values, marker="o", ms=3, label=metric)
        ax.set_yscale("log")
        if result.get("target") is not None:
            ax.axhline(result["target"], color="C3", ls="--", lw=1, label="target")
        ax.set_xlabel("solver iterations")
        ax.set_ylabel(f"{metric} ({_utility_words(result)}, log scale)")
        ax.legend(loc="upper right")
        top = ax.secondary_xaxis("top", functions=_iteration_to_seconds(curve))
        top.xaxis.set_major_locator(MaxNLocator(3, prune="upper"))
        top.tick_params(labelsize=7)
        top.set_xlabel("solver seconds")
    columns = _columns(describe)
    cell = getattr(describe, "cell", None)
    # Only short tables make readable bar charts; the long ones are on their own table pages.
    plots = [(t, df) for t, df in strategy.items() if _rate_columns(df, columns) and 1 < len(df) <= MAX_PLOT_ROWS][:2]
    if plots:
        k = len(plots)
        height = (TOP - BOTTOM - 0.10) / k

        def key_text(c: str, v: Any) -> str:
            text = cell(c, v) if cell is not None else None
            if text is not None:
                return text
            if columns.get(c, ("", ""))[1] == "seat":
                return f"seat {v}"
            if isinstance(v, (int, np.integer)):
                # A bare number says nothing on its own: name it ("cards played 2").
                return f"{columns.get(c, (words(c), ''))[0]} {v}"
            return in_words(v)

        for i, (table, df) in enumerate(plots):
            # Horizontal bars: the rows' names (often long, in words) read along the left side.
            axs = fig.add_axes((0.70, BOTTOM + 0.06 + (k - 1 - i) * height + 0.03, 0.26, height - 0.08))
            cols = _rate_columns(df, columns)
            keys = _key_columns(df)
            labels = [", ".join(key_text(c, df[c].iloc[r]) for c in keys) for r in range(len(df))]
            y = np.arange(len(df))
            width = 0.8 / len(cols)
            for j, col in enumerate(cols):
                axs.barh(y - 0.4 + width / 2 + j * width, df[col].astype(float).fillna(0.0), width,
                         label=columns.get(col, (words(col), ""))[0])
            axs.set_yticks(y, [_short(x, 44) for x in labels], fontsize=6)
            axs.invert_yaxis()
            axs.set_xlim(0, 1.0)
            percent_axis(axs, "x")
            title = _table_text(describe, table).get("title", words(table))
            axs.set_title(title[:1].upper() + title[1:], fontsize=8)
            axs.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.07), ncol=min(len(cols), 4))
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
        if pd.api.types.is_float_dtype(df[c].dtype):
            break
        keys.append(c)
    return keys[:3] or [df.columns[0]]


def _short(value: Any, width: int = 18) -> str:
    text = str(value)
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def _rate_columns(df: pd.DataFrame, columns: dict[str, tuple[str, str]]) -> list[str]:
    """Columns of shares (by the game's units, else by name) that a bar chart can show, at most 4."""
    def share(c: str) -> bool:
        unit = columns.get(c, ("", ""))[1]
        return is_share(unit) if unit else "rate" in c

    # What a player does (rates), not how often it comes to decide or how likely a condition is.
    skip = ("reach", "probability", "share_of")
    return [c for c in df.columns if share(c) and not any(w in c for w in skip)
            and pd.api.types.is_numeric_dtype(df[c])][:4]


def _block_height(shown: pd.DataFrame, note: str) -> float:
    """The height (figure fraction) of a short table with its heading and note on a shared page."""
    lines = wrap(note, 175).count("\n") + 1 if note else 0
    return 0.03 + 0.026 * (len(shown) + 2) + 0.01 + 0.016 * lines + 0.03


def _pack(tables: list[tuple[str, pd.DataFrame, str]]) -> list[list[tuple[str, pd.DataFrame, str]]]:
    """Short tables in page-sized groups, in order."""
    pages: list[list[tuple[str, pd.DataFrame, str]]] = []
    room = 0.0
    for item in tables:
        need = _block_height(item[1], item[2])
        if not pages or need > room:
            pages.append([])
            room = TOP - BOTTOM
        pages[-1].append(item)
        room -= need
    return pages


def _small_tables_page(title: str, tables: list[tuple[str, pd.DataFrame, str]]) -> Figure:
    """Short tables one under the other, each with its heading and note."""
    fig = new_page(title)
    y = TOP
    for heading, shown, note in tables:
        fig.text(LEFT, y, plain(heading[:1].upper() + heading[1:]), fontsize=10, fontweight="bold", va="top")
        height = 0.026 * (len(shown) + 2)
        ax = fig.add_axes((LEFT, y - 0.03 - height, RIGHT - LEFT, height))
        draw_table(ax, shown)
        y -= 0.03 + height + 0.01
        if note:
            wrapped = wrap(note, 175)
            fig.text(LEFT, y, plain(wrapped), fontsize=7.5, va="top", color="0.25")
            y -= 0.016 * (wrapped.count("\n") + 1)
        y -= 0.03
    return fig


def _table_text(describe: Any | None, table: str) -> dict[str, str]:
    return dict((getattr(describe, "TABLES", {}) or {}).get(table, {}))


def solution_figures(folder: str | Path) -> list[tuple[Figure, str]]:
    """The pages of one stored solution, as (figure, title) pairs."""
    return [(p.figure, p.title) for p in solution_pages(folder)]


def solution_pages(folder: str | Path) -> list[Page]:
    """The pages of one stored solution (section ``solve``, grouped under the solved variant)."""
    sol = storage.load_solution(folder)
    result = sol["result"]
    name = result["name"]
    describe = _describe(result)
    columns = _columns(describe)
    group = f"Solved variant {words(name)}"
    pages: list[Page] = []

    def keep(fig: Figure, title: str, findings: list[str] | None = None) -> None:
        add_findings(fig, findings or [])
        pages.append(Page(fig, title, "solve", list(findings or []), group))

    # A pair of solves whose varied parameter changed nothing: said first, before any finding it undermines.
    unchanged = [pair["text"] for pair in load_comparison(Path(folder).parent.parent) if name in pair["solves"]]
    findings = unchanged + solution_findings(result, sol, describe)
    title = f"Solved variant {words(name)}: the variant and its solution"
    for i, fig in enumerate(flow_pages(title, _result_lines(result, findings))):
        # The findings are the page's first lines (flowing text); kept on the page for the report's first page.
        pages.append(Page(fig, title, "solve", findings if i == 0 else [], group))
    curve_findings = [
        f"The solver ran {count(result['iterations'])} iterations in {number(result['solver_seconds'])} s and "
        f"stopped by {STOP_WORDS.get(result['stop_reason'], words(result['stop_reason']))}, at "
        f"{caveat(result)}.",
    ]
    keep(_curve_page(name, result, sol["curve"], sol["strategy"], describe),
         f"Solved variant {words(name)}: convergence", curve_findings)
    small: list[tuple[str, pd.DataFrame, str]] = []
    for table, df in sol["strategy"].items():
        text = _table_text(describe, table)
        heading = text.get("title", words(table))
        title = f"Solved variant {words(name)}: {heading}"
        note = text.get("note") or ""
        shown = words_frame(df, columns, describe)
        if len(df) <= SMALL_TABLE_ROWS:
            # Short tables share a page (one after the other) instead of each leaving a page nearly empty.
            small.append((heading, shown, note))
            continue
        fits = min(MAX_TABLE_ROWS, fit_rows(shown))
        if len(df) > fits:
            # A long table (one row per history of signals, say) is cut to its most reached rows on one page.
            reach = [c for c in df.columns if "reach" in c and pd.api.types.is_numeric_dtype(df[c])]
            if reach:
                df = df.sort_values(reach[0], ascending=False, kind="stable")
                shown = words_frame(df, columns, describe)
                fits = min(MAX_TABLE_ROWS, fit_rows(shown))
            cut = (f"The {fits} {'most reached ' if reach else 'first '}of {len(df)} rows; every row is in "
                   f"solve/{name}/{storage.STRATEGY}/{table}.csv.")
            note = f"{note} {cut}" if note else cut
            shown = shown.head(fits)
        for fig in table_pages(title, shown, note=note or None, rows_per_page=MAX_TABLE_ROWS):
            keep(fig, title)
    for group_tables in _pack(small):
        title = f"Solved variant {words(name)}: " + ", ".join(h for h, _, _ in group_tables)
        keep(_small_tables_page(title, group_tables), title)
    exploitation = sol["exploitation"]
    if exploitation is not None and len(exploitation):
        title = f"Solved variant {words(name)}: exploiting the bots"
        note = ("Each row: one seat plays a best response while the other seats play the line-up's bots (their stated "
                "mixed strategies). Gain = the best response's value minus the value the seat's own bot gets in the "
                f"line-up; all values in {_utility_words(result)}. The best response's most reached decisions follow.")
        shown = pd.DataFrame({
            "line-up": [words(x) for x in exploitation["lineup"]],
            "seat": [f"seat {int(s)}" for s in exploitation["seat"]],
            "bot in the seat": [words(x) for x in exploitation["bot"]],
            "the bot's value in its line-up": [number(x) for x in exploitation["lineup_value"]],
            "best response's value": [number(x) for x in exploitation["best_response_value"]],
            "gain of the best response": [number(x, signed=True) for x in exploitation["gain"]],
            "the seat's value under the solved policy": [number(x) for x in exploitation["equilibrium_value"]],
        })
        ex_findings = []
        for lineup, rows in exploitation.groupby("lineup", sort=False):
            gains = ", ".join(f"{number(r.gain, signed=True)} as seat {int(r.seat)}" for r in rows.itertuples())
            ex_findings.append(f"Against the {words(lineup)} line-up a best response gains {gains} over the seat's "
                               "own bot.")
        for i, fig in enumerate(table_pages(title, shown, note=note)):
            keep(fig, title, ex_findings[:4] if i == 0 else None)
        rows = []
        for key, df in sol["best_response"].items():
            for _, r in df.head(BR_ROWS).iterrows():
                situation = r.get("situation")
                if missing(situation) or not str(situation):
                    situation = "(not described: this game gives no description, or the solution predates it)"
                decision = r.get("decision")
                if missing(decision) or not str(decision):
                    decision = in_words(r["action"])
                reach_unit = "share" if df["reach"].max() <= 1 else "times"
                rows.append({"line-up, seat": key.replace("_seat", ", seat ").replace("_", " "),
                             "what the player knows": situation,
                             "reached (per game)": figure(r["reach"], reach_unit, with_unit=False),
                             "best response plays": decision,
                             f"gain over the next best play ({_utility_words(result)})":
                                 number(r["gain_over_next_best"])})
        if rows:
            title = f"Solved variant {words(name)}: what the best response does"
            table = pd.DataFrame(rows)
            widths = [1.1, 5.0, 0.8, 2.2, 1.0]
            fits = fit_rows(table, widths)
            note = ("Per line-up and seat, the best response's most reached decisions: the situation as the player "
                    "sees it, and what the best response plays there. "
                    + (f"The first {fits} of {len(table)} rows shown; " if fits < len(table) else "")
                    + f"every decision is in solve/{name}/{storage.BEST_RESPONSE}/ (one CSV file per line-up and "
                    "seat).")
            for fig in table_pages(title, table.head(fits), widths=widths, note=note):
                keep(fig, title)
    skipped = result.get("exploitation_skipped") or []
    if skipped:
        title = f"Solved variant {words(name)}: line-ups not exploited"
        lines = text_lines("No exact best response could be computed against these line-ups:", "h2")
        for row in skipped:
            lines += text_lines(f"- {words(row['lineup'])}: {in_words(row['reason'])}", indent=2)
        for fig in flow_pages(title, lines):
            pages.append(Page(fig, title, "solve", [], group))
    simple = sol["simple"]
    if simple is not None and len(simple):
        title = f"Solved variant {words(name)}: simple strategies"
        flagged = simple[simple["near_optimal"].astype(bool)]
        note = ("A seat plays the simple strategy wherever it applies (the solved policy elsewhere). Regret = what it "
                "loses against the solved policy compared with a best response; worst-case loss (two players, "
                "zero-sum) = how far its guaranteed value falls below the solved policy's; loss = the worst-case loss "
                "where defined, else the regret; near-optimal when the loss is at most "
                f"{number(result.get('simple_tolerance'))} (1% of the utility range, or twice the final "
                "exploitability if larger) and no simple strategy that plays the opposite way is within it too "
                f"(then the decision matters little). All values in {_utility_words(result)}.")
        shown = pd.DataFrame({
            "simple strategy": simple["strategy"],
            "seat": [f"seat {int(s)}" for s in simple["seat"]],
            "decisions it changes": [count(x) for x in simple["infosets"]],
            "largest change of a probability": [percent(x) for x in simple["largest_change"]],
            "seat's value against the solved policy's": [number(x, signed=True) for x in
                                                         simple["seat_value_vs_solved"]],
            "regret": [number(x) for x in simple["regret"]],
            "worst-case loss": [number(x) for x in simple["worst_case_loss"]],
            "loss": [number(x) for x in simple["loss"]],
            "near-optimal": [yes_no(x) for x in simple["near_optimal"].astype(bool)],
        })
        if "contradicted_by" in simple.columns:
            shown["also within the tolerance, playing the opposite"] = [
                DASH if missing(x) or not str(x) else str(x) for x in simple["contradicted_by"]]
        if len(flagged):
            simple_findings = [f"{r.strategy[:1].upper()}{r.strategy[1:]} is near-optimal for seat {int(r.seat)}: it "
                               f"loses {number(r.loss)}, within the tolerance {number(result.get('simple_tolerance'))}."
                               for r in flagged.itertuples()][:3]
        elif _matters_little(simple):
            simple_findings = _matters_little(simple)[:3]
        else:
            best = simple.loc[simple["loss"].idxmin()]
            simple_findings = [f"No simple strategy is near-optimal; the closest, {best['strategy']} (seat "
                               f"{int(best['seat'])}), loses {number(best['loss'])} against a tolerance of "
                               f"{number(result.get('simple_tolerance'))}."]
        for i, fig in enumerate(table_pages(title, shown, note=note)):
            keep(fig, title, simple_findings if i == 0 else None)
    return pages


def add_solve_pages(ctx: Any) -> None:
    """Add the pages of every solution under ``ctx.outdir/solve/`` to a report being built (section ``solve``); the
    first finding of each solution goes to the report's first page."""
    for folder in storage.solutions(ctx.outdir):
        pages = solution_pages(folder)
        if pages and pages[0].findings:
            ctx.front_findings.append((len(ctx.pages), f"{pages[0].group}: {pages[0].findings[0]}"))
        ctx.pages += pages


def build_solve_report(outdir: str | Path) -> Path | None:
    """Write the solve pages alone to ``OUTDIR/solve/report.pdf`` (with contents and bookmarks); ``None`` when
    nothing is solved there."""
    from trustme_analysis.report.pdf import write_pdf

    folders = storage.solutions(outdir)
    if not folders:
        return None
    path = Path(outdir) / storage.SOLVE_DIR / "report.pdf"
    with matplotlib.rc_context(RC):
        pages = [p for folder in folders for p in solution_pages(folder)]
        write_pdf(pages, path, title="Solved variants", subject="Trust Me solved variants", contents_after=0)
    return path
