from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.firmware import fwload


@pytest.fixture
def fw() -> Iterator[dict[str, ModuleType]]:
    """The firmware modules, freshly imported with fake hardware modules."""
    fwload.unload()
    mods = fwload.load()
    import machine  # the fake, loaded by fwload
    import utime

    machine.reset()
    utime.NOW[0] = 0
    try:
        yield mods
    finally:
        fwload.unload()
