"""The app: one table from one config, real SQLite log, mock GPIO, resume after a crash.

The feed, the table-unit link and the systemd watchdog have their own files
(tests/test_app_feed.py, test_app_link.py, test_app_watchdog.py); they share
the helpers here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.display.view import view_of
from tavli_pi.errors import TavliWarning
from tavli_pi.record.store import MatchLog
from tavli_pi.referee.events import ClockReading, Event, EventSink
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import Scene, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Frame

from tests.referee.synth import die, observe

__all__ = ["config", "calibration", "synthetic_setup", "synthetic_opening"]


def config(tmp_path: Path, extra: str = "") -> str:
    return (f"[table]\nmatch_length = 3\n[record]\nlog = '{tmp_path / 'table.sqlite'}'\n"
            "[signals]\nenabled = true\npin_factory = 'mock'\n" + extra)


def calibration() -> Calibration:
    r = render(scene_from_position(Position.start()))
    return Calibration(r.truth.corners)


def test_frames_reach_the_referee_and_the_log_with_proving_frames(tmp_path: Path) -> None:
    cfg = parse_config(config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(Position.start()), 3)], fps=10.0)
    with TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory()) as app:
        assert app.run() == 0
        kinds = [e.kind for e in app.events]
        assert kinds == ["setup_checked", "game_started"]
        assert app.referee.phase == "opening"
        assert app.signals.value("green")  # the set-up flash
        assert "signals" in app.wired and any(w.startswith("record:") for w in app.wired)
    log = MatchLog.open(tmp_path / "table.sqlite")
    try:
        logged = list(log.events())
        assert [x.event.kind for x in logged] == kinds
        assert log.frame(logged[0].seq)[:2] == b"\xff\xd8"  # a JPEG
    finally:
        log.close()


def test_a_stop_asked_for_ends_the_loop_between_frames(tmp_path: Path) -> None:
    """``run(stop=...)`` (SIGTERM in ``tavli-pi run``) ends after the frame in hand, an endless camera too."""
    import threading

    cfg = parse_config(config(tmp_path))
    stop = threading.Event()

    def endless() -> Iterator[tuple[Scene, int]]:
        while True:
            yield scene_from_position(Position.start()), 1

    cam = SimCamera(endless(), fps=10.0)
    seen: list[int] = []

    def on_frame(frame: Frame, _events: list[Event]) -> None:
        seen.append(frame.index)
        if len(seen) == 3:
            stop.set()

    with TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory()) as app:
        assert app.run(on_frame=on_frame, stop=stop) == 0
        assert app.frames == 3 and seen == [0, 1, 2]
        assert [e.kind for e in app.events] == ["setup_checked", "game_started"]


def test_inputs_are_queued_between_frames(tmp_path: Path) -> None:
    cfg = parse_config(config(tmp_path))
    cam = SimCamera([(scene_from_position(Position.start()), 2)], fps=10.0)
    with TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory()) as app:
        app.submit(PlayerInput(Action.DOUBLE))
        app.run()
        assert [e.kind for e in app.events][0] == "action_refused"  # no double during the set-up


def test_resume_after_a_crash_from_the_log(tmp_path: Path) -> None:
    cfg = parse_config(config(tmp_path))
    cam = SimCamera([(scene_from_position(Position.start()), 2)], fps=10.0)
    app = TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory())
    app.run()
    app.record.log.close()  # the process dies: nothing else is closed
    cam2 = SimCamera([(scene_from_position(Position.start()), 1)], fps=10.0)
    with TableApp(cfg, camera=cam2, calibration=calibration(), pin_factory=MockFactory()) as again:
        assert any(w.startswith("resumed at event 2") for w in again.wired)
        # exactly where it stopped: set-up checked and the game started, so the opening roll is due
        # (it used to resume in "setup" and log the set-up and the game start a second time)
        assert again.referee.phase == "opening" and again.referee.game_number == 1
        again.run()
        assert [e.kind for e in again.events if e.kind in ("setup_checked", "game_started")] == []
    app.close()


# -- helpers shared by the app tests: the referee fed through the app with synthetic observations --------
def synthetic_setup(app: TableApp, now: float) -> list[Event]:
    """The starting position, seen twice (B3): set-up checked, game started."""
    out: list[Event] = []
    for k in range(2):
        out += app.step(observe(Position.start(), frame_index=k), now + 0.1 * k)
    return out


def synthetic_opening(app: TableApp, now: float, white: int = 5, black: int = 2) -> list[Event]:
    """The opening roll (E1): one die each, tumbling then still. White wins with the defaults."""
    dice = (die(white, "right"), die(black, "left"))
    moving = tuple(die(d.value, d.half, moving=True, confidence=0.3) for d in dice)
    out = app.step(observe(Position.start(), dice=moving, motion=True), now)
    for k in (1, 2):
        out += app.step(observe(Position.start(), dice=dice), now + 0.1 * k)
    return out


def test_gpio_paddles_press_the_clock_without_a_table_unit(tmp_path: Path) -> None:
    """[clock] enabled and no [link] port: the pinout's paddle buttons are the clock (USBGF 3.3)."""
    cfg = parse_config(config(tmp_path, "[clock]\nenabled = true\n"))
    factory = MockFactory()
    with TableApp(cfg, calibration=calibration(), pin_factory=factory) as app:
        assert "signals+paddles" in app.wired
        synthetic_setup(app, 1.0)
        assert [e.kind for e in synthetic_opening(app, 2.0)] == ["opening_roll"]
        pin = factory.pin(app.signals.pinout.paddles["black"])
        pin.drive_low()  # Black lost the opening roll: Black presses
        pin.drive_high()
        got = app.handle_inputs(5.0)
        assert [e.kind for e in got] == ["clock_reading"]
        r = got[0]
        assert isinstance(r, ClockReading) and r.side is Side.WHITE and r.remaining == (360.0, 360.0)
        assert app.events[-1] is r
        # 30 s later: 12 s delay, 18 s of White's reserve
        white = factory.pin(app.signals.pinout.paddles["white"])
        white.drive_low()
        white.drive_high()
        got = app.handle_inputs(35.0)
        assert isinstance(got[0], ClockReading) and got[0].remaining == (342.0, 360.0)
        assert got[0].state.clocks == (342.0, 360.0)  # what the display and the link show
        assert view_of(got[0], 1)["clocks"] == [342.0, 360.0]  # the page's clocks (display/view.py)


def test_without_a_clock_no_paddles_and_no_clocks(tmp_path: Path) -> None:
    cfg = parse_config(config(tmp_path))
    with TableApp(cfg, calibration=calibration(), pin_factory=MockFactory()) as app:
        assert "signals" in app.wired and "signals+paddles" not in app.wired
        assert all(e.state.clocks is None for e in synthetic_setup(app, 1.0))


def test_an_output_failing_to_close_is_reported_and_the_rest_still_close(tmp_path: Path) -> None:
    class Broken(EventSink):
        def handle(self, event: Event) -> None:
            pass

        def close(self) -> None:
            raise OSError("disk went away")

    cfg = parse_config(config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(Position.start()), 3)], fps=10.0)
    app = TableApp(cfg, camera=cam, calibration=calibration(), pin_factory=MockFactory())
    app.sinks.append(Broken())
    app.run()
    with pytest.warns(TavliWarning, match="closing Broken failed .*disk went away"):
        app.close()
    assert cam.closed
    log = MatchLog.open(tmp_path / "table.sqlite")  # the log was closed and is readable
    try:
        assert [x.event.kind for x in log.events()] == ["setup_checked", "game_started"]
    finally:
        log.close()


def test_home_auto_calibrates_from_the_first_frame(tmp_path: Path) -> None:
    from tavli_pi.app import calibrate

    r = render(scene_from_position(Position.start(), home="bottom-left"), seed=6)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cfg = parse_config(config(tmp_path, f"[camera]\ncorners = '{corners}'\n").replace("[table]\n", "[table]\nhome = 'auto'\n"))
    assert calibrate(cfg, r.image).home == "bottom-left"
