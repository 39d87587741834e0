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


def _which(image: np.ndarray) -> int:
    """Which frame of ``_video`` this is (frame i is grey 40 * i, give or take the codec)."""
    return int(round(float(image.mean()) / 40))


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
    # a 10 fps recording read at 5 fps: every other frame, on the recording's own clock
    with open_camera(f"replay:{_video(tmp_path / 'v.avi')}", fps=5.0) as cam:
        assert isinstance(cam, ReplayCamera)
        frames = list(cam)
    assert [f.t for f in frames] == [0.0, 0.2]
    assert [_which(f.image) for f in frames] == [0, 2]  # the recording's frames 0 and 2
    assert [f.index for f in frames] == [0, 1]


def test_replay_reads_every_frame_at_the_recordings_rate_or_more(tmp_path: Path) -> None:
    video = _video(tmp_path / "v.avi", n=4)
    for fps in (10.0, 25.0):
        with open_camera(f"replay:{video}", fps=fps) as cam:
            frames = list(cam)
        assert [round(f.t, 6) for f in frames] == [0.0, 0.1, 0.2, 0.3]  # its clock, not ``fps``
        assert [_which(f.image) for f in frames] == [0, 1, 2, 3]


def test_replay_seek_finds_the_frame_read_at_the_lower_rate(tmp_path: Path) -> None:
    video = _video(tmp_path / "v.avi", n=7)
    with ReplayCamera(video, fps=5.0) as cam:
        whole = [(f.index, f.t, _which(f.image)) for f in cam]
    assert whole == [(0, 0.0, 0), (1, 0.2, 2), (2, 0.4, 4), (3, 0.6, 6)]
    with ReplayCamera(video, fps=5.0) as cam:
        assert cam.seek(2)
        assert [(f.index, f.t, _which(f.image)) for f in cam] == whole[2:]


def test_a_folder_of_frames_is_on_the_fps_clock(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((8, 8, 3), 40 * i, np.uint8))
    with ReplayCamera(tmp_path, fps=4.0) as cam:
        assert [(f.t, _which(f.image)) for f in cam] == [(0.0, 0), (0.25, 1), (0.5, 2)]


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
