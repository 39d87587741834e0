"""A small die's pips looked for at the die's own scale (issue 9: tournament dice of 9-12 px at
1280 px).

The search's pip finder (``dice_spots.find_spots``: a 5 x 5 hat, a ring 3.2 px out) parts pips of
2-4 px. In the canonical view a 9-12 px die of a 1280 px frame is about as many px, its pips 1.5-2
px and a quarter of its side apart: the finder finds none, and a die found by its body is held "too
small to read" for want of its pips shown resolved (``dice_vet``). ``pips_at_scale`` warps the die's
square from the frame itself so that its side spans ``SCALE_SIDE`` px -- pips of 4-5 px, as the
finder wants them, whatever the die's size -- and finds its pip spots there: an independent view of
its pips, as the search's own spots are for a larger die.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tavli_pi.vision.components import components
from tavli_pi.vision.dice_body import DIE_RANGE
from tavli_pi.vision.dice_spots import Spot, find_spots
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lie import square_crop
from tavli_pi.vision.tumbling import HatBlob

__all__ = ["CHANGED_CLOSE", "CHANGED_FILL", "CHANGED_SIZE", "CHANGED_SQUARE", "SCALE_SIDE", "changed_bodies", "pips_at_scale"]

#: the die's side (px) in the crop its pips are looked for in: a six's pips about a quarter of it
#: apart (6 px), a pip a sixth to a fifth of it (4-5 px), as the pip finder's 5 x 5 hat and 3.2 px
#: ring part them (20 and 28 agreed on fewer dice of the nine 1280-px games: bench/RESULTS.md, stop 19)
SCALE_SIDE = 24
#: the crop's half-width, in the die's sides (the pip finder looks 4-5 px in from its edges)
_HALF = 1.0


def pips_at_scale(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float],
                  side: float) -> list[Spot]:
    """The pip spots of the die of side ``side`` (canonical px) centred at ``centre``, found in a
    square of ``src`` warped so that the side spans ``SCALE_SIDE`` px, in canonical px."""
    if side <= 0:
        return []
    n = int(round(2 * _HALF * SCALE_SIDE))
    crop = square_crop(src, to_src, centre, _HALF * side, n)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    k = _HALF * side / (n / 2.0)  # canonical px per crop px
    return [(centre[0] + (x + 0.5 - n / 2.0) * k, centre[1] + (y + 0.5 - n / 2.0) * k, b)
            for x, y, b in find_spots(gray)]


#: a changed patch is a die's body (with its blurred rim and shadow) when its box is this square ...
CHANGED_SQUARE = 0.7
#: ... it fills this much of the box (a square turned 45 degrees fills half of it) ...
CHANGED_FILL = 0.45
#: ... and its area's root lies within these shares of a point's pitch: the smallest die's edge to the
#: largest's with a rim and shadow round it -- ``dice_body.DIE_RANGE``, and its top widened by the 1.3
#: ``dice._find`` allows any blob searched as a body (0.45 before: a die of the simulator's usual 0.5 pitch,
#: 8-12 px at 640x360, changed 0.55-0.66 pitch with its rim and shadow and was never searched)
CHANGED_SIZE = (DIE_RANGE[0], DIE_RANGE[1] * 1.3)
#: the gaps (a share of a point's pitch) closed in the change mask for patches where it holds none: a die
#: whose body is nearly the board's colour (a black die on the navy Pinetti field, at 640 px) changes
#: only at its pips, and its patch was a pip, a two's or three's diagonal (oblong, refused by
#: ``CHANGED_SQUARE``) or a six's two bars apart; a die's neighbouring pips lie 0.27 of its side apart
#: centre to centre (its faces' layouts), a pip a fifth of it: gaps of up to 0.35 of a side, 0.17 of a
#: pitch for the usual die of half a pitch, closed so its pips make one patch (real-like seed 10 at
#: 640 px, games 3 and 20: dice55/dice56 traces)
CHANGED_CLOSE = 0.2


def changed_bodies(changed: np.ndarray, scale: float, lay: Layout) -> list[HatBlob]:
    """Die-sized patches where the frame differs from the board learnt at set-up (``changed``: the
    ``background.Difference.changed_mask``, ``scale`` canonical px a pixel), as hat blobs in
    canonical px: square, filled, inside the field and off the bar (as ``tumbling.hat_blobs``
    keeps its blobs). A small die whose body is close to the board's grey (white on a cream or
    light wood board, red on green) makes no hat blob of its own, but stands out from the learnt
    board in colour. One whose body is the board's colour (black on navy) changes only at its pips:
    where the mask as it is holds no patch, the patches of the mask with its gaps closed
    (``CHANGED_CLOSE``) are taken too, so that such a die's pips make one. (Closed everywhere, a white
    six on the cream metal board at 640 px, patched with its rim and shadow, 6 at 0.84, grew into a
    larger patch whose pips at its scale read a 3 at 0.89: real-like seed 10 game 17 frame 25.)"""
    mask = changed.astype(np.uint8)
    got = _patches(mask, scale, lay)
    k = max(3, int(round(CHANGED_CLOSE * lay.pitch / scale)) | 1)  # (odd, in the mask's pixels)
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return got + [c for c in _patches(closed, scale, lay)
                  if not any(np.hypot(c.x - b.x, c.y - b.y) < 0.5 * c.long_ for b in got)]


def _patches(mask: np.ndarray, scale: float, lay: Layout) -> list[HatBlob]:
    """``changed_bodies``' die-sized patches of the uint8 mask ``mask`` as it is."""
    pitch = lay.pitch
    n, _, stats, cents = components(mask)
    if n < 2:
        return []
    x0, y0 = lay.to_px(lay.u0, lay.v0)
    x1, y1 = lay.to_px(lay.u1, lay.v1)
    b0, b1 = lay.bar_x
    w, h, a = (stats[1:, j].astype(np.float64) for j in (2, 3, 4))
    cx, cy = scale * (cents[1:, 0] + 0.5) - 0.5, scale * (cents[1:, 1] + 0.5) - 0.5
    long_, short = scale * np.maximum(w, h), scale * np.minimum(w, h)
    area, fill = scale * scale * a, a / (w * h)
    root = np.sqrt(area)
    keep = (CHANGED_SIZE[0] * pitch <= root) & (root <= CHANGED_SIZE[1] * pitch)
    keep &= (short >= CHANGED_SQUARE * long_) & (fill >= CHANGED_FILL)
    keep &= (x0 + 0.15 * pitch < cx) & (cx < x1 - 0.15 * pitch) & (y0 + 0.15 * pitch < cy) & (cy < y1 - 0.15 * pitch)
    keep &= ~((b0 - 0.2 * pitch < cx) & (cx < b1 + 0.2 * pitch))
    return [HatBlob(float(cx[i]), float(cy[i]), float(long_[i]), float(short[i]), float(area[i]), float(fill[i]),
                    changed=True) for i in np.flatnonzero(keep).tolist()]
