"""A lone disc larger than a checker (a dice cup) is no sure checker."""

from __future__ import annotations

import contextlib
import io

import cv2
import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.oversize import oversized

R = 20


def _disc_view(radius: float, opening: float | None = None) -> np.ndarray:
    img = np.full((160, 160, 3), (40, 110, 40), np.uint8)  # a green field
    cv2.circle(img, (80, 80), int(round(radius)), (40, 40, 150), -1, cv2.LINE_AA)
    if opening is not None:
        cv2.circle(img, (80, 80), int(round(opening)), (20, 20, 80), -1, cv2.LINE_AA)
    return img


def test_a_checker_sized_disc_is_not_oversized() -> None:
    g = ck.gradients(_disc_view(R))
    assert not oversized(g, [(80.0, 80.0, float(R))]).any()


def test_a_cup_larger_than_a_checker_is_oversized() -> None:
    """A red cup (1.3-1.5 checker radii, its opening 0.8 of that) where a red checker would stand."""
    for size in (1.3, 1.4, 1.5):
        g = ck.gradients(_disc_view(size * R, 0.8 * size * R))
        assert oversized(g, [(80.0, 80.0, float(R))]).all(), size


def test_no_disc_no_answer() -> None:
    g = ck.gradients(_disc_view(R))
    assert oversized(g, []).shape == (0,)


def test_a_dark_cup_on_a_point_is_not_read_as_a_sure_checker() -> None:
    """Real-like frame 50 (seed 1), read as ``read --corners``: a brown cup at the base of point 4
    of a board with dark red checkers was read as one dark checker at 0.98; the point is empty."""
    from tavli_pi.sim.datasets import reallike_scenes
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader

    scene = reallike_scenes(51, 1)[50]
    assert [p.kind for p in scene.props] == ["cup"]
    r = render(scene, 100003 + 50)
    assert r.truth.light[3] == r.truth.dark[3] == 0
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    with contextlib.redirect_stdout(io.StringIO()):
        cal = calibrate_image(r.image, corners, r.truth.home)
    obs = BoardReader(cal, still_photo=True).read(r.image)
    spot = obs.points[3]
    assert not obs.hand
    wrong = [e.confidence for e, n in ((spot.light, 0), (spot.dark, 0)) if e.best != n]
    assert all(c < 0.9 for c in wrong)
