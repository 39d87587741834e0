"""Refine a rough calibration from the image itself, and learn the checker colours.

Corners given by hand or found from markers may be a few pixels off, and may
include part of the frame. Across the middle band of the field (between the
triangle tips) the playing surface has one colour; the frame and the bar do
not. Column statistics of that band give the true left and right edges of the
playing surface and the bar. The checker colours are learnt by splitting the
colours of confidently detected discs into a bright and a dark group.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.hands import encode_mask, skin_prone
from tavli_pi.vision.calibration import DEFAULT_DARK, DEFAULT_LIGHT, Calibration
from tavli_pi.vision.layout import DEFAULT_BAR

__all__ = ["refine_edges", "learn_colours", "refine"]


def refine_edges(cal: Calibration, image: np.ndarray) -> Calibration:
    """Find the playing surface's left/right edges and the bar from the middle band.

    The frame and the bar meet the surface in a sharp step of colour (a
    shadow is gradual), so each edge is the strongest step of the band's
    column colour within a window around where it should be.
    """
    lay = cal.layout
    canon = cal.warp(image).astype(np.float32)
    fw, fh, mx, my = lay.field_w, lay.field_h, lay.mx, lay.my
    band = canon[my + int(0.43 * fh) : my + int(0.57 * fh)]
    med = np.median(band, axis=0)  # one colour per canonical column
    step = np.zeros(len(med))
    step[1:-2] = np.linalg.norm(med[3:] - med[:-3], axis=1)

    def strongest(a: float, b: float) -> tuple[float, float]:
        lo, hi = max(1, mx + int(a * fw)), min(len(step) - 2, mx + int(b * fw))
        i = lo + int(np.argmax(step[lo:hi]))
        return (i + 0.5 - mx) / fw, float(step[i])

    u0, s0 = strongest(-0.06, 0.10)
    u1, s1 = strongest(0.90, 1.06)
    b0, t0 = strongest(0.40, 0.50)
    b1, t1 = strongest(0.50, 0.60)
    floor = 30.0
    u0 = u0 if s0 > floor else cal.u0
    u1 = u1 if s1 > floor else cal.u1
    bar = (b0, b1) if min(t0, t1) > floor and b1 - b0 > 0.012 else DEFAULT_BAR
    ref = np.r_[mx + int(0.15 * fw) : mx + int(0.35 * fw), mx + int(0.65 * fw) : mx + int(0.85 * fw)]
    surface = np.median(med[ref], axis=0)
    cal = cal.with_(field_bgr=(float(surface[0]), float(surface[1]), float(surface[2])))
    if not (u0 < bar[0] < bar[1] < u1) or (u1 - u0) < 0.8:
        return cal
    return cal.with_(u0=float(u0), u1=float(u1), bar=(float(bar[0]), float(bar[1])))


def learn_colours(cal: Calibration, image: np.ndarray) -> Calibration:
    """Split confidently found discs into bright and dark groups: the two checker colours."""
    lay = cal.layout
    canon = cal.warp(image)
    g = ck.gradients(canon)
    discs: list[ck.Disc] = []
    for c in lay.columns:
        y0, y1 = ck.strip_for(lay, c.x, c.width, c.top)
        discs += [d for d in ck.find_discs(canon, g, c.x, y0, y1, c.width) if d.score > 0.2]
    if len(discs) < 4:
        return cal
    cols = np.asarray([d.bgr for d in discs], np.float32)
    lum = cols.mean(axis=1)
    # two-means on brightness, started from the extremes
    a, b = float(lum.min()), float(lum.max())
    if b - a < 40:
        return cal
    for _ in range(10):
        split = (a + b) / 2
        lo, hi = lum[lum < split], lum[lum >= split]
        if len(lo) == 0 or len(hi) == 0:
            return cal
        a, b = float(lo.mean()), float(hi.mean())
    split = (a + b) / 2
    light = cols[lum >= split].mean(axis=0)
    dark = cols[lum < split].mean(axis=0)
    return cal.with_(
        light_bgr=(float(light[0]), float(light[1]), float(light[2])),
        dark_bgr=(float(dark[0]), float(dark[1]), float(dark[2])),
    )


def refine(cal: Calibration, image: np.ndarray, colours: bool = True) -> Calibration:
    """Edges and bar first, then (optionally) the checker colours and the skin grid.

    Call it on a frame with no hand over the board: the skin grid records how
    skin-like the clear board already is.
    """
    cal = refine_edges(cal, image)
    if colours and cal.light_bgr == DEFAULT_LIGHT and cal.dark_bgr == DEFAULT_DARK:
        cal = learn_colours(cal, image)
    if not cal.skin:
        cal = cal.with_(skin=encode_mask(skin_prone(cal.warp(image))))
    return cal
