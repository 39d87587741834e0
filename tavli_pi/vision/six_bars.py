"""A six too small for its pips to part: two bars.

A six's pips stand in two rows of three, a quarter of the die's side either side of its middle,
a quarter of the side apart along each row. On a die of 10-11 px (a 640x360 recording) that is
2.5 px from pip to pip, and the camera's blur joins each row into one bar: the pip finder rings
no spot, the face reader sees no layout, and the bars' straight edges look like a smear, so the
die was reported tumbling on every frame it lay (bench/RESULTS.md, stop 14).

``bar_six`` reads a crop square to the die (``dice_face``'s, ``SPAN`` of the die's side across)
for that picture: two bars of the pips' shade, parallel to one pair of edges, each inked at both
ends and in the middle (a four's rows have no middle pip), with the body's colour between them
(a five's middle pip, a frame's or a letter's stroke) and beyond their ends. Bars that are not
clean are read no surer than ``dice_vet.SMALL_CONFIDENCE``: such a die keeps its value only where
the size gates allow an unproved reading (12 px and up); under that it is reported "too small to
read", a still die, not a tumbling one.

A six whose bars are clean (``CLEAN``: inked at both ends and in the middle, the body's colour
between and beyond them) is read at ``READ``, over ``SMALL_CONFIDENCE`` and under the 0.9 a die is
counted confidently wrong at: its two rows stand half a side apart -- the spacing ``dice_vet.LEAST_PX``
is set by -- so they are resolved; what runs together is each row's three pips, and a row inked in
its middle as at its ends is no four's (whose middle is the body's colour) and no five's (whose
middle pip lies between the rows). So a clean six keeps its value from ``LEAST_PX`` up (bench/
bench_video.py --size 640 and 1280, seed 0, every still die the bars were asked of: 38 of 46
six-frames of 10-16 px clean, none of 79 other faces' bars above 0). Unclean bars stay under
``SMALL_CONFIDENCE``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.quantile import float_mean, median

__all__ = ["BAR_CONTRAST", "CLEAN", "READ", "bar_six", "clean_bars", "inked_looks"]

#: the least ink (grey levels: the pips' shade off the body's) a bar must show
BAR_CONTRAST = 25.0
#: a row's pips lie this far (die sides) either side of the face's middle ...
ROW = 0.25
#: ... and the bars are looked for this far either side of it (an outline a little off the die)
ROW_RANGE = (0.17, 0.34)
#: along a bar, the ink is sampled at its ends and middle (die sides from the middle)
ALONG = (-0.25, 0.0, 0.25)
#: past a bar's ends (die sides from the middle: its pips reach 0.33) the body's colour again
END = 0.42
#: each sample is the mean over this half-width (die sides)
HALF = 0.06
#: the bars' middle is sought along them within this far (die sides) of the crop's: the crop is centred
#: on the die's outline, which on an 11 px die may sit a pixel (0.09 of a side) off its face along the
#: bars, and a bar's end sample (``ALONG``, its pips reaching 0.33) then falls off its pip (real-like game
#: 75: two 11 px sixes on felt read clean bars at their true centres, and no bars a pixel off them)
ALIGN = 0.15
#: ... as the centroid of the bars' ink over this far either side of the middle (die sides: the pips'
#: reach, short of the die's edge and the ground beyond it), taken twice (the second round the first)
ALIGN_REACH = 0.36
#: the largest confidence a six read from bars gets (``dice_vet.SMALL_CONFIDENCE``: not resolved)
MOST = 0.85
#: bars this clean (1 - the body's ink between and beyond them over theirs) are a six read
CLEAN = 0.8
#: ... at this confidence: over ``dice_vet.SMALL_CONFIDENCE`` (the value is kept, its rows resolved),
#: under ``dice_vet.AGREED_CONFIDENCE`` (no second view of it) and the 0.9 a play is called on
READ = 0.87


def bar_six(crop: np.ndarray, span: float) -> float:
    """How surely ``crop`` (BGR or grey, square to the die, ``span`` die sides across, centred on
    the face) shows a six as two bars (0-``MOST``; ``READ``: clean bars, a six read)."""
    best = 0.0
    for score in _scores(crop, span):
        best = max(best, score)
    return best


def clean_bars(crop: np.ndarray, span: float, looks: Sequence[bool] | None = None) -> bool:
    """Whether ``bar_six(crop, span) >= READ`` (clean bars), asked no further than the first clean pair:
    ``bar_six`` is ``READ`` exactly where one of its four looks (dark or light ink, bars up or across)
    is, every other look scoring ``MOST`` at most. ``looks``: which of the four can be clean
    (``inked_looks``' row for the crop); the others are not made."""
    return any(score >= READ for score in _scores(crop, span, looks))


def _grey(crop: np.ndarray) -> np.ndarray:
    """The crop's grey levels as ``_scores`` reads them (float32)."""
    return (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)


def _inner(n: int, span: float) -> tuple[float, float, slice]:
    """A crop of ``n`` px's px per die side, middle, and the rows (and columns) its body's median is taken
    over."""
    per = n / span  # crop px per die side
    c = (n - 1) / 2.0
    return per, c, slice(int(round(c - 0.4 * per)), int(round(c + 0.4 * per)) + 1)


def _scores(crop: np.ndarray, span: float, looks: Sequence[bool] | None = None) -> Iterator[float]:
    """``_bars``' confidence for each of ``bar_six``'s four looks at ``crop``, made as they are asked
    (none for a crop too small); with ``looks``, only the looks it allows (the others score none)."""
    if crop is None or crop.size == 0 or min(crop.shape[:2]) < 16:
        return
    if looks is not None and not any(looks):
        return
    g = _grey(crop)
    per, c, rows = _inner(g.shape[0], span)
    body = float(median(g[rows, rows]))  # (``quantile.median``: np.median's value, to the bit)
    k = 0
    for dark in (True, False):
        if looks is not None and not (looks[k] or looks[k + 1]):
            k += 2
            continue
        ink = (body - g) if dark else (g - body)
        for a in (ink, ink.T):  # bars up and down the crop, or across it
            if looks is None or looks[k]:
                yield _bars(a, per, c)
            k += 1


#: ``inked_looks``' margin (grey levels) under ``BAR_CONTRAST``: its bound is exact (whole grey levels summed
#: as integers) where ``_mean`` rounds a sum's quotient to float32 (off by far under a thousandth of a level)
INKED_MARGIN = 0.05


def inked_looks(crops: Sequence[np.ndarray], span: float) -> np.ndarray:
    """Which of ``_scores``' four looks (dark ink up, across, light ink up, across) can be clean at each of
    ``crops`` (uint8, square, all of one size, 16 px and more; ``span`` as ``bar_six``'s), as a crops x 4 bool
    array: False only where the look is surely not (issue 12: most crops of a changed patch show no six).

    ``_bars`` reads a look clean only where each bar's three samples -- boxes ``HALF`` a side each way round
    the bar's column, within ``ROW_RANGE`` of the middle, and round its rows ``ALONG`` from its middle, which
    lies within ``ALIGN`` of the crop's -- are inked ``BAR_CONTRAST`` and more. A box's mean is no more than
    its most inked row's mean over the box's columns, so a look with, on one side of the middle, no column
    whose three samples' rows each hold a row inked ``BAR_CONTRAST`` (less ``INKED_MARGIN``) over that
    column's box is not clean. All the crops at once: their grey levels in one ``cvtColor`` (pixel by pixel,
    the same), their bodies' medians from their levels' counts, the rows' sums over every bar column's box
    as running sums of whole levels."""
    if not crops or crops[0].dtype != np.uint8 or min(crops[0].shape[:2]) < 16:
        return np.ones((len(crops), 4), bool)  # (whole levels only; ``_scores`` says a small crop's itself)
    g = np.stack(crops) if crops[0].ndim == 2 else \
        cv2.cvtColor(np.concatenate(crops), cv2.COLOR_BGR2GRAY).reshape(len(crops), *crops[0].shape[:2])
    m, n = len(crops), g.shape[1]
    per, c, inner = _inner(n, span)
    # the bodies' medians (``_scores``' ``median``: the middle level, or the mean of the middle two)
    levels = g[:, inner, inner].reshape(m, -1)
    count = np.bincount((levels + (256 * np.arange(m))[:, None]).ravel(), minlength=256 * m).reshape(m, 256)
    below = np.cumsum(count, axis=1)
    k = levels.shape[1]
    body = ((np.argmax(below > (k - 1) // 2, axis=1) + np.argmax(below > k // 2, axis=1)) / 2.0)[:, None]
    h = max(HALF * per, 0.5)
    # the rows a sample's box can take (``_mean``'s rounding of its row +- ``h``, the row within ``ALIGN``)
    spans = [(min(max(math.floor(c + t * per - ALIGN * per - h - 0.5), 0), n - 1),
              min(max(math.ceil(c + t * per + ALIGN * per + h + 0.5), 0), n - 1)) for t in ALONG]
    r0, r1 = min(lo for lo, _ in spans), max(hi for _, hi in spans)
    least = BAR_CONTRAST - INKED_MARGIN
    out = np.ones((m, 4), bool)
    # each side's bar columns (``ROW_RANGE`` of the middle); both looks (bars up the crop, or across it: the
    # crops and their transposes, one above the other) and both sides' columns worked out at once, each
    # value as alone (whole levels summed exactly, the same quotients and differences; issue 12)
    sides: list[range] = []
    for sign in (-1.0, 1.0):
        lo, hi = sorted((c + sign * ROW_RANGE[0] * per, c + sign * ROW_RANGE[1] * per))
        sides.append(range(max(math.ceil(lo), 0), min(math.floor(hi), n - 1) + 1))
    if not all(sides):
        out[:] = False
        return out
    xs = [x for side in sides for x in side]
    x0 = np.asarray([max(int(round(x - h)), 0) for x in xs])
    x1 = np.asarray([min(max(int(round(x + h)) + 1, 1), n) for x in xs])
    # each row's running sums from 0 (``cv2.integral``'s rows told apart: whole levels, exact)
    both = np.concatenate([g[:, r0:r1 + 1, :], g.transpose(0, 2, 1)[:, r0:r1 + 1, :]])
    flat = np.ascontiguousarray(both).reshape(-1, n)
    sums = np.diff(cv2.integral(flat), axis=0).reshape(2 * m, r1 - r0 + 1, n + 1)
    # the rows' sums over each column's box (looks x crops x columns x rows), then per column the least of
    # its three samples' most inked rows' means: dark ink (the body less the grey), light (the grey less
    # the body; a box's mean, its sum over its columns, orders as its sum)
    box = np.ascontiguousarray((sums[:, :, x1] - sums[:, :, x0]).transpose(0, 2, 1))
    width = (x1 - x0).astype(np.float64)
    body2 = np.concatenate([body, body])
    dark = np.min([body2 - box[:, :, s0 - r0:s1 - r0 + 1].min(axis=2) / width for s0, s1 in spans], axis=0)
    light = np.min([box[:, :, s0 - r0:s1 - r0 + 1].max(axis=2) / width - body2 for s0, s1 in spans], axis=0)
    k = len(sides[0])
    for ink, first in ((dark, 0), (light, 2)):
        ok = (ink[:, :k].max(axis=1) >= least) & (ink[:, k:].max(axis=1) >= least)
        out[:, first] = ok[:m]
        out[:, first + 1] = ok[m:]
    return out


def _mean(a: np.ndarray, x: float, y: float, hx: float, hy: float) -> float:
    """The mean of ``a`` (floats) over the box ``x`` +- ``hx``, ``y`` +- ``hy`` (crop px; at least a pixel)."""
    x0, x1 = int(round(x - hx)), int(round(x + hx)) + 1
    y0, y1 = int(round(y - hy)), int(round(y + hy)) + 1
    part = a[max(y0, 0):max(y1, 1), max(x0, 0):max(x1, 1)]
    if not part.size:
        return 0.0
    return float(float_mean(part))  # (``part.mean()`` to the bit without its dispatch: vision/quantile.py)


def _along_middle(ink: np.ndarray, x: float, per: float, c: float, h: float) -> float:
    """The middle of the bar at column ``x`` along its length (crop px): the centroid of its ink
    within ``ALIGN_REACH`` of it, sought within ``ALIGN`` of the crop's middle ``c``. Each bar is
    centred on its own: a die turned a few degrees from the crop (a small die's outline angle is
    coarse) shifts its two rows' ends opposite ways (game 75: 0.09 of a side)."""
    col = ink[:, max(int(round(x - h)), 0):int(round(x + h)) + 1]
    profile = np.maximum(float_mean(col, 1), 0.0)  # (``np.clip(..., 0.0, None)``: numpy 2's ``_clip``)
    n = len(profile)
    ys = _rows(n)
    reach = ALIGN_REACH * per
    at = c
    for _ in range(2):
        # the rows within ``reach`` of ``at``: ``abs(ys - at) <= reach`` taken as numpy takes it, row by row
        # (rounding is monotone: they run unbroken), as a slice (the same values, summed alike)
        lo = min(max(math.ceil(at - reach), 0), n)
        while lo > 0 and abs((lo - 1) - at) <= reach:
            lo -= 1
        while lo < n and not abs(lo - at) <= reach:
            lo += 1
        hi = lo
        while hi < n and abs(hi - at) <= reach:
            hi += 1
        w = profile[lo:hi]
        weight = w.sum()
        if float(weight) <= 0.0:
            return c
        # (``np.clip`` of the one value: its bounds are in order, the value a number)
        at = min(max(float((ys[lo:hi] * w).sum() / weight), c - ALIGN * per), c + ALIGN * per)
    return at


@lru_cache(maxsize=8)
def _rows(n: int) -> np.ndarray:
    """``np.arange(n, dtype=np.float64)``, made once (read only)."""
    ys = np.arange(n, dtype=np.float64)
    ys.flags.writeable = False
    return ys


def _bars(ink: np.ndarray, per: float, c: float) -> float:
    """``bar_six``'s confidence for bars standing up and down ``ink`` (the pips' shade off the
    body's, per pixel)."""
    h = max(HALF * per, 0.5)
    # across the bars: the mean ink of each column over the rows' length
    band = float_mean(ink[int(round(c - 0.3 * per)):int(round(c + 0.3 * per)) + 1, :], 0)
    bars = []
    for sign in (-1.0, 1.0):
        lo, hi = sorted((c + sign * ROW_RANGE[0] * per, c + sign * ROW_RANGE[1] * per))
        # (the columns ``lo`` to ``hi``, the first of the most inked: ``argmax`` of the same values in turn)
        x0, x1 = max(math.ceil(lo), 0), min(math.floor(hi), len(band) - 1)
        if x0 > x1:
            return 0.0
        bars.append(float(x0 + int(band[x0:x1 + 1].argmax())))
    gap = bars[1] - bars[0]
    if not (1.6 * ROW_RANGE[0] * per <= gap <= 2.2 * ROW * per):
        return 0.0  # the rows stand half the side apart (a little more when the outline was small)
    mid = (bars[0] + bars[1]) / 2.0
    # each bar inked at its ends and middle: the first sample under ``BAR_CONTRAST`` settles it (the
    # second bar's middle is not sought for a first bar uninked, issue 12: most faces are no six)
    ys: list[float] = []
    low = math.inf
    for x in bars:
        ys.append(_along_middle(ink, x, per, c, h))
        for t in ALONG:
            inked = _mean(ink, x, ys[-1] + t * per, h, h)
            if inked < BAR_CONTRAST:
                return 0.0
            low = min(low, inked)
    # the body's colour between the bars (no middle pip, no stroke) and beyond their ends
    y = (ys[0] + ys[1]) / 2.0
    between = max(_mean(ink, mid, y + t * per, h, h) for t in ALONG)
    # (the less inked end of each bar: a shadow or the rim may darken one; a stripe runs past both)
    beyond = max(min(_mean(ink, x, y + t * END * per, h, h * 0.5) for t in (-1.0, 1.0)) for x, y in zip(bars, ys))
    clear = max(between, beyond, 0.0)
    s = (low - clear) / max(low, 1e-6)  # 1: bars on a clean body; 0: as inked between as on them
    if s >= CLEAN:
        return READ
    return float(np.clip((s - 0.4) / (CLEAN - 0.4), 0.0, 1.0)) * MOST
