"""The serial link to the table unit (Raspberry Pi Pico, firmware/).

:class:`TableLink` is an output of the referee: ``handle(event)`` turns events
into LED/clock/score commands; ``poll(now)``, called from the app's loop, does
all I/O: handshake, acknowledgements and retries, heartbeats, reconnecting
after the cable is pulled, and paddle presses coming back (``on_paddle``).
Time is a parameter (``now``, seconds) so tests never sleep. I/O errors never
escape ``poll``: the link reports them in ``last_error`` and reconnects.

The port is a pyserial URL (``/dev/ttyACM0`` on the Pi, ``loop://`` or a pty
in tests, ``spy:///dev/ttyACM0`` to hexdump traffic) or a callable returning
an open serial object. Protocol: firmware/PROTOCOL.md.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import serial

from tavli_pi.link import protocol as P
from tavli_pi.link.mapping import Command, EventMapper
from tavli_pi.referee.events import Event
from tavli_pi.rules.position import Side

__all__ = ["TableLink", "LinkTiming", "LinkStats", "SerialLike", "open_url"]


class SerialLike(Protocol):
    """What the link needs of a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """Seconds. The unit's own values are in firmware/unit.py (PROTOCOL.md)."""

    heartbeat: float = 0.5  # send a heartbeat after this long without sending
    silence: float = 2.0  # the unit is gone after this long without a good frame
    retry: float = 0.25  # resend an unacknowledged frame after this long
    max_tries: int = 4  # sends of one frame before the link is dropped
    reconnect: float = 1.0  # wait between attempts to open the port
    incompatible_retry: float = 10.0  # wait before asking a wrong-version unit again


@dataclass
class LinkStats:
    """Counters; ``rejected`` is by reason (cobs, short, long, crc, payload, unexpected)."""

    rejected: dict[str, int] = field(default_factory=dict)
    frames_in: int = 0
    frames_out: int = 0
    retries: int = 0
    naks: int = 0
    duplicates: int = 0
    reconnects: int = 0
    paddles: int = 0

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected.values())


def open_url(url: str) -> Callable[[], SerialLike]:
    """A port factory for a pyserial URL, non-blocking reads."""

    def factory() -> SerialLike:
        port: SerialLike = serial.serial_for_url(url, baudrate=115200, timeout=0, write_timeout=1.0)
        return port

    return factory


_STATE_ORDER = (P.MsgType.SCENE, P.MsgType.CLOCK, P.MsgType.SCORE)
_TYPE_OF: dict[type[Any], P.MsgType] = {
    P.Scene: P.MsgType.SCENE,
    P.ClockSet: P.MsgType.CLOCK,
    P.ScoreSet: P.MsgType.SCORE,
    P.Buzz: P.MsgType.BUZZ,
}


class TableLink:
    """One table unit on one serial port. Thread-safe: ``handle`` and ``poll``
    may be called from different threads."""

    def __init__(
        self,
        port: str | Callable[[], SerialLike],
        *,
        on_paddle: Callable[[Side], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        timing: LinkTiming = LinkTiming(),
    ) -> None:
        self._factory = open_url(port) if isinstance(port, str) else port
        self._name = port if isinstance(port, str) else getattr(port, "__name__", "port")
        self.on_paddle = on_paddle
        self._clock = clock
        self.timing = timing
        self.stats = LinkStats()
        self.mapper = EventMapper()
        self.firmware: P.HelloAck | None = None
        self.last_error = ""
        self._lock = threading.RLock()
        self._decoder = P.FrameDecoder()
        self._port: SerialLike | None = None
        self._state = "disconnected"
        self._closed = False
        self._seq = 0
        self._hello_seq = 0
        self._unit_seq = -1  # last reliable seq accepted from the unit
        self._pending: list[Any] | None = None  # [seq, type, payload, sent_at, tries, command]
        self._dirty: set[P.MsgType] = set(_STATE_ORDER)
        self._oneshots: deque[Command] = deque(maxlen=4)
        self._last_rx = 0.0
        self._last_tx = 0.0
        self._next_attempt = float("-inf")

    # -- public ----------------------------------------------------------------
    @property
    def state(self) -> str:
        """``disconnected``, ``handshaking``, ``ready`` or ``incompatible``."""
        return self._state

    @property
    def ready(self) -> bool:
        return self._state == "ready"

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def sent_view_pending(self) -> bool:
        """True while some of the current view is not yet acknowledged by the unit."""
        return bool(self._dirty) or self._pending is not None

    def handle(self, event: Event) -> None:
        """Map an event to the unit's view; the changes go out on the next ``poll``."""
        with self._lock:
            for cmd in self.mapper.apply(event):
                if isinstance(cmd, P.Buzz):
                    if self._state == "ready":
                        self._oneshots.append(cmd)
                else:
                    self._dirty.add(_TYPE_OF[type(cmd)])

    def poll(self, now: float | None = None) -> None:
        """Read, dispatch, resend, heartbeat, reconnect: everything due at ``now``."""
        if now is None:
            now = self._clock()
        with self._lock:
            if self._closed:
                return
            if self._port is None:
                if now >= self._next_attempt:
                    self._connect(now)
                return
            self._read(now)
            if self._port is not None:
                self._timers(now)

    def close(self) -> None:
        """Blank the unit (best effort) and close the port. Idempotent."""
        with self._lock:
            if self._closed:
                return
            if self._port is not None and self._state == "ready":
                self._write(P.encode_frame(self._next_seq(), P.MsgType.BLANK), self._last_tx)
            self._close_port()
            self._closed = True
            self._state = "disconnected"

    def __enter__(self) -> TableLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- connection ---------------------------------------------------------------
    def _connect(self, now: float) -> None:
        try:
            self._port = self._factory()
        except (serial.SerialException, OSError, ValueError) as exc:
            self._fail(now, f"cannot open the table unit port {self._name}: {exc}; "
                       "check the Pico's USB cable and the configured port")
            return
        self._decoder.reset()
        self._state = "handshaking"
        self._pending = None
        self._last_rx = now
        self._seq = (self._seq + 1) & 0xFF
        self._hello_seq = self._seq
        hello = P.encode_frame(self._hello_seq, P.MsgType.HELLO, P.Hello().pack())
        self._pending = [self._hello_seq, P.MsgType.HELLO, P.Hello().pack(), now, 1, None]
        self._write(b"\x00" + hello, now)  # the leading 0x00 ends any garbage on the line

    def _fail(self, now: float, reason: str, wait: float | None = None) -> None:
        if self._port is not None:
            self.stats.reconnects += 1
        self._close_port()
        self.last_error = reason
        self._state = "disconnected"
        self._pending = None
        self._oneshots.clear()
        self._dirty = set(_STATE_ORDER)
        self._next_attempt = now + (self.timing.reconnect if wait is None else wait)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    # -- I/O --------------------------------------------------------------------------
    def _write(self, data: bytes, now: float) -> None:
        if self._port is None:
            return
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._fail(now, f"writing to the table unit failed ({exc}); reconnecting")
            return
        self._last_tx = now
        self.stats.frames_out += 1

    def _read(self, now: float) -> None:
        assert self._port is not None
        try:
            waiting = self._port.in_waiting
            data = self._port.read(max(waiting, 1))
        except (serial.SerialException, OSError) as exc:
            self._fail(now, f"reading from the table unit failed ({exc}); reconnecting")
            return
        if not data:
            return
        rejected_before = dict(self._decoder.rejected)
        frames = self._decoder.feed(data)
        for reason, n in self._decoder.rejected.items():
            if n != rejected_before.get(reason, 0):
                self._reject(reason, n - rejected_before.get(reason, 0))
        for frame in frames:
            self.stats.frames_in += 1
            self._last_rx = now
            self._dispatch(frame, now)
            if self._port is None:
                return

    def _reject(self, reason: str, n: int = 1) -> None:
        self.stats.rejected[reason] = self.stats.rejected.get(reason, 0) + n

    def _send_control(self, mtype: P.MsgType, payload: bytes, now: float) -> None:
        self._write(P.encode_frame(0, mtype, payload), now)

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    # -- frames ------------------------------------------------------------------------
    def _dispatch(self, frame: P.Frame, now: float) -> None:
        t = frame.type
        if t == P.MsgType.HEARTBEAT:
            return
        if t == P.MsgType.HELLO_ACK:
            self._on_hello_ack(frame, now)
        elif t == P.MsgType.ACK:
            acked = frame.payload[0] if len(frame.payload) == 1 else None
            if acked is None:
                self._reject("payload")
            elif self._pending is not None and acked == self._pending[0] and self._pending[1] != P.MsgType.HELLO:
                self._pending = None
                self._send_next(now)
        elif t == P.MsgType.NAK:
            nak = P.Nak.unpack(frame.payload)
            if nak is None:
                self._reject("payload")
                return
            self.stats.naks += 1
            if self._state == "handshaking":
                self._fail(now, f"the table unit refused the handshake (reason {nak.reason}); "
                           "is something else on this port?")
            elif nak.reason == P.NakReason.NOT_READY:
                self._fail(now, "the table unit lost the handshake (restarted?); reconnecting", wait=0.0)
            elif self._pending is not None and nak.seq == self._pending[0]:
                self.last_error = f"the table unit refused message type {self._pending[1]:#04x} " \
                                  f"(reason {nak.reason}); update the firmware"
                self._pending = None
                self._send_next(now)
        elif t == P.MsgType.PADDLE:
            self._on_paddle(frame, now)
        else:
            self._reject("unexpected")
            if t in P.RELIABLE:
                self._send_control(P.MsgType.NAK, P.Nak(frame.seq, P.NakReason.TYPE).pack(), now)

    def _on_hello_ack(self, frame: P.Frame, now: float) -> None:
        ack = P.HelloAck.unpack(frame.payload)
        if ack is None:
            self._reject("payload")
            return
        if self._state != "handshaking" or ack.hello_seq != self._hello_seq:
            self._reject("unexpected")
            return
        self.firmware = ack
        if ack.major != P.PROTO_MAJOR:
            self._fail(now, f"the table unit speaks protocol {ack.major}.{ack.minor}, this link "
                       f"{P.PROTO_MAJOR}.{P.PROTO_MINOR}: flash the firmware from this checkout (firmware/)",
                       wait=self.timing.incompatible_retry)
            self._state = "incompatible"
            return
        self._state = "ready"
        self.last_error = ""
        self._unit_seq = 0  # the unit numbers its reliable frames from 1 after a handshake
        self._pending = None
        self._dirty = set(_STATE_ORDER)  # re-send the whole current view
        self._send_next(now)

    def _on_paddle(self, frame: P.Frame, now: float) -> None:
        if self._state != "ready":
            self._reject("unexpected")
            self._send_control(P.MsgType.NAK, P.Nak(frame.seq, P.NakReason.NOT_READY).pack(), now)
            return
        if frame.seq == self._unit_seq:
            self.stats.duplicates += 1
            self._send_control(P.MsgType.ACK, bytes((frame.seq,)), now)
            return
        paddle = P.Paddle.unpack(frame.payload)
        if paddle is None:
            self._reject("payload")
            self._send_control(P.MsgType.NAK, P.Nak(frame.seq, P.NakReason.PAYLOAD).pack(), now)
            return
        self._unit_seq = frame.seq
        self._send_control(P.MsgType.ACK, bytes((frame.seq,)), now)
        self.stats.paddles += 1
        if self.on_paddle is not None:
            self.on_paddle(Side(paddle.side))

    # -- sending the view ----------------------------------------------------------------
    def _send_next(self, now: float) -> None:
        if self._pending is not None or self._state != "ready":
            return
        cmd: Command | None = None
        for mtype in _STATE_ORDER:
            if mtype in self._dirty:
                self._dirty.discard(mtype)
                cmd = self.mapper.view.commands()[_STATE_ORDER.index(mtype)]
                break
        if cmd is None and self._oneshots:
            cmd = self._oneshots.popleft()
        if cmd is None:
            return
        mtype = _TYPE_OF[type(cmd)]
        seq = self._next_seq()
        payload = cmd.pack()
        self._pending = [seq, mtype, payload, now, 1, cmd]
        self._write(P.encode_frame(seq, mtype, payload), now)

    def _timers(self, now: float) -> None:
        t = self.timing
        if self._state == "ready" and now - self._last_rx > t.silence:
            self._fail(now, f"the table unit sent nothing for {t.silence:g} s; reconnecting")
            return
        if self._pending is not None and now - self._pending[3] >= t.retry:
            if self._pending[4] >= t.max_tries:
                what = "handshake" if self._pending[1] == P.MsgType.HELLO else "acknowledgement"
                self._fail(now, f"no {what} from the table unit after {t.max_tries} tries; "
                           "is the firmware flashed and running?")
                return
            self._pending[3] = now
            self._pending[4] += 1
            self.stats.retries += 1
            self._write(P.encode_frame(self._pending[0], self._pending[1], self._pending[2]), now)
        if self._state == "ready":
            self._send_next(now)
            if now - self._last_tx >= t.heartbeat:
                self._send_control(P.MsgType.HEARTBEAT, b"", now)
