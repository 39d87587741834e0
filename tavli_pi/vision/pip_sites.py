"""A small die's face read a second way: the nine places a pip can lie, each pip there or not.

A die's pips lie on a 3 x 3 grid of places (corners, edge middles, centre) a quarter of its side
apart, and each value is one set of those places (a two and a three on either diagonal, a six in
either pair of opposite rows). Under ``dice_vet.NEED_PX`` the face reader (``pips``) finds pips
as blobs, and at 9-10 px a five's corner pips fall under its area floor and it reads a one (stop
24); the places do not need a pip to be a blob: each is sampled where it lies, and a value is
shown when every place of its set is darker (or lighter, on a dark die) than every place off it.

``site_value`` tries the die's centre a little off, its side a little larger or smaller, and its
turn every few degrees (the outline a small die is found with is rough), and gives the value whose
places stand out best, how clearly (the least contrast of a pip place over the most of an empty
one, a share of the face's contrast), and how far ahead of the next value. ``sites_agree``: the
face read by the pip finder is the one the places show, clearly: two views of the pips agree, the
proof ``dice_vet`` asks of a die under ``NEED_PX`` for its value to be kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.lie import square_crop

__all__ = ["CLEAR_SHARE", "CROP_PX", "CROP_SPAN", "LEAD_SHARE", "PlaceLooks", "SiteRead", "place_looks", "pose_grid", "site_value", "sites_agree"]

#: crop side (px) the die is resampled to, and the share of the die's side it spans
CROP_PX = 48
CROP_SPAN = 1.5
_N, _SPAN = CROP_PX, CROP_SPAN
#: a pip place's offset from the centre, in the die's side (dice: 0.24-0.3)
_OFFSETS = (0.22, 0.26, 0.30)
#: the die's centre tried this far off (die sides), in both directions
_SHIFTS = (-0.08, -0.04, 0.0, 0.04, 0.08)
#: turns tried (degrees; a face's places repeat every 90)
_TURNS = tuple(float(a) for a in range(0, 90, 6))

#: the values' sets of places, (row, column) in -1, 0, 1: each variant a value may show
_SETS: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    1: (frozenset({(0, 0)}),),
    2: (frozenset({(-1, -1), (1, 1)}), frozenset({(-1, 1), (1, -1)})),
    3: (frozenset({(-1, -1), (0, 0), (1, 1)}), frozenset({(-1, 1), (0, 0), (1, -1)})),
    4: (frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1)}),),
    5: (frozenset({(-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)}),),
    6: (frozenset({(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)}),
        frozenset({(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)})),
}
_PLACES = tuple((r, c) for r in (-1, 0, 1) for c in (-1, 0, 1))

#: the least margin of a value's pip places over its empty places, as a share of the face's
#: contrast, for the places to show that value clearly
CLEAR_SHARE = 0.3
#: ... and the least lead of that margin over the next value's (a share of the contrast). On the
#: recordings at 640x360 (seeds 0-3, 363 dice under ``NEED_PX``), the places showed a wrong value at
#: a lead of 0.36-0.5 ten times, never one the pip finder read too; a wrong value both read led by
#: 0.25 at most
LEAD_SHARE = 0.35


class SiteRead(NamedTuple):
    """The value the pip places show, how clearly (share of the face's contrast) and its lead."""

    value: int
    clear: float
    lead: float


@lru_cache(maxsize=1)
def _masks() -> tuple[np.ndarray, np.ndarray]:
    """Each value variant as a row of 9 on/off places, and the value of each row."""
    rows, values = [], []
    for v, sets in _SETS.items():
        for s in sets:
            rows.append([p in s for p in _PLACES])
            values.append(v)
    return np.asarray(rows, bool), np.asarray(values, np.int64)


@lru_cache(maxsize=None)
def pose_grid(places: tuple[tuple[float, float], ...], offsets: tuple[float, ...], turns: tuple[float, ...],
              shifts: tuple[float, ...]) -> np.ndarray:
    """The crop coordinates of ``places`` ((row, column) in pip offsets) for every pose tried: each pip
    offset (die sides), turn (degrees) and shift of the centre (die sides, in x and in y); (poses, places, 2)."""
    side = _N / _SPAN
    c = _N / 2.0
    grid = np.asarray(places, np.float64)[:, ::-1]  # (x, y) = (column, row)
    out = []
    for off in offsets:
        for a in turns:
            t = np.deg2rad(a)
            rot = np.asarray([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
            pts = grid @ rot.T * off * side
            for dx in shifts:
                for dy in shifts:
                    out.append(pts + (c + dx * side, c + dy * side))
    return np.asarray(out, np.float64)


class PlaceLooks(NamedTuple):
    """How like a pip each place looks at each pose (grey levels from the body's shade, towards the
    pips' side) and the face's contrast."""

    pip_like: np.ndarray  # (poses, places)
    contrast: float


def place_looks(gray: np.ndarray, poses: np.ndarray, dark: bool | None = None) -> PlaceLooks | None:
    """The places of ``poses`` (``pose_grid``) sampled in a face crop (``_N`` px square, the die's side
    ``1 / _SPAN`` of it, centred); ``dark``: whether the pips are darker than the body (None: the side
    the face's shades lean to). None when the face shows no contrast."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 0.07 * _N / _SPAN)
    side = _N / _SPAN
    yy, xx = np.mgrid[0:_N, 0:_N]
    face = (np.abs(xx - _N / 2) < 0.42 * side) & (np.abs(yy - _N / 2) < 0.42 * side)
    vals = gray.astype(np.float32)[face]
    lo, body, hi = np.percentile(vals, (3, 50, 97))
    if dark is None:
        dark = bool((body - lo) >= (hi - body))
    contrast = float(body - lo if dark else hi - body)
    if contrast < 1.0:
        return None
    x = np.clip(poses[..., 0], 0, _N - 1.001)
    y = np.clip(poses[..., 1], 0, _N - 1.001)
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = x - x0, y - y0
    s = (g[y0, x0] * (1 - fx) * (1 - fy) + g[y0, x0 + 1] * fx * (1 - fy)
         + g[y0 + 1, x0] * (1 - fx) * fy + g[y0 + 1, x0 + 1] * fx * fy)  # (poses, places)
    return PlaceLooks((body - s) if dark else (s - body), contrast)


def site_value(gray: np.ndarray) -> SiteRead:
    """The value the pip places of a face crop show (``_N`` px square, the die's side ``1 / _SPAN``
    of it, centred, any turn): ``SiteRead(0, 0, 0)`` when the face shows no contrast."""
    looks = place_looks(gray, pose_grid(_PLACES, _OFFSETS, _TURNS, _SHIFTS))
    if looks is None:
        return SiteRead(0, 0.0, 0.0)
    d, contrast = looks.pip_like, looks.contrast  # how much like a pip each place looks
    masks, values = _masks()
    on = np.where(masks[None, :, :], d[:, None, :], np.inf).min(axis=2)  # (poses, variants)
    off = np.where(~masks[None, :, :], d[:, None, :], -np.inf).max(axis=2)
    sep = (on - off).max(axis=0) / contrast  # best pose, each variant
    best = np.full(7, -np.inf)
    for v, sp in zip(values.tolist(), sep.tolist()):
        best[v] = max(best[v], sp)
    order = np.argsort(best[1:])[::-1] + 1
    v1, v2 = int(order[0]), int(order[1])
    return SiteRead(v1, float(best[v1]), float(best[v1] - best[v2]))


def face_crop(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float],
              side: float) -> np.ndarray:
    """The die's face in grey, ``_N`` px square, its side ``1 / _SPAN`` of the crop, square to the view."""
    crop = square_crop(src, to_src, centre, side * _SPAN / 2, _N)
    return crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)


def sites_agree(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float],
                side: float, value: int) -> bool:
    """Whether the pip places of the die at ``centre`` (canonical px, ``side`` its side) show
    ``value`` clearly (``CLEAR_SHARE``) and well ahead of any other value (``LEAD_SHARE``)."""
    r = site_value(face_crop(src, to_src, centre, side))
    return r.value == value and r.clear >= CLEAR_SHARE and r.lead >= LEAD_SHARE
