# The table unit's side of the serial protocol (firmware/PROTOCOL.md).
#
# Written in the subset of Python that both MicroPython (RP2040 port) and
# CPython run: no typing imports, no dataclasses, no f-string format specs
# beyond the basic ones, bytes/bytearray only. The Pi has its own typed
# implementation (tavli_pi/link/protocol.py); both are checked against the
# same test vectors in firmware/vectors.json.
#
# Wire format: COBS(seq, type, payload..., crc_hi, crc_lo) followed by 0x00.
# CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no
# final xor; check value of b"123456789" is 0x29B1), over seq, type, payload.
# COBS: Cheshire & Baker, "Consistent Overhead Byte Stuffing", IEEE/ACM
# Trans. Networking 7(2), 1999.

import struct

PROTO_MAJOR = 1
PROTO_MINOR = 0

MAX_PAYLOAD = 96
MIN_BODY = 4  # seq, type, crc (2)
MAX_BODY = MAX_PAYLOAD + 4
MAX_WIRE = MAX_BODY + MAX_BODY // 254 + 1  # COBS overhead, delimiter excluded

# Message types. Reliable ones are acknowledged (ACK) and retried.
HELLO = 0x01  # Pi -> unit: major, minor
HELLO_ACK = 0x02  # unit -> Pi: hello_seq, major, minor, fw major/minor/patch, n_leds
ACK = 0x06  # both: acked seq
NAK = 0x15  # both: seq, reason
HEARTBEAT = 0x10  # both: empty, never acknowledged
SCENE = 0x20  # Pi -> unit: turn, role per LED
CLOCK = 0x21  # Pi -> unit: white ms u32, black ms u32, running side
SCORE = 0x22  # Pi -> unit: white, black, match length, flags
BUZZ = 0x23  # Pi -> unit: pattern
BLANK = 0x24  # Pi -> unit: everything off
PADDLE = 0x30  # unit -> Pi: side, unit ticks ms u32

RELIABLE = (HELLO, SCENE, CLOCK, SCORE, BUZZ, BLANK, PADDLE)

# NAK reasons
NAK_TYPE = 1  # unknown message type
NAK_PAYLOAD = 2  # payload has the wrong length or a value out of range
NAK_NOT_READY = 3  # no handshake yet
NAK_VERSION = 4  # protocol major version differs

# Side / turn codes
WHITE = 0
BLACK = 1
NONE = 0xFF
NO_CLOCK = 0xFFFFFFFF

# Rejection reasons, as counted by Deframer.rejected (same names on the Pi)
REJECT_REASONS = ("cobs", "short", "long", "crc")


def _make_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes-like)."""
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[(crc >> 8) ^ b]
    return crc


def cobs_encode(data):
    """COBS-encode ``data``: the result holds no 0x00 byte."""
    out = bytearray()
    code_at = 0
    out.append(0)
    code = 1
    after_full = False  # the open block was started only because the last one was full
    for b in data:
        after_full = False
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
                after_full = True
    if after_full:
        return bytes(out[:-1])  # a full block at the very end needs no empty block after it
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Inverse of :func:`cobs_encode`; ``None`` when ``data`` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0 or i + code > n:
            return None
        for j in range(i + 1, i + code):
            if data[j] == 0:
                return None
        out.extend(data[i + 1 : i + code])
        i += code
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(seq, mtype, payload=b""):
    """One frame on the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload longer than MAX_PAYLOAD")
    body = bytearray()
    body.append(seq & 0xFF)
    body.append(mtype & 0xFF)
    body.extend(payload)
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    return cobs_encode(body) + b"\x00"


def decode_body(encoded):
    """Decode one frame without its delimiter: (seq, type, payload) or a reason string."""
    if len(encoded) > MAX_WIRE:
        return "long"
    body = cobs_decode(encoded)
    if body is None:
        return "cobs"
    if len(body) < MIN_BODY:
        return "short"
    if len(body) > MAX_BODY:
        return "long"
    crc = (body[-2] << 8) | body[-1]
    if crc16(body[:-2]) != crc:
        return "crc"
    return (body[0], body[1], bytes(body[2:-2]))


class Deframer:
    """Split a byte stream at 0x00 delimiters into checked frames.

    ``feed(data)`` returns the good frames as (seq, type, payload) tuples and
    counts the bad ones in ``rejected`` by reason. A run of bytes longer than
    any frame is dropped up to the next delimiter (reason "long").
    """

    def __init__(self):
        self.buf = bytearray()
        self.discarding = False
        self.rejected = {}
        for r in REJECT_REASONS:
            self.rejected[r] = 0

    def reset(self):
        self.buf = bytearray()
        self.discarding = False

    def feed(self, data):
        frames = []
        for b in data:
            if b == 0:
                if self.discarding:
                    self.discarding = False
                elif len(self.buf):
                    got = decode_body(self.buf)
                    if isinstance(got, str):
                        self.rejected[got] += 1
                    else:
                        frames.append(got)
                self.buf = bytearray()
            elif not self.discarding:
                self.buf.append(b)
                if len(self.buf) > MAX_WIRE:
                    self.rejected["long"] += 1
                    self.discarding = True
                    self.buf = bytearray()
        return frames


# -- message payloads -------------------------------------------------------
# Each pack_* returns the payload bytes; each unpack_* returns a tuple or None
# when the payload is malformed (the receiver then NAKs with NAK_PAYLOAD).


def pack_hello(major=PROTO_MAJOR, minor=PROTO_MINOR):
    return bytes((major, minor))


def unpack_hello(p):
    if len(p) != 2:
        return None
    return (p[0], p[1])


def pack_hello_ack(hello_seq, fw_version, n_leds, major=PROTO_MAJOR, minor=PROTO_MINOR):
    return bytes((hello_seq, major, minor, fw_version[0], fw_version[1], fw_version[2], n_leds))


def unpack_hello_ack(p):
    if len(p) != 7:
        return None
    return (p[0], p[1], p[2], (p[3], p[4], p[5]), p[6])


def pack_ack(seq):
    return bytes((seq,))


def unpack_ack(p):
    if len(p) != 1:
        return None
    return p[0]


def pack_nak(seq, reason):
    return bytes((seq, reason))


def unpack_nak(p):
    if len(p) != 2:
        return None
    return (p[0], p[1])


def pack_scene(turn, roles):
    if len(roles) > MAX_PAYLOAD - 1:
        raise ValueError("too many LEDs")
    return bytes((turn,)) + bytes(roles)


def unpack_scene(p):
    if len(p) < 1 or p[0] not in (WHITE, BLACK, NONE):
        return None
    for r in p[1:]:
        if r > 3:
            return None
    return (p[0], bytes(p[1:]))


def pack_clock(white_ms, black_ms, running):
    return struct.pack(">IIB", white_ms, black_ms, running)


def unpack_clock(p):
    if len(p) != 9:
        return None
    w, b, run = struct.unpack(">IIB", p)
    if run not in (WHITE, BLACK, NONE):
        return None
    return (w, b, run)


def pack_score(white, black, match_length, crawford):
    return bytes((white, black, match_length, 1 if crawford else 0))


def unpack_score(p):
    if len(p) != 4 or p[3] > 1:
        return None
    return (p[0], p[1], p[2], p[3] == 1)


def pack_buzz(pattern):
    return bytes((pattern,))


def unpack_buzz(p):
    if len(p) != 1 or not 1 <= p[0] <= 3:
        return None
    return p[0]


def pack_paddle(side, ticks_ms):
    return struct.pack(">BI", side, ticks_ms & 0xFFFFFFFF)


def unpack_paddle(p):
    if len(p) != 5:
        return None
    side, t = struct.unpack(">BI", p)
    if side not in (WHITE, BLACK):
        return None
    return (side, t)
