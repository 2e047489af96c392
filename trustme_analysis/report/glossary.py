"""The glossary page: every statistic and term the report uses, one sentence each, in a designer's words.

One name per definition: the pages use these names (:data:`LUDII_NAMES` gives the Ludii metrics' names on the
pages), and the statistics guide (``docs/guide/statistics.rst``) gives the formulas behind them.
"""

from __future__ import annotations

from trustme_analysis.report.layout import Line, flow_pages, text_lines

#: The Ludii balance metrics as the pages name them (the Ludii name where it is a plain word).
LUDII_NAMES = {
    "Balance": "Balance",
    "AdvantageP1": "First-seat win rate",
    "Completion": "Completion",
    "Drawishness": "Drawishness",
    "Duration": "Turns per game",
    "LeadChange": "Lead changes per turn",
    "Drama": "Drama",
    "Decisiveness": "Decisiveness",
}

#: Term -> one sentence, in the order of the page (the game, the figures, balance, then solving).
TERMS: dict[str, str] = {
    "Variant": "One set of rules and players the sweep played (codes such as v03 are explained at the foot of "
               "every page that uses them).",
    "Baseline": "The variant every other variant is compared with, named by the spec.",
    "Line-up": "Which kind of player sits in each seat (the same bot in every seat unless the spec says otherwise).",
    "Seat": "A player's place in the turn order; seat 0 plays first.",
    "Win rate": "The share of games a seat wins, after the rulebook's tie-breaks.",
    "Fair rate": "The win rate every seat would have if no seat had an advantage: one over the number of players, "
                 "or, in a game whose tied seats all count a win (Trust Me (1981)), the mean number of winners per "
                 "game over the number of players.",
    "First seat advantage": "The first seat's win rate minus the fair rate (last-seat advantage: the same for the "
                            "last seat).",
    "95% interval": "The range the true figure lies in with 95% confidence, given the games played (in brackets "
                    "after each figure); more games make it narrower.",
    "Significant": "A difference from the reference too large to be chance, even allowing for the many comparisons "
                   "a sweep makes (Holm's correction within each factor, 5% risk of any false alarm).",
    "One factor at a time": "A rule variant is compared with the baseline's rules played by the same line-up; a "
                            "line-up with the reference line-up (the baseline's) under the same rules; so each "
                            "change has one cause.",
    "Headline line-up": "The most competent line-up the spec has (trained seats, else search, else heuristic, else "
                        "random; one the trust check found exploitable gives way): page 1's figures are its, under "
                        "the baseline's rules.",
    "Stable under stronger play": "A headline figure whose change under a stronger line-up has a 95% interval that "
                                  "includes no change; still moves with skill: the interval excludes it.",
    "pp (percentage points)": "The difference of two percentages: from 30% to 33% is +3 pp.",
    "p-value": "How often chance alone would give a difference at least this large; small means real.",
    "Chi-square test of equal seats": "Asks whether the seats' win counts differ more than chance allows; a "
                                      "p-value below 5% says some seat wins more often.",
    "Balance": "One minus the gap between the best and the worst seat's win rate; 100% when every seat wins "
               "equally often.",
    "First-seat win rate": "The share of games the first seat wins (Ludii's AdvantageP1).",
    "Completion": "The share of games that reached an ending of the rules rather than a turn cap.",
    "Drawishness": "The share of games whose best final score was shared, so a tie-break chose the winner (the "
                   "game's pages say best score shared, richest shared or first place shared).",
    "Turns per game": "How long a game lasts, in turns (bonus turns included; Ludii's Duration).",
    "Lead changes per turn": "How often the sole leader changes, per turn (Ludii's LeadChange); lead changes per "
                             "game count the same changes per game.",
    "Drama": "How far behind the leader the eventual winner fell, as a share of the winner's final score; high "
             "means comebacks.",
    "Decisiveness": "The share of the game played after the winner took a lead it never lost.",
    "Paired comparison": "Game i of every variant starts from the same seed (the same deal and chance where the "
                         "rules allow), so two variants that played the same games are compared game by game; the "
                         "unpaired interval treats the two variants' games as independent and is wider.",
    "Same games, scored again": "A variant that differs from its reference only in a rule that changes the scoring "
                                "of a finished game (a chart) and that its players do not read: its games are the "
                                "reference's, move for move, with the final scores counted under its own rule.",
    "Holm p-value": "A p-value adjusted for the many tests a sweep makes (Holm's method): over one factor's "
                    "comparisons, or over the variants for the test of equal seats; verdicts use it.",
    "Set-bonus share of all points": "Pinocchio: the set bonuses of all seats in all games over all their points, "
                                     "pooled (a long game weighs more).",
    "Set-bonus share per game (mean)": "Pinocchio: in each game, the set bonuses of all seats over all their "
                                       "points; then the mean over games (every game weighs the same), which is "
                                       "what variants are compared on.",
    "Score trace": "A seat's score after every turn of a game, rebuilt from the game's events.",
    "Bluff": "A claim that is not true: a tall tale in Pinocchio, a false card in Liar.",
    "Reach": "How often play comes to a situation per game under the policy (above 100%: more than once a game).",
    "Solved policy (equilibrium)": "How rational players play a reduced variant: no player can gain by changing "
                                   "its own play alone, up to the exploitability.",
    "Exploitability": "In a two-player game, what a player who knows the policy gains on average by playing "
                      "against it; zero at an exact equilibrium.",
    "NashConv": "The same for three or more players: the gains of every player's best response, added up.",
    "Best response": "The best play against players whose strategies are known, e.g. against a bot.",
    "Gain": "What the best response wins beyond what the seat's own bot gets in the same line-up.",
    "Value of a seat": "What a seat expects to win per game under the solved policy, in the game's utility.",
    "Simple strategy": "A plain rule such as always invest or never bluff, played where it applies (the solved "
                       "policy elsewhere).",
    "Regret": "What a simple strategy loses against the solved policy compared with the best response.",
    "Worst-case loss": "How much a simple strategy lowers the value a seat can guarantee against any opponent.",
    "Near-optimal": "A simple strategy whose loss is within 1% of the utility range (or twice the exploitability): "
                    "as good as rational play for a designer's purposes.",
    "Information state": "Everything a player knows at a decision: its own cards, what it has seen, and the public "
                         "play so far.",
    "Probes": "Named fixed strategies (always bluff, never trust, ...) played against a line-up to test whether "
              "its players can be exploited.",
    "Skill trace": "Win rates of search players with growing budgets, each against the previous: a rising curve "
                   "means skill matters more than luck.",
}


def glossary_pages(title: str = "Glossary") -> list:
    """The glossary as flowing text (one or more pages)."""
    lines: list[Line] = text_lines("Each term as the report uses it; the statistics guide gives the formulas.")
    lines.append(Line(""))
    for term, sentence in TERMS.items():
        lines += text_lines(f"{term}: {sentence}", "small", indent=4)
    return flow_pages(title, lines)
