"""``SimCamera``: a Camera that plays a sequence of Scenes as rendered Frames.

The sequence is any iterable of ``Scene`` or ``(Scene, repeat)`` pairs and is
consumed lazily, so a scripted game can generate scenes as frames are read.
Time is fake: frame ``i`` has ``t = i / fps`` unless a ``clock`` is injected.
The ground truth of the last frame read is kept in ``last_truth``.

>>> from tavli_pi.rules.position import Position
>>> from tavli_pi.sim.scene import scene_from_position
>>> with SimCamera([(scene_from_position(Position.start()), 2)], fps=5) as cam:
...     [(f.index, f.t) for f in cam]
[(0, 0.0), (1, 0.2)]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tavli_pi.errors import CameraError
from tavli_pi.rules.position import Position
from tavli_pi.sim.render import Rendered, Truth, render
from tavli_pi.sim.scene import Scene, scene_from_position
from tavli_pi.vision.camera import Camera

if TYPE_CHECKING:
    from tavli_pi.referee.inputs import PlayerInput
    from tavli_pi.sim.script import Moment

__all__ = ["SimCamera", "open_sim_camera"]

Item = Scene | tuple[Scene, int]


def _expand(items: Iterable[Item]) -> Iterator[Scene]:
    for item in items:
        if isinstance(item, Scene):
            yield item
        else:
            scene, repeat = item
            if not isinstance(scene, Scene) or repeat < 0:
                raise CameraError("SimCamera plays Scene or (Scene, repeat >= 0) items")
            for _ in range(repeat):
                yield scene


class SimCamera(Camera):
    """Renders each Scene of ``scenes`` into a Frame.

    Every frame uses ``seed`` for the scene (a still scene stays still: same
    dice faces, same glare) and ``seed + index`` for the sensor noise.

    ``clock``: a callable returning seconds, used for ``Frame.t`` instead of
    ``index / fps`` (tests inject a fake one). ``vary``: when False the noise
    too uses ``seed``, so a repeated scene gives identical pixels.
    """

    def __init__(
        self,
        scenes: Iterable[Item],
        fps: float = 10.0,
        seed: int = 0,
        clock: Callable[[], float] | None = None,
        vary: bool = True,
    ) -> None:
        super().__init__()
        if fps <= 0:
            raise CameraError(f"SimCamera fps must be positive, got {fps}")
        self._scenes = _expand(scenes)
        self._fps = fps
        self._seed = seed
        self._clock = clock
        self._vary = vary
        self._last: Rendered | None = None
        self._scene: Scene | None = None  # the scene of the frame ``read()`` returned last
        self._cache: tuple[Scene, int, Rendered] | None = None

    @property
    def last_truth(self) -> Truth | None:
        """Ground truth of the frame ``read()`` returned last (None before the first)."""
        return None if self._last is None else self._last.truth

    def _now(self) -> float:
        if self._clock is not None:
            return float(self._clock())
        # Camera.read stamps the frame before advancing the index
        return self._index / self._fps

    def seek(self, index: int) -> bool:
        """Play on from frame ``index`` (forward only: the scenes are a stream); the frame's time
        and sensor noise are those an unbroken run gives it."""
        self._check_open()
        if index < self._index:
            return False
        for _ in range(index - self._index):
            if next(self._scenes, None) is None:
                return False
            self._index += 1
        return True

    def hold(self, frames: int = 1) -> bool:
        """Show the scene of the last frame read again on the next ``frames`` reads, before the
        scenes to come (the table standing as it is while its players do something else: answer the
        referee); each such frame has its own time and sensor noise. False before the first frame."""
        self._check_open()
        if self._scene is None or frames < 0:
            return False
        self._scenes = itertools.chain(itertools.repeat(self._scene, frames), self._scenes)
        return True

    def _grab(self) -> np.ndarray | None:
        try:
            scene = next(self._scenes)
        except StopIteration:
            return None
        self._scene = scene
        noise_seed = self._seed + self._index if self._vary else self._seed
        if self._cache is not None and self._cache[0] == scene and self._cache[1] == noise_seed:
            rendered = self._cache[2]
        else:
            rendered = render(scene, self._seed, noise_seed)
            self._cache = (scene, noise_seed, rendered)
        self._last = rendered
        return rendered.image.copy()

    def _release(self) -> None:
        self._scenes = iter(())
        self._cache = None


def open_sim_camera(spec: str = "", **kw: Any) -> SimCamera:
    """The camera behind ``open_camera("sim:...")``.

    ``sim:`` or ``sim:start[:N]`` shows the starting position (N frames,
    default endless); ``sim:demo`` plays the demo's scripted match, with its
    players' button presses (:class:`ScriptCamera`); ``sim:easy:N``, ``sim:hard:N`` and
    ``sim:reallike:N`` play N scenes of the seeded datasets. ``kw`` goes to ``SimCamera`` (fps, seed, clock) and,
    under ``scenes=``, replaces the spec by any iterable of scenes.
    """
    if "scenes" in kw:
        return SimCamera(kw.pop("scenes"), **kw)
    kind, _, rest = spec.partition(":")
    count = int(rest) if rest.isdigit() else None
    seed = int(kw.get("seed", 0))
    if kind in ("", "start"):
        scene = scene_from_position(Position.start())
        if count is None:
            def forever() -> Iterator[Scene]:
                while True:
                    yield scene
            return SimCamera(forever(), **kw)
        return SimCamera([(scene, count)], **kw)
    if kind == "demo":
        from tavli_pi.sim.script import demo_match

        kw.setdefault("seed", 7)
        return ScriptCamera(demo_match(), **kw)
    if kind in ("easy", "hard", "reallike"):
        from tavli_pi.sim import datasets

        make = {"easy": datasets.easy_scenes, "hard": datasets.hard_scenes, "reallike": datasets.reallike_scenes}[kind]
        return SimCamera(make(count if count is not None else 20, seed), **kw)
    raise CameraError(f"unknown simulator source sim:{spec}; use sim:start, sim:demo, sim:easy:N, sim:hard:N or sim:reallike:N")


class ScriptCamera(SimCamera):
    """A scripted match as a camera: each moment's frame, and the player inputs made just before
    it (``inputs_at``), which :meth:`tavli_pi.app.TableApp.run` submits before that frame."""

    def __init__(self, moments: Sequence[Moment], **kw: Any) -> None:
        from tavli_pi.sim.table import scenes_of

        super().__init__(scenes_of(moments), **kw)
        self.moments = tuple(moments)

    def inputs_at(self, index: int) -> tuple[PlayerInput, ...]:
        return self.moments[index].inputs if 0 <= index < len(self.moments) else ()
