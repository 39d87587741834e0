"""Which long side of a found field the light player sits on, told by a game in progress.

A field found in a picture says where the board is, not how it is numbered: the light player may
sit at the picture's bottom or top edge. On the set-up board only one arrangement reads as the
start (``home.learn_home``). In a game in progress both seats read as some position, but only one
as a game played: the checkers move towards their home boards from the first roll, and seen from
the other long side every point is 12 points round the board (the points are numbered round it),
so each checker's distance to go -- its pips, as a pip count counts them (e.g. the USBGF glossary)
-- changes by 12 one way or the other. In the seat that is the table's, both colours' pip counts
are the lower ones, by far once the game is under way.

The home end is not told so: mirrored end for end, a home-board checker becomes an outer-board
one and the midpoint the back point, and on the real frames one colour then counts fewer pips and
the other more (WTC 2022 frame0: dark 191 on the table's numbering, 148 mirrored), so it stays as
given or assumed.

Checked by ``bench/bench_seat.py`` on every position of 150 simulated games, as played and turned
round: with plays for safety (nearer a real game) the seat is told on 94 % of them and never wrongly;
with random plays (hit checkers starting again over and over) on 59 %, wrongly on 1.6 % of those;
on the real labelled frames 14 of 20 readings (the start and the empty board do not tell), none
wrongly. So a seat told by the play is not certain: ``read`` says how it was known and keeps every
count's confidence under that of a seat known (``doubt.temper``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from tavli_pi.vision.known import KnownBoard

__all__ = ["MARGIN", "TURN_PIPS", "Seat", "seat_of", "turned_board", "turned_numbers"]

#: the least number of pips by which each colour's pip count must be lower in the seat taken
MARGIN = 30

#: how far a checker's pips differ between the two seats: each point is 12 points round the board
#: from the other long side
TURN_PIPS = 12
#: the light player at the picture's bottom edge of the field as found ("picture": its corners in
#: the picture's order) or at the other long side ("turned")
Seat = Literal["picture", "turned"]


def turned_numbers() -> np.ndarray:
    """The point numbers (1-24) seen from the other long side of the points numbered 1-24."""
    return (np.arange(24) + 12) % 24 + 1


def turned_board(board: KnownBoard) -> KnownBoard:
    """``board`` (points numbered from one long side of the field) numbered from the other long side: each
    point's checkers 12 points round the board (:func:`turned_numbers`), the bar and the trays as they are."""
    at = turned_numbers() - 1  # the point (0-based) each point is numbered as from the other side
    light, dark = [0] * 26, [0] * 26
    for i in range(24):
        light[int(at[i])], dark[int(at[i])] = board.light[i], board.dark[i]
    light[24:], dark[24:] = board.light[24:], board.dark[24:]
    return KnownBoard.of_counts(light, dark)


def _pips(light: np.ndarray, dark: np.ndarray, numbers: np.ndarray) -> tuple[int, int]:
    """Light's and dark's pip counts on the points (bar and trays count the same from either side)."""
    return int((light * numbers).sum()), int((dark * (25 - numbers)).sum())


def seat_of(light: list[int] | np.ndarray, dark: list[int] | np.ndarray,
            unaccounted: tuple[int, int] = (0, 0)) -> Seat | None:
    """The seat in which both colours' checkers on the points (``light``, ``dark``: counts of points
    1-24 as read from the picture's seat) are further on, each by at least :data:`MARGIN` pips and
    by :data:`TURN_PIPS` more for each of its checkers the reading does not account for
    (``unaccounted``: light's and dark's, 15 less those read on the points, the bar and off; more read
    than 15 counts as much): such a checker, wherever it stands, moves the two seats' counts 12 pips
    apart or together. None when the position does not tell (near the start, a hand over the points, a misread)."""
    lc, dc = np.asarray(light[:24]), np.asarray(dark[:24])
    here = _pips(lc, dc, np.arange(1, 25))
    there = _pips(lc, dc, turned_numbers())
    need = [MARGIN + TURN_PIPS * abs(int(n)) for n in unaccounted]
    if all(h + m <= t for h, t, m in zip(here, there, need)):
        return "picture"
    if all(t + m <= h for h, t, m in zip(here, there, need)):
        return "turned"
    return None
