"""Trust Me (1981)'s findings questions name measures its results set really produces (a tiny heuristic + random
sweep: nothing is trained, a few seconds)."""

from __future__ import annotations

from trustme_analysis import results
from trustme_analysis.findings import questions_of
from trustme_analysis.sweep.__main__ import main as sweep_main

SPEC = """
title = "t"
question = "t"
game = "trustme_1981"
games = 6
seed = 5
[params]
players = 2
[grid]
payoff_mix = ["6/4/4/2", "4/2/8/2"]
[lineups.heuristic]
seats = [{ bot = "heuristic" }]
[lineups.random]
seats = [{ bot = "random" }]
[baseline]
payoff_mix = "6/4/4/2"
lineup = "heuristic"
"""


def test_1981_questions_name_measures_of_its_results_set(tmp_path):
    asked = questions_of("trustme_1981")
    assert len({q.key for q in asked}) == len(asked) and all(q.key.startswith("1981-") for q in asked)
    spec = tmp_path / "t.toml"
    spec.write_text(SPEC, encoding="utf-8")
    out = tmp_path / "out"
    assert sweep_main([str(spec), "--out", str(out), "--no-report", "--quiet", "--workers", "1"]) == 0
    res = results.load(out)
    comp = res["comparisons"]
    figures = res["lineup_comparison"]
    for q in asked:
        # The line-up comparison (what the findings table reads) and the rule comparison (the Payoff mix's move).
        for factor in ("line-up", "rules"):
            assert ((comp["factor"] == factor) & (comp["metric"] == q.measure)).any(), (q.key, factor)
        assert (figures["measure"] == q.measure).sum() == 4, q.key  # every variant: 2 mixes x 2 line-ups
