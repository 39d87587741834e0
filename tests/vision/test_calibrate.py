"""The field found in the picture, kept between the frames of a stream (``FieldMemory``):
found once while the camera and board stay put, found again when they have moved."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.sim.datasets import reallike_set
from tavli_pi.vision.calibrate import GONE_FRAMES, FieldMemory
from tavli_pi.vision.calibration import order_corners


def _frame() -> np.ndarray:
    r = next(r for r in reallike_set(5, 3) if not r.truth.hand)
    return r.image


def test_the_field_is_found_once_while_the_picture_stays_alike() -> None:
    image = _frame()
    memory = FieldMemory()
    first, source = memory.locate(image)
    assert source == "found" and memory.searches == 1
    rng = np.random.default_rng(1)
    noisy = np.clip(image.astype(np.int16) + rng.integers(-6, 7, image.shape), 0, 255).astype(np.uint8)
    h, w = image.shape[:2]
    hand = image.copy()
    hand[h // 3: h // 2, w // 3: w // 2] = (90, 140, 200)  # something over a part of the board
    for alike in (image, noisy, hand):
        corners, _ = memory.locate(alike)
        assert corners is first
    assert memory.searches == 1


def test_the_field_is_found_again_when_the_camera_moved() -> None:
    image = _frame()
    memory = FieldMemory()
    before = order_corners(memory.locate(image)[0])
    shift = image.shape[1] // 8
    moved = np.roll(image, shift, axis=1)  # the camera turned: the board is further right
    for _ in range(GONE_FRAMES - 1):
        assert memory.locate(moved)[0] is not None and memory.searches == 1  # one frame may be a hand
    after = order_corners(memory.locate(moved)[0])
    assert memory.searches == 2
    assert float(np.min(after[:, 0] - before[:, 0])) > 0.8 * shift  # looked for again: not the old field
    blank = np.full_like(image, 120)
    with pytest.raises(CalibrationError, match="^no board found"):
        for _ in range(GONE_FRAMES):
            memory.locate(blank)
    assert memory.field is None  # a field not seen any more is forgotten, never read through
