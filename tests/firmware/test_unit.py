"""firmware/unit.py: the table unit's protocol state machine, under CPython."""

from __future__ import annotations

from types import ModuleType
from typing import Any

FW = dict[str, ModuleType]


def _frames(fw: FW, u: Any) -> list[tuple[int, int, bytes]]:
    return fw["proto"].Deframer().feed(u.take_output())  # type: ignore[no-any-return]


def _connected(fw: FW, now: int = 0) -> Any:
    p = fw["proto"]
    u = fw["unit"].TableUnit(now=now)
    u.receive(p.encode_frame(10, p.HELLO, p.pack_hello()), now)
    u.take_output()
    return u


def test_commands_before_the_handshake_are_refused(fw: FW) -> None:
    p = fw["proto"]
    u = fw["unit"].TableUnit()
    u.receive(p.encode_frame(3, p.SCORE, p.pack_score(1, 2, 3, False)), 5)
    assert _frames(fw, u) == [(0, p.NAK, p.pack_nak(3, p.NAK_NOT_READY))]
    assert u.score is None


def test_duplicate_is_acked_but_not_applied_twice(fw: FW) -> None:
    p = fw["proto"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.BUZZ, p.pack_buzz(1)), 100)
    assert _frames(fw, u) == [(0, p.ACK, b"\x0b")]
    u.receive(p.encode_frame(11, p.BUZZ, p.pack_buzz(1)), 300)
    assert _frames(fw, u) == [(0, p.ACK, b"\x0b")]
    assert u.counts["applied"] == 1 and u.counts["duplicates"] == 1
    assert u.buzz == (1, 100)  # the beep was not restarted by the retry


def test_bad_payload_and_unknown_type_are_nakked(fw: FW) -> None:
    p = fw["proto"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.CLOCK, b"\x00\x01"), 1)
    u.receive(p.encode_frame(12, 0x77, b""), 2)
    assert _frames(fw, u) == [(0, p.NAK, p.pack_nak(11, p.NAK_PAYLOAD)), (0, p.NAK, p.pack_nak(12, p.NAK_TYPE))]
    assert u.clock is None


def test_heartbeat_cadence_and_silence(fw: FW) -> None:
    p = fw["proto"]
    unit = fw["unit"]
    u = _connected(fw)
    beats = 0
    for t in range(0, 1900, 10):
        u.poll(t)
        beats += sum(1 for f in _frames(fw, u) if f[1] == p.HEARTBEAT)
    assert beats == 1900 // unit.HEARTBEAT_MS
    assert u.connected
    u.poll(unit.SILENCE_MS + 1)
    assert u.state == "silent" and not u.connected
    # a heartbeat from a Pi that did not notice is answered "not ready"
    u.receive(p.encode_frame(0, p.HEARTBEAT), 3000)
    assert _frames(fw, u) == [(0, p.NAK, p.pack_nak(0, p.NAK_NOT_READY))]


def test_works_across_the_tick_wraparound(fw: FW) -> None:
    ticks = fw["ticks"]
    unit = fw["unit"]
    start = ticks.PERIOD - 300
    u = _connected(fw, now=start)
    u.poll(ticks.add(start, 600))  # 600 ms later, past the wrap: not silent
    assert u.connected
    u.poll(ticks.add(start, unit.SILENCE_MS + 50))
    assert u.state == "silent"


def test_paddle_switches_the_clock_locally_at_once(fw: FW) -> None:
    p = fw["proto"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.CLOCK, p.pack_clock(60_000, 60_000, p.WHITE)), 0)
    u.paddle(p.WHITE, 10_000)
    assert u.clock[2] == p.BLACK
    assert u.clock_ms(20_000) == (50_000, 50_000)


def test_score_flash_then_clocks(fw: FW) -> None:
    p = fw["proto"]
    unit = fw["unit"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.CLOCK, p.pack_clock(90_000, 30_000, p.NONE)), 0)
    u.receive(p.encode_frame(12, p.SCORE, p.pack_score(0, 0, 5, False)), 0)
    assert u.displays(1) == ((" 130", True), (" 030", True))  # first score: no flash
    u.receive(p.encode_frame(13, p.SCORE, p.pack_score(2, 0, 5, False)), 100)
    assert u.displays(200) == ((" 2 5", True), (" 0 5", True))
    assert u.displays(100 + unit.SCORE_FLASH_MS) == ((" 130", True), (" 030", True))


def test_buzzer_patterns(fw: FW) -> None:
    p = fw["proto"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.BUZZ, p.pack_buzz(2)), 1000)
    levels = [u.buzzer(1000 + t) for t in (0, 119, 120, 199, 200, 319, 320)]
    assert levels == [True, True, False, False, True, True, False]
    assert u.buzz is None


def test_blank_clears_everything(fw: FW) -> None:
    p = fw["proto"]
    u = _connected(fw)
    u.receive(p.encode_frame(11, p.SCENE, p.pack_scene(0, bytes([1] * 27))), 0)
    assert u.pixels(0) != fw["scene"].blank()
    u.receive(p.encode_frame(12, p.BLANK), 1)
    assert u.pixels(1) == fw["scene"].blank()


def test_strip_route_covers_every_led_once(fw: FW) -> None:
    route = fw["scene"].STRIP_ROUTE
    assert sorted(route) == list(range(27))
    assert route[0] == fw["scene"].WHITE_TRAY and route[-1] == fw["scene"].BLACK_TRAY
