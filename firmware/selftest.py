# Checks of the firmware's pure logic that run under real MicroPython
# (node firmware/mpy_run.mjs selftest.py) and under CPython (tests/firmware).
# Reads vectors.json, the test vectors shared with the Pi's link tests.
# Prints one line per group and "selftest: N checks passed" at the end;
# raises AssertionError at the first failure.

import json
import sys

import binascii
import debounce
import display
import proto
import ticks
import unit

CHECKS = [0]


def check(cond, what):
    CHECKS[0] += 1
    if not cond:
        raise AssertionError(what)


def unhex(s):
    return binascii.unhexlify(s) if s else b""


def _vectors_path():
    for d in sys.path:
        try:
            open(d + "/vectors.json").close()
            return d + "/vectors.json"
        except OSError:
            pass
    raise OSError("vectors.json not found on sys.path")


def run_vectors(v):
    for c in v["crc16"]:
        check(proto.crc16(unhex(c["data_hex"])) == c["crc"], "crc16 " + c["name"])
    for c in v["cobs"]:
        dec = unhex(c["decoded_hex"])
        enc = unhex(c["encoded_hex"])
        check(proto.cobs_encode(dec) == enc, "cobs encode " + c["encoded_hex"][:16])
        check(proto.cobs_decode(enc) == dec, "cobs decode " + c["encoded_hex"][:16])
    for f in v["frames"]:
        payload = unhex(f["payload_hex"])
        wire = unhex(f["wire_hex"])
        check(proto.encode_frame(f["seq"], f["type"], payload) == wire, "encode " + f["name"])
        got = proto.Deframer().feed(wire)
        check(got == [(f["seq"], f["type"], payload)], "decode " + f["name"])
    for s in v["streams"]:
        d = proto.Deframer()
        got = d.feed(unhex(s["wire_hex"]))
        check(len(got) == s["frames"], "stream frames " + s["name"])
        for reason in proto.REJECT_REASONS:
            check(d.rejected[reason] == s["rejected"].get(reason, 0), "stream " + s["name"] + " " + reason)
    for c in v["display"]["clock"]:
        check(display.clock_text(c["ms"]) == (c["text"], c["colon"]), "clock_text " + str(c["ms"]))
    for c in v["display"]["score"]:
        got = display.score_text(c["own"], c["match_length"])
        check(got == (c["text"], c["colon"]), "score_text " + str(c["own"]))
    print("vectors ok")


def run_unit():
    # A handshake, a scene, a clock, a paddle, then silence: the whole life
    # of the unit driven by tick values, as the Pi would drive it.
    u = unit.TableUnit(now=1000)
    check(u.displays(1000)[0] == display.WAITING, "waiting before hello")
    u.receive(proto.encode_frame(0, proto.HELLO, proto.pack_hello()), 1010)
    got = proto.Deframer().feed(u.take_output())
    check(len(got) == 1 and got[0][1] == proto.HELLO_ACK, "hello answered")
    ack = proto.unpack_hello_ack(got[0][2])
    check(ack[0] == 0 and ack[1] == proto.PROTO_MAJOR and ack[4] == 27, "hello_ack fields")
    roles = bytearray(27)
    roles[5] = 2
    u.receive(proto.encode_frame(1, proto.SCENE, proto.pack_scene(1, roles)), 1020)
    got = proto.Deframer().feed(u.take_output())
    check(got == [(0, proto.ACK, b"\x01")], "scene acked")
    px = u.pixels(1000)  # blink phase on
    check((255, 0, 0) in px, "illegal point lit")
    u.receive(proto.encode_frame(2, proto.CLOCK, proto.pack_clock(600000, 545000, 0)), 1030)
    u.take_output()
    check(u.displays(1030) == (("1000", True), (" 905", True)), "clocks shown")
    check(u.displays(1030 + 61000)[0] == (" 859", True), "running clock counts down")
    u.paddle(0, 1040)
    got = proto.Deframer().feed(u.take_output())
    check(len(got) == 1 and got[0][1] == proto.PADDLE, "paddle sent")
    check(proto.unpack_paddle(got[0][2]) == (0, 1040), "paddle payload")
    u.poll(1040 + unit.RETRY_MS)
    again = proto.Deframer().feed(u.take_output())
    check(again[0] == got[0], "paddle retried with the same seq")
    u.receive(proto.encode_frame(3, proto.ACK, proto.pack_ack(got[0][0])), 1300)
    u.poll(1300 + unit.SILENCE_MS + 1)
    check(u.state == "silent", "silence detected")
    check(u.pixels(4000) == [(0, 0, 0)] * 27, "LEDs blank when the Pi is silent")
    check(u.displays(4000)[0] == display.PI_SILENT, "error shown")
    print("unit ok")


def run_ticks_and_debounce():
    check(ticks.diff(5, ticks.PERIOD - 5) == 10, "ticks wrap")
    check(ticks.diff(ticks.add(ticks.PERIOD - 3, 7), ticks.PERIOD - 3) == 7, "ticks add")
    d = debounce.Debouncer(stable_ms=20, now=0)
    presses = 0
    for t, level in ((0, 1), (5, 0), (8, 1), (10, 0), (20, 0), (29, 0), (30, 0), (31, 0), (60, 1), (90, 1)):
        if d.update(level, t):
            presses += 1
    check(presses == 1, "one press through the bounce")
    print("ticks/debounce ok")


def run_compile(folder):
    # main.py and tm1637.py need the Pico's machine/neopixel modules to run;
    # here they are at least compiled by this implementation's own compiler.
    import os

    names = [n for n in os.listdir(folder) if n.endswith(".py")]
    for name in names:
        with open(folder + "/" + name) as f:
            compile(f.read(), name, "exec")
        check(True, name)
    check("main.py" in names and "tm1637.py" in names, "hardware modules present")
    print("compiled " + str(len(names)) + " files")


def main():
    path = _vectors_path()
    with open(path) as f:
        v = json.load(f)
    run_compile(path[: -len("/vectors.json")])
    run_vectors(v)
    run_unit()
    run_ticks_and_debounce()
    print("selftest: " + str(CHECKS[0]) + " checks passed on " + sys.implementation.name)


main()
