"""Every bad input of ``python -m trustme_analysis.play`` is one line on stderr with exit status 2, before the first
move is printed (the model is ``tests/sweep/test_sweep_failures.py``)."""

from __future__ import annotations

import io

import pytest
from failure_cases import assert_refused

from trustme_analysis.play import main

P = "trustme_pinocchio(players=2)"

CASES = [
    # (case id, arguments, pattern searched in the one line)
    ("no game", [], r"^error: the following arguments are required: game \(see --help\)$"),
    ("unknown game", ["trustme_pinoccio"], r"^error: unknown game 'trustme_pinoccio'; did you mean 'trustme_pinocchio'"
                                           r".* and \d+ OpenSpiel games: `python -m cfr --list`\)$"),
    ("empty game", [""], r"^error: unknown game ''"),
    ("unknown parameter", ["trustme_pinocchio(playerz=2)"],
     r"^error: game 'trustme_pinocchio\(playerz=2\)' cannot be loaded: Unknown parameter 'playerz'"),
    ("parameter out of range", ["trustme_pinocchio(players=9)"],
     r"^error: game 'trustme_pinocchio\(players=9\)' cannot be loaded: .*players=9"),
    ("wrong parameter type", ["trustme_1981(bamboozled=6)"],
     r"^error: game 'trustme_1981\(bamboozled=6\)' cannot be loaded: Wrong type for parameter bamboozled.* "
     r"\(a game string reads a bare number as an integer: write a list of one number as 6/\)$"),
    ("game string syntax", ["trustme_pinocchio(players=2"], r"^error: game 'trustme_pinocchio\(players=2' cannot be"),
    ("--seed -1", [P, "--seed", "-1"], r"^error: argument --seed: must be an integer >= 0, got -1 \(see --help\)$"),
    ("--seed abc", [P, "--seed", "abc"], r"^error: argument --seed: must be an integer >= 0, got 'abc' \(see --help\)$"),
    ("--max-steps 0", [P, "--max-steps", "0"], r"^error: argument --max-steps: must be an integer from 1 to 10,000,000, got 0"),
    ("unknown option", [P, "--seeds", "1"], r"^error: unrecognized arguments: --seeds 1 \(see --help\)$"),
    ("unknown bot", [P, "--bots", "heuristc"],
     r"^error: --bots: 'heuristc' is not allowed; did you mean 'heuristic'\? \(allowed: heuristic, "),
    ("too many bots", [P, "--bots", "random,random,random"],
     r"^error: --bots: 'random,random,random' is not allowed; allowed: one kind, or 2 comma-separated kinds$"),
    ("--knobs not JSON", [P, "--knobs", "{bluff_rate: 1}"], r"^error: --knobs: '\{bluff_rate: 1\}' is not allowed; "),
    ("--knobs not a table of tables", [P, "--knobs", '{"heuristic": 1}'],
     r"^error: --knobs: .* allowed: a JSON table of bot kind -> knob table$"),
    ("--knobs misspelt bot", [P, "--knobs", '{"heuristc": {"bluff_rate": 0.5}}'],
     r"^error: --knobs: 'heuristc' is not a bot kind; did you mean 'heuristic'\? \(bot kinds: "),
    ("--knobs bot that plays no seat", [P, "--knobs", '{"search": {"budget": 5}}'],
     r"^error: --knobs: 'search' plays no seat \(--bots heuristic,heuristic\)"),
    ("--knobs knob typo", [P, "--knobs", '{"heuristic": {"bluf_rate": 0.5}}'],
     r"^error: --knobs: heuristic\.bluf_rate: unknown knob\(s\) \['bluf_rate'\]"),
    ("--knobs out of range", [P, "--knobs", '{"heuristic": {"bluff_rate": 2}}'],
     r"^error: --knobs: heuristic\.bluff_rate: heuristic bot knob bluff_rate=2 is not allowed; allowed: a number"),
    ("--knobs nan", [P, "--knobs", '{"heuristic": {"bluff_rate": NaN}}'],
     r"^error: --knobs: heuristic\.bluff_rate: heuristic bot knob bluff_rate=nan is not allowed"),
    ("--knobs policy file missing", [P, "--bots", "policy", "--knobs", '{"policy": {"policy": "no.json"}}'],
     r"^error: --knobs: policy\.policy: no stored policy at '.*no\.json'; run the solve first"),
    ("policy bot without a policy", [P, "--bots", "policy"], r"^error: the policy bot needs knob solve .* or policy"),
    ("probe bot without a strategy", [P, "--bots", "probe"], r"^error: probe bot knob strategy=None is not allowed; "
                                                              r"allowed: 'always tell a tall tale'"),
    ("--knobs search budget 0", [P, "--bots", "search", "--knobs", '{"search": {"budget": 0}}'],
     r"^error: --knobs: search\.budget: search bot knob budget=0 is not allowed; allowed: an integer from 1 to 1,000,000$"),
]


@pytest.mark.parametrize("name, argv, pattern", CASES, ids=[c[0] for c in CASES])
def test_a_bad_input_is_one_line_with_exit_2_and_plays_nothing(name, argv, pattern, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert_refused(lambda: main(argv, out=out), tmp_path, pattern, capfd)
    assert out.getvalue() == ""  # not a move printed
