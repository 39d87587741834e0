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

import queue
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from tavli_pi.config import TableConfig
from tavli_pi.errors import TavliWarning
from tavli_pi.referee.events import Event, EventSink
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.referee import Referee
from tavli_pi.rules.position import Side
from tavli_pi.vision.observation import Observation
from tavli_pi.rules.match import MatchState
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Camera, Frame

__all__ = ["TableApp", "RecordSink", "PROVING_KINDS", "calibrate"]

#: events whose frame is saved beside them in the log (the evidence for a dispute)
PROVING_KINDS = frozenset(
    {"play_accepted", "illegal_play", "illegal_play_resolved", "roll_void", "premature_roll",
     "opening_roll", "roll_accepted", "setup_checked"}
)


class RecordSink(EventSink):
    """Appends each event to the SQLite match log, with the proving frame as JPEG."""

    def __init__(self, log: Any, *, save_frames: bool = True) -> None:
        self.log = log
        self.save_frames = save_frames
        self.frame: np.ndarray | None = None

    def handle(self, event: Event) -> None:
        jpeg: bytes | None = None
        if self.save_frames and self.frame is not None and event.kind in PROVING_KINDS:
            ok, buf = cv2.imencode(".jpg", self.frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
            jpeg = buf.tobytes() if ok else None
        self.log.append(event, jpeg)

    def close(self) -> None:
        if not self.log.closed:
            self.log.close()


def calibrate(config: TableConfig, image: np.ndarray) -> Calibration:
    """The table's calibration: a saved file, the configured corners, or the printed markers;
    with ``table.home = "auto"`` the home side is learnt from the set-up board (B4)."""
    from tavli_pi.vision.calibrate import calibrate_image

    return calibrate_image(image, config.corners or None, config.home, config.calibration or None)


class TableApp:
    """The main loop of one table."""

    def __init__(
        self,
        config: TableConfig,
        *,
        camera: Camera | None = None,
        calibration: Calibration | None = None,
        sinks: Sequence[EventSink] = (),
        pin_factory: Any = None,
        record: bool = True,
        notifier: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.clock = clock
        self._inputs: queue.SimpleQueue[PlayerInput] = queue.SimpleQueue()
        self.events: list[Event] = []
        self.sinks: list[EventSink] = []
        self.record: RecordSink | None = None
        self.signals: Any = None
        self.display: Any = None
        self.wired: list[str] = []
        self.link: Any = None
        self.feed: Any = None
        self.notifier: Any = None
        self._reader: Any = None
        self._calibration = calibration
        self.camera = camera
        self.frames = 0
        self.closed = False
        try:
            self.referee = self._make_referee(record)
            self._make_outputs(pin_factory, notifier)
            self.sinks.extend(sinks)
        except BaseException:
            self.close()
            raise

    # -- construction -------------------------------------------------------------------
    def _make_referee(self, record: bool) -> Referee:
        cfg = self.config
        match = MatchState(cfg.match_length, crawford_rule=cfg.referee.rules.crawford)
        referee = Referee(cfg.referee, match=match, players=cfg.players)
        if not record:
            return referee
        from tavli_pi.record.header import MatchHeader
        from tavli_pi.record.resume import open_for_resume

        header = MatchHeader(players=cfg.players, match_length=cfg.match_length,
                             crawford=cfg.referee.rules.crawford, jacoby=cfg.referee.rules.jacoby,
                             beavers=cfg.referee.rules.beavers, cube_limit=cfg.referee.rules.max_cube)
        Path(cfg.log).parent.mkdir(parents=True, exist_ok=True)
        log, info = open_for_resume(cfg.log, header)
        self.record = RecordSink(log, save_frames=cfg.save_frames)
        self.sinks.append(self.record)
        self.wired.append(f"record:{cfg.log}")
        if info.state is not None:
            # resume after a crash from the last committed state
            self.wired.append(f"resumed at event {info.next_seq - 1}")
            return Referee.from_state(info.state, cfg.referee, crawford_rule=cfg.referee.rules.crawford)
        return referee

    def _make_outputs(self, pin_factory: Any, notifier: Any) -> None:
        cfg = self.config
        if cfg.signals:
            from tavli_pi.signals.gpio import Signals
            from tavli_pi.signals.pinout import load_pinout

            factory = pin_factory
            if factory is None and cfg.pin_factory == "mock":
                from gpiozero.pins.mock import MockFactory

                factory = MockFactory()
            pinout = load_pinout(cfg.pinout or None)
            # the clock's paddles on GPIO when there is a clock and no table unit to bring them
            paddles = cfg.referee.clock is not None and not cfg.link_port and len(pinout.paddles) == 2
            self.signals = Signals(pinout, pin_factory=factory, on_input=self.submit, paddles=paddles)
            self.sinks.append(self.signals)
            self.wired.append("signals+paddles" if paddles else "signals")
        if cfg.display:
            from tavli_pi.display.server import DisplayServer

            self.display = DisplayServer(cfg.display_host, cfg.display_port, pin=cfg.display_pin,
                                         on_input=self.submit)
            self.display.start()
            self.sinks.append(self.display)
            self.wired.append(f"display:{self.display.url}")
        if cfg.link_port:
            from tavli_pi.link.table_link import TableLink

            link = TableLink(cfg.link_port, on_paddle=self._paddle_from_link, clock=self.clock)
            self.sinks.append(link)  # type: ignore[arg-type]  # TableLink has handle/close
            self.link = link
            self.wired.append(f"link:{cfg.link_port}")
        if cfg.feed_broker:
            from tavli_pi.tournament.feed import FeedSettings, TableFeed, parse_broker

            host, port = parse_broker(cfg.feed_broker)
            feed = TableFeed(FeedSettings(
                host=host, port=port, event_slug=cfg.feed_event or "local", table_id=cfg.table_id,
                username=cfg.feed_username or None, password=cfg.feed_password or None,
                tls_ca=cfg.feed_tls_ca or None, outbox_path=cfg.feed_outbox or None,
            ))
            feed.start()
            self.feed = feed
            self.sinks.append(_FeedSink(feed))
            self.wired.append(f"feed:{cfg.feed_broker}")
        if notifier is None:
            try:
                from tavli_pi.service import Notifier

                notifier = Notifier.from_environment()
            except ImportError:  # pragma: no cover - the service module is optional
                notifier = None
        self.notifier = notifier

    # -- inputs and frames ------------------------------------------------------------------
    def submit(self, inp: PlayerInput) -> None:
        """Queue a player input (thread-safe); it reaches the referee before the next frame."""
        self._inputs.put(inp)

    def _paddle_from_link(self, side: Side) -> None:
        self.submit(PlayerInput(Action.PADDLE, side, source="link"))

    def step(self, item: Observation | PlayerInput, now: float) -> list[Event]:
        """One input or observation through the referee, its events to every output (log first)."""
        got = self.referee.step(item, now)
        self._dispatch(got)
        return got

    def handle_inputs(self, now: float) -> list[Event]:
        """Every queued player input through the referee, in the order they came."""
        out: list[Event] = []
        while True:
            try:
                inp = self._inputs.get_nowait()
            except queue.Empty:
                return out
            out += self.step(inp, now)

    def _dispatch(self, events: list[Event]) -> None:
        for e in events:
            self.events.append(e)
            for sink in self.sinks:
                sink.handle(e)

    def process(self, frame: Frame) -> list[Event]:
        """One frame through vision and the referee, and its events to every output."""
        if self._reader is None:
            from tavli_pi.vision.reader import BoardReader

            cal = self._calibration or calibrate(self.config, frame.image)
            self._calibration = cal
            self._reader = BoardReader(cal)
        if self.record is not None:
            self.record.frame = frame.image
        out = self.handle_inputs(frame.t)
        obs = self._reader.read(frame.image, frame.index)
        out += self.step(obs, frame.t)
        if self.signals is not None:
            self.signals.tick(frame.t)
        if self.link is not None:
            self.link.poll(self.clock())
        self.frames += 1
        return out

    def run(self, *, max_frames: int | None = None, pace: float = 0.0,
            on_frame: Callable[[Frame, list[Event]], None] | None = None) -> int:
        """Read frames until the camera runs dry (or ``max_frames``); ``pace`` > 0 plays in real time."""
        if self.camera is None:
            from tavli_pi.vision.camera import open_camera

            self.camera = open_camera(self.config.camera, fps=self.config.fps)
        tick = getattr(self.notifier, "tick", None)
        if self.notifier is not None:
            self.notifier.ready(f"table {self.config.table_id}: " + ", ".join(self.wired or ["no outputs"]))
        if tick is not None:
            tick(self.clock())  # the first frame may be slow (calibration): feed the watchdog first
        start = self.clock()
        while max_frames is None or self.frames < max_frames:
            frame = self.camera.read()
            if frame is None:
                break
            got = self.process(frame)
            if on_frame is not None:
                on_frame(frame, got)
            if tick is not None:
                tick(self.clock())
            if pace > 0:
                wait = start + frame.t * pace - self.clock()
                if wait > 0:
                    time.sleep(wait)
            if self.referee.phase == "match_over" and self._inputs.empty():
                break
        return 0

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.notifier is not None:
            stopping = getattr(self.notifier, "stopping", None)
            if stopping is not None:
                stopping()
        for sink in reversed(self.sinks):
            try:
                sink.close()
            except Exception as exc:  # noqa: BLE001 - one output failing must not keep the others open
                warnings.warn(f"closing {type(sink).__name__} failed ({exc}); the other outputs were closed",
                              TavliWarning, stacklevel=2)
        if self.camera is not None:
            self.camera.close()
        if self.notifier is not None and hasattr(self.notifier, "close"):
            self.notifier.close()

    def __enter__(self) -> TableApp:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _FeedSink(EventSink):
    def __init__(self, feed: Any) -> None:
        self.feed = feed

    def handle(self, event: Event) -> None:
        self.feed.publish(event)

    def close(self) -> None:
        self.feed.close()

