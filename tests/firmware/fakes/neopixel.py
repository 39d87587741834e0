"""A fake of MicroPython's ``neopixel`` module: remembers what was written."""

from __future__ import annotations

from typing import Any

__all__ = ["NeoPixel", "STRIPS"]

STRIPS: list["NeoPixel"] = []


class NeoPixel:
    def __init__(self, pin: Any, n: int, bpp: int = 3) -> None:
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n  # what the strip displays (after write())
        self.writes = 0
        STRIPS.append(self)

    def __setitem__(self, i: int, rgb: tuple[int, int, int]) -> None:
        self.buf[i] = tuple(rgb)  # type: ignore[assignment]

    def __getitem__(self, i: int) -> tuple[int, int, int]:
        return self.buf[i]

    def __len__(self) -> int:
        return self.n

    def write(self) -> None:
        self.shown = list(self.buf)
        self.writes += 1
