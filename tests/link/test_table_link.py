"""TableLink against the real firmware logic (unit.TableUnit) over an in-memory wire.

Time is the bench's fake clock; nothing sleeps.
"""

from __future__ import annotations

import random
from types import ModuleType

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli_pi.link import protocol as P
from tavli_pi.link.table_link import LinkTiming, TableLink
from tavli_pi.referee import events as ev
from tavli_pi.rules.position import Side

from tests.link.events_factory import AFTER_31, START, state
from tests.link.helpers import MemBench

FW = dict[str, ModuleType]


def _play() -> ev.PlayAccepted:
    return ev.PlayAccepted(at=1.0, state=state(position=AFTER_31, score=(1, 2), match_length=7), side=Side.WHITE,
                           dice=(3, 1), play="8/5 6/5", before=START, after=AFTER_31)


def _clock(white: float, black: float) -> ev.ClockReading:
    st = state(position=AFTER_31, clocks=(white, black), score=(1, 2), match_length=7)
    return ev.ClockReading(at=1.0, state=st, side=Side.BLACK,
                           remaining=(white, black))


def _ready(fw: FW) -> MemBench:
    b = MemBench(fw)
    b.run(50)
    assert b.link.state == "ready", b.link.last_error
    return b


def test_handshake_then_the_view_reaches_the_unit(fw: FW) -> None:
    b = _ready(fw)
    assert b.link.firmware == P.HelloAck(b.link._hello_seq, 1, 0, fw["unit"].FW_VERSION, 27)
    assert b.unit.connected
    b.link.handle(_play())
    b.link.handle(_clock(600.0, 545.0))
    b.run(100)
    assert not b.link.sent_view_pending
    assert b.unit.turn == 1
    assert [i for i, r in enumerate(b.unit.roles) if r] == [4, 5, 7]
    assert b.unit.score == (1, 2, 7, False)
    # a new score shows for a while, then the clocks; Black's runs on the unit between updates
    assert b.unit.displays(b.now_ms) == ((" 1 7", True), (" 2 7", True))
    b.run(5000)
    assert b.unit.displays(b.now_ms) == (("1000", True), (" 900", True))


def test_heartbeats_keep_both_sides_connected(fw: FW) -> None:
    b = _ready(fw)
    b.run(20_000)
    assert b.link.state == "ready" and b.unit.connected
    assert b.link.stats.reconnects == 0 and b.link.stats.retries == 0


def test_paddle_press_calls_back_once_even_when_the_ack_is_lost(fw: FW) -> None:
    b = _ready(fw)
    drop = {"acks": 1}

    def lose_first_ack(data: bytes) -> bytes:
        frames = P.FrameDecoder().feed(data)
        if drop["acks"] and any(f.type == P.MsgType.ACK for f in frames):
            drop["acks"] -= 1
            return b""
        return data

    b.tap_to_unit = lose_first_ack
    b.unit.paddle(1, b.now_ms)
    b.run(1000)
    assert b.paddles == [Side.BLACK]
    assert b.unit.counts["retries"] >= 1  # the unit re-sent the press ...
    assert b.link.stats.duplicates == 1  # ... and the link acknowledged it without acting twice
    assert b.unit.pending is None


def test_lost_frames_are_retried(fw: FW) -> None:
    b = _ready(fw)
    b.run(200)
    lost = {"n": 2}

    def lose_two(data: bytes) -> bytes:
        if lost["n"] and data:
            lost["n"] -= 1
            return b""
        return data

    b.tap_to_unit = lose_two
    b.link.handle(_play())
    b.run(1000)
    assert b.link.stats.retries >= 1
    assert [i for i, r in enumerate(b.unit.roles) if r] == [4, 5, 7]
    assert b.link.state == "ready"


def test_cable_pulled_and_plugged_back_resends_the_state(fw: FW) -> None:
    b = _ready(fw)
    b.link.handle(_play())
    b.run(100)
    b.wire.cut = True
    b.fail_opens = 3  # the device node is gone for a while
    b.run(3000)
    assert b.link.state == "disconnected"
    assert "check the Pico's USB cable" in b.link.last_error
    assert b.unit.state == "silent" and b.unit.pixels(b.now_ms) == fw["scene"].blank()
    b.link.handle(_clock(300.0, 200.0))  # events go on while unplugged
    b.unit = fw["unit"].TableUnit(now=b.now_ms)  # replugging power-cycles the Pico
    b.run(5000)
    assert b.link.state == "ready"
    assert b.link.stats.reconnects >= 1
    assert [i for i, r in enumerate(b.unit.roles) if r] == [4, 5, 7]
    assert b.unit.clock is not None and b.unit.clock[:2] <= (300000, 200000)


def test_unit_silent_means_reconnect(fw: FW) -> None:
    b = _ready(fw)
    b.tap_to_link = lambda data: b""  # the unit's replies vanish
    b.run(2600)
    assert b.link.stats.reconnects >= 1
    assert "sent nothing" in b.link.last_error or "no " in b.link.last_error
    b.tap_to_link = lambda data: data
    b.run(3000)
    assert b.link.state == "ready"


def test_unit_restarted_behind_the_links_back_is_handshaken_again(fw: FW) -> None:
    b = _ready(fw)
    b.link.handle(_play())
    b.run(100)
    b.unit = fw["unit"].TableUnit(now=b.now_ms)  # brown-out reset: the unit forgets the handshake
    b.link.handle(_clock(60.0, 60.0))
    b.run(3000)
    assert b.link.state == "ready"
    assert b.link.stats.naks >= 1
    assert [i for i, r in enumerate(b.unit.roles) if r] == [4, 5, 7]
    assert b.unit.clock is not None


def test_incompatible_firmware_is_reported_not_driven(fw: FW) -> None:
    b = MemBench(fw)
    fw["proto"].PROTO_MAJOR = 2  # a unit flashed with a future protocol
    fw["unit"].proto.PROTO_MAJOR = 2
    b.run(300)
    assert b.link.state == "incompatible"
    assert "flash the firmware" in b.link.last_error
    assert b.unit.displays(b.now_ms)[0] == fw["display"].BAD_VERSION


def test_garbage_from_the_unit_is_counted_and_ignored(fw: FW) -> None:
    b = _ready(fw)
    rng = random.Random(6)
    good = P.encode_frame(0, P.MsgType.HEARTBEAT)
    junk = bytes(rng.randrange(256) for _ in range(2000))
    b.wire.to_link += junk + b"\x00" + good[:3] + b"\x00" + P.encode_frame(0, 0x77, b"??")
    b.run(200)
    assert b.link.state == "ready"
    assert b.link.stats.rejected_total > 0
    assert b.link.stats.rejected.get("unexpected") == 1  # well-formed but unknown type 0x77
    b.link.handle(_play())
    b.run(200)
    assert [i for i, r in enumerate(b.unit.roles) if r] == [4, 5, 7]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.binary(min_size=1, max_size=80), max_size=8), st.integers(0, 2**32 - 1))
def test_fuzz_random_and_truncated_frames_never_crash_or_act(fw: FW, chunks: list[bytes], seed: int) -> None:
    rng = random.Random(seed)
    b = _ready(fw)
    for chunk in chunks:
        kind = rng.randrange(3)
        if kind == 0:  # raw garbage
            b.wire.to_link += chunk
        elif kind == 1:  # a truncated PADDLE frame
            wire = P.encode_frame(rng.randrange(256), P.MsgType.PADDLE, P.Paddle(0, 1).pack())
            b.wire.to_link += wire[: rng.randrange(1, len(wire) - 1)] + b"\x00"
        else:  # a good frame with one flipped bit
            wire = bytearray(P.encode_frame(rng.randrange(256), P.MsgType.PADDLE, P.Paddle(1, 2).pack()))
            i = rng.randrange(len(wire) - 1)
            wire[i] ^= 1 << rng.randrange(8)
            b.wire.to_link += bytes(wire)
        b.run(20)
    b.run(100)
    assert b.paddles == []  # no bad frame was acted on
    assert b.link.state == "ready"


def test_loop_url_hears_only_itself_and_gives_up_cleanly() -> None:
    now = [0.0]
    link = TableLink("loop://", clock=lambda: now[0], timing=LinkTiming(max_tries=2))
    for _ in range(100):
        now[0] += 0.05
        link.poll()
    assert link.state in ("handshaking", "disconnected")
    assert link.stats.rejected.get("unexpected", 0) >= 1  # its own HELLO echoed back
    assert link.stats.reconnects >= 1 and "refused the handshake" in link.last_error
    link.close()
    assert link.closed


def test_bad_port_url_is_an_error_message_not_an_exception() -> None:
    link = TableLink("/dev/tavli-no-such-port", clock=lambda: 0.0)
    link.poll()
    assert link.state == "disconnected"
    assert "cannot open the table unit port /dev/tavli-no-such-port" in link.last_error
