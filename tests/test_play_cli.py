"""python -m trustme_analysis.play: one game printed move by move; bad input gets one line and exit 2."""

import io

import pytest

from trustme_analysis.play import main


@pytest.mark.parametrize("game", ["trustme_pinocchio(players=3)", "trustme_liar(players=3)", "trustme_1981(players=2)",
                                  "trustme_1981_investment"])
def test_plays_every_game_to_the_end(game):
    out = io.StringIO()
    assert main([game, "--seed", "2"], out=out) == 0
    text = out.getvalue()
    assert text.splitlines()[1].startswith("seats: 0: heuristic")
    assert "end: returns seat 0:" in text


def test_pinocchio_events_in_the_rulebooks_words():
    out = io.StringIO()
    assert main(["trustme_pinocchio(players=2)", "--seed", "5", "--max-steps", "14"], out=out) == 0
    text = out.getvalue()
    assert "-> Player 0 gains a Kite (2) Ticket for a trusted tall tale." in text
    assert "the face-down card is The Judge (4), a tall tale" in text
    assert text.rstrip().endswith("stopped after 14 steps (--max-steps); the game is not over")


def test_same_seed_same_game():
    runs = []
    for _ in range(2):
        out = io.StringIO()
        main(["trustme_liar(players=2)", "--seed", "9", "--bots", "heuristic,random"], out=out)
        runs.append(out.getvalue())
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["trustme_liar(players=9)"], "error: game 'trustme_liar(players=9)' cannot be loaded: trustme_liar: parameter "
                                      "players=9 is not allowed"),
        (["trustme_liar", "--bots", "heuristic,clever"], "--bots: 'heuristic,clever' is not allowed; allowed: one kind"),
        (["trustme_liar(players=2)", "--bots", "clever"], "--bots: 'clever' is not allowed (allowed: heuristic"),
        (["trustme_liar", "--knobs", "{bad"], "--knobs: '{bad' is not allowed; allowed: JSON"),
        (["trustme_liar", "--max-steps", "0"], "argument --max-steps: must be an integer from 1 to 10,000,000, got 0"),
        (["trustme_liar", "--max-steps", "99999999"],
         "argument --max-steps: must be an integer from 1 to 10,000,000, got 99,999,999"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(argv, message, capsys):
    assert main(argv, out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
