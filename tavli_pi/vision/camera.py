"""Camera sources: one small interface, several implementations.

``open_camera("picamera2" | "opencv:0" | "replay:PATH")`` picks one by a config
string; other sources register a scheme with :func:`register_camera` (the
simulator's ``sim:`` is registered lazily by ``tavli_pi.sources``, so vision
never imports the simulator). Picamera2 is imported only inside
``Picamera2Camera`` so this module imports cleanly on any machine.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import cv2
import numpy as np

from tavli_pi.errors import CameraError

__all__ = [
    "Frame",
    "Camera",
    "Picamera2Camera",
    "OpenCVCamera",
    "ReplayCamera",
    "open_camera",
    "register_camera",
    "IMAGE_SUFFIXES",
]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class Frame:
    """One picture: ``image`` is H x W x 3 BGR uint8; ``t`` in seconds."""

    image: np.ndarray
    index: int
    t: float


class Camera(ABC):
    """A source of frames. ``read()`` returns ``None`` once the source is exhausted."""

    def __init__(self) -> None:
        self._closed = False
        self._index = 0

    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise CameraError(f"{type(self).__name__} is closed; open a new camera")

    @abstractmethod
    def _grab(self) -> np.ndarray | None: ...

    def _now(self) -> float:
        return time.monotonic()

    def read(self) -> Frame | None:
        self._check_open()
        image = self._grab()
        if image is None:
            return None
        frame = Frame(image=image, index=self._index, t=self._now())
        self._index += 1
        return frame

    def seek(self, index: int) -> bool:
        """Make the next ``read()`` return frame ``index`` (a resumed match replays from where its
        log ends). A live camera cannot: it returns False and goes on from now."""
        return False

    def _release(self) -> None:  # noqa: B027 - optional hook
        pass

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._release()

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self) -> Camera:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Picamera2Camera(Camera):
    """The Raspberry Pi camera through picamera2 (imported here, never at module import)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), fps: float | None = None) -> None:
        super().__init__()
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2 is not installed: on a Raspberry Pi run "
                "`sudo apt install python3-picamera2`, elsewhere use opencv:0 or replay:PATH"
            ) from exc
        try:
            self._cam: Any = Picamera2()
            # "FrameRate" is picamera2's shorthand control for the frame duration limits.
            controls = {"FrameRate": float(fps)} if fps else {}
            config = self._cam.create_video_configuration(main={"size": size, "format": "RGB888"},
                                                          controls=controls)
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # picamera2 raises RuntimeError for everything
            raise CameraError(f"could not start the Pi camera ({exc}); check the ribbon cable") from exc

    def _grab(self) -> np.ndarray | None:
        # picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's BGR.
        image = self._cam.capture_array("main")
        return np.ascontiguousarray(image[:, :, :3])

    def _release(self) -> None:
        self._cam.stop()
        self._cam.close()


class OpenCVCamera(Camera):
    """A USB webcam (or any source cv2.VideoCapture opens)."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] | None = (1280, 720),
                 fps: float | None = None) -> None:
        super().__init__()
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            raise CameraError(f"could not open camera {device!r}; is it plugged in (ls /dev/video*)?")
        if size is not None:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, float(fps))  # a request; webcams may round it

    def _grab(self) -> np.ndarray | None:
        ok, image = self._cap.read()
        if not ok:
            raise CameraError("the camera stopped delivering frames; check its cable")
        return np.asarray(image)

    def _release(self) -> None:
        self._cap.release()


class ReplayCamera(Camera):
    """Replays a video file or a folder of images (sorted by name) with a fake clock.

    A folder's images are ``1 / fps`` seconds apart. A video keeps its own clock (the frame rate
    it was recorded at, ``CAP_PROP_FPS``): frames are read at ``fps`` a second of the recording,
    every frame when ``fps`` is the recording's rate or more, else the frame due at each tick
    (a 30 fps recording read at 10 fps gives every third frame, 0.1 s apart), as a camera
    running at ``fps`` over the same table would give them.
    """

    def __init__(self, path: str | Path, fps: float = 10.0, loop: bool = False) -> None:
        super().__init__()
        self._path = Path(path)
        self._fps = fps
        self._loop = loop
        self._files: list[Path] = []
        self._cap: Any = None
        self._pos = 0
        self._video_fps = 0.0  # the recording's own frame rate (0: not known; ``fps`` is its clock)
        self._at = 0  # the next video frame ``_grab`` would decode
        self._lap = 0  # the first frame index of this lap through a looped video
        if self._path.is_dir():
            self._files = sorted(
                p for p in self._path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES
            )
            if not self._files:
                raise CameraError(f"no images in {self._path}; put .jpg or .png frames there")
        elif self._path.is_file():
            self._cap = cv2.VideoCapture(str(self._path))
            if not self._cap.isOpened():
                raise CameraError(f"could not open video {self._path}; is it a video file?")
            rate = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
            self._video_fps = rate if 0.5 <= rate <= 1000.0 else 0.0
        else:
            raise CameraError(f"{self._path} does not exist; give a video file or an image folder")

    @property
    def _step(self) -> float:
        """Video frames a tick: 1 when every frame is read."""
        return max(1.0, self._video_fps / self._fps) if self._video_fps else 1.0

    def _video_frame(self, index: int) -> int:
        """The video frame that frame ``index`` of the replay is (in this lap of a looped video)."""
        return int(round((index - self._lap) * self._step))

    def _now(self) -> float:
        if self._video_fps:
            return self._index * self._step / self._video_fps
        return self._index / self._fps

    def seek(self, index: int) -> bool:
        """Replay from frame ``index`` (of the folder's images, or of the replay's frames of the video)."""
        self._check_open()
        if index < 0 or (self._files and index >= len(self._files)):
            return False
        if self._files:
            self._pos = index
        else:
            self._lap = 0
            target = self._video_frame(index)
            if not self._cap.set(cv2.CAP_PROP_POS_FRAMES, target):
                return False
            self._at = target
        self._index = index
        return True

    def _grab(self) -> np.ndarray | None:
        if self._files:
            if self._pos >= len(self._files):
                if not self._loop:
                    return None
                self._pos = 0
            path = self._files[self._pos]
            self._pos += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise CameraError(f"could not read image {path}; is the file corrupt?")
            return np.asarray(image)
        ok, image = self._next_video_frame()
        if not ok:
            if self._loop and self._index > self._lap:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._at, self._lap = 0, self._index
                ok, image = self._next_video_frame()
            if not ok:
                return None
        return np.asarray(image)

    def _next_video_frame(self) -> tuple[bool, Any]:
        """Decode the video frame due now, skipping (grabbing without decoding) the ones between."""
        target = self._video_frame(self._index)
        while self._at < target:
            if not self._cap.grab():
                return False, None
            self._at += 1
        ok, image = self._cap.read()
        self._at += 1
        return bool(ok), image

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()


#: camera schemes added by whoever owns a source: ``scheme -> factory(arg, **kw)``
_REGISTRY: dict[str, Callable[..., Camera]] = {}


def register_camera(scheme: str, factory: Callable[..., Camera]) -> None:
    """Make ``open_camera("scheme:arg", **kw)`` return ``factory(arg, **kw)``.

    The owner of a source registers it (``tavli_pi.sources`` registers
    the simulator as ``sim:``), so this module never imports them.

    >>> register_camera("picamera2", lambda arg: None)
    Traceback (most recent call last):
    ...
    ValueError: camera scheme 'picamera2' is built in
    """
    if scheme in _BUILT_IN:
        raise ValueError(f"camera scheme {scheme!r} is built in")
    _REGISTRY[scheme] = factory


_BUILT_IN = ("picamera2", "opencv", "replay")


def open_camera(spec: str, **kw: Any) -> Camera:
    """Open a camera by config string: ``picamera2``, ``opencv:0``, ``replay:PATH`` or a registered scheme."""
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return Picamera2Camera(**kw)
    if kind == "opencv":
        device: int | str = int(arg) if arg.isdigit() else (arg or 0)
        return OpenCVCamera(device, **kw)
    if kind == "replay":
        if not arg:
            raise CameraError("replay needs a path: replay:/path/to/video.mp4 or replay:/path/to/folder")
        return ReplayCamera(arg, **kw)
    factory = _REGISTRY.get(kind)
    if factory is not None:
        return factory(arg, **kw)
    known = ", ".join(["picamera2", "opencv:N", "replay:PATH", *(f"{k}:..." for k in sorted(_REGISTRY))])
    raise CameraError(f"unknown camera {spec!r}; use {known}")
