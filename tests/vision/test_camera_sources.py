"""open_camera with the keywords the app passes (``fps``): every source accepts them.

The app opens its camera as ``open_camera(config.camera, fps=config.fps)``; a
source that refused ``fps`` crashed ``tavli-pi run`` with a TypeError on the Pi.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tavli_pi.errors import CameraError
from tavli_pi.vision.camera import OpenCVCamera, Picamera2Camera, ReplayCamera, open_camera


def _video(path: Path, n: int = 3) -> Path:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert w.isOpened()
    for i in range(n):
        w.write(np.full((48, 64, 3), 40 * i, np.uint8))
    w.release()
    return path


def test_opencv_source_takes_fps_and_reads_frames(tmp_path: Path) -> None:
    video = _video(tmp_path / "v.avi")
    with open_camera(f"opencv:{video}", fps=10.0) as cam:
        assert isinstance(cam, OpenCVCamera)
        frame = cam.read()
        assert frame is not None and frame.image.shape == (48, 64, 3) and frame.index == 0


def test_opencv_missing_device_is_a_camera_error_with_fps() -> None:
    with pytest.raises(CameraError, match="plugged in"):
        open_camera("opencv:/nonexistent/video.avi", fps=10.0)


def test_replay_source_takes_fps(tmp_path: Path) -> None:
    with open_camera(f"replay:{_video(tmp_path / 'v.avi')}", fps=5.0) as cam:
        assert isinstance(cam, ReplayCamera)
        assert [f.t for f in cam] == [0.0, 0.2, 0.4]


def test_picamera2_gets_the_frame_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    # No Pi camera here: a stand-in module records what Picamera2 is asked for.
    calls: dict[str, Any] = {}

    class Picamera2:
        def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
            calls["config"] = kw
            return kw

        def configure(self, config: dict[str, Any]) -> None:
            calls["configured"] = config

        def start(self) -> None:
            calls["started"] = True

        def capture_array(self, name: str) -> np.ndarray:
            return np.zeros((720, 1280, 3), np.uint8)

        def stop(self) -> None:
            calls["stopped"] = True

        def close(self) -> None:
            calls["closed"] = True

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=Picamera2))
    with open_camera("picamera2", fps=12.0) as cam:
        assert isinstance(cam, Picamera2Camera)
        frame = cam.read()
        assert frame is not None and frame.image.shape == (720, 1280, 3)
    assert calls["config"] == {"main": {"size": (1280, 720), "format": "RGB888"}, "controls": {"FrameRate": 12.0}}
    assert calls["started"] and calls["stopped"] and calls["closed"]


def test_picamera2_missing_is_a_camera_error_not_a_type_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a PC
    with pytest.raises(CameraError, match="python3-picamera2"):
        open_camera("picamera2", fps=10.0)
