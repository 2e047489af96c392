"""The report's first pages: what the sweep asked and ran (with every assumption), and a one-page summary."""

from __future__ import annotations

import json
from collections import defaultdict

import pandas as pd

from trustme_analysis.report.context import ReportContext
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


def _games_per_variant(ctx: ReportContext) -> dict[str, int]:
    return ctx.games.groupby("variant").size().to_dict()


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


def add_front_pages(ctx: ReportContext) -> None:
    """The question, the variants with their labels, games, seed, versions, timing and every assumption in force."""
    m = ctx.manifest
    per_variant = _games_per_variant(ctx)
    lines: list[Line] = []
    lines += text_lines("Question", "h1")
    lines += text_lines(str(m.get("question") or "(the spec states no question)"))
    lines.append(Line(""))
    lines += text_lines("What was run", "h1")
    timing = m.get("timing") or {}
    facts = [
        f"Game: {m.get('game', '?')}.  Variants: {len(ctx.variant_ids)}.  Baseline: {ctx.baseline}.",
        f"Games played: {len(ctx.games)} in all ({m.get('games_per_variant', '?')} asked per variant).  "
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
    title = ctx.game_title
    ctx.add_all(flow_pages(title, lines), title, "front")


def _baseline_at_a_glance(ctx: ReportContext) -> str:
    """One paragraph: the baseline's seat win rates and its value on every compared measure."""
    base = ctx.baseline
    games = ctx.comparison_games if ctx.comparison_games is not None else ctx.games
    games = games[games["variant"] == base]
    winners = ctx.games.loc[ctx.games["variant"] == base, "winner"]
    seats = int(ctx.games.loc[ctx.games["variant"] == base, "seats"].iloc[0])
    rates = " / ".join(f"{100 * (winners == s).mean():.0f}%" for s in range(seats))
    parts = [f"seat win rates {rates} (fair {100 / seats:.0f}%)"]
    for metric in ctx.comparison_metrics:
        if metric.column in games.columns:
            value = float(games[metric.column].astype(float).mean())
            if metric.kind == "rate" or metric.unit.startswith("share"):
                parts.append(f"{metric.name} {100 * value:.0f}%")
            else:
                parts.append(f"{metric.name} {value:.2f} {metric.unit}")
    return f"The baseline {base} at a glance ({len(games)} games): " + "; ".join(parts) + "."


def add_summary_page(ctx: ReportContext, comparisons: pd.DataFrame) -> None:
    """One page: the comparisons with the biggest (significant first) changes versus the baseline."""
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
