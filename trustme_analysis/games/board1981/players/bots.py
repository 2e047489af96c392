"""The heuristic players of Trust Me (1981), registered as bot kind ``"heuristic"`` for ``trustme_1981`` and for the
investing round alone (``trustme_1981_investment``), and the search player's belief (the registry's ``belief``).

Each bot has one policy, :meth:`~trustme_analysis.players.base.TrustMeBot.action_probabilities` (the heuristic of
:mod:`~trustme_analysis.games.board1981.players.heuristic`); ``choose`` draws from it, so the play observed and the strategy measured are the same code.

Knobs (:class:`~trustme_analysis.games.board1981.players.heuristic.HeuristicKnobs`): ``claim_unseen``, ``claim_empty``,
``invest_threshold``, ``divest_threshold``, ``stake``, ``signal_weight``; the round alone reads the investing ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.games.board1981.engine import events as E
from trustme_analysis.games.board1981.players.heuristic import (
    KNOB_NAMES,
    BoardHeuristic,
    HeuristicKnobs,
    card_belief,
    decision_matches,
    future_after,
    invest_decision,
    signal_of,
    unseen_counts,
    wants_claim,
)
from trustme_analysis.games.board1981.engine.investing import PAYOFF_NAMES
from trustme_analysis.games.board1981.engine.investment import SHORT_NAME as INVESTMENT_SHORT_NAME
from trustme_analysis.games.board1981.engine.rules import SHORT_NAME
from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.players.trained import make_trained_bot

#: The investing knobs (what the round alone reads).
INVESTING_KNOBS = ("invest_threshold", "divest_threshold", "stake", "signal_weight")
#: A share's worth after the reveal in the round alone: nothing more is revealed, the share counts $1.
ONE_ROUND = 1.0


class HeuristicBot1981(TrustMeBot):
    """The heuristic for ``trustme_1981`` (:class:`~trustme_analysis.games.board1981.players.heuristic.BoardHeuristic`).

    Args:
        game: the loaded ``trustme_1981`` game.
        player_id: the seat.
        rng: the generator ``choose`` draws from.
        knobs: :class:`~trustme_analysis.games.board1981.players.heuristic.HeuristicKnobs` fields.
    """

    kind = "heuristic"
    #: The utility (the game's only scoring-only parameter) does not enter its decisions.
    reads = ()

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any):
        super().__init__(player_id, rng)
        self.game = game
        self.settings = HeuristicKnobs(**knobs)
        self.policy = BoardHeuristic(game, self.settings)

    def knobs(self) -> dict:
        """The knobs as a plain dict."""
        return self.settings.as_dict()

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The heuristic's distribution over this seat's legal actions."""
        return self.policy.probabilities(state, self.player_id)


class InvestmentHeuristicBot1981(TrustMeBot):
    """The heuristic investor on ``trustme_1981_investment`` (the investing round alone): the full game's investing
    rule, its belief starting from the game's ``payoff_mix`` (or the card it saw, if it looked) and updated by the
    decisions of the players who looked. Deterministic: its policy puts 1 on one action.

    Args:
        game: the loaded ``trustme_1981_investment`` game.
        player_id: the seat.
        rng: the generator (its policy is deterministic; kept for the common bot interface).
        knobs: the investing knobs of :class:`~trustme_analysis.games.board1981.players.heuristic.HeuristicKnobs`.
    """

    kind = "heuristic"
    reads = ()

    def __init__(self, game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any):
        super().__init__(player_id, rng)
        unknown = sorted(set(knobs) - set(INVESTING_KNOBS))
        if unknown:
            raise ValueError(f"unknown knob(s) {unknown} for the {INVESTMENT_SHORT_NAME} heuristic bot; valid knobs: "
                             + ", ".join(INVESTING_KNOBS))
        self.game = game
        self.settings = HeuristicKnobs(**knobs)

    def knobs(self) -> dict:
        """The investing knobs as a plain dict."""
        return {k: v for k, v in self.settings.as_dict().items() if k in INVESTING_KNOBS}

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """1 on the heuristic's decision, 0 on the other legal actions."""
        me = self.player_id
        game = self.game
        snap = state.snapshot()
        if snap["seen"][me]:
            belief = [0.0] * len(PAYOFF_NAMES)
            belief[PAYOFF_NAMES.index(snap["card"])] = 1.0
        else:
            informed = []
            for event in snap["events"]:
                p = event["player"] if event["kind"] == E.INVEST else -1
                if p >= 0 and p != me and snap["seen"][p]:
                    verb = _verb_of(game, event["decision"])
                    informed.append((signal_of(verb), p == snap["claimant"]))
            prior = [float(c) for c in game.payoff_mix]
            belief = card_belief(prior, False, informed, game.num_players(), ONE_ROUND, self.settings)
        legal = [int(a) for a in state.legal_actions(me)]
        chosen = invest_decision(belief, ONE_ROUND, snap["claimant"] == me, game.num_players(), snap["money"][me],
                                 snap["shares"][me], legal, game.investing, self.settings)
        return {a: float(a == chosen) for a in legal}


def _verb_of(game: pyspiel.Game, label: str) -> str:
    for local in range(game.investing.num_actions):
        if game.investing.label(local) == label:
            return game.investing.decode(local)[0]
    raise ValueError(f"decision={label!r} is not an investing decision of {game}")


def belief(state: pyspiel.State, player: int, worlds: list[pyspiel.State],
           knobs: HeuristicKnobs | None = None) -> list[float]:
    """The search player's belief (the registry's ``belief`` part): how likely the others' observed choices are in
    each candidate world, under the heuristic's model of an informed player (it does what the heuristic would do with
    the card it saw with probability ``signal_weight``).

    The choices weighed: every claim now on the board that its holder chose after looking under the briefcase (a
    claim says the card is one the heuristic wants), and, during an investing round, each earlier decision of a player
    who had looked under the claimed briefcase. Briefcases ``player`` has looked under are the same in every world.
    """
    knobs = knobs or HeuristicKnobs()
    n = state.get_game().num_players()
    w = knobs.signal_weight
    known = state.known_cards(player)
    claims, knew = state.claims(), state.claim_knew()
    signals: list[tuple[int, Any]] = []  # (briefcase, "claim" or (signal, is_claimant))
    for p in range(n):
        if p != player and claims[p] >= 0 and knew[p] and claims[p] not in known:
            signals.append((claims[p], "claim"))
    future = 1.0
    if state.phase_name() == "invest":
        claimant, prop, decisions = state.investing_decisions()
        if prop not in known:
            game = state.get_game()
            looked = state.seen_by(prop)
            investing = game.rules.investing
            future = future_after(state, prop, known, unseen_counts(game.rules.payoff_mix, list(known.values())))
            for p, local, _ in decisions:
                if p != player and p in looked:
                    signals.append((prop, (signal_of(investing.decode(local)[0]), p == claimant)))
    if not signals:
        return [1.0] * len(worlds)
    out = []
    for world in worlds:
        cards = world.referee_cards()
        like = 1.0
        for prop, signal in signals:
            card = cards[prop]
            if signal == "claim":
                like *= w if wants_claim(card, knobs) else 1.0 - w
            else:
                like *= w if decision_matches(card, signal[0], signal[1], n, future, knobs) else 1.0 - w
        out.append(like)
    return out


def make_heuristic(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs: Any) -> HeuristicBot1981:
    """Registry factory for ``heuristic`` on ``trustme_1981``; unknown knobs fail naming the valid ones."""
    unknown = sorted(set(knobs) - set(KNOB_NAMES))
    if unknown:
        raise ValueError(f"unknown knob(s) {unknown} for the {SHORT_NAME} heuristic bot; valid knobs: "
                         + ", ".join(KNOB_NAMES))
    return HeuristicBot1981(game, player_id, rng, **knobs)


register_bot(SHORT_NAME, "heuristic", make_heuristic)
register_bot(INVESTMENT_SHORT_NAME, "heuristic", InvestmentHeuristicBot1981)
# The trained player (trustme_analysis.players.trained; its abstraction and traversal: kernel.abstraction,
# kernel.training), for the board game and the investing round alone.
register_bot(SHORT_NAME, "trained", make_trained_bot)
register_bot(INVESTMENT_SHORT_NAME, "trained", make_trained_bot)
