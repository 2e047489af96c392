"""The investing round of Trust Me (1981) alone, as the small solvable OpenSpiel game ``trustme_1981_investment``.

One claim is taken to the Trust Me Investment Company. Chance deals its Payoff card from ``payoff_mix``; then, for each
player whose ``seen`` chance is strictly between 0 and 100 percent, chance decides whether that player has looked
under the briefcase (fixed at 0 or 100 otherwise). Who has looked is public, as at the table ("Remember who has seen
what"); what they saw is private. Then the investing round runs exactly as in the full game
(:mod:`~trustme_analysis.games.board1981.engine.investing`: from the claimant's left, the claimant last; buy, divest or hold in the given lots;
purchases from opponents go to the reserve account), the briefcase is revealed, the payoff row applies to every
holder, and the claimant takes the reserve. Wealth is money plus shares.

Example:
    >>> import pyspiel, trustme_analysis
    >>> game = pyspiel.load_game(PRESETS["tiny"])
    >>> game.num_players()
    2
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from trustme_analysis.engine import params as P
from trustme_analysis.engine.gametype import registered_type, with_utility
from trustme_analysis.games.board1981.engine import events as E
from trustme_analysis.games.board1981.engine.events import INVESTMENT_EVENTS, EventWriter
from trustme_analysis.games.board1981.engine.investing import (
    NUM_PAYOFF_KINDS,
    PAYOFF_NAMES,
    PAYOFF_SHORT,
    InvestingRules,
    invest,
    investing_order,
    parse_lots,
    parse_payoff_mix,
    parse_utility,
    payoff,
    ranks,
    wealth_returns,
)

SHORT_NAME = "trustme_1981_investment"

DEFAULTS: dict[str, Any] = {
    "players": 2,
    "claimant": 0,
    "payoff_mix": "6/4/4/2",
    "seen": 50,
    "seen_each": "",
    "money": 10,
    "money_each": "",
    "shares": 10,
    "shares_each": "",
    "lots": "1/5/10",
    "buy_max": False,
    "utility": "wealth",
}

ASSUMPTION_TEXT: dict[str, str] = {
    "payoff_mix": "The Payoff cards the claimed briefcase may hold (counts one/two/empty/had); the full game's "
    "assumed mix by default, i.e. nothing revealed yet.",
    "seen": "Percent chance that each player has looked under the claimed briefcase (seen_each='a/b/..' gives one "
    "per player); whether a player looked is public, what they saw is private.",
    "money": "Starting money of each player (money_each='a/b/..' gives one per player): the rule text's $10.",
    "shares": "Starting shares of each player (shares_each='a/b/..' one per player): 10, the full game's assumption.",
    "lots": "Share amounts one decision may buy or divest (plus hold and divest all).",
    "buy_max": "Whether one decision may also buy as many shares as the investor's money pays for (the full game's "
    "default); off here by default, so the solved presets keep their small trees.",
}

#: Named variants whose sizes are stated in the docs; "tiny" and "small" are solved exactly by tree enumeration.
#: For every parameter, variants that set it to other values than its default (with what that value needs, and a
#: smaller tree where the value would grow it): the tree producer's tests compile each
#: (``registry.GameEntry.parameter_examples``).
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "players": [{"players": 3, "money": 3, "shares": 3, "lots": "1/2"}],
    "claimant": [{"claimant": 1}],
    "payoff_mix": [{"payoff_mix": "1/1/0/1"}],
    "seen": [{"seen": 100}, {"seen": 0}],
    "seen_each": [{"seen_each": "0/100"}],
    "money": [{"money": 5}],
    "money_each": [{"money_each": "3/6"}],
    "shares": [{"shares": 5}],
    "shares_each": [{"shares_each": "2/0"}],
    "lots": [{"lots": "1/2"}],
    "buy_max": [{"buy_max": True}],
    "utility": [{"utility": "wealth_diff"}, {"utility": "win_loss"}],
}

PRESETS: dict[str, str] = {
    "tiny": f"{SHORT_NAME}(players=2,payoff_mix=1/1/0/1,seen_each=0/50,money=2,shares=2,lots=1/2,utility=wealth_diff)",
    "small": f"{SHORT_NAME}(players=2,payoff_mix=6/4/4/2,seen=50,money=5,shares=5,lots=1/5,utility=wealth_diff)",
    "three": f"{SHORT_NAME}(players=3,payoff_mix=6/4/4/2,seen=50,money=5,shares=5,lots=1/5,utility=wealth)",
    # The rule text's $10 and lots 1/5/10 between two players (wealth difference: zero-sum), solved exactly.
    "duel": f"{SHORT_NAME}(players=2,payoff_mix=6/4/4/2,seen=50,money=10,shares=10,lots=1/5/10,utility=wealth_diff)",
}

DEAL, SEEN, INVEST, OVER = range(4)
PHASE_NAMES = ("deal", "seen", "invest", "over")

_GAME_TYPE = registered_type(SHORT_NAME, "Trust Me (1981) investing round", 4, DEFAULTS)


def _per_player(game: str, params: dict[str, Any], name: str, n: int, low: int, high: int) -> tuple[int, ...]:
    """``name`` for every player, unless ``name_each`` gives one value per player (pyspiel types a lone number as
    an int, so a per-player list is a separate string parameter)."""
    each = f"{name}_each"
    if params[each] == "":
        return (P.int_in_range(game, params, name, low, high),) * n
    values = P.int_list(game, params, each, low=low, high=high)
    if len(values) != n:
        raise P.ParameterError(game, each, params[each], f"{n} integers separated by '/' (one per player)")
    return values


class TrustMe1981InvestmentGame(pyspiel.Game):
    """The investing round alone; see the module docstring."""

    def __init__(self, params: dict[str, Any] | None = None):
        p = P.merged(DEFAULTS, params)
        g = SHORT_NAME
        self.params = p
        self.n = P.int_in_range(g, p, "players", 2, 4)
        self.claimant = P.int_in_range(g, p, "claimant", 0, self.n - 1)
        self.payoff_mix = parse_payoff_mix(g, p)
        self.seen_pct = _per_player(g, p, "seen", self.n, 0, 100)
        self.start_money = _per_player(g, p, "money", self.n, 0, 10**6)
        self.start_shares = _per_player(g, p, "shares", self.n, 0, 10**6)
        self.lots = parse_lots(g, p)
        if not isinstance(p["buy_max"], bool):
            raise P.ParameterError(g, "buy_max", p["buy_max"], "true or false")
        self.investing = InvestingRules(self.lots, p["buy_max"])
        self.event_writer = EventWriter(INVESTMENT_EVENTS, self.investing)
        self.utility = parse_utility(g, p, self.n)
        self.order = investing_order(self.claimant, self.n)
        self.seen_chance = tuple(q for q in range(self.n) if 0 < self.seen_pct[q] < 100)
        w0 = sum(self.start_money) + sum(self.start_shares)
        w_max = float(3 * w0)  # one reveal at most triples everybody's wealth together
        lo, hi = {"win_loss": (-1.0, 1.0), "wealth": (0.0, w_max), "wealth_diff": (-w_max, w_max)}[self.utility]
        info = pyspiel.GameInfo(
            num_distinct_actions=self.investing.num_actions,
            max_chance_outcomes=NUM_PAYOFF_KINDS,
            num_players=self.n,
            min_utility=lo,
            max_utility=hi,
            max_game_length=1 + len(self.seen_chance) + self.n,
            **({} if self.utility == "wealth" else {"utility_sum": 0.0}),
        )
        super().__init__(with_utility(_GAME_TYPE, self.utility != "wealth"), info, p)

    def __reduce__(self):
        return (pyspiel.load_game, (str(self),))

    def __deepcopy__(self, memo):
        return self

    def new_initial_state(self) -> "TrustMe1981InvestmentState":
        """The start: the Payoff card not yet dealt."""
        return TrustMe1981InvestmentState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Observer for strings and the observation tensor."""
        if params:
            raise ValueError(f"{SHORT_NAME}: observation parameters are not supported; got {params}")
        return InvestmentObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def assumptions(self) -> list[dict[str, Any]]:
        """The assumptions in force: ``{"parameter", "value", "text"}``."""
        return [{"parameter": k, "value": self.params[k], "text": t} for k, t in ASSUMPTION_TEXT.items()]


class TrustMe1981InvestmentState(pyspiel.State):
    """One position of the investing round."""

    def __init__(self, game: TrustMe1981InvestmentGame):
        super().__init__(game)
        self._game = game
        self._phase = DEAL
        self._card = -1
        self._seen = tuple(pct == 100 for pct in game.seen_pct)
        self._seen_idx = 0
        self._idx = 0
        self._money = game.start_money
        self._shares = game.start_shares
        self._reserve = 0
        self._bank_in = 0
        self._bank_out = 0
        self._decisions: tuple[tuple[int, int, int, int], ...] = ()  # (player, decision, money and shares change)

    def current_player(self) -> int:
        if self._phase == OVER:
            return pyspiel.PlayerId.TERMINAL
        if self._phase in (DEAL, SEEN):
            return pyspiel.PlayerId.CHANCE
        return self._game.order[self._idx]

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._phase == DEAL:
            total = sum(self._game.payoff_mix)
            return [(k, c / total) for k, c in enumerate(self._game.payoff_mix) if c > 0]
        pct = self._game.seen_pct[self._game.seen_chance[self._seen_idx]] / 100.0
        return [(0, 1.0 - pct), (1, pct)]

    def _legal_actions(self, player: int) -> list[int]:
        if self._phase != INVEST:
            return []
        return self._game.investing.legal(self._money[player], self._shares[player])

    def _apply_action(self, action: int) -> None:
        g = self._game
        if self._phase == DEAL:
            self._card = action
            self._phase = SEEN if g.seen_chance else INVEST
        elif self._phase == SEEN:
            q = g.seen_chance[self._seen_idx]
            self._seen = self._seen[:q] + (bool(action),) + self._seen[q + 1 :]
            self._seen_idx += 1
            if self._seen_idx == len(g.seen_chance):
                self._phase = INVEST
        else:
            p = g.order[self._idx]
            verb, amount = g.investing.decode(action)
            money, shares, to_reserve, bank_in, bank_out = invest(
                verb, amount, p, g.claimant, self._money[p], self._shares[p]
            )
            self._decisions += ((p, action, money - self._money[p], shares - self._shares[p]),)
            self._money = self._money[:p] + (money,) + self._money[p + 1 :]
            self._shares = self._shares[:p] + (shares,) + self._shares[p + 1 :]
            self._reserve += to_reserve
            self._bank_in += bank_in
            self._bank_out += bank_out
            self._idx += 1
            if self._idx == g.n:
                self._reveal()

    def _reveal(self) -> None:
        g = self._game
        money, shares = list(self._money), list(self._shares)
        for p in range(g.n):
            gain, kept = payoff(self._card, shares[p])
            money[p] += gain
            shares[p] = kept
            self._bank_out += gain
        money[g.claimant] += self._reserve
        self._reserve = 0
        self._money, self._shares = tuple(money), tuple(shares)
        self._phase = OVER

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._phase == DEAL:
                return f"deal:{PAYOFF_SHORT[action]}"
            return f"p{self._game.seen_chance[self._seen_idx]}:{'saw' if action else 'did not see'}"
        return self._game.investing.label(action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TrustMe1981InvestmentState":
        """A state ``player_id`` cannot tell from this one, reached by a history (:mod:`~.worlds`): the real history
        replayed with the Payoff card drawn anew from ``payoff_mix`` where ``player_id`` has not seen it (a player
        who looked under the briefcase keeps its card). Who looked and every decision are public, so nothing else
        changes. ``probability_sampler()`` gives uniform numbers in [0, 1)."""
        from trustme_analysis.games.board1981.engine.worlds import replay

        if self._phase in (DEAL, OVER) or self._seen[player_id]:
            return self.clone()
        mix = self._game.payoff_mix
        # The card as chance deals it: kind k with probability mix[k] / sum(mix).
        u = probability_sampler() * sum(mix)
        card = next((k for k, c in enumerate(mix) if c > 0 and (u := u - c) < 0),
                    max(k for k, c in enumerate(mix) if c > 0))
        return replay(self, [card])

    def returns(self) -> list[float]:
        if self._phase != OVER:
            return [0.0] * self._game.n
        return wealth_returns(self._game.utility, self.wealth())

    def wealth(self) -> list[int]:
        """Money plus shares, per player."""
        return [m + s for m, s in zip(self._money, self._shares)]

    def snapshot(self) -> dict[str, Any]:
        """Everything a referee sees, as a JSON-serialisable dict."""
        g = self._game
        snap: dict[str, Any] = {
            "game": SHORT_NAME,
            "phase": PHASE_NAMES[self._phase],
            "claimant": g.claimant,
            "card": PAYOFF_NAMES[self._card] if self._card >= 0 else None,
            "seen": list(self._seen),
            "money": list(self._money),
            "shares": list(self._shares),
            "reserve": self._reserve,
            "bank": {"bank_in": self._bank_in, "bank_out": self._bank_out},
            "events": self.events(),
        }
        if self._phase == OVER:
            snap["wealth"] = [{"money": m, "shares": s, "total": m + s} for m, s in zip(self._money, self._shares)]
            snap["ranks"] = ranks(self.wealth())
            snap["returns"] = self.returns()
        return snap

    def events(self) -> list[dict[str, Any]]:
        """The round's events as dicts (:data:`~trustme_analysis.games.board1981.engine.events.INVESTMENT_EVENTS`): one
        ``invest`` per decision, then the ``reveal``."""
        logged = [(E.INVEST, *d) for d in self._decisions]
        if self._phase == OVER:
            logged.append((E.REVEAL, self._game.claimant, self._card))
        return [self._game.event_writer.event_dict(e) for e in logged]

    def _describe(self, player: int | None, private: bool = True) -> str:
        """The position as ``player`` sees it (``None``: the referee); ``private=False``: the public part alone (the
        card shows only once revealed)."""
        if self._card >= 0 and (player is None or self._phase == OVER or (private and self._seen[player])):
            card = PAYOFF_SHORT[self._card]
        else:
            card = "?" if self._card >= 0 else "-"
        seen = "".join("1" if s else "0" for s in self._seen) if self._phase == INVEST or self._phase == OVER else ""
        return (
            f"card:{card} seen:{seen} money:{','.join(map(str, self._money))} "
            f"shares:{','.join(map(str, self._shares))} reserve:{self._reserve} "
            f"decisions:{','.join(str(d[1]) for d in self._decisions)}"
        )

    def __str__(self) -> str:
        return self._describe(None)


class InvestmentObserver:
    """Strings and a small tensor of the investing round.

    Public part (the same for every player): who has looked, money, shares, the reserve, the decisions so far, and
    the card once revealed. Private part (``private_info=SINGLE_PLAYER``): the player's seat and the card if it
    looked. The public history (whether each player looked, every decision) determines money, shares and the
    reserve, so the same string serves as the perfect-recall information state.
    """

    def __init__(self, game: TrustMe1981InvestmentGame, iig_obs_type: pyspiel.IIGObservationType):
        self.game = game
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        n = game.n
        pieces: list[tuple[str, int]] = []
        if self.private:
            pieces += [("player", n), ("card", NUM_PAYOFF_KINDS)]
        if self.public:
            pieces += [("revealed_card", NUM_PAYOFF_KINDS), ("seen", n), ("money", n), ("shares", n), ("reserve", 1)]
        self.tensor = np.zeros(sum(s for _, s in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[i : i + size]
            i += size

    def set_from(self, state: TrustMe1981InvestmentState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into ``tensor`` (in place)."""
        d = self.dict
        self.tensor.fill(0)
        if self.private:
            d["player"][player] = 1
            if state._card >= 0 and state._seen[player] and state._phase >= INVEST:
                d["card"][state._card] = 1
        if not self.public:
            return
        if state._phase == OVER:
            d["revealed_card"][state._card] = 1
        for p in range(self.game.n):
            d["seen"][p] = float(state._seen[p]) if state._phase >= INVEST else 0.0
            d["money"][p] = state._money[p]
            d["shares"][p] = state._shares[p]
        d["reserve"][0] = state._reserve

    def string_from(self, state: TrustMe1981InvestmentState, player: int) -> str:
        """``p<seat> <position as the seat sees it>``; the public part alone has no seat prefix."""
        if not self.public:
            return f"p{player} card:" + (PAYOFF_SHORT[state._card] if state._seen[player] and state._card >= 0
                                         and state._phase >= INVEST else "?") if self.private else ""
        if not self.private:
            return state._describe(player, private=False)
        return f"p{player} " + state._describe(player)


pyspiel.register_game(_GAME_TYPE, TrustMe1981InvestmentGame)
