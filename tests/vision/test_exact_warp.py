"""Windows of a perspective warp, exactly (vision/exact_warp.py), and the dice search's fine view
made again only where the frame changed (``dice.fine_view`` with a ``DiceMemo``)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, HandSpec, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import FINE, fine_view
from tavli_pi.vision.dice_memo import DiceMemo
from tavli_pi.vision.exact_warp import perspective_maps
from tavli_pi.vision.incremental import GateView


def _homographies() -> list[tuple[np.ndarray, tuple[int, int]]]:
    """A frame-to-view matrix and view size: a board seen from above, turned, and steeply."""
    out = []
    for quad in ([[310, 95], [980, 101], [1002, 640], [290, 655]],  # nearly square on
                 [[400, 60], [1100, 180], [980, 700], [260, 560]],  # turned
                 [[520, 200], [760, 205], [1180, 700], [90, 690]]):  # steep perspective
        dst = np.asarray([[40, 30], [1070, 30], [1070, 850], [40, 850]], np.float32)
        out.append((cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst), (1108, 880)))
    return out


@pytest.mark.parametrize("case", range(3))
def test_a_window_of_the_maps_is_the_window_of_the_whole_warp(case: int) -> None:
    m, size = _homographies()[case]
    rng = np.random.default_rng(case)
    frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.5)  # an image with gradients, not bare noise
    maps = perspective_maps(m, size, frame.shape[:2])
    assert maps is not None, "this OpenCV's warpPerspective samples other places than exact_warp computes"
    mx, my = maps
    want = cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR)
    assert np.array_equal(cv2.remap(frame, mx, my, cv2.INTER_LINEAR), want)
    w, h = size
    for _ in range(12):
        x0, y0 = int(rng.integers(0, w - 1)), int(rng.integers(0, h - 1))
        x1, y1 = int(rng.integers(x0 + 1, w + 1)), int(rng.integers(y0 + 1, h + 1))
        got = cv2.remap(frame, np.ascontiguousarray(mx[y0:y1, x0:x1]), np.ascontiguousarray(my[y0:y1, x0:x1]),
                        cv2.INTER_LINEAR)
        assert np.array_equal(got, want[y0:y1, x0:x1]), (x0, y0, x1, y1)


def test_a_window_warped_with_a_shifted_matrix_is_not_exact() -> None:
    """Why the maps: the obvious window, a warp with the matrix shifted to it, samples other places."""
    m, size = _homographies()[1]
    frame = np.random.default_rng(5).random((720, 1280), dtype=np.float32)
    want = cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR)
    x0, y0 = 101, 37
    shift = np.asarray([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    got = cv2.warpPerspective(frame, shift @ m, (300, 200), flags=cv2.INTER_LINEAR)
    assert not np.array_equal(got, want[y0:y0 + 200, x0:x0 + 300])


def test_the_patched_fine_view_is_the_whole_warp_of_each_frame() -> None:
    """Frames with the same sensor noise (a die thrown, then a hand over the board): the fine view a
    memo keeps and warps again round the changed cells equals the whole warp of every frame."""
    base = scene_from_position(Position.start())
    scenes = [base,
              dataclasses.replace(base, dice=(DieSpec(value=5, u=0.25, v=0.5), DieSpec(value=3, u=0.33, v=0.55))),
              dataclasses.replace(base, dice=(DieSpec(value=5, u=0.25, v=0.5),), hand=HandSpec(u=0.7, v=0.3))]
    first = render(scenes[0], 0)
    cal = Calibration(first.truth.corners, home=first.truth.home)  # type: ignore[arg-type]
    gate = GateView(cal)
    memo = DiceMemo(cal)
    for i, scene in enumerate(scenes):
        image = render(scene, 0).image
        memo.start(gate(image))
        got = fine_view(image, cal, FINE, memo)[0]
        want = fine_view(image, cal, FINE)[0]
        assert np.array_equal(got, want), f"frame {i}"


@pytest.mark.parametrize("case", range(4))
def test_a_padded_frame_warps_to_the_same_three_channels(case: int) -> None:
    """``padded`` / ``unpadded``: the bilinear remap and warpPerspective of the frame with a fourth
    channel are the three-channel ones, bit for bit, windows and the view's parts off the frame too."""
    from tavli_pi.vision.exact_warp import padded, unpadded

    if case < 3:
        m, size = _homographies()[case]
    else:  # a view reaching past the frame's edges (its border, constant black)
        quad = np.asarray([[-60, -40], [1330, 20], [1250, 760], [30, 800]], np.float32)
        m, size = cv2.getPerspectiveTransform(quad, np.asarray([[0, 0], [1108, 0], [1108, 836], [0, 836]],
                                                               np.float32)), (1108, 836)
    rng = np.random.default_rng(10 + case)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8), (0, 0), 1.0)
    frame[::7] = rng.integers(0, 256, frame[::7].shape, dtype=np.uint8)  # and sharp rows of noise
    four = padded(frame)
    assert four.shape == (720, 1280, 4)
    maps = perspective_maps(m, size, frame.shape[:2])
    assert maps is not None
    mx, my = maps
    want = cv2.remap(frame, mx, my, cv2.INTER_LINEAR)
    got = unpadded(cv2.remap(four, mx, my, cv2.INTER_LINEAR), frame)
    assert got.shape == want.shape and got.flags.c_contiguous
    assert np.array_equal(got, want)
    y0, y1, x0, x1 = 13, 411, 7, 263
    part = unpadded(cv2.remap(four, np.ascontiguousarray(mx[y0:y1, x0:x1]), np.ascontiguousarray(my[y0:y1, x0:x1]),
                              cv2.INTER_LINEAR), frame)
    assert np.array_equal(part, want[y0:y1, x0:x1])
    warped = unpadded(cv2.warpPerspective(four, m, size, flags=cv2.INTER_LINEAR), frame)
    assert np.array_equal(warped, cv2.warpPerspective(frame, m, size, flags=cv2.INTER_LINEAR))
    grey = frame[..., 0].copy()  # a grey frame is warped as it is
    assert padded(grey) is grey and unpadded(grey, grey) is grey
