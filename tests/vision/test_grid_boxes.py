"""Boxes on the gate's grid: the cells a canonical box covers, and which boxes a changed-cell mask
touches (one lookup for the footprints and the ring memo, vision/grid_boxes.py)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.grid_boxes import to_grid, touched


def test_a_box_covers_the_cells_of_its_pixels_grown_by_the_margin_and_clipped_to_the_grid() -> None:
    boxes = np.asarray([[10.0, 20.0, 30.0, 21.0], [-50.0, -50.0, -40.0, -40.0], [0.0, 0.0, 1000.0, 1000.0]])
    got = to_grid(boxes, 9, 4, (50, 60))
    # x 10-9=1 -> cell 0, 30+9=39 -> cell 9 (+1); y 20-9=11 -> cell 2, 21+9=30 -> cell 7 (+1)
    assert got.tolist() == [[2, 8, 0, 10], [0, 0, 0, 0], [0, 50, 0, 60]]


def test_touched_agrees_with_looking_at_every_window() -> None:
    rng = np.random.default_rng(4)
    mask = rng.random((37, 45)) > 0.995
    y0, x0 = rng.integers(0, 37, 500), rng.integers(0, 45, 500)
    rects = np.stack([y0, y0 + rng.integers(0, 12, 500), x0, x0 + rng.integers(0, 12, 500)], axis=1)
    want = [bool(mask[a:b, c:d].any()) for a, b, c, d in rects.tolist()]
    assert touched(mask, rects).tolist() == want
    assert sum(want) > 10 and not all(want)  # both answers are asked
    assert touched(mask, np.zeros((0, 4), np.int64)).tolist() == []


def test_few_boxes_and_many_give_the_same_answers() -> None:
    # a few boxes are looked at one by one, many through an integral image: the same answers,
    # windows clipped to the mask alike
    rng = np.random.default_rng(6)
    mask = rng.random((20, 25)) > 0.97
    rects = np.stack([rng.integers(-5, 22, 60), rng.integers(-5, 25, 60), rng.integers(-5, 27, 60),
                      rng.integers(-5, 30, 60)], axis=1)
    many = touched(mask, rects)
    few = np.concatenate([touched(mask, rects[i : i + 3]) for i in range(0, 60, 3)])
    assert many.tolist() == few.tolist() and many.any() and not many.all()
