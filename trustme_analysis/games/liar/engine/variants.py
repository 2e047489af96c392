"""Reduced ``trustme_liar`` variants small enough for exact solvers, and a counter of their game-tree sizes.

The full game is far too large for tabular CFR; these presets keep the rules and shrink the deck, the plays and
the turn cap (the cap ends the game as the turn-cap assumption says). Their sizes are pinned by a test and stated
in ``docs/games/liar.rst``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

#: Short names of the presets -> game strings. Two players, values 1-3 with two copies each (after the pair
#: discards both hands are {1, 2, 3}, or one card each), a short turn cap, and seat 0 always starts (a fixed first
#: player keeps the tree free of the chance node that draws one, and the first seat's value readable). Sizes (``tree_size``): ``tiny`` and
#: ``tiny_trustme`` 21,132 histories, 1,330 / 1,059 information states; ``tiny_plays2`` and ``tiny_plays2_trustme``
#: 134,127 histories, 5,677 / 5,790 information states.
TINY_VARIANTS: dict[str, str] = {
    "tiny": "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6,first_player=seat0)",
    "tiny_trustme": (
        "trustme_liar(players=2,values=3,copies=2,max_play=1,max_turns=6,mode=trustme,first_player=seat0)"
    ),
    "tiny_plays2": "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,first_player=seat0)",
    # The same with Trust Me scoring, so claim sizes of 1 and 2 can be compared between the two modes.
    "tiny_plays2_trustme": (
        "trustme_liar(players=2,values=3,copies=2,max_play=2,max_turns=6,mode=trustme,first_player=seat0)"
    ),
}


@dataclass(frozen=True)
class TreeSize:
    """Counts from walking a whole game tree."""

    histories: int  # every node: chance, decision and terminal
    terminals: int
    decision_nodes: int
    infostates: tuple[int, ...]  # distinct information states per player


def tree_size(game: pyspiel.Game, limit: int = 2_000_000, check_perfect_recall: bool = False) -> TreeSize:
    """Walk the whole tree of ``game`` (depth first); stop with an error beyond ``limit`` histories.

    With ``check_perfect_recall``, also check that each information state determines the acting player's own past:
    the earlier information states at which that player acted and the actions taken there (ValueError if not).
    """
    histories = terminals = decisions = 0
    infosets: list[set[str]] = [set() for _ in range(game.num_players())]
    # Per player: information state -> that player's past (information states and actions) on the way to it.
    pasts: list[dict[str, tuple]] = [{} for _ in range(game.num_players())]
    stack: list[tuple[pyspiel.State, tuple]] = [(game.new_initial_state(), ((),) * game.num_players())]
    while stack:
        state, past = stack.pop()
        histories += 1
        if histories > limit:
            raise ValueError(f"{game}: more than {limit} histories")
        if state.is_terminal():
            terminals += 1
            continue
        player = state.current_player()
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            decisions += 1
            info = state.information_state_string(player)
            infosets[player].add(info)
            actions = state.legal_actions()
            if check_perfect_recall:
                seen = pasts[player].setdefault(info, past[player])
                if seen != past[player]:
                    raise ValueError(f"{game}: information state {info!r} is reached with two different pasts")
        for action in actions:
            if check_perfect_recall and player >= 0:
                step = past[player] + ((info, action),)
                child_past = past[:player] + (step,) + past[player + 1 :]
            else:
                child_past = past
            stack.append((state.child(action), child_past))
    return TreeSize(histories, terminals, decisions, tuple(len(s) for s in infosets))
