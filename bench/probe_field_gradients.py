"""Gradients made only where they are read, the scale from the rest: exact, and no faster (issue 12, stop 18).

Run: .venv/bin/python bench/probe_field_gradients.py

``checkers.gradients`` makes the gradient pair over the whole canonical view, and its scale (the 97th
percentile of |gx| + |gy| on every 4th pixel) from all of it. Its one reader of pixels is
``checkers._ring_samples`` (rings round checker centres, out to 1.6 x 1.10 checker radii for
vision/oversize.py). This probe makes the pair only over the field's box grown by that reach (a
window grown by 3 px -- the blur's 2 and the Sobel's 1 -- cut back), and the scale's samples outside
it from a blurred crop, with the Sobel and the channel choice in numpy at those pixels only. It checks
both are the whole computation's to the bit (the demo's frame 3, 10 noisy and 10 random images),
then prints the CPU (``thread_time``) medians of the whole and of the parts.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

from bench.bench_loop import _frames  # noqa: E402
from tavli_pi.sim.script import demo_match  # noqa: E402
from tavli_pi.vision import checkers as ck  # noqa: E402
from tavli_pi.vision.reader import BoardReader  # noqa: E402

Box = tuple[int, int, int, int]  # x0, y0, x1, y1


def pair_in(canon: np.ndarray, box: Box) -> tuple[np.ndarray, np.ndarray]:
    """``checkers.gradients``' (gx, gy) over ``box``, from the box grown by 3 px."""
    h, w = canon.shape[:2]
    x0, y0, x1, y1 = box
    bx0, by0, bx1, by1 = max(0, x0 - 3), max(0, y0 - 3), min(w, x1 + 3), min(h, y1 + 3)
    small = cv2.GaussianBlur(canon[by0:by1, bx0:bx1], (5, 5), 0)
    gx, gy = ck.strongest_gradients(small)
    return gx[y0 - by0 : y1 - by0, x0 - bx0 : x1 - bx0], gy[y0 - by0 : y1 - by0, x0 - bx0 : x1 - bx0]


def grid_m(canon: np.ndarray, box: Box) -> np.ndarray:
    """|gx| + |gy| (float32) of ``checkers.gradients`` at the box's pixels on the every-4th grid, made there only."""
    h, w = canon.shape[:2]
    x0, y0, x1, y1 = box
    gx0, gy0 = -(-x0 // 4) * 4, -(-y0 // 4) * 4
    if gx0 >= x1 or gy0 >= y1:
        return np.zeros(0, np.float32)
    bx0, by0, bx1, by1 = max(0, gx0 - 3), max(0, gy0 - 3), min(w, x1 + 3), min(h, y1 + 3)
    b = cv2.GaussianBlur(canon[by0:by1, bx0:bx1], (5, 5), 0)
    # the image's own edges reflected (101), as spatialGradient's border
    top, left, bot, right = int(by0 == 0), int(bx0 == 0), int(by1 == h), int(bx1 == w)
    b = cv2.copyMakeBorder(b, top, bot, left, right, cv2.BORDER_REFLECT_101).astype(np.int16)
    oy, ox = gy0 - by0 + top, gx0 - bx0 + left
    ny, nx = len(range(gy0, y1, 4)), len(range(gx0, x1, 4))

    def s(dy: int, dx: int) -> np.ndarray:
        return b[oy + dy : oy + dy + 4 * (ny - 1) + 1 : 4, ox + dx : ox + dx + 4 * (nx - 1) + 1 : 4]

    gx = (s(-1, 1) - s(-1, -1)) + 2 * (s(0, 1) - s(0, -1)) + (s(1, 1) - s(1, -1))
    gy = (s(1, -1) - s(-1, -1)) + 2 * (s(1, 0) - s(-1, 0)) + (s(1, 1) - s(-1, 1))
    # convertScaleAbs rounds half to even; the sum of the two saturates at 255
    mag = np.minimum(np.rint(np.abs(gx) * np.float32(0.25)) + np.rint(np.abs(gy) * np.float32(0.25)), 255)
    pick = np.where(mag[..., 1] > mag[..., 0], 1, 0)
    pick = np.where(mag[..., 2] > np.maximum(mag[..., 0], mag[..., 1]), 2, pick)
    gxs = np.take_along_axis(gx, pick[..., None], 2)[..., 0]
    gys = np.take_along_axis(gy, pick[..., None], 2)[..., 0]
    out: np.ndarray = (np.abs(gxs) + np.abs(gys)).astype(np.float32).ravel()
    return out


def outside(box: Box, w: int, h: int) -> list[Box]:
    x0, y0, x1, y1 = box
    return [(0, 0, x0, h), (x1, 0, w, h), (x0, 0, x1, y0), (x0, y1, x1, h)]


def partial(canon: np.ndarray, box: Box) -> tuple[np.ndarray, float]:
    """The pair (valid in ``box`` only) and the whole view's scale."""
    h, w = canon.shape[:2]
    x0, y0, x1, y1 = box
    gx, gy = pair_in(canon, box)
    pair = np.zeros((h, w, 2), np.int16)
    pair[y0:y1, x0:x1, 0] = gx
    pair[y0:y1, x0:x1, 1] = gy
    gx0, gy0 = -(-x0 // 4) * 4, -(-y0 // 4) * 4
    inside = (np.abs(gx[gy0 - y0 :: 4, gx0 - x0 :: 4].astype(np.float32))
              + np.abs(gy[gy0 - y0 :: 4, gx0 - x0 :: 4].astype(np.float32))).ravel()
    m = np.concatenate([inside] + [grid_m(canon, b) for b in outside(box, w, h)])
    return pair, float(np.percentile(m, 97)) * 0.8 + 1.0  # order-free: the same samples, the same percentile


def cpu(f: Callable[[], Any], n: int = 60) -> float:
    f()
    ts = []
    for _ in range(n):
        c = time.thread_time()
        f()
        ts.append(time.thread_time() - c)
    return float(np.median(ts)) * 1000


def main() -> None:
    frames, cal = _frames(demo_match()[:6], 7)
    canon = BoardReader(cal).warp(frames[3].image)
    h, w = canon.shape[:2]
    lay = cal.layout
    rad = max(c.width for c in lay.columns) * cal.checker_r
    reach = int(np.ceil(rad * 1.6 * 1.1)) + 2
    xs = [c.x for c in lay.columns]
    box = (max(0, int(min(xs) - rad) - reach), max(0, int(lay.top_y) - reach),
           min(w, int(max(xs) + rad) + reach + 1), min(h, int(lay.bottom_y) + reach + 1))
    print(f"read box {box}: {(box[2] - box[0]) * (box[3] - box[1]) / (w * h):.2f} of the {w} x {h} view")
    rng = np.random.default_rng(0)
    images = [canon] + [rng.integers(0, 256, canon.shape, dtype=np.uint8) if i % 2 else
                        np.clip(canon.astype(int) + rng.normal(0, 8, canon.shape), 0, 255).astype(np.uint8)
                        for i in range(20)]
    for im in images:
        want = ck.gradients(im)
        pair, scale = partial(im, box)
        x0, y0, x1, y1 = box
        assert np.array_equal(want.pair[y0:y1, x0:x1], pair[y0:y1, x0:x1]) and want.scale == scale
    print(f"exact on {len(images)} images (pair in the box, scale)")
    for _ in range(2):
        print(f"whole {cpu(lambda: ck.gradients(canon)):.2f} ms; box + outside scale {cpu(lambda: partial(canon, box)):.2f} ms "
              f"(box alone {cpu(lambda: pair_in(canon, box)):.2f}, outside grid {cpu(lambda: [grid_m(canon, b) for b in outside(box, w, h)]):.2f})")


if __name__ == "__main__":
    main()
