"""The finer view of the field the second dice search looks in: warped from the frame itself,
``FINE`` times finer than the canonical view (``fine_view``), with the calibration seen through it
(``ScaledCal``)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_memo import Box, DiceMemo, Rect
from tavli_pi.vision.dice_spots import SPOT_REACH
from tavli_pi.vision.exact_warp import padded, perspective_maps, unpadded
from tavli_pi.vision.layout import Layout

__all__ = ["FINE", "FINE_VIEW_REACH", "ScaledCal", "fine_view", "placing"]

#: how much finer than the canonical view the second dice search looks (1.5: dice of 12-16
#: canonical px get pips of 3-4 px, which the pip finder's 5 px hat keeps; 2.0 found fewer real dice)
FINE = 1.5


class ScaledCal:
    """A calibration seen through a view ``k`` times finer than the canonical one: what the dice
    finder asks of it (layout, the mapping to the frame, the learnt colours)."""

    def __init__(self, cal: Calibration, k: float) -> None:
        base = cal.layout
        self.k = k
        self.layout = Layout(int(round(base.field_w * k)), int(round(base.field_h * k)), base.home,
                             base.u0, base.u1, base.bar, base.v0, base.v1)
        self._cal = cal
        # canonical -> fine: the fine layout's margins are rounded from its own width
        self._off = np.asarray([self.layout.mx - base.mx * k, self.layout.my - base.my * k], np.float32)
        self.offset = (float(self._off[0]), float(self._off[1]))
        self.light_bgr, self.dark_bgr, self.field_bgr = cal.light_bgr, cal.dark_bgr, cal.field_bgr
        self.checker_r = cal.checker_r

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return self._cal.to_image((np.asarray(pts, np.float32).reshape(-1, 2) - self._off) / self.k)

    def to_canonical(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(self._cal.to_canonical(pts) * self.k + self._off)


def fine_view(image: np.ndarray, cal: Calibration, k: float,
              memo: DiceMemo | None = None) -> tuple[np.ndarray, Layout, Calibration]:
    """The field ``k`` times finer than the canonical view, warped from ``image`` (area-averaged
    where the frame has more pixels than the view, so pips are not lost between samples).

    ``memo``: the view is kept from frame to frame and warped again only round the cells that
    changed (``DiceMemo.patched``), through maps whose windows are the whole warp's pixel for
    pixel (vision/exact_warp.py); not when the frame is shrunk first. Either way the frame is warped
    with a fourth channel added (``exact_warp.padded``: the same three channels, in half the time)."""
    sc = ScaledCal(cal, k)
    lay = sc.layout
    w, h = lay.size
    m = cv2.getPerspectiveTransform(np.asarray(cal.corners, np.float32), lay.field_corners())
    # frame px per view px near the field's middle: shrink the frame first when above 1.5
    mid = np.asarray([[[w / 2, h / 2]], [[w / 2 + 10, h / 2]]], np.float32)
    back = cv2.perspectiveTransform(mid, np.linalg.inv(m)).reshape(2, 2)
    ratio = float(np.hypot(*(back[1] - back[0]))) / 10.0
    src = image
    if ratio > 1.5:
        f = 1.0 / ratio
        src = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m = m @ np.diag([1.0 / f, 1.0 / f, 1.0])
    elif memo is not None:
        key = ("fine view", image.shape, k)
        maps = memo.fixed(key, lambda: perspective_maps(m, (w, h), image.shape[:2]))
        if maps is not None:
            mx, my = maps
            four: list[np.ndarray] = []  # the frame with a fourth channel (``padded``), made when first asked

            def src4() -> np.ndarray:
                if not four:
                    four.append(padded(image))
                return four[0]

            def part(r: Rect) -> np.ndarray:
                y0, y1, x0, x1 = r
                return unpadded(cv2.remap(src4(), np.ascontiguousarray(mx[y0:y1, x0:x1]),
                                          np.ascontiguousarray(my[y0:y1, x0:x1]), cv2.INTER_LINEAR), image)

            def whole() -> np.ndarray:
                return unpadded(cv2.remap(src4(), mx, my, cv2.INTER_LINEAR), image)

            return memo.patched(key, placing(sc), FINE_VIEW_REACH, whole, part,  # type: ignore[arg-type,return-value]
                                whole_share=FINE_WHOLE), lay, sc
    view = unpadded(cv2.warpPerspective(padded(src), m, (w, h), flags=cv2.INTER_LINEAR), src)
    return view, lay, sc  # type: ignore[return-value]


#: the share of the fine view the changed windows add up to from which it is warped whole rather than
#: window by window (``DiceMemo.patched``: the same pixels): a window's remap costs little more a pixel
#: than the whole's. Where the two cost the same (the median over a stream's frames): 0.72-0.78 of the
#: view on the demo and the real-like games 100, 103, 104 (bench/RESULTS.md, stop 24)
FINE_WHOLE = 0.75

#: how far round a changed cell (fine px) the fine view is warped again: its own bilinear reach
#: and past the reach of the pip spots made again from it (``view_spots``: SPOT_REACH + 4, twice)
FINE_VIEW_REACH = 2 * (SPOT_REACH + 4) + 2

def placing(cal: Calibration) -> Callable[[Box], Box]:
    """A canonical box in the pixels of the view ``cal`` describes (a finer view: ``ScaledCal``)."""
    if not isinstance(cal, ScaledCal):
        return lambda b: b
    k, (ox, oy) = cal.k, cal.offset

    def place(b: Box) -> Box:
        return b[0] * k + ox, b[1] * k + oy, b[2] * k + ox, b[3] * k + oy

    return place
