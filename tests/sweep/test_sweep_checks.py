"""[trust] and [skill]: challengers and a skill trace played as sub-sweeps, turned into tables and report pages."""

import pandas as pd
import pytest
from pypdf import PdfReader

import sweep_toy_game  # noqa: F401  (registers the kuhn_poker entry, its probes and the "edge" bot)
from trustme_analysis import results
from trustme_analysis.specfile import SpecError
from trustme_analysis.sweep.checks import checks_of
from trustme_analysis.sweep.runner import run_sweep
from trustme_analysis.sweep.spec import parse_spec

SPEC = {
    "title": "Kuhn checks",
    "game": "kuhn_poker",
    "games": 40,
    "chunk_size": 20,
    "seed": 4,
    "lineups": {"random": {"seats": ["random"]}, "edge": {"seats": [{"bot": "edge"}]}},
    "trust": {"games": 120, "lineups": ["edge"], "search": {"budget": 20}},
    "skill": {"games": 60, "budgets": [1, 16]},
}


def test_checks_become_sub_sweeps_with_their_own_seeds():
    spec = parse_spec(SPEC)
    checks = checks_of(spec)
    assert [c.name for c in checks] == ["trust-v01", "skill-v00"]
    trust = checks[0]
    # Two probes and the search player, each in both seats; the probe plays its default base (the heuristic where
    # the game has one, here random) wherever its rule says nothing, against every line-up.
    assert sorted({r["challenger"] for r in trust.seats.values()}) == ["always bet", "always pass", "search player"]
    assert len(trust.data["lineups"]) == 6
    assert trust.data["lineups"]["c0s1"]["seats"] == [{"bot": "edge", "knobs": {}},
                                                      {"bot": "probe", "knobs": {"strategy": "always bet"}}]
    assert {r["kind"] for r in trust.seats.values()} == {"probe", "search"}
    # Kuhn has no kernel: "auto" gives the probes the search challenger's games (60 a seat).
    assert {lu["games"] for lu in trust.data["lineups"].values()} == {60}
    assert trust.data["games"] == 60 and trust.data["seed"] != spec.seed
    assert checks[1].data["lineups"]["k1s0"]["seats"][0]["knobs"]["budget"] == 16


@pytest.mark.parametrize(
    "change, message",
    [
        ({"trust": {"lineups": ["nobody"]}}, r"^trust\.lineups: unknown line-up 'nobody'"),
        ({"trust": {"probes": ["sometimes bet"]}}, r"^trust\.probes: 'sometimes bet' is not allowed; allowed: 'all'"),
        ({"trust": {"search": 3}}, r"^trust\.search: must be a table of search-player knobs or false"),
        ({"skill": {"budgets": [8, 4]}}, r"^skill\.budgets: must be at least two increasing integers"),
        ({"skill": {"knobs": {"budget": 3}}}, r"^skill\.knobs\.budget: is set by skill\.budgets"),
        ({"trust": {"colour": 1}}, r"^trust\.colour: unknown key"),
    ],
)
def test_bad_checks_name_the_key(change, message):
    with pytest.raises(SpecError, match=message):
        parse_spec({**SPEC, **change})


def test_checks_run_and_reach_the_results_and_the_report(tmp_path):
    out = tmp_path / "kuhn"
    result = run_sweep(parse_spec(SPEC), workers=1, out=out, quiet=True)
    res = results.load(out)
    trust = res["trust"]
    assert set(trust["challenger"]) == {"always bet", "always pass", "search player"}
    assert (trust["games"] == 120).all() and (trust["fair"] == 0.5).all()
    # The edge bot always takes the first legal action (pass): a searching challenger beats it by far.
    search = trust[trust["challenger"] == "search player"].iloc[0]
    assert search["low"] > 0.55
    verdict = res["trust_verdicts"].iloc[0]
    assert verdict["verdict"] == "exploitable" and verdict["lineup"] == "edge"
    # Always betting against a bot that always passes (folds to a bet) wins every game: the probe, by name, decides.
    assert verdict["best_challenger"] == "always bet" and verdict["win_rate"] == 1.0
    assert verdict["search_gain"] == pytest.approx(search["win_rate"] - 0.5) and verdict["search_games"] == 120
    skill = res["skill_trace"]
    assert list(skill["budget"]) == [16] and skill["games"].iloc[0] == 60
    assert "skill_vs_luck" in res["skill_summary"].columns
    heads = res["headlines"]
    assert (heads["kind"] == "trust").sum() == 1
    text = "\n".join(page.extract_text() for page in PdfReader(str(result.report)).pages)
    assert "Can these players be trusted? v01 (edge)" in text
    flat = " ".join(text.split())
    assert "exploitable: always bet wins 50.0 points more than its fair share" in flat
    assert "a search player gains" in flat
    assert "Skill trace: does thinking longer win more?" in text
    assert "Each measure under each line-up" in text
    # Run again: the checks resume (nothing to play) and give the same tables.
    again = run_sweep(parse_spec(SPEC), workers=1, out=out, quiet=True)
    assert again.games_played == 0
    pd.testing.assert_frame_equal(results.load(out)["trust"], trust)
