"""Scripted-deal helpers shared by the Liar scenario tests (not a test module).

``P0``/``P1`` deal a 24-card deck (values 1-6, four copies) so that the pair discards show every case and both hands
are {2, 3, 5, 6} after the set-up; see ``test_liar_rules.py`` for the value-by-value reading.
"""

import pyspiel

import trustme_analysis  # noqa: F401  (registers the games)

P0 = [1, 1, 2, 2, 2, 3, 4, 4, 4, 4, 5, 6]
P1 = [1, 1, 2, 3, 3, 3, 5, 5, 5, 6, 6, 6]
T2 = "trustme_liar(players=2,values=6,mode=trustme,utility=points)"


def table(game_string, hands=(P0, P1)):
    """A game and its state right after dealing exactly ``hands`` (one list of values per seat)."""
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    for action in game.deal_actions([list(h) for h in hands]):
        state.apply_action(action)
    return game, state


def play(game, state, cards, announced):
    """Play ``cards`` announcing ``announced``; the play must be legal."""
    action = game.play_action(cards, announced)
    assert action in state.legal_actions(), (cards, announced, state)
    state.apply_action(action)


def act(state, action):
    """Apply a legal non-play action (LIAR, PASS, BURN, ...)."""
    assert action in state.legal_actions(), (action, state)
    state.apply_action(action)
