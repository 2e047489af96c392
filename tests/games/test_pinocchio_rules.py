"""Scripted scenarios: each rule of the Pinocchio "Trust Me" rulebook played with exact deals and moves.

The :class:`Table` helper deals chosen Characters, so each test reads like the rulebook: who draws what, which tale
is told, how the table votes, and what the state is afterwards.
"""

import doctest

import pyspiel
import pytest

from trustme_analysis.games import pinocchio
from trustme_analysis.games.pinocchio.engine import actions as A
from trustme_analysis.games.pinocchio.engine.script import Table

G2 = "trustme_pinocchio(players=2)"
G3 = "trustme_pinocchio(players=3)"


def last(t: Table, kind: str) -> dict:
    return t.events(kind)[-1]


def combos_offered(t: Table, hand: int) -> set[tuple[str, int]]:
    return {(str(m.combo), m.combo.length) for m in t.legal_moves() if m.kind == A.REPUTATION and m.hand == hand}


# ---------------------------------------------------------------- components and set-up


def test_setup_deals_park_of_four_and_a_hand_of_one_then_seat_0_draws():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    s = t.snap
    assert s["park"] == [1, 2, 3, 4]
    assert s["hands"] == [[5], [6], [1]]
    assert s["deck_size"] == 30 - 4 - 3
    assert s["deck_contents"] == [3, 4, 4, 4, 4, 4]  # two Pinocchios and one of each other value dealt
    assert s["stacks_left"] == [6, 5, 4, 3, 2, 1]
    assert (s["phase"], s["turn"], s["day"], s["runouts"]) == ("draw", 1, "day", 0)
    assert t.events() == [{"kind": "turn", "turn": 1, "player": 0, "bonus": False, "day": "day"}]


def test_first_player_seat0_starts_without_a_chance_node():
    """The default ``first_player=seat0``: the Park is dealt at once and seat 0 takes the first turn."""
    game = pyspiel.load_game(G3)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 6  # the first Park Character, by value
    t = Table(game, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    assert t.events("turn")[0]["player"] == 0 and not t.events("first_player")
    with pytest.raises(ValueError, match="first_player=seat0"):
        Table(game, park=[1, 2, 3, 4], hands=[[5], [6], [1]], first=2)


@pytest.mark.parametrize("first", [0, 1, 2])
def test_first_player_random_is_a_chance_node_at_set_up_and_that_seat_starts(first):
    """``first_player=random``: before the Park is dealt, chance picks the first seat uniformly (every player sees
    it); that seat takes turn 1 and play goes left from it (here seat ``first``, then the next)."""
    game = pyspiel.load_game("trustme_pinocchio(players=3,first_player=random)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, first) == f"First player: seat {first}"
    t = Table(game, park=[1, 2, 3, 4], hands=[[5], [6], [1]], first=first)
    s = t.snap
    assert (s["phase"], s["turn"], s["active_player"], s["hands"]) == ("draw", 1, first, [[5], [6], [1]])
    assert t.events()[:2] == [{"kind": "first_player", "player": first},
                              {"kind": "turn", "turn": 1, "player": first, "bonus": False, "day": "day"}]
    for p in range(3):
        assert t.state.information_state_string(p).startswith(f"p{p}|first:p{first} park+1")
    t.draw(2)
    t.take(hand=2, park=1)
    assert t.events("turn")[-1]["player"] == (first + 1) % 3


def test_first_player_random_counts_in_the_game_length_and_narrates():
    seat0 = pyspiel.load_game(G3)
    random_first = pyspiel.load_game("trustme_pinocchio(players=3,first_player=random)")
    assert random_first.max_game_length() == seat0.max_game_length() + 1
    assert random_first.rules.first_player == "random" and seat0.rules.first_player == "seat0"
    from trustme_analysis.games.pinocchio.analysis.narrate import narrate

    assert narrate({"kind": "first_player", "player": 2}) == "Chance picks the first player: player 2 starts."


@pytest.mark.parametrize(
    "game, per_value",
    [(G2, 4), (G3, 5), ("trustme_pinocchio(players=4)", 5), ("trustme_pinocchio(players=2,two_player_removed=2)", 3)],
)
def test_two_player_game_removes_one_character_of_each_value(game, per_value):
    import pyspiel

    state = pyspiel.load_game(game).new_initial_state()
    assert state.snapshot()["deck_contents"] == [per_value] * 6
    # The first deal is proportional to the counts: every value equally likely.
    assert state.chance_outcomes() == [(v, 1 / 6) for v in range(6)]


def test_a_turn_is_draw_one_then_exactly_one_action():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(6)
    assert t.snap["hands"][0] == [5, 6]
    kinds = {m.kind_name for m in t.legal_moves()}
    # No Reputation yet, so no Use Reputation; tales and takes with either hand Character.
    assert kinds == {"tale", "take"}
    assert len(t.legal_moves()) == 4 * 2 + 2 * 4
    t.take(hand=6, park=1)
    assert t.snap["current_player"] == -1 and t.snap["phase"] == "draw" and t.snap["turn"] == 2


# ---------------------------------------------------------------- Tell a Tale: the four rows


@pytest.fixture
def told_true():
    """Seat 0 draws Pinocchio (1) and tells a true tale below the Park's Pinocchio."""
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(1)
    t.tale(park=1, hand=1)
    assert t.snap["phase"] == "vote" and t.snap["current_player"] == 1
    return t


def test_true_tale_trusted_both_characters_go_to_reputation(told_true):
    t = told_true
    t.vote(True, True)
    s = t.snap
    assert s["reputations"][0] == [1, 1]
    assert s["park"] == [2, 3, 4]
    assert s["hands"][0] == [5]
    assert last(t, "tale") == {
        "kind": "tale", "turn": 1, "player": 0, "park_value": 1, "hidden_value": 1, "tall": False,
        "votes": [None, True, True], "coin": None, "coin_by": None, "trusted": True, "row": "true_trusted",
    }
    assert last(t, "turn") == {"kind": "turn", "turn": 2, "player": 1, "bonus": False, "day": "day"}
    assert t.events("ticket") == []


def test_true_tale_distrusted_gives_a_bonus_turn(told_true):
    t = told_true
    t.vote(False, False)
    assert t.snap["reputations"][0] == [1, 1]
    assert last(t, "tale")["row"] == "true_distrusted"
    assert t.events("bonus_turn") == [{"kind": "bonus_turn", "turn": 1, "player": 0}]
    # The bonus turn is a regular turn, including the draw.
    assert last(t, "turn") == {"kind": "turn", "turn": 2, "player": 0, "bonus": True, "day": "day"}
    assert t.snap["phase"] == "draw"


def test_tall_tale_trusted_gains_the_difference_ticket():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(2)
    t.tale(park=1, hand=5)  # a tall tale: 5 below a 1
    t.vote(True, True)
    s = t.snap
    assert s["reputations"][0] == [1, 5]
    assert s["tickets"][0] == [0, 0, 0, 1, 0, 0]
    assert s["stacks_left"] == [6, 5, 4, 2, 2, 1]
    assert last(t, "tale")["row"] == "tall_trusted"
    assert t.events("ticket") == [
        {"kind": "ticket", "turn": 1, "player": 0, "value": 4, "requested": 4, "route": "tale"}]


def test_tall_tale_distrusted_puts_the_played_character_face_up_in_the_park():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(2)
    t.tale(park=1, hand=5)
    t.vote(False, True)  # 1 trusts, 2 does not: the 3-player Coin decides
    t.coin("donkey")
    s = t.snap
    assert s["park"] == [1, 2, 3, 4, 5]
    assert s["reputations"][0] == []
    assert s["hands"][0] == [2]
    assert last(t, "tale")["row"] == "tall_distrusted"
    assert t.events("ticket") == [] and t.events("bonus_turn") == []
    assert last(t, "turn")["player"] == 1


def test_tall_tale_takes_the_next_lower_ticket_when_its_stack_is_empty():
    t = Table("trustme_pinocchio(players=2,stacks=6/5/4/1/2/1)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=5)
    t.vote(True)
    assert t.events("stack_empty") == [{"kind": "stack_empty", "turn": 1, "value": 4}]
    t.draw(2)
    t.tale(park=2, hand=6)  # difference 4 again; no 4 left
    t.vote(True)
    assert last(t, "ticket") == {"kind": "ticket", "turn": 2, "player": 1, "value": 3, "requested": 4,
                                 "route": "tale"}
    assert t.snap["tickets"][1] == [0, 0, 1, 0, 0, 0]


def test_tall_tale_with_no_ticket_at_or_below_the_difference_still_succeeds_without_ticket():
    t = Table("trustme_pinocchio(players=2,stacks=1/1/1/1/1/1)", park=[1, 2, 3, 4], hands=[[2], [6]])
    t.draw(5)
    t.tale(park=1, hand=2)
    t.vote(True)
    t.draw(4)
    t.tale(park=3, hand=4)
    t.vote(True)
    assert last(t, "ticket") == {"kind": "ticket", "turn": 2, "player": 1, "value": None, "requested": 1,
                                 "route": "tale"}
    assert t.snap["reputations"][1] == [3, 4]
    assert t.snap["tickets"][1] == [0] * 6


def test_bonus_turns_chain():
    t = Table(G2, park=[1, 2, 3, 4], hands=[[1], [6]])
    t.draw(2)
    t.tale(park=1, hand=1)
    t.vote(False)
    t.draw(3)
    t.tale(park=2, hand=2)
    t.vote(False)
    t.draw(4)
    t.tale(park=3, hand=3)
    t.vote(False)
    t.draw(5)
    t.tale(park=4, hand=4)
    t.vote(True)
    t.draw(1, 2)  # the Park emptied: refill
    turns = [(e["turn"], e["player"], e["bonus"]) for e in t.events("turn")]
    assert turns == [(1, 0, False), (2, 0, True), (3, 0, True), (4, 0, True), (5, 1, False)]
    assert t.snap["reputations"][0] == [1, 1, 2, 2, 3, 3, 4, 4]


def test_three_player_disagreement_tosses_the_coin():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(1)
    t.tale(park=1, hand=1)
    t.vote(True, False)
    assert t.snap["phase"] == "vote_coin"
    assert t.state.chance_outcomes() == [(A.DONKEY, 0.5), (A.KID, 0.5)]
    t.coin("donkey")
    tale = last(t, "tale")
    assert (tale["coin"], tale["coin_by"], tale["trusted"], tale["row"]) == ("donkey", None, False, "true_distrusted")


def test_three_player_coin_kid_side_means_trusted():
    t = Table(G3, park=[1, 2, 3, 4], hands=[[5], [6], [1]])
    t.draw(2)
    t.tale(park=2, hand=5)
    t.vote(False, True)
    t.coin("kid")
    assert last(t, "tale")["row"] == "tall_trusted"
    assert last(t, "ticket")["value"] == 3


def test_four_player_majority_needs_no_coin():
    t = Table("trustme_pinocchio(players=4)", park=[1, 2, 3, 4], hands=[[5], [6], [1], [2]])
    t.draw(2)
    t.tale(park=2, hand=2)
    t.vote(True, False, False)
    assert last(t, "tale")["row"] == "true_distrusted"
    assert t.snap["phase"] == "draw"


# ---------------------------------------------------------------- Use Reputation


def charlotte_table() -> Table:
    """Seat 0 ends up with the rulebook's Charlotte Reputation: 2, 2, 3, 4 (and Mangiafuoco 5s in hand)."""
    t = Table(G2, park=[2, 3, 4, 5], hands=[[2], [6]])
    t.draw(1)
    t.tale(park=2, hand=2)
    t.vote(True)  # seat 0: Reputation 2, 2
    t.draw(6)
    t.take(hand=6, park=5)
    t.draw(1)
    t.take(hand=1, park=3)  # seat 0: 2, 2, 3
    t.draw(6)
    t.take(hand=6, park=6)  # another 6 was in the Park before this one was played
    t.draw(5)
    t.take(hand=1, park=4)  # seat 0: 2, 2, 3, 4
    t.draw(3)
    t.take(hand=3, park=1)
    t.draw(5)
    assert t.snap["reputations"][0] == [2, 2, 3, 4]
    assert t.snap["hands"][0] == [5, 5]
    return t


def test_use_reputation_offers_exactly_the_charlotte_options():
    t = charlotte_table()
    assert combos_offered(t, hand=5) == {
        ("set 1x2", 1), ("set 1x3", 1), ("set 1x4", 1),  # option 1: one Character, Cotton Candy
        ("set 2x2", 2), ("run 2-3", 2), ("run 3-4", 2),  # option 2: two 2s or two sequential, Kite
        ("run 2-3-4", 3),  # option 3: three sequential, Puppet Show
    }


def test_use_reputation_discards_the_run_and_gains_one_ticket_then_the_turn_ends():
    t = charlotte_table()
    park_before = t.snap["park"]
    t.reputation(hand=5, start=2, length=3, run=True)
    s = t.snap
    assert s["reputations"][0] == [2]
    assert s["discard"] == [0, 1, 1, 1, 0, 0]
    assert s["tickets"][0] == [0, 0, 1, 0, 0, 0]
    assert s["park"] == sorted(park_before + [5])
    assert last(t, "ticket") == {"kind": "ticket", "turn": 7, "player": 0, "value": 3, "requested": 3,
                                 "route": "reputation"}
    # One Ticket per turn: the turn is over.
    assert last(t, "turn")["player"] == 1


def test_use_reputation_needs_a_ticket_left_in_that_stack():
    t = Table("trustme_pinocchio(players=2,stacks=6/1/4/3/2/1)", park=[2, 3, 4, 5], hands=[[2], [6]])
    t.draw(1)
    t.tale(park=2, hand=2)
    t.vote(True)
    t.draw(3)
    t.tale(park=3, hand=6)
    t.vote(True)  # seat 1: Ticket 3
    t.draw(4)
    assert combos_offered(t, hand=4) == {("set 1x2", 1), ("set 2x2", 2)}
    t.reputation(hand=4, start=2, length=2)  # the only Kite
    t.draw(6)
    t.take(hand=6, park=4)
    t.draw(2)
    t.take(hand=2, park=5)
    t.draw(6)
    # Seat 1's Reputation 3, 4, 6 holds the run 3-4, but the Kite (2) stack is empty.
    assert t.snap["reputations"][1] == [3, 4, 6]
    assert combos_offered(t, hand=6) == {("set 1x3", 1), ("set 1x4", 1), ("set 1x6", 1)}


# ---------------------------------------------------------------- Take a Character from the Park, refill


def test_take_from_park_cannot_take_the_character_just_played():
    t = Table("trustme_pinocchio(players=2,park_size=1)", park=[3], hands=[[3], [5]])
    t.draw(4)
    takes = {(m.hand, m.park) for m in t.legal_moves() if m.kind == A.TAKE}
    # Playing 4 leaves only the Park's 3 to take; playing 3, the Park's other 3.
    assert takes == {(4, 3), (3, 3)}
    t.take(hand=4, park=3)
    assert t.snap["park"] == [4] and t.snap["reputations"][0] == [3]
    assert t.events("park_take") == [{"kind": "park_take", "turn": 1, "player": 0, "value": 3}]


def test_empty_park_is_refilled_with_two():
    t = Table("trustme_pinocchio(players=2,park_size=1)", park=[3], hands=[[3], [5]])
    t.draw(1)
    t.tale(park=3, hand=3)
    t.vote(True)
    assert t.snap["park"] == [] and t.snap["phase"] == "refill" and t.snap["turn"] == 1
    t.draw(2, 6)
    assert t.snap["park"] == [2, 6]
    assert last(t, "turn") == {"kind": "turn", "turn": 2, "player": 1, "bonus": False, "day": "day"}


# ---------------------------------------------------------------- the deck runs out; the end

TINY = "trustme_pinocchio(players=2,values=3,copies=2,two_player_removed=0,park_size=2,stacks=2/2/2,chart=1/3/6)"


def test_first_runout_ends_the_day_discarding_every_reputation():
    t = Table(TINY, park=[1, 2], hands=[[1], [2]])
    assert t.snap["deck_contents"] == [0, 0, 2]
    t.draw(3)
    t.take(hand=3, park=1)
    t.draw(3)  # the deck runs out
    assert t.snap["runouts"] == 1 and t.snap["deck_size"] == 0
    assert t.snap["day"] == "day"  # the Day/Night card flips at the end of this turn
    t.take(hand=2, park=3)
    s = t.snap
    assert s["reputations"] == [[], []]
    assert s["deck_contents"] == [1, 0, 1] and s["discard"] == [0, 0, 0]
    assert s["park"] == [2, 2] and s["hands"] == [[1], [3]]  # Park and hands are kept
    assert s["day"] == "night"
    assert t.events("day_end") == [{"kind": "day_end", "turn": 2}]
    assert last(t, "turn") == {"kind": "turn", "turn": 3, "player": 0, "bonus": False, "day": "night"}


def test_second_runout_ends_the_game_and_an_exact_tie_goes_to_the_coin():
    t = Table(TINY, park=[1, 2], hands=[[1], [2]])
    t.draw(3)
    t.take(hand=3, park=1)
    t.draw(3)
    t.take(hand=2, park=3)
    t.draw(1)
    t.take(hand=1, park=2)
    t.draw(3)  # second run-out
    t.take(hand=3, park=1)
    s = t.snap
    assert s["end_trigger"] == "deck" and s["phase"] == "tie_break"
    assert t.events("game_end") == [{"kind": "game_end", "turn": 4, "trigger": "deck"}]
    assert t.state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # no Tickets at all: points and Tickets tie
    t.tie_coin(1)
    s = t.snap
    assert s["winner"] == 1 and t.state.is_terminal()
    assert t.state.returns() == [-1.0, 1.0]
    assert last(t, "tie_break") == {"kind": "tie_break", "players": [0, 1], "by": "coin", "winner": 1}
    assert [r["rank"] for r in s["scores"]] == [2, 1]


def test_day_end_with_pending_bonus_gives_a_free_use_reputation_without_a_card():
    t = Table(TINY, park=[1, 2], hands=[[1], [2]])
    t.draw(3)
    t.take(hand=3, park=1)
    t.draw(3)  # the deck runs out in seat 1's turn
    t.tale(park=2, hand=2)
    t.vote(False)  # true and distrusted: a bonus turn, but the day ends
    s = t.snap
    assert s["phase"] == "free_reputation" and s["current_player"] == 1
    assert s["hands"][1] == [3]
    offered = {(str(m.combo), m.combo.length) for m in t.legal_moves() if m.kind == A.FREE_REPUTATION}
    assert offered == {("set 1x2", 1), ("set 2x2", 2)}
    assert A.DECLINE in {m.kind for m in t.legal_moves()}
    t.free_reputation(start=2, length=2)
    s = t.snap
    assert s["hands"][1] == [3] and s["park"] == [3]  # no Character was played
    assert last(t, "ticket") == {"kind": "ticket", "turn": 2, "player": 1, "value": 2, "requested": 2,
                                 "route": "free_reputation"}
    assert s["reputations"] == [[], []] and s["deck_contents"] == [1, 2, 0]
    assert t.events("bonus_turn") == []
    assert last(t, "turn") == {"kind": "turn", "turn": 3, "player": 0, "bonus": False, "day": "night"}


def test_free_use_reputation_that_empties_the_last_stack_needed_ends_the_game_that_turn():
    # "The game ends at the end of the active player's turn when ... all the Tickets in any four stacks" are taken:
    # the free action is part of the turn in which the deck ran out, so no Night turn follows.
    t = Table("trustme_pinocchio(players=2,values=3,copies=3,two_player_removed=0,park_size=3,stacks=1/1/1,"
              "stacks_to_end=1)", park=[1, 2, 3], hands=[[1], [2]])
    t.draw(1)
    t.tale(park=1, hand=1)
    t.vote(False)  # true and distrusted: bonus turn
    t.draw(2)
    t.tale(park=2, hand=2)
    t.vote(False)
    t.draw(3)
    t.tale(park=3, hand=3)
    t.vote(False)
    t.draw(3)  # the Park refill empties the deck: the pending bonus becomes a free Use Reputation action
    assert t.snap["phase"] == "free_reputation"
    t.free_reputation(start=1, length=1)
    s = t.snap
    assert t.events("game_end") == [{"kind": "game_end", "turn": s["turn"], "trigger": "stacks"}]
    assert s["end_trigger"] == "stacks" and s["phase"] in ("terminal", "tie_break")
    assert t.events("day_end") == []
    assert s["tickets"][0] == [1, 0, 0]


def test_bonus_turn_is_forfeited_when_the_game_ends_that_turn():
    t = Table(TINY.replace(")", ",runouts_to_end=1)"), park=[1, 2], hands=[[1], [2]])
    t.draw(3)
    t.take(hand=3, park=1)
    t.draw(3)  # one-day game: this run-out ends it
    t.tale(park=2, hand=2)
    t.vote(False)
    assert t.events("bonus_forfeited") == [{"kind": "bonus_forfeited", "turn": 2, "player": 1}]
    assert t.events("game_end") == [{"kind": "game_end", "turn": 2, "trigger": "deck"}]
    assert t.snap["phase"] == "tie_break" and not t.snap["pending_bonus"]


def test_game_ends_when_the_tickets_of_four_stacks_are_taken():
    t = Table("trustme_pinocchio(players=2,stacks=1/1/1/1/1/1)", park=[1, 2, 3, 4], hands=[[5], [6]])
    t.draw(1)
    t.tale(park=1, hand=5)
    t.vote(True)  # seat 0: Ticket 4
    t.draw(2)
    t.tale(park=2, hand=6)
    t.vote(True)  # seat 1: 4 is gone, Ticket 3
    t.draw(1)
    t.tale(park=3, hand=1)
    t.vote(True)  # seat 0: Ticket 2
    assert t.snap["end_trigger"] is None
    t.draw(3)
    t.tale(park=4, hand=3)
    t.vote(True)  # seat 1: Ticket 1, the fourth empty stack
    t.draw(2, 2)  # the Park emptied: it is refilled before the turn ends
    s = t.snap
    assert [e["value"] for e in t.events("stack_empty")] == [4, 3, 2, 1]
    assert s["end_trigger"] == "stacks" and t.state.is_terminal()
    assert t.events("game_end") == [{"kind": "game_end", "turn": 4, "trigger": "stacks"}]
    assert [r["total"] for r in s["scores"]] == [4 + 2 + 3, 3 + 1 + 3]
    assert s["winner"] == 0 and t.state.returns() == [1.0, -1.0]


def test_more_points_wins_and_a_points_tie_goes_to_most_tickets():
    game = ("trustme_pinocchio(players=2,values=3,copies=3,two_player_removed=0,park_size=2,stacks=3/3/3,"
            "chart=0/0/0,runouts_to_end=1)")
    t = Table(game, park=[1, 1], hands=[[2], [3]])
    t.draw(2)
    t.tale(park=1, hand=2)
    t.vote(True)  # seat 0: Ticket 1
    t.draw(3)
    t.tale(park=1, hand=3)
    t.vote(True)  # seat 1: Ticket 2
    t.draw(1, 2)  # refill the empty Park
    t.draw(3)  # the deck runs out: the one-day game ends after this turn
    t.tale(park=1, hand=2)
    t.vote(True)  # seat 0: another Ticket 1
    s = t.snap
    assert t.state.is_terminal()
    assert [r["total"] for r in s["scores"]] == [2, 2]
    assert [r["tickets"] for r in s["scores"]] == [2, 1]
    assert s["winner"] == 0 and [r["rank"] for r in s["scores"]] == [1, 2]
    assert t.events("tie_break") == [{"kind": "tie_break", "players": [0, 1], "by": "tickets", "winner": 0}]
    assert t.state.returns() == [1.0, -1.0]


# ---------------------------------------------------------------- empty deck within a turn (assumption)

EMPTY = "trustme_pinocchio(players=2,values=3,copies=3,two_player_removed=0,park_size=1,stacks=3/3/3,chart=1/3/6"


def _park_empties_after_runout(empty_deck: str) -> Table:
    t = Table(f"{EMPTY},empty_deck={empty_deck})", park=[1], hands=[[1], [2]])
    t.draw(2)
    t.take(hand=2, park=1)
    t.draw(3)
    t.take(hand=2, park=2)
    t.draw(3)
    t.reputation(hand=3, start=1, length=1)  # a Character goes to the discard pile
    t.draw(1)
    t.tale(park=2, hand=1)
    t.vote(True)
    t.draw(2)
    t.take(hand=1, park=3)
    assert t.snap["park"] == [1] and t.snap["deck_size"] == 1 and t.snap["discard"] == [1, 0, 0]
    t.draw(3)  # the deck runs out
    t.tale(park=1, hand=3)
    t.vote(True)  # the Park is empty and a refill is needed now
    return t


def test_empty_deck_skip_leaves_the_park_empty_until_the_day_end_reshuffle():
    t = _park_empties_after_runout("skip")
    s = t.snap
    assert t.events("day_end") == [{"kind": "day_end", "turn": 6}]
    assert s["turn"] == 7 and s["phase"] == "refill" and s["park"] == []
    t.draw(1, 2)
    assert t.snap["park"] == [1, 2] and t.snap["phase"] == "draw"


def test_empty_deck_reshuffle_refills_from_the_discard_pile_at_once():
    t = _park_empties_after_runout("reshuffle")
    s = t.snap
    assert s["turn"] == 6 and s["phase"] == "refill" and s["deck_contents"] == [1, 0, 0] and s["discard"] == [0, 0, 0]
    t.draw(1)  # the second refill Character cannot be drawn: nothing is left to shuffle
    assert t.snap["park"] == [1] and t.snap["runouts"] == 1
    assert t.events("day_end") == [{"kind": "day_end", "turn": 6}] and t.snap["turn"] == 7


def test_a_deck_left_empty_by_the_day_end_runs_out_again_at_the_next_draw_and_an_empty_hand_passes():
    t = Table("trustme_pinocchio(players=2,values=2,copies=2,two_player_removed=0,park_size=1,hand_size=0,"
              "stacks=1/1,chart=1/3)", park=[1], hands=[])
    t.draw(2)
    t.tale(park=1, hand=2)
    t.vote(False)  # caught: the 2 goes face-up into the Park
    t.draw(2)
    t.tale(park=1, hand=2)
    t.vote(False)
    t.draw(1)  # the deck runs out; nobody has a Reputation, so the day's end leaves the deck empty
    t.tale(park=2, hand=1)
    t.vote(False)
    s = t.snap
    assert t.events("day_end") == [{"kind": "day_end", "turn": 3}]
    assert s["deck_size"] == 0 and s["park"] == [1, 1, 2, 2] and s["hands"] == [[], []]
    assert s["runouts"] == 2 and s["phase"] == "action"  # seat 1's draw found the deck empty: the second run-out
    assert [m.kind_name for m in t.legal_moves()] == ["pass"]
    t.pass_turn()
    assert t.events("game_end") == [{"kind": "game_end", "turn": 4, "trigger": "deck"}]


# ---------------------------------------------------------------- 4-Player Coin Variant

G4C = "trustme_pinocchio(players=4,coin_variant=True)"


def test_coin_variant_offers_go_left_one_toss_per_turn_and_override_the_vote():
    # coin_tossers=any: every non-active player with an unused Coin is offered the toss (the documented alternative).
    t = Table(G4C.replace(")", ",coin_tossers=any)"), park=[1, 2, 3, 4], hands=[[5], [6], [1], [2]])
    t.draw(1)
    t.tale(park=2, hand=5)
    t.vote(True, True, False)  # the majority trusts seat 0
    assert t.snap["phase"] == "coin_offer" and t.snap["current_player"] == 1
    t.offer(False)
    assert t.snap["current_player"] == 2
    t.offer(True)  # seat 2 tosses: nobody else may this turn
    assert t.snap["phase"] == "coin_toss" and t.snap["coin_used"] == [False, False, True, False]
    t.coin("donkey")  # not trusted, whatever the vote
    tale = last(t, "tale")
    assert (tale["votes"], tale["coin"], tale["coin_by"], tale["row"]) == (
        [None, True, True, False], "donkey", 2, "tall_distrusted")
    # Next turn (seat 1): seat 2's Coin is spent, seat 1 is active; the offers go 3 then 0.
    t.draw(6)
    t.tale(park=1, hand=6)
    assert t.snap["current_player"] == 2  # votes from the active player's left
    t.vote(False, False, False)
    assert t.snap["current_player"] == 3
    t.offer(False)
    assert t.snap["current_player"] == 0
    t.offer(False)
    assert last(t, "tale")["row"] == "tall_distrusted" and last(t, "tale")["coin"] is None


def test_coin_variant_kid_side_trusts_and_dissenters_mode_offers_only_dissenters():
    """"Each player may, once per game, choose to toss the Coin to try and change the result of the majority if they
    do not agree with the outcome": by default only the players who voted against the majority are offered it."""
    assert pyspiel.load_game(G4C).get_parameters()["coin_tossers"] == "dissenters"
    t = Table(G4C, park=[1, 2, 3, 4], hands=[[5], [6], [1], [2]])
    t.draw(1)
    t.tale(park=1, hand=1)
    t.vote(True, False, False)  # not trusted; only seat 1 disagreed
    assert t.snap["current_player"] == 1 and t.snap["phase"] == "coin_offer"
    t.offer(True)
    t.coin("kid")
    assert last(t, "tale")["row"] == "true_trusted" and last(t, "tale")["coin_by"] == 1


def test_coin_is_not_offered_without_the_variant():
    t = Table("trustme_pinocchio(players=4)", park=[1, 2, 3, 4], hands=[[5], [6], [1], [2]])
    t.draw(1)
    t.tale(park=1, hand=1)
    t.vote(True, False, False)
    assert t.snap["phase"] == "draw" and t.snap["coin_used"] == [False] * 4


# ---------------------------------------------------------------- scoring


def test_charlotte_scores_37():
    chart = (1, 3, 6, 10, 15, 21)
    assert pinocchio.score_breakdown([1, 2, 2, 0, 1, 1], chart) == {"ticket_face": 22, "set_bonus": 15, "total": 37}
    assert pinocchio.score_breakdown([0] * 6, chart) == {"ticket_face": 0, "set_bonus": 0, "total": 0}


def test_module_doctests_pass():
    from trustme_analysis.games.pinocchio.engine import rules, script

    for module in (rules, script):
        failures, tried = doctest.testmod(module)
        assert tried > 0 and failures == 0


# ---------------------------------------------------------------- parameters


@pytest.mark.parametrize(
    "game, name, allowed",
    [
        ("trustme_pinocchio(players=5)", "players", "from 2 to 4"),
        ("trustme_pinocchio(values=10)", "values", "from 1 to 9"),
        ("trustme_pinocchio(players=3,coin_variant=True)", "coin_variant", "4 players only"),
        ("trustme_pinocchio(chart=1/3/6)", "chart", "exactly 6 integers"),
        ("trustme_pinocchio(stacks=6/5/x/3/2/1)", "stacks", "integers separated by"),
        ("trustme_pinocchio(stacks=6/5/0/3/2/1)", "stacks", "integers >= 1"),
        ("trustme_pinocchio(utility=score_diff)", "utility", "needs 2 players"),
        ("trustme_pinocchio(utility=money)", "utility", "'win_loss', 'score', 'score_diff'"),
        ("trustme_pinocchio(voting=loud)", "voting", "'simultaneous', 'sequential'"),
        ("trustme_pinocchio(coin_tossers=all)", "coin_tossers", "'any', 'dissenters'"),
        ("trustme_pinocchio(empty_deck=wait)", "empty_deck", "'skip', 'reshuffle'"),
        ("trustme_pinocchio(players=2,two_player_removed=5)", "two_player_removed", "from 0 to 4"),
        ("trustme_pinocchio(values=2,copies=2)", "copies", "must exceed park_size"),
        ("trustme_pinocchio(runouts_to_end=0)", "runouts_to_end", "from 1 to 9"),
        ("trustme_pinocchio(first_player=seat2)", "first_player", "'seat0', 'random'"),
    ],
)
def test_bad_parameters_fail_at_load_naming_parameter_value_and_allowed(game, name, allowed):
    import pyspiel

    with pytest.raises(ValueError, match=rf"parameter {name}=.*allowed: .*{allowed}"):
        pyspiel.load_game(game)


def test_small_values_load_with_derived_stacks_and_chart():
    import pyspiel

    g = pyspiel.load_game("trustme_pinocchio(values=3,copies=2,stacks=1/1/1,chart=1/3/6,runouts_to_end=1,players=2,"
                          "two_player_removed=0,park_size=2)")
    assert g.rules.stacks == (1, 1, 1) and g.rules.deck_per_value == 2 and g.rules.runouts_to_end == 1
    g = pyspiel.load_game("trustme_pinocchio(values=3,copies=3)")
    assert g.rules.stacks == (3, 2, 1) and g.rules.chart == (1, 3, 6)
    g = pyspiel.load_game("trustme_pinocchio(values=1,copies=10,players=2,stacks=2/,chart=5/)")
    assert g.rules.stacks == (2,) and g.rules.chart == (5,)
    assert pyspiel.load_game(str(g)).rules == g.rules  # str(game) is the variant's key: it must load again
    for game_string in (G2, G4C, "trustme_pinocchio(values=3,copies=3,chart=0/2/4,utility=score)"):
        g = pyspiel.load_game(game_string)
        assert pyspiel.load_game(str(g)).rules == g.rules


def test_assumptions_list_each_open_point_in_force():
    import pyspiel

    g = pyspiel.load_game(G4C)
    params = [a["parameter"] for a in g.assumptions()]
    for name in ("voting", "coin_tossers", "empty_deck", "utility", "first_player", "tall_tale_no_ticket",
                 "tie_coin"):
        assert name in params
    assert params.count("first_player") == 1  # the parameter, not a fixed assumption any more
    assert all(set(a) == {"parameter", "value", "text"} and a["text"] for a in g.assumptions())
    assert "coin_tossers" not in [a["parameter"] for a in pyspiel.load_game(G3).assumptions()]
    assert "discard_pile_known" in params and "two_player_tie_coin" not in params
    two = [a["parameter"] for a in pyspiel.load_game("trustme_pinocchio(players=2)").assumptions()]
    assert "two_player_tie_coin" in two
