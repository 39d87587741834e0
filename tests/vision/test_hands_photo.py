"""A hand over the board in a single photo, with no calibration learnt from a clear board.

On the WTC 2022 frames the arm of frame4 is in a dark sleeve: the hand's skin ends at the
field's edge and never crosses the frame. Every labelled frame is read as ``read --corners``
reads it (calibrated on the photo itself), and frame4 also as ``read IMAGE`` (field found).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tavli_pi.commands.read_photo import photo_calibration, read_observation
from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import wtc_labels

WTC = ("frame0.jpg", "frame1.jpg", "frame2.jpg", "frame3.jpg", "frame4.jpg", "frame5.jpg", "test8.jpg", "test9.jpg")


def _image(real: Path, name: str) -> np.ndarray:
    image = cv2.imread(str(real / "boards/wtc2022" / name))
    assert image is not None, name
    return image


@pytest.mark.parametrize("name", WTC)
def test_hand_flag_of_a_photo_calibrated_on_itself(real_data: Path, name: str) -> None:
    lab = wtc_labels(real_data)[name]
    image = _image(real_data, name)
    corners = " ".join(f"{x},{y}" for x, y in lab["corners"])
    cal = calibrate_image(image, corners, lab["home"])
    obs = BoardReader(cal, still_photo=True).read(image)
    assert obs.hand is lab["hand"]


def test_sleeved_arm_is_flagged_with_the_field_found(real_data: Path) -> None:
    image = _image(real_data, "frame4.jpg")
    assert wtc_labels(real_data)["frame4.jpg"]["hand"] is True
    cal, learnt = photo_calibration(image)
    assert read_observation(image, cal, learnt).hand is True
