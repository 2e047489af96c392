"""One registered :class:`pyspiel.GameType` per game, specialised per variant.

OpenSpiel registers one type per short name, but whether a variant is zero-sum depends on its ``utility`` parameter
(a win/loss or difference utility is zero-sum; raw scores are not). Solvers read the instance's type (exploitability
is defined only for two-player zero-sum games), so each game builds its instance with the registered type's fields
and the variant's utility kind.
"""

from __future__ import annotations

import pyspiel

_FIELDS = (
    "short_name",
    "long_name",
    "dynamics",
    "chance_mode",
    "information",
    "utility",
    "reward_model",
    "max_num_players",
    "min_num_players",
    "provides_information_state_string",
    "provides_information_state_tensor",
    "provides_observation_string",
    "provides_observation_tensor",
    "parameter_specification",
)


def registered_type(short_name: str, long_name: str, max_players: int, parameters: dict, *,
                    observation_tensor: bool = True, zero_sum: bool = False) -> pyspiel.GameType:
    """The type a Trust Me game registers: sequential, explicit chance, imperfect information, terminal rewards, two
    players at least, information-state and observation strings (observation tensors where ``observation_tensor``);
    general-sum unless ``zero_sum`` (each instance then specialises it with :func:`with_utility`)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=observation_tensor,
        parameter_specification=dict(parameters),
    )


def with_utility(game_type: pyspiel.GameType, zero_sum: bool) -> pyspiel.GameType:
    """A copy of ``game_type`` whose utility kind is ZERO_SUM if ``zero_sum`` else GENERAL_SUM."""
    fields = {name: getattr(game_type, name) for name in _FIELDS}
    fields["utility"] = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(**fields)
