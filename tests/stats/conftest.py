"""Two hand-made terminal Pinocchio snapshots whose records and statistics the tests work out by hand.

Game A (2 players, values 3, chart 1/3/6, stacks 2/1/1, two empty stacks end the game):
  turn 1, seat 0 tells a tall tale (2 under 3?) that seat 1 trusts: Ticket 1 (asked 1).
  turn 2, seat 1 takes a Park Character.
  turn 3, seat 0 tells a true tale that seat 1 distrusts: bonus turn.
  turn 4 (bonus), seat 0 uses Reputation for a Ticket 2; stack 2 runs out.
  turn 5, seat 1 tells a tall tale (difference 2) that seat 0 trusts; stack 2 is empty, so Ticket 1; stack 1 runs
  out and the stacks end the game. Seat 0: Tickets 1+2 -> 3 face + 3 bonus = 6; seat 1: Ticket 1 -> 1 + 1 = 2.
Game B: turn 1 seat 0 takes from the Park; turn 2 seat 1 gains a Ticket 3 by Reputation (stack 3 runs out); the
  deck ends the game. Seat 1: 3 face + 1 bonus = 4; seat 0: 0.
"""

import pytest


def turn(t, p, bonus=False):
    return {"kind": "turn", "turn": t, "player": p, "bonus": bonus, "day": "day"}


def tale(t, p, park, hidden, votes, trusted):
    tall = park != hidden
    row = ("tall_" if tall else "true_") + ("trusted" if trusted else "distrusted")
    return {"kind": "tale", "turn": t, "player": p, "park_value": park, "hidden_value": hidden, "tall": tall,
            "votes": votes, "coin": None, "coin_by": None, "trusted": trusted, "row": row}


def ticket(t, p, value, requested, route):
    return {"kind": "ticket", "turn": t, "player": p, "value": value, "requested": requested, "route": route}


def snapshot(events, tickets, scores, winner, turns, trigger, stacks_left):
    return {
        "game": "trustme_pinocchio(players=2,values=3,chart=1/3/6,stacks=2/1/1)",
        "players": 2, "turn": turns, "current_player": -4, "phase": "terminal", "day": "day", "runouts": 0,
        "deck_size": 0, "deck_contents": [0, 0, 0], "discard": [0, 0, 0], "park": [], "hands": [[], []],
        "reputations": [[], []], "tickets": tickets, "stacks_left": stacks_left, "coin_used": [False, False],
        "pending_bonus": False, "end_trigger": trigger, "scores": scores, "winner": winner, "events": events,
    }


def score(face, bonus, tickets, rank):
    return {"ticket_face": face, "set_bonus": bonus, "total": face + bonus, "tickets": tickets, "rank": rank}


@pytest.fixture
def game_a():
    events = [
        turn(1, 0), tale(1, 0, 2, 3, [None, True], True), ticket(1, 0, 1, 1, "tale"),
        turn(2, 1), {"kind": "park_take", "turn": 2, "player": 1, "value": 2},
        turn(3, 0), tale(3, 0, 1, 1, [None, False], False), {"kind": "bonus_turn", "turn": 3, "player": 0},
        turn(4, 0, bonus=True), ticket(4, 0, 2, 2, "reputation"), {"kind": "stack_empty", "turn": 4, "value": 2},
        turn(5, 1), tale(5, 1, 1, 3, [True, None], True), ticket(5, 1, 1, 2, "tale"),
        {"kind": "stack_empty", "turn": 5, "value": 1}, {"kind": "game_end", "turn": 5, "trigger": "stacks"},
    ]
    return snapshot(events, [[1, 1, 0], [1, 0, 0]], [score(3, 3, 2, 1), score(1, 1, 1, 2)], 0, 5, "stacks",
                    [0, 0, 1])


@pytest.fixture
def game_b():
    events = [
        turn(1, 0), {"kind": "park_take", "turn": 1, "player": 0, "value": 1},
        turn(2, 1), ticket(2, 1, 3, 3, "reputation"), {"kind": "stack_empty", "turn": 2, "value": 3},
        {"kind": "game_end", "turn": 2, "trigger": "deck"},
    ]
    return snapshot(events, [[0, 0, 0], [0, 0, 1]], [score(0, 0, 0, 2), score(3, 1, 1, 1)], 1, 2, "deck",
                    [2, 1, 0])
