"""The canonical view and its gradients made again only round what changed (issue 12).

A changed frame of the incremental reader (vision/incremental.py) is most often one hand or one
die: on the demo and random game 5 the gate's changed cells are under 1 % of the board at the
median (2 % with their margins), yet the warp to the canonical view and the gradients over it
(``checkers.gradients``) were made over the whole board every changed frame, 10-12 ms of its CPU.

Both are local, pixel for pixel:
- the canonical view is a lookup of the frame through fixed maps (``BoardReader.warp``: one
  ``cv2.remap``), so a window of it is the remap through that window of the maps;
- a pixel's gradients depend on the view within ``REACH`` pixels (the 5 x 5 blur, then the 3 x 3
  Sobel; the channel each pixel keeps is its own), so a window of them is the gradients of the
  view's window grown by ``REACH``, cut back to the window (where the grown window meets the
  view's own edge, the filters' border is the view's, as in a whole read).

``FrontPatch`` keeps both from frame to frame with the gate's view they were made from, and makes
them again only in windows round the quarter-scale cells that changed since (grown by ``KERNEL``
canonical pixels, as a point's footprint is: ``incremental.KERNEL``), and in the canonical rows and
columns the gate's grid leaves out (a view whose sides are not a multiple of ``SCALE``). The
gradients' scale is taken from the whole kept image, as ``checkers.gradients`` takes it. So where a
frame's pixels are unchanged under the unchanged cells -- every frame of a simulated game -- the
view and the gradients are a whole read's to the bit (tests/vision/test_front_patch.py; the
incremental reader's readings are a full read's: tests/vision/test_incremental.py). Where a
real camera's pixels drift below the gate's threshold, they keep the last pixels there, as the
incremental reader keeps its points' readings and the dice memo its patched arrays.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.incremental import KERNEL
from tavli_pi.vision.channels import channel_max

__all__ = ["DRIFT", "REACH", "WHOLE_EVERY", "FrontPatch", "cell_groups"]

#: a kept cell is made again once the gate's view there drifted by more than this many grey levels
#: (any channel) from the view it was made from -- accumulated, not frame to frame
DRIFT = 2
#: and the whole view is made again every this many reads, whatever drifted
WHOLE_EVERY = 10

#: canonical pixels a pixel's gradients reach: the 5 x 5 blur's 2, then the 3 x 3 Sobel's 1
REACH = 3


def cell_groups(moved: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The bounding boxes (x, y, w, h, grid cells) of the groups of ``moved`` cells, cells a cell
    apart joined (as ``DiceMemo`` groups them)."""
    grown = cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    return [(gx, gy, cw, ch) for gx, gy, cw, ch, _ in stats[1:].tolist()]


class FrontPatch:
    """The canonical view and its gradients of the last frame, made again where the gate saw change.

    ``maps``: the reader's fixed-point warp maps (``Calibration.warp_maps``); ``scale``: canonical
    pixels a gate cell (``hands.SCALE``)."""

    def __init__(self, maps: tuple[np.ndarray, np.ndarray], scale: int, drift: int = DRIFT,
                 whole_every: int = WHOLE_EVERY) -> None:
        self._maps = maps
        self._scale = scale
        self._drift = drift
        self._whole_every = whole_every
        self._since = 0  # reads since the view was last made whole
        self._view: np.ndarray | None = None  # the gate's view the kept arrays were made from
        self._canon: np.ndarray | None = None
        self._pair: np.ndarray | None = None
        #: windows (x0, y0, x1, y1, canonical px) made again on the last frame, for tests and benches
        self.windows: list[tuple[int, int, int, int]] = []

    def forget(self) -> None:
        self._view = self._canon = self._pair = None

    def whole(self, image: np.ndarray, view: np.ndarray) -> tuple[np.ndarray, ck.Gradients]:
        """The canonical view and its gradients made whole (kept for the next frame)."""
        canon = np.asarray(cv2.remap(image, self._maps[0], self._maps[1], cv2.INTER_LINEAR))
        g = ck.gradients(canon)
        self._view, self._canon, self._pair, self._since = view, canon, g.pair, 0
        self.windows = [(0, 0, canon.shape[1], canon.shape[0])]
        return canon, g

    def read(self, image: np.ndarray, view: np.ndarray) -> tuple[np.ndarray, ck.Gradients]:
        """The canonical view of ``image`` and its gradients, ``view`` the gate's view of it: the
        kept ones made again round the cells changed since, or whole when nothing is kept."""
        if (self._view is None or self._canon is None or self._pair is None or self._view.shape != view.shape
                or self._since + 1 >= self._whole_every):
            return self.whole(image, view)
        self._since += 1
        diff = np.asarray(cv2.absdiff(view, self._view))
        moved = np.asarray((channel_max(diff) if diff.ndim == 3 else diff) > self._drift)
        ref = self._view.copy()
        ref[moved] = view[moved]  # what the kept arrays show once patched (unchanged cells: as they were)
        canon, pair = self._canon.copy(), self._pair.copy()  # (the last frame's arrays stay as they were)
        h, w = canon.shape[:2]
        s, gh, gw = self._scale, view.shape[0], view.shape[1]
        boxes = [(gx * s - KERNEL, gy * s - KERNEL, (gx + cw) * s + KERNEL, (gy + ch) * s + KERNEL)
                 for gx, gy, cw, ch in (cell_groups(moved) if moved.any() else [])]
        if w > gw * s:  # columns and rows the gate's grid leaves out: never seen unchanged
            boxes.append((gw * s - KERNEL, 0, w, h))
        if h > gh * s:
            boxes.append((0, gh * s - KERNEL, w, h))
        wins = [(max(0, x0), max(0, y0), min(w, x1), min(h, y1)) for x0, y0, x1, y1 in boxes]
        wins = [(x0, y0, x1, y1) for x0, y0, x1, y1 in wins if x0 < x1 and y0 < y1]
        m1, m2 = self._maps
        for x0, y0, x1, y1 in wins:
            canon[y0:y1, x0:x1] = cv2.remap(image, m1[y0:y1, x0:x1], m2[y0:y1, x0:x1], cv2.INTER_LINEAR)
        for x0, y0, x1, y1 in wins:
            # the gradients of every pixel within REACH of a changed one, from the view within REACH of those
            ax0, ay0, ax1, ay1 = max(0, x0 - REACH), max(0, y0 - REACH), min(w, x1 + REACH), min(h, y1 + REACH)
            bx0, by0, bx1, by1 = max(0, ax0 - REACH), max(0, ay0 - REACH), min(w, ax1 + REACH), min(h, ay1 + REACH)
            gx, gy = ck.gradient_pair(canon[by0:by1, bx0:bx1])
            pair[ay0:ay1, ax0:ax1, 0] = gx[ay0 - by0:ay1 - by0, ax0 - bx0:ax1 - bx0]
            pair[ay0:ay1, ax0:ax1, 1] = gy[ay0 - by0:ay1 - by0, ax0 - bx0:ax1 - bx0]
        self._view, self._canon, self._pair, self.windows = ref, canon, pair, wins
        return canon, ck.Gradients(pair, ck.gradient_scale(pair[..., 0], pair[..., 1]))
