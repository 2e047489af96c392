"""The search space of a tuning spec: which rule parameters vary, and how a search proposes their values.

Each key of a spec's ``[search]`` table is a rule parameter of the game, written as one of:

- an integer (or number) range: ``stacks_to_end = { low = 2, high = 6 }`` (``step`` optional);
- a list of choices: ``park_size = { choices = [3, 4, 5] }``, or for a list-valued rule a list of lists:
  ``stacks = { choices = [[6, 5, 4, 3, 2, 1], [5, 5, 4, 3, 2, 1]] }``;
- a generated list of integers under an order: ``chart = { length = 6, low = 1, high = 25, order = "increasing" }``
  (``order``: ``non_decreasing`` (the default), ``increasing``, ``non_increasing`` or ``decreasing``; ``max_step``
  bounds the step between neighbours, default ``high - low``).

A generated list is searched as its first value and the steps between neighbours (``chart.first``, ``chart.step1``,
...), which is how a designer reads a chart ("start at 1, then add 2, 3, 4 ..."), so a search learns which step
matters. A step that would pass ``high`` is cut there (leaving room for the values still to come when the order is
strict), so every proposal is a valid list; ``non_increasing`` and ``decreasing`` lists are the reversed
``non_decreasing`` and ``increasing`` ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from trustme_analysis.engine.params import LIST_SEPARATOR
from trustme_analysis.specfile import SpecError, check_keys, did_you_mean, type_ok

ORDERS = ("non_decreasing", "increasing", "non_increasing", "decreasing")
RANGE_KEYS = ("low", "high", "step")
CHOICE_KEYS = ("choices",)
LIST_KEYS = ("length", "low", "high", "order", "max_step")


class Trial(Protocol):
    """What a parameter needs of an Optuna trial (``optuna.Trial``) to draw its value."""

    def suggest_int(self, name: str, low: int, high: int, *, step: int = 1) -> int: ...

    def suggest_float(self, name: str, low: float, high: float, *, step: float | None = None) -> float: ...

    def suggest_categorical(self, name: str, choices: Sequence[Any]) -> Any: ...


def as_game_value(value: Any) -> Any:
    """A rule value as the game takes it: lists of integers become ``"/"``-joined text, scalars stay."""
    if isinstance(value, (list, tuple)):
        return LIST_SEPARATOR.join(str(int(v)) for v in value)
    return value


def as_spec_value(value: Any) -> Any:
    """A rule value as a sweep spec writes it: ``"/"``-joined integer text becomes a TOML list, scalars stay."""
    if isinstance(value, str) and LIST_SEPARATOR in value:
        parts = value.split(LIST_SEPARATOR)
        if all(p.strip().lstrip("-").isdigit() for p in parts if p.strip()):
            return [int(p) for p in parts if p.strip()]
    return value


@dataclass(frozen=True)
class IntRange:
    """An integer (or, with float bounds, a number) between ``low`` and ``high`` inclusive, in steps of ``step``."""

    name: str
    low: int | float
    high: int | float
    step: int | float | None = None

    @property
    def is_float(self) -> bool:
        return isinstance(self.low, float) or isinstance(self.high, float)

    def suggest(self, trial: Trial) -> Any:
        if self.is_float:
            return trial.suggest_float(self.name, float(self.low), float(self.high), step=self.step)
        return trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step or 1))

    def encode(self, value: Any) -> dict[str, Any] | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if not self.low <= value <= self.high:
            return None
        if self.step and abs(((value - self.low) / self.step) - round((value - self.low) / self.step)) > 1e-9:
            return None
        return {self.name: value}

    def describe(self) -> str:
        step = f" in steps of {self.step}" if self.step not in (None, 1) else ""
        return f"{self.low} to {self.high}{step}"

    def size(self) -> int | None:
        if self.is_float and not self.step:
            return None
        return int(round((self.high - self.low) / (self.step or 1))) + 1


@dataclass(frozen=True)
class Choice:
    """One of a list of values; list-valued rules are offered as ``"/"``-joined text (what the game takes)."""

    name: str
    choices: tuple[Any, ...]

    def suggest(self, trial: Trial) -> Any:
        return trial.suggest_categorical(self.name, list(self.choices))

    def encode(self, value: Any) -> dict[str, Any] | None:
        value = as_game_value(value)
        for c in self.choices:
            if c == value and isinstance(c, bool) == isinstance(value, bool):
                return {self.name: c}
        return None

    def describe(self) -> str:
        return "one of " + ", ".join(str(c) for c in self.choices)

    def size(self) -> int:
        return len(self.choices)


@dataclass(frozen=True)
class OrderedList:
    """A list of ``length`` integers in ``[low, high]`` under an order, searched as first value + steps."""

    name: str
    length: int
    low: int
    high: int
    order: str = "non_decreasing"
    max_step: int | None = None

    @property
    def strict(self) -> bool:
        return self.order in ("increasing", "decreasing")

    @property
    def reversed(self) -> bool:
        return self.order in ("non_increasing", "decreasing")

    @property
    def min_step(self) -> int:
        return 1 if self.strict else 0

    @property
    def top_step(self) -> int:
        return self.max_step if self.max_step is not None else self.high - self.low

    def _first_high(self) -> int:
        # A strict list needs room above its first value for the values still to come.
        return self.high - (self.length - 1) * self.min_step

    def param_names(self) -> list[str]:
        return [f"{self.name}.first"] + [f"{self.name}.step{i}" for i in range(1, self.length)]

    def build(self, first: int, steps: Sequence[int]) -> list[int]:
        """The list from its first value and steps (each step cut so the list stays within ``high``)."""
        values = [first]
        for i, step in enumerate(steps, start=1):
            cap = self.high - (self.length - 1 - i) * self.min_step
            values.append(min(values[-1] + step, cap))
        return values[::-1] if self.reversed else values

    def suggest(self, trial: Trial) -> str:
        names = self.param_names()
        first = trial.suggest_int(names[0], self.low, self._first_high())
        steps = [trial.suggest_int(n, self.min_step, self.top_step) for n in names[1:]]
        return as_game_value(self.build(first, steps))

    def encode(self, value: Any) -> dict[str, Any] | None:
        values = as_spec_value(as_game_value(value)) if not isinstance(value, list) else list(value)
        if not isinstance(values, list) or len(values) != self.length:
            return None
        rising = values[::-1] if self.reversed else values
        steps = [b - a for a, b in zip(rising, rising[1:])]
        if not self.low <= rising[0] <= self._first_high():
            return None
        if any(not self.min_step <= s <= self.top_step for s in steps):
            return None
        if self.build(rising[0], steps) != values:
            return None
        names = self.param_names()
        return {names[0]: rising[0], **{n: s for n, s in zip(names[1:], steps)}}

    def describe(self) -> str:
        step = f", steps of at most {self.max_step}" if self.max_step is not None else ""
        return f"{self.order.replace('_', '-')} list of {self.length} integers in [{self.low}, {self.high}]{step}"

    def size(self) -> int:
        return (self._first_high() - self.low + 1) * (self.top_step - self.min_step + 1) ** (self.length - 1)


Parameter = IntRange | Choice | OrderedList


@dataclass(frozen=True)
class SearchSpace:
    """The searched rule parameters, in the order the spec lists them."""

    parameters: tuple[Parameter, ...]

    @property
    def names(self) -> list[str]:
        """The rule parameters searched."""
        return [p.name for p in self.parameters]

    def suggest(self, trial: Trial) -> dict[str, Any]:
        """Draw one candidate from ``trial``: rule parameter -> value as the game takes it."""
        return {p.name: p.suggest(trial) for p in self.parameters}

    def encode(self, rules: Mapping[str, Any]) -> dict[str, Any] | None:
        """The search's own parameters (Optuna's) that propose ``rules``, or ``None`` if the space cannot."""
        out: dict[str, Any] = {}
        for p in self.parameters:
            if p.name not in rules:
                return None
            encoded = p.encode(rules[p.name])
            if encoded is None:
                return None
            out.update(encoded)
        return out

    def size(self) -> int | None:
        """How many candidates the space holds (``None`` for a continuous range)."""
        total = 1
        for p in self.parameters:
            n = p.size()
            if n is None:
                return None
            total *= n
        return total


# --------------------------------------------------------------------------------------------------------- parsing


def _number(key: str, value: Any, kind: type) -> Any:
    if not type_ok(value, kind):
        raise SpecError(key, f"must be {'an integer' if kind is int else 'a number'}, got {value!r}")
    return value


def _scalar_kind(default: Any) -> type | None:
    if isinstance(default, bool):
        return bool
    if isinstance(default, int):
        return int
    if isinstance(default, float):
        return float
    return None


def _parse_range(key: str, name: str, body: Mapping[str, Any], default: Any) -> IntRange:
    check_keys(key, body, RANGE_KEYS)
    kind = _scalar_kind(default)
    if kind not in (int, float):
        raise SpecError(key, f"a range needs a numeric rule; {name} takes {default!r} (use choices = [...] instead)")
    for bound in ("low", "high"):
        if bound not in body:
            raise SpecError(f"{key}.{bound}", "missing (a range needs low and high)")
    low = _number(f"{key}.low", body["low"], kind)
    high = _number(f"{key}.high", body["high"], kind)
    if kind is float:
        low, high = float(low), float(high)
    if high <= low:
        raise SpecError(f"{key}.high", f"must be greater than low ({low}), got {high!r}")
    step = body.get("step")
    if step is not None:
        step = _number(f"{key}.step", step, kind)
        if step <= 0:
            raise SpecError(f"{key}.step", f"must be positive, got {step!r}")
    return IntRange(name, low, high, step)


def _parse_choices(key: str, name: str, body: Mapping[str, Any], default: Any) -> Choice:
    check_keys(key, body, CHOICE_KEYS)
    values = body["choices"]
    if not isinstance(values, list) or not values:
        raise SpecError(f"{key}.choices", f"must be a non-empty list of values, got {values!r}")
    out = []
    for i, v in enumerate(values):
        where = f"{key}.choices[{i}]"
        if isinstance(default, str):
            if isinstance(v, list):
                if not v or not all(type_ok(x, int) for x in v):
                    raise SpecError(where, f"must be a non-empty list of integers or a string, got {v!r}")
                v = as_game_value(v)
            elif not isinstance(v, str):
                raise SpecError(where, f"{name} takes text (or a list of integers), got {v!r}")
        else:
            kind = _scalar_kind(default)
            if kind is bool and not isinstance(v, bool) or kind is not bool and not type_ok(v, kind or object):
                wanted = {bool: "true or false", int: "an integer", float: "a number"}.get(kind, "a value")
                raise SpecError(where, f"must be {wanted} ({name} takes {default!r}), got {v!r}")
            if kind is float:
                v = float(v)
        out.append(v)
    if len(set(map(str, out))) != len(out):
        raise SpecError(f"{key}.choices", "lists the same value twice")
    return Choice(name, tuple(out))


def _parse_list(key: str, name: str, body: Mapping[str, Any], default: Any) -> OrderedList:
    check_keys(key, body, LIST_KEYS)
    if not isinstance(default, str):
        raise SpecError(key, f"a generated list needs a list-valued rule; {name} takes {default!r}")
    for k in ("length", "low", "high"):
        if k not in body:
            raise SpecError(f"{key}.{k}", "missing (a generated list needs length, low and high)")
    length = _number(f"{key}.length", body["length"], int)
    low = _number(f"{key}.low", body["low"], int)
    high = _number(f"{key}.high", body["high"], int)
    if length < 1:
        raise SpecError(f"{key}.length", f"must be an integer >= 1, got {length!r}")
    order = body.get("order", "non_decreasing")
    if order not in ORDERS:
        raise SpecError(f"{key}.order", f"unknown order {order!r}{did_you_mean(str(order), ORDERS)} "
                        f"(orders: {', '.join(ORDERS)})")
    strict = order in ("increasing", "decreasing")
    if high - low < (length - 1 if strict else 0) or high < low:
        raise SpecError(f"{key}.high", f"[{low}, {high}] cannot hold {length} {order.replace('_', '-')} integers")
    max_step = body.get("max_step")
    if max_step is not None:
        max_step = _number(f"{key}.max_step", max_step, int)
        if max_step < (1 if strict else 0):
            raise SpecError(f"{key}.max_step", f"must be >= {1 if strict else 0} for an {order} list, got {max_step}")
    return OrderedList(name, length, low, high, order, max_step)


def parse_space(table: Any, spec_params: Mapping[str, Any], game: str, fixed: Mapping[str, Any]) -> SearchSpace:
    """The ``[search]`` table as a :class:`SearchSpace`; every problem names its key (``search.chart.order``).

    Args:
        table: the table as read from TOML.
        spec_params: the game's parameters and their defaults (``parameter_specification``).
        game: the game's short name (for messages).
        fixed: the spec's fixed ``[params]`` (a parameter is fixed or searched, not both).
    """
    if not isinstance(table, dict) or not table:
        raise SpecError("search", "must be a table with at least one rule parameter to search, e.g. "
                        "players = { low = 2, high = 4 }")
    params = []
    for name, body in table.items():
        key = f"search.{name}"
        if name not in spec_params:
            allowed = sorted(spec_params)
            raise SpecError(key, f"{game} has no parameter {name!r}{did_you_mean(name, allowed)} "
                            f"(parameters: {', '.join(allowed)})")
        if name in fixed:
            raise SpecError(key, f"is also fixed in params.{name}; a parameter is either fixed or searched")
        if not isinstance(body, dict):
            raise SpecError(key, "must be a table: { low = .., high = .. }, { choices = [..] } or "
                            "{ length = .., low = .., high = .., order = .. }")
        default = spec_params[name]
        if "choices" in body:
            params.append(_parse_choices(key, name, body, default))
        elif "length" in body:
            params.append(_parse_list(key, name, body, default))
        else:
            params.append(_parse_range(key, name, body, default))
    return SearchSpace(tuple(params))
