"""A heuristic player for Trust Me (1981) (``trustme_1981``), registered as bot kind ``"heuristic"``.

The same investing rule plays the investing round alone (``trustme_1981_investment``) as
:class:`InvestmentHeuristicBot1981`, also registered as ``"heuristic"``.

It uses only what its seat may know: its legal actions, the Payoff cards it has looked under or seen revealed
(``state.known_cards``), and public facts (positions, claim markers, who has looked where, the cards turned up, the
decisions made so far in the investing round). It never reads the referee's view of the briefcases.

Knobs (all documented in :class:`HeuristicBot1981`):

- when to look versus claim unseen (``claim_unseen``) and whether to claim a briefcase known to be empty
  (``claim_empty``: the claimant still collects the reserve);
- heading for the Company: with a claim the bot always moves to the Company when it can, else as close as it can;
- how much to invest (``invest_threshold``, ``stake``) given its belief about the briefcase, which starts from the
  Payoff cards not yet accounted for and moves towards what informed players' purchases reveal (``signal_weight``);
- when to divest (``divest_threshold`` on the chance of "You've Been Had!").
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pyspiel

from trustme_analysis.players.base import TrustMeBot
from trustme_analysis.players.registry import register_bot
from trustme_analysis.games.board1981.rules import SHORT_NAME
from trustme_analysis.games.board1981.board import HOT_TIP, PROPERTY, WILD_GOOSE_CHASE
from trustme_analysis.games.board1981.investing import BEEN_HAD, BUY, DIVEST, EMPTY, ONE_STACK, PAYOFF_NAMES, TWO_STACKS
from trustme_analysis.games.board1981.investment import SHORT_NAME as INVESTMENT_SHORT_NAME

GOOD = (ONE_STACK, TWO_STACKS)


class HeuristicBot1981(TrustMeBot):
    """Rule-of-thumb play for ``trustme_1981``.

    Args:
        game: the loaded ``trustme_1981`` game.
        player_id: the seat.
        rng: the generator for the bot's random choices (tie-breaks, look-or-claim).
        claim_unseen: probability of claiming an unknown briefcase sight-unseen instead of looking (0..1).
        claim_empty: claim a briefcase known to be Empty (hoping others invest into the reserve).
        invest_threshold: buy when the expected payoff per share, less what a share bought from an opponent hands
            that opponent, is at least this.
        divest_threshold: divest all shares when the chance of "You've Been Had!" is at least this.
        stake: fraction of its money the bot puts into one purchase (the largest lot not above it).
        signal_weight: how far one informed player's purchase (or divestment) moves the belief towards a good
            (or "You've Been Had!") briefcase, 0..1.
    """

    kind = "heuristic"

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: int,
        rng: np.random.Generator,
        claim_unseen: float = 0.5,
        claim_empty: bool = True,
        invest_threshold: float = 0.25,
        divest_threshold: float = 0.3,
        stake: float = 0.5,
        signal_weight: float = 0.5,
    ):
        super().__init__(player_id, rng)
        for name, value in (
            ("claim_unseen", claim_unseen),
            ("divest_threshold", divest_threshold),
            ("stake", stake),
            ("signal_weight", signal_weight),
        ):
            if not 0.0 <= float(value) <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number from 0 to 1")
        self.game = game
        self.claim_unseen = float(claim_unseen)
        self.claim_empty = bool(claim_empty)
        self.invest_threshold = float(invest_threshold)
        self.divest_threshold = float(divest_threshold)
        self.stake = float(stake)
        self.signal_weight = float(signal_weight)
        self.dist = _distances_to(game.board, game.board.company)

    def knobs(self) -> dict:
        return {
            "claim_unseen": self.claim_unseen,
            "claim_empty": self.claim_empty,
            "invest_threshold": self.invest_threshold,
            "divest_threshold": self.divest_threshold,
            "stake": self.stake,
            "signal_weight": self.signal_weight,
        }

    # ------------------------------------------------------------------ beliefs

    def belief(self, state: pyspiel.State, prop: int) -> np.ndarray:
        """Probabilities of the four Payoff cards under ``prop`` from this seat's knowledge (no signals)."""
        known = state.known_cards(self.player_id)
        out = np.zeros(4)
        if prop in known:
            out[known[prop]] = 1.0
            return out
        left = np.array(self.game.rules.payoff_mix, dtype=float)
        for q, card in known.items():  # cards seen elsewhere or turned up are not under prop
            left[card] -= 1
        left = np.maximum(left, 0.0)
        return left / left.sum() if left.sum() > 0 else np.full(4, 0.25)

    def _wants_claim(self, card: int) -> bool:
        return card in GOOD or (card == EMPTY and self.claim_empty)

    # ------------------------------------------------------------------ decisions

    def choose(self, state: pyspiel.State) -> int:
        legal = state.legal_actions(self.player_id)
        if len(legal) == 1:
            return legal[0]
        phase = state.phase_name()
        handler = {
            "turn_start": self._turn_start,
            "move": self._move,
            "property": self._property,
            "hot_tip": self._look_somewhere,
            "peek": self._look_somewhere,
            "send": self._send,
            "challenge": self._challenge,
            "invest": self._invest,
        }.get(phase)
        if handler is None:
            return int(legal[self.rng.integers(len(legal))])
        return int(handler(state, legal))

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """The probability of each legal action that :meth:`choose` takes in ``state`` (this bot's turn).

        :meth:`choose` draws at random only to break ties between equally scored moves or sending spaces (the
        scores are whole numbers and the noise added is below 0.01, so each best move is equally likely), to pick a
        briefcase to look under or a player to challenge (uniformly), and to claim an unknown briefcase
        sight-unseen (``claim_unseen``); every other decision is deterministic.
        """
        legal = [int(a) for a in state.legal_actions(self.player_id)]
        out = {a: 0.0 for a in legal}

        def uniform(pool) -> dict[int, float]:
            for a in pool:
                out[int(a)] += 1.0 / len(pool)
            return out

        if len(legal) == 1:
            return uniform(legal)
        g = self.game
        phase = state.phase_name()
        if phase == "move" or phase == "send":
            # The same scores as _move/_send without their tie-breaking noise: a uniform choice among the best.
            scores = (self._move_scores if phase == "move" else self._send_scores)(state, legal)
            best = max(scores)
            return uniform([a for a, s in zip(legal, scores) if s == best])
        if phase in ("hot_tip", "peek"):
            known = state.known_cards(self.player_id)
            unknown = [a for a in legal if a != g.actions.decline and (a - g.actions.first_case) not in known]
            return uniform(unknown or legal)
        if phase == "challenge":
            targets = [a for a in legal if a != g.actions.decline]
            return uniform(targets) if targets else uniform(legal[:1])
        if phase == "property":
            prop = g.board.space_property[state.positions()[self.player_id]]
            if g.actions.claim_unseen in legal and state.known_cards(self.player_id).get(prop) is None:
                out[g.actions.claim_unseen] += self.claim_unseen
                out[g.actions.look] += 1.0 - self.claim_unseen
                return out
        handler = {"turn_start": self._turn_start, "property": self._property, "invest": self._invest}.get(phase)
        if handler is None:
            return uniform(legal)
        out[int(handler(state, legal))] = 1.0
        return out

    def _turn_start(self, state, legal):
        g = self.game
        if g.actions.invest_now in legal:
            return g.actions.invest_now
        if g.actions.claim_looked in legal:
            prop = state.right_to_claim(self.player_id)
            card = state.known_cards(self.player_id).get(prop)
            if card is not None and self._wants_claim(card):
                return g.actions.claim_looked
        return g.actions.roll

    def _move(self, state, legal):
        scores = self._move_scores(state, legal)
        return legal[int(np.argmax([score + self.rng.random() * 0.01 for score in scores]))]

    def _move_scores(self, state, legal) -> list[float]:
        """Whole-number scores of the destinations (the tie-break noise is added by :meth:`_move`)."""
        g = self.game
        b = g.board
        me = self.player_id
        claims = state.claims()
        positions = state.positions()
        known = state.known_cards(me)
        on_board = set(state.cases_on_board())
        scores = []
        for dest in legal:
            if claims[me] >= 0:
                score = 100.0 if dest == b.company else -self.dist[dest]
            else:
                others = [p for p in range(g.rules.players) if p != me and positions[p] == dest and dest != b.company]
                score = 0.0
                if any(claims[p] >= 0 for p in others):
                    score = 50.0  # rule a): an occupant's claim becomes ours
                elif b.kinds[dest] == PROPERTY:
                    q = b.space_property[dest]
                    if q in on_board and q not in claims:
                        if q in known:
                            score = 40.0 if self._wants_claim(known[q]) else 1.0
                        else:
                            score = 20.0
                elif b.kinds[dest] == HOT_TIP:
                    area = b.area_properties(b.hot_tip_area[dest])
                    if any(q in on_board and q not in claims and q not in known for q in area):
                        score = 15.0
                elif b.kinds[dest] == WILD_GOOSE_CHASE:
                    score = -5.0
            scores.append(score)
        return scores

    def _property(self, state, legal):
        g = self.game
        me = self.player_id
        prop = g.board.space_property[state.positions()[me]]
        card = state.known_cards(me).get(prop)
        if g.actions.claim_unseen in legal:
            if card is not None:
                return g.actions.claim_unseen if self._wants_claim(card) else g.actions.decline
            if self.rng.random() < self.claim_unseen:
                return g.actions.claim_unseen
        return g.actions.look if card is None else g.actions.decline

    def _look_somewhere(self, state, legal):
        g = self.game
        known = state.known_cards(self.player_id)
        unknown = [a for a in legal if a != g.actions.decline and (a - g.actions.first_case) not in known]
        pool = unknown or legal
        return int(pool[self.rng.integers(len(pool))])

    def _send(self, state, legal):
        # Send an opponent as far from the Company as possible; oneself (Bamboozled) as close as possible.
        scores = self._send_scores(state, legal)
        return legal[int(np.argmax([score + self.rng.random() * 0.01 for score in scores]))]

    def _send_scores(self, state, legal) -> list[float]:
        """Whole-number scores of the Wild Goose Chase spaces (the tie-break noise is added by :meth:`_send`)."""
        g = self.game
        _, target = state.pending_send()
        sign = -1.0 if target == self.player_id else 1.0
        return [sign * self.dist[g.board.wild_goose_chase[a - g.actions.first_send]] for a in legal]

    def _challenge(self, state, legal):
        targets = [a for a in legal if a != self.game.actions.decline]
        return int(targets[self.rng.integers(len(targets))]) if targets else legal[0]

    def _invest(self, state, legal):
        g = self.game
        me = self.player_id
        claimant, prop, decisions = state.investing_so_far()
        # Only the decisions of players who looked move the belief, and only while this seat has not looked itself.
        informed = set() if prop in state.known_cards(me) else set(state.seen_by(prop)) - {me}
        decoded = {a: g.rules.investing.decode(a - g.actions.first_invest) for a in legal}
        return invest_choice(
            self.knobs(), self.belief(state, prop), informed, decisions, me, claimant, g.rules.players, state.money()[me], decoded,
            g.actions.first_invest,
        )


def invest_choice(
    knobs: dict,
    belief: np.ndarray,
    informed: set[int],
    decisions: list[tuple[int, str]],
    me: int,
    claimant: int,
    num_players: int,
    money: int,
    decoded: dict[int, tuple[str, int]],
    hold: int,
) -> int:
    """The heuristic investing decision, shared by the full game's bot and the investing round's bot.

    Args:
        knobs: ``invest_threshold``, ``divest_threshold``, ``stake``, ``signal_weight`` (see :class:`HeuristicBot1981`).
        belief: probabilities of the four Payoff cards from what this seat has seen (no signals yet).
        informed: the other players known to have looked under the claimed briefcase.
        decisions: ``(player, verb)`` of the decisions so far this round.
        me: this seat; claimant: the claimant's seat; num_players: players at the table; money: this seat's money.
        decoded: legal action -> ``(verb, amount)``.
        hold: the hold action.
    """
    weight = knobs["signal_weight"]
    for p, verb in decisions:
        if p in informed and verb in (BUY, DIVEST, "divest_all"):
            target = np.zeros(4)
            if verb == BUY:
                good = belief[list(GOOD)]
                target[list(GOOD)] = good / good.sum() if good.sum() > 0 else 0.5
            else:
                target[BEEN_HAD] = 1.0
            if target.sum() > 0:
                belief = (1 - weight) * belief + weight * target
    per_share = belief[ONE_STACK] + 2 * belief[TWO_STACKS] - belief[BEEN_HAD]
    # A share bought from an opponent hands that opponent $1: a relative loss against one of n-1 rivals.
    cost = 0.0 if claimant == me else 1.0 / (num_players - 1)
    if belief[BEEN_HAD] >= knobs["divest_threshold"]:
        for a, (verb, _) in decoded.items():
            if verb == "divest_all":
                return a
    if per_share - cost >= knobs["invest_threshold"]:
        budget = knobs["stake"] * money
        buys = [(amount, a) for a, (verb, amount) in decoded.items() if verb == BUY and amount <= budget]
        if buys:
            return max(buys)[1]
    return hold


class InvestmentHeuristicBot1981(TrustMeBot):
    """The heuristic investor of :class:`HeuristicBot1981` on ``trustme_1981_investment`` (the investing round alone).

    Its belief starts from the game's ``payoff_mix`` (or the card it saw, if it looked), moves towards what the
    purchases and divestments of players who looked reveal, and it buys, divests all or holds by the same rule and
    knobs as the full game's bot. It is deterministic: ``action_probabilities`` puts 1 on the chosen action.

    Args:
        game: the loaded ``trustme_1981_investment`` game.
        player_id: the seat.
        rng: the generator (unused: every decision is deterministic; kept for the common bot interface).
        invest_threshold, divest_threshold, stake, signal_weight: as in :class:`HeuristicBot1981`.
    """

    kind = "heuristic"

    def __init__(
        self,
        game: pyspiel.Game,
        player_id: int,
        rng: np.random.Generator,
        invest_threshold: float = 0.25,
        divest_threshold: float = 0.3,
        stake: float = 0.5,
        signal_weight: float = 0.5,
    ):
        super().__init__(player_id, rng)
        for name, value in (("divest_threshold", divest_threshold), ("stake", stake), ("signal_weight", signal_weight)):
            if not 0.0 <= float(value) <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number from 0 to 1")
        self.game = game
        self.settings = {
            "invest_threshold": float(invest_threshold),
            "divest_threshold": float(divest_threshold),
            "stake": float(stake),
            "signal_weight": float(signal_weight),
        }
        self.label_to_action = {game.investing.label(a): a for a in range(game.investing.num_actions)}

    def knobs(self) -> dict:
        return dict(self.settings)

    def choose(self, state: pyspiel.State) -> int:
        me = self.player_id
        snap = state.snapshot()
        if snap["seen"][me]:
            belief = np.zeros(4)
            belief[PAYOFF_NAMES.index(snap["card"])] = 1.0
            informed: set[int] = set()
        else:
            mix = np.array(self.game.payoff_mix, dtype=float)
            belief = mix / mix.sum()
            informed = {p for p, seen in enumerate(snap["seen"]) if seen and p != me}
        decisions = []
        for event in snap["events"]:
            if event["kind"] == "invest":
                verb, _ = self.game.investing.decode(self.label_to_action[event["decision"]])
                decisions.append((event["player"], verb))
        decoded = {int(a): self.game.investing.decode(int(a)) for a in state.legal_actions(me)}
        hold = next(a for a, (verb, _) in decoded.items() if verb == "hold")
        return invest_choice(
            self.settings, belief, informed, decisions, me, snap["claimant"], self.game.num_players(),
            snap["money"][me], decoded, hold,
        )

    def action_probabilities(self, state: pyspiel.State) -> dict[int, float]:
        """1 on the action :meth:`choose` takes (the rule is deterministic), 0 on the other legal actions."""
        chosen = self.choose(state)
        return {int(a): float(a == chosen) for a in state.legal_actions(self.player_id)}


def _distances_to(board, target: int) -> list[int]:
    dist = [10**6] * board.num_spaces
    dist[target] = 0
    queue = deque([target])
    while queue:
        s = queue.popleft()
        for n in board.neighbours[s]:
            if dist[n] > dist[s] + 1:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def make_heuristic(game: pyspiel.Game, player_id: int, rng: np.random.Generator, **knobs) -> HeuristicBot1981:
    """Registry factory for ``heuristic`` on ``trustme_1981``."""
    return HeuristicBot1981(game, player_id, rng, **knobs)


register_bot(SHORT_NAME, "heuristic", make_heuristic)
register_bot(INVESTMENT_SHORT_NAME, "heuristic", InvestmentHeuristicBot1981)
