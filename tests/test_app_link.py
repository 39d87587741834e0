"""The app's table-unit link over a real pty pair, the firmware's own loop on the other end.

``[link] port`` is the pty slave's path, opened by the app's TableLink through
pyserial; the firmware (main.Firmware with fake machine/neopixel/utime, from
tests/link/helpers.py) runs on the master. Time is the firmware's fake utime
clock, injected into the app, so nothing sleeps.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.link.protocol import NONE_SIDE
from tavli_pi.referee.events import ClockReading
from tavli_pi.rules.position import Side

from tests.firmware.conftest import fw  # noqa: F401  (the firmware modules with fake hardware)
from tests.link.helpers import PtyBench
from tests.test_app import calibration, config, synthetic_opening, synthetic_setup

FW = dict[str, ModuleType]


def press(bench: PtyBench, pin_number: int) -> None:
    """A paddle pressed and released on the unit (held past its debounce)."""
    import machine

    pin = machine.PINS[pin_number]
    pin.drive(0)
    bench.run(60)
    pin.drive(1)
    bench.run(60)


def test_the_table_unit_shows_the_state_and_its_paddles_press_the_clock(fw: FW, tmp_path: Path) -> None:  # noqa: F811
    bench = PtyBench(fw)
    bench.link.close()  # never opened: the app brings its own TableLink on the same pty
    cfg = parse_config(config(tmp_path, f"[link]\nport = '{bench.path}'\n[clock]\nenabled = true\n"))

    def now() -> float:
        return float(bench.utime.NOW[0]) / 1000

    app = TableApp(cfg, calibration=calibration(), pin_factory=MockFactory(), clock=now)
    try:
        assert f"link:{bench.path}" in app.wired and "signals" in app.wired  # GPIO paddles off: the unit has them
        bench.link = app.link
        bench.run(100)
        assert app.link.ready, app.link.last_error
        unit = bench.firmware.unit
        synthetic_setup(app, now())
        assert [e.kind for e in synthetic_opening(app, now())] == ["opening_roll"]  # White 5-2
        bench.run(50)
        assert unit.score == (0, 0, 3, False)
        assert unit.clock is not None and unit.clock[:3] == (360_000, 360_000, NONE_SIDE)  # stopped
        assert unit.turn == int(Side.WHITE)

        press(bench, fw["pins"].PADDLE_WHITE)  # the opening winner may not start the clock
        assert [e.kind for e in app.handle_inputs(now())] == ["action_refused"]
        press(bench, fw["pins"].PADDLE_BLACK)  # the loser of the opening roll starts White's clock
        assert app.link.stats.paddles == 2
        got = app.handle_inputs(now())
        assert [e.kind for e in got] == ["clock_reading"]
        r = got[0]
        assert isinstance(r, ClockReading) and r.side is Side.WHITE and r.extra["pressed_by"] == "black"
        pressed_at = r.at
        bench.run(50)
        assert unit.clock is not None and unit.clock[:3] == (360_000, 360_000, int(Side.WHITE))

        bench.run(20_000, step=500)  # White thinks for 20 s: 12 s free, then the reserve runs, on both ends
        press(bench, fw["pins"].PADDLE_WHITE)
        got = app.handle_inputs(now())
        assert isinstance(got[0], ClockReading) and got[0].side is Side.BLACK
        white_left = 360.0 - (got[0].at - pressed_at - 12.0)
        assert abs(got[0].remaining[0] - white_left) < 1e-6
        bench.run(50)
        assert unit.clock is not None and unit.clock[2] == int(Side.BLACK)
        assert unit.clock[0] == round(white_left * 1000)
    finally:
        app.close()
        bench.close()
