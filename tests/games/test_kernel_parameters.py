"""The kernels' parameter net: every rule parameter of every game is either played by its kernel (declared, and
lock-step tested at a non-default value) or refused, so a house rule added to an engine alone is never played wrong.

The parameters come from each game's own parameter table (the pyspiel parameter specification), not from a list
here, and the variants from the game's ``parameter_examples``; a new parameter without an example fails the first
test, a declared parameter whose example the kernel plays differently fails the lock-step test.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.kernels import EVERY_VALUE, parameter_defaults, unplayed
from trustme_analysis.engine.lockstep import lockstep
from trustme_analysis.players.lineup import LineUp, Seat
from trustme_analysis.registry import game_entry, game_names, register_game
from trustme_analysis.specfile import SpecError
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.spec import parse_spec

KERNEL_GAMES = [name for name in game_names() if game_entry(name).kernel is not None]
#: Games per example and seat kind in the lock-step test: enough to reach the rule (an example changes one rule).
GAMES_PER_EXAMPLE = 12


def _examples() -> list[tuple[str, str, dict]]:
    out = []
    for name in KERNEL_GAMES:
        entry = game_entry(name)
        for parameter, examples in sorted(entry.parameter_examples.items()):
            for params in examples:
                out.append((name, parameter, dict(params)))
    return out


def _load(name: str, params: dict) -> pyspiel.Game:
    return pyspiel.load_game(name, {k: v for k, v in params.items()})


def test_kernel_games_exist():
    assert {"trustme_pinocchio", "trustme_liar", "trustme_1981"} <= set(KERNEL_GAMES)


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_every_parameter_has_an_example_at_a_value_other_than_its_default(name):
    entry = game_entry(name)
    defaults = parameter_defaults(pyspiel.load_game(name))
    missing = []
    for parameter, default in sorted(defaults.items()):
        examples = entry.parameter_examples.get(parameter, ())
        if not any(parameter in ex and ex[parameter] != default for ex in examples):
            missing.append(parameter)
    assert missing == [], f"{name}: parameters without a non-default example: {missing}"
    stale = sorted(set(entry.parameter_examples) - set(defaults))
    assert stale == [], f"{name}: examples for parameters the game does not have: {stale}"


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_the_kernel_declares_only_parameters_the_game_has(name):
    defaults = parameter_defaults(pyspiel.load_game(name))
    assert sorted(set(game_entry(name).kernel.parameters) - set(defaults)) == []


@pytest.mark.parametrize("name, parameter, params", _examples(), ids=lambda v: str(v) if not isinstance(v, dict)
                         else ",".join(f"{k}={x}" for k, x in v.items()))
def test_each_example_is_played_by_the_kernel_in_lock_step_or_refused(name, parameter, params):
    entry = game_entry(name)
    game = _load(name, params)
    declared = parameter in entry.kernel.parameters and entry.kernel.parameters[parameter].admits(params[parameter])
    reason = unplayed(entry.kernel, game)
    if not declared:
        assert reason is not None and parameter in reason, (name, parameter, reason)
        lineup = LineUp("random", (Seat("random"),))
        assert engines.resolve_engine("auto", str(game), lineup)[0] == engines.PYSPIEL
        with pytest.raises(ValueError, match=parameter):
            engines.resolve_engine("kernel", str(game), lineup)
        return
    if reason is not None:  # a declared value may still need other parameters the kernel refuses
        assert parameter not in reason, reason
        pytest.skip(f"the example also sets what the kernel refuses: {reason}")
    limits = entry.kernel_part("limits")
    if limits is not None and limits(game) is not None:
        pytest.skip(f"beyond the kernel's arrays: {limits(game)}")
    if not entry.kernel.plays_games():
        return  # a tree producer alone: its trees are compared with cfr.compile_game's in the game's own tests
    records = entry.part("records")
    for kind in entry.kernel.game_seat_kinds:
        kernel = entry.new_kernel(game, (kind,))
        games, _ = lockstep(game, kernel, np.arange(101, 101 + GAMES_PER_EXAMPLE), records)
        assert games == GAMES_PER_EXAMPLE


# ------------------------------------------------------------------ the net itself, proven on a planted parameter


def _register_toy(base: str) -> str:
    """Register ``<base>_toy``: the base game with one more parameter, ``toy`` (default 0), which its engine accepts
    and ignores, and the base game's registry entry, kernel entry included, untouched."""
    short = f"{base}_toy"
    if short in pyspiel.registered_names():
        return short
    base_type = pyspiel.load_game(base).get_type()
    spec = {**base_type.parameter_specification, "toy": 0}
    toy_type = pyspiel.GameType(
        short_name=short, long_name=base_type.long_name + " (toy parameter)", dynamics=base_type.dynamics,
        chance_mode=base_type.chance_mode, information=base_type.information, utility=base_type.utility,
        reward_model=base_type.reward_model, max_num_players=base_type.max_num_players,
        min_num_players=base_type.min_num_players,
        provides_information_state_string=base_type.provides_information_state_string,
        provides_information_state_tensor=base_type.provides_information_state_tensor,
        provides_observation_string=base_type.provides_observation_string,
        provides_observation_tensor=base_type.provides_observation_tensor, parameter_specification=spec)
    # The game class builds its pyspiel type from its ``game_type`` attribute, so a subclass is the same engine
    # under another type (the planted parameter's default added to the parameter table).
    toy_class = type("ToyGame", (type(pyspiel.load_game(base)),), {"game_type": toy_type})
    pyspiel.register_game(toy_type, toy_class)
    register_game(dataclasses.replace(game_entry(base), short_name=short))
    return short


def test_a_parameter_planted_in_the_engine_alone_sends_its_variants_to_the_engine():
    """The net: a parameter added to a game's parameter table without touching its kernel is played by the kernel
    only at its default; at any other value ``auto`` plays the engine (and says why in the spec's variant note, which
    ``--check`` and the manifest show) and ``kernel`` refuses in one line."""
    short = _register_toy("trustme_pinocchio")
    entry = game_entry(short)
    assert "toy" not in entry.kernel.parameters
    planted = pyspiel.load_game(short, {"players": 2, "toy": 1})
    assert str(planted).startswith(short + "(") and planted.get_parameters()["toy"] == 1
    why = "the kernel plays parameter toy only at its default 0, not 1 (the parameter is not in its declaration)"
    assert unplayed(entry.kernel, planted) == why
    assert unplayed(entry.kernel, pyspiel.load_game(short, {"players": 2})) is None

    def spec(toy: int, engine: str = "auto"):
        return parse_spec({"title": "toy", "game": short, "games": 4, "engine": engine,
                           "params": {"players": 2, "toy": toy}, "lineups": {"random": {"seats": ["random"]}}})

    assert [(v.engine, v.engine_note) for v in spec(1).variants] == [("pyspiel", why)]
    # At its default the net lets the variant through (the kernel's own limits may still name the game it was
    # written for: the toy is another game name on the same kernel entry).
    assert "parameter toy" not in spec(0).variants[0].engine_note
    with pytest.raises(SpecError, match="parameter toy only at its default 0, not 1"):
        spec(1, engine="kernel")


def test_a_declared_parameter_is_played_at_its_declared_values_only():
    entry = game_entry("trustme_pinocchio")
    narrowed = dataclasses.replace(entry.kernel, parameters={**entry.kernel.parameters,
                                                             "players": dataclasses.replace(EVERY_VALUE, values=(2,))})
    assert unplayed(narrowed, pyspiel.load_game("trustme_pinocchio", {"players": 2})) is None
    assert unplayed(narrowed, pyspiel.load_game("trustme_pinocchio", {"players": 3})) == (
        "the kernel plays players at 2 only, not 3")
