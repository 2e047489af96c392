"""The shared parameter checks: every failure names the parameter, the value and what is allowed."""

import pytest

from trustme_analysis.engine import params


def test_int_in_range_accepts_bounds_and_rejects_outside():
    p = {"players": 4}
    assert params.int_in_range("g", p, "players", 2, 4) == 4
    with pytest.raises(params.ParameterError, match=r"players=5.*from 2 to 4"):
        params.int_in_range("g", {"players": 5}, "players", 2, 4)
    with pytest.raises(params.ParameterError, match=r"players=True.*integer"):
        params.int_in_range("g", {"players": True}, "players", 2, 4)


def test_int_list_parses_slash_lists_and_single_ints():
    assert params.int_list("g", {"chart": "1/3/6/10/15/21"}, "chart") == (1, 3, 6, 10, 15, 21)
    assert params.int_list("g", {"chart": 7}, "chart") == (7,)
    assert params.format_int_list((1, 3, 6)) == "1/3/6"
    assert params.format_int_list((5,)) == "5/"
    assert params.int_list("g", {"chart": "5/"}, "chart") == (5,)


@pytest.mark.parametrize(
    "value, kwargs, fragment",
    [
        ("1/x/3", {}, "integers separated by '/'"),
        ("1/2", {"length": 3}, "exactly 3 integers"),
        ("3/1", {"non_decreasing": True}, "non-decreasing"),
        ("0/1", {"low": 1}, "integers >= 1"),
    ],
)
def test_int_list_errors_name_parameter_and_rule(value, kwargs, fragment):
    with pytest.raises(params.ParameterError) as info:
        params.int_list("trustme_x", {"chart": value}, "chart", **kwargs)
    text = str(info.value)
    assert text.startswith(f"trustme_x: parameter chart={value!r}")
    assert fragment in text


def test_choice_lists_the_options():
    assert params.choice("g", {"voting": "sequential"}, "voting", ["simultaneous", "sequential"]) == "sequential"
    with pytest.raises(params.ParameterError, match="one of 'simultaneous', 'sequential'"):
        params.choice("g", {"voting": "secret"}, "voting", ["simultaneous", "sequential"])
