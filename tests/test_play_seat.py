"""``python -m trustme_analysis.play GAME --seat N``: a person at one seat, driven here through standard input.

What the seat sees is checked against the engine, not against the text it prints: two moves (or chance outcomes)
after which the seat's ``information_state_string`` is the same must read the same to it (the step, its events, the
view after), and a position resampled from the seat's information state (other hands dealt anew) must show the seat
the same view. The rest drives the command line: a bad entry re-lists the moves, every game reaches its Final
Scoring, the end of input leaves cleanly, the same seed and entries give the same game, bad arguments are one line
with exit status 2.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from failure_cases import assert_refused

import trustme_analysis  # noqa: F401  (registers the games)
from trustme_analysis.play import main, play_at_seat
from trustme_analysis.play import seat as seat_module
from trustme_analysis.play.cli import _seat_kinds
from trustme_analysis.play.views import seat_view
from trustme_analysis.play.watch import event_text, events_of
from trustme_analysis.players import bot_kinds, make_bot
from trustme_analysis.players.play import sample_chance
from trustme_analysis.registry import find_game

ROOT = Path(__file__).resolve().parents[1]

#: (game, seat, --against) for the driven games: fast opponents.
GAMES = [
    ("trustme_pinocchio(players=2)", 1, "heuristic"),
    ("trustme_pinocchio(players=3)", 0, "random"),
    ("trustme_liar(players=2)", 0, "random"),
    ("trustme_liar(players=3)", 2, "heuristic"),
    ("trustme_1981(players=2)", 0, "random"),
    ("trustme_1981_investment", 1, "heuristic"),
]

#: Variants whose hidden information the invariance check walks (each rule of hiding at least once).
HIDDEN = [
    ("trustme_pinocchio(players=2)", 0),
    ("trustme_pinocchio(players=3)", 1),
    ("trustme_pinocchio(players=4,voting=sequential,coin_variant=True)", 2),
    ("trustme_liar(players=2)", 1),
    ("trustme_liar(players=3,mode=trustme)", 0),
    ("trustme_1981(players=2)", 1),
    ("trustme_1981(players=3,peek=True)", 0),
    ("trustme_1981_investment", 0),
    ("trustme_1981_investment", 1),
]


def _drive(argv: list[str], entries: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(argv, out=out, inp=io.StringIO(entries))
    return status, out.getvalue()


# --- what the seat sees, against the engine --------------------------------------------------------------------


def _seen(view, state: pyspiel.State, player: int, action: int, narrate) -> tuple[str, list[str], list[str]]:
    """The step as the seat reads it, the events it caused as the seat reads them, and the view after it."""
    if player == pyspiel.PlayerId.CHANCE:
        text = view.chance(state, action)
    elif player == view.seat:
        text = state.action_to_string(player, action)
    else:
        text = view.move(state, player, action)
    before = len(events_of(state))
    child = state.clone()
    child.apply_action(action)
    events = [event_text(e, narrate) for e in (view.event(e) for e in events_of(child)[before:]) if e is not None]
    lines = view.lines(child) if not child.is_terminal() and child.current_player() == view.seat else []
    return text, events, lines


@pytest.mark.parametrize("game_string, seat", HIDDEN, ids=[f"{g} seat {s}" for g, s in HIDDEN])
def test_what_the_seat_cannot_tell_apart_reads_the_same(game_string, seat):
    """Every step of a game of heuristic players: each other outcome the seat could not tell from the one played (its
    information state after it is the same) gives the same text, events and view; and an outcome it can tell apart
    was met, so the check can fail."""
    game = pyspiel.load_game(game_string)
    view = seat_view(game, seat)
    narrate = find_game(game.get_type().short_name).part("narrate")
    hidden_steps = 0
    for seed in (11, 12, 13):
        hidden_steps += _walk(game, seat, view, narrate, seed)
    assert hidden_steps > 0  # the seat met something hidden from it: the check was not empty


def _walk(game: pyspiel.Game, seat: int, view, narrate, seed: int) -> int:
    """One game of :func:`test_what_the_seat_cannot_tell_apart_reads_the_same`; returns the steps with a twin."""
    rng = np.random.default_rng(seed)
    bots = [make_bot(game, "heuristic", p, rng) for p in range(game.num_players())]  # longer games than random's
    state = game.new_initial_state()
    steps = hidden_steps = 0
    while not state.is_terminal() and steps < 600:
        steps += 1
        player = state.current_player()
        if state.is_chance_node():
            options = [a for a, _ in state.chance_outcomes()]
            action = sample_chance(state, rng)
        else:
            options = list(state.legal_actions())
            action = bots[player].step(state)
        if len(options) > 200:  # a Liar starter's hundreds of plays: those of the same count and announced value
            said = state.action_to_string(player, action).rpartition(" as ")[2]
            options = [a for a in options if state.action_to_string(player, a).rpartition(" as ")[2] == said]
        mine = state.clone()
        mine.apply_action(action)
        key = mine.information_state_string(seat)
        seen = _seen(view, state, player, action, narrate)
        twins = 0
        for other in options:
            if other == action:
                continue
            alt = state.clone()
            alt.apply_action(other)
            if alt.information_state_string(seat) == key:
                twins += 1
                assert _seen(view, state, player, other, narrate) == seen, (
                    state.action_to_string(player, action), state.action_to_string(player, other))
        hidden_steps += twins > 0
        state = mine
    return hidden_steps


RESAMPLED = [(g, s) for g, s in HIDDEN if not g.startswith("trustme_1981_investment")]  # it has no resampling


@pytest.mark.parametrize("game_string, seat", RESAMPLED, ids=[f"{g} seat {s}" for g, s in RESAMPLED])
def test_the_view_stays_the_same_when_the_hidden_cards_are_dealt_anew(game_string, seat):
    """At every decision of the seat, a world resampled from its information state shows the seat the same view and
    the same events so far (where the resampling rewrites the record of play), and the seat's own hand as the engine
    holds it."""
    game = pyspiel.load_game(game_string)
    view = seat_view(game, seat)
    rng = np.random.default_rng(5)
    bots = [make_bot(game, "random", p, rng) for p in range(game.num_players())]
    state = game.new_initial_state()
    decisions = changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        p = state.current_player()
        if p == seat:
            decisions += 1
            world = state.resample_from_infostate(seat, rng.random)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert view.lines(world) == view.lines(state)
            assert _events_seen(view, world) == _events_seen(view, state)
            changed += _referee(world) != _referee(state)
            _own_hand_shown(state, seat, view.lines(state))
        state.apply_action(bots[p].step(state))
    assert decisions > 0
    assert changed > 0  # the resampled worlds did hide something else from the seat


def _events_seen(view, state: pyspiel.State) -> list[dict]:
    return [e for e in (view.event(e) for e in events_of(state)) if e is not None]


def _referee(state: pyspiel.State) -> str:
    snap = dict(state.snapshot())
    snap.pop("events", None)
    return repr(snap)


def _own_hand_shown(state: pyspiel.State, seat: int, lines: list[str]) -> None:
    snap = state.snapshot()
    short = state.get_game().get_type().short_name
    if short == "trustme_pinocchio":
        assert f"your hand: {', '.join(map(str, snap['hands'][seat])) or 'none'}" in lines
    elif short == "trustme_liar":
        assert f"your hand: {', '.join(map(str, snap['hands'][seat])) or 'none'}" in lines


def test_another_seats_tale_and_play_are_not_named():
    """The face-down part: another player's tale names the Park value only, a Liar play its count and value."""
    pin = pyspiel.load_game("trustme_pinocchio(players=2)")
    state = pin.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    tale = next(a for a in state.legal_actions() if state.action_to_string(0, a).startswith("Tale"))
    text = state.action_to_string(0, tale)
    hidden = seat_view(pin, 1).move(state, 0, tale)
    assert re.fullmatch(r"Tale \d+ below Park (\d+)", text)
    assert hidden == f"Tale (a face-down Character) below Park {text.rsplit(' ', 1)[1]}"
    liar = pyspiel.load_game("trustme_liar(players=2,first_player=seat0)")
    state = liar.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    play = next(a for a in state.legal_actions() if state.action_to_string(0, a).startswith("Play ["))
    assert seat_view(liar, 1).move(state, 0, play) == "Play 1 card face down as 1x1"


# --- driving the command line through standard input -----------------------------------------------------------


@pytest.mark.parametrize("game_string, seat, against", GAMES, ids=[g for g, _, _ in GAMES])
def test_a_full_game_reaches_the_final_scoring(game_string, seat, against):
    status, text = _drive([game_string, "--seat", str(seat), "--against", against, "--seed", "4"], "1\n" * 5000)
    assert status == 0
    n = pyspiel.load_game(game_string).num_players()
    assert text.splitlines()[1] == "seats: " + ", ".join(f"{p}: you" if p == seat else f"{p}: {against}"
                                                         for p in range(n))
    tail = text.split("\nFinal Scoring\n", 1)[1].splitlines()
    assert [line.split(":")[0] for line in tail[:n]] == [f"  seat {p}" + (" (you)" if p == seat else "")
                                                         for p in range(n)]
    assert all("return " in line for line in tail[:n])
    assert f"your view, seat {seat}:" in text


def test_a_simultaneous_game_takes_the_seats_move_with_the_others():
    """A game of simultaneous moves (OpenSpiel's goofspiel, viewed through its observation string): the seat bids,
    the bots bid, the step shows all the bids at once, the game ends in its Final Scoring."""
    status, text = _drive(["goofspiel(num_cards=3)", "--seat", "1", "--against", "random", "--seed", "1"], "1\n" * 10)
    assert status == 0
    steps = re.findall(r"^ +\d+  all +seat 0: \[P0\]Bid: \d; seat 1 \(you\): \[P1\]Bid: \d$", text, re.M)
    assert len(steps) == 2  # goofspiel plays the last card of each hand by itself
    assert "\nFinal Scoring\n  seat 0: return " in text


def test_the_played_moves_are_the_ones_entered():
    """Entry k plays the k-th move of the list: the step printed after it is that move."""
    status, text = _drive(["trustme_pinocchio(players=2)", "--seat", "0", "--against", "heuristic", "--seed", "2"],
                          "3\n2\n")
    listing = text.split("your moves:\n", 1)[1]
    third = re.search(r"^ +3\. (.+?)(?: \(.*\))?$", listing, re.M).group(1)
    assert re.search(rf"^ +\d+  seat 0 \(you\) {re.escape(third)}$", text, re.M)
    assert status == 0


@pytest.mark.parametrize("entry, answer", [
    ("x", "'x' is not a number: enter a move's number from 1 to "),
    ("0", "0 is out of range: enter a move's number from 1 to "),
    ("100000", "100000 is out of range: enter a move's number from 1 to "),
    ("-1", "-1 is out of range: enter a move's number from 1 to "),
    ("", "an empty entry is not a move: enter a move's number from 1 to "),
])
@pytest.mark.parametrize("game_string", ["trustme_pinocchio(players=2)", "trustme_liar(players=2)",
                                         "trustme_1981(players=2)"])
def test_a_bad_entry_is_answered_with_one_line_and_the_list_again(game_string, entry, answer):
    status, text = _drive([game_string, "--seat", "0", "--against", "random", "--seed", "1"], entry + "\n")
    assert status == 0
    before, after = text.split(answer, 1)
    first = before.split("your moves:\n")[-1]
    listing = [line for line in first.splitlines() if re.match(r"^ +\d+\. ", line)]
    assert listing and after.split("\n", 1)[1].startswith("\n".join(listing[:40]))
    assert after.split("\n", 1)[0].endswith("; your moves:")  # the answer is one line
    assert text.rstrip().endswith("the game is left unfinished")


def test_a_long_list_shows_its_head_and_finds_the_rest_by_words():
    """A Liar starter's hundreds of plays: 40 listed, the others by /TEXT with their own numbers."""
    status, text = _drive(["trustme_liar(players=2,first_player=seat0)", "--seat", "0", "--against", "random"],
                          "/as 2x13\nq\n")
    assert status == 0
    assert re.search(r"^ +\.\.\. and \d+ more: /TEXT lists the moves", text, re.M)
    found = text.split("/as 2x13\n", 1)[1].split("your move", 1)[0].splitlines()
    assert found and all(re.match(r"^ +\d+\. Play \[\d+,\d+\] as 2x13 ", line) for line in found)
    assert "you left the game at step" in text


def test_the_end_of_input_leaves_cleanly_through_real_standard_input(tmp_path):
    run = subprocess.run([sys.executable, "-m", "trustme_analysis.play", "trustme_liar(players=2)", "--seat", "1",
                          "--against", "random"], input="", capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    assert re.search(r"^the input ended at step \d+: the game is left unfinished$", run.stdout, re.M)


def test_q_leaves_the_game():
    status, text = _drive(["trustme_1981_investment", "--seat", "0", "--against", "random"], "q\n")
    assert status == 0 and re.search(r"^you left the game at step \d+: the game is left unfinished$", text, re.M)
    assert "Final Scoring" not in text


def test_same_seed_and_entries_give_the_same_game():
    runs = [_drive(["trustme_liar(players=3)", "--seat", "1", "--against", "heuristic,random", "--seed", "7"],
                   "2\n" * 3000) for _ in range(2)]
    assert runs[0] == runs[1]
    other = _drive(["trustme_liar(players=3)", "--seat", "1", "--against", "heuristic,random", "--seed", "8"],
                   "2\n" * 3000)
    assert other != runs[0]


def test_the_game_is_narrated_as_the_watch_mode_narrates_it():
    """The seat's transcript narrates the same events in the same words as the bots-only play command."""
    status, text = _drive(["trustme_pinocchio(players=2)", "--seat", "0", "--against", "heuristic", "--seed", "5"],
                          "1\n" * 500)
    assert status == 0
    assert re.search(r"-> Player 1 claimed .+: the face-down card is .+, a (tall|true) tale;", text)
    assert re.search(r"-> Turn \d+: player 0, day\.", text)


def test_a_trained_opponent_is_the_default_and_is_trained_once_with_its_progress(monkeypatch, tmp_path):
    """Pinocchio has a trainer: its seats default to "trained", whose policy is made before the first move, the
    notice and the progress said once for all the trained seats (training itself faked here: it takes minutes)."""
    monkeypatch.chdir(tmp_path)
    calls = []

    class Stored:
        folder = tmp_path / "reports/out/trained/train/abc"

    def fake_train(game, settings, outdir, progress=None, **_):
        calls.append((str(game), outdir))
        progress("train trustme_pinocchio [abc]: 1/1 it (100%)")
        return Stored()

    monkeypatch.setattr(seat_module, "stored", lambda *a: None)
    monkeypatch.setattr(seat_module, "train", fake_train)
    err = io.StringIO()
    game = pyspiel.load_game("trustme_pinocchio(players=3)")
    kinds = _seat_kinds(game, 0, None, bot_kinds("trustme_pinocchio"))
    assert kinds == ["you", "trained", "trained"]
    out = io.StringIO()
    play_at_seat(game, 0, kinds, 0, {}, 100, io.StringIO(""), out, err)  # the seat moves first: no bot decides
    assert len(calls) == 1 and calls[0][1] == "reports/out/trained"
    notice = err.getvalue().splitlines()
    assert notice[0].startswith("trained players: none stored for trustme_pinocchio(") and "400,000 iterations" in \
        notice[0]
    assert notice[1] == "  train trustme_pinocchio [abc]: 1/1 it (100%)"
    assert notice[2].startswith("trained players: stored at ") and len(notice) == 3
    assert out.getvalue().splitlines()[1] == "seats: 0: you, 1: trained, 2: trained"


def test_games_without_a_trainer_default_to_the_heuristic():
    for name in ("trustme_liar", "trustme_1981", "trustme_1981_investment"):
        game = pyspiel.load_game(name)
        known = bot_kinds(name)
        if "trained" in known:  # a trainer added since: the default follows it
            continue
        assert set(_seat_kinds(game, 0, None, known)[1:]) == {"heuristic"}


# --- bad arguments ---------------------------------------------------------------------------------------------

P = "trustme_pinocchio(players=2)"
CASES = [
    ("unknown game", ["trustme_pinoccio", "--seat", "0"], r"^error: unknown game 'trustme_pinoccio'; did you mean"),
    ("seat out of range", [P, "--seat", "2"],
     r"^error: --seat: 2 is not allowed; allowed: a seat from 0 to 1 \(2 players\)$"),
    ("seat negative", [P, "--seat", "-1"], r"^error: argument --seat: must be an integer >= 0, got -1 \(see --help\)$"),
    ("seat not a number", [P, "--seat", "one"], r"^error: argument --seat: must be an integer >= 0, got 'one'"),
    ("unknown bot kind", [P, "--seat", "0", "--against", "heuristc"],
     r"^error: --against: 'heuristc' is not allowed; did you mean 'heuristic'\? \(allowed: heuristic, "),
    ("too many opponents", ["trustme_liar(players=3)", "--seat", "0", "--against", "random,random,random"],
     r"^error: --against: 'random,random,random' is not allowed; allowed: one kind, or 2 comma-separated kinds"),
    ("--against without --seat", [P, "--against", "random"],
     r"^error: --against: 'random' is not allowed without --seat; allowed: --seat N --against KIND"),
    ("--bots with --seat", [P, "--seat", "0", "--bots", "random"],
     r"^error: --bots: 'random' is not allowed with --seat; allowed: --against KIND"),
    ("--knobs for a kind that plays no seat", [P, "--seat", "0", "--against", "random", "--knobs",
                                               '{"heuristic": {"bluff_rate": 0.5}}'],
     r"^error: --knobs: 'heuristic' plays no seat \(--against random\)"),
    ("--knobs knob typo", [P, "--seat", "1", "--against", "heuristic", "--knobs", '{"heuristic": {"bluf": 1}}'],
     r"^error: --knobs: heuristic\.bluf: unknown knob"),
]


@pytest.mark.parametrize("name, argv, pattern", CASES, ids=[c[0] for c in CASES])
def test_bad_arguments_are_one_line_with_exit_2_and_play_nothing(name, argv, pattern, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert_refused(lambda: main(argv, out=out, inp=io.StringIO("1\n")), tmp_path, pattern, capfd)
    assert out.getvalue() == ""
