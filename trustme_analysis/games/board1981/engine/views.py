"""What a ``trustme_1981`` position looks like from outside: the referee's snapshot and the text views.

Public at the table: the pieces, the claim markers, money, shares, the reserve, which briefcases are gone and the
cards they showed, who has looked under which briefcase, the die, the Trust Me cards drawn, every investing decision.
Private: the Payoff card under a briefcase a player looked at (until it is revealed). The observer
(:mod:`~trustme_analysis.games.board1981.engine.observer`) builds its strings from :func:`describe`.
"""

from __future__ import annotations

from typing import Any

from trustme_analysis.games.board1981.engine.investing import PAYOFF_NAMES, PAYOFF_SHORT, ranks
from trustme_analysis.games.board1981.engine.rules import SHORT_NAME


def _names(state) -> tuple[str, ...]:
    return state._board.property_names


def snapshot(state) -> dict[str, Any]:
    """Everything a referee sees, as a plain JSON-serialisable dict.

    Keys: ``game``, ``players``, ``assumptions`` (the assumptions in force), ``phase``, ``current_player``, ``turn``,
    ``turn_player``, ``first_player``, ``positions`` (space ids), ``claims`` (property names or None), ``money``,
    ``shares``, ``reserve``, ``claimant``, ``cases_left``, ``cases_revealed``, ``cards`` (every briefcase's Payoff
    card), ``knows`` (who has looked under which briefcase), ``trust_deck_left``, ``bank`` and ``events``
    (:mod:`~trustme_analysis.games.board1981.engine.events`); at the end also ``end``, ``wealth``, ``ranks`` and
    ``returns``.
    """
    rules = state._rules
    board = state._board
    names = _names(state)
    snap: dict[str, Any] = {
        "game": SHORT_NAME,
        "players": rules.players,
        "assumptions": rules.assumptions(),
        "phase": state.phase_name(),
        "current_player": int(state.current_player()),
        "turn": state._turns,
        "turn_player": state._turn_player,
        "first_player": state._first_player,
        "positions": [board.space_ids[s] for s in state._positions],
        "claims": [names[c] if c >= 0 else None for c in state._claims],
        "money": list(state._money),
        "shares": list(state._shares),
        "reserve": state._reserve,
        "claimant": state._claimant if state._claimant >= 0 else None,
        "cases_left": [names[q] for q in range(rules.num_properties) if not state._removed[q]],
        "cases_revealed": [
            {"property": names[q], "card": PAYOFF_NAMES[state._cards[q]]}
            for q in range(rules.num_properties)
            if state._removed[q]
        ],
        "cards": {names[q]: PAYOFF_NAMES[c] for q, c in enumerate(state._cards)},
        "knows": {names[q]: state.seen_by(q) for q in range(len(names))},
        "trust_deck_left": sum(state._trust_pile),
        "bank": state.bank_flows(),
        "events": state.events(),
    }
    if state.is_terminal():
        wealth = state.wealth()
        snap["end"] = state._end
        snap["wealth"] = [{"money": m, "shares": s, "total": m + s} for m, s in zip(state._money, state._shares)]
        snap["ranks"] = ranks(wealth)
        snap["returns"] = state.returns()
    return snap


def describe(state, player: int | None) -> str:
    """A compact text view of the position: the public part and, for a seat, what that seat knows privately; for
    ``player=None`` the referee's view (every briefcase's card)."""
    if player is None:
        return public_part(state) + " cards:" + "".join(PAYOFF_SHORT[c][0] for c in state._cards)
    return public_part(state) + " " + private_part(state, player)


def public_part(state) -> str:
    """What everybody at the table sees (the same text for every player)."""
    board = state._board
    revealed = state.revealed_cards()
    return " ".join([
        f"phase:{state.phase_name()}",
        f"decider:{state._decider}",
        f"turn:{state._turns}",
        "pos:" + ",".join(board.space_ids[s] for s in state._positions),
        "claim:" + ",".join(str(c) for c in state._claims),
        "money:" + ",".join(map(str, state._money)),
        "shares:" + ",".join(map(str, state._shares)),
        f"reserve:{state._reserve}",
        "gone:" + ",".join(f"{q}={PAYOFF_SHORT[c]}" for q, c in sorted(revealed.items())),
        "looked:" + ",".join(format(s, "b") for s in state._looked),
        f"roll:{state._roll}",
    ])


def private_part(state, player: int) -> str:
    """What only ``player`` knows: the cards under the briefcases it looked at that are still on the board."""
    known = {q: c for q, c in state.known_cards(player).items() if not state._removed[q]}
    return f"p{player} known:" + ",".join(f"{q}={PAYOFF_SHORT[c]}" for q, c in sorted(known.items()))
