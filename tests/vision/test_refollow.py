"""The field followed into a picture turned or zoomed, by the picture's own features (``vision.refollow``)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.refollow import Refollow

TABLE = reallike_game_tables(10, 0)[6]
MOMENTS = random_game(6, turns=6)


def _frames(width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(anchor, a frame three plays on, the field's corners), at ``width`` px."""
    a, b = render(scene_of(MOMENTS[1], **TABLE)), render(scene_of(MOMENTS[8], **TABLE))
    s = width / a.image.shape[1]
    size = (width, round(a.image.shape[0] * s))
    return (cv2.resize(a.image, size, interpolation=cv2.INTER_AREA), cv2.resize(b.image, size, interpolation=cv2.INTER_AREA),
            np.asarray(a.truth.corners, np.float32) * np.float32(s))


def _moved(img: np.ndarray, deg: float, zoom: float) -> tuple[np.ndarray, np.ndarray]:
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), deg, zoom)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE), m


@pytest.mark.parametrize("width", [1280, 640])
@pytest.mark.parametrize("deg,zoom", [(4.0, 1.0), (0.0, 1.1), (-7.0, 0.9)])
def test_the_corners_are_carried_where_the_turn_or_zoom_put_them(width: int, deg: float, zoom: float) -> None:
    anchor, later, corners = _frames(width)
    moved, m = _moved(later, deg, zoom)  # checkers moved since the anchor: their features are outliers
    follow = Refollow(anchor, (0, 0), corners)
    assert follow.look(moved) is None  # one frame is not a picture holding still
    got = follow.look(moved)
    assert got is not None
    truth = cv2.transform(corners[:, None], m)[:, 0]
    assert np.abs(got - truth).max() < 1.5


def test_an_anchor_crop_is_placed_by_its_offset() -> None:
    anchor, later, corners = _frames(1280)
    moved, m = _moved(later, 3.0, 1.0)
    x0, y0 = 100, 40
    follow = Refollow(anchor[y0:, x0:], (x0, y0), corners)
    follow.look(moved)
    got = follow.look(moved)
    assert got is not None
    assert np.abs(got - cv2.transform(corners[:, None], m)[:, 0]).max() < 2.0


def test_a_picture_still_moving_or_with_nothing_to_follow_gives_no_corners() -> None:
    anchor, later, corners = _frames(1280)
    follow = Refollow(anchor, (0, 0), corners)
    follow.look(_moved(later, 3.0, 1.0)[0])
    assert follow.look(_moved(later, 6.0, 1.0)[0]) is None  # turning on: the two frames disagree
    blank = np.full_like(later, 128)
    assert follow.look(blank) is None and follow.look(blank) is None
    blurred = cv2.GaussianBlur(later, (0, 0), 12)
    assert follow.look(blurred) is None and follow.look(blurred) is None
