"""Dice as small 3-D cubes, projected straight down onto the canonical board.

A flat die shows only its top face. A cocked or leaning die is rotated about
one of its edges, so its top face is foreshortened (slanted) and a side face
with another value shows beside it. Opposite faces sum to 7.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim._boards import BGR

__all__ = ["draw_die", "side_values", "footprint"]

_SHIFT = 4
_ONE = 1 << _SHIFT

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

# face normal, in-plane axis A, in-plane axis B
_FACES = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),  # top
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),  # +x
    ((0, 1, 0), (1, 0, 0), (0, 0, 1)),  # +y
    ((-1, 0, 0), (0, 1, 0), (0, 0, 1)),  # -x
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),  # -y
    ((0, 0, -1), (1, 0, 0), (0, 1, 0)),  # bottom
)
_CIRCLE = np.array(
    [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 12, endpoint=False)]
)


def side_values(value: int, rng: np.random.Generator) -> tuple[int, int, int, int]:
    """Values on the +x, +y, -x, -y faces of a die showing ``value`` on top."""
    others = [n for n in range(1, 7) if n not in (value, 7 - value)]
    a = others[int(rng.integers(0, 4))]
    b = next(n for n in others if n not in (a, 7 - a))
    return (a, b, 7 - a, 7 - b)


def _rotation(angle_deg: float, tilt_deg: float) -> np.ndarray:
    a, t = math.radians(angle_deg), math.radians(tilt_deg)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    out: np.ndarray = rz @ rx
    return out


def footprint(x: float, y: float, angle: float, scale: float = 1.0) -> np.ndarray:
    """Corners of a flat die's outline (4x2), for masks and shadows."""
    s = L.DIE * scale
    return cv2.boxPoints(((x, y), (s, s), angle))


def draw_die(
    img: np.ndarray,
    x: float,
    y: float,
    value: int,
    angle: float,
    tilt: float,
    sides: tuple[int, int, int, int],
    body: BGR,
    pip: BGR,
    scale: float = 1.0,
    shadow: float = 3.0,
) -> None:
    """Draw a die centred at (x, y) rotated by ``angle`` and tilted by ``tilt``."""
    s = L.DIE * scale
    h = s / 2.0
    rot = _rotation(angle, tilt)
    values = (value,) + sides + (7 - value,)
    centre = np.array([x, y])
    # shadow: the die's silhouette pushed away from the light (down-right)
    sil = _silhouette(rot, h) + centre + np.array([shadow * 0.8, shadow])
    cv2.fillConvexPoly(img, _fix(sil), (18, 18, 18), cv2.LINE_AA, _SHIFT)
    order = []
    for k, (n, a, b) in enumerate(_FACES):
        nz = float((rot @ np.array(n, float))[2])
        if nz > 0.02:
            order.append((nz, k))
    order.sort()
    for nz, k in order:
        fn, fa, fb = (np.array(v, float) for v in _FACES[k])
        rn, ra, rb = rot @ fn, rot @ fa, rot @ fb
        c2 = centre + rn[:2] * h
        A, B = ra[:2] * h, rb[:2] * h
        quad = np.array([c2 - A - B, c2 + A - B, c2 + A + B, c2 - A + B])
        lum = 0.5 + 0.5 * nz
        edge = _scale(body, lum * 0.75) if body[0] > 128 else _scale(_lift(body, 50), lum)
        cv2.fillConvexPoly(img, _fix(quad), edge, cv2.LINE_AA, _SHIFT)
        inset = np.array([c2 - A * 0.88 - B * 0.88, c2 + A * 0.88 - B * 0.88, c2 + A * 0.88 + B * 0.88, c2 - A * 0.88 + B * 0.88])
        cv2.fillConvexPoly(img, _fix(inset), _scale(body, lum) if body[0] > 128 else _lift(body, int(20 * nz)), cv2.LINE_AA, _SHIFT)
        pc = _scale(pip, 0.55 + 0.45 * nz)
        for pa, pb in _PIPS[values[k]]:
            pcentre = c2 + A * (pa * 0.52) + B * (pb * 0.52)
            ring = pcentre + (_CIRCLE[:, :1] * A + _CIRCLE[:, 1:] * B) * 0.19
            cv2.fillConvexPoly(img, _fix(ring), pc, cv2.LINE_AA, _SHIFT)


def _silhouette(rot: np.ndarray, h: float) -> np.ndarray:
    corners = np.array([[sx, sy, sz] for sx in (-h, h) for sy in (-h, h) for sz in (-h, h)])
    pts = (corners @ rot.T)[:, :2].astype(np.float32)
    hull: np.ndarray = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
    return hull


def _fix(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts, np.float64) * _ONE).astype(np.int32)


def _scale(c: BGR, k: float) -> BGR:
    return (min(int(c[0] * k), 255), min(int(c[1] * k), 255), min(int(c[2] * k), 255))


def _lift(c: BGR, d: int) -> BGR:
    return (min(c[0] + d, 255), min(c[1] + d, 255), min(c[2] + d, 255))
