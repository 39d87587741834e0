"""The source coordinates ``cv2.warpPerspective`` samples, as maps: any window of its output, exactly.

A window of a perspective warp made with its own, shifted matrix is not the
whole warp's window: OpenCV (5.x, ``warp_kernels.simd.hpp``) turns the
inverse matrix into float32 and computes each row's terms from the absolute
destination row and column, so a shifted matrix rounds differently (measured:
428 of the pixels of a shifted window differ; even full-width row bands differ
on 665 of 12,480 rows). The same float32 arithmetic done here once per
calibration gives maps whose ``cv2.remap`` (the same bilinear kernel) is the
whole warp pixel for pixel, and a remap through a slice of the maps is that
window of it (issue 12: the dice search's fine view is made again only where
the frame changed).

The arithmetic (per destination pixel x, y; M the inverse matrix in float32):
in the vector loop, the row term ``y*M[1] + M[2]`` rounded at each step, then
``fma(M[0], x, row)``; in the columns past the last whole vector, done one by
one, ``fma(x, M[0], y*M[1]) + M[2]``; the first two quotients by the third
(rows 3-5, 6-8 alike). It is what this build does (found by trying the
orders on random float data); another build (another CPU's vector unit,
another compiler's contractions) may differ, so ``perspective_maps`` checks its maps
against ``cv2.warpPerspective`` itself on random float data -- a float
output changes with the least change of a sample's place -- and returns None
when they do not agree: the caller then warps whole, as before.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["padded", "perspective_maps", "unpadded"]

Maps = tuple[np.ndarray, np.ndarray]


def _maps(m: np.ndarray, size: tuple[int, int], lanes: int) -> Maps:
    w, h = size
    inv = np.linalg.inv(np.asarray(m, np.float64)).ravel().astype(np.float32)
    y = np.arange(h, dtype=np.float32)[:, None]
    # the vector loop's columns, ``lanes`` at a time; the rest of a row is done one by one
    x = np.arange(w - w % lanes, dtype=np.float64)[None, :]
    t = np.arange(w - w % lanes, w, dtype=np.float32)[None, :]

    def place(a: int) -> np.ndarray:
        """Row a of the inverse matrix times (x, y, 1): each float32 rounding as the kernel makes it."""
        row = (y * inv[a + 1]).astype(np.float32)
        # vector: fma(M[a], x, y * M[a + 1] + M[a + 2]) (the product and the sum exact in float64, one rounding)
        vec = (float(inv[a]) * x + (row + inv[a + 2]).astype(np.float64)).astype(np.float32)
        # one by one: fma(x, M[a], y * M[a + 1]) + M[a + 2]
        one = (t.astype(np.float64) * float(inv[a]) + row.astype(np.float64)).astype(np.float32) + inv[a + 2]
        return np.concatenate([vec, np.asarray(one, np.float32)], axis=1)

    w_ = place(6)
    return np.asarray(place(0) / w_, np.float32), np.asarray(place(3) / w_, np.float32)


#: the destination pixels a vector loop of warpPerspective makes at a time: two vectors of float32
#: (AVX2 first, then 128-bit SSE / NEON, then AVX-512)
LANES = (16, 8, 32)


def perspective_maps(m: np.ndarray, size: tuple[int, int], source: tuple[int, int], seed: int = 0) -> Maps | None:
    """(map x, map y), float32, such that ``cv2.remap(src, mx, my, cv2.INTER_LINEAR)`` is
    ``cv2.warpPerspective(src, m, size, flags=cv2.INTER_LINEAR)`` bit for bit, for any ``src`` of
    ``source`` (rows, columns); None when this OpenCV's warp computes its places otherwise."""
    probe = np.random.default_rng(seed).random(source, dtype=np.float32)
    want = cv2.warpPerspective(probe, m, size, flags=cv2.INTER_LINEAR)
    for lanes in LANES:
        mx, my = _maps(m, size, lanes)
        if np.array_equal(cv2.remap(probe, mx, my, cv2.INTER_LINEAR), want):
            return mx, my
    return None


def padded(image: np.ndarray) -> np.ndarray:
    """A 3-channel uint8 image with a fourth channel (BGRA, 255) to warp it through, else ``image``
    itself: OpenCV's bilinear ``remap`` and ``warpPerspective`` (float coordinates) take a four-channel
    image in its vector lanes whole, about twice as fast as three channels (2.9 against 1.4 ms for
    the fine view's 836 x 1108 px, issue 12), and work each channel out alike, so the first three
    channels of the warp are the three-channel warp's, bit for bit (``unpadded``; tests/vision/test_exact_warp.py)."""
    if image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8:
        return cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return image


def unpadded(warped: np.ndarray, like: np.ndarray) -> np.ndarray:
    """The warp of ``padded(like)`` as the warp of ``like`` itself: its first three channels
    (contiguous) when ``padded`` added a fourth."""
    if warped.ndim == 3 and warped.shape[2] == 4 and like.ndim == 3 and like.shape[2] == 3:
        return cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR)
    return warped
