"""The doubling cube: where it lies (who owns it) and the number on top.

``find_cube`` looks where a cube is kept -- beside the playing field (the
frame or the tray column, left or right) and on the bar -- never among the
points, where checkers and dice would tempt it. In those strips of the
canonical image it takes the outlines of every grey level (a few thresholds)
and keeps square ones of a cube's size (0.5-1.05 of a point's width, nearly
as full as their rectangle: a checker fills only pi/4 of its box, a die is
too small). Each square is cut from the original frame, turned square to
the picture, and its number is read by ``digits.read_face``; the square
whose number reads best is the cube.

Place: a cube half-way up the field (v in 0.3-0.7) is centred (``middle``);
nearer the light player's edge (the bottom) it is the light player's, nearer
the top the dark player's (C1: the owner keeps it on their side).
Value: the face as read (2..64); a centred cube showing 64 is a cube at 1
(the 64 face is how a fresh cube lies), so it reads 1. When the number does
not read (a logo face, too few pixels) a centred cube is assumed to be at 1
and an owned one gets value 0, with low confidence.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.digits import read_face
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import CubePlace, CubeReading

__all__ = ["find_cube", "cube_candidates", "place_of", "CUBE_RANGE"]

#: a cube's edge relative to the point pitch (the simulator's 0.70, the WTC cube about 0.84)
CUBE_RANGE = (0.5, 1.05)
_LEVELS = tuple(range(40, 240, 16))
_FACE = 48
_K3 = np.ones((3, 3), np.uint8)  # px of the normalised face crop

Square = tuple[float, float, float, float]  # canonical centre x, y, edge, angle (deg)


def _strips(lay: Layout, width: int) -> list[tuple[int, int]]:
    """x ranges (canonical px) where a cube may lie: left of the field, the bar, right of it."""
    fw = lay.field_w
    pad = 0.5 * lay.pitch
    x0 = lay.mx + lay.u0 * fw
    x1 = lay.mx + lay.u1 * fw
    b0, b1 = lay.bar_x
    spans = [(0.0, x0 + 0.4 * pad), (b0 - pad, b1 + pad), (x1 - 0.4 * pad, float(width))]
    return [(max(int(a), 0), min(int(b), width)) for a, b in spans if b - a > 8]


def cube_candidates(gray: np.ndarray, lay: Layout) -> list[Square]:
    """Square outlines of a cube's size in the strips where a cube may lie.

    Searched at half resolution (a cube is still 13+ px there), a few grey levels.
    """
    pitch = 0.5 * lay.pitch
    lo, hi = CUBE_RANGE[0] * pitch, CUBE_RANGE[1] * pitch
    out: list[tuple[float, Square]] = []
    for xa, xb in _strips(lay, gray.shape[1]):
        xa, xb = xa // 2 * 2, xb // 2 * 2
        strip = cv2.resize(gray[:, xa:xb], None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        for level in _LEVELS:
            _, binary = cv2.threshold(strip, level, 1, cv2.THRESH_BINARY)
            contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
            for c in contours:
                if len(c) < 4:
                    continue
                x, y, w, h = cv2.boundingRect(c)
                if not (lo * 0.9 <= max(w, h) <= hi * 1.45 and min(w, h) >= lo * 0.9):
                    continue
                sq = _square_contour(c, lo, hi)
                if sq is not None:
                    key, (cx, cy, edge, ang) = sq
                    out.append((key, (2.0 * cx + 0.5 + xa, 2.0 * cy + 0.5, 2.0 * edge, ang)))
    # one candidate per place: the squarest outline among the levels
    out.sort(key=lambda t: -t[0])
    kept: list[Square] = []
    for _, cand in out:
        if all(np.hypot(cand[0] - k[0], cand[1] - k[1]) > 0.5 * cand[2] for k in kept):
            kept.append(cand)
    return kept[:6]


def _square_contour(c: np.ndarray, lo: float, hi: float) -> tuple[float, Square] | None:
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
    side, long_ = min(rw, rh), max(rw, rh)
    if not (lo <= side and long_ <= hi) or side < 0.78 * long_:
        return None
    fill = float(cv2.contourArea(c)) / max(rw * rh, 1.0)
    if fill < 0.8 or not _corners_inside(c, (cx, cy), (rw, rh), ang):
        return None
    # contour points run through pixel centres: the outline is a pixel larger
    return fill + side / long_, (cx, cy, 0.5 * (rw + rh) + 1.0, float(ang))


def _corners_inside(c: np.ndarray, centre: tuple[float, float], size: tuple[float, float], ang: float) -> bool:
    """A square's corners lie inside its outline; a disc's (a checker's) lie outside."""
    pts = cv2.boxPoints((centre, (0.8 * size[0], 0.8 * size[1]), ang))
    return all(cv2.pointPolygonTest(c, (float(x), float(y)), False) >= 0 for x, y in pts)


def _face_crop(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], sq: Square) -> np.ndarray:
    """The square's face from ``src``, turned square to the crop (grey, _FACE px).

    ``to_src`` maps canonical points into ``src`` (the frame: ``cal.to_image``).
    """
    cx, cy, side, ang = sq
    h = 0.6 * side  # a little beyond the outline: the number may fill an inner square
    t = np.deg2rad(ang)
    rot = np.asarray([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    corners = np.asarray([[-h, -h], [h, -h], [h, h], [-h, h]], np.float32) @ rot.T + np.asarray([cx, cy], np.float32)
    quad = np.asarray(to_src(corners), np.float32)
    # warp only the neighbourhood (cheaper than the whole frame)
    x0, y0 = (max(int(v), 0) for v in np.floor(quad.min(axis=0)) - 2)
    x1, y1 = (int(v) for v in np.ceil(quad.max(axis=0)) + 3)
    roi = src[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
    if roi.ndim == 3:
        roi = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    dst = np.asarray([[0, 0], [_FACE, 0], [_FACE, _FACE], [0, _FACE]], np.float32)
    m = cv2.getPerspectiveTransform(quad - np.asarray([x0, y0], np.float32), dst)
    return cv2.warpPerspective(roi, m, (_FACE, _FACE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def place_of(v: float) -> CubePlace:
    """The cube's place from its height on the field (0 top, 1 bottom)."""
    if 0.3 <= v <= 0.7:
        return "middle"
    return "light" if v > 0.7 else "dark"


#: a face whose best template scores below this does not read (a logo, a blur)
READ_SCORE = 0.5


def find_cube(
    canon: np.ndarray, lay: Layout, cal: Calibration, image: np.ndarray | None = None
) -> CubeReading | None:
    """The doubling cube in the canonical image, or None when none is seen.

    ``image`` (the original frame) gives the number more pixels; without it
    the canonical image is read.
    """
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY) if canon.ndim == 3 else canon
    src, to_src = (image, cal.to_image) if image is not None else (gray, _same)
    best: tuple[float, Square, int, float] | None = None
    for sq in cube_candidates(gray, lay):
        value, score, margin = read_face(_face_crop(src, to_src, sq))
        if value == 0:
            continue  # no mark on a plain face: a tray's stripes, a hinge, a box
        key = score + 0.5 * min(margin, 0.1)
        if best is None or key > best[0]:
            best = (key, sq, value, score)
    if best is None:
        return None
    key, sq, value, score = best
    place = place_of(lay.to_uv(sq[0], sq[1])[1])
    if score < READ_SCORE:
        # a cube-shaped square whose number does not read (a logo face, too few pixels):
        # a centred cube is most likely at 1; an owned cube's value is unknown (0)
        return CubeReading(1 if place == "middle" else 0, place, 0.2)
    if value == 64 and place == "middle":
        value = 1
    conf = float(np.clip((key - 0.45) / 0.35, 0.05, 0.99))
    return CubeReading(int(value), place, conf)


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)
