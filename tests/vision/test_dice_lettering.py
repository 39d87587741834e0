"""Lettering, printed dice and overlays are no dice (issue 9, "never report what is not there").

Read as ``tavli-pi read --corners`` reads one photo (no board learnt), the real-like set (seed 0)
showed dice where none lay:

- an overlay's "R" of "WORLD" and the "G" of a printed "XG": cocked dice showing one at
  confidence 1.0. A cocked verdict is now no surer than the face read on it, the outline of a
  cocked die is never wider across than the largest die's edge (``dice_body.DIE_RANGE``), and a mark
  that is one of a row of like marks is a letter (``lettering``);
- the die-like square of dots in a printed logo: a flat three at 0.85. Its body is walled off
  from the board only by a drawn line (``lie.Outline.stands_out`` under ``dice_face.PRINTED``);
- as a feed's frame, the letters of a word: tumbling dice (``tumbling.find_tumbling``).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes
from tavli_pi.sim.render import Rendered, render
from tavli_pi.vision import dice_face as dice_mod
from tavli_pi.vision.calibrate import calibrate_image
from tavli_pi.vision.dice_face import examine
from tavli_pi.vision.lettering import in_a_row, lettered
from tavli_pi.vision.lie import Outline
from tavli_pi.vision.reader import BoardReader

MAROON = (40, 40, 120)  # BGR
WHITE = (245, 245, 245)


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)


def test_a_mark_with_two_like_marks_beside_it_is_one_of_a_row() -> None:
    assert in_a_row((0.0, 0.0, 10.0), [(12.0, 0.0, 9.0), (-12.0, 1.0, 11.0)])  # a letter in a word
    assert not in_a_row((0.0, 0.0, 10.0), [(12.0, 0.0, 9.0)])  # a die beside the other die
    assert not in_a_row((0.0, 0.0, 10.0), [(12.0, 0.0, 25.0), (-12.0, 0.0, 4.0)])  # a checker, a pip
    assert not in_a_row((0.0, 0.0, 10.0), [(30.0, 0.0, 10.0), (0.0, 40.0, 10.0)])  # far apart


def _word() -> np.ndarray:
    img = np.zeros((120, 360, 3), np.uint8)
    img[:] = MAROON
    cv2.putText(img, "WORLD", (40, 78), cv2.FONT_HERSHEY_DUPLEX, 1.6, WHITE, 5, cv2.LINE_AA)
    return img


def _two_dice() -> np.ndarray:
    img = np.zeros((120, 360, 3), np.uint8)
    img[:] = MAROON
    for x0 in (140, 172):  # a roll: two white dice side by side
        cv2.rectangle(img, (x0, 47), (x0 + 26, 73), WHITE, -1, cv2.LINE_AA)
        cv2.circle(img, (x0 + 13, 60), 4, (20, 20, 160), -1, cv2.LINE_AA)
    return img


def test_a_letter_of_a_word_is_lettered_and_a_die_beside_another_is_not() -> None:
    word = _word()
    # the "R" of WORLD: white like its neighbours, their size, side by side
    assert lettered(word, _same, (150.0, 62.0), 34.0, WHITE, 60.0)
    dice = _two_dice()
    assert not lettered(dice, _same, (153.0, 60.0), 27.0, WHITE, 60.0)
    assert not lettered(dice, _same, (185.0, 60.0), 27.0, WHITE, 60.0)


def test_a_cocked_verdict_is_no_surer_than_its_face(monkeypatch: pytest.MonkeyPatch) -> None:
    """An outline that says "cocked" at once (oblong, face far off its centre) round a face read at
    0.4: the cocked die is reported at 0.4, not at the outline's 1.0."""
    cocked = Outline(aspect=0.76, offset=0.35, long_=30.0, angle=0.0, centre=(100.0, 100.0), blur=0.05,
                     stands_out=3.0, hollow=0.05, hole_ground=2.0)
    monkeypatch.setattr(dice_mod, "read_face", lambda *a: (1, 0.4, (100.0, 95.0), False, False))
    monkeypatch.setattr(dice_mod, "die_outline", lambda *a: cocked)
    monkeypatch.setattr(dice_mod, "lettered", lambda *a: False)
    img = np.zeros((200, 200, 3), np.uint8)
    die = examine(img, img, _same, (100.0, 100.0), 24.0, 0.0, None, 60.0)
    assert die is not None and die.cocked and die.value == 1
    assert die.confidence == pytest.approx(0.4)


def _single_photo(i: int) -> tuple[Rendered, list[tuple[tuple[float, float], int, float, bool, bool]]]:
    scene = reallike_scenes(i + 1, 0)[i]
    r = render(scene, i)  # as bench/bench_phantoms.py renders frame i of seed 0
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cal = calibrate_image(r.image, corners, r.truth.home)  # ``read --corners --home``
    obs = BoardReader(cal, still_photo=True).read(r.image)
    return r, [(d.xy, d.value, d.value_confidence, d.flat, d.moving) for d in obs.dice]


@pytest.mark.parametrize("frame, at", [
    (17, (466, 363)),  # the "R" of an overlay's WORLD: a cocked one at 1.0
    (19, (480, 355)),  # the "G" of a printed XG: a cocked one at 1.0
    (12, (827, 371)),  # a printed logo's square of dots: a flat three at 0.85
])
def test_lettering_and_printed_dice_are_no_dice_in_a_single_photo(frame: int, at: tuple[int, int]) -> None:
    r, dice = _single_photo(frame)
    assert all(np.hypot(t.xy[0] - at[0], t.xy[1] - at[1]) > 40 for t in r.truth.dice)  # no die there
    near = [d for d in dice if np.hypot(d[0][0] - at[0], d[0][1] - at[1]) < 15]
    assert not near, near


def test_a_word_is_no_tumbling_die_in_a_feed_frame() -> None:
    """Frame 0 (seed 0), a green board with TAVLI printed on it, read as a feed's frame: two of
    its letters were dice tumbling."""
    scene = reallike_scenes(1, 0)[0]
    r = render(scene, 0)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in r.truth.corners)
    cal = calibrate_image(r.image, corners, r.truth.home)
    obs = BoardReader(cal).read(r.image)
    word = [p for p in r.truth.prints if p.text == "TAVLI"][0].box
    on_word = [d for d in obs.dice if d.moving and word[0] - 8 <= d.xy[0] <= word[2] + 8
               and word[1] - 8 <= d.xy[1] <= word[3] + 8]
    assert not on_word, on_word
