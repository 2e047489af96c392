"""The heuristic player's policy for Trust Me (1981): one function from a position to a distribution over the legal
actions, written once and read by the bots (:mod:`~trustme_analysis.games.board1981.players.bots`), the search player's belief and the compiled kernel's
rollout players (which restate it and are proven equal to it).

It uses only what its seat may know: its legal actions, the Payoff cards it has looked under or seen revealed, and
public facts (positions, claim markers, who has looked where, whether a claimant chose its claim after looking, the
decisions made so far in the investing round).

**Investing by expected payoff.** A share is $1 of wealth that each reveal it is held through changes by +1 (One
Stack), +2 (Two Stacks), 0 (Empty) or -1 ("You've Been Had!": the share is lost, and with it every later payoff), so a
share bought now is worth, in expectation, ``V = b_one + 2 b_two + (1 - b_had) S - 1`` (the $1 paid), where ``b`` is
the belief over the card being revealed and ``S`` what a share held after this reveal is expected to be worth at the
end: ``S = g + s S'`` over the reveals still to come (two briefcases stay on the board), ``g`` and ``s`` the mean payoff
and survival chance of a reveal over the other briefcases on the board (their card where the seat has seen it, else
the unseen mix), ``S = 1`` when none is left. The belief starts from the Payoff cards not yet accounted for (the mix,
less the cards the seat has seen under other briefcases or seen revealed: "Remember which Payoff cards have already
turned up") and is updated by Bayes' rule with what the others' choices reveal ("Remember who has seen what"): a
claimant that chose its claim after looking under the briefcase, and each earlier investor this round who had looked.
Each informed player is modelled as this heuristic acting on the card it saw, with probability ``signal_weight``, and
as doing something else otherwise. A share bought from an opponent also hands that opponent $1, a loss relative to one
of ``n - 1`` rivals, so the seat buys when ``V - cost >= invest_threshold`` (cost ``1/(n-1)``, or 0 in its own claim):
all its money when the card is certain (the "buy max" decision, or the largest lot it can pay), else up to ``stake``
of its money. It divests all its shares when holding them is worth less than their $1 (``V < 0``) or the chance of
"You've Been Had!" reaches ``divest_threshold``.

**On the board.** With a claim it heads for the Company (stopping there as soon as it can) and invests at once; without
one it prefers to land on an occupant holding a claim (rule a) takes it), then on briefcases it knows it wants, on
unknown briefcases, on Hot Tips with an unknown briefcase, and avoids Wild Goose Chase spaces. On an unknown briefcase
it claims sight-unseen with probability ``claim_unseen``, else looks; it claims a known briefcase it wants (good, or
Empty with ``claim_empty``: the claimant still collects the reserve) and declines the others. It sends opponents as
far from the Company as it can and itself as close as it can; it looks under unknown briefcases at Hot Tips and in the
peek, and challenges a uniformly chosen claimant whenever it can.
"""

from __future__ import annotations

from collections import deque
from dataclasses import asdict, dataclass
from typing import Any

from trustme_analysis.games.board1981.engine.board import HOT_TIP, PROPERTY, WILD_GOOSE_CHASE, Board
from trustme_analysis.games.board1981.engine.investing import (
    BEEN_HAD,
    BUY,
    BUY_MAX,
    DIVEST_ALL,
    EMPTY,
    NUM_PAYOFF_KINDS,
    ONE_STACK,
    TWO_STACKS,
    InvestingRules,
)

#: Money one share held through a reveal pays, per Payoff card (the rule text's payoff table)...
SHARE_GAIN = (1.0, 2.0, 0.0, 0.0)
#: ...and whether the share survives it ("You've Been Had!": return all your shares).
SHARE_SURVIVAL = (1.0, 1.0, 1.0, 0.0)
GOOD = (ONE_STACK, TWO_STACKS)

# An investing decision as a signal: what kind of decision it was.
SIGNAL_BUY, SIGNAL_HOLD, SIGNAL_DIVEST = 0, 1, 2

# Move scores (whole numbers; ties are broken uniformly).
SCORE_COMPANY_WITH_CLAIM = 100.0
SCORE_TAKE_CLAIM = 50.0
SCORE_WANTED_CASE = 40.0
SCORE_UNKNOWN_CASE = 20.0
SCORE_HOT_TIP = 15.0
SCORE_UNWANTED_CASE = 1.0
SCORE_WILD_GOOSE_CHASE = -5.0


@dataclass(frozen=True)
class HeuristicKnobs:
    """The heuristic's knobs (see the module docstring).

    Attributes:
        claim_unseen: probability of claiming an unknown briefcase sight-unseen instead of looking (0..1).
        claim_empty: claim a briefcase known to be Empty (hoping others invest into the reserve).
        invest_threshold: buy when the expected payoff per share less the cost of handing an opponent $1 reaches it.
        divest_threshold: divest all shares when the chance of "You've Been Had!" reaches it (0..1).
        stake: fraction of its money put into one purchase when the card is not certain (0..1).
        signal_weight: the chance that an informed player's choice (a claim made after looking, a purchase or a
            divestment) is what this heuristic would do with the card it saw (0.5: choices say nothing; 0..1).
    """

    # Measured against the claim probes (docs/games/board1981.rst): always looking is exploited by claiming unseen,
    # always claiming plays worse against random players.
    claim_unseen: float = 0.5
    claim_empty: bool = True
    invest_threshold: float = 0.25
    divest_threshold: float = 0.3
    stake: float = 1.0
    signal_weight: float = 0.8

    def __post_init__(self) -> None:
        for name in ("claim_unseen", "divest_threshold", "stake", "signal_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
                raise ValueError(f"heuristic bot knob {name}={value!r} is not allowed; allowed: a number from 0 to 1")
            object.__setattr__(self, name, float(value))
        if isinstance(self.invest_threshold, bool) or not isinstance(self.invest_threshold, (int, float)):
            raise ValueError(f"heuristic bot knob invest_threshold={self.invest_threshold!r} is not allowed; "
                             "allowed: a number")
        object.__setattr__(self, "invest_threshold", float(self.invest_threshold))
        if not isinstance(self.claim_empty, bool):
            raise ValueError(f"heuristic bot knob claim_empty={self.claim_empty!r} is not allowed; allowed: true or "
                             "false")

    def as_dict(self) -> dict[str, Any]:
        """The knobs as a plain dict."""
        return asdict(self)


KNOB_NAMES = tuple(HeuristicKnobs.__dataclass_fields__)


# ---------------------------------------------------------------------------------------------- investing


def wants_claim(card: int, knobs: HeuristicKnobs) -> bool:
    """Whether the heuristic claims a briefcase it knows holds ``card``."""
    return card in GOOD or (card == EMPTY and knobs.claim_empty)


def investing_cost(is_claimant: bool, num_players: int) -> float:
    """What one share bought hands the rivals, relative to the buyer: $1 to one of ``n - 1`` opponents, or nothing
    in one's own claim (the money goes to the Bank)."""
    return 0.0 if is_claimant else 1.0 / (num_players - 1)


def signal_of(verb: str) -> int:
    """An investing decision's verb as a signal: buy, hold or divest."""
    if verb in (BUY, BUY_MAX):
        return SIGNAL_BUY
    return SIGNAL_HOLD if verb == "hold" else SIGNAL_DIVEST


def future_worth(gain: float, survival: float, reveals: int) -> float:
    """What one share held after the current reveal is expected to be worth at the end: ``reveals`` more reveals,
    each paying ``gain`` on average and keeping the share with chance ``survival`` (1 when none is left)."""
    worth = 1.0
    for _ in range(reveals):
        worth = gain + survival * worth
    return worth


def share_value(belief: list[float], future: float) -> float:
    """Expected wealth from buying one share for $1 now: this reveal's payoff, the share's worth afterwards if it
    survives, less the $1."""
    return belief[ONE_STACK] + 2.0 * belief[TWO_STACKS] + (1.0 - belief[BEEN_HAD]) * future - 1.0


def decision_matches(card: int, signal: int, is_claimant: bool, num_players: int, future: float,
                     knobs: HeuristicKnobs) -> bool:
    """Whether an informed investor's decision (``signal``) is what this heuristic would do knowing ``card``: never
    buy a share worth less than its $1 ("You've Been Had!": hold or divest), buy when the share's value beats the
    cost by the threshold, else hold."""
    value = SHARE_GAIN[card] + SHARE_SURVIVAL[card] * future - 1.0
    if value < 0.0:
        return signal != SIGNAL_BUY
    if value - investing_cost(is_claimant, num_players) >= knobs.invest_threshold:
        return signal == SIGNAL_BUY
    return signal == SIGNAL_HOLD


def card_belief(prior: list[float], claim_chosen_knowing: bool, informed: list[tuple[int, bool]], num_players: int,
                future: float, knobs: HeuristicKnobs) -> list[float]:
    """The probability of each Payoff card under the claimed briefcase.

    Args:
        prior: the unseen count of each card kind (the mix less the cards accounted for).
        claim_chosen_knowing: the claimant chose its claim after looking under the briefcase.
        informed: ``(signal, decider is the claimant)`` of each earlier decision this round by a player who had
            looked under the briefcase, in order.
        num_players: players at the table.
        future: a share's worth after this reveal (:func:`future_worth`), as the informed players value it.
        knobs: the heuristic's knobs (``signal_weight``, and what the model of an informed player reads).
    """
    w = knobs.signal_weight
    post = [0.0] * NUM_PAYOFF_KINDS
    total = 0.0
    for k in range(NUM_PAYOFF_KINDS):
        like = 1.0
        if claim_chosen_knowing:
            like *= w if wants_claim(k, knobs) else 1.0 - w
        for signal, is_claimant in informed:
            like *= w if decision_matches(k, signal, is_claimant, num_players, future, knobs) else 1.0 - w
        post[k] = prior[k] * like
        total += post[k]
    if total > 0.0:
        return [x / total for x in post]
    total = prior[0] + prior[1] + prior[2] + prior[3]
    if total > 0.0:
        return [x / total for x in prior]
    return [1.0 / NUM_PAYOFF_KINDS] * NUM_PAYOFF_KINDS


def unseen_counts(payoff_mix: tuple[int, ...], known_elsewhere: list[int]) -> list[float]:
    """The mix less the cards accounted for (``known_elsewhere``: the card of each other briefcase the seat has seen),
    never below 0."""
    left = [float(c) for c in payoff_mix]
    for card in known_elsewhere:
        left[card] -= 1.0
    return [x if x > 0.0 else 0.0 for x in left]


def invest_decision(belief: list[float], future: float, is_claimant: bool, num_players: int, money: int,
                    shares: int, legal: list[int], investing: InvestingRules, knobs: HeuristicKnobs) -> int:
    """The local investing decision (deterministic) for a seat with ``belief`` over the card and ``future`` the
    worth of a share after this reveal."""
    value = share_value(belief, future)
    if shares > 0 and (value < 0.0 or belief[BEEN_HAD] >= knobs.divest_threshold):
        for local in legal:
            if investing.decode(local)[0] == DIVEST_ALL:
                return local
    if value - investing_cost(is_claimant, num_players) >= knobs.invest_threshold:
        certain = max(belief) == 1.0
        budget = float(money) if certain else knobs.stake * money
        best, best_amount = -1, -1
        for local in legal:
            verb, amount = investing.decode(local)
            if verb == BUY_MAX:
                amount = money
            elif verb != BUY:
                continue
            if amount <= budget and amount > best_amount:
                best, best_amount = local, amount
        if best >= 0:
            return best
    return 0  # hold


def future_after(state: Any, prop: int, known: dict[int, int], prior: list[float]) -> float:
    """The worth of a share after the reveal of ``prop`` (:func:`future_worth`): the other briefcases on the board
    give the mean payoff and survival of a reveal (their card where ``known``, else the unseen mix ``prior``); all but
    two of them are revealed before the end."""
    unseen = prior[0] + prior[1] + prior[2] + prior[3]
    gain_unknown = (prior[ONE_STACK] + 2.0 * prior[TWO_STACKS]) / unseen if unseen > 0.0 else 0.0
    survival_unknown = (unseen - prior[BEEN_HAD]) / unseen if unseen > 0.0 else 1.0
    gain = survival = 0.0
    count = 0
    for q in state.cases_on_board():
        if q == prop:
            continue
        if q in known:
            gain += SHARE_GAIN[known[q]]
            survival += SHARE_SURVIVAL[known[q]]
        else:
            gain += gain_unknown
            survival += survival_unknown
        count += 1
    reveals = count - 2
    if reveals <= 0:
        return 1.0
    return future_worth(gain / count, survival / count, reveals)


# ---------------------------------------------------------------------------------------------- the board game


def distances_to(board: Board, target: int) -> list[int]:
    """Steps from every space to ``target`` along connections (breadth-first)."""
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


class BoardHeuristic:
    """The heuristic policy of ``trustme_1981`` for one loaded game (its board distances computed once).

    Args:
        game: the loaded ``trustme_1981`` game.
        knobs: the knobs.
    """

    def __init__(self, game: Any, knobs: HeuristicKnobs):
        self.game = game
        self.rules = game.rules
        self.codec = game.actions
        self.board = game.rules.board
        self.knobs = knobs
        self.dist = distances_to(self.board, self.board.company)

    def probabilities(self, state: Any, me: int) -> dict[int, float]:
        """The probability of each legal action of seat ``me`` (whose turn it is) in ``state``."""
        legal = [int(a) for a in state.legal_actions(me)]
        out = dict.fromkeys(legal, 0.0)
        if len(legal) == 1:
            out[legal[0]] = 1.0
            return out
        codec = self.codec
        phase = state.phase_name()
        if phase in ("move", "send"):
            scores = self.move_scores(state, me, legal) if phase == "move" else self.send_scores(state, me, legal)
            best = max(scores)
            return _uniform(out, [a for a, s in zip(legal, scores) if s == best])
        if phase in ("hot_tip", "peek"):
            known = state.known_cards(me)
            unknown = [a for a in legal if a != codec.decline and a - codec.first_case not in known]
            return _uniform(out, unknown or legal)
        if phase == "challenge":
            targets = [a for a in legal if a != codec.decline]
            return _uniform(out, targets or legal[:1])
        if phase == "property":
            prop = self.board.space_property[state.positions()[me]]
            card = state.known_cards(me).get(prop)
            if codec.claim_unseen in legal:
                if card is None:
                    out[codec.claim_unseen] += self.knobs.claim_unseen
                    out[codec.look] += 1.0 - self.knobs.claim_unseen
                    return out
                out[codec.claim_unseen if wants_claim(card, self.knobs) else codec.decline] = 1.0
                return out
            out[codec.look if card is None else codec.decline] = 1.0
            return out
        if phase == "turn_start":
            out[self.turn_start(state, me, legal)] = 1.0
            return out
        if phase == "invest":
            out[self.invest(state, me, legal)] = 1.0
            return out
        return _uniform(out, legal)

    def turn_start(self, state: Any, me: int, legal: list[int]) -> int:
        """Invest at once with a claim on the Company; claim the property looked at last turn if it is wanted."""
        codec = self.codec
        if codec.invest_now in legal:
            return codec.invest_now
        if codec.claim_looked in legal:
            card = state.known_cards(me).get(state.right_to_claim(me))
            if card is not None and wants_claim(card, self.knobs):
                return codec.claim_looked
        return codec.roll

    def move_scores(self, state: Any, me: int, legal: list[int]) -> list[float]:
        """Whole-number scores of the destinations (see the module docstring)."""
        board = self.board
        claims = state.claims()
        positions = state.positions()
        known = state.known_cards(me)
        on_board = set(state.cases_on_board())
        n = self.rules.players
        scores = []
        for dest in legal:
            if claims[me] >= 0:
                score = SCORE_COMPANY_WITH_CLAIM if dest == board.company else -float(self.dist[dest])
            else:
                score = 0.0
                if dest != board.company and any(positions[p] == dest and claims[p] >= 0 for p in range(n)
                                                 if p != me):
                    score = SCORE_TAKE_CLAIM  # rule a): an occupant's claim becomes ours
                elif board.kinds[dest] == PROPERTY:
                    q = board.space_property[dest]
                    if q in on_board and q not in claims:
                        if q in known:
                            score = SCORE_WANTED_CASE if wants_claim(known[q], self.knobs) else SCORE_UNWANTED_CASE
                        else:
                            score = SCORE_UNKNOWN_CASE
                elif board.kinds[dest] == HOT_TIP:
                    area = board.area_properties(board.hot_tip_area[dest])
                    if any(q in on_board and q not in claims and q not in known for q in area):
                        score = SCORE_HOT_TIP
                elif board.kinds[dest] == WILD_GOOSE_CHASE:
                    score = SCORE_WILD_GOOSE_CHASE
            scores.append(score)
        return scores

    def send_scores(self, state: Any, me: int, legal: list[int]) -> list[float]:
        """Send an opponent as far from the Company as possible; oneself (Bamboozled) as close as possible."""
        _, target = state.pending_send()
        sign = -1.0 if target == me else 1.0
        wgc = self.board.wild_goose_chase
        return [sign * self.dist[wgc[a - self.codec.first_send]] for a in legal]

    def invest_view(self, state: Any, me: int) -> tuple[list[float], float]:
        """This seat's belief over the card under the briefcase of the investing round in progress, and the worth of
        a share after its reveal (:func:`future_worth` over the other briefcases on the board)."""
        claimant, prop, decisions = state.investing_decisions()
        known = state.known_cards(me)
        prior = unseen_counts(self.rules.payoff_mix, list(known.values()))
        future = future_after(state, prop, known, prior)
        if prop in known:
            belief = [0.0] * NUM_PAYOFF_KINDS
            belief[known[prop]] = 1.0
            return belief, future
        looked = state.seen_by(prop)
        investing = self.rules.investing
        informed = [(signal_of(investing.decode(local)[0]), p == claimant) for p, local, _ in decisions
                    if p != me and p in looked]
        knowing = claimant != me and state.claim_knew()[claimant]
        return card_belief(prior, knowing, informed, self.rules.players, future, self.knobs), future

    def invest(self, state: Any, me: int, legal: list[int]) -> int:
        """The investing decision (an action of the full game)."""
        claimant, _, _ = state.investing_decisions()
        belief, future = self.invest_view(state, me)
        first = self.codec.first_invest
        local = invest_decision(belief, future, claimant == me, self.rules.players, state.money()[me],
                                state.shares()[me], [a - first for a in legal], self.rules.investing, self.knobs)
        return first + local


def _uniform(out: dict[int, float], pool: list[int]) -> dict[int, float]:
    for a in pool:
        out[a] += 1.0 / len(pool)
    return out
