"""One factor at a time: rule variants against the baseline's rules under the same line-up, line-ups against the
reference line-up under the same rules; the headline line-up from the seats' kinds and the trust verdicts; and
whether each headline figure still moves under a stronger line-up. Synthetic manifests and games."""

import numpy as np
import pandas as pd
import pytest

from trustme_analysis.results.comparisons import (
    LINEUP,
    MOVES,
    RULES,
    STABLE,
    comparison_pairs,
    factor_comparisons,
    headline_rows,
    lineup_table,
    stability,
)
from trustme_analysis.stats.compare import GameMetric, compare_pairs

SEATS = {
    "heuristic": [{"bot": "heuristic", "knobs": {}}],
    "search": [{"bot": "search", "knobs": {"budget": 200}}],
    "search1600": [{"bot": "search", "knobs": {"budget": 1600}}],
    "trained": [{"bot": "trained", "knobs": {}}],
    "searchtrained": [{"bot": "search", "knobs": {"budget": 1600, "rollout": "trained"}}],
    "random": [{"bot": "random", "knobs": {}}],
    "mixed": [{"bot": "trained", "knobs": {}}, {"bot": "random", "knobs": {}}],
}
METRICS = (GameMetric("turns per game", "turns", "mean", "turns"),
           GameMetric("first seat wins", "seat0_win", "rate", "share of games"))


def manifest(lineups, players=(2, 3), base_players=3, games=None):
    """A sweep's manifest over players x line-ups (in that order of ids), the baseline at ``base_players`` and the
    first line-up."""
    variants = []
    for p in players:
        for name in lineups:
            variants.append({"id": f"v{len(variants):02d}", "params": {"players": p}, "grid": {"players": p},
                             "lineup": name, "seats": SEATS[name] * p,
                             "games": (games or {}).get(name, 100)})
    base = next(v["id"] for v in variants if v["params"]["players"] == base_players and v["lineup"] == lineups[0])
    return {"variants": variants, "baseline": base}


def games_of(m, shift=None, seed=0):
    """Per-game rows for every variant of ``m``: turns ~ 40 (+ ``shift[lineup or players]``), seat 0 wins 50%."""
    rng = np.random.default_rng(seed)
    rows = []
    for v in m["variants"]:
        n = v["games"]
        delta = (shift or {}).get(v["lineup"], 0.0) + (shift or {}).get(v["params"]["players"], 0.0)
        common = rng.normal(0, 5, n)
        rows.append(pd.DataFrame({"variant": v["id"], "game_index": np.arange(n), "turns": 40 + delta + common,
                                  "seat0_win": (rng.random(n) < 0.5).astype(float)}))
    return pd.concat(rows, ignore_index=True)


def test_each_comparison_moves_one_factor_only():
    m = manifest(["heuristic", "search"])  # v00 2p heur, v01 2p search, v02 3p heur (baseline), v03 3p search
    pairs = comparison_pairs(m, ["v00", "v01", "v02", "v03"], "v02")
    assert pairs[RULES] == [("v00", "v02"), ("v01", "v03")]  # 2 players against 3, under the same players
    assert pairs[LINEUP] == [("v01", "v00"), ("v03", "v02")]  # search against heuristic, under the same rules
    # Nothing is set against a variant that differs in both (v01 against v02 would be 2 search vs 3 heuristic).
    assert ("v01", "v02") not in pairs[RULES] + pairs[LINEUP]


def test_a_line_up_that_never_played_the_baseline_rules_gets_no_rule_comparison():
    m = manifest(["heuristic", "search"])
    pairs = comparison_pairs(m, ["v00", "v01", "v02"], "v02")  # v03 (3 players, search) has no games
    assert pairs[RULES] == [("v00", "v02")] and pairs[LINEUP] == [("v01", "v00")]


def test_each_factor_is_corrected_and_labelled_on_its_own():
    m = manifest(["heuristic", "search"])
    g = games_of(m, shift={"search": 3.0, 2: -6.0})
    comp = factor_comparisons(g, METRICS, m, ["v00", "v01", "v02", "v03"], "v02")
    assert list(comp["factor"].unique()) == [RULES, LINEUP]
    rules = comp[comp["factor"] == RULES].reset_index(drop=True)
    alone = compare_pairs(g, METRICS, [("v00", "v02"), ("v01", "v03")])
    np.testing.assert_allclose(rules["p_holm"], alone["p_holm"])  # Holm over the rule comparisons only
    row = rules[(rules["variant"] == "v00") & (rules["metric"] == "turns per game")].iloc[0]
    assert row["held"] == "line-up heuristic" and row["moved"] == "players=2 (reference players=3)"
    assert row["difference"] == pytest.approx(-6.0, abs=2.0) and bool(row["significant"])
    lineup = comp[(comp["factor"] == LINEUP) & (comp["variant"] == "v03")]
    assert set(lineup["reference"]) == {"v02"} and set(lineup["held"]) == {"players=3"}
    assert set(lineup["moved"]) == {"line-up search (reference heuristic)"}


def test_pairs_are_paired_only_when_both_played_the_same_games():
    m = manifest(["heuristic", "search"], games={"heuristic": 100, "search": 40})
    g = games_of(m)
    comp = factor_comparisons(g, METRICS, m, ["v00", "v01", "v02", "v03"], "v02")
    assert comp[comp["factor"] == RULES]["paired"].all()  # 100 vs 100, 40 vs 40: the same seeds
    lineup = comp[comp["factor"] == LINEUP]
    assert not lineup["paired"].any() and (lineup["pairs"] == 0).all()  # 40 against 100: independent samples
    np.testing.assert_allclose(lineup["low"], lineup["unpaired_low"])


def _table(names, verdicts=None, games=None):
    m = manifest(names, games=games)
    ids = [v["id"] for v in m["variants"]]
    count = {v["id"]: v["games"] for v in m["variants"]}
    table = None
    if verdicts:
        rows = [{"variant": v["id"], "verdict": verdicts[v["lineup"]]} for v in m["variants"]
                if v["lineup"] in verdicts]
        table = pd.DataFrame(rows)
    return m, lineup_table(m, ids, count, table, m["baseline"]).set_index("lineup")


def test_the_headline_line_up_is_the_most_competent():
    _, t = _table(["heuristic", "search", "trained", "random"])
    assert t.loc["trained", "role"] == "headline" and t.loc["heuristic", "role"] == "reference"
    _, t = _table(["heuristic", "search", "random"])
    assert t.loc["search", "role"] == "headline"
    _, t = _table(["random", "heuristic"])
    assert t.loc["heuristic", "role"] == "headline" and t.loc["random", "role"] == "reference"
    # A line-up is as competent as its weakest seat: trained beside random seats is a random line-up.
    _, t = _table(["mixed", "heuristic"])
    assert t.loc["heuristic", "role"] == "headline" and t.loc["mixed", "level_name"] == "random"


def test_a_line_up_found_exploitable_gives_way():
    _, t = _table(["heuristic", "trained", "search"], verdicts={"trained": "exploitable", "search": "holds"})
    assert t.loc["search", "role"] == "headline" and t.loc["trained", "verdict"] == "exploitable"
    _, t = _table(["heuristic", "trained"], verdicts={"trained": "holds"})
    assert t.loc["trained", "role"] == "headline" and t.loc["trained", "verdict"] == "holds"


def test_the_verdict_under_the_baseline_rules_decides_the_headline():
    # The default spec's case: a probe beats the trained players with 2 players only; they hold under the baseline's
    # 3-player rules, where the headline figures come from, so they keep the headline over the untested search
    # line-up (which used to take it).
    m = manifest(["heuristic", "trained", "search"])
    ids = [v["id"] for v in m["variants"]]
    trained = {v["params"]["players"]: v["id"] for v in m["variants"] if v["lineup"] == "trained"}
    count = {v["id"]: v["games"] for v in m["variants"]}

    def table(two, three):
        verdicts = pd.DataFrame([{"variant": trained[2], "verdict": two}, {"variant": trained[3], "verdict": three}])
        return lineup_table(m, ids, count, verdicts, m["baseline"]).set_index("lineup")

    t = table("exploitable", "holds")
    assert t.loc["trained", "verdict"] == "exploitable" and t.loc["trained", "verdict_at_baseline_rules"] == "holds"
    assert t.loc["trained", "role"] == "headline" and t.loc["search", "role"] == ""
    t = table("holds", "exploitable")  # beaten where the headline figures come from: it gives way
    assert t.loc["search", "role"] == "headline" and t.loc["trained", "verdict_at_baseline_rules"] == "exploitable"


def test_search_over_trained_rollouts_and_a_larger_budget_are_stronger():
    _, t = _table(["heuristic", "trained", "searchtrained"], games={"searchtrained": 30})
    assert t.loc["trained", "role"] == "headline" and t.loc["searchtrained", "role"] == "stronger"
    _, t = _table(["search", "search1600"], games={"search1600": 30})
    assert t.loc["search", "role"] == "headline" and t.loc["search1600", "role"] == "stronger"
    _, t = _table(["heuristic", "search"])
    assert "stronger" not in set(t["role"])  # nothing beats the headline's search seats


def test_a_headline_figure_that_moves_under_stronger_play_says_so():
    m = manifest(["heuristic", "trained", "searchtrained"], games={"searchtrained": 100})
    ids = [v["id"] for v in m["variants"]]
    lineups = lineup_table(m, ids, {v["id"]: v["games"] for v in m["variants"]}, None, m["baseline"])
    g = games_of(m, shift={"searchtrained": 8.0})
    table = stability(g, METRICS, lineups)
    head = lineups.set_index("lineup").loc["trained", "variant_at_baseline_rules"]
    strong = lineups.set_index("lineup").loc["searchtrained", "variant_at_baseline_rules"]
    assert set(table["variant"]) == {head} and set(table["stronger"]) == {strong}
    verdict = table.set_index("metric")["verdict"]
    assert verdict["turns per game"] == MOVES  # 8 turns more under the stronger line-up
    assert verdict["first seat wins"] == STABLE  # a fair coin under both
    row = table.set_index("metric").loc["first seat wins"]
    assert row["largest_move"] == pytest.approx(max(abs(row["low"]), abs(row["high"])))
    assert table["paired"].all()  # both played game indices 0..99


def test_headline_rows_come_from_the_headline_variant_and_mark_exploitable_players():
    m = manifest(["heuristic", "search"])
    ids = [v["id"] for v in m["variants"]]
    verdicts = pd.DataFrame([{"variant": "v02", "lineup": "heuristic", "best_challenger": "never trust", "games": 50,
                              "win_rate": 0.8, "low": 0.7, "high": 0.9, "fair": 1 / 3, "verdict": "exploitable"}])
    lineups = lineup_table(m, ids, {v: 100 for v in ids}, verdicts, "v02")
    g = games_of(m, shift={2: -6.0})
    comp = factor_comparisons(g, METRICS, m, ids, "v02")
    seat_rates = pd.DataFrame([{"variant": v, "seat": s, "win_rate": 0.5, "low": 0.4, "high": 0.6, "fair": 0.5,
                                "games": 100} for v in ids for s in (0, 1)])
    tests = pd.DataFrame([{"variant": v, "p_value": 0.5, "p_holm": 0.9, "games": 100} for v in ids])

    class Results(dict):
        pass

    res = Results(seat_win_rates=seat_rates, equal_seats_test=tests, trust_verdicts=verdicts)
    lineup_of = {v["id"]: v["lineup"] for v in m["variants"]}
    rows = headline_rows(res, g, METRICS, comp, lineups, stability(g, METRICS, lineups), "v02", 6, lineup_of)
    assert set(rows.loc[rows["kind"].isin(["seat", "baseline", "balance test"]), "variant"]) == {"v03"}  # search
    assert not rows.loc[rows["kind"] == "seat", "exploitable"].any()
    assert rows.loc[rows["kind"] == "trust", "exploitable"].all()
    changes = rows[rows["kind"] == "change"]
    assert set(changes["factor"]) == {RULES}
    # The heuristic's 2-player change is marked: its players were found exploitable; the search one is not.
    marked = changes.set_index("variant")["exploitable"].groupby(level=0).all()
    assert marked["v00"] and not marked["v01"]
