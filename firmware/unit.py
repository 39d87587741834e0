# The table unit's logic: protocol state machine, LED scene, clocks, score,
# buzzer. No hardware here: main.py feeds it bytes, paddle presses and ticks,
# and copies its outputs to the strip, the displays, the buzzer and USB.

import display
import proto
import scene
import ticks

FW_VERSION = (1, 0, 0)
HEARTBEAT_MS = 500  # send a heartbeat after this long without sending
SILENCE_MS = 2000  # the Pi is gone after this long without a good frame
RETRY_MS = 250  # resend an unacknowledged reliable frame after this long
SCORE_FLASH_MS = 5000  # a new score shows this long before the clocks return

# Buzzer patterns: alternating on/off durations in ms
BUZZ_PATTERNS = {
    1: (80,),  # short: acknowledged
    2: (120, 80, 120),  # double: illegal play
    3: (600,),  # long: time out / game over
}


class TableUnit:
    """Everything the table unit does, driven by ``receive``/``poll``/``paddle``
    with tick values; read ``pixels``/``displays``/``buzzer``; send ``take_output``."""

    def __init__(self, now=0, n_leds=scene.N_LEDS):
        self.n_leds = n_leds
        self.deframer = proto.Deframer()
        self.out = bytearray()
        self.connected = False
        self.state = "waiting"  # "waiting", "connected", "silent", "version"
        self.last_rx = now
        self.last_tx = now
        self.tx_seq = 0
        self.rx_seq = -1
        self.pending = None  # [seq, type, payload, sent_at]
        self.queue = []
        self.counts = {"applied": 0, "duplicates": 0, "naks_sent": 0,
                       "naks_received": 0, "retries": 0, "paddles": 0}
        self._clear()

    def _clear(self):
        self.roles = bytearray(self.n_leds)
        self.turn = proto.NONE
        self.clock = None  # (white_ms, black_ms, running, at)
        self.score = None  # (white, black, match_length, crawford)
        self.score_at = None
        self.buzz = None  # (pattern, started)
        self.pending = None
        self.queue = []

    # -- output bytes -------------------------------------------------------
    def _send(self, seq, mtype, payload, now):
        self.out.extend(proto.encode_frame(seq, mtype, payload))
        self.last_tx = now

    def _send_reliable(self, mtype, payload, now):
        self.queue.append((mtype, payload))
        self._next(now)

    def _next(self, now):
        if self.pending is None and self.queue:
            mtype, payload = self.queue.pop(0)
            self.tx_seq = (self.tx_seq + 1) & 0xFF
            self.pending = [self.tx_seq, mtype, payload, now]
            self._send(self.tx_seq, mtype, payload, now)

    def take_output(self):
        data = bytes(self.out)
        self.out = bytearray()
        return data

    # -- input --------------------------------------------------------------
    def receive(self, data, now):
        for seq, mtype, payload in self.deframer.feed(data):
            self.last_rx = now
            self._on_frame(seq, mtype, payload, now)

    def _nak(self, seq, reason, now):
        self.counts["naks_sent"] += 1
        self._send(0, proto.NAK, proto.pack_nak(seq, reason), now)

    def _on_frame(self, seq, mtype, payload, now):
        if mtype == proto.HELLO:
            self._on_hello(seq, payload, now)
        elif mtype == proto.HEARTBEAT:
            if not self.connected:
                # The Pi thinks it is connected but this unit restarted or gave
                # up on it: say so, and the Pi shakes hands again at once.
                self._nak(seq, proto.NAK_NOT_READY, now)
        elif mtype == proto.ACK:
            acked = proto.unpack_ack(payload)
            if self.pending is not None and acked == self.pending[0]:
                self.pending = None
                self._next(now)
        elif mtype == proto.NAK:
            got = proto.unpack_nak(payload)
            self.counts["naks_received"] += 1
            if got is not None and self.pending is not None and got[0] == self.pending[0]:
                self.pending = None
                self._next(now)
        elif mtype in (proto.SCENE, proto.CLOCK, proto.SCORE, proto.BUZZ, proto.BLANK):
            if not self.connected:
                self._nak(seq, proto.NAK_NOT_READY, now)
            elif seq == self.rx_seq:
                self.counts["duplicates"] += 1
                self._send(0, proto.ACK, proto.pack_ack(seq), now)
            elif self._apply(mtype, payload, now):
                self.rx_seq = seq
                self.counts["applied"] += 1
                self._send(0, proto.ACK, proto.pack_ack(seq), now)
            else:
                self._nak(seq, proto.NAK_PAYLOAD, now)
        else:
            self._nak(seq, proto.NAK_TYPE, now)

    def _on_hello(self, seq, payload, now):
        got = proto.unpack_hello(payload)
        if got is None:
            self._nak(seq, proto.NAK_PAYLOAD, now)
            return
        self._clear()
        self.tx_seq = 0
        self.rx_seq = seq
        ack = proto.pack_hello_ack(seq, FW_VERSION, self.n_leds, proto.PROTO_MAJOR, proto.PROTO_MINOR)
        self._send(0, proto.HELLO_ACK, ack, now)
        if got[0] == proto.PROTO_MAJOR:
            self.connected = True
            self.state = "connected"
        else:
            self.connected = False
            self.state = "version"

    def _apply(self, mtype, payload, now):
        if mtype == proto.SCENE:
            got = proto.unpack_scene(payload)
            if got is None:
                return False
            self.turn = got[0]
            roles = bytearray(self.n_leds)
            for i in range(min(len(got[1]), self.n_leds)):
                roles[i] = got[1][i]
            self.roles = roles
        elif mtype == proto.CLOCK:
            got = proto.unpack_clock(payload)
            if got is None:
                return False
            if got[0] == proto.NO_CLOCK:
                self.clock = None
            else:
                self.clock = (got[0], got[1], got[2], now)
        elif mtype == proto.SCORE:
            got = proto.unpack_score(payload)
            if got is None:
                return False
            if self.score is not None and got != self.score:
                self.score_at = now
            self.score = got
        elif mtype == proto.BUZZ:
            got = proto.unpack_buzz(payload)
            if got is None:
                return False
            self.buzz = (got, now)
        elif mtype == proto.BLANK:
            if payload:
                return False
            self._clear()
        return True

    # -- time ---------------------------------------------------------------
    def poll(self, now):
        if self.connected and ticks.diff(now, self.last_rx) > SILENCE_MS:
            self.connected = False
            self.state = "silent"
            self._clear()
            return
        if not self.connected:
            return
        if self.pending is not None and ticks.diff(now, self.pending[3]) >= RETRY_MS:
            self.counts["retries"] += 1
            self.pending[3] = now
            self._send(self.pending[0], self.pending[1], self.pending[2], now)
        if ticks.diff(now, self.last_tx) >= HEARTBEAT_MS:
            self._send(0, proto.HEARTBEAT, b"", now)

    def paddle(self, side, now):
        """A debounced paddle press by ``side`` (0 White, 1 Black)."""
        self.counts["paddles"] += 1
        if self.clock is not None and self.clock[2] == side:
            # Show the switch at once; the Pi's next CLOCK message is the truth.
            w, b = self.clock_ms(now)
            self.clock = (w, b, 1 - side, now)
        if self.connected:
            self._send_reliable(proto.PADDLE, proto.pack_paddle(side, now), now)

    # -- what to show -------------------------------------------------------
    def clock_ms(self, now):
        w, b, running, at = self.clock
        gone = max(0, ticks.diff(now, at))
        if running == proto.WHITE:
            w = max(0, w - gone)
        elif running == proto.BLACK:
            b = max(0, b - gone)
        return (w, b)

    def pixels(self, now):
        if not self.connected:
            return scene.blank()
        return scene.render(self.roles, self.turn, now)

    def displays(self, now):
        """((text, colon) for White's display, (text, colon) for Black's)."""
        if self.state == "silent":
            return (display.PI_SILENT, display.PI_SILENT)
        if self.state == "version":
            return (display.BAD_VERSION, display.BAD_VERSION)
        if not self.connected:
            return (display.WAITING, display.WAITING)
        flash = self.score_at is not None and ticks.diff(now, self.score_at) < SCORE_FLASH_MS
        if self.clock is not None and not flash:
            w, b = self.clock_ms(now)
            return (display.clock_text(w), display.clock_text(b))
        if self.score is not None:
            w, b, length, _ = self.score
            return (display.score_text(w, length), display.score_text(b, length))
        return (display.WAITING, display.WAITING)

    def buzzer(self, now):
        if self.buzz is None:
            return False
        pattern, start = self.buzz
        t = ticks.diff(now, start)
        on = True
        for length in BUZZ_PATTERNS[pattern]:
            if t < length:
                return on
            t -= length
            on = not on
        self.buzz = None
        return False
