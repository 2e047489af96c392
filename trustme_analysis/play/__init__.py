"""``python -m trustme_analysis.play GAME``: play one game and print it move by move, in the rulebook's words.

Bots at every seat (``--bots``): each step is printed as the game's engine names it (``state.action_to_string``),
and each event the step caused (a revealed tale, a Ticket gained, a challenge, a payoff) in the words of the game's
``narrate`` registry part when it has one (else the event's fields). The end shows the returns and the final
scores (:mod:`.watch`).

A seat at the table (``--seat N``): a person plays seat N against bots (``--against``; by default the game's
trained players where it has a trainer, else its heuristic), seeing that seat's view only (:mod:`.views`), choosing
each move by its number (:mod:`.seat`); the end shows the Final Scoring. Examples::

    python -m trustme_analysis.play trustme_pinocchio --seed 3
    python -m trustme_analysis.play "trustme_liar(players=3)" --bots heuristic,random,search --seed 1
    python -m trustme_analysis.play trustme_1981 --bots heuristic --max-steps 200
    python -m trustme_analysis.play "trustme_pinocchio(players=3)" --seat 0
    python -m trustme_analysis.play "trustme_liar(players=2)" --seat 1 --against heuristic --seed 4

Exit status: 0 played (or stopped by ``--max-steps``, or left by the person at the seat: ``q`` or the end of
input); 2 a bad game string, seat, bot kind or knob (one line naming it); 130 interrupted (Ctrl-C) at the seat.
"""

from trustme_analysis.play.cli import build_parser, main
from trustme_analysis.play.seat import play_at_seat
from trustme_analysis.play.watch import play_and_print

__all__ = ["build_parser", "main", "play_and_print", "play_at_seat"]
