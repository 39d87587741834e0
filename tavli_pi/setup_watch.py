"""The set-up board watched until the board is calibrated (B3): one table's calibration, made once.

Until the board is calibrated the app hands each frame to :class:`SetupWatch`. It finds the field in
the picture, waits for a clear, still board, learns the board from it as the start position (or, at
an unattended table, as the game in progress it shows), and asks the players to fix or confirm a
board it reads otherwise -- an ``accept``, the opening roll thrown after the question, or, with nobody
at the table, the board left as it is, answers it, so set-up never deadlocks. The calibration it makes
goes to the app, which reads every later frame with it (``tavli_pi.app``); the inputs made while it
waited (``held``) reach the referee with the frame it was made on.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from tavli_pi.config import TableConfig
from tavli_pi.errors import CalibrationError, TavliWarning
from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.events import Event, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Frame
from tavli_pi.vision.observation import DieReading, Observation

if TYPE_CHECKING:
    from tavli_pi.vision.calibrate import FieldMemory
    from tavli_pi.vision.known import KnownBoard
    from tavli_pi.vision.motion import MotionGate
    from tavli_pi.vision.reader import BoardReader

__all__ = ["SetupWatch", "calibrate", "lying_dice", "field_dice", "setup_problem", "steady_board", "HAND_FRAMES_ASK"]

#: frames in a row with a hand (or motion) over a set-up board not learnt yet before the players are
#: asked to confirm it is clear (a board's own colours may look like skin until it is learnt)
HAND_FRAMES_ASK = 2


def calibrate(config: TableConfig, image: np.ndarray, field: FieldMemory | None = None) -> Calibration:
    """The table's calibration: a saved file, the configured corners, the printed markers or the
    field found in the picture (kept in ``field`` between frames); with ``table.home = "auto"``
    the home side is learnt from the set-up board (B4)."""
    from tavli_pi.vision.calibrate import calibrate_image

    cam = config.camera
    return calibrate_image(image, cam.corners, config.table.home, cam.calibration, field=field)


def lying_dice(obs: Observation) -> list[DieReading]:
    """The dice of ``obs`` that may lie on the board: on a frame the reader saw still, a die it
    reports "tumbling" is none (it lay there the frame before, or nothing in the picture moved: a
    smear of the board's own print -- a logo, a letter -- seen as a die in every frame, which must
    neither stand for dice on a set-up board nor stop the opening roll from being seen beside it)."""
    return list(obs.dice) if obs.motion else [d for d in obs.dice if not d.moving]


def field_dice(obs: Observation) -> list[DieReading]:
    """The dice of ``obs`` that may lie on a set-up board as thrown dice (:func:`lying_dice`) in the
    field's two halves. A throw lands in a half (E1: the opening roll, one die in each), so a die read
    on the bar is none: a board's hinges or the marks printed on its bar read as dice on every frame
    (``bench_video.py --size 640 --seed 10``, game 5: the beech board's two grey hinge plates read as a
    3 and as dice too small to read), and taken for dice they kept the set-up frame from being asked
    about and hid the opening roll thrown beside them, so an unattended table never left set-up."""
    return [d for d in lying_dice(obs) if d.half in ("left", "right")]


def steady_board(obs: Observation) -> KnownBoard | None:
    """The position ``obs`` reads as (each spot's likeliest counts), when it is one an unattended table may
    go on from: 15 checkers a side on the points, the bar and off (B1), a board a game reaches
    (``KnownBoard.could_be_played``), and not a game read from the other seat (``seat.seat_of``: each
    colour far further on seen from the other long side: the field found turned round); else None."""
    from tavli_pi.vision.learn_consistent import read_as
    from tavli_pi.vision.seat import seat_of

    board = read_as(obs)  # (None: not 15 a side)
    if board is None or not board.could_be_played or seat_of(list(board.light[:24]), list(board.dark[:24])) == "turned":
        return None
    return board


def setup_problem(obs: Observation, *, expect_start: bool = True) -> str | None:
    """Why ``obs`` is no frame to learn the board from, or None: a hand, motion, or (for a new
    match) a reading that is not the starting position (B3, :func:`tavli_pi.vision.setup.setup_agreement`)."""
    from tavli_pi.vision.setup import setup_agreement

    if obs.hand:
        return "a hand is over the board"
    if obs.motion:
        return "the board is moving"
    if not expect_start:
        return None
    agreement = setup_agreement(obs)
    return None if agreement.agrees else agreement.message()




class SetupWatch:
    """The set-up frames of one table, watched until the board is calibrated (:meth:`calibrated`).

    ``referee``: the table's referee (its phase; it asks the players about the set-up board);
    ``dispatch``: sends the question's events to every output at once. ``held``: the inputs made
    while calibration waited (:meth:`hear`), and the confirmations the watch made itself (the
    opening roll thrown, an unattended table): they reach the referee once the board is calibrated.
    ``asked_events``: the question's events, for the app to return with the frame.
    """

    def __init__(self, config: TableConfig, referee: Referee, dispatch: Callable[[list[Event]], None]) -> None:
        self.config = config
        self.referee = referee
        self._dispatch = dispatch
        self.field: FieldMemory | None = None  # the field found in the picture, until the board is learnt
        self.confirmed = False  # the players confirmed a set-up board vision disagrees with
        self.held: list[PlayerInput] = []  # inputs made while calibration waited: they reach the referee after
        self.asked_events: list[Event] = []  # the request to confirm the set-up, for the app to return
        self._setup_wait = ""  # why calibration is waiting (said once per reason)
        self._setup_asked = False  # the players were asked to fix or confirm the set-up board
        self._asked_board: np.ndarray | None = None  # the clear set-up frame last asked about (no dice)
        self._unanswered = 0.0  # seconds of clear frames in a row the set-up question went unanswered
        #: the position a board refused as the start has read as on every frame of that wait (:func:`steady_board`)
        self._steady: KnownBoard | None = None
        #: an opening roll thrown after the question answers it (armed by a frame without still dice)
        self._setup_dice = DiceWatch(settle=2, min_confidence=config.referee.die_confidence, armed=False)
        self._hand_frames = 0  # frames in a row calibration saw a hand (or motion) over the set-up board
        #: the reader of the set-up frames, kept while the field stays where it was
        self._reader: BoardReader | None = None
        self._still_gate: MotionGate | None = None  # has the picture stayed the same?
        self._still_frames = 0  # ... for so many frames in a row
        self._still_s = 0.0  # ... for so many seconds (each frame: the time since the one before it)
        self._wait_at: float | None = None  # the time of the last frame calibration waited on
        self._wait_dt = 0.0  # ... and the seconds from it to this one
        self._still_since: np.ndarray | None = None  # ... since this frame

    def calibrated(self, frame: Frame) -> tuple[Calibration, bool] | None:
        """The board's calibration made from ``frame``, and whether the players' confirmation (or an
        unattended table's wait) stood over a reading that was not the start; None while calibration
        waits for a clear board.

        Calibration learns the board from a set-up frame, so it never takes the first frame
        blindly: it waits for a frame with no hand and no motion. On a new match it learns the
        board from that frame as the start position (B3: ``learn_board``) and reads the
        frame again with what it learnt; if that reading is the start position, the board is
        calibrated. If it is not, the referee says where it differs and asks the players to fix
        the board or confirm it (``accept``, an event every output shows): a confirmed board is
        learnt as it is, so set-up never deadlocks.
        """
        from tavli_pi.vision.calibrate import FieldMemory
        from tavli_pi.vision.reader import BoardReader
        from tavli_pi.vision.learn_consistent import learn_as_read
        from tavli_pi.vision.setup import in_progress, learn_board, setup_agreement

        if self.field is None:
            self.field = FieldMemory()
        try:
            cal = calibrate(self.config, frame.image, self.field)
        except CalibrationError as exc:
            self._watch_stillness(frame)
            self._waiting_for_setup(str(exc))
            return None
        self._watch_stillness(frame, cal.corners)
        setup = self.referee.phase is Phase.SETUP
        learning = setup and self.config.camera.calibration is None  # this frame may teach the board
        obs = self.read(cal, frame)
        dice_seen = bool(field_dice(obs))  # before the board is learnt from this frame (then its dice are background)
        learn_image = frame.image
        if self._opening_answers(obs):
            # asked to fix or confirm the set-up board, the players threw the opening roll: they take
            # it as set up (the referee hears their ACCEPT); the board is learnt from the clear frame
            # that was asked about, without the dice
            assert self._asked_board is not None
            self.confirmed = True
            self.held.append(PlayerInput(Action.ACCEPT, None, source="dice"))
            learn_image = self._asked_board
        problem = setup_problem(obs, expect_start=False)  # a hand or motion: no frame to learn from
        if problem is None and self._still_frames < 1 and learning and not self.confirmed:
            # the board is learnt only from a picture that held still since the frame before: a hand
            # or sleeve vision misses in one frame is seldom at the same place in the next
            return None
        self._hand_frames = self._hand_frames + 1 if problem is not None else 0
        if problem is not None and not self.confirmed and self._left_as_it_is():
            # nobody at the table (a recorded video), and the picture has not changed for as long as
            # the referee waits for a clear view twice: what looks like a hand is the board's own look
            # (a real hand moves), and the board is taken as set up as it is (B3)
            # the board is learnt from the first frame of that still run (dice too small for the
            # gate to see may have been thrown since)
            self.confirmed = True
            self.held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))
            learn_image = self._still_since if self._still_since is not None else frame.image
        if problem is not None and not self.confirmed:
            # a hand (or motion) seen on frame after frame, on a board not learnt yet, may be the
            # board's own look (or lettering taken for a tumbling die): the players are asked, and
            # their confirmation that the board is clear and set up goes on (never a deadlock)
            self._unanswered, self._steady = 0.0, None
            ask = self._hand_frames >= HAND_FRAMES_ASK
            if ask and not dice_seen:
                self._asked_board = frame.image  # asked whether it is clear: the opening roll may answer
            self._waiting_for_setup(problem, ask=ask)
            return None
        spots = self.config.referee.in_progress_spots
        attended = self.config.referee.attended
        if learning and self.confirmed and in_progress(obs, spots, every=attended):
            # a board confirmed that is clearly a game in progress: not learnt as the start (the referee
            # carries on from it); at an unattended table, learnt from the position it reads as
            found = None if attended else learn_as_read(frame.image, cal, obs, obs.dice, playable=True)
            if found is not None:
                cal, obs = found
        elif learning:
            # the set-up board is the training example: this board's checkers, pitch and background
            try:
                # the dice lying on it (read on this frame with no learnt board): where the learnt
                # board is not known (none read on another frame: not read again)
                learnt = learn_board(learn_image, cal, dice=obs.dice if learn_image is frame.image else ())
            except CalibrationError as exc:
                if not self.confirmed:
                    joined = None if attended else self._joined_as_read(frame, cal, obs)
                    if joined is None:
                        self._waiting_for_setup(str(exc), ask=True)
                        self._wait_unattended(refused=obs)
                        return None
                    cal, obs = joined
            else:
                # read again against what it learnt, but not by each slot's taught ring and stillness:
                # on the very frame it was learnt from every slot is still, and they would read the
                # position it was learnt as, not what the frame shows (setup_slots.SETUP_W_UNTAUGHT)
                read_back = BoardReader(learnt.with_(taught_ring=None)).read(frame.image, frame.index)
                if not (self.confirmed and not attended and len(setup_agreement(read_back).differences) >= spots):
                    cal, obs = learnt, read_back
                else:
                    # taken as set up at an unattended table (nobody confirmed it), and learnt as the
                    # start it still reads otherwise at ``in_progress_spots`` spots or more: a game in
                    # progress (a recording that starts mid-game), not a misread start. Learnt as the
                    # start, its checkers would be read where the start puts them and the game never
                    # joined. The dice lying on this frame mark where the board is not learnt on the
                    # frame of the still run it is learnt from too (the picture held still since: they lay
                    # there; learnt as the board, the roll in play would vanish)
                    found = learn_as_read(learn_image, cal, read_back, obs.dice, frame.image, frame.index,
                                          hidden_by=learnt, unlearnt=obs, playable=True)
                    if found is not None:
                        cal, obs = found
        problem = setup_problem(obs, expect_start=setup)
        if problem is not None and not self.confirmed:
            if not dice_seen:
                self._asked_board = frame.image
            self._waiting_for_setup(problem, ask=True, obs=obs)
            self._wait_unattended()
            return None
        return cal, problem is not None

    def _wait_unattended(self, refused: Observation | None = None) -> None:
        """A clear set-up board asked about (read otherwise than the start, or refused as the start by
        ``learn_board``): nobody at the table answers (a recorded video), so a board left as it is for
        ``[referee] unattended_wait`` seconds is taken as set up (B3: set-up never deadlocks).

        ``refused``: the frame's reading (no board learnt) of a board ``learn_board`` refused as the start
        (nor joined: ``_joined_as_read``). Such a board is taken as set up only once that reading has been
        one and the same consistent position (:func:`steady_board`: 15 checkers a side on the points, the
        bar and off, a board a game reaches, not read from the other seat) on every frame for the wait;
        else the watch keeps watching (the players can still confirm it, and each new frame is read
        again). Taken after the wait whatever it read, a refused board put the game on a board the camera
        could not read: ``bench_video.py --size 640 --seed 7 --from-play 4 --rolled --hold 15 --think 15``,
        game 6 (its reading flickering 0-10 light checkers, 14 dark ones "off") went on from the start with
        the join refused and asked for the opening roll 8 times; ``--seed 12`` game 18 joined the game
        turned round (its reading taken from the other seat) and lost every play."""
        if self.config.referee.attended:
            return
        if refused is not None:
            board = steady_board(refused)
            if board is None or board != self._steady:
                self._unanswered, self._steady = 0.0, board  # a new reading (or none): its wait starts here
                return
        self._unanswered += self._wait_dt
        if self.config.referee.waited(self._unanswered):
            self.confirmed = True
            self.held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))

    def _joined_as_read(self, frame: Frame, cal: Calibration, obs: Observation) -> tuple[Calibration, Observation] | None:
        """At an unattended table, a clear, still set-up board that cannot be the start (learnt as the start,
        it was refused: ``learn_board``) is a game in progress: nobody is there to confirm it, and waiting
        ``[referee] unattended_wait`` for it loses the play made meanwhile (``bench_video.py --from-play 6
        --rolled --seed 1``, game 0: the first play came 1.5 s after the join frame, and was missed). It is
        taken as set up at once and learnt as the position it reads as (``learn_as_read``; ``obs``: the frame
        read unlearnt) when that position reads back clearly as a game in progress (``in_progress``), could
        have been played (``KnownBoard.could_be_played``: no checker borne off while its side has checkers outside
        its home board -- a set-up in progress, its checkers waiting in a tray, is no such position), and
        tells the seat (``seat.seat_of``: each colour's pips far fewer from the light player's side than from
        the other) -- from the other long side of the field found when the seat was not told yet, learnt
        again from there (game 0's picture seat was the other one: joined in it, the truth turned 12 points
        round, its first play was out of sync). Else None: the board waits as before."""
        from tavli_pi.vision.learn_consistent import learn_as_read
        from tavli_pi.vision.seat import seat_of
        from tavli_pi.vision.setup import in_progress

        def joined(cal: Calibration, obs: Observation, also: tuple[KnownBoard, ...] = ()
                   ) -> tuple[tuple[Calibration, Observation], str | None] | None:
            found = learn_as_read(frame.image, cal, obs, obs.dice, also=also, playable=True)
            if found is None or found[0].position is None:  # playable: never a board no game reaches
                return None
            if not in_progress(found[1], self.config.referee.in_progress_spots, every=False):
                return None
            known = found[0].position
            return found, seat_of(list(known.light[:24]), list(known.dark[:24]))

        got = joined(cal, obs)
        field = self.field
        if got is not None and got[1] == "turned" and field is not None and field.turned is None:
            # the seat was not told yet (a picture near neither the start nor far into a game): the
            # position read tells it, and the board is learnt again from the light player's side, from
            # that position turned round first
            from tavli_pi.vision.reader import BoardReader
            from tavli_pi.vision.seat import turned_board

            assert got[0][0].position is not None
            field.turned = True
            try:
                seated = calibrate(self.config, frame.image, field)
            except CalibrationError:
                field.turned = None
                return None
            # read as set-up reads: the picture held still since the still run's first frame
            reader = BoardReader(seated)
            reader.read(self._still_since if self._still_since is not None else frame.image, frame.index - 1)
            got = joined(seated, reader.read(frame.image, frame.index), (turned_board(got[0][0].position),))
            if got is None or got[1] != "picture":
                field.turned = None
                return None
            self._reader = None
        if got is None or got[1] != "picture":
            return None
        if field is not None:
            field.turned = bool(field.turned)
        self.confirmed = True
        self.held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))
        return got[0]

    def read(self, cal: Calibration, frame: Frame) -> Observation:
        """A set-up frame's reading, by one reader while the field stays where it was (the same
        corners and home side): what it saw move is judged against the frame before, as after
        calibration -- a die seen "tumbling" where a die lay the frame before is a still smear
        (lettering, a glint on a checker's rim, a die too small for crisp pips), not a throw, and
        it does not stall set-up. A new reader when the field moved."""
        from tavli_pi.vision.reader import BoardReader

        r = self._reader
        if (r is None or r.calibration.home != cal.home
                or not np.array_equal(r.calibration.corners, cal.corners)):
            r = self._reader = BoardReader(cal)
        elif r.calibration is not cal:
            r = self._reader = r.carried_to(cal)
        return r.read(frame.image, frame.index)

    def _watch_stillness(self, frame: Frame, corners: np.ndarray | None = None) -> None:
        """Count the frames in a row whose picture stayed the same (the motion gate sees nothing
        move), and keep the first of them, while calibration waits. With the field's ``corners``
        (image px) only the box round the field is watched: a recording's clock, overlays and the
        people round the table move all the time, and a board that holds still must not wait for
        them (the WTC 2022 broadcast never left set-up)."""
        from tavli_pi.vision.motion import MotionGate

        if self._still_gate is None:
            self._still_gate = MotionGate()
        self._wait_dt = 0.0 if self._wait_at is None else max(0.0, frame.t - self._wait_at)
        self._wait_at = frame.t
        image = frame.image
        if corners is not None:
            h, w = image.shape[:2]
            (x0, y0), (x1, y1) = np.floor(corners.min(axis=0)), np.ceil(corners.max(axis=0))
            box = image[max(int(y0), 0):min(int(y1), h), max(int(x0), 0):min(int(x1), w)]
            image = box if box.size else image
        if self._still_gate(image) or not self._still_gate.compared:
            self._still_frames, self._still_s, self._still_since = 0, 0.0, frame.image
        else:
            self._still_frames += 1
            self._still_s += self._wait_dt

    def _left_as_it_is(self) -> bool:
        """On an unattended table, whether the picture has stayed the same for ``[referee] unattended_wait``
        seconds while calibration waits."""
        return not self.config.referee.attended and self.config.referee.waited(self._still_s)

    def _opening_answers(self, obs: Observation) -> bool:
        """Whether ``obs`` shows the opening roll thrown after the players were asked about a set-up
        board read otherwise than the start (B3): two dice lying still, one in each half (read, or
        too small to read), that came after a frame without them (dice printed on the board, lying
        there all along, never do; nor does a die read on the bar: :func:`field_dice`)."""
        if self.confirmed or self.referee.phase is not Phase.SETUP:
            return False
        # every set-up frame is watched, the one asked about too (no die lies on it): dice thrown on
        # the next frame came after a frame without them
        dice = self._setup_dice.feed(field_dice(obs), need=2)
        if self._asked_board is None:
            return False
        thrown = dice if dice is not None else self._setup_dice.unread  # or dice too small to read
        return thrown is not None and len(thrown) == 2 and {d.half for d in thrown} == {"left", "right"}

    def _waiting_for_setup(self, why: str, *, ask: bool = False, obs: Observation | None = None) -> None:
        """Say why calibration waits (a warning, once per reason). ``ask``: the board is clear but
        not read as the start position: the referee asks the players, once until a hand is seen
        again, to fix the board or confirm it (a ``setup_checked`` event, not ok, that every
        output shows)."""
        if why != self._setup_wait:
            self._setup_wait = why
            warnings.warn(f"calibration waits for a clear set-up board: {why}; clear the board, or press "
                          "accept to confirm the board as it is", TavliWarning, stacklevel=3)
        if not ask:
            if why.startswith("a hand") or why.startswith("the board is moving"):
                self._setup_asked = False  # the players are at the board: ask again once it is clear
            return
        if why.startswith("a hand") or why.startswith("the board is moving"):
            what = "a hand is seen over the board" if why.startswith("a hand") else "the board is seen moving"
            why = (f"{what} in {self._hand_frames} frames in a row: if the board is clear, still and set up "
                   "to start, press ACCEPT")
        if self._setup_asked or self.referee.phase is not Phase.SETUP:
            return
        self._setup_asked = True
        problems: tuple[str, ...] = (why,)
        if obs is not None:
            from tavli_pi.vision.setup import setup_agreement

            agreement = setup_agreement(obs)
            problems = tuple(
                f"{'point ' + s if s.isdigit() else 'the ' + ('trays' if s == 'off' else s)}: read "
                f"{r[0]} light and {r[1]} dark checkers, should be {e[0]} light and {e[1]} dark"
                for s, e, r in agreement.differences) or problems
        asked = self.referee.ask_setup_confirmation(problems)
        self._dispatch(asked)
        self.asked_events += asked

    def hear(self, inp: PlayerInput) -> None:
        """An input made while calibration waits: an ``accept`` from the players confirms the set-up
        board as it is (once is enough); each input reaches the referee once the board is calibrated
        (``held``: the ``accept`` confirms the start position there, B3)."""
        if inp.action is Action.ACCEPT:
            self.confirmed = True
            if any(h.action is Action.ACCEPT for h in self.held):
                return  # one confirmation is enough
        self.held.append(inp)
