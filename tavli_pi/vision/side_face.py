"""A die's side face beside its top face: the witness that a die whose outline cannot be measured
does not lie flat.

A die turning over (or leaning) shows, seen from above, its top face and a strip of a side face
along one of its edges; the strip carries that face's pips, foreshortened. Where the die's outline
runs into something of its own colour (a black die against a black point) the outline cannot show
the strip (``lie.die_outline`` gives none), and its face alone reads as clearly as a flat die's.
The side face's pips still show: marks of the face pips' shade and about their size, lying in a
row just beyond one edge of the top face, where a flat die shows its rim and then the board.

``side_pips`` counts them: in a crop square to the die round the top face's centre, the face's own
pips (as many as its value, of one shade) give the face's size (its corner pips sit about a quarter
of the side from the centre each way) and the pips' look; marks of that shade and size whose centre
lies past one edge of the face, within ``BEYOND`` of its side, and no further along the edge than
the face's own pips, are that edge's; the count is the largest of the four edges'.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tavli_pi.vision.lie import turned_crop
from tavli_pi.vision.pips import find_pip_blobs
from tavli_pi.vision.quantile import percentile

__all__ = ["BEYOND", "PIP_AREA", "SIDE_PIPS", "side_pips"]

#: the crop's width, in the candidate's sides
_SPAN = 1.6
_N = 64
#: a corner pip's offset from the face's centre along each edge, over the face's side (0.25-0.3 on
#: dice of the simulator and the photographed ones)
_CORNER = 0.27
#: a side face's pips lie this far past the top face's centre (shares of the face's side): past its
#: edge (0.5) by up to half the strip a die turning over shows (a die touching it has its pips from
#: 0.73 on: its rim, the gap, its own corner pip's offset)
BEYOND = (0.55, 0.72)
#: this many marks beside one edge are a side face's row of pips (one mark may be a speck, a
#: checker's glint, a dot of print)
SIDE_PIPS = 2
#: a pip's area over its face's square, but a one's: pips about a fifth of the face across
#: (the simulator's dice; WTC 2022 frame1's leaning one shows its side face's pips at 41-44 crop px
#: on a face of 40 px, 0.026-0.028)
PIP_AREA = 0.028


def side_pips(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float],
              side: float, angle: float, value: int, face_side: float | None = None) -> int:
    """How many pip-like marks lie in a row beside one edge of the top face of ``value`` centred at
    ``centre`` (canonical px; ``side`` about the die's edge, ``angle`` its edges' angle). 0 when the
    face's own pips cannot be told in the crop. A one has no grid to size the face by: its face is
    ``face_side`` across (canonical px; None: 0 is returned) and a side face's pips of about
    ``PIP_AREA`` of its square."""
    if value < 1 or (value == 1 and face_side is None):
        return 0
    crop = turned_crop(src, to_src, centre, _SPAN * side, angle, _N)
    gray = cv2.GaussianBlur(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop, (3, 3), 0)
    k = _N / (_SPAN * side)  # crop px a canonical px
    c = _N / 2.0
    mid = gray[int(c - 0.5 * side * k):int(c + 0.5 * side * k) + 1, int(c - 0.5 * side * k):int(c + 0.5 * side * k) + 1]
    span = float(percentile(mid, 97) - percentile(mid, 3))
    if span < 25:
        return 0
    back = cv2.medianBlur(gray, (_N // 3) | 1)
    best = 0
    for dark in (True, False):
        blobs, _ = find_pip_blobs(gray, dark, 0.25 * span, back)
        if not blobs:
            continue
        pts = np.asarray(blobs, np.float64)
        d = pts[:, :2] - c
        face = np.hypot(d[:, 0], d[:, 1]) < 0.42 * side * k
        if int(face.sum()) != value:
            continue  # not this face's pips (of this shade)
        if value == 1 and face_side is not None:
            s = face_side * k  # the face's side, crop px (a one's own pip is larger than other faces')
            g = _CORNER * s
            area = PIP_AREA * s * s
        else:
            g = float(np.abs(d[face]).max())  # the corner pips' offset along the edges
            s = g / _CORNER  # the face's side, crop px
            area = float(pts[face, 2].mean())
        marks = d[~face & (pts[:, 2] >= 0.25 * area) & (pts[:, 2] <= 1.6 * area)]
        for axis in (0, 1):
            along, across = marks[:, axis], marks[:, 1 - axis]
            for sign in (1.0, -1.0):
                row = (sign * along >= BEYOND[0] * s) & (sign * along <= BEYOND[1] * s) & (np.abs(across) <= g + 0.1 * s)
                best = max(best, int(row.sum()))
    return best
