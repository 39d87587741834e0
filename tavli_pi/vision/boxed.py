"""A point's first slot boxed in by straight edges: a ring of edge that is no checker's rim.

A checker's rim is round: at the diagonals of its ring (45 degrees off the point's axis) its edge
runs diagonally, and the gradient across it does too. A bare point's base may be boxed in all
round by straight edges instead: the point's two sides, the field's edge behind it, and across its
tip a broadcast band's or a shadow's edge, or a caption's stroke. The ring's magnitude cannot tell
the two (the box's sides lie where a checker's rim would, and the ring fit read such a slot as a
checker at ring logit 10), but the box's edges run along the canonical view's axes, so at the
ring's diagonals the gradient there points along an axis, not along the diagonal.

``axis_share``: at the ring's diagonals, how far the gradient points off the axes (|sin 2 phi|,
weighted by the gradient's magnitude; 1 on a round rim, 0 on a box). Measured on the 200 real-like
frames (``bench_reallike.py --frames 200``, a board learnt at set-up; every first slot read at 0.2
or more occupied): the 1,478 holding a checker lie at 0.245 or more (1st percentile 0.32), and 21
bare ones lie under ``BOXED`` (7 of them read wrong: band and shadow edges across a light point's
base, 97 p1, 116 p12, 199 p19; a sleeve over 35 p10-11; lettering over 174 p4; a light point 149
p6). A slot so boxed, whose next slot is not read holding a checker, is held at ``BOXED_P``.

A bare point of the light checkers' white may be boxed in over two slots and read as two checkers
(149 p6 at 0.57, 0.18 and 0.17 on its two slots): a first and second slot both boxed, the third not
read holding a checker, are both held (``setup_slots._boxed_held``). Of the 388 points read holding
two or more with the third slot empty and a checker there in truth (the same 200 frames), the
larger of the two slots' ``axis_share`` is 0.306 or more (0.40 but for frame 16's 11-stack read
short); 3 bare ones lie under ``BOXED`` on both (149 p6, and 35 p10-11 under a sleeve).
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck

__all__ = ["BOXED", "BOXED_P", "axis_share", "boxed"]

#: a first slot whose ring's diagonals point off the axes less than this is boxed in (no checker)
BOXED = 0.2
#: the most a boxed first slot may be occupied
BOXED_P = 0.15

#: the ring's angles, and its radii (in checker radii: ``checkers.ring_features``' three)
_N = 48
_ANG = np.linspace(0.0, 2.0 * np.pi, _N, endpoint=False)
_RHO = (0.94, 1.02, 1.10)
#: the angles near the diagonals (within about 18 degrees of them)
_DIAG = np.abs(np.sin(2.0 * _ANG)) > 0.8


def axis_share(g: ck.Gradients, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Per ring (centres ``x``, ``y``, radii ``r``, 1-d), at its diagonals the magnitude-weighted
    |sin 2 phi| of the gradient's direction phi, at each angle the strongest of the three radii's."""
    x, y, r = (np.asarray(a, np.float64).reshape(-1) for a in (x, y, r))
    if not len(x):
        return np.zeros(0)
    h, w = g.pair.shape[:2]
    ang = _ANG[_DIAG]
    gxs, gys = [], []
    for rho in _RHO:
        px = np.clip(np.rint(x[:, None] + rho * r[:, None] * np.cos(ang)), 0, w - 1).astype(np.int64)
        py = np.clip(np.rint(y[:, None] + rho * r[:, None] * np.sin(ang)), 0, h - 1).astype(np.int64)
        pair = g.pair[py, px].astype(np.float64)
        gxs.append(pair[..., 0])
        gys.append(pair[..., 1])
    gx, gy = np.stack(gxs), np.stack(gys)  # (3, n, angles)
    mag = np.hypot(gx, gy)
    best = np.argmax(mag, axis=0)[None]
    gx, gy, mag = (np.take_along_axis(a, best, axis=0)[0] for a in (gx, gy, mag))
    off_axis = np.abs(np.sin(2.0 * np.arctan2(gy, gx)))
    return np.asarray((mag * off_axis).sum(axis=1) / (mag.sum(axis=1) + 1e-6))


def boxed(g: ck.Gradients, x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Bool per ring: boxed in by straight edges (``axis_share`` under ``BOXED``)."""
    return np.asarray(axis_share(g, x, y, r) < BOXED)
