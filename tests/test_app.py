"""The app: one table from one config, real SQLite log, mock GPIO, resume after a crash."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.record.store import MatchLog
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.vision.calibration import Calibration


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
        assert again.referee.phase == "setup" and again.referee.game_number == 1
    app.close()
