"""The checkers' colours where each slot lies: the board's lighting, as learnt at set-up.

A lamp's fall-off, a shadow or a band over part of the board makes a light checker there darker
than a dark checker elsewhere. On the real-like set (issue 9) a white and grey-pearl pair measured
255 and 213 grey levels on the top row and 185 and 132 on the bottom row of the same frame: against
one pair of colours for the whole board (``Calibration.light_bgr`` / ``dark_bgr``, their medians)
every checker of the bottom row was read dark and of the top row light, at 0.9 and more.

The board learnt at set-up (``Calibration.background``) shows each colour on the points its known
position fills (the start position, B3, puts both colours in every quarter of the field). Each
such point's first checker, against the median of its colour's, is how much light falls there;
between the points the light is interpolated (weights by inverse squared distance, softened within
``SOFTEN`` checker radii) and a slot's two checker colours are the learnt ones scaled by it. A
calibration that learnt no board keeps the two colours everywhere (``slot_colours`` gives them
back unchanged).

Each colour's own look (``colour_at``): every checker the known position stands, not only each
point's first, sampled in the set-up view and interpolated the same way, colour by colour and
channel by channel. A translucent broadcast band blends its own colour into what lies under it --
a white checker under a blue band turns bluish grey, a black one under a pink band mauve -- and
it may cover a stack's second checker and not its first: neither one brightness for both colours
nor the first checkers alone say that. Judged only by the pair scaled by the light, a checker
under a band measured 60-80 grey levels from either colour and its slot read empty at ~0.6, in
every frame of a still board (bench/RESULTS.md, stop 21).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tavli_pi.vision.background import BG_SCALE, decode_background
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.spot_slots import _spot_geometry

__all__ = ["SOFTEN", "LIGHT_RANGE", "STACK_SAMPLES", "OWN_SAMPLES", "light_at", "slot_colours", "colour_at"]

#: the interpolation's distances are softened by this many checker radii (a slot right on a sample
#: point takes mostly, not only, that point's light: one checker's patch is a noisy measure)
SOFTEN = 2.0
#: the light a place may have, against the colour's median (beyond it a sample is no checker's)
LIGHT_RANGE = (0.5, 2.0)
#: the checkers of a point sampled for their colour's own look: a stack's first five stand a
#: diameter apart (the start position's tallest); past them a stack may be squeezed
STACK_SAMPLES = 5
#: the fewest samples of a colour its own look is interpolated from (the start position gives
#: each colour 15, four points of it)
OWN_SAMPLES = 4


def _first_slots(lay: Layout, checker_r: float) -> tuple[np.ndarray, np.ndarray]:
    """(x, y, r) of each point's first checker in canonical pixels: (24, 3); and the layout's radius."""
    x, base, sign, r = _spot_geometry(lay, checker_r)
    xyr = np.stack([x[:24], base[:24] + sign[:24] * r[:24], r[:24]], axis=1).astype(np.float64)
    return xyr, r[:24].astype(np.float64)


def _patch_median(bg: np.ndarray, px: float, py: float, r: float) -> np.ndarray | None:
    """The median BGR of the stored set-up view ``bg`` (1/``BG_SCALE`` of the canonical image) over
    a checker's middle: the square reaching half its radius ``r`` (at least a pixel) round canonical
    place (``px``, ``py``); None where that square lies off the view."""
    cx, cy, half = px / BG_SCALE, py / BG_SCALE, max(1.0, 0.5 * r / BG_SCALE)
    patch = bg[max(0, int(cy - half)): int(cy + half) + 1, max(0, int(cx - half)): int(cx + half) + 1]
    if patch.size == 0:
        return None
    return np.asarray(np.median(patch.reshape(-1, 3), axis=0))


def _weights(places: np.ndarray, soft: float, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each of the samples at ``places`` (N, 2)'s weight at canonical places ``x``, ``y`` (any shape;
    the weights (..., N) sum to 1): by inverse squared distance, softened by ``soft`` pixels."""
    dx = np.asarray(x, np.float64)[..., None] - places[:, 0]
    dy = np.asarray(y, np.float64)[..., None] - places[:, 1]
    w = 1.0 / (dx * dx + dy * dy + soft * soft)
    return np.asarray(w / w.sum(axis=-1, keepdims=True))


def _light_model(cal: Calibration) -> tuple[np.ndarray, np.ndarray, float] | None:
    """((N, 2) places in canonical pixels, (N,) light there against the colour's median) from the
    board learnt at set-up, one per point its known position fills, and the interpolation's
    softening (canonical pixels); None when the calibration learnt no board, or a colour has no
    checker on the points."""
    if not cal.background:
        return None
    known = cal.learnt_from
    return _samples(cal.background, known, cal.layout, cal.checker_r)


@lru_cache(maxsize=8, typed=True)
def _samples(background: str, known: KnownBoard, lay: Layout, checker_r: float
             ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """``_light_model`` of a background, a known position and the geometry of the first slots,
    made once (a frame asks for it twice: issue 12)."""
    bg = decode_background(background)
    if bg is None:
        return None
    xyr, r = _first_slots(lay, checker_r)
    places: list[tuple[float, float]] = []
    light: list[float] = []
    for counts in (known.light, known.dark):
        lum, at = [], []
        for i in range(24):
            if not counts[i]:
                continue
            colour = _patch_median(bg, float(xyr[i, 0]), float(xyr[i, 1]), float(xyr[i, 2]))
            if colour is None:
                continue
            lum.append(float(colour.mean()))
            at.append((float(xyr[i, 0]), float(xyr[i, 1])))
        if not lum:
            return None
        mid = float(np.median(lum))
        if mid <= 1.0:
            return None
        for v, p in zip(lum, at):
            share = v / mid
            if LIGHT_RANGE[0] <= share <= LIGHT_RANGE[1]:
                places.append(p)
                light.append(share)
    if not light:
        return None
    out_places, out_light = np.asarray(places, np.float64), np.asarray(light, np.float64)
    out_places.setflags(write=False)
    out_light.setflags(write=False)
    return out_places, out_light, SOFTEN * float(np.median(r))


def light_at(cal: Calibration, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(the light at canonical places ``x``, ``y`` (any shape) against each colour's median, how
    unsure it is: the spread of the samples around it, by the same weights), or None when the
    calibration learnt no board (see ``_light_model``)."""
    got = _light_model(cal)
    if got is None:
        return None
    places, light, soft = got
    w = _weights(places, soft, x, y)
    at = (w * light).sum(axis=-1)
    spread = np.sqrt((w * (light - at[..., None]) ** 2).sum(axis=-1))
    return at, spread


Colour = np.ndarray | tuple[float, float, float]


def slot_colours(cal: Calibration, x: np.ndarray, y: np.ndarray) -> tuple[Colour, Colour, np.ndarray | float]:
    """The light and the dark checker's colour at canonical places (``x``, ``y``), and how unsure
    they are (``checkers.p_light``'s ``blur``, BGR units): the learnt colours scaled by the light
    there ((..., 3) arrays), and the spread of the light around it times the learnt light colour's
    size (where the light changes fast between the samples, a checker's colour says less); the
    learnt colours themselves (tuples) and no blur when the calibration learnt no board."""
    got = light_at(cal, x, y)
    if got is None:
        return cal.light_bgr, cal.dark_bgr, 0.0
    f, spread = got
    g = f[..., None].astype(np.float32)
    light = np.asarray(cal.light_bgr, np.float32)
    blur = (spread * float(np.linalg.norm(light))).astype(np.float32)
    return light * g, np.asarray(cal.dark_bgr, np.float32) * g, blur


def colour_at(cal: Calibration, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(the light, the dark checker's own look at canonical places ``x``, ``y``: (..., 3) float32
    BGR): each colour's checkers of the known position as the set-up view shows them, interpolated
    by inverse squared distance (softened as ``light_at``'s); None when the calibration learnt no
    board or a colour has fewer than ``OWN_SAMPLES`` samples."""
    if not cal.background:
        return None
    known = cal.learnt_from
    got = _own_samples(cal.background, known, cal.layout, cal.checker_r)
    if got is None:
        return None
    soft, light, dark = got
    out = [(_weights(places, soft, x, y) @ colours).astype(np.float32) for places, colours in (light, dark)]
    return out[0], out[1]


@lru_cache(maxsize=8, typed=True)
def _own_samples(background: str, known: KnownBoard, lay: Layout, checker_r: float
                 ) -> tuple[float, tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None:
    """``colour_at``'s samples, made once a calibration: the softening (canonical pixels) and, per
    colour (light, dark), the places (N, 2) and BGR colours (N, 3) of the known position's checkers
    (up to ``STACK_SAMPLES`` a point) whose brightness is within ``LIGHT_RANGE`` of that colour's
    median."""
    bg = decode_background(background)
    if bg is None:
        return None
    x, base, sign, r = _spot_geometry(lay, checker_r)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    for counts in (known.light, known.dark):
        at: list[tuple[float, float]] = []
        colours: list[np.ndarray] = []
        for i in range(24):
            for k in range(min(int(counts[i]), STACK_SAMPLES)):
                px, py = float(x[i]), float(base[i] + sign[i] * r[i] * (1 + 2 * k))  # touching checkers
                colour = _patch_median(bg, px, py, float(r[i]))
                if colour is not None:
                    at.append((px, py))
                    colours.append(colour.astype(np.float64))
        if not colours:
            return None
        lum = np.asarray([c.mean() for c in colours])
        mid = float(np.median(lum))
        keep = (lum >= LIGHT_RANGE[0] * mid) & (lum <= LIGHT_RANGE[1] * mid)
        if mid <= 1.0 or int(keep.sum()) < OWN_SAMPLES:
            return None
        places, cols = np.asarray(at, np.float64)[keep], np.asarray(colours, np.float64)[keep]
        places.setflags(write=False)
        cols.setflags(write=False)
        out.append((places, cols))
    return SOFTEN * float(np.median(r[:24])), out[0], out[1]
