"""Dark dice on a dark field: pips that all but touch in a row (bench/RESULTS.md, stop 35).

A black die on the navy Pinetti board (bcv-template3) lies turned 45 degrees, its three pips on the
face's diagonal 6-7 px apart with 1-2 px of dark between them. Each pip's 3 px ring ran into its
neighbours, so no pip was a spot, and the black body on the navy field has the field's grey: no
outline either. A pip whose ring is clear but for its neighbours in a row is a spot
(``dice_spots._ringed_in_row``), and a fleck of light on the die's rim beside the three is left out
of their face (``dice._fleck_left_out``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.dice_spots import find_spots
from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import real_frames, score_real

#: drawn 8 times finer, then shrunk: the blur of a camera's pixels
_K = 8


def _scene(pips: list[tuple[float, float]], r: float, field: int = 52, body: int = 42) -> np.ndarray:
    """A 48 x 48 grey view of a dark die (turned 45 degrees, 16 px a side) on a field barely
    lighter than it, with white pips of radius ``r`` at ``pips`` (view px)."""
    big = np.full((48 * _K, 48 * _K), field, np.uint8)
    c = 24 * _K
    s = 8 * np.sqrt(2) * _K
    cv2.fillConvexPoly(big, np.int32([[c, c - s], [c + s, c], [c, c + s], [c - s, c]]), body)
    for x, y in pips:
        cv2.circle(big, (int(x * _K), int(y * _K)), int(r * _K), 235, -1)
    return cv2.GaussianBlur(cv2.resize(big, (48, 48), interpolation=cv2.INTER_AREA), (0, 0), 0.8)


def test_three_pips_that_all_but_touch_in_a_row_are_three_spots() -> None:
    for gap in (6.0, 6.5):
        view = _scene([(24 - gap, 24), (24, 24), (24 + gap, 24)], 2.8)  # 1-2 px between the pips
        got = sorted((x, y) for x, y, bright in find_spots(view, rows=True) if bright)
        assert len(got) == 3, (gap, got)  # base: 0 and 2 (the rings lie on the neighbours)
        assert all(abs(y - 24) <= 1 for _, y in got)


def test_a_bar_is_no_row_of_pips() -> None:
    big = np.full((48 * _K, 48 * _K), 52, np.uint8)
    cv2.rectangle(big, (10 * _K, 22 * _K), (38 * _K, 26 * _K), 235, -1)  # a stroke of lettering, a rim
    view = cv2.resize(big, (48, 48), interpolation=cv2.INTER_AREA)
    assert [s for s in find_spots(view, rows=True) if s[2] and 13 < s[0] < 35] == []


def test_the_black_three_on_the_navy_field_is_read_with_corners(real_data: Path) -> None:
    f = next(f for f in real_frames(real_data) if f.name == "bcv-template3.jpg")
    corners = " ".join(f"{x},{y}" for x, y in f.label["corners"])
    cal = calibrate_image(f.image, corners, f.label["home"])  # ``tavli-pi read PHOTO --corners``
    obs = BoardReader(cal, still_photo=True).read(f.image)
    three = [d for d in obs.dice if np.hypot(d.xy[0] - 328, d.xy[1] - 399) < 12]
    assert [d.value for d in three] == [3], obs.dice  # base: not found
    sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
    assert sc.dice_false == 0 and sc.dice_sure_wrong == 0, obs.dice
    assert sc.dice_right == 4, obs.dice
