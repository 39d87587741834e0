"""Find the playing field without markers, from the board's own look -- or refuse.

``field_candidates`` is one of the two sources of candidates that
``calibrate.locate_field`` fits to the points (``fieldfit``, which decides);
``pattern_score`` and ``find_field_corners`` are the older, period-only finder.

Candidates are the large convex quadrilaterals among the outlines of the
picture (grey levels at several thresholds, and edges): the playing surface
is a big, nearly uniform area ringed by the frame. Each candidate is warped
to the canonical view and scored by what only a backgammon field shows: in
the bands along its top and bottom edges, the 6 + 6 points of each edge make
a comb of edges (triangle sides, checker rims) repeating once per point, and
the bar separates the halves. The score is the weakest of the four half-edge
bands' share of their x-profile's power at that period and half of it (6 and
12 cycles per half: each triangle has two sides);
a candidate that is not the field (the whole board with the trays, the table,
one half) puts the period in the wrong place in at least one band.

``find_field_corners(image)`` returns the corners and the score, or raises
CalibrationError when no candidate scores ``ACCEPT`` or two disagree: it
never guesses.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.calibration import Calibration, check_corners, order_corners

__all__ = ["field_candidates", "pattern_score", "scored_candidates", "find_field_corners", "ACCEPT"]

#: the weakest band's share of power at the point period a field must reach
ACCEPT = 0.30

#: what to do when the field cannot be found
ADVICE = (
    "give the playing-field corners with --corners \"x,y x,y x,y x,y\" (top-left, top-right, "
    "bottom-right, bottom-left), or print corner markers with `tavli-pi markers` and stick them "
    "just outside the field's corners"
)


def field_candidates(image: np.ndarray, max_n: int = 40) -> list[np.ndarray]:
    """Large convex quadrilaterals (4x2 float32, TL TR BR BL) among the picture's outlines."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    h, w = gray.shape
    scale = 640.0 / max(w, h)
    small = cv2.resize(gray, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    area_img = float(small.shape[0] * small.shape[1])
    binaries = []
    for level in range(30, 240, 15):
        for mode in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
            binaries.append(cv2.threshold(small, level, 255, mode)[1])
    edges = cv2.Canny(small, 40, 120)
    binaries.append(cv2.dilate(edges, np.ones((3, 3), np.uint8)))
    found: list[tuple[float, np.ndarray]] = []
    for b in binaries:
        contours, _ = cv2.findContours(b, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            a = cv2.contourArea(c)
            if not (0.04 * area_img <= a <= 0.97 * area_img):
                continue
            # the hull: checkers at the points' bases notch the surface's outline
            hull = cv2.convexHull(c)
            peri = cv2.arcLength(hull, True)
            # a corner point covered by a dark triangle or checker cuts the hull's corner off:
            # coarser approximations and the hull's least rotated rectangle are candidates too
            for eps in (0.02, 0.04, 0.07):
                quad = cv2.approxPolyDP(hull, eps * peri, True)
                if len(quad) == 4 and cv2.isContourConvex(quad):
                    found.append((a, order_corners(quad.reshape(4, 2).astype(np.float32) / scale)))
                    break
            else:
                box = cv2.boxPoints(cv2.minAreaRect(hull))
                found.append((a, order_corners(np.asarray(box, np.float32) / scale)))
    # the bar splits the surface: the field is also a pair of halves side by side
    halves = [q for a, q in found if a <= 0.5 * area_img]
    size = float(max(w, h))
    for qa in halves:
        for qb in halves:
            wa, wb = qa[1, 0] - qa[0, 0], qb[1, 0] - qb[0, 0]
            gap = qb[0, 0] - qa[1, 0]
            if wa <= 0 or wb <= 0 or not (-0.01 * size <= gap <= 0.7 * min(wa, wb)) or abs(wa - wb) > 0.2 * max(wa, wb):
                continue
            if max(abs(qa[1, 1] - qb[0, 1]), abs(qa[2, 1] - qb[3, 1])) > 0.03 * size:
                continue
            quad = np.asarray([qa[0], qb[1], qb[2], qa[3]], np.float32)
            found.append((float(cv2.contourArea(quad * scale)), quad))
    found = [(a, q) for a, q in found if a >= 0.12 * area_img]
    found.sort(key=lambda t: -t[0])
    out: list[np.ndarray] = []
    for _, q in found:
        if all(np.abs(q - k).max() > 0.01 * max(w, h) for k in out):
            out.append(q)
    return out[:max_n]


def _period_share(profile: np.ndarray, cycles: int = 6) -> float:
    """Share of a profile's power (without its mean) at ``cycles`` and twice that per length
    (+-1 bin: a triangle has two sides, so its edges repeat at twice the point rate)."""
    p = profile - profile.mean()
    spec = np.abs(np.fft.rfft(p * np.hanning(len(p)))) ** 2
    total = float(spec[1 : 4 * cycles + 1].sum()) + 1e-9
    hit = float(spec[cycles - 1 : cycles + 2].sum() + spec[2 * cycles - 1 : 2 * cycles + 2].sum())
    return hit / total


def pattern_score(image: np.ndarray, corners: np.ndarray) -> float:
    """How much the warp of ``image`` by ``corners`` looks like a backgammon field (0-1)."""
    cal = Calibration(np.asarray(corners, np.float32))
    lay = cal.layout
    canon = cv2.cvtColor(cal.warp(image), cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = np.abs(cv2.Sobel(canon, cv2.CV_32F, 1, 0, ksize=3))
    fw, fh, mx, my = lay.field_w, lay.field_h, lay.mx, lay.my
    shares = []
    for v0, v1 in ((0.03, 0.3), (0.7, 0.97)):
        band = gx[my + int(v0 * fh) : my + int(v1 * fh)]
        prof = band.mean(axis=0)
        for u0, u1 in ((0.01, 0.46), (0.54, 0.99)):
            shares.append(_period_share(prof[mx + int(u0 * fw) : mx + int(u1 * fw)], 6))
    return float(min(shares))


def scored_candidates(image: np.ndarray) -> list[tuple[float, np.ndarray]]:
    """(pattern score, corners) of every plausible field candidate, best score first."""
    if image is None or image.ndim != 3:
        raise CalibrationError("the picture is not a colour image; " + ADVICE)
    scored: list[tuple[float, np.ndarray]] = []
    for quad in field_candidates(image):
        try:
            check_corners(quad, image.shape)
        except CalibrationError:
            continue
        side = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1]))
        top = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3]))
        if not 0.55 <= side / max(top, 1e-6) <= 1.3:  # a field is about as tall as wide
            continue
        scored.append((pattern_score(image, quad), quad))
    scored.sort(key=lambda t: -t[0])
    return scored


def find_field_corners(image: np.ndarray) -> tuple[np.ndarray, float]:
    """(corners TL TR BR BL in image px, pattern score) of the playing field, or CalibrationError."""
    scored = scored_candidates(image)
    if not scored or scored[0][0] < ACCEPT:
        best = f" (best pattern score {scored[0][0]:.2f} < {ACCEPT})" if scored else ""
        raise CalibrationError(f"could not find the playing field without markers{best}; " + ADVICE)
    score, best_q = scored[0]
    size = max(image.shape[:2])
    for s, q in scored[1:]:
        if s >= ACCEPT and s > 0.9 * score and np.abs(q - best_q).max() > 0.05 * size:
            raise CalibrationError(
                "two different quadrilaterals look like the playing field; " + ADVICE
            )
    return best_q, score
