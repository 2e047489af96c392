"""The investing round of Trust Me (1981) and the Payoff cards: the one place where these rules live.

Both :mod:`trustme_analysis.games.board1981` (the full game) and
:mod:`trustme_analysis.games.board1981.engine.investment` (the round alone) use this module, so buying, divesting, the reserve account and the four payoff rows are written once.

Rule text (Investing): "starting to the left of this player, everyone in turn decides whether or not to purchase
shares ... The player with the claim is the last to decide"; "a) To invest in an opponent's claim, give that player $1
for every share ... b) To invest in your own claim, give the Bank $1 for every share ... c) ... keep the shares you
already have. d) ... divest ... return your unwanted shares to the Bank in exchange for an equal amount of money";
money given to an opponent goes to the "reserve account" until the reveal, then to the claimant.

At the table any whole number of shares may be bought or divested; here one decision picks from a documented set of
*lots* (a parameter, an assumption), "buy max" (as many shares as the investor's money pays for: "give that player $1
for every share you want"; a parameter, on by default in the full game) and "divest all" (the rule text's own advice
is to cash in all shares before a "You've Been Had!").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from trustme_analysis.engine import params as P

#: Payoff card kinds, in the order of the rule text's table.
ONE_STACK, TWO_STACKS, EMPTY, BEEN_HAD = 0, 1, 2, 3
PAYOFF_NAMES = ("One Stack of Bills", "Two Stacks of Bills", "Empty Briefcase", "You've Been Had!")
PAYOFF_SHORT = ("one", "two", "empty", "had")
NUM_PAYOFF_KINDS = 4

#: Investing decision verbs.
HOLD, BUY, BUY_MAX, DIVEST, DIVEST_ALL = "hold", "buy", "buy_max", "divest", "divest_all"
#: The verbs that buy shares.
BUYING = (BUY, BUY_MAX)
#: The verbs that divest shares.
DIVESTING = (DIVEST, DIVEST_ALL)


def parse_payoff_mix(game: str, params: Mapping[str, Any], name: str = "payoff_mix") -> tuple[int, ...]:
    """A ``one/two/empty/had`` count list, e.g. ``"6/4/4/2"``; at least one card in all."""
    mix = P.int_list(game, params, name, length=NUM_PAYOFF_KINDS, low=0)
    if sum(mix) == 0:
        raise P.ParameterError(game, name, params[name], "counts one/two/empty/had with at least one card")
    return mix


def parse_lots(game: str, params: Mapping[str, Any], name: str = "lots") -> tuple[int, ...]:
    """The share amounts one decision may buy or divest, e.g. ``"1/5/10/25/50"`` (a 0 means hold, always allowed)."""
    raw = P.int_list(game, params, name, low=0)
    lots = tuple(sorted({v for v in raw if v > 0}))
    if not lots:
        raise P.ParameterError(game, name, params[name], "at least one positive lot, e.g. '1/5/10'")
    return lots


def investing_order(claimant: int, num_players: int) -> tuple[int, ...]:
    """Seats in the order they decide: from the claimant's left (next seat up), the claimant last."""
    return tuple((claimant + i) % num_players for i in range(1, num_players + 1))


class InvestingRules:
    """The decisions of one investor, encoded as local action indices ``0..num_actions-1``.

    Local index 0 is hold; ``1..L`` buy lot ``i``; with ``buy_max``, ``L+1`` buys as many shares as the investor's
    money pays for; then ``L`` indices divest lot ``i``; the last divests all.

    Args:
        lots: the positive share amounts a decision may buy or divest.
        buy_max: offer "buy max" (legal when the investor has money and the amount is not itself a lot, so that no
            two legal actions make the same purchase).

    Example:
        >>> rules = InvestingRules((1, 5), buy_max=True)
        >>> [rules.label(a) for a in rules.legal(money=7, shares=1)]
        ['hold', 'buy 1', 'buy 5', 'buy max', 'divest 1', 'divest all']
        >>> rules.legal(money=5, shares=0)  # $5 buys lot 5: no separate "buy max"
        [0, 1, 2]
    """

    def __init__(self, lots: Sequence[int], buy_max: bool = False):
        self.lots = tuple(lots)
        self.buy_max = bool(buy_max)
        n = len(self.lots)
        #: Local index of "buy max" (-1 when not offered), of the first "divest" lot and of "divest all".
        self.buy_max_index = n + 1 if self.buy_max else -1
        self.first_divest = n + 1 + int(self.buy_max)
        self.divest_all_index = self.first_divest + n
        self.num_actions = self.divest_all_index + 1

    def __deepcopy__(self, memo: dict) -> "InvestingRules":
        # Immutable once built: clones of a state share it (pyspiel clones Python states with copy.deepcopy).
        return self

    def decode(self, local: int) -> tuple[str, int]:
        """``(verb, amount)`` of a local index (amount 0 for hold, buy max and divest all)."""
        n = len(self.lots)
        if local == 0:
            return HOLD, 0
        if 1 <= local <= n:
            return BUY, self.lots[local - 1]
        if local == self.buy_max_index:
            return BUY_MAX, 0
        if self.first_divest <= local < self.divest_all_index:
            return DIVEST, self.lots[local - self.first_divest]
        if local == self.divest_all_index:
            return DIVEST_ALL, 0
        raise ValueError(f"investing action {local} out of range 0..{self.num_actions - 1}")

    def legal(self, money: int, shares: int) -> list[int]:
        """The local indices open to an investor with ``money`` and ``shares`` (buying needs the cash)."""
        out = [0]
        out += [1 + i for i, lot in enumerate(self.lots) if lot <= money]
        if self.buy_max and money > 0 and money not in self.lots:
            out.append(self.buy_max_index)
        out += [self.first_divest + i for i, lot in enumerate(self.lots) if lot <= shares]
        if shares > 0:
            out.append(self.divest_all_index)
        return out

    def label(self, local: int) -> str:
        """A short readable name: ``hold``, ``buy 5``, ``buy max``, ``divest 10``, ``divest all``."""
        verb, amount = self.decode(local)
        if verb == HOLD:
            return "hold"
        if verb == BUY_MAX:
            return "buy max"
        if verb == DIVEST_ALL:
            return "divest all"
        return f"{verb} {amount}"

    def shares_bought(self, local: int, money: int) -> int:
        """Shares the decision ``local`` buys for an investor with ``money`` (0 for hold and divesting)."""
        verb, amount = self.decode(local)
        if verb == BUY_MAX:
            return money
        return amount if verb == BUY else 0


def invest(
    verb: str, amount: int, investor: int, claimant: int, money: int, shares: int
) -> tuple[int, int, int, int, int]:
    """Apply one decision.

    Returns:
        ``(money, shares, to_reserve, bank_in, bank_out)``: the investor's new money and shares, dollars put in the
        reserve account (buying into an opponent's claim), paid to the Bank (buying into one's own claim), and paid
        by the Bank (divesting: "an equal amount of money").
    """
    if verb == HOLD:
        return money, shares, 0, 0, 0
    if verb == BUY_MAX:
        verb, amount = BUY, money
    if verb == BUY:
        if amount > money:
            raise ValueError(f"cannot buy {amount} shares with ${money}")
        if investor == claimant:
            return money - amount, shares + amount, 0, amount, 0
        return money - amount, shares + amount, amount, 0, 0
    if verb == DIVEST_ALL:
        amount = shares
    if amount > shares:
        raise ValueError(f"cannot divest {amount} shares holding {shares}")
    return money + amount, shares - amount, 0, 0, amount


def payoff(card: int, shares: int) -> tuple[int, int]:
    """The payoff row for one holder: ``(money from the Bank, shares kept)``.

    One Stack: money equal to the shares; Two Stacks: twice; Empty: nothing; You've Been Had!: all shares back to the
    Bank, money kept.
    """
    if card == ONE_STACK:
        return shares, shares
    if card == TWO_STACKS:
        return 2 * shares, shares
    if card == EMPTY:
        return 0, shares
    if card == BEEN_HAD:
        return 0, 0
    raise ValueError(f"unknown Payoff card {card}")


def wealth_returns(utility: str, wealth: Sequence[int]) -> list[float]:
    """Returns per player from final wealth (money + shares).

    ``win_loss``: the richest share the win -- each of ``k`` tied leaders gets ``1/k``, each other player
    ``-1/(n-k)`` (zero-sum; all tied gives 0). ``wealth``: the wealth itself. ``wealth_diff`` (2 players): own wealth
    minus the opponent's.
    """
    n = len(wealth)
    if utility == "wealth":
        return [float(w) for w in wealth]
    if utility == "wealth_diff":
        return [float(wealth[0] - wealth[1]), float(wealth[1] - wealth[0])]
    top = max(wealth)
    k = sum(1 for w in wealth if w == top)
    if k == n:
        return [0.0] * n
    return [1.0 / k if w == top else -1.0 / (n - k) for w in wealth]


def ranks(wealth: Sequence[int]) -> list[int]:
    """1 + the number of players strictly richer (tied players share a rank)."""
    return [1 + sum(1 for o in wealth if o > w) for w in wealth]


UTILITIES = ("win_loss", "wealth", "wealth_diff")


def parse_utility(game: str, params: Mapping[str, Any], num_players: int) -> str:
    """The utility parameter; ``wealth_diff`` needs exactly 2 players."""
    utility = P.choice(game, params, "utility", UTILITIES)
    if utility == "wealth_diff" and num_players != 2:
        raise P.ParameterError(game, "utility", utility, "'wealth_diff' only with players=2; else win_loss or wealth")
    return utility
