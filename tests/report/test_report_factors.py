"""Page 1 and the comparison pages of a sweep whose grid crosses rules with line-ups: each comparison moves one
factor and says which, the headline comes from the most competent line-up with its trust verdict, and each headline
figure is weighed against a stronger line-up. The records are random play; the manifest names the seats (trained,
search over trained rollouts), which is all the report reads of them."""

import json

import pandas as pd
from pypdf import PdfReader
from test_report_build import VARIANTS, write_sweep

from trustme_analysis import results
from trustme_analysis.outdir import manifest_path
from trustme_analysis.report import build_report

LINEUPS = {
    "heuristic": {"bot": "heuristic", "knobs": {}},
    "trained": {"bot": "trained", "knobs": {}},
    "strong": {"bot": "search", "knobs": {"budget": 1600, "rollout": "trained"}},
}


def _crossed_sweep(out):
    """Players 2/3 x line-ups heuristic, trained, strong (search over trained rollouts); baseline 2 players under
    the heuristic line-up."""
    two, three = VARIANTS["v00"], VARIANTS["v01"]
    cells = [(p, name) for p in (2, 3) for name in LINEUPS]
    variants = {f"v{i:02d}": (two if p == 2 else three) for i, (p, _) in enumerate(cells)}
    write_sweep(out, variants, baseline="v00")
    manifest = json.loads(manifest_path(out).read_text())
    for v, (p, name) in zip(manifest["variants"], cells):
        v.update(label=f"players={p}, lineup={name}", lineup=name, seats=[LINEUPS[name]] * p,
                 grid={"players": p}, params={"players": p})
    manifest_path(out).write_text(json.dumps(manifest))
    return {cell: f"v{i:02d}" for i, cell in enumerate(cells)}


def _pages(pdf):
    return [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]


def test_a_crossed_grid_gets_both_factors_the_trained_headline_and_the_stability_check(tmp_path):
    ids = _crossed_sweep(tmp_path)
    res = results.load(tmp_path)
    comp = res["comparisons"]
    by = {v: k for k, v in ids.items()}
    # No comparison moves both factors: a rule comparison keeps the line-up, a line-up comparison keeps the rules.
    for r in comp.itertuples():
        (p, lineup), (p_ref, lineup_ref) = by[r.variant], by[r.reference]
        if r.factor == "rules":
            assert lineup == lineup_ref and p != p_ref
        else:
            assert p == p_ref and lineup != lineup_ref and lineup_ref == "heuristic"
    assert set(comp.loc[comp["factor"] == "rules", "variant"]) == {ids[(3, n)] for n in LINEUPS}
    lineups = res["lineups"].set_index("lineup")
    assert lineups.loc["trained", "role"] == "headline" and lineups.loc["strong", "role"] == "stronger"
    assert lineups.loc["heuristic", "role"] == "reference"
    head = res["headlines"]
    assert set(head.loc[head["kind"] == "seat", "variant"]) == {ids[(2, "trained")]}
    stable = res["stability"]
    assert set(stable["variant"]) == {ids[(2, "trained")]} and set(stable["stronger"]) == {ids[(2, "strong")]}
    assert set(stable["verdict"]) <= {"stable under stronger play", "still moves with skill"}

    pages = _pages(build_report(tmp_path))
    first = pages[0]
    assert (f"The headline figures are those of {ids[(2, 'trained')]} (2 players, line-up trained): the baseline's "
            "rules under line-up trained (trained seats), the most competent of the spec's 3 line-ups; its players "
            "were not put to the trust check.") in first
    assert "Has it stopped moving? Under line-up strong (stronger than trained)" in first
    assert "under stronger play" in first or "still moves with skill" in first
    # pypdf returns a page's text in drawing order, so look for each title anywhere on a page (not the contents).
    body = [p for p in pages[1:] if not p.startswith("Contents")]
    for title in ("What changed most: the rules, under the same line-up",
                  "What changed most: the players, under the same rules",
                  "Has it stopped moving? The headline figures under stronger players",
                  "The rules, one at a time: differences", "The players, one line-up at a time: differences"):
        assert any(title in p for p in body), title
    players = next(p for p in body if "The players, one line-up at a time: differences" in p)
    assert "Only the players move here: each line-up against the reference line-up heuristic under the same rules" \
        in players
    rules = next(p for p in body if "The rules, one at a time: differences" in p)
    assert "Only the rules move here: each rule variant against the baseline's rules (2 players)" in rules
    stored = pd.read_csv(tmp_path / "stats" / "stability.csv")
    assert len(stored) == len(stable)
