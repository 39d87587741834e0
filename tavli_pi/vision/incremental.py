"""Where each part of a reading looks, so a frame re-reads only the parts whose pixels changed.

``BoardReader(incremental=True)`` keeps the last reading of every point (and
of the trays) with the quarter-scale view (``hands.shrink``) its pixels were
read from. A point is read again only when a pixel of its *footprint* -- every
canonical pixel its reading can sample, from the widest search the stack
reader (vision/stacks.py, vision/checkers.py) makes, grown by the blur and
Sobel kernels' reach -- changed by more than ``REGION_CHANGE`` grey levels in
any colour channel since then (or the gradients' scale changed: it normalises
every ring feature). A point whose footprint is unchanged reads the same
pixels, so its reading is the one a full read gives (tests/vision/
test_incremental.py proves it frame by frame on the demo and on random games).

The reach of a point's reading, in checker radii r from its column's centre
and base (the field edge), from ``checkers.trace_chains`` and
``stacks.squeezed_loglik``: slot 0 within 0.42 r across and 0.75-1.6 r along,
each further slot 0.25 r across and 1.8-2.35 r along the last, six of them;
rings sampled at up to 1.10 r round each centre; the squeezed search 6-10 r
past slot 0. So at most 3.1 r across and 17 r along (0.5 r behind the base).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.stacks import spot_geometry
from tavli_pi.vision.trays import tray_rects_both_sides

__all__ = ["REGION_CHANGE", "Footprints", "changed_pixels"]

#: a quarter-scale pixel changed when a channel moved by more than this many grey levels (each is
#: the mean of 4 x 4 canonical pixels, so sensor noise of up to ~8 levels averages well below it)
REGION_CHANGE = 8
#: reach of a point's reading across its column, along it and behind its base (checker radii)
ACROSS, ALONG, BEHIND = 3.1, 17.0, 0.5
#: canonical pixels added all round: the 5 x 5 blur, the 3 x 3 Sobel and rounding to a pixel
KERNEL = 5


def changed_pixels(small: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Quarter-scale pixels where ``small`` differs from ``ref`` by more than REGION_CHANGE (bool)."""
    diff = cv2.absdiff(small, ref)
    if diff.ndim == 3:
        diff = diff.max(axis=2)
    return np.asarray(diff > REGION_CHANGE)


@dataclass(frozen=True)
class Footprints:
    """Rectangles (y0, y1, x0, x1) on the quarter-scale grid: ``spots[i]`` for point i (0-23) and
    the bar (24, 25: its halves), ``trays`` for every tray rectangle (both sides)."""

    spots: tuple[tuple[int, int, int, int], ...]
    trays: tuple[tuple[int, int, int, int], ...]

    @classmethod
    def of(cls, lay: Layout, cal: Calibration) -> Footprints:
        w, h = lay.size
        gw, gh = w // SCALE, h // SCALE

        def grid(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
            # canonical pixel x lies in quarter pixel x // SCALE (INTER_AREA by an integer factor)
            gx0 = max(0, int(np.floor((x0 - KERNEL) / SCALE)))
            gy0 = max(0, int(np.floor((y0 - KERNEL) / SCALE)))
            gx1 = min(gw, int(np.floor((x1 + KERNEL) / SCALE)) + 1)
            gy1 = min(gh, int(np.floor((y1 + KERNEL) / SCALE)) + 1)
            return gy0, gy1, gx0, gx1

        x, base, sign, r = spot_geometry(lay, cal)
        spots = []
        for xi, bi, si, ri in zip(x.tolist(), base.tolist(), sign.tolist(), r.tolist()):
            ya, yb = bi - si * BEHIND * ri, bi + si * ALONG * ri
            spots.append(grid(xi - ACROSS * ri, min(ya, yb), xi + ACROSS * ri, max(ya, yb)))
        trays = [grid(x0, y0, x1, y1) for rects in tray_rects_both_sides(lay) for x0, y0, x1, y1 in rects.values()]
        return cls(tuple(spots), tuple(trays))

    def spots_changed(self, changed: np.ndarray, among: Iterable[int] | None = None) -> set[int]:
        """The spots (0-25; or of ``among``) with a changed pixel in their footprint."""
        idx = range(len(self.spots)) if among is None else among
        out = set()
        for i in idx:
            y0, y1, x0, x1 = self.spots[i]
            if changed[y0:y1, x0:x1].any():
                out.add(i)
        return out

    def trays_changed(self, changed: np.ndarray) -> bool:
        return any(changed[y0:y1, x0:x1].any() for y0, y1, x0, x1 in self.trays)
