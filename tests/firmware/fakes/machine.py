"""A fake of MicroPython's ``machine`` module for running firmware/main.py on CPython.

Every Pin ever made is kept in ``PINS`` by number, so a test can drive an
input (``PINS[14].drive(0)``) and read an output's history (``.history``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Pin", "PINS", "reset"]

PINS: dict[int, "Pin"] = {}
DRIVEN: dict[int, int] = {}  # what the outside world holds each pin at (survives re-creating the Pin)


def reset() -> None:
    PINS.clear()
    DRIVEN.clear()


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id: int, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        self._level = 1 if pull == self.PULL_UP else 0
        self.history: list[int] = []
        if value is not None:
            self._set(value)
        PINS[id] = self

    def init(self, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self._set(value)

    def _set(self, v: Any) -> None:
        level = 1 if v else 0
        if not self.history or self.history[-1] != level:
            self.history.append(level)
        self._level = level

    def drive(self, level: int) -> None:
        """Test side: what the outside world holds an input pin at."""
        DRIVEN[self.id] = level

    def value(self, v: Any = None) -> int | None:
        if v is None:
            if self.mode == self.IN:
                return DRIVEN.get(self.id, 1 if self.pull == self.PULL_UP else 0)
            return self._level
        self._set(v)
        return None

    def __call__(self, v: Any = None) -> int | None:
        return self.value(v)
