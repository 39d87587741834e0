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


def test_a_bar_is_no_row_of_pips() -> None:
    """A stroke (of lettering, a rim) that is no row of parted pips gives no spot along it."""
    big = np.full((48 * _K, 48 * _K), 52, np.uint8)
    cv2.rectangle(big, (10 * _K, 22 * _K), (38 * _K, 26 * _K), 235, -1)  # a stroke of lettering, a rim
    view = cv2.resize(big, (48, 48), interpolation=cv2.INTER_AREA)
    assert [s for s in find_spots(view, rows=True) if s[2] and 13 < s[0] < 35] == []


def test_the_black_three_on_the_navy_field_is_read_with_corners(real_data: Path) -> None:
    """The black 3 (three white pips on the diagonal, 1-2 px apart) is read, and the other three
    dice stay read, nothing else reported (base: the 3 not found)."""
    f = next(f for f in real_frames(real_data) if f.name == "bcv-template3.jpg")
    corners = " ".join(f"{x},{y}" for x, y in f.label["corners"])
    cal = calibrate_image(f.image, corners, f.label["home"])  # ``tavli-pi read PHOTO --corners``
    obs = BoardReader(cal, still_photo=True).read(f.image)
    three = [d for d in obs.dice if np.hypot(d.xy[0] - 328, d.xy[1] - 399) < 12]
    assert [d.value for d in three] == [3], obs.dice  # base: not found
    sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
    assert sc.dice_false == 0 and sc.dice_sure_wrong == 0, obs.dice
    assert sc.dice_right == 4, obs.dice


def test_the_pips_of_the_black_three_are_spots_in_the_canonical_view(real_data: Path) -> None:
    """In the canonical view (the labelled corners) the three pips are spots, each within 2 px of
    the row through them and 5-8 px from the next (base: only the first)."""
    f = next(f for f in real_frames(real_data) if f.name == "bcv-template3.jpg")
    corners = " ".join(f"{x},{y}" for x, y in f.label["corners"])
    cal = calibrate_image(f.image, corners, f.label["home"])
    gray = cv2.cvtColor(cal.warp(f.image), cv2.COLOR_BGR2GRAY)
    cx, cy = cal.to_canonical(np.float32([[328, 399]]))[0]
    got = sorted((x, y) for x, y, bright in find_spots(gray, rows=True)
                 if bright and abs(x - cx) < 9 and abs(y - cy) < 4)
    assert len(got) == 3, got
    assert all(5 <= b[0] - a[0] <= 8 for a, b in zip(got, got[1:])), got
