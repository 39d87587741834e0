"""The Pi's side of the table-unit wire protocol (firmware/PROTOCOL.md).

A frame on the wire is ``COBS(seq, type, payload..., crc_hi, crc_lo) 0x00``
with CRC-16/CCITT-FALSE over seq, type and payload. This module is pure:
bytes in, values out. The firmware has its own implementation
(firmware/proto.py, MicroPython subset); both are tested against
firmware/vectors.json.

Facts used: CRC-16/CCITT-FALSE is polynomial 0x1021, initial value 0xFFFF,
no reflection, no final xor, check value 0x29B1 for ``b"123456789"`` (the
"Catalogue of parametrised CRC algorithms", CRC-16/IBM-3740). COBS: Cheshire
and Baker, IEEE/ACM Trans. Networking 7(2), 1999.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum

__all__ = [
    "PROTO_MAJOR",
    "PROTO_MINOR",
    "MAX_PAYLOAD",
    "MAX_WIRE",
    "NO_CLOCK",
    "NONE_SIDE",
    "MsgType",
    "NakReason",
    "RELIABLE",
    "Frame",
    "crc16",
    "cobs_encode",
    "cobs_decode",
    "encode_frame",
    "decode_body",
    "FrameDecoder",
    "Hello",
    "HelloAck",
    "Scene",
    "ClockSet",
    "ScoreSet",
    "Buzz",
    "Paddle",
    "Nak",
]

PROTO_MAJOR = 1
PROTO_MINOR = 0
MAX_PAYLOAD = 96
MIN_BODY = 4
MAX_BODY = MAX_PAYLOAD + 4
MAX_WIRE = MAX_BODY + MAX_BODY // 254 + 1
NO_CLOCK = 0xFFFFFFFF
NONE_SIDE = 0xFF


class MsgType(IntEnum):
    HELLO = 0x01
    HELLO_ACK = 0x02
    ACK = 0x06
    NAK = 0x15
    HEARTBEAT = 0x10
    SCENE = 0x20
    CLOCK = 0x21
    SCORE = 0x22
    BUZZ = 0x23
    BLANK = 0x24
    PADDLE = 0x30


class NakReason(IntEnum):
    TYPE = 1
    PAYLOAD = 2
    NOT_READY = 3
    VERSION = 4


RELIABLE = frozenset(
    {MsgType.HELLO, MsgType.SCENE, MsgType.CLOCK, MsgType.SCORE, MsgType.BUZZ, MsgType.BLANK, MsgType.PADDLE}
)


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()


def crc16(data: bytes | bytearray, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data``."""
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ b]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no 0x00 byte."""
    out = bytearray()
    # Split at zeros; each piece is emitted in blocks of at most 254 bytes.
    pieces = data.split(b"\x00")
    for n, piece in enumerate(pieces):
        last_piece = n == len(pieces) - 1
        start = 0
        while True:
            block = piece[start : start + 254]
            start += len(block)
            if len(block) < 254:
                out.append(len(block) + 1)  # code < 0xFF: a zero follows (but not at the end)
                out += block
                break
            out.append(0xFF)  # a full block: no zero implied
            out += block
            if start == len(piece):
                if not last_piece:
                    out.append(0x01)  # the zero after this piece gets its own empty block
                break
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes | None:
    """Inverse of :func:`cobs_encode`; ``None`` for invalid COBS."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        block = data[i + 1 : i + code]
        if 0 in block:
            return None
        out += block
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    type: int
    payload: bytes = b""

    def encode(self) -> bytes:
        return encode_frame(self.seq, self.type, self.payload)


def encode_frame(seq: int, mtype: int, payload: bytes = b"") -> bytes:
    """One frame on the wire, trailing 0x00 delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((seq & 0xFF, mtype & 0xFF)) + payload
    crc = crc16(body)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def decode_body(encoded: bytes | bytearray) -> Frame | str:
    """Decode one delimiter-less frame: a :class:`Frame` or the rejection reason."""
    if len(encoded) > MAX_WIRE:
        return "long"
    body = cobs_decode(encoded)
    if body is None:
        return "cobs"
    if len(body) < MIN_BODY:
        return "short"
    if len(body) > MAX_BODY:
        return "long"
    if crc16(body[:-2]) != (body[-2] << 8 | body[-1]):
        return "crc"
    return Frame(body[0], body[1], bytes(body[2:-2]))


@dataclass
class FrameDecoder:
    """Split a byte stream at 0x00 into checked frames (a Packetizer without the thread).

    Bad frames are never returned; they are counted in ``rejected`` by reason:
    ``cobs``, ``short``, ``long``, ``crc``.
    """

    rejected: dict[str, int] = field(default_factory=lambda: {"cobs": 0, "short": 0, "long": 0, "crc": 0})
    _buf: bytearray = field(default_factory=bytearray)
    _discarding: bool = False

    def reset(self) -> None:
        self._buf.clear()
        self._discarding = False

    def feed(self, data: Iterable[int]) -> list[Frame]:
        frames: list[Frame] = []
        for b in data:
            if b == 0:
                if self._discarding:
                    self._discarding = False
                elif self._buf:
                    got = decode_body(self._buf)
                    if isinstance(got, str):
                        self.rejected[got] += 1
                    else:
                        frames.append(got)
                self._buf.clear()
            elif not self._discarding:
                self._buf.append(b)
                if len(self._buf) > MAX_WIRE:
                    self.rejected["long"] += 1
                    self._discarding = True
                    self._buf.clear()
        return frames


# -- message payloads --------------------------------------------------------
# Each message class packs to its payload bytes and ``unpack`` returns None
# for a malformed payload (the receiver NAKs it).


@dataclass(frozen=True, slots=True)
class Hello:
    major: int = PROTO_MAJOR
    minor: int = PROTO_MINOR

    def pack(self) -> bytes:
        return bytes((self.major, self.minor))

    @classmethod
    def unpack(cls, p: bytes) -> Hello | None:
        return cls(p[0], p[1]) if len(p) == 2 else None


@dataclass(frozen=True, slots=True)
class HelloAck:
    hello_seq: int
    major: int
    minor: int
    firmware: tuple[int, int, int]
    n_leds: int

    def pack(self) -> bytes:
        return bytes((self.hello_seq, self.major, self.minor, *self.firmware, self.n_leds))

    @classmethod
    def unpack(cls, p: bytes) -> HelloAck | None:
        if len(p) != 7:
            return None
        return cls(p[0], p[1], p[2], (p[3], p[4], p[5]), p[6])


@dataclass(frozen=True, slots=True)
class Nak:
    seq: int
    reason: int

    def pack(self) -> bytes:
        return bytes((self.seq, self.reason))

    @classmethod
    def unpack(cls, p: bytes) -> Nak | None:
        return cls(p[0], p[1]) if len(p) == 2 else None


@dataclass(frozen=True, slots=True)
class Scene:
    """What the LED strip shows: the side on turn and one role per logical LED.

    Logical LEDs: 0-23 = points 1-24 (White's numbering), 24 = bar,
    25 = White's tray, 26 = Black's tray. Roles: 0 off, 1 last play,
    2 illegal (blinks), 3 attention.
    """

    turn: int  # 0 White, 1 Black, 0xFF nobody
    roles: bytes

    OFF = 0
    LAST = 1
    ILLEGAL = 2
    ATTENTION = 3
    N_LEDS = 27
    BAR = 24
    TRAYS = (25, 26)

    def pack(self) -> bytes:
        return bytes((self.turn,)) + self.roles

    @classmethod
    def unpack(cls, p: bytes) -> Scene | None:
        if not p or p[0] not in (0, 1, NONE_SIDE) or any(r > 3 for r in p[1:]):
            return None
        return cls(p[0], bytes(p[1:]))


@dataclass(frozen=True, slots=True)
class ClockSet:
    """Both clocks in ms (``NO_CLOCK`` for white_ms: no clock) and the running side."""

    white_ms: int
    black_ms: int
    running: int  # 0 White, 1 Black, 0xFF none

    def pack(self) -> bytes:
        return struct.pack(">IIB", self.white_ms, self.black_ms, self.running)

    @classmethod
    def unpack(cls, p: bytes) -> ClockSet | None:
        if len(p) != 9:
            return None
        w, b, run = struct.unpack(">IIB", p)
        return cls(w, b, run) if run in (0, 1, NONE_SIDE) else None


@dataclass(frozen=True, slots=True)
class ScoreSet:
    white: int
    black: int
    match_length: int
    crawford: bool

    def pack(self) -> bytes:
        return bytes((self.white, self.black, self.match_length, int(self.crawford)))

    @classmethod
    def unpack(cls, p: bytes) -> ScoreSet | None:
        if len(p) != 4 or p[3] > 1:
            return None
        return cls(p[0], p[1], p[2], p[3] == 1)


@dataclass(frozen=True, slots=True)
class Buzz:
    pattern: int  # 1 short, 2 double (illegal), 3 long

    SHORT = 1
    DOUBLE = 2
    LONG = 3

    def pack(self) -> bytes:
        return bytes((self.pattern,))

    @classmethod
    def unpack(cls, p: bytes) -> Buzz | None:
        return cls(p[0]) if len(p) == 1 and 1 <= p[0] <= 3 else None


@dataclass(frozen=True, slots=True)
class Paddle:
    side: int  # 0 White, 1 Black
    ticks_ms: int  # the unit's clock at the press

    def pack(self) -> bytes:
        return struct.pack(">BI", self.side, self.ticks_ms & 0xFFFFFFFF)

    @classmethod
    def unpack(cls, p: bytes) -> Paddle | None:
        if len(p) != 5:
            return None
        side, t = struct.unpack(">BI", p)
        return cls(side, t) if side in (0, 1) else None
