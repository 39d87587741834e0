"""B4: the calibration learns which side's home is where from the set-up board."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import CameraPose, Look, scene_from_position
from tavli_pi.vision.calibration import order_corners
from tavli_pi.vision.home import learn_home
from tavli_pi.vision.reader import BoardReader

from tests.vision._eval import wtc_labels


@pytest.mark.parametrize("home", ["bottom-right", "bottom-left"])
@pytest.mark.parametrize("turned", [False, True])
def test_home_and_seat_are_learnt_from_the_start_position(home: str, turned: bool) -> None:
    # turned: the camera sees the board from the dark player's side (the light player at the top)
    pose = CameraPose(rotation_deg=180.0 if turned else 0.0)
    r = render(scene_from_position(Position.start(), home=home, pose=pose, look=Look(noise=2.0)), seed=2)
    corners = order_corners(r.truth.corners)  # as a person gives them: by the image's axes
    cal = learn_home(corners, r.image)
    # the home side as the light player sees it, whichever side of the board the camera is on
    assert cal.home == home
    # the field is now seen from the light player's seat: the stacks that tell the
    # orientation apart (B3: light's 24, 13 and 8; dark's on light's 1, 12 and 17) read right
    light, dark = BoardReader(cal).read(r.image).best_counts()
    assert (light[23], light[12], light[7]) == (2, 5, 3)
    assert (dark[0], dark[11], dark[16]) == (2, 5, 3)


def test_a_board_not_set_up_is_a_clear_error() -> None:
    pos = Position.from_counts({1: 8, 2: 7}, {1: 8, 2: 7})
    r = render(scene_from_position(pos), seed=1)
    with pytest.raises(CalibrationError, match="set the checkers up"):
        learn_home(order_corners(r.truth.corners), r.image)


def test_real_frame_in_play_gives_no_false_certainty(real_data: Path) -> None:
    # a real frame mid-game is not a set-up board: refuse rather than guess
    import cv2

    lab = wtc_labels(real_data)["frame0.jpg"]
    img = cv2.imread(str(real_data / "boards/wtc2022/frame0.jpg"))
    with pytest.raises(CalibrationError):
        learn_home(np.asarray(lab["corners"], np.float32), img)
