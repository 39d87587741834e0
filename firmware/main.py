# The table unit's hardware loop (Raspberry Pi Pico, MicroPython).
# Copy every .py file of firmware/ to the Pico (e.g. `mpremote cp *.py :`);
# MicroPython runs main.py at boot. Hold both paddles while plugging in to
# skip the loop and get the REPL. All the logic is in unit.py; this file only
# moves bytes, pin levels and ticks between the hardware and the logic.

import machine
import neopixel
import utime

import debounce
import display
import pins
import tm1637
import unit


class UsbStream:
    """The USB serial port (CDC) the Pi talks to, non-blocking."""

    def __init__(self):
        import micropython
        import select
        import sys

        micropython.kbd_intr(-1)  # 0x03 in a frame must not raise KeyboardInterrupt
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 512 and self._poll.poll(0):
            data.extend(self._in.read(1))
        return bytes(data)

    def write(self, data):
        self._out.write(data)


class Firmware:
    """The pins and devices of pins.py around one unit.TableUnit."""

    def __init__(self, stream):
        Pin = machine.Pin
        self.stream = stream
        self.strip = neopixel.NeoPixel(Pin(pins.STRIP, Pin.OUT), pins.STRIP_LEDS)
        self.paddles = (
            Pin(pins.PADDLE_WHITE, Pin.IN, Pin.PULL_UP),
            Pin(pins.PADDLE_BLACK, Pin.IN, Pin.PULL_UP),
        )
        self.buzzer = Pin(pins.BUZZER, Pin.OUT, value=0)
        self.displays = (
            tm1637.TM1637(Pin(pins.DISPLAY_WHITE_CLK), Pin(pins.DISPLAY_WHITE_DIO)),
            tm1637.TM1637(Pin(pins.DISPLAY_BLACK_CLK), Pin(pins.DISPLAY_BLACK_DIO)),
        )
        now = utime.ticks_ms()
        self.unit = unit.TableUnit(now, n_leds=pins.STRIP_LEDS)
        self.debouncers = (debounce.Debouncer(now=now), debounce.Debouncer(now=now))
        self.shown_pixels = None

    def step(self):
        now = utime.ticks_ms()
        data = self.stream.read()
        if data:
            self.unit.receive(data, now)
        for side in (0, 1):
            if self.debouncers[side].update(self.paddles[side].value(), now):
                self.unit.paddle(side, now)
        self.unit.poll(now)
        out = self.unit.take_output()
        if out:
            self.stream.write(out)
        self.show(now)

    def show(self, now):
        pixels = self.unit.pixels(now)
        if pixels != self.shown_pixels:
            for i in range(len(pixels)):
                self.strip[i] = pixels[i]
            self.strip.write()
            self.shown_pixels = pixels
        texts = self.unit.displays(now)
        for side in (0, 1):
            self.displays[side].show(display.segments(texts[side][0], texts[side][1]))
        self.buzzer.value(1 if self.unit.buzzer(now) else 0)


def both_paddles_held():
    white = machine.Pin(pins.PADDLE_WHITE, machine.Pin.IN, machine.Pin.PULL_UP)
    black = machine.Pin(pins.PADDLE_BLACK, machine.Pin.IN, machine.Pin.PULL_UP)
    return white.value() == 0 and black.value() == 0


def run(stream=None, steps=-1):
    """Run the loop (forever when ``steps`` is negative)."""
    fw = Firmware(stream if stream is not None else UsbStream())
    while steps != 0:
        fw.step()
        utime.sleep_ms(2)
        if steps > 0:
            steps -= 1
    return fw


if __name__ == "__main__":
    if not both_paddles_held():
        run()
