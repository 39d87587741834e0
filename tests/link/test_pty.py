"""End to end over a real pty pair: TableLink (pyserial on the slave, by path)
against the firmware's hardware loop (main.Firmware with fake machine /
neopixel / utime) on the master. Time is the fake utime clock."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Callable
from types import ModuleType

from tavli_pi.referee import events as ev
from tavli_pi.rules.position import Side

from tests.link.events_factory import AFTER_31, START, state
from tests.link.helpers import PtyBench, PtyStream

FW = dict[str, ModuleType]


def _illegal() -> ev.IllegalPlay:
    st = state(phase="illegal", position=START, wrong_points=(6, 13))
    return ev.IllegalPlay(at=1.0, state=st, side=Side.WHITE, dice=(6, 5), before=START, observed=None,
                          wrong_points=(6, 13), nearest=("13/7 13/8",))


def _lit(strip: object, colour: tuple[int, int, int]) -> list[int]:
    return [i for i, c in enumerate(strip.shown) if c == colour]  # type: ignore[attr-defined]


def test_handshake_scene_and_paddle_over_a_pty(fw: FW) -> None:
    import machine
    import neopixel

    b = PtyBench(fw)
    try:
        b.run(100)
        assert b.link.state == "ready", b.link.last_error
        b.link.handle(_illegal())
        b.run(30)
        strip = neopixel.STRIPS[-1]
        route = fw["scene"].STRIP_ROUTE
        red = [route[i] for i in _lit(strip, (255, 0, 0))]
        assert sorted(red) == [5, 12]  # points 6 and 13 blink red (on phase)...
        b.run(250)
        assert _lit(strip, (255, 0, 0)) == []  # ... and off phase
        assert b.firmware.buzzer.history[:2] == [0, 1]  # the double beep started
        # Black presses the paddle: a 5 ms bounce, then held
        pin = machine.PINS[fw["pins"].PADDLE_BLACK]
        for level in (0, 1, 0, 1, 0):
            pin.drive(level)
            b.run(1, step=1)
        b.run(60)
        pin.drive(1)
        b.run(60)
        assert b.paddles == [Side.BLACK]
    finally:
        b.close()


def test_cable_pull_and_replug_resends_the_current_state(fw: FW) -> None:
    import neopixel

    b = PtyBench(fw)
    try:
        b.run(100)
        b.link.handle(ev.PlayAccepted(at=1.0, state=state(position=AFTER_31, score=(2, 1), match_length=5),
                                      side=Side.WHITE, dice=(3, 1), play="8/5 6/5", before=START, after=AFTER_31))
        b.run(100)
        assert b.firmware.unit.score == (2, 1, 5, False)
        b.pull()
        b.run(500)
        assert b.link.state == "disconnected"
        assert "reconnecting" in b.link.last_error or "cannot open" in b.link.last_error
        b.plug()  # a new device node, a freshly booted Pico
        b.run(3000)
        assert b.link.state == "ready", b.link.last_error
        assert b.link.stats.reconnects >= 1
        strip = neopixel.STRIPS[-1]
        route = fw["scene"].STRIP_ROUTE
        assert sorted(route[i] for i in _lit(strip, (0, 60, 0))) == [4, 5, 7]
        assert b.firmware.unit.score == (2, 1, 5, False)
    finally:
        b.close()


def test_pi_silence_blanks_the_strip_and_shows_an_error(fw: FW) -> None:
    import neopixel

    b = PtyBench(fw)
    try:
        b.run(100)
        b.link.handle(_illegal())
        b.run(30)
        b.run(2500, link=False)  # the Pi's process hangs: nothing from the link
        strip = neopixel.STRIPS[-1]
        assert strip.shown == [(0, 0, 0)] * 27
        seg = fw["display"].segments(*fw["display"].PI_SILENT)
        assert b.firmware.displays[0].shown == seg and b.firmware.displays[1].shown == seg
        b.run(3000)  # the Pi is back: it notices, handshakes again and restores the view
        assert b.link.state == "ready"
        b.run(10)
        assert sorted(fw["scene"].STRIP_ROUTE[i] for i in _lit(strip, (255, 0, 0))) == [5, 12]
    finally:
        b.close()


def test_garbage_both_ways_is_survived(fw: FW) -> None:
    b = PtyBench(fw)
    rng = random.Random(1)
    try:
        b.run(100)
        for _ in range(20):
            os.write(b.master, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120))))  # to the Pi
            os.write(b.slave, bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120))))  # to the unit
            b.run(20)
        b.run(1000)
        assert b.link.state == "ready"
        assert b.link.stats.rejected_total > 0
        assert sum(b.firmware.unit.deframer.rejected.values()) > 0
        b.link.handle(_illegal())
        b.run(30)
        assert b.firmware.unit.roles[5] == 2 and b.firmware.unit.roles[12] == 2
    finally:
        b.close()


def test_firmware_loop_in_a_thread(fw: FW) -> None:
    """The unit runs its own loop in a thread (as on the Pico); the clock stands
    still, so only the exchange of bytes moves things along."""
    import select

    b = PtyBench(fw)
    stop = threading.Event()

    def unit_loop() -> None:
        while not stop.is_set():
            select.select([b.master], [], [], 0.05)
            b.firmware.step()

    t = threading.Thread(target=unit_loop, daemon=True)
    t.start()
    try:

        def exchange_until(done: Callable[[], bool]) -> bool:
            for _ in range(400):  # a guard against hanging, not a timing assumption
                b.link.poll()
                if done():
                    return True
                port = b.link._port
                select.select([port.fd] if port is not None else [], [], [], 0.05)
            return False

        assert exchange_until(lambda: b.link.ready and not b.link.sent_view_pending), b.link.last_error
        b.link.handle(_illegal())
        assert b.link.sent_view_pending
        assert exchange_until(lambda: not b.link.sent_view_pending), b.link.last_error
        assert b.firmware.unit.roles[5] == 2 and b.firmware.unit.roles[12] == 2
    finally:
        stop.set()
        t.join(5)
        b.close()


def test_pty_stream_tolerates_a_closed_peer() -> None:
    m, s = os.openpty()
    os.close(s)
    stream = PtyStream(m)
    assert stream.read() == b""
    os.close(m)
