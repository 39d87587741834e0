"""Long straight edges across the field: a broadcast band's edge (issue 9).

A semi-transparent band laid over the picture (a broadcast caption) has straight edges that
run on across many points' columns at one height; where such an edge crosses a stack or a
point's bare base it rings like a checker's rim. A checker's rim is a circle: along any line
only a short arc of it lies, and a row of checkers at one height leaves gaps between its
arcs. ``find_edges`` looks for lines near the field's long axis (the band's edges are level
in the picture; the field is seen at most ``MAX_SLOPE`` off level) along which
a strong gradient across the line holds on for ``MIN_RUN`` radii with hardly a gap; ``flatten``
takes the gradient across such a line out of the gradients a ring is read from, so the band's
edge no longer rings there (a rim crossing it keeps the rest of its ring). ``learnt_edges``
finds them once in the board learnt at set-up (a band is laid over every frame alike); the
reader reads the first slot of each point the learnt position filled from the flattened
gradients (``stacks.BAND_FIRST``): where the set-up left a point bare, the set-up view already
holds the band's edge across it, and a checker's rim tangent to the edge (a checker under the
band) lost too much of its ring when the edge was taken out.

Not told apart either: a caption's lettering, whose letters' tops and feet make lines of strong
gradient across the band (real-like frame 79: found beside the band's edge).

Not told apart: a row of checkers touching across neighbouring points at one height (on the
WTC board's frames, the light checkers on points 1-6) leaves a straight edge along its rims'
tangents too; the set-up position has no such row, so the reader takes edges only from a board
learnt as the start (``stacks.band_edges_learnt``): a board joined mid-game is learnt with its
position's checkers in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.background import decode_background
from tavli_pi.vision.checkers import Gradients, gradients
from tavli_pi.vision.layout import Layout

__all__ = ["Edge", "find_edges", "flatten", "learnt_edges", "MAX_SLOPE", "MIN_RUN", "COVER", "STRONG", "WIDTH",
           "FRAME_MARGIN"]


@dataclass(frozen=True)
class Edge:
    """A straight edge ``y = y0 + slope * x`` (canonical px) from ``x0`` to ``x1``."""

    y0: float
    slope: float
    x0: float
    x1: float

    def y_at(self, x: float) -> float:
        return self.y0 + self.slope * x


#: the steepest line looked for (the field's long axis off the picture's level: up to 8 degrees
#: of the camera's roll and what a tilted view adds)
MAX_SLOPE = 0.25
#: the least length of an edge, in checker radii (three points' columns): a band across the
#: field runs on across 4-12 of them
MIN_RUN = 6.0
#: the least share of a one-radius window along the line whose gradient across it is strong
#: and of the edge's sign: a band's edge holds it all along (but over a point as dark as the
#: band's tint), a row of rims only at each rim's tangent
COVER = 0.6
#: the share of a window an edge found keeps to be followed on (over a dark point or a stack)
EXTEND_COVER = 0.25
#: the window along the line the share is taken over, in radii (a point's column and a half)
WINDOW = 3.0
#: a strong gradient across the line, as a share of the gradients' scale
STRONG = 0.2
#: how far inside the field's top and bottom edges (as calibrated), in radii, a line is looked for: the
#: field's own frame, seen in a 640 px picture under perspective, lay up to 0.8 r inside them
#: (``bench_video.py --size 640``: seed 7's beech board 0.78 r, seed 10's wood board 0.55-0.8 r, found
#: across whole halves of the field), and a first checker's rim touching it lost its ring with the frame's
#: edge (seed 10 game 18: the lone dark checker on point 12 read gone); 0.5 before
FRAME_MARGIN = 1.0
#: the half-width, in radii, of the strip along an edge whose gradient across it is taken out
#: (0.3, as stack62 proposed it; on real-like seed 0's 86 boards with edges, first slots read from
#: it: 7 spots put right, 2 made wrong, none surely; 0.2: 4 and 2)
WIDTH = 0.3


def find_edges(g: Gradients, r: float, y_lo: float, y_hi: float, x_lo: float, x_hi: float) -> list[Edge]:
    """Straight edges of at least ``MIN_RUN`` radii (``r`` px) inside the box y_lo..y_hi,
    x_lo..x_hi (canonical px; the field less its edges, whose frame is a straight edge too)."""
    h, w = g.pair.shape[:2]
    gy = g.gy
    t = STRONG * g.scale
    inside = np.zeros((h, w), np.uint8)
    inside[max(int(np.ceil(y_lo)), 0): min(int(y_hi), h), max(int(np.ceil(x_lo)), 0): min(int(x_hi), w)] = 1
    strong = ((np.abs(gy) > t) & (inside > 0)).astype(np.float32)
    win = max(int(round(WINDOW * r)), 3)
    run = MIN_RUN * r
    # slopes one pixel of rise over the longest edge apart
    step = 1.0 / max(x_hi - x_lo, 1.0)
    slopes = np.arange(-MAX_SLOPE, MAX_SLOPE + step / 2, step)
    found: list[tuple[float, Edge]] = []
    for s in slopes:
        # sheared so the lines of slope s are rows: row y' holds y = y' + s * x
        m = np.array([[1.0, 0.0, 0.0], [float(s), 1.0, 0.0]], np.float32)
        sh = cv2.warpAffine(strong, m, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
        # a row's share in a window of ``WINDOW`` radii; rows without enough strong pixels are passed
        tot = sh.sum(axis=1)
        rows = np.flatnonzero(tot >= run * COVER)
        if len(rows) == 0:
            continue
        cover = cv2.blur(sh[rows], (win, 1), borderType=cv2.BORDER_CONSTANT)
        good = cover >= COVER
        for k, y in enumerate(rows):
            gk = np.flatnonzero(good[k])
            if len(gk) < run:
                continue
            starts, ends = _runs(gk)
            best = int(np.argmax(ends - starts))
            a0, a1 = int(starts[best]), int(ends[best])
            if a1 - a0 + win < run:
                continue
            # the edge goes on, fainter, where the band crosses a point as dark as its tint or a
            # stack: the run of windows with some of it that holds the strong run
            starts, ends = _runs(np.flatnonzero(cover[k] >= EXTEND_COVER))
            at = int(np.searchsorted(starts, a0, side="right")) - 1
            b0, b1 = (int(starts[at]), int(ends[at])) if at >= 0 and ends[at] >= a1 else (a0, a1)
            x0, x1 = float(b0 - win // 2), float(b1 + win // 2)
            found.append((float(a1 - a0), Edge(float(y), float(s), x0, x1)))
    # one edge per place: the longest, others within a radius of it along its run left out
    found.sort(key=lambda e: -e[0])
    kept: list[Edge] = []
    for _, e in found:
        xm = (e.x0 + e.x1) / 2
        if any(k.x0 - r <= xm <= k.x1 + r and abs(k.y_at(xm) - e.y_at(xm)) < r for k in kept):
            continue
        kept.append(e)
    return kept


def _runs(idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(firsts, lasts) of the runs of consecutive values in the sorted, non-empty ``idx``."""
    cuts = np.flatnonzero(np.diff(idx) > 1)
    return np.r_[idx[0], idx[cuts + 1]], np.r_[idx[cuts], idx[-1]]


def flatten(g: Gradients, edges: list[Edge], r: float) -> Gradients:
    """``g`` with the gradient across each edge taken out of a strip ``WIDTH`` radii each side
    of it (the gradient along it kept): what rings there is what is not the edge."""
    if not edges:
        return g
    h, w = g.pair.shape[:2]
    pair = g.pair.copy()
    half = WIDTH * r
    for e in edges:
        norm = float(np.hypot(e.slope, 1.0))
        nx, ny = -e.slope / norm, 1.0 / norm
        xa, xb = max(int(np.floor(e.x0)), 0), min(int(np.ceil(e.x1)) + 1, w)
        if xb <= xa:
            continue
        xs = np.arange(xa, xb)
        yc = e.y0 + e.slope * xs
        ya, yb = max(int(np.floor(yc.min() - half - 1)), 0), min(int(np.ceil(yc.max() + half + 1)) + 1, h)
        if yb <= ya:
            continue
        ys = np.arange(ya, yb)[:, None]
        near = np.abs(ys - yc[None, :]) * ny <= half
        sub = pair[ya:yb, xa:xb].astype(np.float32)
        across = sub[..., 0] * nx + sub[..., 1] * ny
        across = np.where(near, across, 0.0)
        sub[..., 0] -= across * nx
        sub[..., 1] -= across * ny
        pair[ya:yb, xa:xb] = np.round(sub).astype(np.int16)
    return Gradients(pair, g.scale)


@lru_cache(maxsize=4)
def learnt_edges(background: str, lay: Layout, r: float, shape: tuple[int, int]) -> tuple[Edge, ...]:
    """The straight edges across the field of the board learnt at set-up (``background``, as
    stored), in the canonical px of a ``shape`` (height, width) view; ``r`` the checkers' radius
    there (px). A broadcast band is laid over every frame alike, so the set-up view holds its
    edges; found once per calibration. The field's own frame is left out: only lines at least
    ``FRAME_MARGIN`` radii inside its top and bottom edges are looked for."""
    bg = decode_background(background) if background else None
    if bg is None:
        return ()
    sy, sx = bg.shape[0] / shape[0], bg.shape[1] / shape[1]
    x0, x1 = lay.mx + lay.u0 * lay.field_w, lay.mx + lay.u1 * lay.field_w
    found = find_edges(gradients(bg), r * sx, (lay.top_y + FRAME_MARGIN * r) * sy,
                       (lay.bottom_y - FRAME_MARGIN * r) * sy,
                       x0 * sx, x1 * sx)
    return tuple(Edge(e.y0 / sy, e.slope * sx / sy, e.x0 / sx, e.x1 / sx) for e in found)
