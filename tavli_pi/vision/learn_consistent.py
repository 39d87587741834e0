"""A board learnt from the position it reads as (issue 9: a recording that starts in the middle of a game).

``learn_board`` learns a board from a frame *and* the position the frame shows. Given a position that is
wrong at some spots (the start, for a board some plays into a game; a position read with a checker misplaced),
what it learns still reads the frame mostly as it is: each colour's look comes from the many checkers the
position places right, and the frame is read back against it. The read-back is the better position, and
learnt from that the board reads it back again. So the position a frame shows is found by learning from a
first guess, reading the frame back, and learning again from what was read until the board reads the frame
back as the very position it was learnt from (``bench_video.py --from-play 6``: the start, wrong at 11
spots, read back wrong at 2, then right, then as it was learnt; a join learnt from a position with two
checkers misplaced read the frame back right at once).

A fixed point is no proof: a board misread alike by everything learnt from it stays misread. What is learnt
so is used where the position is not known otherwise (an unattended table), and the referee still checks
each play against its roll.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import CHECKERS, KnownBoard, outside_home
from tavli_pi.vision.observation import DieReading, Observation

__all__ = ["STEPS", "learn_as_read", "learn_checked", "learn_consistent", "read_as"]

#: learnings tried before giving up (on the recordings a fixed point came by the third)
STEPS = 4


def read_as(obs: Observation, balance: bool = False, *, hidden_by: Calibration | None = None,
            unlearnt: Observation | None = None, playable: bool = False) -> KnownBoard | None:
    """The whole position ``obs`` reads as (15 checkers a side on the points, the bar and off); None
    when the reading is not whole. ``balance``: a reading that is not whole is read as a likely board
    that is (a first guess to learn from): each colour's checkers short or over are added or taken one
    at a time where the spot's own evidence gives up least (never onto a point the other colour holds; with
    ``playable``, nor into the trays while that colour has checkers outside its home board: a board no game
    reaches, ``KnownBoard.could_be_played``).

    ``hidden_by``: the board ``obs`` was read with, learnt from a position that was only a guess (the
    start, for a set-up board that is a game in progress); ``unlearnt``: the same frame read with no
    learnt board. Where that position was wrong, the board learnt what stood there as the position
    had it: a point it leaves empty as bare board, checkers and all; a stack's slot it fills as a
    checker, though bare. A point ``obs`` reads as the position had it is then no evidence (the board
    reads back what it was taught), and where the unlearnt reading says otherwise, it is taken instead
    (a beech board joined after play 6: three lone checkers learnt into the board, and every learning
    after kept them out)."""
    spots = [*obs.points, obs.bar, obs.off]
    if hidden_by is not None and hidden_by.position is not None and unlearnt is not None:
        taught = hidden_by.position
        for i, (read, seen) in enumerate(zip(obs.points, unlearnt.points)):
            echo = read.light.best == taught.light[i] and read.dark.best == taught.dark[i]
            if echo and (seen.light.best, seen.dark.best) != (taught.light[i], taught.dark[i]):
                spots[i] = seen
    counts = {c: [getattr(s, c).best for s in spots] for c in ("light", "dark")}
    if balance:
        for c, other in (("light", "dark"), ("dark", "light")):
            probs = [np.asarray(getattr(s, c).probs, np.float64) + 1e-9 for s in spots]
            n = counts[c]
            while sum(n) != CHECKERS:
                step = 1 if sum(n) < CHECKERS else -1
                # never onto a point the other colour holds, nor into the trays while the colour has
                # checkers outside its home board (no side bears off so: ``KnownBoard.could_be_played``)
                off_barred = playable and step > 0 and outside_home(n, light=c == "light") > 0
                costs = [np.log(probs[i][n[i]]) - np.log(probs[i][n[i] + step])
                         if 0 <= n[i] + step < len(probs[i]) and not (step > 0 and i < 24 and counts[other][i])
                         and not (i == 25 and off_barred)
                         else np.inf for i in range(len(spots))]
                best = int(np.argmin(costs))
                if not np.isfinite(costs[best]):
                    return None
                n[best] += step
    try:
        return KnownBoard.of_counts(counts["light"], counts["dark"])
    except CalibrationError:
        return None


def learn_consistent(frame: np.ndarray, calibration: Calibration, first: KnownBoard,
                     dice: Sequence[DieReading] = (), steps: int = STEPS) -> tuple[Calibration, Observation] | None:
    """``calibration`` learnt from ``frame`` as the position the board so learnt reads it back as, starting
    from ``first``, with the frame read back by it (as set-up reads its frame: not by each slot's taught
    ring, which on the frame it was learnt from reads the position it was learnt as). None when a reading
    is not whole, the board cannot be learnt from a position read, a position comes back, or no fixed point
    comes in ``steps`` learnings. ``dice``: as ``learn_board``'s (the dice read on the frame unlearnt)."""
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.setup import learn_board

    known: KnownBoard | None = first
    tried: set[KnownBoard] = set()
    for _ in range(steps):
        if known is None or known in tried:
            return None
        tried.add(known)
        try:
            learnt = learn_board(frame, calibration, known, dice=dice)
        except CalibrationError:
            return None
        obs = BoardReader(learnt.with_(taught_ring=None)).read(frame)
        back = read_as(obs)
        if back == known:
            return learnt, obs
        known = back
    return None


def learn_as_read(image: np.ndarray, calibration: Calibration, obs: Observation, dice: Sequence[DieReading] = (),
                  frame: np.ndarray | None = None, index: int = 0, *, hidden_by: Calibration | None = None,
                  unlearnt: Observation | None = None, also: Sequence[KnownBoard] = (), playable: bool = False
                  ) -> tuple[Calibration, Observation] | None:
    """A board of a game in progress nobody gave the position of (an unattended table's set-up board),
    learnt from ``image`` as the position it reads as (:func:`learn_consistent`, from the whole position
    ``obs`` reads as, made whole where it is not: :func:`read_as`), with ``frame`` (``image`` when None;
    frame number ``index``) read by it as set-up reads; None when no such position is found. ``dice``:
    those lying on ``image`` (read unlearnt), taken as the roll in play (``Calibration.roll_lying``).

    ``hidden_by``, ``unlearnt``: ``obs`` was read by a board learnt as a guessed position (the start),
    and ``unlearnt`` is the frame read with no learnt board. Each is then a first guess (the unlearnt
    reading; ``obs`` where it does not merely echo the guess, :func:`read_as`; ``obs`` as read), and a
    fixed point is no proof: of the positions found, the one the unlearnt reading -- taught nothing --
    makes most likely is learnt (``bench/probe_join_guesses.py``: on 24 mid-game tables the
    unlearnt reading's fixed point was right on 15, the start-learnt reading's on 1, and one of those
    wrong at 14 spots read its frame back more surely than the truth did). ``playable`` (a game joined in
    progress: ``app``): a position no game reaches (``KnownBoard.could_be_played``: a checker borne off while
    its side has others outside its home board) is never learnt, nor guessed (``read_as(playable=True)``): a
    checker the reading missed is not in a tray then, and a board learnt with one there reads that tray as a
    checker on every frame after (``bench_video.py --seed 7 --from-play 4``, game 12).

    ``also``: first guesses tried before those (a position read from the field's other long side, turned
    round: ``seat.turned_board``)."""
    from tavli_pi.vision.reader import BoardReader

    guesses: list[KnownBoard | None] = list(also)
    if hidden_by is None or unlearnt is None:
        guesses += [read_as(obs, balance=True, playable=playable)]
    else:
        guesses += [read_as(unlearnt, balance=True, playable=playable),
                    read_as(obs, balance=True, hidden_by=hidden_by, unlearnt=unlearnt, playable=playable),
                    read_as(obs, balance=True, playable=playable)]
    found, best = None, -math.inf
    tried: set[KnownBoard] = set()
    for first in guesses:
        if first is None or first in tried:
            continue
        tried.add(first)
        got = learn_consistent(image, calibration, first, dice=dice)
        if playable and got is not None and (got[0].position is None or not got[0].position.could_be_played):
            got = None  # a board no game reaches (a checker borne off while its side is not all home)
        score = -math.inf if got is None else _likelihood(got[0], unlearnt)
        if got is not None and (found is None or score > best):
            found, best = got, score
    if found is None:
        return None
    learnt, read_back = found
    if learnt.setup_dice:
        learnt = learnt.with_(roll_lying=True)  # the roll in play: it stays dice (``Calibration.roll_lying``)
    if learnt.roll_lying or (frame is not None and frame is not image):
        read_back = BoardReader(learnt.with_(taught_ring=None)).read(image if frame is None else frame, index)
    return learnt, read_back


#: the least probability a spot's reading gives a count (``_likelihood``): a count it rules out costs as
#: much as ``log(FLOOR)``, not infinitely
FLOOR = 1e-6


def _likelihood(learnt: Calibration, unlearnt: Observation | None) -> float:
    """How likely ``unlearnt`` makes the position ``learnt`` was learnt from: the sum over the points and
    the bar of the log-probability its reading gives the position's count there (0 with no reading). A
    count read surely otherwise costs much. The trays are left out: with no empty tray learnt, an insert,
    its lining or wood reads as checkers (a green board's empty tray read as a dark checker off at 0.8, and
    the position that took one off point 1 for it was learnt)."""
    if unlearnt is None or learnt.position is None:
        return 0.0
    spots = [*unlearnt.points, unlearnt.bar]
    total = 0.0
    for i, s in enumerate(spots):
        for ev, n in ((s.light, learnt.position.light[i]), (s.dark, learnt.position.dark[i])):
            total += math.log(max(FLOOR, ev.probs[n] if n < len(ev.probs) else 0.0))
    return total


def learn_checked(frame: np.ndarray, calibration: Calibration, known: KnownBoard, obs: Observation, index: int = 0,
                  *, unlearnt_too: bool = False) -> Calibration | None:
    """``calibration`` (a board not learnt) learnt from ``frame`` as a view of ``known``, when the frame
    shows it clearly: no hand, no motion, no dice in ``obs`` (its reading), read as ``known`` within
    ``KNOWN_MISFIT`` spots (``unlearnt_too``: or so read by ``calibration``, a board never learnt), and
    the board learnt reads the frame back as ``known`` (as set-up checks the start: learnt from a
    position wrong at a few spots, the board reads the frame as it is, not as the position). Dice lying
    there would be learnt as part of the board and vanish from every later frame: the roll taken as picked
    up, the board unchanged since, "no play" called illegal (the WTC 2022 board joined in mid-game with
    White's 5-3 lying on it was). Else None. Raises ``CalibrationError`` when the board cannot be learnt
    from the position."""
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.setup import KNOWN_MISFIT, learn_board, setup_agreement

    if obs.hand or obs.motion or obs.dice:
        return None
    if len(setup_agreement(obs, known).differences) > KNOWN_MISFIT:
        if not unlearnt_too:
            return None
        if len(setup_agreement(BoardReader(calibration).read(frame, index), known).differences) > KNOWN_MISFIT:
            return None
    learnt = learn_board(frame, calibration, known, dice=())  # no die read on it
    read_back = BoardReader(learnt.with_(taught_ring=None)).read(frame, index)
    return None if setup_agreement(read_back, known).differences else learnt
