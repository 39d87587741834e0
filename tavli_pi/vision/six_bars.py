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
from collections.abc import Iterator
from functools import lru_cache

import cv2
import numpy as np

from tavli_pi.vision.quantile import median

__all__ = ["BAR_CONTRAST", "CLEAN", "READ", "bar_six", "clean_bars"]

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


def clean_bars(crop: np.ndarray, span: float) -> bool:
    """Whether ``bar_six(crop, span) >= READ`` (clean bars), asked no further than the first clean pair:
    ``bar_six`` is ``READ`` exactly where one of its four looks (dark or light ink, bars up or across)
    is, every other look scoring ``MOST`` at most."""
    return any(score >= READ for score in _scores(crop, span))


def _scores(crop: np.ndarray, span: float) -> Iterator[float]:
    """``_bars``' confidence for each of ``bar_six``'s four looks at ``crop``, made as they are asked
    (none for a crop too small)."""
    if crop is None or crop.size == 0 or min(crop.shape[:2]) < 16:
        return
    g = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
    n = g.shape[0]
    per = n / span  # crop px per die side
    c = (n - 1) / 2.0
    inner = g[int(round(c - 0.4 * per)):int(round(c + 0.4 * per)) + 1,
              int(round(c - 0.4 * per)):int(round(c + 0.4 * per)) + 1]
    body = float(median(inner))  # (``quantile.median``: np.median's value, to the bit)
    for dark in (True, False):
        ink = (body - g) if dark else (g - body)
        for a in (ink, ink.T):  # bars up and down the crop, or across it
            yield _bars(a, per, c)


def _mean(a: np.ndarray, x: float, y: float, hx: float, hy: float) -> float:
    """The mean of ``a`` (floats) over the box ``x`` +- ``hx``, ``y`` +- ``hy`` (crop px; at least a pixel)."""
    x0, x1 = int(round(x - hx)), int(round(x + hx)) + 1
    y0, y1 = int(round(y - hy)), int(round(y + hy)) + 1
    part = a[max(y0, 0):max(y1, 1), max(x0, 0):max(x1, 1)]
    if not part.size:
        return 0.0
    # (``part.mean()`` to the bit without its dispatch, issue 12: numpy 2's ``_methods._mean`` sums with
    # ``add.reduce`` and divides the sum, a scalar of the array's type, by the count, an ``intp``: in
    # float64, cast back to the sum's type)
    total = np.add.reduce(part, axis=None)
    return float(total.dtype.type(float(total) / part.size))


def _means(a: np.ndarray, axis: int) -> np.ndarray:
    """``a.mean(axis=axis)`` of a float array, to the bit (``_methods._mean``: the sums divided by the
    count in place, cast unsafely back to their type)."""
    total = np.add.reduce(a, axis=axis)
    return np.asarray(np.true_divide(total, np.intp(a.shape[axis]), out=total, casting="unsafe"))


def _along_middle(ink: np.ndarray, x: float, per: float, c: float, h: float) -> float:
    """The middle of the bar at column ``x`` along its length (crop px): the centroid of its ink
    within ``ALIGN_REACH`` of it, sought within ``ALIGN`` of the crop's middle ``c``. Each bar is
    centred on its own: a die turned a few degrees from the crop (a small die's outline angle is
    coarse) shifts its two rows' ends opposite ways (game 75: 0.09 of a side)."""
    col = ink[:, max(int(round(x - h)), 0):int(round(x + h)) + 1]
    profile = np.maximum(_means(col, 1), 0.0)  # (``np.clip(..., 0.0, None)``: numpy 2's ``_clip``)
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
    band = _means(ink[int(round(c - 0.3 * per)):int(round(c + 0.3 * per)) + 1, :], 0)
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
