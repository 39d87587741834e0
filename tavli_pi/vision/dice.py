"""Dice on the board: find them by their pips, read them, judge how they lie.

``find_dice`` works in the canonical (top-down) image:

1. Pip spots: small round marks brighter or darker than their surroundings
   (a 5x5 top-hat / black-hat, then compact components of pip size). Pips
   are what every die has and what checkers, points and the frame lack, so
   dice are found on any body colour and even on a point of their own colour.
2. Spots of one shade within a die's reach of each other form a cluster;
   each cluster is a candidate die.
3. The body: pixels around the spots that share the body's colour, grown to
   the die's outline. Its minimum-area rectangle gives the die's centre,
   size and angle. A flat die shows a square; a cocked or leaning die shows
   its slanted top plus a strip of side face (an oblong outline) and pips
   that do not fit one face's layout.
4. The value: ``read_pips`` on a crop of the original image (more pixels
   than the canonical view), rotated square to the die. Its confidence is the
   face's evidence (``pips.read_face_evidence``: layout fit, even pips, margin
   over the next reading, no pip-like mark where the value has none), lowered
   when the spot count disagrees, the die is not surely flat, or it is small
   (under ``SURE_PX``) without the search's spots agreeing with the face. A
   body walled off from the board only by a line (a printed die) and a mark
   that is one of a row of like marks (a letter: ``lettering``) are no dice.
5. On a checker: the die's centre lies within a checker disc (or so close
   to one that it must lean on it). Half: from the calibrated bar and field.
6. Die bodies the pips missed (a small die's six, whose pips crowd each
   other's rings): die-sized hat blobs (``tumbling.hat_blobs``), not smeared,
   outlined and read the same way; reported only when a face is read. Ragged
   blobs, or blobs on a wood grain that looks smeared, count only with a square
   outline round a clear face read in its middle.

The face is read square to the die and again round its pips' centre; how
the die lies comes from the outline round that face (``vision.lie``): a
cocked die's confidence is that of the "cocked" verdict (E3 b voids the
roll whatever it shows), capped by the face read on it: a die is no surer
cocked than it is a die.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_memo import Box, DiceMemo, Rect
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.lettering import lettered
from tavli_pi.vision.lie import Outline, cocked_confidence, die_outline
from tavli_pi.vision.dice_vet import SMALL_CONFIDENCE, SURE_PX
from tavli_pi.vision.exact_warp import perspective_maps
from tavli_pi.vision.pips import REGULAR, Face, PipReading, layout_error, read_face_evidence, read_pips
from tavli_pi.vision.tumbling import (COHERENCE, HatBlob, coherence, find_tumbling, half, hat_blobs, hat_disc,
                                      hat_images)

__all__ = ["read_pips", "find_dice", "find_spots", "PipReading", "Spot"]

Spot = tuple[float, float, bool]  # (x, y, bright)

#: grey levels a pip must stand out from its surroundings (canonical image)
SPOT_CONTRAST = 34
#: a die's edge relative to the point pitch: the simulator's are 0.44, the WTC board's about 0.3
DIE_RANGE = (0.24, 0.56)
#: an outline's short side is at least this share of the smallest die's edge (``DIE_RANGE``),
#: as ``_body``'s least area allows
NARROWEST = 0.8
#: read a face again round its pips when the first crop was this far off them (edges)
RECENTRE = 0.06
#: width of the crop a face is read in, in die edges (the outline's, shadow and all):
#: more lets the board's edges in, less cuts the corner pips
SPAN = 1.1
#: a cocked die's outline is at least the smallest die's edge times 1 / ASPECT_COCKED long
COCKED_LONG = DIE_RANGE[0] * 1.2
#: pips of one die lie closer than this (point pitches)
REACH = 0.36
#: ... but two lone pips as far as this are a big die's two, corner to corner
PAIR_REACH = 0.42
#: a doubtful blob (ragged, or on a grain that looks smeared) is a die only with a face this clear
DOUBTFUL_CONFIDENCE = 0.7
#: ... with an outline this square (a cocked die shows an oblong: top and side face)
DOUBTFUL_SQUARE = 0.88
#: ... and fill at least this much of its bounding box
DOUBTFUL_FILL = 0.3
#: a face read this far (in outline lengths) from its outline's centre is not the die's face
OFF_CENTRE = 0.15
#: a two or three read square to its pips (on the face's diagonal) whose outline is turned more
#: than this (degrees) from them ...
TURNED = 20.0
#: ... is no surer than this: a die's two or three lie on its body's diagonal, a letter's holes
#: (an upside-down "B" read as a two) need not (the angle taken from a four's or a six's pips
#: may be 45 degrees off its edges, so only twos and threes are judged)
TURNED_CONFIDENCE = 0.6
#: a one whose pip is this big a share of its outline (a die's one: 0.07-0.16 on the real-like
#: set) ...
LOOP_HOLLOW = 0.17
#: ... and shows the ground round the outline (``lie.Outline.hole_ground`` under this; a die's
#: one: 0.6 and up) is a letter's loop round its hole ("O", the bowl of an "R"), not a die
LOOP_GROUND = 0.5
#: an outline whose surroundings (``lie.Outline.stands_out``) are this close to its body's own
#: colour is a die printed on the board, walled off only by a line (the printed die logos of the
#: real-like set: 0.0-0.3), not a die lying on it (dice on the real-like set: 1.0 and up; on the
#: real photos: 1.3 and up)
PRINTED = 0.5
#: a cube tilted on an edge by t shows an outline 1 / (cos t + sin t) as wide as long, never under
#: 0.707 (at 45 degrees); an outline with no face read that is more oblong than this, measuring
#: error allowed, is no die (a hinge's leaf: 0.61-0.65 on the real-like set; dice 0.71 and up)
OBLONGEST = 0.68
#: a letter's loops and holes read as at most this many pips (``lettering.lettered`` is asked
#: only of these)
LETTER_VALUES = 3


def _regular(f: Face) -> bool:
    """Whether a face read shows no pip where its value has none (a lone pip's grid is known in a
    crop square to the die)."""
    return f.hidden is not None and f.hidden <= REGULAR


def find_spots(gray: np.ndarray, contrast: int = SPOT_CONTRAST) -> list[Spot]:
    """Small round marks (pips) in a grey image: (x, y, bright).

    Peaks of a 5x5 top-hat (bright) or black-hat (dark) that are ringed all
    round, 3 px out, by an even band at least a third of ``contrast`` away
    from the peak (pips on a body; not corners, rims or the tips of points).
    """
    return _spots_of(_peak_flags(gray, contrast))


#: the flags of ``_peak_flags``: a bright peak, a dark peak
_BRIGHT, _DARK = 1, 2
#: how far from a pixel ``_peak_flags`` looks (the 5 x 5 opening's 4 px, the 3 x 3 maximum's 1,
#: the wide ring's 4)
SPOT_REACH = 5


def _peak_flags(gray: np.ndarray, contrast: int = SPOT_CONTRAST) -> np.ndarray:
    """Where ``find_spots`` finds a ringed peak, before near peaks are thinned to one: ``_BRIGHT``
    and ``_DARK`` flags per pixel (uint8, the shape of ``gray``). Each pixel's flags depend on the
    grey levels within ``SPOT_REACH`` of it and on how far it lies from the image's edges."""
    h, w = gray.shape
    flags = np.zeros((h, w), np.uint8)
    if h < 10 or w < 10:
        return flags
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    k3 = np.ones((3, 3), np.uint8)
    opened = cv2.morphologyEx(gray, cv2.MORPH_OPEN, k)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    for bright in (True, False):
        # top-hat (bright) / black-hat (dark), then its local maxima above the contrast
        hat = cv2.subtract(gray, opened) if bright else cv2.subtract(closed, gray)
        _, strong = cv2.threshold(hat, contrast, 255, cv2.THRESH_BINARY)
        peak = cv2.bitwise_and(strong, cv2.compare(hat, cv2.dilate(hat, k3), cv2.CMP_GE))
        inner = peak[4:-4, 4:-4]
        if not cv2.countNonZero(inner):
            continue
        nz = cv2.findNonZero(inner).reshape(-1, 2) + 4
        xs, ys = nz[:, 0], nz[:, 1]
        # the peak's 3 x 3 max (bright) or min (dark), as cv2.dilate / cv2.erode give it there
        block = gray[ys[:, None] + _DY3, xs[:, None] + _DX3]
        core = (block.max(axis=1) if bright else block.min(axis=1)).astype(np.float32)
        ok = _ringed(gray, xs, ys, core, bright, contrast, _RING)
        # a large, stark pip (a one's, white on red, near the camera) reaches the 3 px ring:
        # try one 4-5 px out
        wide = ~ok & (hat[ys, xs] >= 2 * contrast) & (xs >= 5) & (ys >= 5) & (xs < w - 5) & (ys < h - 5)
        if wide.any():
            ok[wide] = _ringed(gray, xs[wide], ys[wide], core[wide], bright, contrast, _RING_WIDE)
        flags[ys[ok], xs[ok]] |= _BRIGHT if bright else _DARK
    return flags


def _spots_of(flags: np.ndarray) -> list[Spot]:
    """The spots of ``_peak_flags``: bright then dark, each shade's peaks in raster order, a peak
    within 2 px (both ways) of one kept before it dropped."""
    out: list[Spot] = []
    if not cv2.countNonZero(flags):
        return out
    at = cv2.findNonZero(flags).reshape(-1, 2)  # in raster order
    which = flags[at[:, 1], at[:, 0]]
    for bright in (True, False):
        kept: list[tuple[int, int]] = []  # in raster order: only the last few rows can be near
        for x, y in at[(which & (_BRIGHT if bright else _DARK)) > 0].tolist():
            near = False
            for a, b in reversed(kept):
                if b < y - 2:
                    break
                if abs(x - a) <= 2:
                    near = True
                    break
            if not near:
                kept.append((x, y))
                out.append((float(x), float(y), bright))
    return out


def _spots(memo: DiceMemo | None, view: str, gray: np.ndarray, place: Callable[[Box], Box]) -> list[Spot]:
    """``find_spots(gray)``; with a memo, its peaks made again only where the frame changed
    (``DiceMemo.patched``; ``place``: canonical box to ``gray``'s pixels). The fine view's peaks
    reach a few pixels further (its pixels are sampled from the frame, not the canonical view)."""
    if memo is None:
        return find_spots(gray)
    h, w = gray.shape
    m = SPOT_REACH + 4  # past the crop's own edge effects (its inner 4 px and the wide ring's 5)

    def part(r: Rect) -> np.ndarray:
        y0, y1, x0, x1 = r
        cy0, cx0 = max(0, y0 - m), max(0, x0 - m)
        got = _peak_flags(np.ascontiguousarray(gray[cy0:min(h, y1 + m), cx0:min(w, x1 + m)]))
        return got[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

    reach = SPOT_REACH + (0 if view == "canonical" else 4)
    return _spots_of(memo.patched(("spots", view, gray.shape), place, reach, lambda: _peak_flags(gray), part,
                                  gray if view == "canonical" else None))


def _ringed(
    gray: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    core: np.ndarray,
    bright: bool,
    contrast: int,
    ring_at: list[tuple[int, int]],
) -> np.ndarray:
    """Which peaks are ringed by an even band at least a third of ``contrast`` away."""
    at = np.asarray(ring_at, np.intp)
    ring = gray[ys[:, None] + at[None, :, 1], xs[:, None] + at[None, :, 0]].astype(np.float32)
    step = (core[:, None] - ring) if bright else (ring - core[:, None])
    res: np.ndarray = (step.min(axis=1) >= 0.35 * contrast) & (np.ptp(ring, axis=1) < 0.6 * step.mean(axis=1) + 12)
    return res


_K3 = np.ones((3, 3), np.uint8)
#: the offsets of a 3 x 3 neighbourhood
_DY3, _DX3 = (a.ravel()[None, :] for a in np.mgrid[-1:2, -1:2])

_RING = [
    (int(round(3.2 * np.cos(t))), int(round(3.2 * np.sin(t))))
    for t in np.linspace(0, 2 * np.pi, 12, endpoint=False)
]
_RING_WIDE = [
    (int(round(4.4 * np.cos(t))), int(round(4.4 * np.sin(t))))
    for t in np.linspace(0, 2 * np.pi, 16, endpoint=False)
]


def _clusters(spots: list[Spot], reach: float) -> list[list[Spot]]:
    """Single-linkage groups of same-shade spots closer than ``reach``."""
    out: list[list[Spot]] = []
    for bright in (True, False):
        pts = [s for s in spots if s[2] == bright]
        if not pts:
            continue
        xy = np.asarray([(s[0], s[1]) for s in pts], np.float64)
        near = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1]) < reach
        seen = np.zeros(len(pts), bool)
        for i in range(len(pts)):
            if seen[i]:
                continue
            seen[i] = True
            members, todo = [i], [i]
            while todo:
                j = todo.pop()
                new = np.flatnonzero(near[j] & ~seen)
                seen[new] = True
                members.extend(new.tolist())
                todo.extend(new.tolist())
            out.append([pts[m] for m in members])
    return out


#: the span of a face's corner pips as a share of the die's side
PIP_SPAN = 0.55


def _split_pairs(groups: list[list[Spot]], pitch: float) -> tuple[list[list[Spot]], dict[int, int]]:
    """Groups with more spots than one face has, or wider than one die, split in two: two dice
    side by side (their pips within a die's reach of each other) are two candidates. Returns the
    groups with the halves added, and each half's parent group (by identity): a half is a die only
    with a clear face. The halves must lie a die apart (two dice cannot be closer than one side):
    a cocked die's top and side face are closer, and stay one candidate."""
    out: list[list[Spot]] = []
    parent: dict[int, int] = {}
    for g in groups:
        pts = np.asarray([(x, y) for x, y, _ in g], np.float32)
        wide = len(g) >= 4 and float(np.ptp(pts, axis=0).max()) > DIE_RANGE[1] * pitch
        if not (7 <= len(g) <= 12 or wide):
            out.append(g)
            continue
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
        _, labels, _ = cv2.kmeans(pts, 2, np.zeros(len(g), np.int32), crit, 3, cv2.KMEANS_PP_CENTERS)
        lab = labels.ravel()
        halves = [[s for s, k in zip(g, lab) if k == j] for j in (0, 1)]
        if not all(halves):
            out.append(g)
            continue
        hp = [np.asarray([(x, y) for x, y, _ in h], np.float32) for h in halves]
        # a face's pips span about PIP_SPAN of its side (a 5's or 6's corner pips)
        side = max(float(np.ptp(p, axis=0).max()) for p in hp) / PIP_SPAN
        if float(np.hypot(*(hp[0].mean(axis=0) - hp[1].mean(axis=0)))) < 0.8 * side:
            out.append(g)
            continue
        for h in halves:
            if h:
                out.append(h)
                parent[id(h)] = id(g)
        out.append(g)  # the whole group too: one die's crowded pips stay one candidate
    return out, parent


def _size_and_span(group: list[Spot]) -> tuple[int, float]:
    xs, ys = [s[0] for s in group], [s[1] for s in group]
    return len(group), max(max(xs) - min(xs), max(ys) - min(ys))


def _paired(groups: list[list[Spot]], reach: float) -> list[list[Spot]]:
    """Lone spots of one shade closer than ``reach`` to exactly one other lone spot joined as a pair."""
    lone = [g[0] for g in groups if len(g) == 1]
    if len(lone) < 2:
        return groups
    out = [g for g in groups if len(g) > 1]
    xyb = np.asarray(lone, np.float64)
    near = (np.hypot(xyb[:, None, 0] - xyb[None, :, 0], xyb[:, None, 1] - xyb[None, :, 1]) < reach) & (
        xyb[:, None, 2] == xyb[None, :, 2]
    )
    np.fill_diagonal(near, False)
    count = near.sum(axis=1)
    mate = near.argmax(axis=1)
    for i, s in enumerate(lone):
        j = int(mate[i])
        if count[i] == 1 and count[j] == 1:
            if i < j:
                out.append([s, lone[j]])
        else:
            out.append([s])
    return out


def _body_box(group: list[Spot], pitch: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The crop (x0, y0, x1, y1) of the canonical view that ``_body`` looks at."""
    pts = np.asarray([(x, y) for x, y, _ in group], np.float32)
    cx, cy = pts.mean(axis=0)
    half = int(pitch * 0.6)
    x0, y0 = max(int(cx) - half, 0), max(int(cy) - half, 0)
    x1, y1 = min(int(cx) + half + 1, shape[1]), min(int(cy) + half + 1, shape[0])
    return x0, y0, x1, y1


def _body(canon: np.ndarray, group: list[Spot], pitch: float) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The die's outline around its pips, as a rotated rectangle in canonical px."""
    pts = np.asarray([(x, y) for x, y, _ in group], np.float32)
    x0, y0, x1, y1 = _body_box(group, pitch, canon.shape)
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
    lx, ly = local.mean(axis=0)
    r = max(0.18 * pitch, 4.0)
    mid8 = np.zeros((hh, ww), np.uint8)
    cv2.circle(mid8, (int(round(lx)), int(round(ly))), int(round(r)), 1, -1)
    mid = mid8.astype(bool) & ~pipm
    if mid.sum() < 8 or not pipm.any():
        return None
    vals = crop[mid].astype(np.int16)
    shade = vals.sum(axis=1)
    bright = group[0][2]
    cut = np.median(shade)
    body = np.median(vals[shade <= cut] if bright else vals[shade >= cut], axis=0)
    pip = np.median(crop[pipm].astype(np.int16), axis=0)
    sep = float(np.abs(body - pip).max())
    # pixels within ``tol`` of the body's colour in every channel (strictly), as integer bounds
    tol = max(30.0, 0.3 * sep)
    lower = np.floor(body - tol) + 1
    upper = np.ceil(body + tol) - 1
    mask = cv2.inRange(crop, tuple(float(v) for v in lower), tuple(float(v) for v in upper))
    mask = cv2.bitwise_or(mask // 255, pipm8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _K3)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _K3)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    lab = labels[int(round(float(np.clip(local[:, 1].mean(), 0, hh - 1)))), int(round(float(np.clip(local[:, 0].mean(), 0, ww - 1))))]
    if lab == 0:
        counts = np.bincount(labels[pipm].ravel(), minlength=n)
        counts[0] = 0
        lab = int(np.argmax(counts))
        if lab == 0:
            return None
    x, y, w, h, a = (int(v) for v in stats[lab])
    if x == 0 or y == 0 or x + w >= ww or y + h >= hh:
        return None  # the body runs into its surroundings (same colour): outline unknown
    if a > (DIE_RANGE[1] * pitch * 1.5) ** 2 or a < (DIE_RANGE[0] * pitch * NARROWEST) ** 2:
        return None
    comp = cv2.findNonZero((labels[y : y + h, x : x + w] == lab).astype(np.uint8))
    (rx, ry), (rw, rh), ang = cv2.minAreaRect(comp.reshape(-1, 2).astype(np.float32) + np.asarray([x, y], np.float32))
    if a < 0.8 * rw * rh:
        return None  # round (a checker's face) or ragged: not a die's outline
    return (rx + x0, ry + y0), (rw, rh), float(ang)


def _crop(
    src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float
) -> np.ndarray:
    """A square crop of ``src`` round a canonical centre, turned by ``angle`` (48 px)."""
    c = np.asarray([centre], np.float32)
    h = side * 0.5
    corners = np.asarray([[-h, -h], [h, -h], [h, h], [-h, h]], np.float32)
    t = np.deg2rad(angle)
    rot = np.asarray([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    quad = to_src(corners @ rot.T + c).astype(np.float32)
    n = 48
    dst = np.asarray([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    return cv2.warpPerspective(src, m, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class _Die(NamedTuple):
    value: int
    confidence: float
    cocked: bool
    centre: tuple[float, float]  # canonical px: the top face's centre when it was read
    regular: bool = False  # the face read shows no pip where its value has none (``pips.hidden_pips``)
    outlined: bool = False  # a die's outline (``lie.die_outline``) was measured round the face
    refused: bool = False  # the outline shows something that is no die (printed, too wide): nothing here


def _read(
    src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float
) -> tuple[int, float, tuple[float, float], bool]:
    """The top face's value and confidence, read in a crop square to the die (SPAN edges wide);
    read again round the pips' centre when the crop was off it. Returns the face centre too, and
    whether the face is regular (``_regular``)."""
    span = SPAN * side
    t = np.deg2rad(angle)
    best = (0, 0.0, centre, False)
    at = centre
    for _ in range(2):
        f = read_face_evidence(_crop(src, to_src, at, span, angle), aligned=True)
        value, conf, fc = f.value, f.confidence, f.centre
        if value == 0 or fc is None:
            break
        fx, fy = (fc[0] - 0.5) * span, (fc[1] - 0.5) * span
        face = (at[0] + fx * np.cos(t) - fy * np.sin(t), at[1] + fx * np.sin(t) + fy * np.cos(t))
        if conf > best[1]:
            best = (value, conf, face, _regular(f))
        if np.hypot(fx, fy) < RECENTRE * side:
            break
        at = face
    return best


class _Look(NamedTuple):
    """What ``_look`` saw round a candidate: the clearest face read (value, confidence, centre,
    ``_regular``) and the outline round it (None: none measured)."""

    value: int
    confidence: float
    face: tuple[float, float]
    regular: bool
    outline: Outline | None


def _look(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float,
          angle: float) -> _Look:
    """The face read square to a candidate and the outline round it (``_examine``'s reading, before
    its verdict): an oblong outline's top face may be the square at either end (a cocked die's side
    face fills the rest), so it is read there too and the clearest face kept, its outline measured
    again round it."""
    value, conf, face, regular = _read(src, to_src, centre, side, angle)
    first = face if value else centre
    o = die_outline(src, to_src, first, side)
    if o is not None and o.aspect < 0.92:
        short = o.long_ * o.aspect
        for sign in (1.0, -1.0):
            k = sign * 0.5 * (o.long_ - short)
            end = (o.centre[0] + k * o.axis[0], o.centre[1] + k * o.axis[1])
            v2, c2, f2, r2 = _read(src, to_src, end, short, o.angle)
            if v2 and c2 > conf + 0.05:
                value, conf, face, regular = v2, c2, f2, r2
        if (face if value else centre) != first:  # (else the outline is the one just measured)
            o = die_outline(src, to_src, face if value else centre, side)
    return _Look(value, conf, face, regular, o)


#: whether a mark (centre and length, canonical px) of a body colour (BGR, tolerance) is one of a
#: row of like marks (``lettering.lettered`` in one view's frame)
Letters = Callable[[tuple[float, float], float, tuple[float, float, float], float], bool]


def _examine(
    canon: np.ndarray,
    src: np.ndarray,
    to_src: Callable[[np.ndarray], np.ndarray],
    centre: tuple[float, float],
    side: float,
    angle: float,
    square: float | None,
    pitch: float,
) -> _Die | None:
    """Read one candidate die and judge how it lies: ``_judge`` of ``_look``.

    ``square`` is the short over the long side of an outline found round the
    pips (None: none); it decides "cocked" only when the outline round the read
    face cannot be measured. A cocked die's confidence is that of the verdict
    (the roll is void whatever its value), at most its face's; a flat die's is its value's, lowered
    when the outline is doubtful (either cue of ``cocked_confidence`` on a
    blurred outline, where it takes both to call the die cocked). An oblong
    outline shorter than any cocked die (``COCKED_LONG``) is no die at all
    (a numeral's loops on the doubling cube), nor is a one whose "pip" is a big
    hole showing the ground round the outline (``LOOP_HOLLOW``, ``LOOP_GROUND``:
    a printed letter's loop, whose outline may look cocked).

    Some outlines show that nothing here is a die, whatever pips were found (a reading with
    ``refused``: the caller reports no die, not even one with no value): a body walled off from
    the board only by a line (``PRINTED``: a die printed in a logo); a mark read as at most
    ``LETTER_VALUES`` pips that is one of a row of like marks of its colour (``lettering``: a
    word's letter); an outline that says "cocked" but is wider across than the largest die's
    edge (a letter, a logo's ring), or round no face and more oblong than a cube can look
    (``OBLONGEST``: a hinge).
    """
    return _judge(_look(src, to_src, centre, side, angle), centre, angle, square, pitch,
                  lambda c, n, b, t: lettered(src, to_src, c, n, b, t))


def _judge(look: _Look, centre: tuple[float, float], angle: float, square: float | None, pitch: float,
           letters: Letters) -> _Die | None:
    """``_examine``'s verdict on what ``_look`` saw round the candidate at ``centre``; ``letters``
    tells lettering (asked only of a flat-looking mark read as at most ``LETTER_VALUES`` pips)."""
    value, conf, face, regular, o = look
    if o is not None and value == 1 and o.hollow > LOOP_HOLLOW and o.hole_ground < LOOP_GROUND:
        return None  # a big "pip" of the ground's colour: a letter's loop (its outline can look cocked)
    if o is not None and o.stands_out < PRINTED:
        return _Die(0, 0.0, False, centre, refused=True)  # the board's own colour all round the
        # body: a die printed on it (a logo), whatever its pips
    if o is not None and value <= LETTER_VALUES and letters(o.centre, o.long_, o.body, o.tol):
        return _Die(0, 0.0, False, centre, refused=True)  # one of a row of like marks: a letter
    if o is not None:
        c = cocked_confidence(o)
        doubt = cocked_confidence(o._replace(blur=0.0))  # either cue alone
        if doubt > 0.5 and o.long_ < COCKED_LONG * pitch:
            return None
        if c > 0.5 and value == 0 and o.aspect < OBLONGEST:
            return _Die(0, 0.0, False, centre, refused=True)  # no face, and more oblong than a cube
            # can look (a hinge's leaf, a strip of print)
        if c > 0.5 and o.long_ * o.aspect > DIE_RANGE[1] * pitch:
            return _Die(0, 0.0, False, centre, refused=True)  # wider across than the largest die's
            # edge: a cocked die's outline is its top face (the full edge across) and a strip of
            # side face; a letter can be this wide
        if c > 0.5:
            # a cocked die is no surer than the face read on it (a letter's loop read as a one
            # at 0.6 on an outline that looks cocked is not a cocked die at 1.0); no face read at
            # all: an oblong thing, not surely a die (a cube, a label)
            return _Die(value, min(c, conf) if value else 0.0, True, face if value else centre, outlined=True)
        if value == 0:
            return None
        conf *= min(1.0, (1.0 - doubt) / 0.7)
        if value in (2, 3) and abs((angle - o.angle + 45.0) % 90.0 - 45.0) > TURNED:
            conf = min(conf, TURNED_CONFIDENCE)  # pips off their body's diagonal: a letter's holes
        if o.stands_out < 1.0:
            conf = min(conf, SMALL_CONFIDENCE)  # no step from the board to a body: maybe a printed die
        return _Die(value, conf, False, face, regular, outlined=True)
    if value == 0:
        return None
    cocked = square is not None and square < 0.84
    return _Die(value, conf * (0.5 if cocked else 1.0), cocked, face, regular)


def find_dice(
    canon: np.ndarray,
    lay: Layout,
    cal: Calibration,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray | None,
    image: np.ndarray | None = None,
    fine: bool = True,
    memo: DiceMemo | None = None,
) -> list[DieReading]:
    """Dice in the canonical image, reported in image pixels.

    ``image`` (the original frame) is used to read the pips and the outline at
    full resolution; without it the canonical image is used. With ``fine`` (and
    ``image``) the search is made a second time in a view FINE times finer, warped
    from the frame itself (``fine_view``): a die of 12-16 canonical px has pips of
    2 px there, too small for the pip finder, or pips of a large photo lost to the
    canonical view's coarse sampling. Dice the fine view finds where the canonical
    one found none (or no value) are added. The fine search is skipped when the canonical
    view read two dice clearly (``CLEAR``) and left nothing die-like unread; it takes the
    canonical view's die-sized blobs (scaled) instead of finding its own (issue 12).

    ``memo`` (the incremental reader's): candidates read in an earlier frame, with the same
    arguments and their pixels unchanged since, keep that reading, and the whole-view steps
    (the pip spots of both views, the hat images) are made again only round the changed cells
    (vision/dice_memo.py), and so is the fine view itself (``fine_view``: warped again only there,
    through maps exact to the whole warp's pixels, vision/exact_warp.py).
    """
    if image is None:
        memo = None  # the memo knows where a candidate looked only in the frame's pixels
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    blobs = _hat_blobs(memo, gray, lay)
    out = _find(canon, lay, cal, discs, hand_mask, image, tumbling=True, bodies=blobs, memo=memo, gray=gray)
    if not fine or image is None:
        return out
    if all(d.value for d in out) and sum(1 for d in out if d.flat and d.value_confidence >= CLEAR) >= 2:
        # a roll's two dice read clearly and no die-like thing left unread (moving, no face): the
        # finer search could only doubt them less
        return out
    view, flay, fcal = fine_view(image, cal, FINE, memo)
    fdiscs = [(x * FINE, y * FINE, r * FINE) for x, y, r in discs]
    fmask = None
    if hand_mask is not None and hand_mask.shape == canon.shape[:2]:
        fmask = cv2.resize(hand_mask, (view.shape[1], view.shape[0]), interpolation=cv2.INTER_NEAREST)
    more = _find(view, flay, fcal, fdiscs, fmask, image, tumbling=False, strict_pairs=True,
                 bodies=[_scaled(b, lay, flay) for b in blobs], memo=memo, view="fine")
    return _merge(out, more)


#: two dice read flat at this confidence or more in the canonical view make the finer search
#: needless (no die read wrong came this high on the real-like, simulated or real sets:
#: bench/bench_dice.py)
CLEAR = 0.9
#: how much finer than the canonical view the second dice search looks (1.5: dice of 12-16
#: canonical px get pips of 3-4 px, which the pip finder's 5 px hat keeps; 2.0 found fewer real dice)
FINE = 1.5


class _ScaledCal:
    """A calibration seen through a view ``k`` times finer than the canonical one: what the dice
    finder asks of it (layout, the mapping to the frame, the learnt colours)."""

    def __init__(self, cal: Calibration, k: float) -> None:
        base = cal.layout
        self.k = k
        self.layout = Layout(int(round(base.field_w * k)), int(round(base.field_h * k)), base.home,
                             base.u0, base.u1, base.bar, base.v0, base.v1)
        self._cal = cal
        # canonical -> fine: the fine layout's margins are rounded from its own width
        self._off = np.asarray([self.layout.mx - base.mx * k, self.layout.my - base.my * k], np.float32)
        self.offset = (float(self._off[0]), float(self._off[1]))
        self.light_bgr, self.dark_bgr, self.field_bgr = cal.light_bgr, cal.dark_bgr, cal.field_bgr
        self.checker_r = cal.checker_r

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return self._cal.to_image((np.asarray(pts, np.float32).reshape(-1, 2) - self._off) / self.k)

    def to_canonical(self, pts: np.ndarray) -> np.ndarray:
        return np.asarray(self._cal.to_canonical(pts) * self.k + self._off)


def fine_view(image: np.ndarray, cal: Calibration, k: float,
              memo: DiceMemo | None = None) -> tuple[np.ndarray, Layout, Calibration]:
    """The field ``k`` times finer than the canonical view, warped from ``image`` (area-averaged
    where the frame has more pixels than the view, so pips are not lost between samples).

    ``memo``: the view is kept from frame to frame and warped again only round the cells that
    changed (``DiceMemo.patched``), through maps whose windows are the whole warp's pixel for
    pixel (vision/exact_warp.py); not when the frame is shrunk first."""
    sc = _ScaledCal(cal, k)
    lay = sc.layout
    w, h = lay.size
    dst = np.asarray([lay.to_px(0, 0), lay.to_px(1, 0), lay.to_px(1, 1), lay.to_px(0, 1)], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(cal.corners, np.float32), dst)
    # frame px per view px near the field's middle: shrink the frame first when above 1.5
    mid = np.asarray([[[w / 2, h / 2]], [[w / 2 + 10, h / 2]]], np.float32)
    back = cv2.perspectiveTransform(mid, np.linalg.inv(m)).reshape(2, 2)
    ratio = float(np.hypot(*(back[1] - back[0]))) / 10.0
    src = image
    if ratio > 1.5:
        f = 1.0 / ratio
        src = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        m = m @ np.diag([1.0 / f, 1.0 / f, 1.0])
    elif memo is not None:
        key = ("fine view", image.shape, k)
        maps = memo.fixed(key, lambda: perspective_maps(m, (w, h), image.shape[:2]))
        if maps is not None:
            mx, my = maps

            def part(r: Rect) -> np.ndarray:
                y0, y1, x0, x1 = r
                return cv2.remap(image, np.ascontiguousarray(mx[y0:y1, x0:x1]),
                                 np.ascontiguousarray(my[y0:y1, x0:x1]), cv2.INTER_LINEAR)

            def whole() -> np.ndarray:
                return cv2.remap(image, mx, my, cv2.INTER_LINEAR)

            return memo.patched(key, _placing(sc), FINE_VIEW_REACH, whole, part), lay, sc  # type: ignore[arg-type,return-value]
    view = cv2.warpPerspective(src, m, (w, h), flags=cv2.INTER_LINEAR)
    return view, lay, sc  # type: ignore[return-value]


#: how far round a changed cell (fine px) the fine view is warped again: its own bilinear reach
#: and past the reach of the pip spots made again from it (``_spots``: SPOT_REACH + 4, twice)
FINE_VIEW_REACH = 2 * (SPOT_REACH + 4) + 2


#: the fine view adds a die only with a face this clear ...
FINE_CONFIDENCE = 0.6
#: ... of at least this many pips (a lone round spot or two -- a screw head, a dot of print, the
#: strokes of a letter, a checker's highlight -- is the commonest thing mistaken for a die's one
#: or two, and the fine view sees many more of them)
FINE_PIPS = 3


def _merge(base: list[DieReading], more: list[DieReading]) -> list[DieReading]:
    """``base`` with the dice of ``more`` that it lacks: a die ``base`` missed, or found flat with
    no value (a die both read, with different values, keeps ``base``'s reading at lower confidence).
    Only clear faces (``FINE_CONFIDENCE``, ``FINE_PIPS``) are taken from ``more``."""
    out = list(base)
    for d in more:
        if d.value < FINE_PIPS or d.value_confidence < FINE_CONFIDENCE:
            continue
        reach = max(d.size_px, 8.0) * 0.8
        near = [i for i, b in enumerate(out) if not b.moving and np.hypot(b.xy[0] - d.xy[0], b.xy[1] - d.xy[1]) < reach]
        if not near:
            if not d.moving:
                out.append(d)
            continue
        i = near[0]
        b = out[i]
        if b.value == 0 and b.flat and d.value:
            out[i] = d  # (a die the canonical view saw cocked keeps that verdict: E3 b voids its roll)
        elif b.value and d.value and b.value != d.value and b.flat:
            # (a cocked die's confidence is its verdict's, which stands whatever face is read)
            # two readings of one die disagree: the clearer stands, in doubt
            keep = d if d.value_confidence > b.value_confidence else b
            out[i] = dataclasses.replace(keep, value_confidence=keep.value_confidence * 0.5)
    return out


def _find(
    canon: np.ndarray,
    lay: Layout,
    cal: Calibration,
    discs: list[tuple[float, float, float]],
    hand_mask: np.ndarray | None,
    image: np.ndarray | None,
    tumbling: bool,
    strict_pairs: bool = False,
    bodies: list[HatBlob] | None = None,
    memo: DiceMemo | None = None,
    view: str = "canonical",
    gray: np.ndarray | None = None,
) -> list[DieReading]:
    """One search for dice in ``canon`` (the canonical view, or a finer one with its layout and
    calibration), reported in image pixels. ``strict_pairs``: two spots with no outline round
    them may be a die with a clear face (in the fine view a die beside a dark point shows no
    outline, and its pips come out two or three). ``bodies``: the view's die-sized blobs
    (``tumbling.hat_blobs``), when already found. ``memo``: readings of candidates kept from
    earlier frames (``view`` names the search: its candidates' coordinates are its own; ``gray``:
    ``canon`` in grey, when already made)."""
    pitch = lay.pitch
    if gray is None:
        gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY)
    spots = _spots(memo, view, gray, _placing(cal))
    if hand_mask is not None and hand_mask.shape == gray.shape:
        spots = [s for s in spots if not hand_mask[int(s[1]), int(s[0])]]
    src = image if image is not None else canon
    to_src: Callable[[np.ndarray], np.ndarray] = cal.to_image if image is not None else _same
    out: list[DieReading] = []
    taken: list[tuple[float, float]] = []
    default_side = 0.42 * pitch

    def report(die: _Die, side: float, agreed: bool = False) -> None:
        bx, by = die.centre
        taken.append((bx, by))
        on_checker = any(
            np.hypot(bx - dx, by - dy) < dr + 0.3 * side and _checker_under(canon, cal, (dx, dy, dr), side)
            for dx, dy, dr in discs
        )
        u, v = lay.to_uv(bx, by)
        ends = cal.to_image(np.asarray([[bx, by], [bx - side / 2, by], [bx + side / 2, by]], np.float32))
        xy = ends[0]
        size = float(np.hypot(*(ends[2] - ends[1])))
        conf = die.confidence
        if size < SURE_PX and not agreed:
            conf = min(conf, SMALL_CONFIDENCE)
        out.append(
            DieReading(
                xy=(float(xy[0]), float(xy[1])),
                value=int(die.value),
                value_confidence=float(conf),
                flat=bool(not die.cocked and not on_checker),
                on_checker=bool(on_checker),
                half=lay.half_of(u, v),  # type: ignore[arg-type]
                size_px=size,
            )
        )

    # 1. dice found by their pips
    lone: list[tuple[_Die, float]] = []
    # most spots first; of as many, the widest first (a die's two pips before two specks of its shadow's edge)
    whole = _paired(_clusters(spots, REACH * pitch), PAIR_REACH * pitch)
    groups, halves = _split_pairs(whole, pitch)
    for group in sorted(groups, key=_size_and_span, reverse=True):
        pts = np.asarray([(x, y) for x, y, _ in group])
        span = float(np.ptp(pts, axis=0).max()) if len(pts) > 1 else 0.0
        if len(group) > 12 or span > 1.1 * pitch:
            continue
        body = _bodied(memo, view, canon, cal, group, pitch)
        square: float | None = None
        if body is not None:
            (bx, by), (bw, bh), ang = body
            side, long_ = min(bw, bh), max(bw, bh)
            square = side / max(long_, 1e-6)
            if not (DIE_RANGE[0] * pitch <= long_ <= DIE_RANGE[1] * pitch * 1.6):
                continue
            if side < NARROWEST * DIE_RANGE[0] * pitch:
                continue  # narrower than any die's edge: a cocked die's outline is its top and a strip
                # of side face, never narrower than the die (a hinge's leaf, a letter's stroke)
            if len(group) >= 2:
                ang = _angle_of(pts)  # the pips square the die better than an outline with its shadow
        else:
            if len(group) < 2 or (len(group) >= 3 and layout_error(pts) > 0.1) or (len(group) == 2 and not strict_pairs):
                continue  # neither a die's outline nor a clear pip layout
            bx, by = (float(v) for v in pts.mean(axis=0))
            side = max(default_side, span * 1.4)
            ang = _angle_of(pts)
        if any(np.hypot(bx - tx, by - ty) < 0.5 * side for tx, ty in taken):
            continue
        die = _examined(memo, view, canon, src, to_src, (bx, by), side, ang, square, pitch)
        if die is not None and die.refused:
            continue
        if (id(group) in halves or (body is None and len(group) == 2)) and (die is None or die.confidence < FINE_CONFIDENCE):
            continue  # half of a split group, or two spots with no outline: a die only with a clear face
        if body is None and len(group) == 2 and die is not None and die.value <= 2:
            continue  # ... that shows more than the two spots (any two specks read as a two)
        if (body is None and die is not None and not die.outlined and len(group) > die.value
                and die.confidence < CLEAR):
            continue  # no outline round the marks, more of them than the face read has pips, and
            # that face unclear: neither a square body nor one face's pips (a checker's flecks, dots of print)
        if die is None:
            if len(group) < 2 or body is None:
                continue  # a lone mark without a die's outline: not a die
            die = _Die(0, 0.0, square is not None and square < 0.84, (bx, by))
        n_spots = len(group)
        fit = layout_error(pts) if 3 <= n_spots <= 6 else 0.0
        # fewer spots than the face read are that face's pips with some missed (a 4's three
        # corners do not fit a 3's diagonal), not the pips of two faces
        partial = 0 < n_spots < die.value
        if not die.cocked and (n_spots > 6 or (n_spots >= 3 and fit > 0.16 and not partial)):
            die = die._replace(cocked=True, confidence=die.confidence * 0.5)  # pips of two faces
        elif not die.cocked and die.value and n_spots != die.value:
            die = die._replace(confidence=die.confidence * 0.7)
        if n_spots == 1 and die.confidence < 0.6:
            lone.append((die, side))  # one pip, read poorly: maybe one of a six's (step 2)
            continue
        # the search view's spots and the face read in the frame agree, and the face is regular
        report(die, side, agreed=bool(die.regular and not die.cocked and n_spots == die.value))
    # 2. die bodies whose pips were missed (a small die's crowded six): first filled, unsmeared
    # blobs; then blobs a wood grain or a shadow spoils (ragged, grain lines that look like a
    # smear), taken only with a clear flat face square in its outline, and only the fullest
    # blob of a die (not its shadow's or its pips')
    blobs = hat_blobs(gray, lay) if bodies is None else bodies
    doubtful: list[tuple[HatBlob, _Die | None, bool, float | None]] = []
    for b in blobs:
        if b.fill < DOUBTFUL_FILL or not (DIE_RANGE[0] * pitch <= np.sqrt(b.area) <= DIE_RANGE[1] * pitch * 1.3):
            continue
        if any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken):
            continue
        side = float(np.sqrt(b.area))
        if hand_mask is not None and hand_mask.shape == gray.shape and hand_mask[int(b.y), int(b.x)]:
            continue
        if any(
            np.hypot(b.x - dx, b.y - dy) < dr + 0.1 * pitch
            and (cal.field_bgr is None or _checker_under(canon, cal, (dx, dy, dr), side))
            for dx, dy, dr in discs
        ):
            continue  # a checker (or a die on one, left to its pips); without the board's
            # measured colour a checker cannot be told from the board round it, so trust the disc
        smear = coherence(gray, b.x, b.y, 0.5 * b.long_ + 2)
        if smear >= COHERENCE[1]:
            continue  # smeared: a die still tumbling
        if b.fill >= 0.5 and smear < COHERENCE[0]:
            die, _, _ = _blob_died(memo, view, canon, src, to_src, b, side, pitch)
            if die is not None and die.value:
                report(die, side)
        else:
            doubtful.append((b, None, False, None))
    # read the doubtful blobs off the dice read so far
    doubtful = [
        (b, *_blob_died(memo, view, canon, src, to_src, b, float(np.sqrt(b.area)), pitch, settle=True))
        for b, _, _, _ in doubtful
        if not any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken)
    ]
    for b, die, centred, square in sorted(doubtful, key=lambda t: -(t[1].confidence if t[1] else 0.0)):
        if die is None or not die.value or die.cocked or not centred or die.confidence < DOUBTFUL_CONFIDENCE:
            continue
        if square is None or square < DOUBTFUL_SQUARE:
            continue
        if any(np.hypot(b.x - tx, b.y - ty) < 0.6 * pitch for tx, ty in taken):
            continue
        if any(
            sq is not None and ob.fill > b.fill and np.hypot(b.x - ob.x, b.y - ob.y) < 0.6 * pitch for ob, _, _, sq in doubtful
        ):
            continue  # the same die's fuller, outlined blob is its body (this one its shadow or its pips)
        report(die, float(np.sqrt(b.area)))
    # the poorly read lone pips that no die read since explains
    for die, side in lone:
        if not any(np.hypot(die.centre[0] - tx, die.centre[1] - ty) < 0.6 * pitch for tx, ty in taken):
            report(die, side)
    # 3. dice still tumbling
    if not tumbling:
        return out
    for mx, my, _ in find_tumbling(gray, lay, discs, hand_mask, taken, [(s[0], s[1]) for s in spots], blobs):
        u, v = lay.to_uv(mx, my)
        xy = cal.to_image(np.asarray([[mx, my]], np.float32))[0]
        out.append(
            DieReading(
                xy=(float(xy[0]), float(xy[1])),
                value=0,
                value_confidence=0.0,
                flat=False,
                on_checker=False,
                half=lay.half_of(u, v),  # type: ignore[arg-type]
                moving=True,
            )
        )
    return out


def _hat_blobs(memo: DiceMemo | None, gray: np.ndarray, lay: Layout) -> list[HatBlob]:
    """``hat_blobs(gray, lay)``; with a memo, its hat images made again only where the frame
    changed (``DiceMemo.patched``, at half resolution: each half pixel is the mean of its own
    2 x 2 canonical pixels when the view's sides are even)."""
    h, w = gray.shape
    if memo is None or h % 2 or w % 2:
        return hat_blobs(gray, lay)
    m = hat_disc(lay) // 2 * 2  # the opening's (closing's) reach

    def part(r: Rect) -> np.ndarray:
        y0, y1, x0, x1 = r
        cy0, cx0, cy1, cx1 = max(0, y0 - m), max(0, x0 - m), min(h // 2, y1 + m), min(w // 2, x1 + m)
        got = hat_images(half(np.ascontiguousarray(gray[2 * cy0:2 * cy1, 2 * cx0:2 * cx1])), lay)
        return got[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

    def place(b: Box) -> Box:
        return b[0] / 2, b[1] / 2, b[2] / 2, b[3] / 2

    hats = memo.patched(("hats", gray.shape), place, m, lambda: hat_images(half(gray), lay), part, gray)
    return hat_blobs(gray, lay, hats)


def _placing(cal: Calibration) -> Callable[[Box], Box]:
    """A canonical box in the pixels of the view ``cal`` describes (a finer view: ``_ScaledCal``)."""
    if not isinstance(cal, _ScaledCal):
        return lambda b: b
    k, (ox, oy) = cal.k, cal.offset

    def place(b: Box) -> Box:
        return b[0] * k + ox, b[1] * k + oy, b[2] * k + ox, b[3] * k + oy

    return place


def _bodied(memo: DiceMemo | None, view: str, canon: np.ndarray, cal: Calibration, group: list[Spot],
            pitch: float) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """``_body``, or the outline ``memo`` kept of it."""
    if memo is None:
        return _body(canon, group, pitch)
    key = ("body", view, tuple(group), pitch, canon.shape)
    x0, y0, x1, y1 = _body_box(group, pitch, canon.shape)
    if view == "canonical":
        return memo.cropped(key, (x0, y0, x1, y1), lambda: _body(canon, group, pitch))

    def where() -> tuple[Box, float]:
        # a finer view (fine_view): the frame under the crop, grown by two pixels of the frame as
        # shrunk for that view (one of its area shrink, one of the bilinear warp), and one more
        q = np.asarray(cal.to_image(np.asarray([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)), np.float64)
        per = max(float(np.ptp(q[:, 0])) / max(x1 - x0, 1), float(np.ptp(q[:, 1])) / max(y1 - y0, 1), 1.0)
        return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())), 3.0 * per + 1.0

    return memo.framed(key, where, lambda: _body(canon, group, pitch))


def _examined(memo: DiceMemo | None, view: str, canon: np.ndarray, src: np.ndarray,
              to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float, angle: float,
              square: float | None, pitch: float) -> _Die | None:
    """``_examine``, its look and its lettering verdict each the one ``memo`` kept while the pixels
    it read stand: the look reads the die's own square, the lettering a square 5 of its lengths
    across, so a change near a die costs its lettering verdict again, not its faces and outline."""
    if memo is None:
        return _examine(canon, src, to_src, centre, side, angle, square, pitch)
    key = ("look", view, src.shape, centre, side, angle)
    look = memo.sampled(key, to_src, lambda ts: _look(src, ts, centre, side, angle))

    def letters(c: tuple[float, float], n: float, body: tuple[float, float, float], tol: float) -> bool:
        return memo.sampled(("letters", view, src.shape, c, n, body, tol), to_src,
                            lambda ts: lettered(src, ts, c, n, body, tol))

    return _judge(look, centre, angle, square, pitch, letters)


def _blob_died(memo: DiceMemo | None, view: str, canon: np.ndarray, src: np.ndarray,
               to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob, side: float, pitch: float,
               settle: bool = False) -> tuple[_Die | None, bool, float | None]:
    """The die a hat blob shows, read in its outline; whether the face read sits square in
    that outline (not one pip of a six read as a one, off the outline's centre); the outline's
    short over long side (None: no outline). ``settle``: outline again round the first outline's
    centre when the blob was off it (a blob that took in the die's shadow). The outline and the
    reading (``_examined``) are each the one ``memo`` kept while their pixels stand."""
    if memo is None:
        o = _blob_outline(src, to_src, b, side, settle)
    else:
        o = memo.sampled(("blob", view, src.shape, b, side, settle), to_src,
                         lambda ts: _blob_outline(src, ts, b, side, settle))
    return _blob_read(o, b, pitch, settle,
                      lambda at, s, ang: _examined(memo, view, canon, src, to_src, at, s, ang, None, pitch))


def _blob_outline(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob, side: float,
                  settle: bool) -> Outline | None:
    """``_blob_died``'s outline round the blob (with ``settle``, again round its first centre when
    the blob was off it)."""
    o = die_outline(src, to_src, (b.x, b.y), side)
    if settle and o is not None and np.hypot(o.centre[0] - b.x, o.centre[1] - b.y) > 0.1 * side:
        o = die_outline(src, to_src, o.centre, side) or o
    return o


def _blob_read(o: Outline | None, b: HatBlob, pitch: float, settle: bool,
               examine: Callable[[tuple[float, float], float, float], _Die | None]) -> tuple[_Die | None, bool, float | None]:
    """``_blob_died`` from its outline: the die ``examine`` (centre, side, angle) reads in it."""
    if o is None or not (DIE_RANGE[0] * pitch <= o.long_ <= DIE_RANGE[1] * pitch * 1.6):
        return None, False, None
    if settle and o.aspect < DOUBTFUL_SQUARE:
        return None, False, o.aspect  # oblong: not taken from a doubtful blob, so not read
    at = (float(o.centre[0]), float(o.centre[1])) if settle else (b.x, b.y)
    die = examine(at, o.long_ * max(o.aspect, 0.75), o.angle)
    centred = die is not None and bool(np.hypot(die.centre[0] - o.centre[0], die.centre[1] - o.centre[1]) <= OFF_CENTRE * o.long_)
    return die, centred, o.aspect


def _scaled(b: HatBlob, lay: Layout, to: Layout) -> HatBlob:
    """A blob of the canonical view (``lay``) as it lies in a finer view of the field (``to``)."""
    k = to.pitch / lay.pitch
    x, y = to.to_px(*lay.to_uv(b.x, b.y))
    return HatBlob(float(x), float(y), b.long_ * k, b.short * k, b.area * k * k, b.fill, b.dark)


def _same(pts: np.ndarray) -> np.ndarray:
    return np.asarray(pts, np.float32)


def _checker_under(canon: np.ndarray, cal: Calibration, disc: tuple[float, float, float], side: float) -> bool:
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


def _angle_of(pts: np.ndarray) -> float:
    """A die's rotation from its pips (pips sit on a square grid), degrees."""
    if len(pts) < 2:
        return 0.0
    d = pts[:, None, :] - pts[None, :, :]
    ang = np.degrees(np.arctan2(d[..., 1], d[..., 0]))[np.triu_indices(len(pts), 1)]
    # diagonal pairs (2, 3) are at 45 degrees to the edges; fold everything to 0-90
    return float(np.median(np.mod(ang + 45.0, 90.0)))
