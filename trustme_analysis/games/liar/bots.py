"""The heuristic player of the Cheat/"Menteur" game (``trustme_liar``), with named knobs, and the search player's belief.

The heuristic counts cards. From :meth:`~trustme_analysis.games.liar.state.LiarState.player_view` it knows its hand,
the public pair discards, its own cards in the pile and its own burned cards, and the cards it saw go into another
hand when a pile was picked up (the turned-over cards, and its own cards of the pile), for as long as that player has
not played since. The copies of a value it cannot place are *unseen*; a claim of more cards than that is impossible.

Its one policy, :meth:`LiarHeuristicBot.action_probabilities` (``choose`` draws from it), by phase:

- **Start a round**: announce the value it holds most of (ties: the one with the fewest unseen copies, so the others
  are least able to follow; then uniformly) and play those cards (up to ``max_play``); with probability
  ``bluff_start + bluff_per_card * cards in hand`` (capped at 1) add up to ``bluff_extra`` false cards, one each of
  values chosen uniformly among the others it holds, as long as the claim does not exceed the copies of the value
  not publicly discarded and not known elsewhere.
- **Respond** to a play: estimate the chance that the last play is a bluff (below) and call liar when it is at least
  ``call_threshold`` (else at rate ``call_rate``); otherwise add its true cards of the value, else bluff one card of a
  value chosen uniformly with probability ``bluff_rate`` (only while the pile holds at most ``bluff_max_pile`` cards
  and the claims stay within the copies that could exist), else pass.
- **Add or burn** (everyone else passed): add true cards if it has any, else burn with probability ``burn_rate``
  (else bluff one card, when a bluff is possible at all).
- **Last cards** of another player: call liar when the bluff chance is at least ``call_last_threshold`` (else at rate
  ``call_rate``), else pass.

The bluff chance of a claim of ``k`` cards by player ``L``: ``L``'s hand before the play is a uniform draw from the
cards this player cannot place (less the cards the others claimed earlier in the round); ``q`` is the
hypergeometric probability that it held ``k`` copies of the value among the unseen ones (less those earlier claims).
With the prior ``assumed_bluff`` = ``b`` that a player bluffs, the chance the claim is a bluff is
``b / (b + (1 - b) q)`` (1 when the claim is impossible).

With probability ``timeout_rate`` it lets its turn time out instead (the rule's default action,
:func:`~trustme_analysis.games.liar.state.timeout_action`): in a sweep this is how a seat's slow turns are modelled.

:func:`belief` weighs a search player's sampled worlds by the same model: a play of this round that is honest in the
world weighs ``1 - b``, a false one ``b``; a player whose last move this round was a pass although the world gives it
cards of the round's value weighs :data:`PASS_HOLDING` (the heuristic would have played them).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.liar import BURN, LIAR, PASS, SHORT_NAME, timeout_action
from trustme_analysis.games.liar import events as ev
from trustme_analysis.games.liar.heuristic import KNOB_NAMES, LiarKnobs, policy
from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot

__all__ = ["LiarHeuristicBot", "LiarKnobs", "PASS_HOLDING", "belief", "habits", "opponent_knobs", "seat_bluff_rates"]

#: Weight of a world in which a player passed this round while holding the round's value (see :func:`belief`).
PASS_HOLDING = 0.05


# --- the heuristic -------------------------------------------------------------------------------------------------


class LiarHeuristicBot(TrustMeBot):
    """The heuristic player described in this module's docstring.

    Args:
        game: the ``trustme_liar`` game.
        player_id: the seat it plays.
        rng: the generator of all its random choices.
        **knobs: any field of :class:`LiarKnobs`.
    """

    kind = "heuristic"
    #: Its decisions read no scoring-only parameter (neither the Trust Me points nor the utility).
    reads: tuple[str, ...] = ()

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any):
        super().__init__(player_id, rng)
        unknown = set(knobs) - set(KNOB_NAMES)
        if unknown:
            raise ValueError(
                f"unknown knob(s) {sorted(unknown)} for the trustme_liar heuristic bot; allowed: {', '.join(KNOB_NAMES)}"
            )
        self.settings = LiarKnobs(**knobs)
        self.game = game

    def knobs(self) -> dict:
        """The settings as a plain dict."""
        return asdict(self.settings)

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The probability of each legal action in ``state`` (this bot's turn): the bot's whole strategy."""
        intended = policy(state.player_view(self.player_id), self.settings)
        game = self.game
        k = self.settings
        dist: dict[int, float] = {}
        for (cards, announced), p in intended.items():
            action = cards if announced < 0 else game.play_table.play_action(cards, announced)
            dist[action] = dist.get(action, 0.0) + p * (1.0 - k.timeout_rate)
        if k.timeout_rate:
            action = timeout_action(state)
            dist[action] = dist.get(action, 0.0) + k.timeout_rate
        legal = state.legal_actions(self.player_id)
        out: dict[int, float] = {int(a): 0.0 for a in legal}
        for action, p in dist.items():
            if action in out:
                out[action] += p
            else:  # a rule parameter the heuristic ignores forbids it: spread over the legal moves
                for a in out:
                    out[a] += p / len(out)
        return out


# --- the search player's model of the others ----------------------------------------------------------------------

#: Weight of the prior in a seat's observed bluff rate, in revealed plays (a Beta prior of this many plays whose mean
#: is the heuristic's ``assumed_bluff``).
BLUFF_PRIOR_PLAYS = 2.0
#: The heuristic's calls per chance to call (a pending play of another seat on its turn) times the player count: in
#: self-play of the default heuristic (30 games each) 0.081 of its chances in 2 players, 0.037 in 4 (calls are
#: shared out between more seats), about ``0.16 / players``; the prior mean of a seat's observed call rate.
HEURISTIC_CALLS = 0.16
#: Weight of that prior, in chances to call.
CALL_PRIOR_CHANCES = 4.0


def habits(state: pyspiel.State) -> np.ndarray:
    """What every seat was publicly seen doing, one row per seat: ``(false plays turned over, honest plays turned
    over, calls of liar, chances to call)``. A chance to call is a turn with another seat's play open to a challenge
    (the round's later plays, passes and calls; the last cards' passes and calls). Reads only public fields of the
    events (who played, passed or called, and what a challenge turned over)."""
    n = state.get_game().num_players()
    out = np.zeros((n, 4))
    pending = -1  # the seat whose play is open to a challenge, -1 when none
    for event in state._table.events:
        kind = event[0]
        if kind == ev.PLAY:
            if pending >= 0 and pending != event[1]:
                out[event[1], 3] += 1
            pending = event[1]
        elif kind == ev.PASS:
            if pending >= 0 and pending != event[1]:
                out[event[1], 3] += 1
        elif kind == ev.LIAR:
            out[event[1], 2:] += 1
            out[event[2], 0 if event[5] else 1] += 1
            pending = -1
        elif kind in (ev.BURN, ev.DISCARD, ev.FIRST_PLAYER):
            pending = -1
    return out


def seat_bluff_rates(seen: np.ndarray, prior: float = LiarKnobs.assumed_bluff) -> np.ndarray:
    """Each seat's bluff rate as the search player models it: the share of false plays among its plays turned over,
    with :data:`BLUFF_PRIOR_PLAYS` plays of prior at ``prior``."""
    return (seen[:, 0] + BLUFF_PRIOR_PLAYS * prior) / (seen[:, 0] + seen[:, 1] + BLUFF_PRIOR_PLAYS)


def opponent_knobs(state: pyspiel.State, player: int) -> np.ndarray:
    """The heuristic knobs of every seat in ``player``'s play-outs (rows in ``heuristic.KNOB_NAMES`` order): its own
    seat the default heuristic, each other seat the heuristic with its bluffing and calling set to the habits
    ``player`` saw (:func:`habits`). With nothing seen every row is the default heuristic.

    Bluffing: the heuristic's bluff chances (``bluff_start``, ``bluff_rate``, ``1 - burn_rate``) follow the seat's
    bluff rate (:func:`seat_bluff_rates`), piecewise linearly: 0 at a rate of 0, the heuristic's knob at the prior
    ``assumed_bluff``, 1 at a rate of 1 (the heuristic's own plays are rarely false when turned over, as it bluffs only
    where nobody could prove it, so its rate falls below the prior as it is seen); a seat seen bluffing more often
    than not also bluffs claims that could be proven false (``bluff_slack``) and on any pile. Calling: a seat that calls
    more than the heuristic's share (:data:`HEURISTIC_CALLS` over the player count, with :data:`CALL_PRIOR_CHANCES` of prior) calls
    the excess at ``call_rate``; one that calls less raises its thresholds in proportion (above 1: it never calls)."""
    base = LiarKnobs()
    rows = np.tile(base.array(), (state.get_game().num_players(), 1))
    seen = habits(state)
    rates = seat_bluff_rates(seen, base.assumed_bluff)
    share = HEURISTIC_CALLS / rows.shape[0]
    calls = (seen[:, 2] + CALL_PRIOR_CHANCES * share) / (seen[:, 3] + CALL_PRIOR_CHANCES)
    col = {name: i for i, name in enumerate(KNOB_NAMES)}
    for q in range(rows.shape[0]):
        if q == player:
            continue
        row = rows[q]
        # Piecewise linear through (0: never), (the prior: the heuristic's own knob), (1: always).
        for name in ("bluff_start", "bluff_rate"):
            row[col[name]] = np.interp(rates[q], [0.0, base.assumed_bluff, 1.0], [0.0, getattr(base, name), 1.0])
        row[col["burn_rate"]] = np.interp(rates[q], [0.0, base.assumed_bluff, 1.0], [1.0, base.burn_rate, 0.0])
        if rates[q] > 0.5:
            row[col["bluff_slack"]] = state.get_game().rules.max_play
            row[col["bluff_max_pile"]] = 1_000_000
        if calls[q] >= share:
            row[col["call_rate"]] = (calls[q] - share) / (1.0 - share)
        else:
            ratio = calls[q] / share
            row[col["call_threshold"]] = base.call_threshold / ratio
            row[col["call_last_threshold"]] = base.call_last_threshold / ratio
    return rows


# --- the search player's belief ----------------------------------------------------------------------------------


def belief(state: pyspiel.State, player: int, worlds: list[pyspiel.State],
           prior: float = LiarKnobs.assumed_bluff) -> list[float]:
    """The search player's belief (the game's registry ``belief`` part): how likely the other players' choices of this
    round are in each candidate world. A play of this round that is honest in the world weighs ``1 - b``, a false one
    ``b``, with ``b`` the seat's bluff rate as the player saw it (:func:`seat_bluff_rates`, from ``prior``); a pass
    while the world gives the seat the round's value weighs :data:`PASS_HOLDING`.

    Each world is also handed the player's model of the seats for its play-outs (``world._seat_knobs``:
    :func:`opponent_knobs`), which the compiled kernel reads (``Kernel.state_from``)."""
    table = state._table
    # This round's moves: the events since the last challenge, burn or set-up.
    moves: list[tuple] = []
    for event in reversed(table.events):
        if event[0] in (ev.LIAR, ev.BURN, ev.DISCARD):
            break
        moves.append(event)
    passed = {}
    for event in moves:  # newest first: a player's last move of the round
        if event[0] in (ev.PLAY, ev.PASS) and event[1] not in passed:
            passed[event[1]] = event[0] == ev.PASS
    rates = seat_bluff_rates(habits(state), prior)
    model = opponent_knobs(state, player)
    out = []
    value = table.round_value
    for world in worlds:
        world._seat_knobs = model
        t = world._table
        w = 1.0
        for owner, _, _, false in t.pile:
            if owner != player:
                w *= rates[owner] if false else 1.0 - rates[owner]
        if value >= 0:
            for q, was_pass in passed.items():
                if was_pass and q != player and t.hands[q][value] > 0:
                    w *= PASS_HOLDING
        out.append(w)
    return out


register_bot(SHORT_NAME, "heuristic", LiarHeuristicBot)


# --- the moves a search player tries --------------------------------------------------------------------------------

#: The most false cards a searched bluff adds.
SEARCH_FALSE_CARDS = 2


def search_actions(state: pyspiel.State, player: int) -> list[int]:
    """The moves a search player tries (the game's registry ``search_actions`` part): a starter may hold thousands of
    legal plays that differ only in which false cards they shed.

    Liar, pass and burn where legal; for each value the player may announce (the round's value, or any value for a
    starter): every honest play (1 to all of its copies of the value), and bluffs adding 1 to
    :data:`SEARCH_FALSE_CARDS` false cards to all of its copies (none for a value it does not hold), the false cards
    taken one per value, from the values it holds most of and then the lowest.
    """
    table = state.get_game().play_table
    view = state.player_view(player)
    legal = set(state.legal_actions(player))
    hand = view["hand"]
    out = [a for a in (LIAR, PASS, BURN) if a in legal]
    if view["round_value"] is None:
        announced = range(len(hand))
    else:
        announced = [view["round_value"] - 1]
    others_by_count = sorted((v for v, n in enumerate(hand) if n), key=lambda v: (-hand[v], v))
    for value in announced:
        held = min(hand[value], view["max_play"])
        plays = [(value,) * t for t in range(1, held + 1)]
        falses = [v for v in others_by_count if v != value]
        for k in range(1, SEARCH_FALSE_CARDS + 1):
            if held + k <= view["max_play"] and k <= len(falses):
                plays.append((value,) * held + tuple(falses[:k]))
        for cards in plays:
            action = table.play_action(tuple(sorted(cards)), value)
            if action in legal and action not in out:
                out.append(action)
    return out
