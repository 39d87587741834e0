"""The picture creeping under a pixel, measured against the board learnt (``vision.register``)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.register import CREEP_AT, CREEP_EVERY, CreepWatch, creep, crept_corners
from tavli_pi.vision.setup import learn_board

TABLE = reallike_game_tables(10, 0)[6]
MOMENTS = random_game(6, turns=6)


@lru_cache(maxsize=1)
def _learnt() -> tuple[Calibration, np.ndarray]:
    """(the board learnt from its set-up frame, a frame three plays on)."""
    start, later = render(scene_of(MOMENTS[0], **TABLE)), render(scene_of(MOMENTS[8], **TABLE))
    cal = learn_board(start.image, Calibration(np.asarray(start.truth.corners, np.float32), home=start.truth.home))
    return cal, later.image


def _crept(img: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return cv2.warpAffine(img, np.float32([[1, 0, dx], [0, 1, dy]]), (img.shape[1], img.shape[0]),
                          borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("dx,dy", [(0.0, 0.6), (0.5, -0.4), (-0.3, 1.2)])
def test_a_creep_is_measured_and_the_corners_follow_it(dx: float, dy: float) -> None:
    cal, later = _learnt()  # checkers moved since the board was learnt: left out of the measure
    moved = _crept(later, dx, dy)
    got = creep(cal, moved)
    assert got is not None
    corners = crept_corners(cal, *got)
    # (the board seen in perspective: an even creep of the picture is not quite even in the canonical view)
    assert np.abs(corners - (cal.corners + np.float32([dx, dy]))).max() < 0.3
    # through the corners followed, the picture stands where the board was learnt
    again = creep(cal.with_(corners=corners), moved)
    assert again is not None and np.hypot(*again) < 0.15


def test_no_creep_where_the_picture_stands_where_it_did() -> None:
    cal, later = _learnt()
    got = creep(cal, later)
    assert got is not None and np.hypot(*got) < 0.1


def test_nothing_learnt_or_a_board_covered_is_not_measured() -> None:
    cal, later = _learnt()
    assert creep(cal.with_(background=""), later) is None
    covered = later.copy()
    x0, y0 = np.asarray(cal.corners).min(axis=0).astype(int)
    x1, y1 = np.asarray(cal.corners).max(axis=0).astype(int)
    covered[y0:y1, x0:x1] = (90, 130, 200)  # an arm's colour over the whole field
    assert creep(cal, covered) is None


def test_the_watch_follows_a_creep_two_measures_agree_on_and_waits_between_measures() -> None:
    cal, later = _learnt()
    moved = _crept(later, 0.0, 0.8)
    watch = CreepWatch(since=0)
    assert watch.look(cal, moved, CREEP_EVERY - 1) is None  # not measured yet
    assert watch.look(cal, moved, CREEP_EVERY) is None  # seen once
    got = watch.look(cal, moved, CREEP_EVERY + 1)  # measured again at once: followed
    assert got is not None and np.hypot(*got) >= CREEP_AT  # canonical px (this table's canonical y runs up)
    assert np.abs(crept_corners(cal, *got) - (cal.corners + np.float32([0.0, 0.8]))).max() < 0.3
    # a creep seen once and then not again is not followed
    watch = CreepWatch(since=0)
    assert watch.look(cal, moved, CREEP_EVERY) is None
    assert watch.look(cal, later, CREEP_EVERY + 1) is None
    assert watch.look(cal, moved, CREEP_EVERY + 2) is None  # waits CREEP_EVERY frames again
