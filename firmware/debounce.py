# Debounced push buttons (the clock paddles), driven by injected tick values.

import ticks


class Debouncer:
    """Reports a press once the raw level has held "pressed" for ``stable_ms``.

    ``update(raw, now)`` takes the pin's raw level and the current ticks; it
    returns True exactly once per press. Buttons pull to ground (active low)
    unless ``active_low`` is False. Bounces shorter than ``stable_ms`` in
    either direction are ignored.
    """

    def __init__(self, stable_ms=20, active_low=True, now=0):
        self.stable_ms = stable_ms
        self.active_low = active_low
        released = 1 if active_low else 0
        self.stable = released
        self.candidate = released
        self.since = now

    def pressed(self):
        return self.stable == (0 if self.active_low else 1)

    def update(self, raw, now):
        raw = 1 if raw else 0
        if raw != self.candidate:
            self.candidate = raw
            self.since = now
            return False
        if raw != self.stable and ticks.diff(now, self.since) >= self.stable_ms:
            self.stable = raw
            return self.pressed()
        return False
