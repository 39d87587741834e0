"""A checker come onto a point empty at set-up whose body is the point's own colour (dark on dark).

On a board whose dark checkers are the colour of its dark points (real-like rosewood, metal), a lone
dark checker on an empty dark point barely changes the point where the set-up slot model looks: its
body over the middle of the slot is the paint's colour, it rings faintly or not at all, and the model
held it as the empty slot it was at set-up (real-like game 19, rosewood at 640 px: blots on points 2
and 22 read empty at 0.87-0.95 on most frames). What tells it is its rim, a band round the body a
little lighter than the paint: the change from the set-up view over the slot's outer band
(``RIM_INNER`` to 1 radius, its quarters but the most changed: a rim changes it all round) was 8-10 grey
levels on such a blot, 2-6 on the empty dark points.

How large that change is for a checker, and how large for no checker, is this board's own, learnt at
set-up and on the frame: a checker of the colour on a point of the same paint (every other point)
against the nearest empty point of that paint beside it, in the learnt board (``learn``: the contrast
``checker``, which holds the two places' own grain ``grain`` too, measured between two empty points of
that paint); and on the frame, the change over the same band at the first slots of that paint's points
empty at set-up (``noise``: most of them are still empty; their median and spread). A checker arrived
shows ``sqrt((checker^2 - grain^2) + noise^2)``; an empty slot ``noise``. The slot's change is weighed
between the two in log units (``arrived_probability``), by the spread the empty slots show this frame.

Only a slot that looks like that colour's checker and whose paint, as learnt, is nearer that colour
than the other's is weighed (a light checker on any point, a dark one on a light point, change the
slot's colour and the model reads them), and only the likelier reading is kept (the slot is lifted,
never lowered). In ``stacks`` only a first slot whose middle the model weighs as still at all
(``setup_slots.FAINT_STILL``: a hand or a sleeve over the point changes it more), whose first disc is no
larger than a checker (a dice cup's rim rings all round too), is weighed; the rim lifts it only where
it reads a checker there, likelier than not (``setup_slots.FAINT_LEAST``: under that it reads the slot empty
too), and no higher than ``setup_slots.FAINT_MOST``.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from tavli_pi.vision.quantile import mean_of

__all__ = ["RIM_INNER", "FaintLook", "rim_change", "learn", "noise_level", "arrived_probability"]

#: the slot's outer band, where a checker's rim lies: from this share of its radius to its edge
RIM_INNER = 0.6


class FaintLook(NamedTuple):
    """What the learnt board says of a colour's checker on one paint."""

    checker: float  # the band's change, a set-up checker against the empty point beside it
    grain: float  # the band's change between two empty points of the paint at set-up


def rim_change(image: np.ndarray, x: np.ndarray, y: np.ndarray, r: np.ndarray,
               other: np.ndarray | None = None, shift: np.ndarray | None = None) -> np.ndarray:
    """Per place (``x``, ``y``, radius ``r``, on ``image``'s grid): over the band from ``RIM_INNER`` r to
    r, the mean of its four quarters' (left, right, above, below) means but the largest, of ``image``
    (H, W) -- a change per pixel -- or, with ``other`` (H, W, 3) and ``image`` (H, W, 3), of the largest
    channel difference between ``image`` there and ``other`` ``shift`` px to the right. A checker's rim
    changes the band all round; a die lying beside the slot, a shadow's edge or a stack's next checker
    change part of it only. NaN where the band runs off the grid."""
    h, w = image.shape[:2]
    out = np.full(len(x), np.nan)
    dx = np.zeros(len(x)) if shift is None else np.asarray(shift, np.float64)
    for n, (cx, cy, cr, s) in enumerate(zip(np.asarray(x, float), np.asarray(y, float), np.asarray(r, float), dx)):
        x0, x1 = int(np.floor(cx - cr)), int(np.ceil(cx + cr)) + 1
        y0, y1 = int(np.floor(cy - cr)), int(np.ceil(cy + cr)) + 1
        si = int(round(s))
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x0 + si < 0 or x1 + si > w:
            continue
        quarters = _band_quarters(float(cx), float(cy), float(cr))
        if quarters is None:
            continue
        if other is None:
            means = [image[ys, xs].astype(np.float64) for ys, xs in quarters]
        else:
            means = [np.abs(image[ys, xs].astype(np.float64) - other[ys, xs + si].astype(np.float64)).max(axis=-1)
                     for ys, xs in quarters]
        out[n] = mean_of(sorted(mean_of(m) for m in means)[:3])
    return out


#: places whose band quarters are kept (``_band_quarters``): a real-like game asks for 60-90 (the set-up
#: slots and the chains' first discs; games 19 and 103: 95 % of the asks found kept), a place some 4 kB
BAND_PLACES_KEPT = 1024


@functools.lru_cache(maxsize=BAND_PLACES_KEPT)
def _band_quarters(cx: float, cy: float, cr: float) -> tuple[tuple[np.ndarray, np.ndarray], ...] | None:
    """The pixels (rows, columns, on the grid, row by row) of each quarter (left, right, above, below)
    of the band from ``RIM_INNER`` ``cr`` to ``cr`` round (``cx``, ``cy``) that ``rim_change`` takes the
    means of; None when a quarter holds none. Kept per place (a slot's places recur frame after frame:
    issue 12); the arrays are read only."""
    x0, x1 = int(np.floor(cx - cr)), int(np.ceil(cx + cr)) + 1
    y0, y1 = int(np.floor(cy - cr)), int(np.ceil(cy + cr)) + 1
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = np.hypot(xx - cx, yy - cy)
    band = (d >= RIM_INNER * cr) & (d < cr)
    quarter = np.where(np.abs(xx - cx) >= np.abs(yy - cy), np.where(xx < cx, 0, 1), np.where(yy < cy, 2, 3))
    out = []
    for q in range(4):
        ys, xs = np.nonzero(band & (quarter == q))  # (row by row: the order a boolean mask takes them in)
        if not len(ys):
            return None
        ys, xs = ys + y0, xs + x0
        ys.flags.writeable = False
        xs.flags.writeable = False
        out.append((ys, xs))
    return tuple(out)


def learn(background: np.ndarray, x: np.ndarray, y: np.ndarray, r: np.ndarray, top: np.ndarray,
          held: np.ndarray) -> dict[tuple[int, int], FaintLook]:
    """Per (paint, colour) -- paint: the point's index modulo 2 (every other point is painted alike),
    colour +1 light, -1 dark -- the look a checker of that colour on that paint had on the learnt board
    ``background`` (H, W, 3, its grid): ``x``, ``y``, ``r`` (24,) each point's first slot and radius on
    that grid, ``top`` (24,) bool its row, ``held`` (24,) the colour the set-up put in that slot (0:
    empty). A pair with no set-up checker, or no empty point of that paint in the checker's row, is not
    learnt (absent)."""
    def beside(i: int) -> int | None:
        best: tuple[float, int] | None = None
        for j in range(i % 2, 24, 2):
            if j != i and held[j] == 0 and top[j] == top[i]:
                d = abs(float(x[j] - x[i]))
                if best is None or d < best[0]:
                    best = (d, j)
        return None if best is None else best[1]

    pairs = [(i, j) for i in range(24) if (j := beside(i)) is not None]
    if not pairs:
        return {}
    ii = np.asarray([i for i, _ in pairs])
    jj = np.asarray([j for _, j in pairs])
    change = rim_change(background, x[ii], y[ii], r[ii], background, x[jj] - x[ii])
    out: dict[tuple[int, int], FaintLook] = {}
    for paint in (0, 1):
        grain = [c for i, c in zip(ii, change) if i % 2 == paint and held[i] == 0 and np.isfinite(c)]
        if not grain:
            continue
        for colour in (1, -1):
            checker = [c for i, c in zip(ii, change) if i % 2 == paint and held[i] == colour and np.isfinite(c)]
            if checker:
                out[(paint, colour)] = FaintLook(float(np.median(checker)), float(np.median(grain)))
    return out


def noise_level(changes: np.ndarray) -> tuple[float, float] | None:
    """The band's change at empty slots this frame, from ``changes`` at the first slots of a paint's
    points empty at set-up (most still empty): the median and the spread (1.4826 x the median absolute
    deviation) of its log, or None with fewer than three."""
    v = np.log(np.asarray(changes, np.float64)[np.isfinite(changes)] + 1.0)
    if len(v) < 3:
        return None
    med = float(np.median(v))
    return med, 1.4826 * float(np.median(np.abs(v - med)))


def arrived_probability(change: float, noise: tuple[float, float], look: FaintLook) -> float | None:
    """P(a checker arrived) of a slot whose band changed ``change`` since set-up: in log units, between
    the empty slots' level (``noise``: log median and spread) and the level a checker of ``look`` shows
    over that noise, each spread alike. None where the two levels do not part: the band says nothing
    (a slot lifted to an even chance on no evidence made a board's count of another point surer and
    wrong: real-like frame 39, seed 0)."""
    level, spread = noise
    empty = float(np.exp(level)) - 1.0
    own = max(look.checker ** 2 - look.grain ** 2, 0.0)
    arrived = float(np.log(np.sqrt(own + empty ** 2) + 1.0))
    gap = arrived - level
    if gap <= 0.0 or spread <= 0.0 or not np.isfinite(change):
        return None
    z = gap / spread ** 2 * (float(np.log(change + 1.0)) - (level + arrived) / 2.0)
    return float(1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0))))
