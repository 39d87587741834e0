"""How a die lies: flat, or cocked on an edge (E3 b), from its outline round its top face.

Seen from above, a flat die is a square round the centre of its pips. A die
cocked on an edge (tilted by t about one of its edges) shows its top face
foreshortened plus a strip of side face along one edge: its outline is an
oblong, ``1 / (cos t + sin t)`` (0.73-0.8 for 18-30 degrees) as wide as
long, and the pips' centre (the top face's centre) sits off the outline's
centre along the long axis by ``sin t / (cos t + sin t)`` (0.25-0.37) of its
half-length. A flat die's shadow stretches its outline a little the same way
(about 0.12 at most), so both cues together, not either alone, call a die
cocked.

``die_outline`` measures that outline in a crop square to the canonical
view, at the source image's resolution: the body's colour is the common
shade round the face's centre, the outline is the connected region of that
colour (pips filled in) round the centre.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.channels import channel_max
from tavli_pi.vision.component_box import box_of, labelled
from tavli_pi.vision.dice_ground import GROUND_LEAST_PX, frame_px, ground_parted
from tavli_pi.vision.quantile import float_mean, median, percentile

__all__ = ["Outline", "die_outline", "square_crop", "cocked_confidence", "ASPECT_COCKED", "OFFSET_COCKED", "BLURRED"]

#: an outline narrower than this (short over long side) looks cocked
ASPECT_COCKED = 0.825
#: pips' centre off the outline's centre along its long axis (fraction of the half-length)
OFFSET_COCKED = 0.175

#: edges smeared over more than this share of the die's edge (``Outline.blur``): the outline
#: is too soft to tell a cocked die's strip of side face from a flat die's blurred rim, shadow
#: or the side face a tilted camera sees, so both cues must say "cocked" (hard simulated set:
#: sharp frames 0.07-0.15, the blurred/JPEG flat dice once called cocked 0.2-0.26)
BLURRED = 0.18

#: colours within this share of the body-pip contrast count as body (a flat die's
#: dark shadow falls outside, its side faces' and rims' shades inside)
TOL = 0.3

_N = 64
#: the ground a die's body ran into (``dice_ground``) is its region this far from the face's centre
#: and more (in the die's sides: past the corners of a die of the side searched)
GROUND_FROM = 0.8
_K3 = np.ones((3, 3), np.uint8)
#: each crop pixel's squared distance from the crop's centre
_YY, _XX = np.mgrid[:_N, :_N]
_R2 = (_XX - _N / 2.0) ** 2 + (_YY - _N / 2.0) ** 2


class Outline(NamedTuple):
    """A die's outline round its face centre (canonical px and degrees)."""

    aspect: float  # short side over long side (1 = square)
    offset: float  # face centre off the outline's centre along the long axis, over the half-length
    long_: float  # long side, canonical px
    angle: float  # minAreaRect angle, degrees
    centre: tuple[float, float] = (0.0, 0.0)  # the outline's centre, canonical px
    axis: tuple[float, float] = (1.0, 0.0)  # its long axis (unit vector)
    blur: float = 0.0  # edge width (crop contrast over its steepest gradients) over the die's edge
    #: how far the colour round the outline is from the body's, over the body's colour tolerance:
    #: under 1 the body is walled off from its surroundings only by a line (a die printed on the
    #: board, a drawn square), not by a step to another colour
    stands_out: float = 9.0
    #: the share of the outline (pips filled in) not of the body's colour: a die's pips, a few
    #: hundredths for a one; a letter's loop (an "O", the bowl of a "d") shows its hole, the
    #: background inside the stroke, over a good part of it
    hollow: float = 0.0
    #: how far the colour of the outline's pips is from the ground round it (the band
    #: ``stands_out`` looks at, less its pixels of the body's colour), over the body's colour
    #: tolerance (9: no pips or no ground to tell): a letter's hole is the ground it is printed
    #: on, a die's pips are a colour of their own
    hole_ground: float = 9.0
    body: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the body's colour (BGR, ``src``'s)
    tol: float = 30.0  # how far a pixel's colour may be from ``body`` (largest channel) and be body


def square_crop(
    src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], half: float, n: int
) -> np.ndarray:
    """The square of ``src`` ``half`` canonical px each way round ``centre`` (canonical px), as
    ``n`` x ``n`` px (edges replicated)."""
    cx, cy = centre
    box = np.asarray([[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half], [cx - half, cy + half]],
                     np.float32)
    m = cv2.getPerspectiveTransform(to_src(box).astype(np.float32), np.asarray([[0, 0], [n, 0], [n, n], [0, n]], np.float32))
    return cv2.warpPerspective(src, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def turned_crop(
    src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float,
    n: int = 48,
) -> np.ndarray:
    """The square of ``src`` ``side`` canonical px across round ``centre`` (canonical px), turned by
    ``angle`` degrees (a die's edges), as ``n`` x ``n`` px (edges replicated)."""
    c = np.asarray([centre], np.float32)
    return quad_crop(src, to_src(turned_square(side, angle) + c).astype(np.float32), n)


def turned_square(side: float, angle: float) -> np.ndarray:
    """The corners (4 x 2, float32) of a square ``side`` across round the origin turned by ``angle``
    degrees, as ``turned_crop`` places them (add its centre, float32, for the canonical points it maps)."""
    h = side * 0.5
    corners = np.asarray([[-h, -h], [h, -h], [h, h], [-h, h]], np.float32)
    t = np.deg2rad(angle)
    rot = np.asarray([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    return np.asarray(corners @ rot.T)


def quad_crop(src: np.ndarray, quad: np.ndarray, n: int = 48) -> np.ndarray:
    """``turned_crop``'s warp: the quadrilateral ``quad`` of ``src`` (4 x 2 float32 frame px, in
    ``turned_square``'s order) as ``n`` x ``n`` px (edges replicated)."""
    m = cv2.getPerspectiveTransform(quad, _square(n))
    return cv2.warpPerspective(src, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@lru_cache(maxsize=8)
def _square(n: int) -> np.ndarray:
    """The corners (4 x 2, float32) of an ``n`` x ``n`` crop, ``quad_crop``'s destination (made once a size,
    read only: ~80 crops a changed patch, issue 12)."""
    dst = np.asarray([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    dst.flags.writeable = False
    return dst


def die_outline(
    src: np.ndarray,
    to_src: Callable[[np.ndarray], np.ndarray],
    centre: tuple[float, float],
    side: float,
    ground: bool = False,
) -> Outline | None:
    """The outline of the die whose top face is centred at ``centre`` (canonical px), or
    None when it cannot be told (it runs into something of its own colour, or no body).

    ``to_src`` maps canonical points (N x 2) to ``src`` pixels; ``side`` is about the
    die's edge in canonical px. ``ground``: a body that runs into a ground of nearly its colour is
    parted from it (``dice_ground``: a black die on a navy field) -- asked for a body that stands
    out from the board learnt at set-up (``dice_scale.changed_bodies``), never printed on it.
    """
    half = 1.2 * side
    cx, cy = centre
    crop = square_crop(src, to_src, centre, half, _N)
    k = _N / (2.0 * half)  # crop px per canonical px
    c = _N / 2.0
    face = _R2 < (0.42 * side * k) ** 2
    vals = crop[face].astype(np.float32)
    grey = float_mean(vals, 1)  # (``mean``'s, to the bit, for less)
    t, _ = cv2.threshold(np.clip(grey, 0, 255).astype(np.uint8).reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    hi = grey > t
    body_hi = hi.sum() > 0.5 * len(hi)  # the body is the common shade; pips the rare one
    body_px, pip_px = (vals[hi], vals[~hi]) if body_hi else (vals[~hi], vals[hi])
    if len(body_px) < 10:
        return None
    # (``median``: np.median's values with less of its dispatch, vision/quantile.py)
    body = median(body_px, axis=0)
    sep = float(np.abs(body - median(pip_px, axis=0)).max()) if len(pip_px) else 0.0
    tol = max(30.0, TOL * sep)
    f32 = crop.astype(np.float32)
    plain: np.ndarray = (channel_max(np.abs(f32 - body)) < tol).astype(np.uint8)
    got = _region(plain, face)
    if got is None:
        return None
    labels, lab, (x, y, w, h, a) = got
    if x == 0 or y == 0 or x + w >= _N or y + h >= _N:
        if not ground:
            return None  # runs into its surroundings: outline unknown
        # runs into its surroundings: the ground the body's tolerance takes in (beyond the die's
        # corners) is parted from the body where it is nearer the ground's colour than the body's
        far = (labels == lab) & (_R2 > (GROUND_FROM * side * k) ** 2) & (plain > 0)
        parted = ground_parted(f32, plain, far, body)
        if parted is None:
            return None  # outline unknown
        plain, tol = parted
        got = _region(plain, face)
        if got is None:
            return None
        labels, lab, (x, y, w, h, a) = got
        if x == 0 or y == 0 or x + w >= _N or y + h >= _N or frame_px(to_src, centre, min(w, h) / k) < GROUND_LEAST_PX:
            return None  # (too small a die for its pips to be shown resolved: ``dice_ground``)
    region = labels == lab
    pts = cv2.findNonZero(region.view(np.uint8)).reshape(-1, 2).astype(np.float32)
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(pts)
    if min(rw, rh) < 2 or a < 0.7 * rw * rh:
        return None  # not a box's outline
    holes = region & (plain == 0)
    hollow = float(holes.sum()) / max(float(region.sum()), 1.0)
    band = _band(region, side * k)
    ring = _median_in(crop, band & (plain == 0))
    hole_ground = 9.0
    if ring is not None and holes.sum() >= 3:
        hole_ground = float(np.abs(median(crop[holes].astype(np.float32), axis=0) - ring).max()) / tol
    t_ = np.deg2rad(ang)
    axis = np.asarray([np.cos(t_), np.sin(t_)]) if rw >= rh else np.asarray([-np.sin(t_), np.cos(t_)])
    d = np.asarray([c - rx, c - ry])
    long_, short = max(rw, rh), min(rw, rh)
    offset = abs(float(d @ axis)) / (0.5 * long_)
    centre_ = (cx + (rx - c) / k, cy + (ry - c) / k)
    return Outline(short / long_, offset, long_ / k, float(ang), centre_, (float(axis[0]), float(axis[1])),
                   _edge_width(crop) / (k * side), _stands_out(_median_in(crop, band), body, tol), hollow, hole_ground,
                   (float(body[0]), float(body[1]), float(body[2])), float(tol))


def _region(plain: np.ndarray, face: np.ndarray) -> tuple[np.ndarray, int, tuple[int, int, int, int, int]] | None:
    """The component of the body mask ``plain`` (the face's disc filled in: the pips belong to the
    die) round the crop's centre: (labels, its label, its x, y, w, h, area), or None."""
    mask = plain.copy()
    mask[face] = 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _K3)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    _, labels = labelled(mask, 4)  # (one component's stats wanted: ``component_box``)
    lab = int(labels[int(_N / 2.0), int(_N / 2.0)])
    if lab == 0:
        return None
    return labels, lab, box_of(labels, lab)


def _band(region: np.ndarray, side: float) -> np.ndarray:
    """A band round ``region`` from 0.3 to 0.5 of the die's side (crop px) out: past its rim and a
    drawn line."""
    r8 = region.view(np.uint8)
    near = max(1, int(round(0.3 * side)))
    far = max(near + 1, int(round(0.5 * side)))
    inner = cv2.dilate(r8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * near + 1, 2 * near + 1)))
    outer = cv2.dilate(r8, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * far + 1, 2 * far + 1)))
    band: np.ndarray = (outer > 0) & (inner == 0)
    return band


def _median_in(crop: np.ndarray, band: np.ndarray) -> np.ndarray | None:
    """The median colour of ``crop`` in ``band`` (a ``_band``, or the part of one to look at), or
    None when the band is too small to tell."""
    if band.sum() < 8:
        return None
    return np.asarray(median(crop[band].astype(np.float32), axis=0), np.float32)


def _stands_out(ring: np.ndarray | None, body: np.ndarray, tol: float) -> float:
    """The colour round the outline (``ring``: its band's median, None: no band to tell), its
    largest channel difference from ``body``, over ``tol`` (9: no band to tell)."""
    if ring is None:
        return 9.0
    return float(np.abs(ring - body).max()) / tol


def _edge_width(crop: np.ndarray) -> float:
    """How wide the crop's edges are, in crop px: its contrast over its steepest gradients
    (about 1-2 px when sharp; blur and JPEG smear them)."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # the Sobels over 8 (scaled by 1/8 in the kernel: a power of two, the same float32 values as a
    # division after), their percentiles as np.percentile's to the bit (vision/quantile.py, issue 12)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    steep = float(percentile(np.hypot(gx, gy), 99))
    contrast = float(percentile(g, 97) - percentile(g, 3))
    return contrast / max(steep, 1e-3)


def cocked_confidence(o: Outline) -> float:
    """How sure the outline says "cocked" (0-1; above 0.5 = cocked).

    Either cue alone will do when it is clear and the outline sharp: a face
    centre far off the outline's centre, or an outline far from square.
    Measured on the simulator's 25 px dice (tests/vision/test_dice_grid.py):
    flat dice, shadow and all, keep aspect >= 0.84 and offset <= 0.16. On a
    blurred outline (``BLURRED``) either cue alone is seen on flat dice too,
    so both must agree.
    """
    off, asp = (o.offset - OFFSET_COCKED) / 0.03, (ASPECT_COCKED - o.aspect) / 0.02
    s = min(off, asp) if o.blur > BLURRED else max(off, asp)
    return float(1.0 / (1.0 + np.exp(-4.0 * s)))
