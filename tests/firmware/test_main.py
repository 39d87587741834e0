"""firmware/main.py, the hardware loop, on CPython with fake machine/neopixel/utime."""

from __future__ import annotations

from types import ModuleType

FW = dict[str, ModuleType]


class Stream:
    def __init__(self) -> None:
        self.incoming = bytearray()
        self.sent = bytearray()

    def read(self) -> bytes:
        data = bytes(self.incoming)
        self.incoming.clear()
        return data

    def write(self, data: bytes) -> None:
        self.sent += data


def test_loop_drives_strip_displays_buzzer_and_paddles(fw: FW) -> None:
    import machine
    import neopixel
    import utime

    p = fw["proto"]
    s = Stream()
    firmware = fw["main"].Firmware(s)
    s.incoming += p.encode_frame(1, p.HELLO, p.pack_hello())
    firmware.step()
    roles = bytearray(27)
    roles[0] = 1  # last play on point 1
    s.incoming += p.encode_frame(2, p.SCENE, p.pack_scene(p.BLACK, roles))
    s.incoming += p.encode_frame(3, p.BUZZ, p.pack_buzz(1))
    s.incoming += p.encode_frame(4, p.SCORE, p.pack_score(3, 1, 7, False))
    firmware.step()
    strip = neopixel.STRIPS[-1]
    route = fw["scene"].STRIP_ROUTE
    assert strip.shown[route.index(0)] == fw["scene"].COLOURS[1]
    assert strip.shown[route.index(26)] == fw["scene"].TURN_COLOURS[1]  # Black's tray: Black on turn
    assert firmware.displays[0].shown == fw["display"].segments(" 3 7", True)
    buzzer = machine.PINS[fw["pins"].BUZZER]
    assert buzzer.value() == 1
    utime.NOW[0] += 100
    firmware.step()
    assert buzzer.history == [0, 1, 0]
    # White's paddle: bouncing for 10 ms, then held 30 ms -> exactly one PADDLE frame
    s.sent.clear()
    pin = machine.PINS[fw["pins"].PADDLE_WHITE]
    for level in (0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1):
        pin.drive(level)
        utime.NOW[0] += 5
        firmware.step()
    paddles = [f for f in p.Deframer().feed(bytes(s.sent)) if f[1] == p.PADDLE]
    assert len(paddles) == 1 and p.unpack_paddle(paddles[0][2])[0] == p.WHITE


def test_run_steps_and_boot_escape(fw: FW) -> None:
    import machine

    main = fw["main"]
    fw_obj = main.run(Stream(), steps=3)
    assert fw_obj.unit.state == "waiting"
    assert not main.both_paddles_held()
    machine.PINS[fw["pins"].PADDLE_WHITE].drive(0)
    machine.PINS[fw["pins"].PADDLE_BLACK].drive(0)
    assert main.both_paddles_held()


def test_tm1637_bit_bang_decodes_to_the_segments(fw: FW) -> None:
    """Decode the CLK/DIO waveform the driver produces (TM1637 datasheet framing)."""
    import machine

    log: list[tuple[str, int]] = []

    class LoggedPin(machine.Pin):
        def _set(self, v: object) -> None:
            super()._set(v)
            log.append((self.name, 1 if v else 0))

    clk, dio = LoggedPin(40), LoggedPin(41)
    clk.name, dio.name = "clk", "dio"  # type: ignore[attr-defined]
    disp = fw["tm1637"].TM1637(clk, dio, brightness=7)
    log.clear()
    segs = fw["display"].segments("12 4", True)
    disp.show(segs)
    # replay: bits latched on CLK rising edges between start and stop conditions
    level = {"clk": 1, "dio": 1}
    commands: list[list[int]] = []
    bits: list[int] = []
    for name, v in log:
        prev = dict(level)
        level[name] = v
        if name == "dio" and prev["clk"] == 1 and level["clk"] == 1:
            if v == 0:  # start
                commands.append([])
                bits = []
            else:  # stop
                pass
        elif name == "clk" and prev["clk"] == 0 and v == 1 and commands:
            bits.append(level["dio"])
            if len(bits) == 9:  # 8 data bits + the ack clock
                commands[-1].append(sum(b << i for i, b in enumerate(bits[:8])))
                bits = []
    assert commands == [[0x40], [0xC0, *segs], [0x88 | 7]]
    log.clear()
    disp.show(segs)
    assert log == []  # unchanged: nothing sent
