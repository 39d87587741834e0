# Minimal bit-banged driver for a TM1637 4-digit 7-segment module, from the
# Titan Micro TM1637 datasheet: start = DIO falls while CLK is high; bytes go
# LSB first, each bit latched on the rising CLK edge, then a ninth clock for
# the chip's ACK; stop = DIO rises while CLK is high. Commands: 0x40 (write
# data, auto-increment address), 0xC0 (address 0), 0x88 | brightness (0-7).

import utime

CMD_DATA = 0x40
CMD_ADDR = 0xC0
CMD_ON = 0x88


class TM1637:
    def __init__(self, clk, dio, brightness=4):
        self.clk = clk
        self.dio = dio
        self.brightness = brightness & 7
        self.clk.init(clk.OUT, value=1)
        self.dio.init(dio.OUT, value=1)
        self.shown = None

    def _start(self):
        self.dio(0)
        utime.sleep_us(5)
        self.clk(0)

    def _stop(self):
        self.dio(0)
        self.clk(1)
        utime.sleep_us(5)
        self.dio(1)

    def _byte(self, b):
        for _ in range(8):
            self.clk(0)
            self.dio(b & 1)
            b >>= 1
            utime.sleep_us(5)
            self.clk(1)
            utime.sleep_us(5)
        self.clk(0)  # ninth clock: the chip pulls DIO low to acknowledge
        self.dio(1)
        self.clk(1)
        utime.sleep_us(5)
        self.clk(0)

    def _command(self, *data):
        self._start()
        for b in data:
            self._byte(b)
        self._stop()

    def show(self, segs):
        """Light four segment bytes (display.segments); skipped when unchanged."""
        segs = bytes(segs)
        if segs == self.shown:
            return
        self._command(CMD_DATA)
        self._command(CMD_ADDR, segs[0], segs[1], segs[2], segs[3])
        self._command(CMD_ON | self.brightness)
        self.shown = segs
