"""A small six with no outline, found by its change from the learnt board and read by its two bars in
crops centred on its changed patch (``vision/dice_patch_six.py``, issue 9: 640 px recordings)."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tavli_pi.vision import dice_patch_six
from tavli_pi.vision.dice_memo import _Recorder
from tavli_pi.vision.dice_patch_six import TURN_LEAST, _longest_run, _run_through, patch_six, six_turns
from tavli_pi.vision.tumbling import HatBlob

#: pip centres of each face, in quarters of the die's side from the middle
FACES = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def _die(value: int, px: float, turn: float, body: tuple[int, int, int], pip: tuple[int, int, int],
         ground: tuple[int, int, int], shadow: bool = False) -> np.ndarray:
    """A die of ``px`` frame pixels turned ``turn`` degrees, centred in a 60 x 60 frame, drawn 16 times
    finer and shrunk as a camera's pixels average it (a little blur); ``shadow``: a dark shadow along
    two of its sides (a white die on the cream board)."""
    k, n = 16, 60
    big = np.zeros((n * k, n * k, 3), np.uint8)
    big[:] = ground
    c, s = n * k / 2.0, px * k
    if shadow:
        box = cv2.boxPoints(((c + 0.12 * s, c + 0.12 * s), (s, s), turn)).astype(np.int32)
        cv2.fillConvexPoly(big, box, (60, 70, 80))
    cv2.fillConvexPoly(big, cv2.boxPoints(((c, c), (s, s), turn)).astype(np.int32), body)
    t = np.deg2rad(turn)
    for dx, dy in FACES[value]:
        x, y = dx * 0.25 * s, dy * 0.25 * s
        cv2.circle(big, (int(c + x * np.cos(t) - y * np.sin(t)), int(c + x * np.sin(t) + y * np.cos(t))),
                   int(0.085 * s), pip, -1)
    small = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0.6)


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)


NAVY = dict(body=(40, 30, 30), pip=(235, 235, 235), ground=(90, 40, 30))
CREAM = dict(body=(235, 240, 242), pip=(25, 25, 25), ground=(190, 220, 230), shadow=True)


@pytest.mark.parametrize("turn", [0.0, 15.0, 35.0])
@pytest.mark.parametrize(("look", "patch"), [(NAVY, 0.95), (CREAM, 1.3)])
def test_a_small_sixs_changed_patch_shows_its_bars_through_a_turn(look: dict[str, object], patch: float,
                                                                  turn: float) -> None:
    # a 12 px six (640 px): its changed patch is its pips closed into one on navy (about the die), the
    # die with its rim and shadow on cream (larger), its centre a pixel off the die's. (Drawn so, a six
    # stays clean through 3-4 steps, 4 at these turns; the sixes of the 640 px recordings, blurred and
    # encoded, through 4-5: see ``TURN_LEAST``)
    side = 12.0 * patch
    b = HatBlob(30.7, 30.6, side, side, side * side, 0.8, changed=True)
    im = _die(6, 12.0, turn, **look)  # type: ignore[arg-type]
    assert six_turns(im, _same, b)[0] >= TURN_LEAST
    got = patch_six(im, _same, b)
    assert got is not None
    (x, y), s, _ = got
    assert np.hypot(x - 30.0, y - 30.0) < 2.5 and 9.0 < s < 15.0


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("turn", [0.0, 20.0, 35.0])
@pytest.mark.parametrize(("look", "patch"), [(NAVY, 0.95), (CREAM, 1.3), (CREAM, 0.8)])
@pytest.mark.parametrize("px", [10.0, 12.0])
def test_no_other_face_shows_a_sixs_bars_through_a_turn(look: dict[str, object], patch: float, turn: float,
                                                        value: int, px: float) -> None:
    # (a patch smaller than the die on cream: part of it, a hand's shadow over the rest; its crops' edges
    # fall on the die's shadow and a column of its pips)
    side = px * patch
    b = HatBlob(30.7, 30.6, side, side, side * side, 0.8, changed=True)
    assert patch_six(_die(value, px, turn, **look), _same, b) is None  # type: ignore[arg-type]


def _full_search(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob
                 ) -> tuple[tuple[float, float], float, float] | None:
    """``patch_six`` as it was first written: every crop of ``six_turns`` read."""
    run, at, side, angle = six_turns(src, to_src, b)
    return (at, side, angle) if run >= TURN_LEAST else None


@pytest.mark.parametrize("least", range(TURN_LEAST, 10))
def test_the_turns_a_run_must_hold_find_it_as_the_whole_list_does(least: int) -> None:
    # every pattern of 9 clean and unclean turns: where the longest run round is ``least`` or more, the
    # run found from the few turns a run must hold is it (length and middle), else shorter
    for bits in itertools.product([False, True], repeat=9):
        got = _run_through(lambda j: bits[j], 9, least)  # noqa: B023
        whole = _longest_run(list(bits))
        if whole[0] >= least:
            assert got == whole
        else:
            assert got[0] < least


@pytest.mark.parametrize("value", [1, 4, 5, 6])
@pytest.mark.parametrize("turn", [0.0, 15.0, 35.0])
@pytest.mark.parametrize(("look", "patch"), [(NAVY, 0.95), (CREAM, 1.3), (CREAM, 0.8)])
def test_the_few_crops_give_the_full_searchs_answer_and_map_its_points(look: dict[str, object], patch: float,
                                                                       turn: float, value: int) -> None:
    # the answer (centre, side, angle, or None) to the bit, and the frame mapped over the same box (the
    # memo keeps the answer while the pixels there stand), from fewer crops than the 243
    side = 12.0 * patch
    b = HatBlob(30.7, 30.6, side, side, side * side, 0.8, changed=True)
    im = _die(value, 12.0, turn, **look)  # type: ignore[arg-type]
    whole, few = _Recorder(_same), _Recorder(_same)
    read = []
    crop = dice_patch_six.quad_crop

    def counted(src: np.ndarray, quad: np.ndarray, n: int = 48) -> np.ndarray:
        read.append(1)
        return crop(src, quad, n)

    want = _full_search(im, whole, b)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dice_patch_six, "quad_crop", counted)
        got = patch_six(im, few, b)
    assert got == want and few.box == whole.box
    assert (want is not None) == (value == 6 and patch > 0.8)  # (a patch of part of a six shows no bars)
    assert len(read) < 243 and (value == 6 or len(read) <= 27 * 3)
