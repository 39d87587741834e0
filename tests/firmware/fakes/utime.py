"""A fake of MicroPython's ``utime`` with a clock the test drives.

``ticks_ms`` returns ``NOW[0]``; ``sleep_ms`` advances it (no real sleeping).
Wrap-around follows the RP2040 port (period 2**30).
"""

from __future__ import annotations

__all__ = ["NOW", "ticks_ms", "ticks_add", "ticks_diff", "sleep_ms", "sleep_us"]

PERIOD = 1 << 30
NOW = [0]


def ticks_ms() -> int:
    return NOW[0] % PERIOD


def ticks_add(t: int, delta: int) -> int:
    return (t + delta) % PERIOD


def ticks_diff(new: int, old: int) -> int:
    return ((new - old + PERIOD // 2) % PERIOD) - PERIOD // 2


def sleep_ms(ms: int) -> None:
    NOW[0] += ms


def sleep_us(us: int) -> None:
    pass
