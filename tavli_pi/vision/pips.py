"""Reading the pips on one die face, whatever the colours.

``read_pips(crop)`` takes a BGR crop centred on one die (a little of the
table around it is fine) and returns ``(value, confidence)``; value 0 means
"no backgammon die face here" (unreadable, or a die with numerals).

How: the crop is scaled to a fixed size and compared with a local
background (a median of about a third of the face), in both polarities
(dark pips on a light body, light pips on a dark body) and at two contrast
levels. Each variant gives round, pip-sized blobs away from the crop's
edge; blobs of one face have about the same size, so they are grouped by
size. A group counts as a face when its positions match the pip layout of
1..6 (``layout_error``: sorted pairwise distances, normalised, compared with
the standard layouts, so rotation and scale do not matter). The best-fitting
group wins; the confidence drops when the fit is loose, the pips are uneven
or another reading fits almost as well.
"""

from __future__ import annotations

import math

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.disc_means import disc_means
from tavli_pi.vision.quantile import mean_of, median
from tavli_pi.vision.quantile import order_weights as _order_weights

__all__ = ["PipReading", "read_pips", "read_face", "read_face_evidence", "Face", "hidden_pips", "layout_error", "find_pip_blobs", "LAYOUTS"]

PipReading = tuple[int, float]  # (value 1-6 or 0 when unreadable, confidence)

_SIZE = 64
#: confidence lost per unit of a reading's badness (``_score``: layout error, uneven pips, off
#: centre, pips left out, clutter): a clean face (badness 0.01-0.035 on the real-like set, the
#: WTC frames) reads at 0.91-0.97, a loose one (0.055-0.1: the misreads of the real photo sets)
#: at 0.75-0.86
BAD_SLOPE = 2.5
#: ``hidden_pips`` up to this is a plain face (right reads: 99 % of threes to sixes at <= 0.32,
#: of twos <= 0.43); each unit above it costs as much confidence (a six read as a four, a five
#: as a four, a checker's glints as a two: 0.97-1.02)
REGULAR = 0.35
#: degrees a two's or three's diagonal may be off 45 in a crop square to the die
DIAGONAL_SLACK = 22.0

#: Standard pip layouts (unit grid: columns/rows at -1, 0, +1), as on
#: Western six-sided dice: opposite faces sum to 7, the six in two columns of three.
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


@lru_cache(maxsize=None)
def _pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The index pairs (i < j) of ``n`` points, in ``itertools.combinations`` order."""
    i, j = np.triu_indices(n, 1)
    return i, j


def _signature(pts: np.ndarray) -> np.ndarray:
    i, j = _pairs(len(pts))
    step = pts[i] - pts[j]
    d: np.ndarray = np.hypot(step[:, 0], step[:, 1])
    d.sort()
    return d / max(float(d[-1]), 1e-6)


#: Row spacing of the six relative to its column spacing varies between makers
#: (0.5 on the simulator's dice, about 0.65-0.8 on the photographed ones).
_SIX_ROWS = (0.5, 0.62, 0.75, 0.88)


@lru_cache(maxsize=None)
def _templates(n: int) -> tuple[np.ndarray, ...]:
    base = np.asarray(LAYOUTS[n], np.float64)
    if n != 6:
        return (_signature(base),)
    return tuple(_signature(base * (1.0, 2.0 * k)) for k in _SIX_ROWS)


def layout_error(pts: np.ndarray) -> float:
    """How far pip centres (N x 2) are from the standard layout of N pips (0 = exact).

    For 1 pip the error is 0; for 2 pips it is 0 too (any two points fit a
    diagonal) -- callers check where the pair sits on the face.
    """
    n = len(pts)
    if n <= 2:
        return 0.0 if n >= 1 else 1.0
    if n > 6:
        return 1.0
    sig = _signature(np.asarray(pts, np.float64))
    return min(float(np.abs(sig - t).mean()) for t in _templates(n))


def find_pip_blobs(
    gray: np.ndarray, dark: bool, level: float | None, back: np.ndarray | None = None
) -> tuple[list[tuple[float, float, float]], np.ndarray]:
    """Round blobs (x, y, area) and the foreground mask: blobs that stand out from
    a square grey crop by ``level`` grey levels from the local background, or (``level`` None) beyond Otsu's
    threshold of the crop's middle. ``back`` is the local background if already computed."""
    size = gray.shape[0]
    if level is None:
        m = size // 8
        t, _ = cv2.threshold(gray[m:-m, m:-m], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        # (``cv2.threshold``: above ``t`` (a whole grey level), 1; the inverse, at most ``t``)
        mask = cv2.threshold(gray, t, 1, cv2.THRESH_BINARY_INV if dark else cv2.THRESH_BINARY)[1]
    else:
        if back is None:
            back = cv2.medianBlur(gray, (size // 3) | 1)
        diff = cv2.subtract(back, gray) if dark else cv2.subtract(gray, back)
        # (above ``level``: a grey level is above it just when above its floor, OpenCV's uint8 threshold)
        mask = cv2.threshold(diff, level, 1, cv2.THRESH_BINARY)[1]
    n, _, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=4)
    area = float(size * size)
    out: list[tuple[float, float, float]] = []
    for (x0, y0, w, h, a), (cx, cy) in zip(stats[1:].tolist(), cents[1:].tolist()):
        if not (0.003 * area <= a <= 0.16 * area):
            continue
        if max(w, h) > 1.7 * min(w, h) or a < 0.5 * w * h:
            continue
        if x0 <= 0 or y0 <= 0 or x0 + w >= size or y0 + h >= size:
            continue
        out.append((cx, cy, float(a)))
    return out, mask


def _groups(blobs: list[tuple[float, float, float]]) -> list[list[tuple[float, float, float]]]:
    """Subsets of blobs of about one size (pips of one face), largest first."""
    if not blobs:
        return []
    blobs = sorted(blobs, key=lambda b: b[2])
    out = []
    for i, ref in enumerate(blobs):
        g = [b for b in blobs if ref[2] <= b[2] <= 2.2 * ref[2]]
        out.append(g)
    return out


@lru_cache(maxsize=4)
def _grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.ogrid[:size, :size]
    return yy.astype(np.float64), xx.astype(np.float64)


def _window(size: int, x: float, y: float, r: float) -> tuple[slice, slice]:
    """Rows and columns of a ``size`` square that hold every pixel within ``r`` of (x, y), and a
    pixel more each way (so a distance test gives inside the window what it gives on the whole)."""
    return (slice(max(0, math.floor(y - r) - 1), max(0, min(size, math.ceil(y + r) + 2))),
            slice(max(0, math.floor(x - r) - 1), max(0, min(size, math.ceil(x + r) + 2))))


#: ``_score``'s farthest centre (0.3 of the crop's side), squared, with a margin (a relative 1e-8) far
#: beyond the rounding of the quick sums and squares that test it against it
_FAR_OFF = 0.09 * (1 + 1e-8)


def _score(
    group: list[tuple[float, float, float]], blobs: list[tuple[float, float, float]], mask: np.ndarray,
    aligned: bool = False, beat: float = math.inf, table: np.ndarray | None = None,
) -> tuple[float, int] | None:
    """(badness, value) of one blob group as a face, or None when it is not one, or when its
    badness would not be under ``beat`` (its terms are added up in order, none negative, so the
    sum of the first ones already at ``beat`` settles it). ``table``: ``blobs`` as an (N, 3) array,
    when made already."""
    n = len(group)
    size = mask.shape[0]
    if not 1 <= n <= 6:
        return None
    # a group whose centre lies beyond 0.3 of the crop's side from the crop's by more than any rounding
    # (``_FAR_OFF``) is no face, settled before any array is made (a third of the groups: issue 12)
    cx = cy = 0.0
    for x, y, _ in group:
        cx += x
        cy += y
    dx, dy = cx / n - size / 2, cy / n - size / 2
    if dx * dx + dy * dy > _FAR_OFF * size * size:
        return None
    pts = np.asarray([(x, y) for x, y, _ in group], np.float64)
    areas = np.asarray([a for _, _, a in group])
    # (``np.add.reduce(...) / n`` is what ``mean`` works out, without its dispatch: issue 12)
    centre = np.add.reduce(pts, axis=0) / n
    # the face's centre is the pips' centre (every layout is point-symmetric): near the crop's
    off = float(np.hypot(*(centre - size / 2))) / size
    if off > 0.3:
        return None
    spread = float(np.max(np.hypot(*(pts - centre).T))) / size if n > 1 else 0.0
    amean = np.add.reduce(areas) / n
    pip_d = 2.0 * float(np.sqrt(amean / np.pi)) / size
    if n == 1:
        # a lone pip is larger than others on many dice, but not a blot filling the face
        if not 0.07 <= pip_d <= 0.45:
            return None
    else:
        if spread < 0.65 * pip_d or spread > 0.5:
            return None
        if aligned and n <= 3:
            # square to the crop, a two's or three's pips run corner to corner; a pair
            # along an edge is two pips of a crowded face (a six's row)
            # (the first farthest pair, in ``combinations`` order: ``_pairs``)
            pi, pj = _pairs(n)
            far = int(np.argmax(np.hypot(*(pts[pi] - pts[pj]).T)))
            d = pts[pi[far]] - pts[pj[far]]
            if abs(float(np.degrees(np.arctan2(d[1], d[0]))) % 90.0 - 45.0) > DIAGONAL_SLACK:
                return None
    # (the population deviation as ``std`` works it out: the mean, the squared steps, their mean)
    step = areas - amean
    uneven = float(np.sqrt(np.add.reduce(step * step) / n) / (amean + 1e-6))
    if 0.1 * uneven + 0.3 * off >= beat:
        return None  # (err, added first, is not negative)
    err = layout_error(pts) if n >= 3 else 0.0  # (any two points fit a two's diagonal)
    if err > 0.12:
        return None
    bad = err + 0.1 * uneven + 0.3 * off
    if bad >= beat:
        return None
    # pip-sized blobs on the face left out of the group: the group is not the whole face
    ids = {(x, y) for x, y, _ in group}
    reach = size * (max(spread * 1.3, 0.26) if n > 1 else 0.36)
    if table is None:
        table = np.asarray(blobs, np.float64).reshape(-1, 3)
    near = np.hypot(table[:, 0] - centre[0], table[:, 1] - centre[1]) < reach
    near &= table[:, 2] >= 0.35 * float(amean)
    left_out = sum(1 for i in np.flatnonzero(near).tolist() if (blobs[i][0], blobs[i][1]) not in ids)
    prior = 0.03 if n <= 2 else 0.0
    if bad + 0.12 * left_out + prior >= beat:
        return None  # (the clutter, added last, is not negative)
    # anything else standing out on the face (numerals, ornaments, print) means no pips
    yy, xx = _grid(size)
    rows, cols = _window(size, float(centre[0]), float(centre[1]), reach)
    disk = (xx[:, cols] - centre[0]) ** 2 + (yy[rows] - centre[1]) ** 2 < reach**2
    # (``mask`` is 0 / 1: its sum is its count of ones)
    clutter = max(0.0, float(np.count_nonzero(mask[rows, cols][disk])) - float(areas.sum())) \
        / max(float(np.count_nonzero(disk)), 1.0)
    return bad + 0.12 * left_out + prior + 1.5 * clutter, n


def read_pips(crop: np.ndarray) -> PipReading:
    """(pips on the top face, confidence) for a BGR crop centred on one die."""
    value, conf, _ = read_face(crop)
    return value, conf


def _inside(part: list[tuple[float, float]], whole: list[tuple[float, float]]) -> bool:
    """Every pip of ``part`` is one of ``whole``'s pips (and ``whole`` has more)."""
    if len(part) >= len(whole):
        return False
    tol = 0.08 * _SIZE
    return all(min(math.hypot(x - wx, y - wy) for wx, wy in whole) <= tol for x, y in part)


def read_face(crop: np.ndarray, aligned: bool = False) -> tuple[int, float, tuple[float, float] | None]:
    """``read_pips`` plus the face's centre (the pips' centre, every layout being
    point-symmetric) as fractions (0-1) of the crop's width and height, or None.

    ``aligned``: the crop is square to the die's edges, so a two or a three must
    run corner to corner (a pair along an edge is part of a crowded face)."""
    f = read_face_evidence(crop, aligned)
    return f.value, f.confidence, f.centre


#: the percentiles ``read_face_evidence`` spans the crop's grey levels by (``np.percentile``'s)
_ENDS = (97, 3)


def _percentiles(gray: np.ndarray, q: tuple[float, ...]) -> tuple[float, ...]:
    """``np.percentile(gray, q)`` of a uint8 image, from its histogram: the two order statistics
    round each percentile's rank (the least value whose cumulative count passes the rank), then
    numpy's own interpolation (``_lerp``: ``a + (b - a) t``, or ``b - (b - a)(1 - t)`` from t = 0.5),
    to the bit (tests/vision/test_pips_speed.py checks every pair of order statistics). Issue 12:
    numpy's partition and its dispatch cost ~80 us on a 64 x 64 crop, this ~10."""
    if gray.dtype != np.uint8 or gray.size < 2:
        return tuple(float(v) for v in np.percentile(gray, q))
    cum = np.cumsum(np.bincount(gray.ravel(), minlength=256))
    out = []
    for k, t in _order_weights(int(gray.size), q):
        a, b = np.searchsorted(cum, (k, min(k + 1, gray.size - 1)), side="right").tolist()
        d = b - a
        out.append(b - d * (1 - t) if t >= 0.5 else a + d * t)
    return tuple(out)


class Face(NamedTuple):
    """One face read: the value (0: none), its confidence, the face's centre (fractions of the
    crop, or None), and the evidence the confidence comes from: the winner's badness
    (``_score``), its margin over the next reading that is not part of it, and ``hidden``
    (``hidden_pips``: how much a spot where the value has no pip looks like a pip)."""

    value: int
    confidence: float
    centre: tuple[float, float] | None
    bad: float = 1.0
    margin: float = 0.0
    hidden: float | None = None


def read_face_evidence(crop: np.ndarray, aligned: bool = False) -> Face:
    """``read_face`` with the evidence behind its confidence (``Face``)."""
    if crop is None or crop.size == 0 or min(crop.shape[:2]) < 6:
        return Face(0, 0.0, None)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    gray = cv2.resize(gray, (_SIZE, _SIZE), interpolation=cv2.INTER_AREA if min(gray.shape) > _SIZE else cv2.INTER_CUBIC)
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    hi, lo = _percentiles(gray, _ENDS)
    span = float(hi - lo)
    if span < 25:
        return Face(0, 0.0, None)
    cands: dict[int, float] = {}
    centres: dict[int, tuple[float, float]] = {}
    pips: dict[int, list[tuple[float, float]]] = {}
    shade: dict[int, tuple[bool, float]] = {}  # dark pips?, mean pip area
    back = cv2.medianBlur(gray, (_SIZE // 3) | 1)
    for level in (0.25 * span, 0.4 * span, None):
        found = [find_pip_blobs(gray, dark, level, back) for dark in (True, False)]
        both: np.ndarray | None = None  # strokes of either shade count as clutter (made when first needed)
        for (blobs, _), dark in zip(found, (True, False)):
            if not blobs or len(blobs) > 14:
                continue  # no blobs: no group; too many: a textured or printed face, not pips
            if both is None:
                both = found[0][1] | found[1][1]
            seen: set[tuple[tuple[float, float, float], ...]] = set()
            table = np.asarray(blobs, np.float64).reshape(-1, 3)
            for g in _groups(blobs):
                if tuple(g) in seen:
                    continue  # the same group scores the same (and could not beat itself)
                seen.add(tuple(g))
                s = _score(g, blobs, both, aligned, cands.get(len(g), 9.0), table)
                if s is not None and s[0] < cands.get(s[1], 9.0):
                    cands[s[1]] = s[0]
                    pips[s[1]] = [(b[0], b[1]) for b in g]
                    shade[s[1]] = (dark, mean_of([b[2] for b in g]))
                    centres[s[1]] = (mean_of([b[0] for b in g]) / _SIZE, mean_of([b[1] for b in g]) / _SIZE)
    if not cands:
        return Face(0, 0.0, None)
    ranked = sorted(cands.items(), key=lambda kv: kv[1])
    value, bad = ranked[0]
    # a rival made of some of the winner's own pips (a 2 inside a 3, a 3 inside a 5)
    # is no rival: the winner explains every pip it explains, and more
    rivals = [b for v, b in ranked[1:] if not _inside(pips[v], pips[value])]
    margin = (rivals[0] - bad) if rivals else 0.3
    hidden = hidden_pips(gray, np.asarray(pips[value], np.float64), shade[value][0], shade[value][1], aligned)
    conf = 1.0 - BAD_SLOPE * bad - (0.35 if margin < 0.03 else 0.15 if margin < 0.08 else 0.0)
    if hidden is not None:
        conf -= max(0.0, hidden - REGULAR)
    return Face(value, float(np.clip(conf, 0.05, 0.99)), centres[value], bad, margin, hidden)


def _grid_axes(pts: np.ndarray, aligned: bool) -> tuple[np.ndarray, np.ndarray] | None:
    """Half the face's pip grid along its two sides (u, w: the corner pips sit at centre +- u +- w),
    from the pips of one face; a lone pip's grid is guessed square to the crop (``aligned``)."""
    c = pts.mean(axis=0)
    n = len(pts)
    if n == 1:
        s = 0.25 * _SIZE
        return (np.asarray([s, 0.0]), np.asarray([0.0, s])) if aligned else None
    if n <= 3:
        i, j = max(combinations(range(n), 2), key=lambda ij: float(np.hypot(*(pts[ij[0]] - pts[ij[1]]))))
        d = pts[i] - pts[j]
        e = np.asarray([-d[1], d[0]])
        return (d + e) / 4.0, (d - e) / 4.0
    far = pts[np.argsort(-np.hypot(*(pts - c).T))[:4]]
    far = far[np.argsort(np.arctan2(far[:, 1] - c[1], far[:, 0] - c[0]))]
    d1, d2 = far[0] - far[2], far[1] - far[3]
    return (d1 + d2) / 4.0, (d1 - d2) / 4.0


def hidden_pips(gray: np.ndarray, pts: np.ndarray, dark: bool, area: float, aligned: bool) -> float | None:
    """How much the face's pip-free places look like pips (0: plain body there, 1: as dark -- or
    as light -- as the pips read): the centre and the middles of the sides, and the other corners,
    wherever the value read has no pip. A six read as a four (its middle row run into its
    columns), a five read as a four (its centre lost), a five read as a three show a pip there.
    None when it cannot be told (a lone pip on a crop not square to the die: no grid to look on)."""
    axes = _grid_axes(pts, aligned)
    if axes is None:
        return None
    u, w = axes
    c = pts.mean(axis=0)
    rp = max(1.5, 0.6 * float(np.sqrt(area / np.pi)))
    yy, xx = _grid(_SIZE)
    # the nine places c + i u + j w (i, j in -1, 0, 1; i outer), all at once: the same float64 sums
    places = ((c + _STEPS[:, None, None] * u) + _STEPS[None, :, None] * w).reshape(9, 2)
    near = max(2.0, 0.35 * float(min(np.hypot(*u), np.hypot(*w))))
    nearest = np.hypot(pts[None, :, 0] - places[:, 0, None], pts[None, :, 1] - places[:, 1, None]).min(axis=1)
    empty = places[(nearest > near) & (rp <= places[:, 0]) & (places[:, 0] < _SIZE - rp)
                   & (rp <= places[:, 1]) & (places[:, 1] < _SIZE - rp)]
    if not len(empty):
        return 0.0
    # each place's level: the mean grey within rp of it (``disc_means``: np.mean's, for a uint8 face),
    # the pips' and the empty places' in one call (each point's mean is its own: issue 12)
    level = disc_means if gray.dtype == np.uint8 else _disc_means
    means = level(gray, np.concatenate((pts, empty)), rp)
    pip = mean_of(means[:len(pts)])
    # the body: the face round its pips, away from them
    reach = float(np.hypot(*(u + w))) + rp
    rows, cols = _window(_SIZE, float(c[0]), float(c[1]), reach)
    xw, yw = xx[:, cols], yy[rows]
    far_from_pips = ((xw[None] - pts[:, 0, None, None]) ** 2 + (yw[None] - pts[:, 1, None, None]) ** 2).min(axis=0) \
        > (2.2 * rp) ** 2
    face = ((xw - c[0]) ** 2 + (yw - c[1]) ** 2 <= reach * reach) & far_from_pips
    if face.sum() < 8:
        return 1.0  # no body round the pips to compare with
    body = float(median(gray[rows, cols][face]))  # np.median's (vision/quantile.py)
    step = pip - body
    if abs(step) < 1e-3 or (step > 0) == dark:
        return 1.0  # the "pips" are not of the shade they were found in
    return float(max(0.0, max((v - body) / step for v in means[len(pts):])))


#: the steps along each of the face's grid axes to its nine places (``hidden_pips``)
_STEPS = np.asarray([-1.0, 0.0, 1.0])


def _disc_means(gray: np.ndarray, pts: np.ndarray, r: float) -> list[float]:
    """``disc_means`` of an image of any type: each mean taken by ``np.mean`` over its window."""
    yy, xx = _grid(gray.shape[0])
    out = []
    for p in pts:
        rows, cols = _window(gray.shape[0], float(p[0]), float(p[1]), r)
        m = (xx[:, cols] - p[0]) ** 2 + (yy[rows] - p[1]) ** 2 <= r * r
        out.append(float(gray[rows, cols][m].mean()) if m.any() else float("nan"))
    return out
