"""The heuristic player of the Cheat/"Menteur" game (``trustme_liar``), with named knobs, and the search player's belief.

The heuristic counts cards. From :meth:`~trustme_analysis.games.liar.engine.state.LiarState.player_view` it knows its hand,
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
:func:`~trustme_analysis.games.liar.engine.state.timeout_action`): in a sweep this is how a seat's slow turns are modelled.

:func:`belief` weighs a search player's sampled worlds by the same model: a play of this round that is honest in the
world weighs ``1 - b``, a false one ``b``; a player whose last move this round was a pass although the world gives it
cards of the round's value weighs :data:`PASS_HOLDING` (the heuristic would have played them).
"""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.liar import BURN, LIAR, PASS, SHORT_NAME, timeout_action
from trustme_analysis.games.liar.engine import events as ev
from trustme_analysis.games.liar.players.heuristic import KNOB_NAMES, LiarKnobs, policy
from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.players.trained import make_trained_bot

__all__ = ["LiarHeuristicBot", "LiarKnobs", "PASS_HOLDING", "belief", "explain", "habits", "opponent_knobs",
           "seat_bluff_rates", "seat_model"]

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

#: The heuristic's calls per chance to call (a pending play of another seat on its turn) times the player count: in
#: self-play of the default heuristic (30 games each) 0.081 of its chances in 2 players, 0.037 in 4 (calls are
#: shared out between more seats), about ``0.16 / players``.
HEURISTIC_CALLS = 0.16
#: The share of the heuristic's plays turned over that the search player expects false (in self-play none of 78 were:
#: it bluffs only where nobody could prove it; against sharper callers some are).
HEURISTIC_FALSE_SHARE = 0.1
#: The explanations of what a seat is seen doing (its calls among its chances to call; its false plays among those
#: turned over), each with its prior odds and its rate: the heuristic (its own rate, above), a seat that always does it
#: and one that never does (the probes' habits). The heuristic's calls cluster where its odds say so, so one or two
#: calls of few chances must not make it a habit: hence habits at the extremes, not any rate.
EXPLANATIONS = (("heuristic", 0.6, None), ("always", 0.3, 0.95), ("never", 0.1, 0.005))
#: Weight of a world in which another seat started this round with no card of the value it announced, unless that
#: seat is modelled as an "always" bluffer: the heuristic's starts always hold the announced value (see :func:`belief`).
PURE_BLUFF_START = 0.1


def explain(hits: float, trials: float, heuristic_rate: float) -> tuple[str, float]:
    """The likeliest of :data:`EXPLANATIONS` for a seat seen doing something ``hits`` times in ``trials`` chances
    (binomial likelihoods, the heuristic at ``heuristic_rate``), with its rate."""
    best, best_log, best_rate = "", -math.inf, 0.0
    for name, prior, rate in EXPLANATIONS:
        r = heuristic_rate if rate is None else rate
        log = math.log(prior) + hits * math.log(r) + (trials - hits) * math.log1p(-r)
        if log > best_log:
            best, best_log, best_rate = name, log, r
    return best, best_rate


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


def seat_model(state: pyspiel.State) -> list[tuple[tuple[str, float], tuple[str, float]]]:
    """Per seat, the search player's explanation of its habits (:func:`habits`, :func:`explain`): ``(bluffing,
    calling)``, each ``(explanation, rate)``; bluffing from its false plays among those turned over (the heuristic's
    share :data:`HEURISTIC_FALSE_SHARE`), calling from its calls among its chances to call (the heuristic's share
    :data:`HEURISTIC_CALLS` over the player count)."""
    seen = habits(state)
    n = seen.shape[0]
    return [(explain(false, false + honest, HEURISTIC_FALSE_SHARE), explain(called, chances, HEURISTIC_CALLS / n))
            for false, honest, called, chances in seen]


def seat_bluff_rates(state: pyspiel.State, prior: float = LiarKnobs.assumed_bluff) -> np.ndarray:
    """Each seat's chance of bluffing a play as the search player models it: ``prior`` (the heuristic's assumed rate)
    where the heuristic explains its plays turned over best, else the rate of its habit (:func:`seat_model`; as
    :func:`opponent_knobs` plays it)."""
    return np.array([prior if bluff == "heuristic" else rate for (bluff, rate), _ in seat_model(state)])


def opponent_knobs(state: pyspiel.State, player: int) -> np.ndarray:
    """The heuristic knobs of every seat in ``player``'s play-outs (rows in ``heuristic.KNOB_NAMES`` order): its own
    seat the default heuristic, each other seat the default heuristic where that explains what it was seen doing best
    (:func:`seat_model`, for bluffing and for calling apart), else its habit: bluffing at the habit's rate
    (``bluff_start``, ``bluff_rate``, ``1 - burn_rate``; an "always" bluffer also past what could be proven false and
    on any pile), calling at the habit's rate (``call_rate``, with no threshold). With nothing seen every row is the
    default heuristic."""
    base = LiarKnobs()
    rows = np.tile(base.array(), (state.get_game().num_players(), 1))
    col = {name: i for i, name in enumerate(KNOB_NAMES)}
    for q, ((bluff, bluff_rate), (call, call_rate)) in enumerate(seat_model(state)):
        if q == player:
            continue
        row = rows[q]
        if bluff != "heuristic":
            row[col["bluff_start"]] = row[col["bluff_rate"]] = bluff_rate
            row[col["burn_rate"]] = 1.0 - bluff_rate
            if bluff == "always":
                row[col["bluff_slack"]] = state.get_game().rules.max_play
                row[col["bluff_max_pile"]] = 1_000_000
        if call != "heuristic":
            row[col["call_rate"]] = call_rate
            row[col["call_threshold"]] = row[col["call_last_threshold"]] = 2.0  # above 1: never by the odds
    return rows


# --- the search player's belief ----------------------------------------------------------------------------------


def belief(state: pyspiel.State, player: int, worlds: list[pyspiel.State],
           prior: float = LiarKnobs.assumed_bluff) -> list[float]:
    """The search player's belief (the game's registry ``belief`` part): how likely the other players' choices of this
    round are in each candidate world. A play of this round that is honest in the world weighs ``1 - b``, a false one
    ``b``, with ``b`` the seat's bluff rate as the player saw it (:func:`seat_bluff_rates`, from ``prior``); a round
    started with no card of the announced value weighs :data:`PURE_BLUFF_START` more, unless its starter is modelled as
    an "always" bluffer (the heuristic's starts hold the value they announce); a pass while the world gives the seat
    the round's value weighs :data:`PASS_HOLDING`.

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
    rates = seat_bluff_rates(state, prior)
    always = [bluff == "always" for (bluff, _), _ in seat_model(state)]
    model = opponent_knobs(state, player)
    out = []
    value = table.round_value
    for world in worlds:
        world._seat_knobs = model
        t = world._table
        w = 1.0
        for k, (owner, announced, cards, false) in enumerate(t.pile):
            if owner != player:
                w *= rates[owner] if false else 1.0 - rates[owner]
                if k == 0 and false == len(cards) and not always[owner]:
                    w *= PURE_BLUFF_START
        if value >= 0:
            for q, was_pass in passed.items():
                if was_pass and q != player and t.hands[q][value] > 0:
                    w *= PASS_HOLDING
        out.append(w)
    return out


register_bot(SHORT_NAME, "heuristic", LiarHeuristicBot)
# The trained player (trustme_analysis.players.trained; its abstraction and traversal: kernel.abstraction,
# kernel.training).
register_bot(SHORT_NAME, "trained", make_trained_bot)


# --- the moves a search player tries --------------------------------------------------------------------------------

#: The most false cards a searched bluff adds.
SEARCH_FALSE_CARDS = 2


def search_actions(state: pyspiel.State, player: int) -> list[int]:
    """The moves a search player tries (the game's registry ``search_actions`` part): a starter may hold thousands of
    legal plays that differ only in which false cards they shed.

    Liar, pass and burn where legal; for each value the player may announce (the round's value, or any value for a
    starter): every honest play (1 to all of its copies of the value), and bluffs adding 1 to
    :data:`SEARCH_FALSE_CARDS` false cards to all of its copies (for a value it does not hold, the false cards alone: a
    pure bluff), the false cards taken one per value, from the values it holds most of and then the lowest.
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
