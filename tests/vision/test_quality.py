"""Pictures no board can be read from get one clear reason each."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.quality import MIN_FIELD_PX, field_problem, image_problem


def _scene() -> np.ndarray:
    rng = np.random.default_rng(0)
    img = np.full((480, 640, 3), 120, np.uint8)
    for _ in range(40):
        x, y = int(rng.integers(0, 600)), int(rng.integers(0, 440))
        cv2.rectangle(img, (x, y), (x + 30, y + 30), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    return img


def test_a_sharp_lit_picture_passes() -> None:
    assert image_problem(_scene()) is None


def test_all_black_is_too_dark() -> None:
    msg = image_problem(np.zeros((720, 1280, 3), np.uint8))
    assert msg is not None and msg.startswith("no board found") and "too dark" in msg and "light" in msg


def test_too_small_and_too_blurred_say_so() -> None:
    small = image_problem(cv2.resize(_scene(), (120, 90)))
    assert small is not None and "too small" in small and "closer" in small
    blurred = image_problem(cv2.GaussianBlur(_scene(), (0, 0), 3))
    assert blurred is not None and "too blurred" in blurred and "still" in blurred


def test_a_one_pixel_field_is_refused() -> None:
    msg = field_problem(np.float32([[10, 10], [11, 10], [11, 11], [10, 11]]))
    assert msg is not None and f"need {MIN_FIELD_PX}" in msg
    assert field_problem(np.float32([[0, 0], [600, 0], [600, 500], [0, 500]])) is None


def test_the_real_board_photos_pass_and_blurred_copies_do_not(real_data) -> None:  # type: ignore[no-untyped-def]
    for path in sorted((real_data / "boards").glob("*/*.jpg")):
        img = cv2.imread(str(path))
        assert image_problem(img) is None, path.name
        sigma = 4.0 * max(img.shape[:2]) / 1280
        msg = image_problem(cv2.GaussianBlur(img, (0, 0), sigma))
        assert msg is not None and "too blurred" in msg, path.name
