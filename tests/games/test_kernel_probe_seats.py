"""Probe seats in the Pinocchio and Liar kernels' whole games (seat kind ``"probe:NAME"``), and how sweeps use them.

- At every decision of engine games (heuristic and random moves mixed) the compiled probe's mixed strategy
  (``kernel.trained.probe_weights``: the default heuristic's distribution restricted to the moves the rule prefers,
  uniform among them where the heuristic gives them no weight) is the Python probe's
  (``ProbeBot.action_probabilities`` over base ``heuristic``): the same support, probabilities within 1e-12, for both
  games and every probe strategy. ``probe_action`` draws from that distribution (draw frequencies at the decisions
  where the rule applies, within binomial bounds).
- The loop that plays probe seats (the trained seats' loop, handed an empty table) plays random and heuristic seats
  exactly as the plain loop does.
- A sweep's probe seat with knobs ``{strategy}`` or ``{strategy, base = "heuristic"}`` in a heuristic line-up
  resolves to the kernel and plays with full records; another base, base knobs, or a game whose kernel has no probes
  (Trust Me 1981) go to the pyspiel path with a one-line reason (and ``engine = "kernel"`` refuses them).
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel
import pytest

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.engine.kernels import probe_kind
from trustme_analysis.players import make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.players.probe import probe_strategies
from trustme_analysis.registry import game_entry
from trustme_analysis.sweep import engines
from trustme_analysis.sweep.play import chunk_task, run_chunk
from trustme_analysis.sweep.spec import SpecError, parse_spec

PINOCCHIO = "trustme_pinocchio(players=3)"
# A small deck that leaves hands of several cards: bluffs, challenges and pickups all come up.
LIAR = "trustme_liar(players=3,values=6,copies=4,max_play=3)"
TOL = 1e-12
DRAWS = 3000


def decisions(game: pyspiel.Game, kernel, games: int, seed: int):
    """(engine state, kernel state) at every decision of ``games`` engine games, each move the heuristic's (70%) or a
    random legal one; the kernel state follows the same actions."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        bots = [make_bot(game, "heuristic", p, rng) for p in range(game.num_players())]
        state = game.new_initial_state()
        ks = kernel.new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                a = sample_chance(state, rng)
            else:
                yield state, ks
                p = state.current_player()
                legal = state.legal_actions()
                a = bots[p].step(state) if rng.random() < 0.7 else int(legal[rng.integers(len(legal))])
            state.apply_action(a)
            ks.apply_action(a)


def positive(probs: dict[int, float]) -> dict[int, float]:
    return {int(a): float(p) for a, p in probs.items() if p > 0.0}


def normalized(acts, weights) -> dict[int, float]:
    out: dict[int, float] = {}
    for a, w in zip(acts, weights):
        out[int(a)] = out.get(int(a), 0.0) + float(w)
    total = sum(out.values())
    return positive({a: w / total for a, w in out.items()})


# ------------------------------------------------------------------ the compiled probes, one adapter per game
class PinocchioProbes:
    """The Pinocchio kernel's probe (kernel.trained) at a kernel state: its distribution and its draws."""

    def __init__(self, game_string: str = PINOCCHIO):
        from trustme_analysis.games.pinocchio.kernel import core as K
        from trustme_analysis.games.pinocchio.kernel import trained as TR
        from trustme_analysis.games.pinocchio.kernel.kernel import Kernel

        self.K, self.TR = K, TR
        self.game = pyspiel.load_game(game_string)
        self.kernel = Kernel(self.game, ("heuristic",))
        self.kinds = TR.PROBE_KINDS

    def _scratch(self):
        K = self.K
        return np.zeros(K.MAXA, np.int64), np.zeros(K.MAXA), np.zeros(int(K.scratch_size(self.kernel.R)), np.int64)

    def distribution(self, ks, code) -> tuple[dict[int, float], int]:
        """The probe's distribution and its mode (0: the rule says nothing, 1: restricted, 2: uniform)."""
        acts, probs, buf = self._scratch()
        R, H = self.kernel.R, self.kernel.H
        n, some = self.TR.probe_weights(ks.s.copy(), R, H, code, acts, probs, buf)
        if some == 0:
            return normalized(acts[:n], probs[:n]), 0
        if probs[:n].sum() > 0.0:
            return normalized(acts[:n], probs[:n]), 1
        return normalized(acts[:n], [float(self.TR._prefers(R, code, a)) for a in acts[:n]]), 2

    def draws(self, ks, code, count: int, seed: int) -> np.ndarray:
        acts, probs, buf = self._scratch()
        rng = np.array([seed], np.uint64)
        s = ks.s.copy()
        return np.array([self.TR.probe_action(s, self.kernel.R, self.kernel.H, rng, code, acts, probs, buf)
                         for _ in range(count)])


class LiarProbes:
    """The Liar kernel's probe (kernel.trained) at a kernel state: its distribution and its draws."""

    def __init__(self, game_string: str = LIAR):
        from trustme_analysis.games.liar.kernel import abstraction as A
        from trustme_analysis.games.liar.kernel import heuristic
        from trustme_analysis.games.liar.kernel import trained as TR
        from trustme_analysis.games.liar.kernel.kernel import Kernel

        self.TR, self.heuristic = TR, heuristic
        self.game = pyspiel.load_game(game_string)
        self.kernel = Kernel(self.game, ("heuristic",))
        self.knobs = self.kernel._seat_knobs
        self.scratch = A.new_scratch(self.kernel.cfg, self.kernel.tab)["scratch"]
        self.hbuf = heuristic.new_buffer(self.kernel.cfg, self.knobs)
        self.kinds = TR.PROBE_KINDS

    def distribution(self, ks, code) -> tuple[dict[int, float], int]:
        cfg, tab, row = self.kernel.cfg, self.kernel.tab, self.knobs[0]
        S = ks.array.copy()
        k, mode = self.TR.probe_weights(cfg, tab, S, row, code, self.scratch, self.hbuf)
        if mode == 0:
            return positive(self.kernel.heuristic_policy(ks)), 0
        if mode == 1:
            acts, probs, _ = self.heuristic.split_buffer(cfg, row, self.hbuf)
            return normalized(acts[:k], probs[:k]), 1
        legal = ks.legal_actions()
        return normalized(legal, [float(self.TR._prefers(cfg, tab, S.copy(), code, a)) for a in legal]), 2

    def draws(self, ks, code, count: int, seed: int) -> np.ndarray:
        cfg, tab, row = self.kernel.cfg, self.kernel.tab, self.knobs[0]
        rng = np.array([seed], np.uint64)
        S = ks.array.copy()
        return np.array([self.TR.probe_action(cfg, tab, S, row, rng, code, self.scratch, self.hbuf)
                         for _ in range(count)])


@functools.cache
def probes(game: str, game_string: str | None = None):
    """The adapter of ``game`` ("pinocchio" or "liar") for a variant (default: :data:`PINOCCHIO`, :data:`LIAR`)."""
    make = {"pinocchio": PinocchioProbes, "liar": LiarProbes}[game]
    return make() if game_string is None else make(game_string)


@pytest.mark.parametrize(("game", "game_string", "games"), [
    ("pinocchio", PINOCCHIO, 6),
    ("pinocchio", "trustme_pinocchio(players=2)", 6),
    ("pinocchio", "trustme_pinocchio(players=4,coin_variant=True,coin_tossers=dissenters,voting=sequential)", 3),
    ("liar", LIAR, 12),
    ("liar", "trustme_liar(players=2)", 4),
    ("liar", "trustme_liar(players=4,mode=trustme)", 3),
])
def test_the_compiled_probe_is_the_python_probe_at_every_decision(game, game_string, games):
    """Every probe strategy of the game: the kernel's distribution equals ``ProbeBot.action_probabilities`` (base
    heuristic) at every decision, and the rule applies (restricts the heuristic) at many of them."""
    P = probes(game, game_string)
    assert set(P.kinds) == set(probe_strategies(P.game)) == set(game_entry(P.game.get_type().short_name)
                                                                 .kernel.probe_strategies)
    modes = {name: [0, 0, 0] for name in P.kinds}
    rng = np.random.default_rng(0)
    for state, ks in decisions(P.game, P.kernel, games, seed=11):
        p = state.current_player()
        for name, code in P.kinds.items():
            want = positive(make_bot(P.game, "probe", p, rng, strategy=name).action_probabilities(state))
            got, mode = P.distribution(ks, code)
            assert set(got) == set(want), f"{name} at {state.history()}: support {sorted(got)} != {sorted(want)}"
            for a, q in want.items():
                assert abs(got[a] - q) <= TOL, f"{name} at {state.history()}: action {a}: {got[a]} != {q}"
            modes[name][mode] += 1
    for name, (silent, restricted, uniform) in modes.items():
        assert restricted + uniform >= 20, (name, modes[name])


@pytest.mark.parametrize("game", ["pinocchio", "liar"])
def test_the_compiled_probe_draws_its_distribution(game):
    """``probe_action`` draws from the distribution checked above: at the first decisions where each rule applies
    (restricted, and uniform where the heuristic gives the preferred moves no weight) and where it says nothing,
    every drawn move is in the support and each move's frequency is within 5 standard errors of its probability."""
    P = probes(game)
    checked = {}
    for _, ks in decisions(P.game, P.kernel, 3, seed=23):
        for name, code in P.kinds.items():
            dist, mode = P.distribution(ks, code)
            if checked.get((name, mode), 0) >= 2:
                continue
            checked[(name, mode)] = checked.get((name, mode), 0) + 1
            drawn = P.draws(ks, code, DRAWS, seed=len(checked))
            assert set(drawn.tolist()) <= set(dist), (name, mode, sorted(set(drawn.tolist()) - set(dist)))
            for a, q in dist.items():
                share = float(np.mean(drawn == a))
                assert abs(share - q) <= 5 * np.sqrt(q * (1 - q) / DRAWS) + 1e-9, (name, mode, a, share, q)
    assert all(checked.get((name, 1), 0) + checked.get((name, 2), 0) >= 2 for name in P.kinds), checked


def test_the_probe_loop_plays_other_seats_as_the_plain_loop():
    """The loop probe seats play in (the trained seats' loop, handed an empty table) plays a line-up without probes
    record for record as the plain whole-game loop: routing probe line-ups through it changes no other seat."""
    seeds = np.arange(1, 61, dtype=np.uint64)
    for P in (probes("pinocchio"), probes("liar")):
        kinds = ("heuristic", "random", "heuristic")
        plain = type(P.kernel)(P.game, kinds)
        looped = type(P.kernel)(P.game, kinds)
        if P is probes("pinocchio"):
            looped._probes = True
        else:
            from trustme_analysis.games.liar.kernel.abstraction import new_scratch
            from trustme_analysis.train.tables import policy_table

            looped._trained = (*policy_table(np.zeros(0, np.int64), np.zeros(0)), 0, new_scratch(P.kernel.cfg,
                                                                                               P.kernel.tab))
        a, b = plain.play(seeds, histories=True), looped.play(seeds, histories=True)
        # (the histories decide the records; rows hold NaN, which compares unequal to itself)
        assert [a.history(g) for g in range(len(seeds))] == [b.history(g) for g in range(len(seeds))]
        assert a.columns()["score_trace"] == b.columns()["score_trace"]


# ------------------------------------------------------------------ sweeps
def spec_dict(game: str, seats: list, engine: str = "auto", games: int = 30) -> dict:
    return {"game": game, "games": games, "chunk_size": games, "seed": 3, "engine": engine,
            "grid": {"players": [3]}, "lineups": {"probed": {"seats": seats}}}


@pytest.mark.parametrize(("game", "strategy", "knobs"), [
    ("trustme_pinocchio", "never trust", {}),
    ("trustme_liar", "never challenge", {"base": "heuristic"}),
])
def test_a_probe_seat_in_a_heuristic_line_up_plays_in_the_kernel_with_records(game, strategy, knobs):
    seats = [{"bot": "probe", "knobs": {"strategy": strategy, **knobs}}, "heuristic", "heuristic"]
    spec = parse_spec(spec_dict(game, seats))
    variant = spec.variants[0]
    assert (variant.engine, variant.engine_note) == ("kernel", "")
    assert engines.resolve_engine("auto", variant.game_string, variant.lineup) == ("kernel", "")
    assert engines.seat_kinds(variant.lineup, 3) == (probe_kind(strategy), "heuristic", "heuristic")
    records = game_entry(game).part("records")
    frame = run_chunk(chunk_task(spec, variant, 0, records))
    assert len(frame) == 90 and frame["bot"].tolist()[:3] == ["probe", "heuristic", "heuristic"]
    assert strategy in frame["bot_knobs"].iloc[0] and "heuristic" in frame["bot_knobs"].iloc[0]
    probe = frame[frame["seat"] == 0]
    if strategy == "never trust":
        assert probe["votes_cast"].sum() > 0 and probe["votes_trust"].sum() == 0
        assert frame[frame["seat"] > 0]["votes_trust"].sum() > 0
    else:
        assert probe["calls"].sum() == 0 and frame[frame["seat"] > 0]["calls"].sum() > 0
    # the same games again from the same seeds; the pyspiel path plays the line-up too (by its own draws)
    assert frame.astype(str).equals(run_chunk(chunk_task(spec, variant, 0, records)).astype(str))  # (NaN != NaN)
    other = parse_spec(spec_dict(game, seats, engine="pyspiel", games=6))
    slow = run_chunk(chunk_task(other, other.variants[0], 0, records))
    assert len(slow) == 18 and list(slow.columns) == list(frame.columns)


@pytest.mark.parametrize(("game", "knobs", "why"), [
    ("trustme_pinocchio", {"strategy": "never trust", "base": "random"},
     "over base 'heuristic' only, not base 'random'"),
    ("trustme_pinocchio", {"strategy": "never trust", "base_knobs": {"bluff_rate": 0.5}},
     "with knobs strategy and base = 'heuristic' only, not base_knobs"),
    ("trustme_liar", {"strategy": "never bluff", "base": "heuristic", "base_knobs": {}}, "not base_knobs"),
    ("trustme_1981", {"strategy": "never invest"}, "trustme_1981's kernel plays no probe seats (probe 'never invest')"),
])
def test_other_probe_seats_go_to_pyspiel_with_the_reason(game, knobs, why):
    seats = [{"bot": "probe", "knobs": knobs}, "heuristic", "heuristic"]
    variant = parse_spec(spec_dict(game, seats)).variants[0]
    assert variant.engine == "pyspiel" and why in variant.engine_note and "\n" not in variant.engine_note
    with pytest.raises(SpecError, match="cannot play variant .*" + why.replace("(", r"\(").replace(")", r"\)")):
        parse_spec(spec_dict(game, seats, engine="kernel"))


def test_a_kernel_player_refuses_a_probe_its_kernel_lacks():
    with pytest.raises(ValueError, match="plays probe seats of strategies .* only, not 'never bluff'"):
        engines.KernelPlayer(PINOCCHIO, (probe_kind("never bluff"), "heuristic", "heuristic"))
    with pytest.raises(ValueError, match="probe seats play whole games"):
        probes("pinocchio").kernel.__class__(probes("pinocchio").game, (probe_kind("never trust"),)).rollouts(
            probes("pinocchio").kernel.new_state(), 1, 0)
