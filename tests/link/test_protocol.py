"""The Pi's codec against the shared vectors (firmware/vectors.json) and fuzzing."""

from __future__ import annotations

import binascii
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli_pi.link import protocol as P

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "firmware" / "vectors.json").read_text()
)


def test_vectors_speak_this_protocol_version() -> None:
    assert VECTORS["protocol"] == [P.PROTO_MAJOR, P.PROTO_MINOR]


@pytest.mark.parametrize("case", VECTORS["crc16"], ids=lambda c: c["name"])
def test_crc16_vectors(case: dict[str, Any]) -> None:
    data = bytes.fromhex(case["data_hex"])
    assert P.crc16(data) == case["crc"]
    # independent reference: the standard library's CRC-CCITT with init 0xFFFF
    assert binascii.crc_hqx(data, 0xFFFF) == case["crc"]


def test_crc_check_value() -> None:
    assert P.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize("case", VECTORS["cobs"], ids=lambda c: c["encoded_hex"][:12])
def test_cobs_vectors(case: dict[str, Any]) -> None:
    dec, enc = bytes.fromhex(case["decoded_hex"]), bytes.fromhex(case["encoded_hex"])
    assert P.cobs_encode(dec) == enc
    assert P.cobs_decode(enc) == dec
    assert 0 not in enc


@pytest.mark.parametrize("case", VECTORS["frames"], ids=lambda c: c["name"])
def test_frame_vectors(case: dict[str, Any]) -> None:
    payload, wire = bytes.fromhex(case["payload_hex"]), bytes.fromhex(case["wire_hex"])
    assert P.encode_frame(case["seq"], case["type"], payload) == wire
    assert P.FrameDecoder().feed(wire) == [P.Frame(case["seq"], case["type"], payload)]
    body = P.cobs_decode(wire[:-1])
    assert body is not None and binascii.crc_hqx(body[:-2], 0xFFFF) == int.from_bytes(body[-2:], "big")


@pytest.mark.parametrize("case", VECTORS["streams"], ids=lambda c: c["name"])
def test_stream_vectors(case: dict[str, Any]) -> None:
    dec = P.FrameDecoder()
    assert len(dec.feed(bytes.fromhex(case["wire_hex"]))) == case["frames"]
    assert {k: v for k, v in dec.rejected.items() if v} == case["rejected"]


def test_message_payloads_round_trip() -> None:
    msgs: list[Any] = [
        P.Hello(), P.HelloAck(3, 1, 0, (1, 2, 3), 27), P.Nak(4, 2), P.Scene(0, bytes(range(4)) * 6),
        P.ClockSet(1, 2, 0xFF), P.ScoreSet(1, 2, 3, True), P.Buzz(3), P.Paddle(1, 2**32 - 1),
    ]
    for m in msgs:
        assert type(m).unpack(m.pack()) == m
    assert P.Scene.unpack(b"\x02\x00") is None  # turn 2 is not a side
    assert P.Scene.unpack(b"\x00\x04") is None  # role 4 does not exist
    assert P.ClockSet.unpack(b"\x00" * 8) is None
    assert P.Buzz.unpack(b"\x00") is None
    assert P.Paddle.unpack(b"\x02\x00\x00\x00\x00") is None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=P.MAX_PAYLOAD))
def test_any_frame_round_trips(seq: int, mtype: int, payload: bytes) -> None:
    wire = P.encode_frame(seq, mtype, payload)
    assert wire.index(0) == len(wire) - 1
    assert P.FrameDecoder().feed(wire) == [P.Frame(seq, mtype, payload)]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=600))
def test_garbage_never_crashes_and_only_checked_frames_come_out(data: bytes) -> None:
    dec = P.FrameDecoder()
    for frame in dec.feed(data):
        # anything accepted really was a whole frame with a good CRC in the input
        assert P.encode_frame(frame.seq, frame.type, frame.payload)[:-1] in data


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 255), st.binary(min_size=1, max_size=40), st.data())
def test_truncated_and_corrupted_frames_are_rejected_and_counted(mtype: int, payload: bytes, data: st.DataObject) -> None:
    wire = P.encode_frame(9, mtype, payload)
    cut = data.draw(st.integers(1, len(wire) - 2))
    dec = P.FrameDecoder()
    assert dec.feed(wire[:cut] + b"\x00") == []
    assert sum(dec.rejected.values()) == 1
    i = data.draw(st.integers(0, len(wire) - 2))
    bit = data.draw(st.integers(0, 7))
    bad = bytearray(wire)
    bad[i] ^= 1 << bit
    got = dec.feed(bytes(bad))
    assert got != [P.Frame(9, mtype, payload)] or bytes(bad) == wire
    # the decoder is back in step for the next good frame
    assert dec.feed(b"\x00" + wire) == [P.Frame(9, mtype, payload)]


def test_oversize_payload_refused() -> None:
    with pytest.raises(ValueError):
        P.encode_frame(0, 0x20, bytes(P.MAX_PAYLOAD + 1))


def test_protocol_doc_worked_example_is_right() -> None:
    doc = (Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md").read_text()
    wire = P.encode_frame(0, P.MsgType.HELLO, P.Hello(1, 0).pack())
    assert " ".join(f"{b:02x}" for b in wire) in doc
    assert f"CRC 0x{P.crc16(bytes((0, 1, 1, 0))):04X}" in doc
