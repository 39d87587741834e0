"""A letter's loop is not a die showing one (issue 9): the "O" of an overlay's "WORLD", white on
maroon, is a die-sized body round a hole; read as a single photo, its hole was taken for a one's
pip and its outline (the letter, 0.83 as wide as long, the hole off its centre) for a cocked die's,
at confidence 1.0. A die's pip is a colour of its own; the loop's hole is the ground it is printed
on, and far bigger than a one's pip (``dice_face.LOOP_HOLLOW``, ``dice_face.LOOP_GROUND``)."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.dice_face import examine
from tavli_pi.vision.lie import die_outline

MAROON = (40, 40, 120)  # BGR
WHITE = (245, 245, 245)


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)


def _ground() -> np.ndarray:
    img = np.zeros((120, 240, 3), np.uint8)
    img[:] = MAROON
    return img


def _letter_o() -> tuple[np.ndarray, tuple[float, float], float]:
    """A bold white "O" on maroon (an overlay's lettering): the image, its hole's centre, its height."""
    img = _ground()
    cv2.ellipse(img, (120, 60), (11, 14), 0, 0, 360, WHITE, -1, cv2.LINE_AA)
    cv2.ellipse(img, (120, 60), (5, 8), 0, 0, 360, MAROON, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0), (120.0, 60.0), 28.0


def _die_one() -> tuple[np.ndarray, tuple[float, float], float]:
    """A white die showing one (a dark red pip) on the same maroon ground."""
    img = _ground()
    cv2.rectangle(img, (107, 47), (133, 73), WHITE, -1, cv2.LINE_AA)
    cv2.circle(img, (120, 60), 4, (20, 20, 160), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0), (120.0, 60.0), 27.0


def test_a_letter_o_looks_like_a_cocked_one_by_its_outline() -> None:
    img, centre, side = _letter_o()
    o = die_outline(img, _same, centre, side)
    assert o is not None, "the letter is outlined like a die (so the test can tell it apart)"
    assert o.hollow > 0.17 and o.hole_ground < 0.5  # a big hole showing the ground


def test_a_letter_o_is_not_a_die() -> None:
    img, centre, side = _letter_o()
    die = examine(img, img, _same, centre, side, 0.0, None, 60.0)
    assert die is None or die.value != 1


def test_a_die_showing_one_on_the_same_ground_is_still_read() -> None:
    img, centre, side = _die_one()
    o = die_outline(img, _same, centre, side)
    assert o is not None and o.hollow < 0.17
    die = examine(img, img, _same, centre, side, 0.0, None, 60.0)
    assert die is not None and die.value == 1 and not die.cocked


def test_the_loop_of_an_overlays_letter_is_no_cocked_one() -> None:
    """The real-like frame 29 (seed 0): a broadcast band's lettering over the board; read as a
    single photo, the loop of one of its letters was reported as a cocked die showing one (0.85)."""
    from tavli_pi.sim.datasets import reallike_scenes
    from tavli_pi.sim.render import render
    from tavli_pi.vision.calibrate import calibrate_image
    from tavli_pi.vision.reader import BoardReader

    scene = reallike_scenes(30, 0)[29]
    assert any(o.kind == "band" for o in scene.overlays)
    r = render(scene, 29)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cal = calibrate_image(r.image, corners, r.truth.home)  # as ``read --corners --home`` calibrates one photo
    obs = BoardReader(cal).read(r.image)
    loop = (471, 355)  # the letter's loop in the picture; no die lies near it
    assert all(np.hypot(t.xy[0] - loop[0], t.xy[1] - loop[1]) > 40 for t in r.truth.dice)
    assert not [d for d in obs.dice if d.value and np.hypot(d.xy[0] - loop[0], d.xy[1] - loop[1]) < 12]
