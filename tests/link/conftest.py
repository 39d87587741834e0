from __future__ import annotations

from tests.firmware.conftest import fw

__all__ = ["fw"]
