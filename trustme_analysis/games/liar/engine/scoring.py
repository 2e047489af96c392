"""Results of ``trustme_liar``: the Classique ranking, the Trust Me points by source, and solver utilities."""

from __future__ import annotations

from collections.abc import Sequence

from trustme_analysis.games.liar.engine.rules import Rules

#: The Trust Me point sources, in the order the rule text lists them.
SOURCES = ("going_out", "cards_in_hand", "false_cards", "unmasked", "wrongly_accused")


def shared_ranks(keys: Sequence[float]) -> list[float]:
    """Rank 1 for the smallest key; tied keys share the mean of the places they span (e.g. 2.5)."""
    ranks = []
    for key in keys:
        better = sum(1 for k in keys if k < key)
        tied = sum(1 for k in keys if k == key)
        ranks.append(better + (tied + 1) / 2)
    return ranks


def classique_ranks(cards_left: Sequence[int], out: Sequence[bool]) -> list[float]:
    """The first out wins; the others are ranked by cards left (fewer is better), ties shared."""
    # A player who went out sorts ahead of everyone else, whatever the others hold.
    return shared_ranks([(-1 if gone else n) for n, gone in zip(cards_left, out)])


def points_by_source(
    rules: Rules,
    cards_left: Sequence[int],
    out: Sequence[bool],
    false_cards: Sequence[int],
    unmasked: Sequence[int],
    wrongly_accused: Sequence[int],
) -> list[dict[str, int]]:
    """Each player's Trust Me points split by source (going out, cards in hand, false cards, unmasked, accused)."""
    return [
        {
            "going_out": rules.points_going_out * int(out[s]),
            "cards_in_hand": rules.points_card_in_hand * cards_left[s],
            "false_cards": rules.points_false_card * false_cards[s],
            "unmasked": rules.points_unmasked * unmasked[s],
            "wrongly_accused": rules.points_wrongly_accused * wrongly_accused[s],
        }
        for s in range(rules.players)
    ]


def rank_utility(ranks: Sequence[float]) -> list[float]:
    """(players ranked below - players ranked above) / (players - 1): +1 alone first, -1 alone last, zero-sum."""
    n = len(ranks)
    return [
        (sum(1 for o in ranks if o > r) - sum(1 for o in ranks if o < r)) / (n - 1) for r in ranks
    ]


def difference_utility(points: Sequence[float]) -> list[float]:
    """Own points minus the mean of the others' points (zero-sum; for two players the plain difference)."""
    n = len(points)
    total = sum(points)
    return [x - (total - x) / (n - 1) for x in points]


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """Bounds on ``returns()`` for GameInfo (loose for points: every source counted at its most)."""
    kind = rules.utility_in_force
    if kind == "rank":
        return -1.0, 1.0
    turns = rules.max_turns
    most = {
        "going_out": 1,
        "cards_in_hand": rules.deck_size,
        "false_cards": rules.max_play * turns,
        "unmasked": turns,
        "wrongly_accused": turns,
    }
    values = {
        "going_out": rules.points_going_out,
        "cards_in_hand": rules.points_card_in_hand,
        "false_cards": rules.points_false_card,
        "unmasked": rules.points_unmasked,
        "wrongly_accused": rules.points_wrongly_accused,
    }
    high = float(sum(max(0, values[s]) * most[s] for s in SOURCES))
    low = float(sum(min(0, values[s]) * most[s] for s in SOURCES))
    if kind == "points":
        return low, high
    return low - high, high - low
