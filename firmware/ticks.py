# Wrap-around millisecond ticks, with the semantics of MicroPython's
# utime.ticks_add / utime.ticks_diff (period 2**30 on the RP2040 port), so the
# pure logic can be driven by injected tick values on CPython and MicroPython.

PERIOD = 1 << 30
_HALF = PERIOD // 2


def add(t, delta):
    """``t + delta`` on the tick circle."""
    return (t + delta) % PERIOD


def diff(new, old):
    """Signed ``new - old`` on the tick circle, in [-PERIOD/2, PERIOD/2)."""
    return ((new - old + _HALF) % PERIOD) - _HALF
