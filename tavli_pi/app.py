"""One table: camera -> vision -> referee -> outputs, from one config.

Every output is an :class:`~tavli_pi.referee.events.EventSink`; the app owns
the order: the match log first (an event is committed before anything shows
it), then the other sinks. Player inputs from any thread (buttons, the web
page, the table unit's paddles) are queued with :meth:`TableApp.submit` and
reach the referee between frames, so the referee stays single-threaded.

With ``[clock] enabled`` the referee runs the match clock; its paddles are the
table unit's (``[link] port``) or, without a table unit, the GPIO paddles of
``hardware/pinout.toml``. Under systemd (``Type=notify``) the app says READY=1
once its outputs are up, feeds the watchdog from the frame loop and says
STOPPING=1 when it closes (:class:`~tavli_pi.service.Notifier`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import time
import warnings
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from tavli_pi.config import TableConfig
from tavli_pi.errors import CalibrationError, ConfigError, SnapshotError, TavliWarning
from tavli_pi.record.resume import header_mismatch
from tavli_pi.record.sink import LogSink, RecordPolicy
from tavli_pi.referee import snapshot
from tavli_pi.referee.dice import DiceWatch
from tavli_pi.referee.events import BoardAdopted, Event, EventSink, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.position import START_LAYOUT, Side
from tavli_pi.memory import keep_heap
from tavli_pi.threads import pin_threads
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Camera, Frame
from tavli_pi.vision.observation import DieReading, Observation
from tavli_pi.view_follow import CALIBRATED_AT_KEY, CALIBRATION_KEY, MOVES_KEY, ViewFollow

if TYPE_CHECKING:
    import threading

    from gpiozero.pins import Factory

    from tavli_pi.display.server import DisplayServer
    from tavli_pi.link.table_link import TableLink
    from tavli_pi.service import Notifier
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.signals.gpio import Signals
    from tavli_pi.tournament.feed import TableFeed
    from tavli_pi.vision.calibrate import FieldMemory
    from tavli_pi.vision.known import KnownBoard
    from tavli_pi.vision.motion import MotionGate
    from tavli_pi.vision.reader import BoardReader

__all__ = ["TableApp", "calibrate", "EVENT_HISTORY", "CALIBRATION_KEY", "CALIBRATED_AT_KEY", "MOVES_KEY"]

#: how many recent events :attr:`TableApp.events` keeps (the log keeps them all)
EVENT_HISTORY = 1000
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


@runtime_checkable
class ScriptedInputs(Protocol):
    """A source that also brings the players' inputs (the simulator's scripted matches):
    ``inputs_at(i)`` are made just before frame ``i``."""

    def inputs_at(self, index: int) -> Sequence[PlayerInput]: ...


class TableApp:
    """The main loop of one table.

    Time: the table runs on the frames' clock (``Frame.t``): the referee, the
    signals and the table link all get the frame's time. ``clock`` is the wall
    clock, used only to pace a replay and to feed the systemd watchdog. ``incremental``: the
    reader reads only what changed since the last frame (the same readings; issue 12).
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        camera: Camera | None = None,
        calibration: Calibration | None = None,
        sinks: Sequence[EventSink] = (),
        pin_factory: Factory | None = None,
        record: bool = True,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.monotonic,
        incremental: bool = True,
    ) -> None:
        pin_threads()  # one OpenCV and BLAS thread: pools only add overhead per frame (issue 12)
        keep_heap()  # each frame's buffers reuse the last frame's pages, not fresh ones (issue 12)
        self.config = config
        self.clock = clock
        self._inputs: queue.SimpleQueue[PlayerInput] = queue.SimpleQueue()
        self.events: deque[Event] = deque(maxlen=EVENT_HISTORY)
        self.sinks: list[EventSink] = []
        self.record: LogSink | None = None
        self.signals: Signals | None = None
        self.display: DisplayServer | None = None
        self.wired: list[str] = []
        self.link: TableLink | None = None
        self.feed: TableFeed | None = None
        self.notifier: Notifier | None = None
        self._reader: BoardReader | None = None
        #: read only what changed since the last frame (vision/incremental.py; the same readings)
        self.incremental = incremental
        self._calibration = calibration
        self._field: FieldMemory | None = None  # the field found in the picture, until the board is learnt
        self._misfit = False  # a resumed run's picture does not fit the board learnt (the camera moved meanwhile)
        self._resume_frame: int | None = None  # the camera frame the log's last snapshot was taken at
        self._seek_frame: int | None = None  # ... or the later frame the logged calibration was made on
        self._frame_index = -1  # the frame being processed (a snapshot's frame)
        self._setup_confirmed = False  # the players confirmed a set-up board vision disagrees with
        self._setup_wait = ""  # why calibration is waiting (said once per reason)
        self._setup_asked = False  # the players were asked to fix or confirm the set-up board
        self._asked_board: np.ndarray | None = None  # the clear set-up frame last asked about (no dice)
        self._asked_cal: Calibration | None = None  # the field as found on that frame
        self._asked_marks = np.zeros((0, 2), np.float32)  # where a die was read on it (canonical px)
        self._dice_xy: list[tuple[float, float]] = []  # where the last set-up read saw dice (image px)
        self._dice_xy_before: list[tuple[float, float]] = []  # and the one before it
        self._unanswered = 0.0  # seconds of clear frames in a row the set-up question went unanswered
        #: an opening roll thrown after the question answers it (armed by a frame without still dice)
        self._setup_dice = DiceWatch(settle=2, min_confidence=config.referee.die_confidence, armed=False)
        self._hand_frames = 0  # frames in a row calibration saw a hand (or motion) over the set-up board
        #: until calibrated: the reader of the set-up frames, kept while the field stays where it was
        self._setup_reader: BoardReader | None = None
        self._still_gate: MotionGate | None = None  # until calibrated: has the picture stayed the same?
        self._still_frames = 0  # ... for so many frames in a row
        self._still_s = 0.0  # ... for so many seconds (each frame: the time since the one before it)
        self._wait_at: float | None = None  # the time of the last frame calibration waited on
        self._wait_dt = 0.0  # ... and the seconds from it to this one
        self._still_since: np.ndarray | None = None  # ... since this frame
        self._asked_events: list[Event] = []  # the request to confirm the set-up, for ``process`` to return
        self._held: list[PlayerInput] = []  # inputs made while calibration waited: they reach the referee after
        self._learn_tried: object = None  # the position in play last tried to learn the board from
        #: the board learnt from an earlier position was kept at a join made on a frame that was not clear
        #: (:meth:`_learn_adopted`): it is learnt from the position in play on a later clear frame
        self._relearn = False
        self.camera = camera
        self.frames = 0
        self.closed = False
        try:
            self.referee = self._make_referee(record)
            #: the field's corners kept on the picture (the table or the camera knocked, turned, creeping)
            self.view = ViewFollow(None if self.record is None else self.record.log, self._read_through)
            self._logged_moves()
            self._make_outputs(pin_factory, notifier)
            self.sinks.extend(sinks)
            self._show_logged_game()
        except BaseException:
            self.close()
            raise

    # -- construction -------------------------------------------------------------------
    def _make_referee(self, record: bool) -> Referee:
        cfg = self.config
        table, rules = cfg.table, cfg.referee.rules
        game = cfg.game
        if game.tavli:
            # Plakoto, Fevga or the tavli match (RULES-TAVLI.md): no cube, no Crawford (V2, T3, T4)
            referee = Referee(cfg.referee, players=table.players, tavli=TavliMatch(game.match),
                              tavli_settings=game.settings)
        else:
            match = MatchState(table.match_length, crawford_rule=rules.crawford)
            referee = Referee(cfg.referee, match=match, players=table.players)
        if not record:
            return referee
        from tavli_pi.record.header import MatchHeader
        from tavli_pi.record.resume import open_for_resume
        from tavli_pi.record.tavli_log import rules_text

        if game.tavli:
            header = MatchHeader(players=table.players, match_length=game.match.match_length, crawford=False,
                                 game=game.game, rules=rules_text(game.match, game.settings))
        else:
            header = MatchHeader(players=table.players, match_length=table.match_length,
                                 crawford=rules.crawford, jacoby=rules.jacoby,
                                 beavers=rules.beavers, cube_limit=rules.max_cube)
        Path(cfg.record.log).parent.mkdir(parents=True, exist_ok=True)
        log, info = open_for_resume(cfg.record.log, header)
        mismatch = None if info.empty else header_mismatch(info.header, header)
        if mismatch is not None:
            log.close()
            raise ConfigError(f"{cfg.record.log}: {mismatch}: give this match its own [record] log, "
                              f"or correct {cfg.source}'s [table] and [rules] to resume the logged match")
        # the log is not in ``sinks``: it is written first, with the frame that proves each verdict
        self.record = LogSink(log, RecordPolicy(save_frames=cfg.record.save_frames))
        self.wired.append(f"record:{cfg.record.log}")
        saved = log.meta(CALIBRATION_KEY)
        if saved is not None and self._calibration is None:
            # the board was learnt at set-up: a resumed match reads with the same calibration, from
            # the frame it was learnt on (unless the log goes on past it: then from its last snapshot)
            self._calibration = Calibration.from_dict(json.loads(saved))
            at = log.meta(CALIBRATED_AT_KEY)
            self._seek_frame = int(at) if at is not None and at.isdigit() else None
        if info.state is None:
            return referee
        snap = log.last_snapshot()
        if snap is not None:
            try:
                resumed = snapshot.loads(snap.referee)
            except SnapshotError as exc:
                warnings.warn(f"{cfg.record.log}: {exc}; resuming from the last logged table state "
                              "instead (a turn in progress restarts at its last verdict)", TavliWarning,
                              stacklevel=2)
            else:
                # exactly where the log ends: the referee as it was after its last committed event
                if self._seek_frame is not None and self._seek_frame > snap.frame:
                    return resumed  # calibrated after it: reading starts at the calibration's frame
                self._seek_frame = None
                self._resume_frame = snap.frame
                self.wired.append(f"resumed at event {snap.seq} (frame {snap.frame}, {resumed.phase})")
                return resumed
        self.wired.append(f"resumed at event {info.next_seq - 1}")
        return Referee.from_state(info.state, cfg.referee, crawford_rule=rules.crawford,
                                  tavli_settings=game.settings if game.tavli else None)

    def _show_logged_game(self) -> None:
        """After a resume the display shows the current game so far (its move list, the last play)
        from the log; the other outputs only show what happens from now on."""
        if self.display is None or self.record is None:
            return
        game = self.referee.game_number
        for logged in self.record.log.events():
            if logged.event.state.game_number == game:
                self.display.handle(logged.event)

    def _make_outputs(self, pin_factory: Factory | None, notifier: Notifier | None) -> None:
        cfg = self.config
        if cfg.signals.enabled:
            self.signals = self._make_signals(pin_factory)
            self.sinks.append(self.signals)
        if cfg.display.enabled:
            from tavli_pi.display.server import DisplayServer

            d = cfg.display
            assert d.pin is not None  # parse_config demands a PIN with the display on
            self.display = DisplayServer(
                d.host, d.port, pin=d.pin, on_input=self.submit, max_attempts=d.lockout_attempts,
                lockout_seconds=d.lockout_seconds, lockout_max_seconds=d.lockout_max_seconds,
                tls_cert=d.tls_cert, tls_key=d.tls_key, max_sockets=d.max_sockets,
                max_sockets_per_client=d.max_sockets_per_client, allowed_origins=d.allowed_origins)
            self.display.start()
            self.sinks.append(self.display)
            self.wired.append(f"display:{self.display.url}")
        port = cfg.link.port
        if port is not None:
            from tavli_pi.link.table_link import TableLink

            if "://" not in port and not os.path.exists(port):
                warnings.warn(f"{cfg.source}: link.port {port} names no device: is the table unit plugged in? "
                              "The table runs without it and connects when it appears; check the port "
                              "(ls /dev/ttyACM*) or remove [link] port", TavliWarning, stacklevel=3)
            self.link = TableLink(port, on_paddle=self._paddle_from_link, clock=self.clock)
            self.sinks.append(self.link)
            self.wired.append(f"link:{port}")
        fc = cfg.feed
        if fc.broker is not None:
            from tavli_pi.tournament.feed import FeedSettings, TableFeed, parse_broker

            host, bport = parse_broker(fc.broker)
            self.feed = TableFeed(FeedSettings(
                host=host, port=bport, event_slug=fc.event or "local", table_id=cfg.table.id,
                username=fc.username, password=fc.password, tls_ca=fc.tls_ca, outbox_path=fc.outbox,
            ))
            self.feed.start()
            self.sinks.append(self.feed)
            self.wired.append(f"feed:{fc.broker}")
        if notifier is None:
            from tavli_pi.service import Notifier

            notifier = Notifier.from_environment()
        self.notifier = notifier

    def _make_signals(self, pin_factory: Factory | None) -> Signals:
        from gpiozero.exc import BadPinFactory

        from tavli_pi.signals.gpio import Signals
        from tavli_pi.signals.pinout import load_pinout

        sc = self.config.signals
        factory = pin_factory
        if factory is None and sc.pin_factory == "mock":
            from gpiozero.pins.mock import MockFactory

            factory = MockFactory()
        pinout = load_pinout(sc.pinout)
        # the clock's paddles on GPIO when there is a clock and no table unit to bring them
        paddles = self.config.referee.clock is not None and self.config.link.port is None \
            and len(pinout.paddles) == 2
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero's fallback warnings: the error below says it all
                signals = Signals(pinout, pin_factory=factory, on_input=self.submit, paddles=paddles)
        except BadPinFactory as exc:
            raise ConfigError(
                f"{self.config.source}: signals.enabled = true but this machine has no GPIO pins ({exc}): "
                "set [signals] pin_factory = \"mock\" to run without hardware, or enabled = false"
            ) from exc
        self.wired.append("signals+paddles" if paddles else "signals")
        return signals

    # -- inputs and frames ------------------------------------------------------------------
    def submit(self, inp: PlayerInput) -> None:
        """Queue a player input (thread-safe); it reaches the referee before the next frame."""
        self._inputs.put(inp)

    def _paddle_from_link(self, side: Side) -> None:
        self.submit(PlayerInput(Action.PADDLE, side, source="link"))

    def step(self, item: Observation | PlayerInput, now: float, frame: np.ndarray | None = None) -> list[Event]:
        """One input or observation through the referee, its events to every output (log first,
        with ``frame``, the image the observation was read from, as the evidence)."""
        got = self.referee.step(item, now)
        self._dispatch(got, frame)
        return got

    def handle_inputs(self, now: float) -> list[Event]:
        """Every queued player input through the referee, in the order they came."""
        got = self._take_inputs(now)
        self._dispatch(got)
        return got

    def _take_inputs(self, now: float) -> list[Event]:
        out: list[Event] = []
        while True:
            try:
                inp = self._inputs.get_nowait()
            except queue.Empty:
                return out
            out += self.referee.step(inp, now)

    def _dispatch(self, events: list[Event], frame: np.ndarray | None = None,
                  learnt: Calibration | None = None) -> None:
        """Commit ``events`` to the log in one transaction with the referee's state after them
        (all or nothing, so a crash can never log a game start twice), then show them. ``learnt``:
        a calibration learnt from the board these events adopt, kept in the same transaction (with
        this frame as the one it was learnt on: a resumed run reads on from it with that calibration)."""
        if not events:
            return
        self.events.extend(events)
        if self.record is not None:
            meta = None if learnt is None else {CALIBRATED_AT_KEY: str(self._frame_index),
                                                CALIBRATION_KEY: json.dumps(learnt.to_dict())}
            self.record.commit(events, frame, (self._frame_index, snapshot.dumps(self.referee)), meta)
        for e in events:
            for sink in self.sinks:
                sink.handle(e)

    def _start_reading(self, frame: Frame) -> BoardReader | None:
        """The reader, once the board is calibrated; None while calibration waits for a clear board.

        Calibration learns the board from a set-up frame, so it never takes the first frame
        blindly: it waits for a frame with no hand and no motion. On a new match it learns the
        board from that frame as the start position (B3: ``learn_board``) and reads the
        frame again with what it learnt; if that reading is the start position, the board is
        calibrated. If it is not, the referee says where it differs and asks the players to fix
        the board or confirm it (``accept``, an event every output shows): a confirmed board is
        learnt as it is, so set-up never deadlocks. A resumed match reuses the calibration kept
        in its log.
        """
        from tavli_pi.vision.calibrate import FieldMemory
        from tavli_pi.vision.reader import BoardReader
        from tavli_pi.vision.learn_consistent import learn_as_read
        from tavli_pi.vision.setup import in_progress, learn_board, setup_agreement

        if self._calibration is not None:
            return BoardReader(self._calibration, incremental=self.incremental)
        if self._field is None:
            self._field = FieldMemory()
        try:
            cal = calibrate(self.config, frame.image, self._field)
        except CalibrationError as exc:
            self._watch_stillness(frame)
            self._waiting_for_setup(str(exc))
            return None
        self._watch_stillness(frame, cal.corners)
        setup = self.referee.phase is Phase.SETUP
        learning = setup and self.config.camera.calibration is None  # this frame may teach the board
        obs = self._setup_read(cal, frame)
        dice_seen = bool(field_dice(obs))  # before the board is learnt from this frame (then its dice are background)
        learn_image = frame.image
        if self._opening_answers(obs):
            # asked to fix or confirm the set-up board, the players threw the opening roll: they take
            # it as set up (the referee hears their ACCEPT); the board is learnt from the clear frame
            # that was asked about, without the dice
            assert self._asked_board is not None
            self._setup_confirmed = True
            self._held.append(PlayerInput(Action.ACCEPT, None, source="dice"))
            learn_image = self._asked_board
        problem = setup_problem(obs, expect_start=False)  # a hand or motion: no frame to learn from
        if problem is None and self._still_frames < 1 and learning and not self._setup_confirmed:
            # the board is learnt only from a picture that held still since the frame before: a hand
            # or sleeve vision misses in one frame is seldom at the same place in the next
            return None
        self._hand_frames = self._hand_frames + 1 if problem is not None else 0
        if problem is not None and not self._setup_confirmed and self._left_as_it_is():
            # nobody at the table (a recorded video), and the picture has not changed for as long as
            # the referee waits for a clear view twice: what looks like a hand is the board's own look
            # (a real hand moves), and the board is taken as set up as it is (B3)
            # the board is learnt from the first frame of that still run (dice too small for the
            # gate to see may have been thrown since)
            self._setup_confirmed = True
            self._held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))
            learn_image = self._still_since if self._still_since is not None else frame.image
        if problem is not None and not self._setup_confirmed:
            # a hand (or motion) seen on frame after frame, on a board not learnt yet, may be the
            # board's own look (or lettering taken for a tumbling die): the players are asked, and
            # their confirmation that the board is clear and set up goes on (never a deadlock)
            self._unanswered = 0.0
            ask = self._hand_frames >= HAND_FRAMES_ASK
            if ask and not dice_seen:
                self._ask_about(frame, cal, obs)  # asked whether it is clear: the opening roll may answer
            self._waiting_for_setup(problem, ask=ask)
            return None
        spots = self.config.referee.in_progress_spots
        attended = self.config.referee.attended
        if learning and self._setup_confirmed and in_progress(obs, spots, every=attended):
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
                if not self._setup_confirmed:
                    joined = None if attended else self._joined_as_read(frame, cal, obs)
                    if joined is None:
                        self._waiting_for_setup(str(exc), ask=True)
                        return None
                    cal, obs = joined
            else:
                # read again against what it learnt, but not by each slot's taught ring and stillness:
                # on the very frame it was learnt from every slot is still, and they would read the
                # position it was learnt as, not what the frame shows (stacks.SETUP_W_UNTAUGHT)
                read_back = BoardReader(learnt.with_(taught_ring=None)).read(frame.image, frame.index)
                if not (self._setup_confirmed and not attended and len(setup_agreement(read_back).differences) >= spots):
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
        if problem is not None and not self._setup_confirmed:
            if not dice_seen:
                self._ask_about(frame, cal, obs)
            self._waiting_for_setup(problem, ask=True, obs=obs)
            if not self.config.referee.attended:
                # nobody at the table answers (a recorded video): a clear, still board left as it is
                # for ``[referee] unattended_wait`` seconds is taken as set up
                self._unanswered += self._wait_dt
                if self.config.referee.waited(self._unanswered):
                    self._setup_confirmed = True
                    self._held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))
            return None
        if self.record is not None:
            # the frame first: a calibration is only ever read with the frame it was made on
            self.record.log.set_meta(CALIBRATED_AT_KEY, str(frame.index))
            self.record.log.set_meta(CALIBRATION_KEY, json.dumps(cal.to_dict()))
        self._calibration = cal
        self.wired.append(f"calibrated on frame {frame.index}" + (" (set-up confirmed by the players)"
                                                                 if problem is not None else ""))
        return BoardReader(cal, incremental=self.incremental)

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
        field = self._field
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
            self._setup_reader = None
        if got is None or got[1] != "picture":
            return None
        if field is not None:
            field.turned = bool(field.turned)
        self._setup_confirmed = True
        self._held.append(PlayerInput(Action.ACCEPT, None, source="unattended"))
        return got[0]

    def _known(self, position: GamePosition) -> KnownBoard | None:
        """``position`` as the board shows it (light and dark per spot); None when it is no whole board."""
        from tavli_pi.vision.known import KnownBoard

        light, dark = self.referee.game.spot_counts(position, self.referee.settings.light_is_white)
        try:
            return KnownBoard.of_counts(light, dark)
        except CalibrationError:
            return None

    def _learnt_from(self, frame: Frame, obs: Observation, known: KnownBoard, *,
                     unlearnt_too: bool = False) -> Calibration | None:
        """This board learnt from ``frame`` as a view of ``known`` (``learn_checked``), or None."""
        from tavli_pi.vision.learn_consistent import learn_checked

        if self._calibration is None:
            return None
        try:
            return learn_checked(frame.image, self._calibration.unlearnt(), known, obs, frame.index,
                                 unlearnt_too=unlearnt_too)
        except CalibrationError as exc:
            warnings.warn(f"the board was not learnt from the position in play: {exc}", TavliWarning, stacklevel=2)
            return None

    def _setup_read(self, cal: Calibration, frame: Frame) -> Observation:
        """A set-up frame's reading, by one reader while the field stays where it was (the same
        corners and home side): what it saw move is judged against the frame before, as after
        calibration -- a die seen "tumbling" where a die lay the frame before is a still smear
        (lettering, a glint on a checker's rim, a die too small for crisp pips), not a throw, and
        it does not stall set-up. A new reader when the field moved."""
        from tavli_pi.vision.reader import BoardReader

        r = self._setup_reader
        if (r is None or r.calibration.home != cal.home
                or not np.array_equal(r.calibration.corners, cal.corners)):
            r = self._setup_reader = BoardReader(cal)
        elif r.calibration is not cal:
            r = self._setup_reader = r.carried_to(cal)
        obs = r.read(frame.image, frame.index)
        self._dice_xy_before, self._dice_xy = self._dice_xy, [d.xy for d in obs.dice]
        return obs

    def _learn_adopted(self, events: Sequence[Event], frame: Frame, obs: Observation) -> Calibration | None:
        """The calibration to read on with once the referee carried on from a position (a game joined in
        progress, or a board the players confirmed: ``board_adopted``); None: read on as before.

        The board is learnt from that position (:meth:`_learnt_from`) when it was not learnt yet (no
        set-up was learnt, and no calibration file is given), and also when set-up learnt it as the start
        and the referee then found the set-up board to be a game in progress (an unattended table, a
        recording that starts mid-game: ``setup_check``'s joins): the board was never the start, and
        what was learnt from it as the start (its checkers in places the start leaves empty taken as the
        empty board) is learnt again from the position it showed, or, when this frame does not show it
        clearly, forgotten (``Calibration.unlearnt``: read as a board never learnt, and learnt later by
        :meth:`_learn_in_play`). A board learnt from a game in progress (an earlier join, or in play) that
        the referee joins again (``extra.rejoined``) on a frame not clear (the next roll lying on it) is
        kept, and learnt from the position in play on a later clear frame (:meth:`_learn_in_play`). Whether
        the frame shows that position is then read also as a board never learnt reads it: learnt as the
        start, the board reads a frame like the start."""
        adopted = [e for e in events if isinstance(e, BoardAdopted)]
        cal = self._calibration
        if not adopted or cal is None or self.config.camera.calibration is not None:
            return None
        known = self._known(adopted[-1].after)
        if known is None:
            return None
        relearn = cal.learnt and adopted[-1].extra.get("in_progress") and cal.position != known
        if cal.learnt and not relearn:
            return None
        learnt = self._learnt_from(frame, obs, known, unlearnt_too=bool(relearn))
        if learnt is not None or not relearn:
            return learnt
        from tavli_pi.vision.known import KnownBoard

        if adopted[-1].extra.get("rejoined") and cal.position != KnownBoard.start():
            # joined again, on a board learnt from a game in progress (the earlier join, or in play): the
            # reader that read the board joined again reads on with it, never forgotten because this one
            # frame was not clear (dice lying on it). Forgotten, it read worse: a board learnt from one
            # position and shown the next (two checkers moved, the roll lying or not), 7 boards x 2 sizes
            # x 6 frames, read 0 spots wrong kept and 47 forgotten, the roll right on 84 vs 80 of 84
            # (unlearnt56's probe_keep; before ``unlearnt`` kept the skin-prone grid, a forgotten 640 px
            # beech board also read a hand on every frame). The position joined again is learnt on a later
            # clear frame (:meth:`_learn_in_play`)
            self._relearn = True
            return None
        return cal.unlearnt()

    def _learn_in_play(self, frame: Frame, obs: Observation) -> tuple[Event, Calibration] | None:
        """A board not learnt (a game joined in progress, or a set-up board that did not read as the start
        at an unattended table, where the join frame did not show the position clearly), or learnt from a
        game in progress with dice lying on it (where they lay it is not known: a clip that starts on a
        roll; vision/reader.py vets dice there as with no learnt board), or kept at a join made on a frame
        that was not clear (``_relearn``: :meth:`_learn_adopted`), is learnt from
        the position in play on a later frame (:meth:`_learnt_from`): between turns (the referee awaits
        a roll), with the board not in doubt (``board_unsure``: a joined board is taken as sure once a
        play checked against its roll fitted it), once a position (never twice on one). A
        ``board_learnt`` event says so, and commits what was learnt with this frame: (the event, what
        was learnt), or None."""
        cal, ref = self._calibration, self.referee
        if (cal is None or (cal.learnt and not cal.roll_lying and not self._relearn)
                or self.config.camera.calibration is not None
                or ref.phase is not Phase.AWAITING_ROLL or ref.board_unsure or obs.hand or obs.motion or obs.dice):
            return None
        key = ref.position.layout_key()
        if key == self._learn_tried:
            return None
        from tavli_pi.referee.events import BoardLearnt

        self._learn_tried = key
        known = self._known(ref.position)
        learnt = None if known is None else self._learnt_from(frame, obs, known)
        if learnt is None:
            return None
        said = BoardLearnt(at=frame.t, state=ref.state, position=ref.position,
                           message="The board was learnt from the position in play: the camera reads it "
                                   "against what it learnt from now on.")
        return said, learnt

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
        if self._setup_confirmed or self.referee.phase is not Phase.SETUP:
            return False
        # every set-up frame is watched, the one asked about too (no die lies on it): dice thrown on
        # the next frame came after a frame without them
        dice = self._setup_dice.feed([d for d in field_dice(obs) if not self._a_fixture(d)], need=2)
        if self._asked_board is None:
            return False
        thrown = dice if dice is not None else self._setup_dice.unread  # or dice too small to read
        return thrown is not None and len(thrown) == 2 and {d.half for d in thrown} == {"left", "right"}

    def _ask_about(self, frame: Frame, cal: Calibration, obs: Observation) -> None:
        """Keep ``frame`` as the clear set-up board asked about (no die lies on it in a half: the opening
        roll thrown next may answer the question, :meth:`_opening_answers`), and where ``obs`` read anything
        as a die on it and on the set-up frame before it: a mark seen there on both (a smear the reader saw
        "tumbling" on a still frame, a die on the bar) is the board's own look, not a throw, when it reads as a
        die lying still later (a ring printed in a half, a glint on a metal rim, lettering). A die seen there
        on the frame asked about only may have just landed: never a mark."""
        self._asked_board, self._asked_cal = frame.image, cal
        radius = cal.layout.pitch / 2
        now, before = self._canonical(cal, self._dice_xy), self._canonical(cal, self._dice_xy_before)
        self._asked_marks = np.asarray([p for p in now if len(before) and np.min(np.hypot(*(before - p).T)) < radius],
                                       np.float32).reshape(-1, 2)

    @staticmethod
    def _canonical(cal: Calibration, xy: Sequence[tuple[float, float]]) -> np.ndarray:
        return cal.to_canonical(np.asarray(xy, np.float32)) if xy else np.zeros((0, 2), np.float32)

    def _a_fixture(self, die: DieReading) -> bool:
        """Whether ``die`` lies where a die was read on the set-up frame asked about (:meth:`_ask_about`):
        within half a point's width of it (a die is smaller than a point is wide), in the field as it
        was found then."""
        cal = self._asked_cal
        if cal is None or not len(self._asked_marks):
            return False
        at = self._canonical(cal, [die.xy])[0]
        return bool(np.min(np.hypot(*(self._asked_marks - at).T)) < cal.layout.pitch / 2)

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
        self._asked_events += asked

    def _confirm_setup(self) -> None:
        """Before calibration an ``accept`` from the players confirms the set-up board as it is;
        the referee gets the ``accept`` too (it confirms the start position, B3)."""
        while True:
            try:
                inp = self._inputs.get_nowait()
            except queue.Empty:
                break
            if inp.action is Action.ACCEPT:
                self._setup_confirmed = True
                if any(h.action is Action.ACCEPT for h in self._held):
                    continue  # one confirmation is enough
            self._held.append(inp)

    def _logged_moves(self) -> None:
        """A resumed run reads with the corners in force at the frame it resumes from (``ViewFollow.logged``)."""
        start = self._resume_frame if self._resume_frame is not None else self._seek_frame
        if self._calibration is not None and start is not None:
            self._calibration = self.view.logged(self._calibration, start)

    def _read_through(self, frame: Frame, moved: Calibration) -> None:
        """Read on through ``moved`` from ``frame`` on (``ViewFollow``'s move: the field's corners where the
        picture now has them): a new reader, whose motion gate and memory start anew."""
        from tavli_pi.vision.reader import BoardReader

        self._calibration = moved
        reader = BoardReader(moved, incremental=self.incremental)
        if self._reader is not None:
            # the same camera: its noise, learnt from the stream, is kept (not the frame it last saw)
            reader.noise = self._reader.noise
            reader.noise.forget_frame()
        self._reader = reader

    def _follow_shift(self, frame: Frame) -> bool:
        """``ViewFollow.follow_shift`` with the calibration in force (False before there is one)."""
        return False if self._calibration is None else self.view.follow_shift(frame, self._calibration)

    def _view_fits(self, frame: Frame) -> bool:
        """``ViewFollow.view_fits`` with the calibration in force (True before there is one)."""
        return True if self._calibration is None else self.view.view_fits(frame, self._calibration)

    @property
    def _primes_next(self) -> bool:
        """The next frame only primes the reader (the first after a resume)."""
        return self._reader is None and self._resume_frame is not None

    def process(self, frame: Frame) -> list[Event]:
        """One frame through vision and the referee, and its events to every output.

        The frame's events are committed together, with the referee's state, before
        any output shows them. The first frame after a resume only primes the reader
        (motion is judged against the previous frame); the referee already saw it.
        """
        if self._reader is None:
            self._confirm_setup()
            self._reader = self._start_reading(frame)
            held, self._held = self._held, []
            if self._reader is None:  # still waiting for a clear set-up board
                # the players' confirmation waits for the board to be learnt; other inputs go on
                self._held = [inp for inp in held if inp.action is Action.ACCEPT][:1]
                out = [e for inp in held if inp.action is not Action.ACCEPT
                       for e in self.referee.step(inp, frame.t)]
                self._dispatch(out)
                asked, self._asked_events = self._asked_events, []
                return asked + out
            for inp in held:  # the confirmation reaches the referee with the frame it was made for
                self.submit(inp)
            if self._resume_frame is not None:
                # the camera may have been moved while the referee was stopped
                self._misfit = not self._view_fits(frame)
                self._follow_shift(frame)  # the watch's first frame: where the picture stands
                self._reader.read(frame.image, frame.index)
                self._frame_index = frame.index
                self._resume_frame = None
                return []
        now = frame.t
        self._frame_index = frame.index
        out = self._take_inputs(now)
        obs = self._reader.read(frame.image, frame.index)
        lost = False
        if self._reader.last_kind != "unchanged" or self.view.lost:
            # a frame the reader saw unchanged did not move (the watch's ~1 ms spared); one that
            # changed may have: read again through the corners moved with it
            reader = self._reader
            lost = self._follow_shift(frame)
            if self._reader is not reader:
                obs = self._reader.read(frame.image, frame.index)
        if self._misfit:
            reader = self._reader
            self._misfit = not self._view_fits(frame)
            if self._reader is not reader:
                obs = self._reader.read(frame.image, frame.index)
            lost = lost or self._misfit
        if lost:
            # the picture moved and the shift is not known: the board is not read through the old
            # corners (a misaligned board), the referee waits as for motion
            obs = dataclasses.replace(obs, motion=True)
        out += self.referee.step(obs, now)
        learnt = self._learn_adopted(out, frame, obs)
        if learnt is None and not out and self._reader.last_kind != "unchanged":
            in_play = self._learn_in_play(frame, obs)
            if in_play is not None:
                out.append(in_play[0])
                learnt = in_play[1]
        self._dispatch(out, frame.image, learnt)
        if learnt is not None:
            # read on with the board learnt (or forgotten); the new reader is primed with this frame, as
            # a run resumed from this frame's commit primes it
            from tavli_pi.vision.reader import BoardReader

            self._calibration, self._relearn = learnt, False
            self._reader = BoardReader(learnt, incremental=self.incremental)
            self._reader.read(frame.image, frame.index)
            self.wired.append(f"{'learnt' if learnt.learnt else 'forgot'} the board on frame {frame.index}")
        if self.signals is not None:
            self.signals.tick(now)
        if self.link is not None:
            self.link.poll(now)
        self.frames += 1
        return out

    def run(self, *, max_frames: int | None = None, pace: float = 0.0,
            on_frame: Callable[[Frame, list[Event]], None] | None = None,
            stop: threading.Event | None = None) -> int:
        """Read frames until the camera runs dry (or ``max_frames``, or ``stop`` is set: looked at
        between frames, so a frame is never left half handled); ``pace`` > 0 plays in real time."""
        if self.camera is None:
            from tavli_pi.sources import register_sources
            from tavli_pi.vision.camera import open_camera

            register_sources()  # sim:... without importing the simulator before it is used
            self.camera = open_camera(self.config.camera.source, fps=self.config.camera.fps)
        if self._resume_frame is not None:
            # a recorded or simulated source replays from the frame the log ends at (it primes the
            # reader); a live camera simply goes on, its first frame priming the reader
            self.camera.seek(self._resume_frame)
        elif self._seek_frame is not None:
            self.camera.seek(self._seek_frame)  # the frame calibration was made on: the referee reads it
        n = self.notifier
        if n is not None:
            n.ready(f"table {self.config.table.id}: " + ", ".join(self.wired or ["no outputs"]))
            n.tick(self.clock())  # the first frame may be slow (calibration): feed the watchdog first
        start = self.clock()
        scripted = self.camera if isinstance(self.camera, ScriptedInputs) else None
        while (max_frames is None or self.frames < max_frames) and not (stop is not None and stop.is_set()):
            frame = self.camera.read()
            if frame is None:
                break
            if scripted is not None and not self._primes_next:
                for inp in scripted.inputs_at(frame.index):
                    self.submit(inp)
            got = self.process(frame)
            if on_frame is not None:
                on_frame(frame, got)
            if n is not None:
                n.tick(self.clock())
            if pace > 0:
                wait = start + frame.t * pace - self.clock()
                if wait > 0:
                    time.sleep(wait)
            if self.referee.phase is Phase.MATCH_OVER and self._inputs.empty():
                break
        return 0

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.notifier is not None:
            self.notifier.stopping()
        # the outputs in reverse order of opening; the log, opened first, closes last
        outputs: list[EventSink] = [*reversed(self.sinks), *([self.record] if self.record is not None else [])]
        for sink in outputs:
            try:
                sink.close()
            except Exception as exc:  # noqa: BLE001 - one output failing must not keep the others open
                warnings.warn(f"closing {type(sink).__name__} failed ({exc}); the other outputs were closed",
                              TavliWarning, stacklevel=2)
        if self.camera is not None:
            self.camera.close()
        if self.notifier is not None:
            self.notifier.close()

    def __enter__(self) -> TableApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

