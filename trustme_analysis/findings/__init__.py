"""What a game's rules say under competent play: a designer's questions answered from stored sweeps.

A game names its questions in its registry part ``findings`` (a sequence of :class:`Question`); each is one headline
measure of the results set (a row of its ``comparisons`` table, factor ``line-up``). For every rule variant of a
sweep whose grid put the heuristic line-up beside a more competent one (trained seats, else search) under the same
rules, :func:`answer` reads

- the measure under the heuristic players and under the most competent line-up (``lineup_comparison``: value and
  95% interval),
- their difference (the ``comparisons`` row: paired over games that share their seeds, else unpaired; significant
  after Holm's correction over the sweep's line-up comparisons), so whether the figure *moved with the players*,
- and, where a line-up stronger still played the same rules (say search over the trained policy), the results set's
  ``stability`` verdict: whether the figure *stopped moving* under stronger play,

and says in one sentence what that means for the rule (:func:`meaning`). Nothing is typed by hand: the docs' findings
table is this module's output (``python -m trustme_analysis.findings OUTDIR ... --rst FILE``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyspiel

from trustme_analysis import results
from trustme_analysis.registry import find_game
from trustme_analysis.report.words import estimate, figure, interval, missing

#: Competence levels of the ``lineups`` table (:mod:`trustme_analysis.results.comparisons`): the heuristic's.
HEURISTIC_LEVEL = 1

#: The columns of :func:`answer`'s table, in order.
COLUMNS = ("game", "key", "question", "rules", "measure", "unit", "heuristic_lineup", "competent_lineup",
           "heuristic", "heuristic_low", "heuristic_high", "competent", "competent_low", "competent_high", "games",
           "difference", "low", "high", "paired", "moved", "stronger_lineup", "stopped_moving", "meaning", "outdir")


@dataclass(frozen=True)
class Question:
    """One question a designer asks of a game, answered by a headline measure (see the module docstring).

    ``measure``: the metric's name in the results set's ``comparisons`` table. ``reference``: the value that means
    "no effect" (0 for a seat's advantage over its fair share), or ``None`` where there is none. ``about``: the
    effect in words, for the meaning sentence ("the first seat's edge"). ``rules``: rule parameters a variant must
    have (say ``{"players": 4}``); empty asks it of every variant.
    """

    key: str
    question: str
    measure: str
    about: str
    reference: float | None = None
    rules: tuple[tuple[str, Any], ...] = ()


class FindingsError(ValueError):
    """A folder that cannot answer: it holds no sweep, or its game names no questions (one line names which)."""


def questions_of(game: str) -> Sequence[Question]:
    """The questions game ``game`` (a pyspiel short name) names; refused when it names none."""
    entry = find_game(game)
    found = entry.part("findings") if entry is not None else None
    if not found:
        raise FindingsError(f"game={game!r} names no findings questions (registry part 'findings')")
    return tuple(found)


def _params(game_string: str) -> dict[str, Any]:
    return dict(pyspiel.load_game(game_string).get_parameters())


def _rules_label(label: str) -> str:
    """A variant's label without its line-up ("players=2, lineup=trained" -> "players=2")."""
    parts = [p for p in str(label).split(", ") if not p.startswith("lineup=")]
    return ", ".join(parts) or "the spec's rules"


def answer(outdir: str | Path) -> pd.DataFrame:
    """The findings of the sweep in ``outdir``: one row per question and rule variant (:data:`COLUMNS`); empty when
    the sweep played no line-up beside the heuristic one. Raises :class:`FindingsError` (one line) when ``outdir``
    holds no sweep or its game names no questions."""
    try:
        res = results.load(outdir)
    except (results.ResultsError, FileNotFoundError, ValueError) as exc:
        raise FindingsError(str(exc)) from None
    game = str(res.manifest.get("game", ""))
    asked = questions_of(game)
    variants = res["variants"].set_index("variant")
    lineups = res["lineups"]
    levels = dict(zip(lineups["lineup"], lineups["level"].astype(int)))
    comp = res["comparisons"]
    comp = comp[comp["factor"] == "line-up"] if "factor" in comp.columns else comp.iloc[0:0]
    figures = res["lineup_comparison"].set_index(["variant", "measure"])
    stable = res["stability"]
    rows = []
    for q in asked:
        mine = comp[comp["metric"] == q.measure]
        best: dict[str, pd.Series] = {}
        for _, c in mine.iterrows():
            ref_lineup, lineup = variants.loc[c["reference"], "lineup"], variants.loc[c["variant"], "lineup"]
            if levels.get(ref_lineup) != HEURISTIC_LEVEL or levels.get(lineup, 0) <= HEURISTIC_LEVEL:
                continue
            params = _params(variants.loc[c["variant"], "game_string"])
            if any(params.get(k) != v for k, v in q.rules):
                continue
            # The most competent line-up per rule variant (the comparisons are each against the heuristic's).
            held = best.get(c["reference"])
            if held is None or levels[lineup] > levels[variants.loc[held["variant"], "lineup"]]:
                best[c["reference"]] = c
        for reference, c in best.items():
            rows.append(_row(q, game, outdir, variants, figures, stable, reference, c))
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _row(q: Question, game: str, outdir: str | Path, variants: pd.DataFrame, figures: pd.DataFrame,
         stable: pd.DataFrame, reference: str, c: pd.Series) -> dict[str, Any]:
    h, t = figures.loc[(reference, q.measure)], figures.loc[(c["variant"], q.measure)]
    st = stable[(stable["variant"] == c["variant"]) & (stable["metric"] == q.measure)] if len(stable) else stable
    stronger = str(st["stronger_lineup"].iloc[0]) if len(st) else ""
    verdict = str(st["verdict"].iloc[0]) if len(st) else "not tested"
    row = {
        "game": game, "key": q.key, "question": q.question, "rules": _rules_label(variants.loc[c["variant"], "label"]),
        "measure": q.measure, "unit": str(c["unit"]),
        "heuristic_lineup": str(variants.loc[reference, "lineup"]), "competent_lineup": str(variants.loc[c["variant"],
                                                                                                        "lineup"]),
        "heuristic": float(h["value"]), "heuristic_low": float(h["low"]), "heuristic_high": float(h["high"]),
        "competent": float(t["value"]), "competent_low": float(t["low"]), "competent_high": float(t["high"]),
        "games": int(min(h["games"], t["games"])),
        "difference": float(c["difference"]), "low": float(c["low"]), "high": float(c["high"]),
        "paired": bool(c["paired"]), "moved": bool(c["significant"]),
        "stronger_lineup": stronger, "stopped_moving": verdict, "outdir": str(outdir),
    }
    row["meaning"] = meaning(q, row)
    return row


def _excludes(low: float, high: float, value: float | None) -> bool:
    return value is not None and not missing(low) and not missing(high) and (low > value or high < value)


def meaning(q: Question, row: dict[str, Any]) -> str:
    """What the row says about the rules, in one or two sentences: whether the figure moved from the heuristic to
    the competent line-up (the players, not the rule, made the heuristic figure), whether an effect with a
    ``reference`` is there under competent play (a rule effect to act on), and whether it still moves under a
    stronger line-up."""
    unit = row["unit"]
    h = estimate(row["heuristic"], row["heuristic_low"], row["heuristic_high"], unit)
    t = estimate(row["competent"], row["competent_low"], row["competent_high"], unit)
    who = f"{row['competent_lineup']} players"
    if row["moved"]:
        text = (f"Moved with the players (change {figure(row['difference'], unit, signed=True)}): {h} under "
                f"heuristic players, {t} under {who}; the competent figure is the one to read.")
    else:
        change = interval(row["low"], row["high"], unit, signed=True)
        text = (f"Held from heuristic to {who} ({t}; change {figure(row['difference'], unit, signed=True)} "
                f"{change}, not significant): as far as these players show, the rules set it.")
    if q.reference is not None:
        if _excludes(row["competent_low"], row["competent_high"], q.reference):
            text += f" Under {who} {q.about} is real: a rule effect to weigh."
        elif _excludes(row["heuristic_low"], row["heuristic_high"], q.reference):
            text += f" Under {who} there is no evidence of {q.about}: it came from the heuristic players."
        else:
            text += f" Neither line-up shows evidence of {q.about}."
    if row["stopped_moving"] == "still moves with skill":
        text += f" It still moves under {row['stronger_lineup']}: not settled yet."
    elif row["stopped_moving"] == "stable under stronger play":
        text += f" It holds under {row['stronger_lineup']} too."
    return text


def answers(outdirs: Iterable[str | Path]) -> pd.DataFrame:
    """:func:`answer` for every folder, one table."""
    parts = [answer(d) for d in outdirs]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=list(COLUMNS))
