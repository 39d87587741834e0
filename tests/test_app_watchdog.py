"""TableApp.run under systemd: READY=1, the watchdog fed at half WatchdogSec, STOPPING=1 on close.

A real unix datagram socket stands in for systemd's NOTIFY_SOCKET (sd_notify(3));
the app's clock is injected (the frame times), so the cadence is exact and nothing sleeps.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.scene import scene_from_position

from tests.test_app import calibration, config


def drain(sock: socket.socket) -> list[str]:
    out: list[str] = []
    while True:
        try:
            out.append(sock.recv(4096).decode())
        except BlockingIOError:
            return out


def test_run_says_ready_feeds_the_watchdog_and_says_stopping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify"
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(str(path))
    systemd.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")  # WatchdogSec=1: feed every 0.5 s
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    now = [0.0]
    seen: list[tuple[float, list[str]]] = []  # per frame: its time, and what systemd got before its tick

    def on_frame(frame, events):  # type: ignore[no-untyped-def]
        now[0] = frame.t
        seen.append((frame.t, drain(systemd)))

    cam = SimCamera([(scene_from_position(Position.start()), 10)], fps=4.0)  # t = 0, 0.25, ... 2.25
    try:
        app = TableApp(parse_config(config(tmp_path)), camera=cam, calibration=calibration(),
                       pin_factory=MockFactory(), clock=lambda: now[0])
        assert app.notifier.enabled and app.notifier.feed_interval == 0.5
        app.run(on_frame=on_frame)
        after_run = drain(systemd)
        app.close()
        at_close = drain(systemd)
    finally:
        systemd.close()
    assert app.frames == 10
    first = seen[0][1]  # before the first frame: ready, and the watchdog fed once (the first frame may be slow)
    assert len(first) == 2 and first[0].splitlines()[0] == "READY=1" and "STATUS=table table-1" in first[0]
    assert first[1] == "WATCHDOG=1"
    # the tick after frame k shows up in what systemd had before frame k + 1
    fed_after = [seen[k][0] for k in range(len(seen) - 1) if seen[k + 1][1] == ["WATCHDOG=1"]]
    assert all(m == [] for _, m in seen[1:] if m != ["WATCHDOG=1"])
    assert fed_after == [0.5, 1.0, 1.5, 2.0]
    assert after_run == []  # the last frame (2.25 s) was too soon after the feed at 2.0 s
    assert at_close == ["STOPPING=1"]


def test_without_notify_socket_nothing_is_sent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    cam = SimCamera([(scene_from_position(Position.start()), 1)], fps=4.0)
    with TableApp(parse_config(config(tmp_path)), camera=cam, calibration=calibration(),
                  pin_factory=MockFactory()) as app:
        app.run()
        assert not app.notifier.enabled and app.notifier.sent == 0
