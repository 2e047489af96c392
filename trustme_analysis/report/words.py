"""Numbers and names as a designer reads them: shares as percentages, at most three significant digits, a dash for
what is not defined, and code names (``park_size``, ``v03``) turned into words.

Every figure the report prints goes through these functions, so one rule holds on every page:

- a share is a percentage ("93%", "0.4%", "+3%");
- any other figure has at most three significant digits ("19.1 points", "0.00794"), except whole numbers of things
  (games, histories), which are printed in full with thousands separators;
- a figure that is not defined (a share of no games, the mean of nothing) is the dash :data:`DASH`, and a page that
  shows one explains it in a footnote (:data:`UNDEFINED_NOTE`, added when the PDF is written).
"""

from __future__ import annotations

import math
import re
from typing import Any

#: What a page prints for a figure that is not defined (an en dash, used for nothing else in the report).
DASH = "\u2013"
#: The footnote of every page that shows :data:`DASH`.
UNDEFINED_NOTE = f"{DASH} : not defined (no games or cases to take a share or a mean of)."


def missing(value: Any) -> bool:
    """Whether ``value`` is no figure at all (None, NaN, an empty cell)."""
    if value is None:
        return True
    try:
        return math.isnan(float(value))
    except (TypeError, ValueError):
        return False


_SHARE_UNIT = re.compile(r"^share\b(?!s)")


def is_share(unit: str | None) -> bool:
    """Whether figures of ``unit`` are shares, printed as percentages ("share of games", "share (per game)"; not
    "shares", which counts the 1981 game's stock)."""
    unit = (unit or "").strip().lower()
    return bool(_SHARE_UNIT.match(unit)) or unit in ("rate", "win rate", "win rate of seat 0", "probability")


def decimals(value: Any, digits: int = 3) -> int:
    """The decimals :func:`number` shows ``value`` with: ``digits`` significant digits, none from
    ``10 ** (digits - 1)`` on, at most 8 (0 for a missing or zero value)."""
    if missing(value) or float(value) == 0 or abs(float(value)) < 1e-6:
        return 0
    magnitude = math.floor(math.log10(abs(float(value))))
    return 0 if magnitude >= digits - 1 else min(digits - 1 - magnitude, 8)


def number(value: Any, signed: bool = False, digits: int = 3, places: int | None = None) -> str:
    """``value`` with ``digits`` significant digits and no exponent ("19.1", "14.0", "0.00794"); from
    ``10 ** (digits - 1)`` on, rounded to a whole number and printed in full ("1,234"); :data:`DASH` when it is not
    defined. ``places``: exactly that many decimals instead (the ends of an interval take their estimate's)."""
    if missing(value):
        return DASH
    x = float(value)
    sign = "+" if signed and x > 0 else ""
    if places is None:
        if x == 0:
            return "0"
        if abs(x) < 1e-6:
            # Solver noise around zero (a probability of 1e-9): no digits a designer could use.
            return "\u22480"
        places = decimals(x, digits)
    text = f"{round(x):,}" if places == 0 else f"{x:.{places}f}"
    if text.lstrip("-+") == "0" or (places and float(text) == 0):
        text = "0" if places == 0 else f"{0:.{places}f}"
    return sign + text


#: Fewest observations behind a share a table cell shows as a percentage; below it the cell shows the count instead.
MIN_CELL = 30


def rate_cell(rate: Any, n: Any) -> str:
    """A share of ``n`` cases for a table cell: a percentage from :data:`MIN_CELL` cases on; below, the counts
    ("1 of 2"), so a share resting on a handful of cases is not read as a finding; :data:`DASH` for none."""
    if missing(n) or int(n) == 0 or missing(rate):
        return DASH
    if int(n) < MIN_CELL:
        return f"{round(float(rate) * int(n))} of {int(n)}"
    return percent(rate)


def count(value: Any) -> str:
    """A whole number of things ("1,000 games"); :data:`DASH` when missing."""
    if missing(value):
        return DASH
    return f"{round(float(value)):,}"


def percent(value: Any, signed: bool = False) -> str:
    """A share as a percentage: whole percents, one decimal below 1% and just under 100%, "<0.1%" for a trace,
    :data:`DASH` when it is not defined. ``signed``: a difference of two shares, in percentage points ("+3 pp")."""
    if missing(value):
        return DASH
    p = 100.0 * float(value)
    sign = "+" if signed and p > 0 else ("-" if p < 0 else "")
    mark = " pp" if signed else "%"
    a = abs(p)
    if a == 0:
        return "0" + mark
    if a < 0.05:
        return f"{sign}<0.1{mark}"
    if a < 0.95:
        text = f"{a:.1f}"
    elif 99.0 < a < 100.0:
        text = f"{a:.1f}" if a < 99.95 else ">99.9"
    else:
        text = f"{a:.0f}"
    return f"{sign}{text}{mark}"


def points(value: Any) -> str:
    """A difference of shares in percentage points, unsigned, in words ("14 points", "0.5 points", "1 point").

    >>> points(0.14), points(0.005), points(0.01)
    ('14 points', '0.5 points', '1 point')
    """
    text = percent(value)
    if text == DASH:
        return text
    return text[:-1] + (" point" if text[:-1] == "1" else " points")


def change_size(value: Any, unit: str = "", with_unit: bool = True) -> str:
    """The size of a change, unsigned: percentage points for shares ("7 points"; in a table cell, ``with_unit``
    false, "7 pp"), else the number with the unit ("2.35 turns"; in a cell "2.35")."""
    if missing(value):
        return DASH
    if is_share(unit):
        return points(value) if with_unit else percent(abs(float(value)))[:-1] + " pp"
    return figure(abs(float(value)), unit, with_unit=with_unit)


#: A table cell's detectable change where the interval has zero width: every game pair gave the same difference (a
#: measure that never varies, or the same games), so the games measure no spread to detect a change against.
NOT_APPLICABLE = "n/a"


def detectable_size(value: Any, unit: str = "") -> str:
    """A table cell for the smallest change a comparison's games detect (:func:`trustme_analysis.stats.power.
    detectable_change`): :data:`NOT_APPLICABLE` for a zero-width interval (0 would read as "any change is seen"), the
    dash where it is missing, else the unsigned size ("7 pp", "2.35").

    >>> detectable_size(0.0, "share"), detectable_size(float("nan")), detectable_size(0.0712, "share")
    ('n/a', '–', '7 pp')
    """
    if missing(value):
        return DASH
    if float(value) <= 0.0:
        return NOT_APPLICABLE
    return change_size(value, unit, with_unit=False)


def figure(value: Any, unit: str = "", signed: bool = False, with_unit: bool = True) -> str:
    """A figure in its unit's form: a percentage for a share, else a number followed by the unit."""
    if is_share(unit):
        return percent(value, signed)
    text = number(value, signed)
    if text == DASH or not with_unit or not unit:
        return text
    return f"{text} {unit}"


def interval(low: Any, high: Any, unit: str = "", signed: bool = False, like: Any = None) -> str:
    """``[low, high]`` in the unit's form (no unit); empty when either end is missing. ``like``: the estimate the
    interval belongs to, whose precision both ends take ("0.200 [0.008, 0.392]", not "[0.00796, 0.392]")."""
    if missing(low) or missing(high):
        return ""
    if is_share(unit):
        return f"[{percent(low, signed)}, {percent(high, signed)}]"
    places = None if missing(like) else decimals(like)
    return f"[{number(low, signed, places=places)}, {number(high, signed, places=places)}]"


def estimate(value: Any, low: Any = None, high: Any = None, unit: str = "", signed: bool = False,
             with_unit: bool = True) -> str:
    """``value [low, high]`` in the unit's form, for a sentence or a table cell ("54% [51%, 57%]"); the interval's
    ends at the value's precision."""
    text = figure(value, unit, signed, with_unit)
    if text == DASH:
        return DASH
    iv = interval(low, high, unit, signed, like=value)
    return f"{text} {iv}" if iv else text


def p_value(p: Any) -> str:
    """A p-value: two significant digits, "<0.001" below that; :data:`DASH` when there is none."""
    if missing(p):
        return DASH
    return "<0.001" if float(p) < 0.001 else number(p, digits=2)


def yes_no(value: Any) -> str:
    """A flag as "yes" / "no"."""
    if missing(value):
        return DASH
    return "yes" if bool(value) else "no"


# --- names -----------------------------------------------------------------------------------------------------------

#: Game names stay as they are (they name the game to load); every other name with underscores becomes words.
_GAME_NAME = re.compile(r"^trustme_[a-z0-9_]+$")
_SNAKE = re.compile(r"(?<![\w/.])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w/]|\.[a-z]{2,4}\b)")


def words(name: Any) -> str:
    """A code name in words: ``park_size`` -> "park size" (game names are kept)."""
    text = str(name)
    if _GAME_NAME.match(text):
        return text
    return text.replace("_", " ")


def in_words(text: Any) -> str:
    """Free text with every code-style name (``win_loss``, ``two_player_tie_coin``) in words; game names and file
    names (``stats/wealth_trace.csv``) are kept."""
    return _SNAKE.sub(lambda m: m.group(1) if _GAME_NAME.match(m.group(1)) else m.group(1).replace("_", " "),
                      str(text))


def setting(key: str, value: Any) -> str:
    """One rule parameter or line-up setting in words: ``players=2`` -> "2 players", ``park_size=2`` ->
    "park size 2", ``lineup=policy_vs_heuristic`` -> "line-up policy vs heuristic"."""
    key, value = str(key).strip(), str(value).strip()
    if key == "players":
        return f"{value} players"
    if key == "lineup":
        return f"line-up {words(value)}"
    if value.lower() in ("true", "false"):
        return f"{words(key)} {'yes' if value.lower() == 'true' else 'no'}"
    return f"{words(key)} {in_words(value)}"


def label_words(label: str) -> str:
    """A variant label of ``key=value`` pairs (``players=2, lineup=heuristic``) in words ("2 players, line-up
    heuristic"); any other label with its code names in words."""
    parts = [p.strip() for p in str(label).split(",")]
    if parts and all("=" in p for p in parts):
        return ", ".join(setting(*p.split("=", 1)) for p in parts)
    return in_words(label)


def label_pairs(label: str) -> list[tuple[str, str]] | None:
    """A variant label of ``key=value`` pairs (``players=2, lineup=heuristic``) as its pairs; ``None`` for any
    other label."""
    parts = [p.strip() for p in str(label).split(",")]
    if not parts or not all("=" in p for p in parts):
        return None
    return [(k.strip(), v.strip()) for k, v in (p.split("=", 1) for p in parts)]


def _short_setting(key: str, value: str) -> str:
    # On an axis the line-up's name says enough ("trained", not "line-up trained").
    return words(value) if key == "lineup" else setting(key, value)


def axis_parts(labels: dict[str, str]) -> dict[str, list[str]]:
    """What sets each variant apart from the others, as short words for an axis or a legend: the settings whose
    values differ between the variants (``labels``: variant id -> its manifest label), line-ups by their bare name;
    a variant alone keeps every setting.

    >>> axis_parts({"v00": "players=2, lineup=trained", "v01": "players=3, lineup=trained"})
    {'v00': ['2 players'], 'v01': ['3 players']}
    """
    pairs = {v: label_pairs(label) for v, label in labels.items()}
    if all(p is not None for p in pairs.values()):
        keys = list(dict.fromkeys(k for p in pairs.values() for k, _ in p))
        values = {k: {dict(p).get(k) for p in pairs.values()} for k in keys}
        differ = [k for k in keys if len(values[k]) > 1] or keys
        return {v: [_short_setting(k, dict(p)[k]) for k in differ if k in dict(p)] for v, p in pairs.items()}
    # Free-text labels: their comma-separated parts in words, less the parts every variant shares.
    parts = {v: [p.strip() for p in label_words(label).split(",") if p.strip()] for v, label in labels.items()}
    shared = set.intersection(*(set(p) for p in parts.values())) if len(parts) > 1 else set()
    return {v: [x for x in p if x not in shared] or p for v, p in parts.items()}


def axis_words(labels: dict[str, str], sep: str = ", ") -> dict[str, str]:
    """Each variant's :func:`axis_parts` joined by ``sep`` ("3 players, trained"; ``sep="\\n"`` for a tick label
    on two lines).

    >>> axis_words({"v00": "players=2, lineup=heuristic", "v01": "players=3, lineup=trained"})
    {'v00': '2 players, heuristic', 'v01': '3 players, trained'}
    """
    return {v: sep.join(p) for v, p in axis_parts(labels).items()}


_PLAYERS = re.compile(r"^(\d+) players$")


def pair_words(variant: list[str], reference: list[str], sep: str = "\n") -> str:
    """A comparison's tick label from the :func:`axis_parts` of the variant and of its reference: what moved, "vs"
    what it moved from, then what both share ("2 vs 3 players" + sep + "trained").

    >>> pair_words(["2 players", "trained"], ["3 players", "trained"], sep=" / ")
    '2 vs 3 players / trained'
    """
    own = [p for p in variant if p not in reference] or variant
    was = [p for p in reference if p not in variant] or reference
    held = [p for p in variant if p in reference]
    a, b = ", ".join(own), ", ".join(was)
    ma, mb = _PLAYERS.match(a), _PLAYERS.match(b)
    moved = f"{ma.group(1)} vs {mb.group(1)} players" if ma and mb else f"{a} vs {b}"
    return sep.join([moved] + ([", ".join(held)] if held else []))
