"""Import the firmware (firmware/*.py, MicroPython subset) into CPython for tests.

The firmware's modules are flat (``proto``, ``unit``, ...) as on the Pico.
``load()`` imports them with the fakes of ``machine``/``neopixel``/``utime``
from tests/firmware/fakes and returns them by name; ``unload()`` removes them
from ``sys.modules`` again so they never shadow anything else.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["FIRMWARE", "FAKES", "MODULES", "load", "unload"]

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
FAKES = Path(__file__).resolve().parent / "fakes"
MODULES = ("ticks", "proto", "debounce", "display", "scene", "unit", "pins", "tm1637", "main")
_FAKE_MODULES = ("machine", "neopixel", "utime")


def load() -> dict[str, ModuleType]:
    for p in (str(FIRMWARE), str(FAKES)):
        if p not in sys.path:
            sys.path.insert(0, p)
    try:
        for name in _FAKE_MODULES:
            importlib.import_module(name)
        return {name: importlib.import_module(name) for name in MODULES}
    finally:
        for p in (str(FIRMWARE), str(FAKES)):
            while p in sys.path:
                sys.path.remove(p)


def unload() -> None:
    for name in MODULES + _FAKE_MODULES:
        mod = sys.modules.get(name)
        origin = getattr(mod, "__file__", "") or ""
        if mod is not None and (origin.startswith(str(FIRMWARE)) or origin.startswith(str(FAKES))):
            del sys.modules[name]
