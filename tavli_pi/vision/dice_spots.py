"""Pip spots: the small round marks, brighter or darker than their surroundings, that every die
shows (``find_spots``), and the same made again only where a frame changed (``view_spots``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from tavli_pi.vision.components import components
from tavli_pi.vision.dice_memo import Box, DiceMemo, Rect
from tavli_pi.vision.quantile import float_mean
from tavli_pi.vision.sparse import nonzero_xy

__all__ = ["PIP_RING", "ROW_REACH", "SPOT_CONTRAST", "SPOT_REACH", "Spot", "find_spots", "view_spots"]

Spot = tuple[float, float, bool]  # (x, y, bright)

#: grey levels a pip must stand out from its surroundings (canonical image)
SPOT_CONTRAST = 34


def find_spots(gray: np.ndarray, contrast: int = SPOT_CONTRAST, rows: bool = False) -> list[Spot]:
    """Small round marks (pips) in a grey image: (x, y, bright).

    Peaks of a 5x5 top-hat (bright) or black-hat (dark) that are ringed all
    round, 3 px out, by an even band at least a third of ``contrast`` away
    from the peak (pips on a body; not corners, rims or the tips of points).
    With ``rows``, also pips that all but touch in a row, ringed but for their neighbours
    (``_ringed_in_row``; the canonical view's search).
    """
    return spots_of_flags(_peak_flags(gray, contrast, rows))


#: the flags of ``_peak_flags``: a bright peak, a dark peak
_BRIGHT, _DARK = 1, 2
#: how far from a pixel ``_peak_flags`` looks (the 5 x 5 opening's 4 px, the 3 x 3 maximum's 1,
#: the wide ring's 4)
SPOT_REACH = 5


def _peak_flags(gray: np.ndarray, contrast: int = SPOT_CONTRAST, rows: bool = False) -> np.ndarray:
    """Where ``find_spots`` finds a ringed peak, before near peaks are thinned to one: ``_BRIGHT``
    and ``_DARK`` flags per pixel (uint8, the shape of ``gray``). Each pixel's flags depend on the
    grey levels within ``SPOT_REACH`` of it (with ``rows``, ``ROW_REACH``) and on how far it lies
    from the image's edges."""
    h, w = gray.shape
    flags = np.zeros((h, w), np.uint8)
    if h < 10 or w < 10 or contrast >= 255:
        return flags  # (no hat of 8-bit grey levels stands out by more than 254)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    k3 = np.ones((3, 3), np.uint8)
    # (OpenCV's Scalar, a 4-tuple: typed Any, as the stubs of opencv-python-headless 5.0 do not list it)
    floor: Any = (float(contrast + 1), 0.0, 0.0, 0.0)
    flat = gray.reshape(-1)  # (a view: ``gray`` is contiguous; else a copy of the same pixels)
    opened = cv2.morphologyEx(gray, cv2.MORPH_OPEN, k)
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    hats: list[np.ndarray] = []
    peaks: list[np.ndarray] = []
    for bright in (True, False):
        # top-hat (bright) / black-hat (dark), then its local maxima above the contrast
        hats.append(cv2.subtract(gray, opened) if bright else cv2.subtract(closed, gray))
        # above the contrast and at its 3 x 3 maximum (never under it: the maximum takes the pixel
        # in): at least the greater of that maximum and contrast + 1, in one comparison (255 / 0)
        peaks.append(cv2.compare(hats[-1], cv2.max(cv2.dilate(hats[-1], k3), floor), cv2.CMP_GE))
    # the peaks of both shades, 4 px in, found in one walk of the view (raster order), then parted by
    # shade: each shade's in raster order, as a walk of its own would list them (issue 12); the view
    # walked whole with its 4 px border cleared (``nonzero_xy`` walks a contiguous view by words):
    # the points of the inner view's walk, in its order
    both = cv2.bitwise_or(peaks[0], peaks[1])
    both[:4], both[-4:], both[:, :4], both[:, -4:] = 0, 0, 0, 0
    nz_all = nonzero_xy(both)
    at_all = nz_all[:, 1].astype(np.intp) * w + nz_all[:, 0]
    for bright, hat, peak in zip((True, False), hats, peaks):
        mine = peak.reshape(-1)[at_all] > 0
        if not mine.any():
            continue
        xs, ys, at = nz_all[mine, 0], nz_all[mine, 1], at_all[mine]
        # (the samples round the peaks gathered by flat index, one index array a gather: the same
        # pixels as by row and column, every sample lying in the image -- the peaks 4 px in, the
        # rings at most 4 px out, the wide one only from 5 px in; issue 12)
        # the peak's 3 x 3 max (bright) or min (dark), as cv2.dilate / cv2.erode give it there (the
        # block gathered sample by sample, a row a sample: the max or min taken across its rows, peak by
        # peak, rather than along each peak's 9, a third of the cost; issue 12)
        block = flat[(_DY3 * w + _DX3).reshape(-1, 1) + at]
        core = (np.maximum.reduce(block, axis=0) if bright else np.minimum.reduce(block, axis=0)).astype(np.float32)
        ok = _ringed(flat, w, at, core, bright, contrast, PIP_RING)
        # a large, stark pip (a one's, white on red, near the camera) reaches the 3 px ring:
        # try one 4-5 px out
        stark = hat.reshape(-1)[at] >= 2 * contrast
        wide = ~ok & stark & (xs >= 5) & (ys >= 5) & (xs < w - 5) & (ys < h - 5)
        if wide.any():
            ok[wide] = _ringed(flat, w, at[wide], core[wide], bright, contrast, _RING_WIDE)
        # pips in a row that all but touch (a die turned 45 degrees, its pips on the diagonal): each
        # pip's ring runs into its neighbours; ringed where the neighbours are not
        rowed = (rows and bright) & ~ok & stark & (xs >= 5) & (ys >= 5) & (xs < w - 5) & (ys < h - 5)
        flags[ys[ok], xs[ok]] |= _BRIGHT if bright else _DARK
        if rowed.any():
            for cx, cy in _ringed_in_row(gray, hat, xs, ys, core, np.flatnonzero(rowed), bright, contrast):
                flags[cy, cx] |= _BRIGHT if bright else _DARK  # (at the pip's centre: its peak may lie off it)
    return flags


def spots_of_flags(flags: np.ndarray) -> list[Spot]:
    """The spots of ``_peak_flags``: bright then dark, each shade's peaks in raster order, a peak
    within 2 px (both ways) of one kept before it dropped."""
    out: list[Spot] = []
    if not cv2.countNonZero(flags):
        return out
    at = nonzero_xy(flags)  # in raster order
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


#: the share of the view the changed windows add up to from which ``view_spots`` makes the spots of
#: the whole view (canonical, fine) rather than of each window (``DiceMemo.patched``: the same flags):
#: a window's peaks are found in it grown by ``SPOT_REACH + 4`` all round, so small windows cost
#: several times their area. Where the two cost the same, by the windows' share (the median over a
#: stream's frames, each timed both ways): canonical 0.06-0.16, fine 0.13-0.45 on the demo and the
#: real-like games 100, 103, 104 (bench/RESULTS.md, stop 24)
SPOTS_WHOLE = (0.1, 0.2)


def view_spots(memo: DiceMemo | None, view: str, gray: np.ndarray, place: Callable[[Box], Box]) -> list[Spot]:
    """``find_spots(gray)`` (in the canonical view with ``rows``); with a memo, its peaks made again only where the frame changed
    (``DiceMemo.patched``; ``place``: canonical box to ``gray``'s pixels). The fine view's peaks
    reach a few pixels further (its pixels are sampled from the frame, not the canonical view)."""
    canonical = view == "canonical"
    if memo is None:
        return find_spots(gray, rows=canonical)
    h, w = gray.shape
    own = ROW_REACH if canonical else SPOT_REACH
    m = own + 4  # past the crop's own edge effects (its inner 4 px and the wide ring's 5)

    def part(r: Rect) -> np.ndarray:
        y0, y1, x0, x1 = r
        cy0, cx0 = max(0, y0 - m), max(0, x0 - m)
        got = _peak_flags(np.ascontiguousarray(gray[cy0:min(h, y1 + m), cx0:min(w, x1 + m)]), rows=canonical)
        return got[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

    reach = own + (0 if canonical else 4)
    return spots_of_flags(memo.patched(("spots", view, gray.shape), place, reach,
                                       lambda: _peak_flags(gray, rows=canonical), part,
                                  gray if canonical else None,
                                  whole_share=SPOTS_WHOLE[0] if canonical else SPOTS_WHOLE[1]))


#: peaks from which ``_ringed`` and ``_ringed_in_row`` first drop, all at once, the peaks that fail
#: early (below it, as in a small window of a changed frame, the pruning costs more than it saves)
PRUNE_FROM = 16


def _ringed(
    flat: np.ndarray,
    w: int,
    at: np.ndarray,
    core: np.ndarray,
    bright: bool,
    contrast: int,
    ring_at: list[tuple[int, int]],
) -> np.ndarray:
    """Which peaks are ringed by an even band at least a third of ``contrast`` away (``flat``: the
    grey image's pixels row by row, ``w`` wide; ``at``: the peaks' flat indices, each ring lying
    in the image).

    Every sample of the band must stand that far from the peak: the peaks one of a quarter of the
    samples fails (most of a JPEG camera's thousand or more) are left out before the whole ring is
    sampled (the same answer, issue 12). The samples are gathered a row a ring sample, a column a
    peak (``_even_bands``: each peak's minimum, maximum and mean taken across the rows, not along a
    short row each; a fifth of the cost on game 103's views, issue 12)."""
    ring_off = np.asarray([dy * w + dx for dx, dy in ring_at], np.intp)[:, None]
    if len(at) < PRUNE_FROM:
        return _even_bands(flat[ring_off + at].astype(np.float32), core, bright, contrast)
    probe = flat[ring_off[::4] + at].astype(np.float32)
    out: np.ndarray = np.minimum.reduce(_step(probe, core[None, :], bright), axis=0) >= BAND_AWAY * contrast
    if out.any():
        keep = np.flatnonzero(out)
        out[keep] = _even_bands(flat[ring_off + at[keep]].astype(np.float32), core[keep], bright, contrast)
    return out


#: the least a pip's ring stands from the pip, in the view's contrast (about a third of it)
BAND_AWAY = 0.35


def _even_band(ring: np.ndarray, core: np.ndarray, bright: bool, contrast: int) -> np.ndarray:
    """Per row of ``ring`` (a peak's ring samples; ``core``: each peak's level), whether the ring is
    an even band at least ``BAND_AWAY`` of ``contrast`` away from the peak."""
    step = _step(ring, core[:, None], bright)
    res: np.ndarray = (step.min(axis=1) >= BAND_AWAY * contrast) & (np.ptp(ring, axis=1) < 0.6 * float_mean(step, 1) + 12)
    return res


def _even_bands(ring: np.ndarray, core: np.ndarray, bright: bool, contrast: int) -> np.ndarray:
    """``_even_band`` of ``ring`` laid a column a peak (a row a ring sample): the same answers, to the
    bit. Each sample and ``core`` are whole grey levels (float32, 0-255), so each step is one too,
    the range of the ring is that of its steps, and a ring's sum of steps is the same whole number
    (under 2 ** 24) in whatever order it is added: the mean of the steps (``float_mean``: the sum,
    then over the count in place) is ``_even_band``'s (tests/vision/test_dice_spots.py)."""
    step = _step(ring, core[None, :], bright)
    lo, hi = np.minimum.reduce(step, axis=0), np.maximum.reduce(step, axis=0)
    res: np.ndarray = (lo >= BAND_AWAY * contrast) & (hi - lo < 0.6 * float_mean(step, 0) + 12)
    return res


def _step(ring: np.ndarray, core: np.ndarray, bright: bool) -> np.ndarray:
    """How far each ring sample stands from its peak's level ``core`` (shaped to broadcast against
    ``ring``), towards the ground."""
    step: np.ndarray = (core - ring) if bright else (ring - core)
    return step

#: a pip's neighbour in a row lies this far from it (px between the two pips' centres: pips of
#: 4-5 px with 1-2 px between them)
ROW_NEAR = (4.0, 8.5)
#: a pip is the part of the hat over this share of its peak round it: a neighbour is another such
#: part (parted from it by a dip under this share) ...
ROW_PARTED = 0.35
#: ... standing out as much, within this share of the peak's hat, and about as large
ROW_LIKE = 0.6
#: the most pixels a pip of a row covers over ``ROW_PARTED`` of its peak (a 5 x 5 hat's pips)
ROW_AREA = 30
#: ring samples within this angle (radians) of a neighbour's direction are left out of the ring
ROW_SECTOR = np.pi / 5
#: the most neighbours a pip in a row has (one either side)
ROW_MOST = 2
#: a row of pips with another beside it, this many of its spacings away across it, is a six's
#: (whose rows stand twice the pips' spacing apart): left to the bars that read a six
ROW_BESIDE = (1.4, 2.6)
#: how far round a peak its pip, its neighbours and a row beside it are looked at (px)
_ROW_HALF = 18
#: how far from a pixel ``_peak_flags`` with ``rows`` looks: ``_ROW_HALF`` and the opening's 4 px
#: beyond it (the pip's flag set at its centre, within a pixel or two of its peak)
ROW_REACH = _ROW_HALF + 6


def _ringed_in_row(
    gray: np.ndarray,
    hat: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    core: np.ndarray,
    which: np.ndarray,
    bright: bool,
    contrast: int,
) -> list[tuple[int, int]]:
    """The centres (x, y px) of the peaks ``which`` (indices into ``xs``, ``ys``: hat peaks) are pips ringed once the
    ring's samples towards a neighbouring pip are left out. The pip is the hat over ``ROW_PARTED`` of
    its peak round it (at most ``ROW_AREA`` px), its ring laid round its centre; a neighbour is
    another such part ``ROW_NEAR`` away that stands out as much (``ROW_LIKE``) and is about as
    large: at most ``ROW_MOST`` of them, on opposite sides (a row), and the rest of the ring (at
    least half of it) even and a third of ``contrast`` away, as ``_ringed`` asks."""
    out: list[tuple[int, int]] = []
    h, w = gray.shape
    r = _ROW_HALF
    if len(which) >= PRUNE_FROM:
        which = which[_one_pip(hat, xs[which], ys[which])]
    if len(which) >= NEIGHBOURS_FROM:
        which = which[_may_neighbours(hat, xs[which], ys[which])]
    for i in which.tolist():
        x, y = int(xs[i]), int(ys[i])
        hi = float(hat[y, x])
        y0, x0 = max(0, y - r), max(0, x - r)
        part = hat[y0:min(h, y + r + 1), x0:min(w, x + r + 1)]
        n, lab, stats, cents = components((part >= ROW_PARTED * hi).astype(np.uint8))
        own = int(lab[y - y0, x - x0])
        area = int(stats[own, cv2.CC_STAT_AREA])
        if area > ROW_AREA or max(stats[own, cv2.CC_STAT_WIDTH], stats[own, cv2.CC_STAT_HEIGHT]) > _PIP_WIDE:
            continue  # a bar or a stroke, not one pip
        cx, cy = float(cents[own, 0]), float(cents[own, 1])
        if not _may_neighbour(stats, cents, own, area, cx, cy):
            continue  # no part of the right size and distance: no neighbour, whatever its hat (issue 12)
        dirs: list[float] = []
        gaps: list[float] = []
        strong: list[int] = []  # other marks standing out as much, whatever their size
        for j in range(1, n):
            if j == own:
                continue
            top = float(part[lab == j].max())
            if not (ROW_LIKE * hi <= top <= hi / ROW_LIKE):
                continue
            strong.append(j)
            d = float(np.hypot(cents[j, 0] - cx, cents[j, 1] - cy))
            aj = int(stats[j, cv2.CC_STAT_AREA])
            if not (ROW_NEAR[0] <= d <= ROW_NEAR[1]) or not (0.5 * area <= aj <= 2 * area):
                continue
            dirs.append(float(np.arctan2(cents[j, 1] - cy, cents[j, 0] - cx)))
            gaps.append(d)
        if not dirs or len(dirs) > ROW_MOST:
            continue
        if len(dirs) == 2 and abs(_turn(dirs[0] - dirs[1])) < np.pi - ROW_SECTOR:
            continue  # not a row
        # a six's row: the other row beside it, twice the pips' spacing away across the row
        ux, uy, gap = np.cos(dirs[0]), np.sin(dirs[0]), float(np.mean(gaps))
        if any(ROW_BESIDE[0] * gap <= abs((cents[j, 0] - cx) * -uy + (cents[j, 1] - cy) * ux) <= ROW_BESIDE[1] * gap
               and abs((cents[j, 0] - cx) * ux + (cents[j, 1] - cy) * uy) <= 0.6 * gap for j in strong):
            continue
        keep = np.ones(len(_RING_ANGLES), bool)
        for b in dirs:
            keep &= np.abs(_turn(_RING_ANGLES - b)) >= ROW_SECTOR
        if keep.sum() * 2 < len(keep):
            continue
        px = np.rint(x0 + cx + 3.2 * np.cos(_RING_ANGLES[keep])).astype(np.intp)
        py = np.rint(y0 + cy + 3.2 * np.sin(_RING_ANGLES[keep])).astype(np.intp)
        if px.min() < 0 or py.min() < 0 or px.max() >= w or py.max() >= h:
            continue
        if _even_band(gray[py, px].astype(np.float32)[None, :], core[i:i + 1], bright, contrast)[0]:
            out.append((int(round(x0 + cx)), int(round(y0 + cy))))
    return out


#: the slack (px) of ``_may_neighbour``'s distance test, far above any difference of rounding between
#: numpy's vectorised and scalar ``hypot`` of float64 steps under 40 px
_NEAR_SLACK = 1e-6


def _may_neighbour(stats: np.ndarray, cents: np.ndarray, own: int, area: int, cx: float, cy: float) -> bool:
    """Whether any part of ``components``' labelling but ``own`` (and the background) may be a row
    neighbour of ``_ringed_in_row``'s pip at (cx, cy) of ``area`` px: as large (0.5-2 times its area,
    integers, exact) and ``ROW_NEAR`` away (within ``_NEAR_SLACK``). ``_ringed_in_row`` takes a part as a
    neighbour only when it passes both tests (as well as its hat's), and a pip with none is never
    ringed in a row: where this is False, its test of each part's hat (a pass over the window a part)
    cannot change the outcome. On game 103's JPEG frames most pips of a row's search stop here."""
    if len(stats) <= 2:
        return False  # the background and ``own`` only
    aj = stats[1:, cv2.CC_STAT_AREA]
    d = np.hypot(cents[1:, 0] - cx, cents[1:, 1] - cy)
    ok = (0.5 * area <= aj) & (aj <= 2 * area) & (d >= ROW_NEAR[0] - _NEAR_SLACK) & (d <= ROW_NEAR[1] + _NEAR_SLACK)
    ok[own - 1] = False
    return bool(ok.any())


#: the widest a pip of a row is (px, either way); a window this far round a peak holds its pip whole
_PIP_WIDE = 7


def _one_pip(hat: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which peaks (x, y px) of ``hat`` may be one pip of a row for ``_ringed_in_row``: their part of
    the hat (over ``ROW_PARTED`` of the peak, 8-connected to it) covers at most ``ROW_AREA`` px and at
    most ``_PIP_WIDE`` px either way -- exactly ``_ringed_in_row``'s own first test, made for all the
    peaks at once (on a JPEG camera's frame nine in ten of some 300 peaks fail it, issue 12).

    Each peak's part is labelled in a window ``_PIP_WIDE`` px round it (pixels outside the image
    unset), the windows laid side by side with an unset pixel between them, one labelling for all.
    A part that stays within ``_PIP_WIDE - 1`` px of its peak is the same in the window as in
    ``_ringed_in_row``'s larger one; one that reaches further reaches the window's edge (an
    8-connected path steps one pixel at a time) and is then at least ``_PIP_WIDE + 1`` px across
    there and here: not one pip either way."""
    n = len(xs)
    if not n:
        return np.zeros(0, bool)
    k = _PIP_WIDE
    side = 2 * k + 1
    lab, stats, _, oy, ox, _ = _parts_labelled(hat, xs, ys, k)
    own = stats[lab[oy + k, ox + k]]
    left, top = own[:, cv2.CC_STAT_LEFT], own[:, cv2.CC_STAT_TOP]
    wide, tall = own[:, cv2.CC_STAT_WIDTH], own[:, cv2.CC_STAT_HEIGHT]
    inside = (left > ox) & (top > oy) & (left + wide < ox + side) & (top + tall < oy + side)
    res: np.ndarray = inside & (own[:, cv2.CC_STAT_AREA] <= ROW_AREA) & (np.maximum(wide, tall) <= _PIP_WIDE)
    return res


def _parts_labelled(hat: np.ndarray, xs: np.ndarray, ys: np.ndarray, k: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Each peak's part of the hat (over ``ROW_PARTED`` of the peak) in the window ``k`` px round it
    (pixels outside the image unset), the windows laid side by side with an unset pixel between them
    and labelled at once (8-connected: a window's components are those of the window alone, the
    same pixels): the labels, their stats and centroids (in the mosaic's pixels), each window's
    top-left corner in the mosaic (rows, columns) and the windows a row of the mosaic."""
    n = len(xs)
    side = 2 * k + 1
    padded = cv2.copyMakeBorder(hat, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    # (each peak's window, the padded image's ``side`` x ``side`` square from (x, y): gathered from a
    # view of every such square, one index a peak -- the same pixels as by row and column, a third
    # of the cost, issue 12)
    wins = np.lib.stride_tricks.sliding_window_view(padded, (side, side))[ys, xs]
    hi = hat[ys, xs].astype(np.float64)
    parts = (wins >= (ROW_PARTED * hi)[:, None, None]).astype(np.uint8)
    cols = int(np.ceil(np.sqrt(n)))
    rows = -(-n // cols)
    tiles = np.zeros((rows * cols, side + 1, side + 1), np.uint8)
    tiles[:n, :side, :side] = parts
    mosaic = np.ascontiguousarray(tiles.reshape(rows, cols, side + 1, side + 1).transpose(0, 2, 1, 3)
                                  .reshape(rows * (side + 1), cols * (side + 1)))
    _, lab, stats, cents = components(mosaic)
    ty, tx = np.divmod(np.arange(n), cols)
    return lab, stats, cents, ty * (side + 1), tx * (side + 1), cols


#: from this many peaks left after ``_one_pip`` on, ``_ringed_in_row`` drops at once the ones
#: ``_may_neighbours`` says have no neighbour (one labelling of them all, ~0.12 ms and ~6 us a peak on
#: game 103's canonical view, against ~20 us a peak labelled alone)
NEIGHBOURS_FROM = 10


def _may_neighbours(hat: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Which peaks (x, y px) of ``hat`` pass ``_ringed_in_row``'s first two tests, made for all the
    peaks at once (issue 12: on a JPEG camera's frame some 20 peaks a view pass ``_one_pip`` and one
    of them these): its pip (the peak's part of the hat in the window ``_ROW_HALF`` px round it) is
    one pip (``ROW_AREA``, ``_PIP_WIDE``) and some other part of the window may be its neighbour
    (``_may_neighbour``). The windows are labelled in one mosaic (``_parts_labelled``): each part's
    pixels, area and size are its own in the window alone; its centroid is its own moved by its
    window's corner, so the distances between two parts of a window are theirs but for rounding far
    under ``_NEAR_SLACK``. A peak dropped here is one ``_ringed_in_row`` drops by those tests
    (tests/vision/test_dice_spots.py)."""
    n = len(xs)
    if not n:
        return np.zeros(0, bool)
    r = _ROW_HALF
    lab, stats, cents, oy, ox, cols = _parts_labelled(hat, xs, ys, r)
    own = lab[oy + r, ox + r].astype(np.intp)  # each window's pip (never the background: its peak is set)
    area = stats[own, cv2.CC_STAT_AREA]
    one = (area <= ROW_AREA) & (np.maximum(stats[own, cv2.CC_STAT_WIDTH], stats[own, cv2.CC_STAT_HEIGHT]) <= _PIP_WIDE)
    # every other part, with the window it lies in (a part lies in one window: unset pixels between them)
    step = 2 * r + 2
    parts = np.arange(1, len(stats))
    tile = (stats[parts, cv2.CC_STAT_TOP] // step) * cols + stats[parts, cv2.CC_STAT_LEFT] // step
    aj, a = stats[parts, cv2.CC_STAT_AREA], area[tile]
    d = np.hypot(cents[parts, 0] - cents[own[tile], 0], cents[parts, 1] - cents[own[tile], 1])
    ok = ((0.5 * a <= aj) & (aj <= 2 * a) & (d >= ROW_NEAR[0] - _NEAR_SLACK) & (d <= ROW_NEAR[1] + _NEAR_SLACK)
          & (parts != own[tile]))
    near = np.bincount(tile[ok], minlength=n)[:n] > 0
    res: np.ndarray = one & near
    return res


def _turn(a: np.ndarray | float) -> np.ndarray:
    """Angles (radians) brought into -pi..pi."""
    return np.asarray(np.angle(np.exp(1j * np.asarray(a))))


#: the offsets of a 3 x 3 neighbourhood
_DY3, _DX3 = (a.ravel()[None, :] for a in np.mgrid[-1:2, -1:2])

#: the ring a pip is ringed by (3.2 px out, 12 samples: x, y offsets)
PIP_RING = [
    (int(round(3.2 * np.cos(t))), int(round(3.2 * np.sin(t))))
    for t in np.linspace(0, 2 * np.pi, 12, endpoint=False)
]
_RING_WIDE = [
    (int(round(4.4 * np.cos(t))), int(round(4.4 * np.sin(t))))
    for t in np.linspace(0, 2 * np.pi, 16, endpoint=False)
]
#: the angles of ``PIP_RING``'s samples
_RING_ANGLES = np.linspace(0, 2 * np.pi, 12, endpoint=False)
