"""The truth a gate probe compares with: the scene of every frame the simulated camera gives, and the scene
of the frame the reading in use was read from (shared by ``probe_gate_level.py`` and ``probe_gate_blocks.py``).

``install()`` patches ``SimCamera._grab`` to note each frame's scene; the probe's patched ``BoardReader.read``
asks ``still()`` (the camera shows the very scene the reading in use was read from) and then calls
``read_as(kind)`` with the reader's ``last_kind`` (any read but "unchanged" makes this frame's scene the
reading's). ``reset()`` before each game.
"""

from __future__ import annotations

from typing import Any

from tavli_pi.sim.camera import SimCamera


class SceneTruth:
    def __init__(self) -> None:
        self.grabbed: list[Any] = []  # the scene of every frame the camera gave
        self.kept: Any = None  # the scene of the frame the reading in use was read from

    def install(self) -> None:
        grab = SimCamera._grab
        grabbed = self.grabbed

        def grab_probe(camera: SimCamera) -> Any:
            out = grab(camera)
            grabbed.append(camera._scene)  # noqa: SLF001
            return out

        SimCamera._grab = grab_probe  # type: ignore[method-assign, assignment]

    def still(self) -> bool:
        return bool(self.grabbed[-1] == self.kept)

    def read_as(self, kind: str) -> None:
        if kind != "unchanged":
            self.kept = self.grabbed[-1]

    def reset(self) -> None:
        self.kept = None
