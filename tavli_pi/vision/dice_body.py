"""A candidate die's body: the outline round its pips (``body``, or the one a memo kept:
``bodied``; two dice that touch parted: ``_parted``), its angle from its pips (``angle_of``), and whether a disc under it is a checker
(``checker_under``)."""

from __future__ import annotations

import cv2
import numpy as np

from collections.abc import Callable

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.component_box import box_of, labelled
from tavli_pi.vision.dice_ground import ground_parted
from tavli_pi.vision.dice_memo import Box, DiceMemo
from tavli_pi.vision.dice_spots import Spot
from tavli_pi.vision.lie import square_crop
from tavli_pi.vision.quantile import float_mean, median

__all__ = ["DIE_RANGE", "EDGE_CONTRAST", "NARROWEST", "angle_of", "bodied", "body", "body_box", "checker_under",
           "edge_side"]

#: a die's edge relative to the point pitch: the simulator's are 0.44, the WTC board's about 0.3
DIE_RANGE = (0.24, 0.56)
#: an outline's short side is at least this share of the smallest die's edge (``DIE_RANGE``),
#: as ``body``'s least area allows
NARROWEST = 0.8

_K3 = np.ones((3, 3), np.uint8)


def body_box(group: list[Spot], pitch: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The crop (x0, y0, x1, y1) of the canonical view that ``body`` looks at."""
    return _box(np.asarray([(x, y) for x, y, _ in group], np.float32), pitch, shape)


def _box(pts: np.ndarray, pitch: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``body_box`` of the spots' centres ``pts`` (float32, N x 2)."""
    cx, cy = float_mean(pts, 0)  # (``quantile.float_mean``: ``mean``'s values, to the bit, for less)
    half = int(pitch * 0.6)
    x0, y0 = max(int(cx) - half, 0), max(int(cy) - half, 0)
    x1, y1 = min(int(cx) + half + 1, shape[1]), min(int(cy) + half + 1, shape[0])
    return x0, y0, x1, y1


def body(canon: np.ndarray, group: list[Spot], pitch: float, parted_from: float | None = None,
         box: tuple[int, int, int, int] | None = None) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The die's outline around its pips, as a rotated rectangle in canonical px. ``parted_from``:
    the least side (canonical px) of a die of one or two spots whose body, run into a ground of nearly
    its colour, is parted from it (``dice_ground``); None: never parted. ``box``: ``body_box`` of the
    same arguments, when made already (``bodied``)."""
    pts = np.asarray([(x, y) for x, y, _ in group], np.float32)
    x0, y0, x1, y1 = _box(pts, pitch, canon.shape) if box is None else box
    crop = canon[y0:y1, x0:x1]
    if crop.size == 0:
        return None
    local = pts - (x0, y0)
    hh, ww = crop.shape[:2]
    pipm8 = np.zeros((hh, ww), np.uint8)
    for px, py in local:
        cv2.circle(pipm8, (int(round(px)), int(round(py))), 2, 1, -1)
    pipm = pipm8.astype(bool)
    # the body: the half of the die's middle farthest in shade from the pips
    lx, ly = float_mean(local, 0)
    r = max(0.18 * pitch, 4.0)
    mid8 = np.zeros((hh, ww), np.uint8)
    cv2.circle(mid8, (int(round(lx)), int(round(ly))), int(round(r)), 1, -1)
    mid = mid8.astype(bool) & ~pipm
    # (counts of the set pixels: ``sum`` and ``any``'s answers without their dispatch, issue 12)
    if np.count_nonzero(mid) < 8 or not np.count_nonzero(pipm8):
        return None
    vals = crop[mid].astype(np.int16)
    # (a pixel's three levels added in 16 bits, at most 765: the sums of ``sum(axis=1)``, whose
    # median, a whole or half level in float64, and the pixels at most or at least it are the same)
    shade = vals[:, 0] + vals[:, 1] + vals[:, 2]
    bright = group[0][2]
    cut = median(shade)  # (``quantile.median``: np.median's values, to the bit, for less)
    body = median(vals[shade <= cut] if bright else vals[shade >= cut], axis=0)
    pip = median(crop[pipm].astype(np.int16), axis=0)
    sep = float(np.abs(body - pip).max())
    # pixels within ``tol`` of the body's colour in every channel (strictly), as integer bounds
    tol = max(30.0, 0.3 * sep)
    lower = np.floor(body - tol) + 1
    upper = np.ceil(body + tol) - 1
    plain = cv2.inRange(crop, tuple(lower.tolist()), tuple(upper.tolist())) // 255
    got = _component(plain, pipm8, local)
    if got is None:
        return None
    labels, lab, (x, y, w, h, a) = got
    if x == 0 or y == 0 or x + w >= ww or y + h >= hh:
        if parted_from is None or len(group) > GROUND_SPOTS:
            return None  # the body runs into its surroundings (same colour): outline unknown
        # the body runs into its surroundings (of nearly its colour): parted from the ground it ran
        # into past the largest die's corners (``dice_ground``), else its outline is unknown
        yy, xx = np.arange(hh)[:, None], np.arange(ww)[None, :]  # (``np.ogrid``'s, without its indexing
        # machinery; broadcast: each pixel's distance as from a full grid)
        reach = GROUND_FROM * DIE_RANGE[1] * pitch
        far = (labels == lab) & ((xx - lx) ** 2 + (yy - ly) ** 2 > reach * reach) & (plain > 0)
        parted = ground_parted(crop, plain, far, body)  # (in float32 there, once past its first test)
        if parted is None:
            return None
        got = _component(parted[0], pipm8, local)
        if got is None:
            return None
        labels, lab, (x, y, w, h, a) = got
        if x == 0 or y == 0 or x + w >= ww or y + h >= hh or min(w, h) < parted_from:
            return None
    if a > (DIE_RANGE[1] * pitch * 1.5) ** 2 or a < (DIE_RANGE[0] * pitch * NARROWEST) ** 2:
        return None
    comp = cv2.findNonZero((labels[y : y + h, x : x + w] == lab).astype(np.uint8))
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(comp.reshape(-1, 2).astype(np.float32) + np.asarray([x, y], np.float32))
    if a < 0.8 * rw * rh:
        part = _parted((labels == lab).astype(np.uint8), local, pitch)
        if part is None:
            return None  # round (a checker's face) or ragged: not a die's outline
        (rx, ry), (rw, rh), ang = part
    elif max(rw, rh) >= TWO_LONG * min(rw, rh):
        # as long as two dice side by side and filled out (their pips' marks fill the neck between
        # them: WTC test9's 1 and 3 corner to corner, all three of the 3's pips found): parted when
        # it falls into two square dice, else the oblong stays (a cocked die with its side face)
        part = _parted((labels == lab).astype(np.uint8), local, pitch)
        if part is not None:
            (rx, ry), (rw, rh), ang = part
    return (rx + x0, ry + y0), (rw, rh), float(ang)


def _component(plain: np.ndarray, pipm8: np.ndarray,
               local: np.ndarray) -> tuple[np.ndarray, int, tuple[int, int, int, int, int]] | None:
    """The component of the body mask ``plain`` (uint8 0/1; the pips' marks ``pipm8`` added) under
    the pips' centre (``local``: crop px), else the one holding most of them: (labels, its label,
    its x, y, w, h, area), or None."""
    hh, ww = plain.shape
    mask = cv2.bitwise_or(plain, pipm8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _K3)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    n, labels = labelled(mask, 4)  # (one component's stats wanted: ``component_box``)
    # (the centre clipped to the crop: ``np.clip``'s value, a bound or the mean itself, without its dispatch)
    lab = int(labels[int(round(float(min(max(float(float_mean(local[:, 1])), 0.0), hh - 1)))),
                     int(round(float(min(max(float(float_mean(local[:, 0])), 0.0), ww - 1))))])
    if lab == 0:
        counts = np.bincount(labels[pipm8.astype(bool)].ravel(), minlength=n)
        counts[0] = 0
        lab = int(np.argmax(counts))
        if lab == 0:
            return None
    return labels, lab, box_of(labels, lab)


#: a body that ran into its surroundings is parted from the ground (``dice_ground``) taken this far
#: from its pips' centre and more, in the largest die's edges (``DIE_RANGE``): past its corners
GROUND_FROM = 0.75
#: ... only for a group of at most this many spots: a one's or a two's, which make no die without an
#: outline (more spots in a face's layout are read where they lie; an outline parted from the ground
#: takes in the die's shadow, and set off the face's centre read a black four on navy a two)
GROUND_SPOTS = 2
#: a filled outline this many times as long as it is wide is tried as two dice that touch too
TWO_LONG = 1.7
#: two dice that touch are parted (``_parted``) by eroding their joint body with a disc of this
#: radius (in the smallest die's edges, ``DIE_RANGE``): the neck where they touch, corner to corner
#: or along blurred edges, is thinner than this disc's width; each die is wider
PART_RADIUS = 0.3
#: a part is a die parted from another only when this square (short over long side): a flat die's
#: outline, as ``dice.SQUARE`` tells one (a part of a ragged patch that is no die is seldom square)
PART_SQUARE = 0.84


def _parted(comp: np.ndarray, local: np.ndarray, pitch: float) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The outline (crop px) of the die whose pips ``local`` are, when its ragged component
    ``comp`` (uint8 0/1) is two bodies that touch: two dice of one colour side by side make one
    body in the colour mask (WTC test9: a one and a three corner to corner, one 29 x 16 px
    component, no outline, read as one 34 px die). Its pips' holes filled, it is eroded by a disc
    (``PART_RADIUS``); when it falls into two or more parts, the part nearest most of the pips is
    grown back inside the body, over the pixels nearer it than the other parts. None unless that part
    is a whole die's square outline (``PART_SQUARE``) beside die-sized others."""
    hh, ww = comp.shape
    # the body whole, its pips' holes filled (a pip the spot finder missed leaves one)
    ground = np.zeros((hh + 2, ww + 2), np.uint8)
    filled = comp.copy()
    cv2.floodFill(filled, ground, (0, 0), 1)  # (the crop's corner is ground: ``body`` checked)
    comp = comp | (1 - filled)
    r = max(1, int(round(PART_RADIUS * DIE_RANGE[0] * pitch)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    core = cv2.erode(comp, disc)
    n, labels, _, centroids = cv2.connectedComponentsWithStats(core, connectivity=4)
    if n < 3:
        return None  # one body (or none left): not two dice
    # each pip to the nearest part; the part with most of them (of as many, the nearer the pips' centre)
    cents = np.asarray(centroids[1:], np.float64)
    near = np.argmin(np.hypot(local[:, None, 0] - cents[None, :, 0], local[:, None, 1] - cents[None, :, 1]), axis=1)
    votes = np.bincount(near, minlength=len(cents))
    mid = float_mean(local, 0)
    lab = 1 + int(min(range(len(cents)), key=lambda j: (-votes[j], float(np.hypot(*(cents[j] - mid))))))
    # two dice: the die's part and the others, each grown back, the die's at least the smallest die's
    # whole area (a die parted from its shadow or its rim is less), the others together at least
    # ``body``'s least (a die the crop cuts; a die whose pips the disc eats through falls into pieces:
    # WTC test9's three, the field moved a pixel, in the finer view)
    # (each pixel grown back to the nearer: the neck where they touch is parted down its middle, not
    # given to both, which left either die an oblong when they touch along a thick neck)
    own = (labels == lab).astype(np.uint8)
    rest = ((labels > 0) & (labels != lab)).astype(np.uint8)
    nearer = cv2.distanceTransform(1 - own, cv2.DIST_L2, 3) <= cv2.distanceTransform(1 - rest, cv2.DIST_L2, 3)
    part = cv2.dilate(own, disc) & comp & nearer.astype(np.uint8)
    others = cv2.dilate(rest, disc) & comp & (~nearer).astype(np.uint8)
    if min(int(part.sum()), int(others.sum())) < (DIE_RANGE[0] * pitch * NARROWEST) ** 2:
        return None
    a = int(part.sum())
    if a > (DIE_RANGE[1] * pitch * 1.5) ** 2 or a < (DIE_RANGE[0] * pitch) ** 2:
        return None
    pts = cv2.findNonZero(part)
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(pts.reshape(-1, 2).astype(np.float32))
    if a < 0.8 * rw * rh or min(rw, rh) < PART_SQUARE * max(rw, rh):
        return None  # ragged, or oblong: not a flat die's outline (a part cut from anything else)
    return (rx, ry), (rw, rh), float(ang)



def bodied(memo: DiceMemo | None, view: str, canon: np.ndarray, cal: Calibration, group: list[Spot],
            pitch: float, parted_from: float | None = None) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """``body``, or the outline ``memo`` kept of it."""
    if memo is None:
        return body(canon, group, pitch, parted_from)
    key = ("body", view, tuple(group), pitch, canon.shape, parted_from)
    x0, y0, x1, y1 = box = body_box(group, pitch, canon.shape)
    if view == "canonical":
        return memo.cropped(key, box, lambda: body(canon, group, pitch, parted_from, box))

    def where() -> tuple[Box, float]:
        # a finer view (fine_view): the frame under the crop, grown by two pixels of the frame as
        # shrunk for that view (one of its area shrink, one of the bilinear warp), and one more
        q = np.asarray(cal.to_image(np.asarray([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)), np.float64)
        per = max(float(np.ptp(q[:, 0])) / max(x1 - x0, 1), float(np.ptp(q[:, 1])) / max(y1 - y0, 1), 1.0)
        return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())), 3.0 * per + 1.0

    return memo.framed(key, where, lambda: body(canon, group, pitch, parted_from, box))

def checker_under(canon: np.ndarray, cal: Calibration, disc: tuple[float, float, float], side: float) -> bool:
    """Is this disc a real checker (its body shows round the die), not the die itself?

    Samples a ring just inside the disc's edge, beyond the die's corners:
    a checker shows its own colour there on most of the ring.
    """
    dx, dy, dr = disc
    rad = max(0.8 * dr, 0.75 * side)
    if rad >= dr:
        return True  # too small to tell: trust the checker finder
    t = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    xs = np.clip(np.round(dx + rad * np.cos(t)).astype(int), 0, canon.shape[1] - 1)
    ys = np.clip(np.round(dy + rad * np.sin(t)).astype(int), 0, canon.shape[0] - 1)
    ring = canon[ys, xs].astype(np.float32)
    near = np.zeros(len(ring), bool)
    field = np.full(len(ring), np.inf) if cal.field_bgr is None else np.abs(ring - np.asarray(cal.field_bgr, np.float32)).max(axis=1)
    for ref in (cal.light_bgr, cal.dark_bgr):
        d = np.abs(ring - np.asarray(ref, np.float32)).max(axis=1)
        near |= (d < 60) & (d < field)  # the checker's colour, not the bare board's (white on ivory)
    return bool(near.mean() >= 0.4)


def angle_of(pts: np.ndarray) -> float:
    """A die's rotation from its pips (pips sit on a square grid), degrees."""
    if len(pts) < 2:
        return 0.0
    d = pts[:, None, :] - pts[None, :, :]
    ang = np.degrees(np.arctan2(d[..., 1], d[..., 0]))[np.triu_indices(len(pts), 1)]
    # diagonal pairs (2, 3) are at 45 degrees to the edges; fold everything to 0-90
    return float(median(np.mod(ang + 45.0, 90.0)))


#: the least difference (grey levels, largest channel) between a die's body and the ground round
#: it at which ``edge_side`` tells where the one ends and the other begins
EDGE_CONTRAST = 40.0
#: ``edge_side``'s crop: its side in crop px, and its half-width in the die's (rough) sides
_EDGE_N = 64
_EDGE_HALF = 1.2
_EY, _EX = np.mgrid[:_EDGE_N, :_EDGE_N]
#: each crop pixel's distance from the crop's centre, over the crop's half-width
_ER = np.hypot(_EX + 0.5 - _EDGE_N / 2.0, _EY + 0.5 - _EDGE_N / 2.0) / (_EDGE_N / 2.0)


def edge_side(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float],
              side: float) -> float | None:
    """The side (canonical px) of the die at ``centre``, measured where its body's colour gives way
    to the ground's: at half the contrast between them, as an edge lies half way up a blurred step
    (a blur spreads the step evenly both ways). The outlines the search finds the die by keep only
    pixels within a tolerance of the body's colour, which leaves out the outer half of the blurred
    rim: on recordings at 640x360 they run 8-18 % under the die (``bench_video --size 640``).

    ``side`` is about the die's side (canonical px); the body's colour is the common shade of the
    die's middle, the ground's the median of a ring 0.95-1.2 sides out (a shadow or a neighbour
    there is the smaller part). None when the two are too alike to tell (``EDGE_CONTRAST``), or the
    body runs into something of its colour."""
    if side <= 0:
        return None
    crop = square_crop(src, to_src, centre, _EDGE_HALF * side, _EDGE_N).astype(np.float32)
    if crop.ndim != 3:
        return None
    k = _EDGE_N / (2.0 * _EDGE_HALF * side)  # crop px per canonical px
    face = _ER < 0.42 / _EDGE_HALF
    vals = crop[face]
    grey = float_mean(vals, 1)
    t, _ = cv2.threshold(np.clip(grey, 0, 255).astype(np.uint8).reshape(-1, 1), 0, 255,
                         cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    hi = grey > t
    body_px = vals[hi] if hi.sum() > 0.5 * len(hi) else vals[~hi]  # the body is the common shade
    if len(body_px) < 10:
        return None
    body = median(body_px, axis=0)
    ground = median(crop[_ER > 0.95 / _EDGE_HALF], axis=0)
    d = body - ground
    if float(np.abs(d).max()) < EDGE_CONTRAST:
        return None
    share = (crop - ground) @ d / float(d @ d)  # 0: the ground's colour, 1: the body's
    mask = (share >= 0.5).astype(np.uint8)
    n, labels = labelled(mask, 4)
    if n < 2:
        return None
    inside = np.bincount(labels[face & (mask > 0)], minlength=n)
    inside[0] = 0
    lab = int(np.argmax(inside))
    if lab == 0:
        return None
    x, y, w, h, _ = box_of(labels, lab)
    if x == 0 or y == 0 or x + w >= _EDGE_N or y + h >= _EDGE_N:
        return None  # runs into its surroundings
    pts = cv2.findNonZero((labels == lab).astype(np.uint8)).reshape(-1, 2).astype(np.float32)
    _, (rw, rh), _ = cv2.minAreaRect(pts)
    return (min(rw, rh) + 1.0) / k  # pixel centres span one pixel less than the pixels
