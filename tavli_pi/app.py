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
from tavli_pi.referee.events import BoardAdopted, Event, EventSink, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.position import Side
from tavli_pi.memory import keep_heap
from tavli_pi.threads import pin_threads
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Camera, Frame
from tavli_pi.vision.observation import Observation
from tavli_pi.setup_watch import SetupWatch, calibrate
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
    from tavli_pi.vision.known import KnownBoard
    from tavli_pi.vision.reader import BoardReader

__all__ = ["TableApp", "calibrate", "EVENT_HISTORY", "CALIBRATION_KEY", "CALIBRATED_AT_KEY", "MOVES_KEY"]

#: how many recent events :attr:`TableApp.events` keeps (the log keeps them all)
EVENT_HISTORY = 1000


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
        self._misfit = False  # a resumed run's picture does not fit the board learnt (the camera moved meanwhile)
        self._resume_frame: int | None = None  # the camera frame the log's last snapshot was taken at
        self._seek_frame: int | None = None  # ... or the later frame the logged calibration was made on
        self._frame_index = -1  # the frame being processed (a snapshot's frame)
        self._learn_tried: object = None  # the position in play last tried to learn the board from
        #: the board learnt from an earlier position was kept at a join made on a frame that was not clear
        #: (:meth:`_learn_adopted`): it is learnt from the position in play on a later clear frame
        self._relearn = False
        self.camera = camera
        self.frames = 0
        self.closed = False
        try:
            self.referee = self._make_referee(record)
            #: the set-up board watched until the board is calibrated
            self.setup = SetupWatch(config, self.referee, self._dispatch)
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
        """The reader, once the board is calibrated; None while calibration waits for a clear board
        (:meth:`SetupWatch.calibrated`). A resumed match reuses the calibration kept in its log; a new
        one is kept in the log with the frame it was made on."""
        from tavli_pi.vision.reader import BoardReader

        if self._calibration is not None:
            return BoardReader(self._calibration, incremental=self.incremental)
        made = self.setup.calibrated(frame)
        if made is None:
            return None
        cal, confirmed = made
        if self.record is not None:
            # the frame first: a calibration is only ever read with the frame it was made on
            self.record.log.set_meta(CALIBRATED_AT_KEY, str(frame.index))
            self.record.log.set_meta(CALIBRATION_KEY, json.dumps(cal.to_dict()))
        self._calibration = cal
        self.wired.append(f"calibrated on frame {frame.index}" + (" (set-up confirmed by the players)"
                                                                 if confirmed else ""))
        return BoardReader(cal, incremental=self.incremental)

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

    def _confirm_setup(self) -> None:
        """Before calibration the inputs made go to the set-up watch (:meth:`SetupWatch.hear`): an
        ``accept`` from the players confirms the set-up board as it is; the referee gets them all once
        the board is calibrated (the ``accept`` confirms the start position, B3)."""
        while True:
            try:
                inp = self._inputs.get_nowait()
            except queue.Empty:
                break
            self.setup.hear(inp)

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
            held, self.setup.held = self.setup.held, []
            if self._reader is None:  # still waiting for a clear set-up board
                # the players' confirmation waits for the board to be learnt; other inputs go on
                self.setup.held = [inp for inp in held if inp.action is Action.ACCEPT][:1]
                out = [e for inp in held if inp.action is not Action.ACCEPT
                       for e in self.referee.step(inp, frame.t)]
                self._dispatch(out)
                asked, self.setup.asked_events = self.setup.asked_events, []
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

