"""Camera sources that live outside ``tavli_pi.vision``, registered without importing them.

``open_camera`` (:mod:`tavli_pi.vision.camera`) knows ``picamera2``,
``opencv:N`` and ``replay:PATH``; other schemes are registered by their
owners. Importing an owner (the simulator) costs start-up time, so each is
named here by ``module:function`` and imported on first use (issue 12: only
the chosen subcommand loads its heavy modules). The app calls
:func:`register_sources` before it opens its configured camera, so
``[camera] source = "sim:..."`` works for ``tavli-pi run`` and every other
caller of :class:`tavli_pi.app.TableApp`.
"""

from __future__ import annotations

import importlib
from functools import partial
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tavli_pi.vision.camera import Camera

__all__ = ["LAZY_SOURCES", "register_sources"]

#: camera scheme -> "module:function" called as ``function(arg, **kw)`` for ``scheme:arg``
LAZY_SOURCES: dict[str, str] = {
    "sim": "tavli_pi.sim.camera:open_sim_camera",
}


def _open(target: str, arg: str, **kw: Any) -> Camera:
    module, _, name = target.partition(":")
    factory = getattr(importlib.import_module(module), name)
    camera: Camera = factory(arg, **kw)
    return camera


def register_sources() -> None:
    """Register every scheme of :data:`LAZY_SOURCES` with ``open_camera`` (idempotent)."""
    from tavli_pi.vision.camera import register_camera

    for scheme, target in LAZY_SOURCES.items():
        register_camera(scheme, partial(_open, target))
