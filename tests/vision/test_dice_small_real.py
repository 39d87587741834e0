"""Real dice of 8-11 px (issue 9): the labelled real frames shrunk as a 640x360 recording shrinks
them. A die that small is read only where its pips are shown resolved (dice_vet.LEAST_PX and
NEED_PX); every value given is right, the rest say "too small to read"."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.dice_vet import LEAST_PX, NEED_PX
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.reader import BoardReader
from tests.vision._eval import RealFrame, real_frames


def _shrunk(f: RealFrame, width: int) -> tuple[list[DieReading], float]:
    """``f`` shrunk to ``width`` px wide (area-averaged, as a camera's lower resolution), read with its
    labelled corners as a single photo; its dice, and the shrink factor."""
    k = width / f.image.shape[1]
    img = cv2.resize(f.image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    corners = " ".join(f"{x * k:.1f},{y * k:.1f}" for x, y in f.corners)
    cal = calibrate_image(img, corners, f.label["home"])
    return list(BoardReader(cal, still_photo=True).read(img).dice), k


@pytest.fixture(scope="module")
def shrunk(real_data: Path) -> list[tuple[RealFrame, list[DieReading], float]]:
    out = []
    for f in real_frames(real_data):
        if f.label.get("dice"):
            dice, k = _shrunk(f, 640)
            out.append((f, dice, k))
    return out


def test_small_real_dice_are_read_only_right(shrunk: list[tuple[RealFrame, list[DieReading], float]]) -> None:
    small_read = 0
    for f, dice, k in shrunk:
        labelled = f.label["dice"]
        for d in dice:
            if not d.value:
                continue
            near = min(labelled, key=lambda t: float(np.hypot(t["xy"][0] * k - d.xy[0], t["xy"][1] * k - d.xy[1])))
            assert float(np.hypot(near["xy"][0] * k - d.xy[0], near["xy"][1] * k - d.xy[1])) < 0.05 * 640, f.name
            if not near.get("value"):
                continue  # a die whose value the label does not give (its face hidden)
            assert d.value == near["value"], (f.name, d)
            if d.size_px < NEED_PX:
                assert d.size_px >= LEAST_PX and d.flat, (f.name, d)
                small_read += 1
    # measured: WTC frame0's 5 (9 px) and frame1's 1 (8 px), the cream board's 5 (9 px)
    assert small_read >= 2


def test_small_real_dice_not_read_say_why(shrunk: list[tuple[RealFrame, list[DieReading], float]]) -> None:
    unread = [d for _, dice, _ in shrunk for d in dice if d.size_px and d.size_px < NEED_PX and not d.value]
    assert unread  # measured: WTC frame0's 3, test8's two threes (cocked-looking, or pips not resolved)
    for d in unread:
        need = LEAST_PX if d.size_px < LEAST_PX else NEED_PX
        assert d.note == f"too small to read ({int(d.size_px)} px, need {need})"
