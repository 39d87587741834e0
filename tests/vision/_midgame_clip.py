"""The first frame of a ``bench_video.py --from-play 6 --hold 12`` clip as the app sees it (MP4-compressed)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.bench_video import midgame
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scenes_of


def first_frame(game: int, tmp_path: Path) -> tuple[np.ndarray, np.ndarray, dict[str, object]]:
    """(the clip's first frame written to an MP4 and read back, its true field corners, the table) of
    game ``game`` of ``bench_video.py --turns 10 --from-play 6 --hold 12`` (seed 0); skipped where
    OpenCV writes no MP4."""
    kw = reallike_game_tables(48, 0)[game]
    cam = SimCamera(scenes_of(midgame(random_game(game, turns=10), 6, 12), **kw), fps=10.0, seed=game)
    frame = cam.read()
    assert frame is not None and cam.last_truth is not None
    path = tmp_path / f"game{game}.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 10.0, frame.image.shape[1::-1])
    if not writer.isOpened():
        pytest.skip("OpenCV cannot write MP4 here")
    writer.write(frame.image)
    writer.release()
    ok, image = cv2.VideoCapture(str(path)).read()
    assert ok
    return image, np.asarray(cam.last_truth.corners, np.float32), kw
