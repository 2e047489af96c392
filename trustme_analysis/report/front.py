"""The report's first pages: the question and the headline findings (page 1), what the sweep ran with every
assumption in force, and a one-page summary of the biggest changes versus the baseline.

Drawn from the results set's ``headlines``, ``variants`` and ``comparisons`` tables and its manifest.
"""

from __future__ import annotations

import json
from collections import defaultdict

import math

import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    Line,
    draw_table,
    flow_pages,
    format_frame,
    format_p,
    new_page,
    text_lines,
    wrap,
)
from trustme_analysis.stats.compare import biggest_changes


def _games_per_variant(ctx: Report) -> dict[str, int]:
    table = ctx["variants"]
    return dict(zip(table["variant"], table["games"].astype(int)))


def _is_share(unit: str) -> bool:
    return unit.startswith("share") or unit == "win rate of seat 0"


def figure_text(value: float, unit: str, signed: bool = False) -> str:
    """A figure for a sentence: shares as percentages, other values with three significant digits and the unit."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if _is_share(unit):
        return f"{100 * value:+.0f}%" if signed else f"{100 * value:.0f}%"
    text = f"{value:+.3g}" if signed else f"{value:.3g}"
    return f"{text} {unit}".strip()


def interval_text(low: float, high: float, unit: str, signed: bool = False) -> str:
    """``[low, high]`` in the same form as :func:`figure_text` (without the unit), empty when there is none."""
    if any(x is None or (isinstance(x, float) and math.isnan(x)) for x in (low, high)):
        return ""
    if _is_share(unit):
        return f" [{100 * low:+.0f}%, {100 * high:+.0f}%]" if signed else f" [{100 * low:.0f}%, {100 * high:.0f}%]"
    return f" [{low:+.3g}, {high:+.3g}]" if signed else f" [{low:.3g}, {high:.3g}]"


def headline_lines(ctx: Report) -> list[str]:
    """The headline findings as sentences, each with its 95% interval (from the results set's ``headlines``)."""
    h = ctx["headlines"]
    base = ctx.baseline
    out: list[str] = []
    seats = h[h["kind"] == "seat"]
    if len(seats):
        rates = " / ".join(f"{figure_text(r.value, r.unit)}{interval_text(r.low, r.high, r.unit)}"
                           for r in seats.itertuples())
        fair = float(seats["reference"].iloc[0])
        sentence = (f"In the baseline {base} ({ctx.variant_label(base)}), seats 0 to {len(seats) - 1} win "
                    f"{rates} of the games (fair: {100 * fair:.0f}% each; {int(seats['games'].iloc[0])} games).")
        test = h[h["kind"] == "balance test"]
        if len(test) and not math.isnan(float(test["p"].iloc[0])):
            p = float(test["p"].iloc[0])
            verdict = "the seats differ" if p < 0.05 else "no evidence that any seat wins more often"
            sentence += f" Chi-square test of equal seats: p = {format_p(p)} ({verdict})."
        out.append(sentence)
    for r in h[h["kind"] == "baseline"].itertuples():
        out.append(f"{r.measure[:1].upper()}{r.measure[1:]} (baseline): {figure_text(r.value, r.unit)}"
                   f"{interval_text(r.low, r.high, r.unit)}.")
    for r in h[h["kind"] == "trust"].itertuples():
        out.append(f"Can the players of {r.variant} be trusted? The strongest challenger, {r.measure}, wins "
                   f"{figure_text(r.value, r.unit)}{interval_text(r.low, r.high, r.unit)} of its games (fair: "
                   f"{figure_text(r.reference, r.unit)}): {r.verdict}.")
    changes = h[h["kind"] == "change"]
    if len(ctx.variant_ids) < 2:
        out.append("Only one variant was played, so nothing is compared with a baseline.")
    elif not len(changes):
        out.append("No variant differs significantly from the baseline on any compared measure (Holm's correction "
                   "over all comparisons, family-wise 5%).")
    for r in changes.itertuples():
        out.append(f"{r.variant} ({ctx.variant_label(r.variant)}): {r.measure} changes by "
                   f"{figure_text(r.value, r.unit, signed=True)}{interval_text(r.low, r.high, r.unit, signed=True)} "
                   f"from the baseline's {figure_text(r.reference, r.unit)} (Holm p {format_p(r.p)}).")
    return out


def add_answer_page(ctx: Report) -> None:
    """Page 1: what was asked and what the games say, every figure with its 95% interval."""
    m = ctx.manifest
    lines: list[Line] = []
    lines += text_lines("Question", "h1")
    lines += text_lines(str(m.get("question") or "(the spec states no question)"))
    lines.append(Line(""))
    lines += text_lines("What the games say (95% intervals in brackets)", "h1")
    for sentence in headline_lines(ctx):
        lines += text_lines("- " + sentence, indent=2)
    lines.append(Line(""))
    per_variant = _games_per_variant(ctx)
    lines += text_lines(
        f"From {sum(per_variant.values())} games of {len(ctx.variant_ids)} variant(s) of {m.get('game', '?')} "
        f"(master seed {m.get('seed', '?')}). What was run, the variants and every rule assumption in force follow; "
        "then the biggest changes versus the baseline, seat balance, the game's own pages and all comparisons."
    )
    if not m.get("complete", True):
        lines += text_lines("The sweep is NOT complete: these results are partial.", "h2")
    title = ctx.game_title
    ctx.add_all(flow_pages(title, lines), title, "answer")


def game_string_params(game_string: str) -> dict[str, str]:
    """The parameters of a game string ``name(k=v,...)`` as a dict of strings (empty if it has none)."""
    if "(" not in game_string or not game_string.endswith(")"):
        return {}
    inner = game_string[game_string.index("(") + 1 : -1]
    out = {}
    for part in inner.split(","):
        if "=" in part:
            key, value = part.split("=", 1)
            out[key.strip()] = value.strip()
    return out


def _seats_text(variant: dict) -> str:
    seats = variant.get("seats")
    if not seats:
        return ""
    if isinstance(seats, list):
        parts = []
        for i, s in enumerate(seats):
            if isinstance(s, dict):
                knobs = s.get("knobs") or {}
                knob_text = ", ".join(f"{k}={v}" for k, v in knobs.items())
                parts.append(f"seat {i}: {s.get('bot', '?')}" + (f" ({knob_text})" if knob_text else ""))
            else:
                parts.append(f"seat {i}: {s}")
        return "; ".join(parts)
    return json.dumps(seats, sort_keys=True)


def add_front_pages(ctx: Report) -> None:
    """What was run: the variants with their labels, games, seed, versions, timing and every assumption in force."""
    m = ctx.manifest
    per_variant = _games_per_variant(ctx)
    lines: list[Line] = []
    lines += text_lines("What was run", "h1")
    timing = m.get("timing") or {}
    facts = [
        f"Game: {m.get('game', '?')}.  Variants: {len(ctx.variant_ids)}.  Baseline: {ctx.baseline}.",
        f"Games played: {sum(per_variant.values())} in all ({m.get('games_per_variant', '?')} asked per variant).  "
        f"Master seed: {m.get('seed', '?')}.  Chunk size: {m.get('chunk_size', '?')}.  "
        f"Sweep complete: {'yes' if m.get('complete', True) else 'NO - results are partial'}.",
    ]
    if timing:
        facts.append(
            f"Run: {timing.get('started', '?')} to {timing.get('finished', '?')}, {timing.get('seconds', '?')} s, "
            f"{timing.get('games_per_second', '?')} games/s on {timing.get('workers', '?')} worker(s) "
            f"({timing.get('backend', '?')})."
        )
    if m.get("spec_path"):
        facts.append(f"Spec file: {m['spec_path']}")
    for f in facts:
        lines += text_lines(f)
    versions = m.get("versions") or {}
    if versions:
        lines += text_lines("Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".")
    lines.append(Line(""))
    lines += text_lines("Variants (plots and tables use the ids)", "h1")
    known = {v.get("id"): v for v in m.get("variants", [])}
    # Print the rule parameters all variants share once; each variant then lists only what sets it apart.
    params = {vid: game_string_params(str(known.get(vid, {}).get("game_string", ""))) for vid in ctx.variant_ids}
    common = dict(params[ctx.variant_ids[0]]) if params else {}
    for p in params.values():
        common = {k: v for k, v in common.items() if p.get(k) == v}
    if common:
        lines += text_lines("Rule parameters shared by all variants: "
                            + ", ".join(f"{k}={v}" for k, v in sorted(common.items())) + ".")
    for vid in ctx.variant_ids:
        v = known.get(vid, {})
        tag = " (baseline)" if vid == ctx.baseline else ""
        lines += text_lines(f"{vid}{tag}: {ctx.variant_label(vid)} \u2014 {per_variant.get(vid, 0)} games", indent=6)
        own = {k: val for k, val in params.get(vid, {}).items() if k not in common}
        if own:
            lines += text_lines("    rule parameters: " + ", ".join(f"{k}={val}" for k, val in sorted(own.items())),
                                indent=6)
        seats = _seats_text(v)
        if seats:
            lines += text_lines(f"    players: {seats}", indent=6)
    lines.append(Line(""))
    lines += text_lines("Rule assumptions in force (where the rule text is silent)", "h1")
    assumptions = m.get("assumptions") or {}
    if not assumptions:
        lines += text_lines("The manifest records no assumptions.")
    # Variants usually share most of their assumptions: print those in force everywhere once, then each distinct
    # remainder once with the variants it applies to.
    def key(item: dict) -> str:
        return json.dumps(item, sort_keys=True)

    per_variant = {vid: [key(a) for a in assumptions.get(vid, [])] for vid in ctx.variant_ids}
    common = [k for k in per_variant[ctx.variant_ids[0]] if all(k in ks for ks in per_variant.values())]
    groups: dict[str, list[str]] = defaultdict(list)
    for vid, keys in per_variant.items():
        groups[json.dumps([k for k in keys if k not in common])].append(vid)
    if assumptions:
        sections = [("all variants", common)]
        sections += [("variants " + ", ".join(vids) + " also", json.loads(rest))
                     for rest, vids in groups.items() if json.loads(rest)]
        for who, keys in sections:
            lines += text_lines(f"In {who}:", "h2")
            if not keys:
                lines += text_lines("(none recorded)", indent=4)
            for a in map(json.loads, keys):
                lines += text_lines(
                    f"- {a.get('parameter', '?')} = {a.get('value', '?')}: {a.get('text', '')}", indent=4
                )
    title = f"{ctx.game_title}: what was run"
    ctx.add_all(flow_pages(title, lines), title, "front")


def _baseline_at_a_glance(ctx: Report) -> str:
    """One paragraph: the baseline's seat win rates and its value on every compared measure."""
    h = ctx["headlines"]
    base = ctx.baseline
    seats = h[h["kind"] == "seat"]
    rates = " / ".join(f"{100 * v:.0f}%" for v in seats["value"])
    parts = [f"seat win rates {rates} (fair {100 / max(len(seats), 1):.0f}%)"]
    for r in h[h["kind"] == "baseline"].itertuples():
        if r.unit.startswith("share"):
            parts.append(f"{r.measure} {100 * r.value:.0f}%")
        else:
            parts.append(f"{r.measure} {r.value:.2f} {r.unit}")
    games = int(seats["games"].iloc[0]) if len(seats) else 0
    return f"The baseline {base} at a glance ({games} games): " + "; ".join(parts) + "."


def add_summary_page(ctx: Report) -> None:
    """One page: the comparisons with the biggest (significant first) changes versus the baseline."""
    comparisons = ctx["comparisons"]
    title = f"Summary: what changed most versus the baseline {ctx.baseline}"
    fig = new_page(title, f"Baseline {ctx.baseline}: {ctx.variant_label(ctx.baseline)}")
    glance = _baseline_at_a_glance(ctx)
    if comparisons.empty:
        fig.text(LEFT, 0.8, wrap("Only one variant was played, so there is nothing to compare with the baseline. "
                                 "The following pages describe this variant.", 150), fontsize=10, va="top")
        fig.text(LEFT, 0.72, wrap(glance, 165), fontsize=9, va="top")
        ctx.add(fig, title, "summary")
        return
    n_sig = int(comparisons["significant"].sum())
    n = len(comparisons)
    head = (
        f"{len(ctx.variant_ids) - 1} variant(s) compared with the baseline on "
        f"{comparisons['metric'].nunique()} measures: {n} comparisons, of which {n_sig} differ significantly after "
        f"Holm's correction (family-wise error 5%). Below: the largest changes, significant ones first, ranked by the "
        f"size of the change relative to the baseline's spread."
    )
    fig.text(LEFT, 0.885, wrap(head, 160), fontsize=9, va="top")
    top = biggest_changes(comparisons, limit=14)
    table = pd.DataFrame(
        {
            "variant": top["variant"],
            "measure": top["metric"],
            "unit": top["unit"],
            "baseline": top["baseline_value"],
            "variant value": top["value"],
            "change": top["difference"],
            "95% interval": [f"[{lo:+.3g}, {hi:+.3g}]" for lo, hi in zip(top["low"], top["high"])],
            "Holm p": [format_p(p) for p in top["p_holm"]],
            "significant": top["significant"],
        }
    )
    ax = fig.add_axes((LEFT, 0.36, RIGHT - LEFT, 0.47))
    draw_table(ax, format_frame(table), widths=[0.7, 2.4, 1.4, 0.9, 0.9, 0.9, 1.4, 0.8, 0.8])
    fig.text(LEFT, 0.33, wrap(glance, 175), fontsize=8.5, va="top")
    shown = list(dict.fromkeys(top["variant"]))
    legend = "; ".join(f"{v} = {ctx.variant_label(v)}" for v in shown)
    fig.text(LEFT, BOTTOM + 0.01, wrap("Variants in this table: " + legend, 175), fontsize=7.5, va="bottom")
    ctx.add(fig, title, "summary")
