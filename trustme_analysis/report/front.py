"""The report's framing pages: the answer (page 1: a figure of each seat's win share under each line-up, then the
question and the findings that answer it, in sentences), what was run with every assumption in force (at the back),
and a one-page summary of the biggest changes versus the baseline.

Drawn from the results set's ``headlines``, ``seat_win_rates``, ``equal_seats_test``, ``variants`` and
``comparisons`` tables and its manifest; the answer page also repeats the most important finding of each section
(offered by the pages as they were drawn, so it is drawn last).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from typing import Any

import numpy as np
import pandas as pd

from trustme_analysis.report.context import Report
from trustme_analysis.report.findings import capital, versus
from trustme_analysis.report.layout import (
    BOTTOM,
    LEFT,
    RIGHT,
    SQUEEZE_LIMIT,
    TOP,
    Line,
    draw_table,
    flow_pages,
    foot_note,
    new_page,
    note_lines,
    page_fill,
    percent_axis,
    plain,
    rows_that_fit,
    text_lines,
    wrap,
)
from trustme_analysis.report.words import (
    axis_words,
    change_size,
    count,
    detectable_size,
    estimate,
    figure,
    in_words,
    interval,
    label_pairs,
    label_words,
    missing,
    number,
    p_value,
    percent,
    points,
    setting,
    words,
    yes_no,
)
from trustme_analysis.results.comparisons import deciding_verdict
from trustme_analysis.stats.compare import biggest_changes
from trustme_analysis.stats.power import detectable_change

#: Variants whose seat balance the first page states one by one; with more, the least balanced ones.
SEAT_SENTENCES = 3
#: Findings of the pages repeated on the first page.
FRONT_FINDINGS = 6
#: Significant changes of each factor stated on the first page (the summary pages list more).
FRONT_CHANGES = 3


def _games_per_variant(ctx: Report) -> dict[str, int]:
    table = ctx["variants"]
    return dict(zip(table["variant"], table["games"].astype(int)))


# --- what a partial folder lacks, and what is compared with what ------------------------------------------------------


def _asked_per_variant(ctx: Report) -> dict[str, int]:
    """The games the spec asked of each variant: its line-up's ``games`` where set, else the spec's."""
    m = ctx.manifest
    spec_games = m.get("games_per_variant")
    out = {}
    for v in m.get("variants", []):
        asked = v.get("games", spec_games)
        if isinstance(asked, int):
            out[str(v.get("id"))] = asked
    return out


def missing_variants(ctx: Report) -> list[str]:
    """Variants of the spec (the manifest) with no records in this folder."""
    return [str(v.get("id")) for v in ctx.manifest.get("variants", []) if v.get("id") not in ctx.variant_ids]


def coverage_lines(ctx: Report) -> list[str]:
    """Sentences on what this folder lacks: an incomplete sweep, variants with no records or fewer games than asked,
    and a baseline that had to stand in for the spec's own."""
    m = ctx.manifest
    out: list[str] = []
    labels = {str(v.get("id")): str(v.get("label") or v.get("id")) for v in m.get("variants", [])}
    gone = missing_variants(ctx)
    if not m.get("complete", True) or gone:
        out.append("The sweep is NOT complete: these results are partial.")
    if gone:
        named = "; ".join(f"{v} ({label_words(labels.get(v, v))})" for v in gone)
        out.append(f"{len(gone)} of {len(m.get('variants', []))} variants have no records in this folder and are left "
                   f"out of every page: {named}.")
    asked = _asked_per_variant(ctx)
    short = {v: (g, asked[v]) for v, g in _games_per_variant(ctx).items() if v in asked and g < asked[v]}
    if short:
        out.append("Fewer games than asked: " + "; ".join(f"{v} {count(g)} of {count(a)}" for v, (g, a) in short.items())
                   + ".")
    out += baseline_lines(ctx)
    return out


def baseline_lines(ctx: Report) -> list[str]:
    """What the variants are compared with, when the spec's baseline could not be used."""
    wanted = ctx.manifest.get("baseline")
    if len(ctx.variant_ids) < 2 or not wanted or wanted == ctx.baseline:
        return []
    return [f"The spec's baseline {wanted} has no records in this folder, so every comparison in this report is "
            f"with {ctx.variant_name(ctx.baseline)} instead."]


# --- the answer -------------------------------------------------------------------------------------------------------


def seat_lines(ctx: Report, lead: str | None = None) -> list[str]:
    """Seat balance in sentences: each variant's first seat against its fair rate (the least balanced variants when
    there are many; ``lead`` first, when given), with the chi-square test of equal seats. A variant whose players the
    trust check found exploitable says so."""
    rates = ctx["seat_win_rates"]
    tests = ctx["equal_seats_test"].set_index("variant")
    variants = list(ctx.variant_ids)
    if len(variants) > SEAT_SENTENCES or lead is not None:
        # The variants where the seats differ most clearly: smallest p-value of the test of equal seats.
        order = list(tests.reindex(variants)["p_value"].fillna(1.0).sort_values(kind="stable").index)
        if lead in order:
            order = [lead] + [v for v in order if v != lead]
        variants = [v for v in order[:SEAT_SENTENCES]]
    out = []
    for v in variants:
        first = rates[(rates["variant"] == v) & (rates["seat"] == 0)]
        if first.empty:
            continue
        r = first.iloc[0]
        roles = [x for x in ("the headline" if v == lead else "", "the baseline" if v == ctx.baseline else "",
                             "players found exploitable" if ctx.exploitable(v) else "") if x]
        where = f"in {v} ({'; '.join([ctx.variant_short(v), *roles])})"
        if missing(r["win_rate"]):
            out.append(f"No game of {v} had a winner, so no win rate is defined.")
            continue
        sentence = (f"Seat 0 wins {estimate(r['win_rate'], r['low'], r['high'], 'share')} of {count(r['games'])} "
                    f"games {where}: {versus(r['win_rate'], r['low'], r['high'], r['fair'])} its fair "
                    f"{percent(r['fair'])}.")
        column = "p_holm" if "p_holm" in tests.columns else "p_value"
        if v in tests.index and not missing(tests.loc[v, column]):
            p = float(tests.loc[v, column])
            test = ("test of equal seats, Holm-corrected over the variants" if column == "p_holm" and len(tests) > 1
                    else "test of equal seats")
            if p < 0.05:
                sentence += f" Some seat wins more often than another ({test}: p {_p(p)})."
            else:
                sentence += f" No evidence that any seat wins more often ({test}: p {_p(p)})"
                edge = tests.loc[v, "detectable_edge"] if "detectable_edge" in tests.columns else math.nan
                # Silence is not balance: say what these games could have seen (80% power, 5% level).
                sentence += ("." if missing(edge) else
                             f"; {count(r['games'])} games detect a seat edge only from {points(edge)} "
                             "on (80% power).")
        out.append(sentence)
    rest = len(ctx.variant_ids) - len(variants)
    if rest:
        out.append(f"{'One more variant is' if rest == 1 else f'{rest} more variants are'} on the seat-balance page.")
    return out


def seat_test_lines(ctx: Report) -> list[str]:
    """The chi-square test of equal seats over every variant in one sentence (page 1's figure shows the rates
    themselves): in which variants some seat wins more often than another (Holm-corrected over the variants), and
    what the others' games could have seen."""
    tests = ctx["equal_seats_test"]
    tests = tests[tests["variant"].isin(ctx.variant_ids)]
    column = "p_holm" if "p_holm" in tests.columns else "p_value"
    tested = tests[tests[column].notna()]
    if tested.empty:
        return []
    how = ("the test of equal seats, Holm-corrected over the variants" if column == "p_holm" and len(tested) > 1
           else "the test of equal seats")
    uneven = tested[tested[column] < 0.05].sort_values(column, kind="stable")
    if len(uneven):
        named = "; ".join(f"{ctx.variant_name(r.variant)}: p {_p(getattr(r, column))}"
                          for r in uneven.head(SEAT_SENTENCES).itertuples())
        more = f" and {len(uneven) - SEAT_SENTENCES} more" if len(uneven) > SEAT_SENTENCES else ""
        said = (f"By {how}, some seat wins more often than another in {len(uneven)} of {len(tested)} variants "
                f"({named}{more})")
    else:
        said = f"By {how}, no seat wins more often than another in any of the {len(tested)} variants"
    quiet = tested[tested[column] >= 0.05]
    edges = (quiet["detectable_edge"].dropna() if "detectable_edge" in quiet.columns else pd.Series(dtype=float))
    if len(edges):
        # Silence is not balance: what the games of the variants without a finding could have seen.
        span = (points(edges.min()) if np.isclose(edges.min(), edges.max()) else
                f"{points(edges.min()).split()[0]} to {points(edges.max())}")
        said += (f"; {'in the others, ' if len(uneven) else ''}the games detect a seat edge only from {span} on "
                 "(80% power)")
    return [said + "."]


#: How a line-up's trust verdict reads in the headline's sentence.
TRUST_WORDS = {
    "": "its players were not put to the trust check",
    "no weakness found": "the trust check found no weakness in its players",
    "holds": "the trust check found no probe that beats its players under these rules",
    "inconclusive": "the trust check of its players was inconclusive (a challenger may win more than its share)",
    "exploitable": "but the trust check found its players exploitable, so read its figures as these bots' "
                   "behaviour, not the game's under good play",
}


def headline_intro(ctx: Report) -> str:
    """Which line-up the headline figures come from, why, and its trust verdict, in one sentence."""
    t = ctx.lineups
    head = ctx.headline_variant
    row = t[t["role"] == "headline"]
    if row.empty:
        return ""
    r = row.iloc[0]
    n_lineups = len(t)
    why = ("the most competent of the spec's " + f"{n_lineups} line-ups" if n_lineups > 1
           else "the spec's only line-up")
    base = ""
    if head != ctx.baseline:
        base = (f" The spec's baseline {ctx.variant_name(ctx.baseline)} stays the reference the other line-ups are "
                "compared with.")
    # The verdict under the headline's own rules where the check tested them there (the one that chose it).
    overall = str(r["verdict"])
    here = deciding_verdict(r)
    trust = TRUST_WORDS.get(here, here)
    if here != "exploitable" and overall == "exploitable":
        trust += " (a probe beats them under other rules: see below)"
    return (f"The headline figures are those of {ctx.variant_name(head)}: the baseline's rules under line-up "
            f"{r['lineup']} ({r['seats']}), {why}; {trust}.{base}")


def trust_lines(ctx: Report) -> list[str]:
    """How far the players can be trusted, where the spec asked: per tested line-up, what the probes decided in each
    of its tested variants (what it holds against, and which probe beats it by how much), then what a search player
    gains (the ``trust_verdicts`` table; the headlines' ``trust`` rows for a results set without it)."""
    if "trust_verdicts" not in ctx.results or "search_gain" not in ctx["trust_verdicts"].columns:
        return _old_trust_lines(ctx)
    table = ctx["trust_verdicts"]
    out = []
    for lineup, grp in table.groupby("lineup", sort=False):
        where = (ctx.variant_name(str(grp["variant"].iloc[0])) if len(grp) == 1 else f"line-up {lineup}")
        said = [f"Can the players of {where} be trusted?"]
        held = grp[grp["verdict"] == "holds"]
        beaten = grp[grp["verdict"] == "exploitable"]
        if len(held):
            scope = "" if len(grp) == 1 else (f" in all {len(grp)} tested variants" if len(held) == len(grp) else
                                              f" in {', '.join(held['variant'])}")
            said.append(f"Against the probes they hold{scope}: no probe wins more than its fair share + "
                        f"{100 * float(held['detectable'].max()):.1f} points (80% power).")
        if len(beaten):
            said.append("A probe beats them: " + "; ".join(
                f"{r.best_challenger} wins {100 * (r.win_rate - r.fair):.1f} points more than its fair share "
                f"[{100 * (r.low - r.fair):.1f}, {100 * (r.high - r.fair):.1f}]"
                + ("" if len(grp) == 1 else f" in {r.variant}") for r in beaten.itertuples()) + ".")
        search = grp[grp["search_games"] > 0]
        if len(search):
            each = ", ".join(f"{100 * r.search_gain:+.0f} [{100 * r.search_low:+.0f}, {100 * r.search_high:+.0f}]"
                             + ("" if len(grp) == 1 else f" in {r.variant}") for r in search.itertuples())
            said.append(f"A search player ({count(int(search['search_games'].min()))} games or more) gains {each} "
                        "points over its fair share.")
        out.append(" ".join(said))
    return out


def _old_trust_lines(ctx: Report) -> list[str]:
    """:func:`trust_lines` from the headlines' ``trust`` rows alone."""
    h = ctx["headlines"]
    rows = h[h["kind"] == "trust"]
    if "lineup" not in rows.columns:  # a results set computed before the line-up column
        rows = rows.assign(lineup=[ctx.lineup_of(v) for v in rows["variant"]])
    out = []
    for lineup, grp in rows.groupby("lineup", sort=False):
        each = "; ".join(f"{r.variant}: {r.measure.split(' against ')[0]} {estimate(r.value, r.low, r.high, 'share')} "
                         f"of {count(r.games)} (fair {percent(r.reference)}): {r.verdict}" for r in grp.itertuples())
        out.append(f"Can the players of line-up {lineup} be trusted? The strongest challenger's win rate: {each}.")
    return out


def _p(p: float) -> str:
    text = p_value(p)
    return text if text.startswith("<") else f"= {text}"


#: What each factor's comparisons set against what, for the sentences that introduce them.
FACTOR_WORDS = {
    "rules": ("What changes with the rules (each rule variant against the baseline's rules under the same "
              "line-up; ranked among the rule comparisons)"),
    "line-up": ("What changes with the players (each line-up against the reference line-up {reference} under the "
                "same rules; ranked among the line-up comparisons)"),
}


def _comparison_row(ctx: Report, variant: str, measure: str, factor: str) -> pd.Series | None:
    comp = ctx["comparisons"]
    if "factor" not in comp.columns:
        return None
    row = comp[(comp["variant"] == variant) & (comp["metric"] == measure) & (comp["factor"] == factor)]
    return row.iloc[0] if len(row) else None


def moved_words(moved: str) -> str:
    """The comparisons' ``moved`` text in words: "players=2 (reference players=3)" -> "2 players instead of 3
    players"; "line-up search (reference heuristic)" -> "line-up search instead of heuristic"."""
    if " (reference " not in moved or not moved.endswith(")"):
        return label_words(moved)
    now, was = moved[:-1].split(" (reference ", 1)
    if now.startswith("line-up "):
        return f"{now} instead of {was}"
    return f"{label_words(now)} instead of {label_words(was)}"


def change_sentence(ctx: Report, r) -> str:
    """One significant change of one factor: "Under line-up heuristic (players found exploitable), 2 players
    instead of 3 players (v00 against v02): turns per game 33.1 turns instead of 42.6 turns (change -9.46 [-9.62,
    -9.30], paired; significant after Holm's correction)."""
    unit = str(r.unit)
    factor = str(getattr(r, "factor", "") or "rules")
    reference = str(getattr(r, "compared_with", "") or ctx.baseline)
    row = _comparison_row(ctx, r.variant, r.measure, factor)
    value = row["value"] if row is not None else float("nan")
    paired = bool(row["paired"]) if row is not None else False
    moved = moved_words(str(row["moved"])) if row is not None else f"{r.variant} instead of {reference}"
    held = str(row["held"]) if row is not None else ""
    bad = list(dict.fromkeys(ctx.lineup_of(v) for v in (r.variant, reference) if ctx.exploitable(v)))
    tag = ("" if not bad else " (players found exploitable)" if factor == "rules" else
           f" ({' and '.join(bad)} players found exploitable)")
    where = (f"Under {held}{tag}, {moved}" if factor == "rules" else f"With {label_words(held)}, {moved}{tag}")
    return (f"{where} ({r.variant} against {reference}): {r.measure} {figure(value, unit)} instead of "
            f"{figure(r.reference, unit)} (change {figure(r.value, unit, signed=True, with_unit=False)} "
            f"{interval(r.low, r.high, unit, signed=True)}, {'paired' if paired else 'independent games'}; "
            "significant after Holm's correction).")


def _factor_changes(ctx: Report, changes: pd.DataFrame, factor: str) -> pd.DataFrame:
    """The changes of one factor, those under the headline line-up (rules) first, each group in rank order."""
    mine = changes[changes["factor"] == factor] if "factor" in changes.columns else changes
    if factor == "rules" and len(mine):
        head = ctx.lineup_of(ctx.headline_variant)
        under = mine["variant"].map(ctx.lineup_of) == head
        mine = pd.concat([mine[under], mine[~under]])
    return mine


def stability_lines(ctx: Report, limit: int = FRONT_CHANGES) -> list[str]:
    """"Has it stopped moving?": each headline measure under the headline line-up and a stronger one, with the
    difference and the verdict (those that still move first); or why the question is not answered."""
    if "stability" not in ctx.results or len(ctx.variant_ids) < 2:
        return []
    table = ctx["stability"]
    t = ctx.lineups
    head = t[t["role"] == "headline"]
    if table.empty:
        if head.empty or len(t) < 2:
            return []
        return [f"Has it stopped moving? No line-up stronger than {head['lineup'].iloc[0]} played the baseline's "
                "rules, so whether these figures change under better play is not tested here."]
    out = []
    for stronger, grp in table.groupby("stronger_lineup", sort=False):
        moving = grp[grp["verdict"] == "still moves with skill"]
        out.append(f"Has it stopped moving? Under line-up {stronger} (stronger than {grp['lineup'].iloc[0]}), "
                   f"{len(moving)} of {len(grp)} headline measures still move with skill; the others are stable "
                   "under stronger play within their intervals.")
        ordered = pd.concat([moving, grp[grp["verdict"] != "still moves with skill"]])
        for r in ordered.head(limit).itertuples():
            unit = str(r.unit)
            out.append(f"{capital(r.metric)}: {figure(r.value, unit)} under {r.lineup}, "
                       f"{figure(r.stronger_value, unit)} under {r.stronger_lineup} (change "
                       f"{figure(r.difference, unit, signed=True, with_unit=False)} "
                       f"{interval(r.low, r.high, unit, signed=True)}, "
                       f"{'paired' if r.paired else 'independent games'}): {r.verdict}"
                       + _stable_power(r, unit) + ".")
    return out


def _stable_power(r: Any, unit: str) -> str:
    """After a "stable under stronger play" verdict: what its games could not rule out and could have seen; for a
    zero-width interval (every game pair gave the same difference) only that, since no spread was measured."""
    if r.verdict != "stable under stronger play":
        return ""
    detect = detectable_change(r.low, r.high)
    if missing(detect) or detect <= 0:
        return " (every game pair gave the same difference, so the games measured no spread to detect a move against)"
    return (f" (a move of up to {change_size(r.largest_move, unit)} is not ruled out; these games detect one 80% of "
            f"the time only from {change_size(detect, unit)} on)")


#: The column naming the smallest change a comparison's games detect (:func:`~trustme_analysis.stats.power.
#: detectable_change`): a "not significant" or "stable" is no evidence of no change below it.
DETECTABLE = "detectable (80% power)"


def _quiet_power(ctx: Report, factor: str) -> str:
    """For a factor none of whose comparisons is significant: what the largest of them could have seen ("; the
    largest, ..., is below the 7 points these games detect 80% of the time"); empty without comparisons."""
    comparisons = ctx["comparisons"]
    comp = comparisons[comparisons["factor"] == factor] if "factor" in comparisons.columns else comparisons
    if comp.empty:
        return ""
    r = biggest_changes(comp, limit=1).iloc[0]
    unit = str(r["unit"])
    detect = detectable_change(r["low"], r["high"])
    if missing(detect) or detect <= 0 or missing(r["difference"]):
        return ""  # nothing to say of a zero-width interval (the same games, the same values)
    return (f"; the largest, {r['metric']} in {r['variant']} against {r['reference']} (change "
            f"{figure(r['difference'], unit, signed=True, with_unit=False)} "
            f"{interval(r['low'], r['high'], unit, signed=True)}), is within chance, which does not mean no change: "
            f"these games detect a change 80% of the time only from {change_size(detect, unit)} on")


def headline_lines(ctx: Report, limit: int = FRONT_CHANGES) -> list[str]:
    """The headline findings as sentences, each with its 95% interval: which line-up they come from with its trust
    verdict, seat balance, the trust checks, whether the figures still move under stronger players, then the
    significant changes of each factor (from the results set's ``headlines``, ``lineups`` and ``stability``).
    ``limit``: how many measures of each stronger line-up and changes of each factor are spelled out (the others
    are counted and left to their pages)."""
    h = ctx["headlines"]
    intro = headline_intro(ctx)
    out = [intro] if intro else []
    lead = ctx.headline_variant if intro else None
    if seat_panels(ctx):
        # Page 1's figure shows every seat's rate: the sentences give the lead's first seat and the tests.
        out += seat_lines(ctx, lead=lead)[:1] + seat_test_lines(ctx)
    else:
        out += seat_lines(ctx, lead=lead)
    out += trust_lines(ctx)
    out += stability_lines(ctx, limit)
    changes = h[h["kind"] == "change"]
    if len(ctx.variant_ids) < 2:
        out.append("Only one variant was played, so nothing is compared.")
        return out
    factors = [f for f in ("rules", "line-up")
               if "factor" not in ctx["comparisons"].columns or (ctx["comparisons"]["factor"] == f).any()]
    for factor in factors:
        mine = _factor_changes(ctx, changes, factor)
        family = ("rule comparisons" if factor == "rules" else "line-up comparisons")
        if not len(mine):
            out.append(f"No {family[:-1]} differs significantly on any compared measure (Holm's correction within "
                       f"the {family}){_quiet_power(ctx, factor)}.")
            continue
        out.append(FACTOR_WORDS[factor].format(reference=ctx.lineup_of(ctx.baseline)) + ":")
        out += [change_sentence(ctx, r) for r in mine.head(limit).itertuples()]
        if len(mine) > limit:
            more = len(mine) - limit
            out.append(f"{more} more significant change{'s are' if more > 1 else ' is'} on the page "
                       "\"What changed most\".")
    return out


#: Characters of a line of page 1's text: its sentences run the page's full width (the other flowing pages keep
#: :data:`~trustme_analysis.report.layout.LINE_CHARS`, a margin for wide letters).
ANSWER_CHARS = 160


def _answer_lines(ctx: Report, limit: int, figure: bool = False) -> list[Line]:
    """Page 1's question, caveats and headline (:func:`headline_lines` with ``limit``), before its digest; under a
    ``figure`` the headings are a size smaller, to leave the sentences room."""
    m = ctx.manifest
    head = "h2" if figure else "h1"
    lines: list[Line] = []
    lines += text_lines("Question", head)
    lines += text_lines(str(m.get("question") or "(the spec states no question)"), width=ANSWER_CHARS)
    lines.append(Line(""))
    caveats = coverage_lines(ctx)
    if caveats:
        lines += text_lines("Read with care", "h2")
        for sentence in caveats:
            lines += text_lines("- " + sentence, indent=2, width=ANSWER_CHARS)
        lines.append(Line(""))
    lines += text_lines("What the games say (95% intervals in brackets)", head)
    for sentence in headline_lines(ctx, limit):
        lines += text_lines(("" if sentence.endswith(":") else "- ") + sentence, indent=2, width=ANSWER_CHARS)
    return lines


# --- page 1's figure: who wins from which seat -----------------------------------------------------------------------

#: Panels of page 1's seat figure at most (one per rule variant); the seat-balance page shows every variant.
SEAT_PANELS = 6
#: Where page 1's text starts under its seat figure (figure fraction): the figure takes the page's head; under the
#: lower figure drawn when the text would not fit otherwise.
FIGURE_TEXT_TOP, COMPACT_TEXT_TOP = 0.61, 0.67
#: The top of the seat figure's panels, the room under them for their tick labels, and the room at the right kept for
#: the legend (figure fractions).
_PANELS_TOP, _TICKS_ROOM, _LEGEND_W = 0.845, 0.035, 0.13
_MARKERS = "osD^v<>p"


def seat_panels(ctx: Report) -> list[dict[str, Any]]:
    """Page 1's seat figure as data: one panel per rule variant (a player count, ...; page 1 draws the first
    :data:`SEAT_PANELS`), each with one series per line-up: ``{"title", "fair": [...], "series": [{"lineup",
    "variant", "rates"}]}`` (``rates``: that variant's rows of the results set's ``seat_win_rates``, by seat); empty
    when the results set has no seat win rates."""
    results = getattr(ctx, "results", None)
    if results is None or "seat_win_rates" not in results:
        return []
    rates = ctx["seat_win_rates"]
    variants = [v for v in ctx.variant_ids if (rates["variant"] == v).any()]
    if not variants:
        return []
    # The rules of a variant: its label less the line-up (a label not of key=value pairs is its own rules).
    rules: dict[str, str] = {}
    for v in variants:
        pairs = label_pairs(results.variant_label(v))
        rules[v] = (", ".join(f"{k}={x}" for k, x in pairs if k != "lineup") if pairs is not None
                    else results.variant_label(v))
    keys = list(dict.fromkeys(rules.values()))
    titles = axis_words({k: k for k in keys}) if len(keys) > 1 else {keys[0]: label_words(keys[0])}
    panels = []
    for key in keys:
        series = []
        for v in (v for v in variants if rules[v] == key):
            mine = rates[rates["variant"] == v].sort_values("seat")
            series.append({"lineup": ctx.lineup_of(v) or ctx.variant_short(v), "variant": v, "rates": mine})
        fair = sorted({round(float(x), 9) for s in series for x in s["rates"]["fair"] if not missing(x)})
        # A grid of line-ups alone leaves the rules nothing to name them by.
        panels.append({"title": titles.get(key, key) or "the spec's rules", "fair": fair, "series": series})
    return panels


def _fair_label(fair: float, seats: int) -> str:
    return "fair share (1/players)" if abs(fair - 1.0 / seats) < 1e-9 else "fair share (ties counted)"


def draw_seat_figure(fig, panels: list[dict[str, Any]], rest: int = 0,
                     bottom: float = FIGURE_TEXT_TOP + _TICKS_ROOM) -> None:
    """Page 1's figure on ``fig``: per panel (a rule variant) each seat's share of games won under each line-up
    (markers dodged, one colour and shape per line-up) with its 95% interval, and the fair share as a dashed line;
    a caption above names what is drawn, ``rest`` panels not drawn are named in it. ``bottom``: where the panels
    end (figure fraction), their tick labels under it."""
    lineups = list(dict.fromkeys(s["lineup"] for p in panels for s in p["series"]))
    style = {name: (f"C{i % 10}", _MARKERS[i % len(_MARKERS)]) for i, name in enumerate(lineups)}
    caption = ("Who wins from which seat: each seat's share of games won (95% interval, Wilson) under each line-up; "
               "dashed: the fair share.")
    if rest:
        caption += f" {rest} more rule variant(s) on the seat-balance page."
    fig.text(LEFT, TOP, plain(wrap(caption, 140)), fontsize=9, va="top", fontweight="bold", gid="figure-caption")
    n = len(panels)
    gap = 0.035
    width = (RIGHT - LEFT - _LEGEND_W - 0.03 - gap * (n - 1)) / n
    top = max([float(x) for p in panels for s in p["series"] for x in s["rates"]["high"] if not missing(x)],
              default=1.0)
    axes = []
    for i, panel in enumerate(panels):
        ax = fig.add_axes((LEFT + 0.03 + i * (width + gap), bottom, width, _PANELS_TOP - bottom),
                          sharey=axes[0] if axes else None)
        axes.append(ax)
        seats = max((len(s["rates"]) for s in panel["series"]), default=1)
        k = len(panel["series"])
        step = min(0.18, 0.7 / max(k, 1))
        for j, s in enumerate(panel["series"]):
            r = s["rates"]
            x = r["seat"].to_numpy(dtype=float) + (j - (k - 1) / 2) * step
            est = r["win_rate"].to_numpy(dtype=float)
            err = np.nan_to_num(np.clip(np.vstack([est - r["low"].to_numpy(dtype=float),
                                                   r["high"].to_numpy(dtype=float) - est]), 0, None))
            color, marker = style[s["lineup"]]
            ax.errorbar(x, est, yerr=err, fmt=marker, color=color, markersize=4.5, capsize=2.5, linewidth=1.1,
                        label=words(s["lineup"]))
        for fair in panel["fair"]:
            ax.axhline(fair, color="0.35", linestyle="--", linewidth=1, label=_fair_label(fair, seats), zorder=0)
        ax.set_xticks(range(seats), labels=[f"seat {x}" for x in range(seats)])
        ax.set_xlim(-0.5, seats - 0.5)
        ax.set_title(panel["title"], fontsize=9.5)
        if i:
            ax.tick_params(labelleft=False)
    axes[0].set_ylim(0, min(1.0, top * 1.12 + 0.02))
    axes[0].set_ylabel("share of games won")
    percent_axis(axes[0])
    # One legend for all panels: every line-up, then each distinct fair-share line, once.
    handles: dict[str, Any] = {}
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    handles = dict(sorted(handles.items(), key=lambda item: item[0].startswith("fair share")))
    fig.legend(list(handles.values()), list(handles.keys()), loc="upper left", fontsize=8, title="line-up",
               title_fontsize=8, bbox_to_anchor=(RIGHT - _LEGEND_W + 0.01, _PANELS_TOP), frameon=False)


def add_answer_page(ctx: Report) -> None:
    """Page 1: what was asked and what the games say, every figure with its 95% interval; drawn after the other
    pages so that it can repeat their most important findings."""
    m = ctx.manifest
    per_variant = _games_per_variant(ctx)
    closing = [Line("")] + text_lines(
        f"From {count(sum(per_variant.values()))} games of {len(ctx.variant_ids)} variant(s) of {m.get('game', '?')} "
        f"(master seed {m.get('seed', '?')}). The contents follow on the next page; a glossary of every term is on "
        "the last page, and codes such as v03 are explained at the foot of each page that uses them.",
        width=ANSWER_CHARS,
    )
    panels = seat_panels(ctx)
    # The seat figure leads the page; the text starts under it (at the page's head when there is no figure).
    # Spell out fewer measures and changes per group (each group's others are counted, and all are on their pages)
    # until the answer fits one page, and then, if need be, draw the figure lower: a continuation page holding two
    # lines helps no reader.
    tries = [(FIGURE_TEXT_TOP if panels else TOP, limit) for limit in range(FRONT_CHANGES, 0, -1)]
    if panels:
        tries.append((COMPACT_TEXT_TOP, 1))
    for start, limit in tries:
        lines = _answer_lines(ctx, limit, figure=bool(panels))
        if page_fill(lines + closing, start) <= SQUEEZE_LIMIT:
            break
    # The findings gathered from the other pages are a digest: as many as leave the answer on one page (each is on
    # its own page too), rather than a continuation page holding a line or two.
    ranked = [s for _, s in sorted(ctx.front_findings, key=lambda item: item[0])][:FRONT_FINDINGS]
    for keep in range(len(ranked), -1, -1):
        digest: list[Line] = []
        if keep:
            digest = [Line("")] + text_lines("From the pages that follow", "h2")
            for sentence in ranked[:keep]:
                digest += text_lines("- " + sentence, indent=2, width=ANSWER_CHARS)
        if page_fill(lines + digest + closing, start) <= SQUEEZE_LIMIT or keep == 0:
            break
    title = ctx.game_title
    pages = flow_pages(title, lines + digest + closing, first_top=start)
    if panels:
        draw_seat_figure(pages[0], panels[:SEAT_PANELS], rest=max(len(panels) - SEAT_PANELS, 0),
                         bottom=start + _TICKS_ROOM)
    ctx.add_all(pages, title, "answer")


# --- what was run -----------------------------------------------------------------------------------------------------


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
                knob_text = ", ".join(setting(k, v) for k, v in knobs.items() if k != "policy")
                if "policy" in knobs:
                    knob_text = ", ".join(x for x in (knob_text, "the solved policy") if x)
                parts.append(f"seat {i}: {in_words(s.get('bot', '?'))}" + (f" ({knob_text})" if knob_text else ""))
            else:
                parts.append(f"seat {i}: {in_words(s)}")
        return "; ".join(parts)
    return in_words(json.dumps(seats, sort_keys=True))


def _chunking_text(manifest: dict) -> str:
    """The chunk size, or the sizes chosen per variant from the measured cost of a game (``chunk_size = "auto"``)."""
    sizes = manifest.get("chunk_sizes")
    if manifest.get("chunk_size") != "auto" or not isinstance(sizes, dict) or not sizes:
        return str(manifest.get("chunk_size", "?"))
    # A variant of fewer games than its chunk size was stored as one chunk of all its games.
    games = {str(v.get("id")): v.get("games") for v in manifest.get("variants", []) if isinstance(v, dict)}
    by_size: dict[int, list[str]] = {}
    for vid, size in sorted(sizes.items()):
        n = games.get(str(vid))
        by_size.setdefault(min(int(size), n) if isinstance(n, int) and n > 0 else int(size), []).append(str(vid))
    if len(by_size) == 1:
        return f"{count(next(iter(by_size)))} (chosen from the measured cost of a game)"
    parts = [f"{count(size)} ({', '.join(vids)})" for size, vids in sorted(by_size.items(), reverse=True)]
    return "chosen from the measured cost of a game: " + "; ".join(parts)


def _timing_text(timing: dict) -> str:
    """The run's timing in a sentence, leaving out what the manifest does not record (a partial run has no end)."""
    parts = []
    if timing.get("started"):
        parts.append(f"started {timing['started']}")
    if timing.get("finished"):
        parts.append(f"finished {timing['finished']}")
    elif timing.get("started"):
        parts.append("not finished")
    if not missing(timing.get("seconds")):
        parts.append(f"{number(timing['seconds'])} s")
    if not missing(timing.get("games_per_second")):
        parts.append(f"{number(timing['games_per_second'])} games a second")
    if timing.get("workers"):
        parts.append(f"on {timing['workers']} worker(s)" + (f" ({timing['backend']})" if timing.get("backend")
                                                            else ""))
    return ("Run: " + ", ".join(parts) + ".") if parts else ""


def add_front_pages(ctx: Report) -> None:
    """What was run: the variants with their labels, games, seed, versions, timing and every assumption in force."""
    m = ctx.manifest
    per_variant = _games_per_variant(ctx)
    lines: list[Line] = []
    lines += text_lines("What was run", "h1")
    asked = m.get("games_per_variant")
    fewer = sorted({(str(v.get("lineup")), v["games"]) for v in m.get("variants", [])
                    if isinstance(v.get("games"), int) and isinstance(asked, int) and v["games"] < asked})
    fewer_text = "".join(f"; {count(g)} for line-up {name}" for name, g in fewer)
    facts = [
        f"Game: {m.get('game', '?')}.  Variants with records: {len(ctx.variant_ids)} of "
        f"{len(m.get('variants', [])) or len(ctx.variant_ids)}.  Baseline: {ctx.variant_name(ctx.baseline)}.",
        f"Games played: {count(sum(per_variant.values()))} in all "
        f"({count(asked) if isinstance(asked, int) else '?'} asked per variant{fewer_text}).  "
        f"Master seed: {m.get('seed', '?')}. "
        f" Games per stored chunk: {_chunking_text(m)}.  "
        f"Sweep complete: {'yes' if m.get('complete', True) and not missing_variants(ctx) else 'NO: results are partial'}.",
    ]
    timing = _timing_text(m.get("timing") or {})
    if timing:
        facts.append(timing)
    if m.get("spec_path"):
        facts.append(f"Spec file: {m['spec_path']}")
    for f in facts + coverage_lines(ctx):
        lines += text_lines(f)
    versions = m.get("versions") or {}
    if versions:
        # Package names as their distributions write them (trustme-analysis, open-spiel).
        lines += text_lines("Versions: " + ", ".join(f"{k.replace('_', '-')} {v}" for k, v in versions.items()) + ".")
    lines.append(Line(""))
    lines += text_lines("The variants (pages name them by their codes)", "h1")
    lines += text_lines("Rule parameters are written in words here; a spec writes them with underscores between the "
                        "words.")
    known = {v.get("id"): v for v in m.get("variants", [])}
    ids = list(ctx.variant_ids) + missing_variants(ctx)
    # Print the rule parameters all variants share once; each variant then lists only what sets it apart.
    # Parameters left empty (``money_each=``: one value for every player) say nothing.
    params = {vid: {k: v for k, v in game_string_params(str(known.get(vid, {}).get("game_string", ""))).items() if v}
              for vid in ids}
    common = dict(params[ids[0]]) if params else {}
    for p in params.values():
        common = {k: v for k, v in common.items() if p.get(k) == v}
    if common:
        lines += text_lines("Rule parameters shared by all variants: "
                            + ", ".join(setting(k, v) for k, v in sorted(common.items())) + ".")
    for vid in ids:
        v = known.get(vid, {})
        tag = " (baseline)" if vid == ctx.baseline else ""
        games = f"{count(per_variant[vid])} games" if vid in per_variant else "no records in this folder"
        lines += [Line(x.text, x.style, f"{vid}: {ctx.variant_short(vid)}" if i == 0 else None)
                  for i, x in enumerate(text_lines(f"{vid}{tag}: {ctx.variant_label(vid)} \u2014 {games}", indent=6))]
        own = {k: val for k, val in params.get(vid, {}).items() if k not in common}
        if own:
            lines += text_lines("    rule parameters: " + ", ".join(setting(k, val) for k, val in sorted(own.items())),
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

    with_assumptions = [vid for vid in ctx.variant_ids if vid in assumptions] or list(ctx.variant_ids)
    keys = {vid: [key(a) for a in assumptions.get(vid, [])] for vid in with_assumptions}
    common_keys = [k for k in keys[with_assumptions[0]] if all(k in ks for ks in keys.values())]
    groups: dict[str, list[str]] = defaultdict(list)
    for vid, ks in keys.items():
        groups[json.dumps([k for k in ks if k not in common_keys])].append(vid)
    if assumptions:
        sections = [("all variants", common_keys)]
        sections += [("variants " + ", ".join(vids) + " also", json.loads(rest))
                     for rest, vids in groups.items() if json.loads(rest)]
        for who, ks in sections:
            lines += text_lines(f"In {who}:", "h2")
            if not ks:
                lines += text_lines("(none recorded)", indent=4)
            for a in map(json.loads, ks):
                lines += text_lines(
                    f"- {setting(a.get('parameter', '?'), a.get('value', '?'))}: {in_words(a.get('text', ''))}",
                    indent=4)
    title = f"{ctx.game_title}: what was run"
    bookmarks: dict[int, list[str]] = {}
    ctx.add_all(flow_pages(title, lines, bookmarks=bookmarks), "What was run and the rule assumptions", "front",
                bookmarks=bookmarks)


# --- the summary ------------------------------------------------------------------------------------------------------


def _baseline_at_a_glance(ctx: Report) -> str:
    """One sentence: the headline variant's seat win rates and its value on every compared measure."""
    h = ctx["headlines"]
    seats = h[h["kind"] == "seat"]
    rates = " / ".join(percent(v) for v in seats["value"])
    parts = [f"seat win rates {rates} (fair {percent(1 / max(len(seats), 1))} each)"]
    for r in h[h["kind"] == "baseline"].itertuples():
        parts.append(f"{r.measure} {estimate(r.value, r.low, r.high, r.unit)}")
    games = count(seats["games"].iloc[0]) if len(seats) else "0"
    head = ctx.headline_variant
    who = "The baseline" if head == ctx.baseline else "The headline variant"
    return (f"{who} {ctx.variant_name(head)}{ctx.players_tag(head)} at a glance ({games} games; 95% intervals): "
            + "; ".join(parts) + ".")


#: The summary page of each factor: its title and what the page's subtitle says is compared.
FACTOR_PAGES = {
    "rules": ("What changed most: the rules, under the same line-up",
              "Each rule variant against the baseline's rules played by the same line-up (only the rules move)."),
    "line-up": ("What changed most: the players, under the same rules",
                "Each line-up against the reference line-up {reference} under the same rules (only the players "
                "move)."),
}


def _factors(comparisons: pd.DataFrame) -> list[str]:
    if "factor" not in comparisons.columns:  # a results set computed before the factors: one family
        return ["rules"] if len(comparisons) else []
    return [f for f in ("rules", "line-up") if (comparisons["factor"] == f).any()]


def _of_factor(comparisons: pd.DataFrame, factor: str) -> pd.DataFrame:
    if "factor" not in comparisons.columns:
        return comparisons.assign(factor=factor, reference=comparisons.get("reference", ""), held="", moved="")
    return comparisons[comparisons["factor"] == factor].reset_index(drop=True)


def add_summary_page(ctx: Report) -> None:
    """One page per factor (the rules, the players): the comparisons with the biggest (significant first) changes,
    each against the variant that differs from it in that factor only; then, where the spec has a line-up stronger
    than the headline's, whether the headline figures still move under it."""
    comparisons = ctx["comparisons"]
    glance = _baseline_at_a_glance(ctx)
    factors = _factors(comparisons)
    if not factors:
        title = "What changed most"
        fig = new_page(title, "Each change is a variant's value minus its reference's, with its 95% interval.")
        alone = ("Only one variant was played, so there is nothing to compare. The following pages describe this "
                 "variant." if len(ctx.variant_ids) < 2 else
                 "No two variants differ in one factor only (the rules or the players), so nothing is compared.")
        fig.text(LEFT, 0.8, wrap(alone, 150), fontsize=10, va="top")
        fig.text(LEFT, 0.72, wrap(glance, 165), fontsize=9, va="top")
        ctx.add(fig, title, "summary", findings=baseline_lines(ctx))
        return
    for factor in factors:
        comp = _of_factor(comparisons, factor)
        title, what = FACTOR_PAGES[factor]
        what = what.format(reference=ctx.lineup_of(ctx.baseline))
        fig = new_page(title, f"{what} Each change is the variant's value minus its reference's, with its 95% "
                       "interval (paired where both played the same games); significant = too large to be chance "
                       "after Holm's correction over this page's family of comparisons.")
        n_sig = int(comp["significant"].astype(bool).sum())
        top = biggest_changes(comp, limit=14)
        kind = "rule variant(s)" if factor == "rules" else "line-up variant(s)"
        findings = [f"{comp['variant'].nunique()} {kind} were each compared with their reference on "
                    f"{comp['metric'].nunique()} measures: {n_sig} of the {len(comp)} comparisons differ "
                    "significantly."]
        sig = top[top["significant"].astype(bool)]
        if len(sig):
            r = sig.iloc[0]
            findings.append(
                f"The largest change: {r['metric']} in {ctx.variant_name(r['variant'])}{ctx.players_tag(r['variant'])}"
                f" against {r['reference']}, {figure(r['value'], r['unit'])} against "
                f"{figure(r['baseline_value'], r['unit'])} (change "
                f"{figure(r['difference'], r['unit'], signed=True, with_unit=False)} "
                f"{interval(r['low'], r['high'], r['unit'], signed=True)}; {moved_words(str(r['moved']))}).")
        else:
            findings.append("No change is larger than chance allows; the table lists the largest ones anyway"
                            f"{_quiet_power(ctx, factor)}.")
        findings += baseline_lines(ctx)
        units = [str(u) for u in top["unit"]]
        table = pd.DataFrame(
            {
                "variant": [f"{v}{' *' if ctx.exploitable(v) else ''}" for v in top["variant"]],
                "against": [f"{v}{' *' if ctx.exploitable(v) else ''}" for v in top["reference"]],
                "held the same" if factor == "rules" else "rules (the same)": [label_words(x) for x in top["held"]],
                "measure (unit)": [f"{m} ({u})" for m, u in zip(top["metric"], units)],
                "reference's value": [figure(x, u, with_unit=False) for x, u in zip(top["baseline_value"], units)],
                "variant's value": [figure(x, u, with_unit=False) for x, u in zip(top["value"], units)],
                "change [95% interval]": [estimate(d, lo, hi, u, signed=True, with_unit=False) for d, lo, hi, u in
                                          zip(top["difference"], top["low"], top["high"], units)],
                "Holm p-value": [p_value(p) for p in top["p_holm"]],
                "significant": [yes_no(s) for s in top["significant"]],
                DETECTABLE: [detectable_size(detectable_change(lo, hi), u)
                             for lo, hi, u in zip(top["low"], top["high"], units)],
            }
        )
        box, widths = (LEFT, 0.36, RIGHT - LEFT, 0.50), [0.6, 0.6, 1.3, 2.9, 0.9, 0.9, 1.7, 0.8, 0.9, 1.0]
        # The largest changes that fit at their full height once the findings push the table down (every comparison
        # is on the pages the note names).
        top = top.head(rows_that_fit(box, table, widths, findings=findings))
        ax = fig.add_axes(box)
        draw_table(ax, table.head(len(top)), widths=widths)
        fig.text(LEFT, 0.33, wrap(glance, 175), fontsize=8.5, va="top")
        stars = any(ctx.exploitable(v) for v in list(top["variant"]) + list(top["reference"]))
        foot_note(fig, ("* players the trust check found exploitable. " if stars else "")
                  + f"{DETECTABLE}: the smallest change the comparison's games see 80% of the time (5% level). "
                  "Every comparison is on the pages \"One factor at a time\", and in the results set's "
                  "stats/comparisons.csv.")
        ctx.add(fig, title, "summary", findings=[capital(f) for f in findings], front=0,
                variants=list(dict.fromkeys(list(top["variant"]) + list(top["reference"]))))
    _stability_page(ctx)


def _stability_page(ctx: Report) -> None:
    """The headline measures under the headline line-up and under each stronger one (the results set's
    ``stability``): the difference and whether the figure has stopped moving."""
    if "stability" not in ctx.results or ctx["stability"].empty:
        return
    table = ctx["stability"]
    units = [str(u) for u in table["unit"]]
    title = "Has it stopped moving? The headline figures under stronger players"
    fig = new_page(title, "Under the baseline's rules: each compared measure under the headline line-up and under a "
                   "stronger one, the change (stronger minus headline) with its unadjusted 95% interval, paired where "
                   "both played the same games. Still moves with skill: the interval excludes no change; stable: "
                   "it does not (the largest move it allows is given).")
    shown = pd.DataFrame({
        "measure (unit)": [f"{m} ({u})" for m, u in zip(table["metric"], units)],
        "headline line-up": [f"{lu} ({v})" for lu, v in zip(table["lineup"], table["variant"])],
        "its value": [figure(x, u, with_unit=False) for x, u in zip(table["value"], units)],
        "stronger line-up": [f"{lu} ({v})" for lu, v in zip(table["stronger_lineup"], table["stronger"])],
        "its value ": [figure(x, u, with_unit=False) for x, u in zip(table["stronger_value"], units)],
        "change [95%]": [estimate(d, lo, hi, u, signed=True, with_unit=False) for d, lo, hi, u in
                         zip(table["difference"], table["low"], table["high"], units)],
        "verdict": table["verdict"],
        DETECTABLE: [detectable_size(detectable_change(lo, hi), u)
                     for lo, hi, u in zip(table["low"], table["high"], units)],
    })
    findings = [s for s in stability_lines(ctx, limit=2)]
    box, widths = (LEFT, BOTTOM + 0.02, RIGHT - LEFT, 0.62), [3.0, 1.3, 0.8, 1.3, 0.8, 1.7, 1.8, 1.0]
    note = (f"{DETECTABLE}: the smallest move these games see 80% of the time (5% level). Also in the results "
            "set's stats/stability.csv.")
    fits = rows_that_fit(box, shown.head(24), widths, findings=findings[:3], note_lines=note_lines(note) + 1)
    ax = fig.add_axes(box)
    draw_table(ax, shown.head(min(24, fits)), widths=widths)
    if len(shown) > min(24, fits):
        # Only when rows do not fit: the rest are in the results set.
        note = (f"{DETECTABLE}: the smallest move these games see 80% of the time (5% level). The first "
                f"{min(24, fits)} of {len(shown)} rows; every row is in the results set's stats/stability.csv.")
    foot_note(fig, note)
    ctx.add(fig, title, "summary", findings=findings[:3],
            variants=list(dict.fromkeys(list(table["variant"]) + list(table["stronger"]))))
