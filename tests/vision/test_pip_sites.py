"""A small die's face read at its pip places (``vision.pip_sites``) and the reader's use of it: a face
under ``dice_vet.NEED_PX`` the pip finder read is kept when its places show the same face clearly."""

from __future__ import annotations

import numpy as np

from tests.vision._recording import dice_read_from, recording
from tavli_pi.vision.dice_vet import NEED_PX, SMALL_CONFIDENCE
from tavli_pi.vision.pip_sites import face_crop, site_value, sites_agree


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)


def test_the_places_of_8_px_dice_show_their_value_and_never_another_clearly() -> None:
    """Recording 0's game 0 (wood, dice of 8 px, the least ``dice_vet.LEAST_PX`` reads): at each still
    die's true place and size, its pip places show no other value clearly, and most show its own."""
    right = asked = 0
    for i, truth, image, _ in recording(0, frames=30):
        if i < 20:
            continue
        for d in truth.dice:
            if d.moving:
                continue
            asked += 1
            right += sites_agree(image, _same, d.xy, d.size_px, d.value)
            assert not any(sites_agree(image, _same, d.xy, d.size_px, v) for v in range(1, 7) if v != d.value)
    assert asked >= 10 and right >= asked // 2


def test_a_face_with_no_contrast_shows_no_value() -> None:
    flat = np.full((48, 48), 128, np.uint8)
    assert site_value(flat).value == 0
    assert site_value(face_crop(np.full((60, 60, 3), 90, np.uint8), _same, (30.0, 30.0), 10.0)).value == 0


def test_8_px_dice_are_read_right_where_their_pip_places_agree() -> None:
    """Recording 0's game 0, frames 23-26: a 4-3 of 8 px lies still; the reader reads both dice right,
    above ``SMALL_CONFIDENCE`` (kept by ``dice_vet``), and no die with a wrong value (base: both "too
    small to read" on every frame)."""
    for i, truth, dice in dice_read_from(0, 23, 27):
        still = [d for d in truth.dice if not d.moving]
        assert sorted(d.value for d in still) == [3, 4]
        for d in still:
            assert d.size_px < NEED_PX
            near = [r for r in dice if np.hypot(r.xy[0] - d.xy[0], r.xy[1] - d.xy[1]) < max(0.9 * d.size_px, 8.0)]
            assert near and near[0].value == d.value, (i, d.value, near)
            assert near[0].value_confidence > SMALL_CONFIDENCE
