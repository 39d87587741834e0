"""The dice search's per-candidate readings, kept while the pixels they read stand unchanged.

Most of a changed frame's dice search (``dice.find_dice``) goes on reading
candidates: a face in a crop square to the die and its outline (``dice_face.look``),
whether the mark is one of a row of letters (``lettering.lettered``, over a
square five die lengths across), a blob's outline (``dice_blobs.blob_outline``),
the body round a group of pips (``dice_body.body``), some 25 ms of 40 on the demo.
Each is a pure function of its arguments and of the pixels it samples, and
each is kept on its own, so a change near a die that reaches only the wider
square of its lettering costs that verdict again, not its faces. ``DiceMemo`` keeps, per candidate (its exact arguments), the reading
and the pixels it sampled: every frame point the candidate's crops and
outlines mapped (``to_src``; a bilinear warp with replicated borders reads
only pixels within one of their bounding box), or the canonical box ``_body``
crops (in the fine view, ``fine_view.fine_view``: the frame's box under it, grown
by the two shrunk-frame pixels a fine pixel's area shrink and bilinear sample
reach). On the next frame a candidate asked with the same arguments gets the
kept reading when no quarter-scale pixel of that box (grown by
``incremental.KERNEL``) changed by more than ``REGION_CHANGE`` since it was
read -- the rule the incremental reader keeps a point's reading by
(vision/incremental.py). A box reaching outside the gate's view is never kept.

The whole-view steps of the search (the pip spots of ``dice_spots.find_spots``, the
hat images of ``tumbling.hat_blobs``, the fine view ``fine_view.fine_view`` warps
from the frame) are local: each output pixel depends on
the input pixels within a fixed reach of it. ``DiceMemo.patched`` keeps such
an output array whole and, on a new frame, recomputes it only over the
quarter-scale cells that changed by more than ``REGION_CHANGE`` since they were
last recomputed (grown by ``KERNEL`` and by the step's reach), copying the rest:
on a changed frame the search's morphology runs over the changed parts of the
board, not all of it (issue 12). Where those windows add up to a share of the
array (a JPEG camera's frame changes in scattered cells all over: some 150 windows
a frame at 640 px) the array is made whole once and the windows copied from it,
through one mask of them all -- the same pixels, at a fraction of the windows'
cost. The share is each kind of array's own (``whole_share``; ``WHOLE_SHARE``,
half, by default): a pip-spot or hat window is searched grown by its reach all
round, so it costs several times its area (a tenth to a fifth of the view), while
a window of the fine view is a plain remap (three quarters).

On a camera whose still frames differ (its block floor learnt and above 0, vision/noise_level.py)
JPEG block errors and sensor noise move some cell of nearly every candidate's box, and of the board
all over, past ``REGION_CHANGE`` on every frame: by that test the memo keeps 63 of 1,406 readings on
real-like game 103. ``start`` takes other tests (``candidates``, ``windows``: e.g. the camera's block
test, ``NoiseLevel.moved``), under which a reading or a window is kept while no block of its box moved
more than the camera's still frames do, against the view it was made from. The reader does not use
them (stop 43, bench/probe_dice_memo.py): kept so, a die first read unread as it landed stayed unread
while its settling moved no block past the camera's noise (real-like game 2: a 3 read at 0.9-0.98 by
full reads, unread on 5 frames), the dice differed from a full read's on 3 times as many frames (61
against 19 of 560 changed frames, 10 JPEG and noisy games; the full read right on 12 of them, the
kept one on 9), and over real-like games 0-99 the referee missed a planted play (game 38) and the
players entered 14 rolls more, for some 10 ms of a changed frame's 53 (game 103).

Where the frame's pixels under a candidate are the same, the reading is the
one a full read makes (tests/vision/test_incremental.py compares every
Observation, dice included). Where they moved by less than ``REGION_CHANGE``
(sensor noise), the search still runs over the whole frame, and a candidate
found with the very same arguments keeps its last reading: a die no change
touched keeps its value.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import cv2
import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.components import components
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.incremental import KERNEL, changed_pixels

__all__ = ["DiceMemo"]

T = TypeVar("T")
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
#: where a gate view moved from an earlier one (a bool mask on the gate's grid): ``changed_pixels``, or a
#: noisy camera's block test (``NoiseLevel.moved``)
ChangeTest = Callable[[np.ndarray, np.ndarray], np.ndarray]
Rect = tuple[int, int, int, int]  # y0, y1, x0, x1: a window of an array, in its own pixels
#: an entry nobody asked for in this many frames is forgotten
IDLE = 50
#: a patched array is made whole (and its windows copied from that) when its windows add up to this
#: share of its area or more: a window's own part costs 2-4 times as much a pixel as the whole (its
#: margins, the calls), and windows overlap (issue 12; ``DiceMemo.patched``). Each kind of array may
#: give its own (``whole_share``): the pip spots' and the hat images' windows cost far more a pixel
#: than their whole (their margins and morphology), the fine view's far less (a remap of its window)
WHOLE_SHARE = 0.5


@dataclass
class _Entry:
    value: Any
    grid: tuple[int, int, int, int]  # y0, y1, x0, x1 on the quarter-scale grid
    view: np.ndarray  # the gate view the reading was made in
    used: int  # the frame it was last asked for


@dataclass
class _Patched:
    value: np.ndarray  # the whole output array
    ref: np.ndarray  # per quarter-scale cell, the gate view's pixel its part of ``value`` was last made from
    edges: tuple[np.ndarray, np.ndarray] | None  # the canonical input's columns and rows off the gate's grid


class _Recorder:
    """``to_src`` that also keeps the bounding box of every point it maps."""

    def __init__(self, to_src: Callable[[np.ndarray], np.ndarray]) -> None:
        self._to_src = to_src
        self.box: Box | None = None

    def __call__(self, pts: np.ndarray) -> np.ndarray:
        out = self._to_src(pts)
        q = np.asarray(out, np.float64).reshape(-1, 2)
        b = (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))
        self.box = b if self.box is None else (min(self.box[0], b[0]), min(self.box[1], b[1]),
                                               max(self.box[2], b[2]), max(self.box[3], b[3]))
        return out


class DiceMemo:
    """``memo.start(view)`` each frame (its ``GateView``), then ``memo.sampled(key, to_src, read)``
    or ``memo.cropped(key, box, read)`` per candidate. ``hits`` and ``misses`` count the asks, and
    ``kept`` and ``made`` the same per kind of reading (a key's first item)."""

    def __init__(self, cal: Calibration) -> None:
        self._cal = cal
        w, h = cal.layout.size
        self._grid_size = (h // SCALE, w // SCALE)
        self._entries: dict[Hashable, _Entry] = {}
        self._patched: dict[Hashable, _Patched] = {}
        self._fixed: dict[Hashable, Any] = {}
        #: this frame's groups of changed cells (x, y, w, h on the grid) by the changed cells' mask:
        #: the patched arrays' last views are mostly alike, so their masks are too
        self._cells: dict[bytes, np.ndarray] = {}
        #: this frame's cells changed since a patched array's last view, and that view brought up to
        #: date, by the last view's id (with the view, so the id stays its own): the arrays patched
        #: in the same frames share one last view, so each frame compares it once
        self._moved: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._view: np.ndarray | None = None
        #: this frame's test of where the view moved since a patched array's last view
        self._windows: ChangeTest = changed_pixels
        self._frame = 0
        self.hits = 0
        self.misses = 0
        self.kept: Counter[Hashable] = Counter()
        self.made: Counter[Hashable] = Counter()

    def start(self, view: np.ndarray, candidates: ChangeTest | None = None,
              windows: ChangeTest | None = None) -> None:
        """A new frame: forget the readings whose pixels changed since they were made (``candidates``
        tells where the view moved from the one a reading was made in; ``windows`` likewise where a
        patched array's windows are made again: by default every pixel's own change, ``changed_pixels``)."""
        self._frame += 1
        self._view = view
        self._windows = windows if windows is not None else changed_pixels
        test = candidates if candidates is not None else changed_pixels
        self._cells = {}
        self._moved = {}
        masks: dict[int, np.ndarray] = {}
        keep: dict[Hashable, _Entry] = {}
        for key, e in self._entries.items():
            if self._frame - e.used > IDLE or e.view.shape != view.shape:
                continue
            moved = masks.get(id(e.view))
            if moved is None:
                moved = masks[id(e.view)] = test(view, e.view)
            y0, y1, x0, x1 = e.grid
            if not moved[y0:y1, x0:x1].any():
                keep[key] = e
        self._entries = keep

    def fixed(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()`` the first time ``key`` is asked for, then the same value: for what depends on the
        calibration and the frame's size alone (kept through ``forget``)."""
        if key not in self._fixed:
            self._fixed[key] = make()
        return self._fixed[key]  # type: ignore[no-any-return]

    def forget(self) -> None:
        self._entries = {}
        self._patched = {}
        self._view = None

    def _get(self, key: Hashable) -> tuple[bool, Any]:
        e = self._entries.get(key) if self._view is not None else None
        kind = key[0] if isinstance(key, tuple) and key else key
        if e is None:
            self.misses += 1
            self.made[kind] += 1
            return False, None
        e.used = self._frame
        self.hits += 1
        self.kept[kind] += 1
        return True, e.value

    def _put(self, key: Hashable, value: Any, canonical: Box | None) -> None:
        if canonical is None or self._view is None:
            return
        grid = self._grid(canonical)
        if grid is not None:
            self._entries[key] = _Entry(value, grid, self._view, self._frame)

    def _grid(self, b: Box) -> tuple[int, int, int, int] | None:
        """The quarter-scale cells whose change can reach canonical box ``b``, or None when they
        run off the gate's view (a change there would go unseen)."""
        gh, gw = self._grid_size
        gx0, gy0 = int(np.floor((b[0] - KERNEL) / SCALE)), int(np.floor((b[1] - KERNEL) / SCALE))
        gx1, gy1 = int(np.floor((b[2] + KERNEL) / SCALE)) + 1, int(np.floor((b[3] + KERNEL) / SCALE)) + 1
        if gx0 < 0 or gy0 < 0 or gx1 > gw or gy1 > gh:
            return None
        return gy0, gy1, gx0, gx1

    def sampled(self, key: Hashable, to_src: Callable[[np.ndarray], np.ndarray],
                read: Callable[[Callable[[np.ndarray], np.ndarray]], T]) -> T:
        """``read(to_src)``, or its kept value: ``read`` samples the frame only where ``to_src``
        maps (frame pixels)."""
        found, value = self._get(key)
        if found:
            return value  # type: ignore[no-any-return]
        rec = _Recorder(to_src)
        out = read(rec)
        if rec.box is not None:
            self._put(key, out, self._canonical(rec.box, 1.0))  # a bilinear sample reads 1 px round
        return out

    def framed(self, key: Hashable, where: Callable[[], tuple[Box, float]], read: Callable[[], T]) -> T:
        """``read()``, or its kept value: ``read`` looks only at frame pixels within a margin of a
        box (frame px), both given by ``where()`` (asked only when ``read`` is made)."""
        found, value = self._get(key)
        if found:
            return value  # type: ignore[no-any-return]
        out = read()
        self._put(key, out, self._canonical(*where()))
        return out

    def _canonical(self, box: Box, margin: float) -> Box:
        """Where the frame's box, grown by ``margin``, lies in the canonical view (its bounding box)."""
        x0, y0, x1, y1 = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
        corners = np.asarray([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
        c = np.asarray(self._cal.to_canonical(corners), np.float64).reshape(-1, 2)
        return float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max())

    def cropped(self, key: Hashable, box: Box, read: Callable[[], T]) -> T:
        """``read()``, or its kept value: ``read`` looks only at canonical pixels in ``box``."""
        found, value = self._get(key)
        if found:
            return value  # type: ignore[no-any-return]
        out = read()
        self._put(key, out, box)
        return out

    def patched(self, key: Hashable, place: Callable[[Box], Box], reach: int, whole: Callable[[], np.ndarray],
                part: Callable[[Rect], np.ndarray], source: np.ndarray | None = None,
                whole_share: float = WHOLE_SHARE) -> np.ndarray:
        """``whole()``, an array each of whose pixels depends only on the input within ``reach`` of
        its own pixels; kept from frame to frame and made again only where the input may have
        changed: ``part(rect)`` gives the array's values in that window. ``place`` maps a
        canonical box to the array's pixels (the identity for the canonical view). The array
        returned is the memo's own, made again in place on the next frame (not copied: some 4 MB
        a changed frame): use it within the frame, and do not write to it.

        The canonical pixels the gate's grid leaves out (the last columns and rows of a view
        whose sides are not a multiple of SCALE) are made again every frame, unless ``source``,
        the canonical input itself, shows them unchanged pixel for pixel. ``whole_share``: the share of the
        array the windows add up to from which it is made whole instead (``WHOLE_SHARE``; each kind of
        array its own, by what a window costs against the whole: the same pixels either way)."""
        view = self._view
        e = self._patched.get(key)
        edges = _edges(source, self._grid_size) if source is not None else None
        if view is None or e is None or e.ref.shape != view.shape:
            out = whole()
            if view is not None:
                self._patched[key] = _Patched(out, view, edges)
            return out
        moved, ref = self._changed_since(e.ref, view)
        gh, gw = self._grid_size
        w, h = self._cal.layout.size
        edge: list[Box] = []
        same = edges is not None and e.edges is not None and all(
            a.shape == b.shape and np.array_equal(a, b) for a, b in zip(edges, e.edges))
        if w > gw * SCALE and not same:
            edge.append((gw * SCALE - KERNEL, 0.0, float(w), float(h)))
        if h > gh * SCALE and not same:
            edge.append((0.0, gh * SCALE - KERNEL, float(w), float(h)))
        # one window per group of changed cells (cells a cell apart joined)
        groups = self._groups(moved) if moved.any() else _NO_GROUPS
        if not edge and not len(groups):
            return e.value
        out = e.value
        ah, aw = out.shape[:2]
        rects = _windows(np.concatenate([np.asarray(edge, np.float64).reshape(-1, 4), groups]), place, reach, ah, aw)
        if int(((rects[:, 1] - rects[:, 0]) * (rects[:, 3] - rects[:, 2])).sum()) >= whole_share * ah * aw:
            # the windows cover as much as the array (a noisy or JPEG camera's frame changes in
            # scattered cells: 150 windows a frame, twice the array's area, on a 640 px JPEG-54
            # game): made whole once, each window copied from it -- its pixels are the window's
            # own (``part``'s premise), the cells outside the windows kept as ever
            fresh = whole()
            cv2.copyTo(fresh, _cover(rects, (ah, aw)), out)
        else:
            for y0, y1, x0, x1 in rects.tolist():
                out[y0:y1, x0:x1] = part((y0, y1, x0, x1))
        self._patched[key] = _Patched(out, ref, edges)
        return out

    def _changed_since(self, last: np.ndarray, view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cells of ``view`` changed since ``last`` (``changed_pixels``) and ``last`` with those
        cells taken from ``view`` (a new array: ``last`` may be another array's too), once a frame
        per ``last``."""
        got = self._moved.get(id(last))
        if got is None or got[0] is not last:
            moved = self._windows(view, last)
            ref = last.copy()
            ref[moved] = view[moved]
            got = self._moved[id(last)] = (last, moved, ref)
        return got[1], got[2]

    def _groups(self, moved: np.ndarray) -> np.ndarray:
        """The canonical boxes (x0, y0, x1, y1 a row, float64) round the groups of ``moved`` cells,
        cells a cell apart joined, each grown by ``KERNEL``: a group's cells reach its box's pixels."""
        sig = moved.tobytes()
        got = self._cells.get(sig)
        if got is None:
            grown = cv2.dilate(moved.astype(np.uint8), np.ones((3, 3), np.uint8))
            _, _, stats, _ = components(grown)
            gx, gy, cw, ch = (stats[1:, i].astype(np.int64) for i in range(4))
            got = self._cells[sig] = np.stack([gx * SCALE - KERNEL, gy * SCALE - KERNEL, (gx + cw) * SCALE + KERNEL,
                                               (gy + ch) * SCALE + KERNEL], axis=1).astype(np.float64)
        return got


#: no group of changed cells (``DiceMemo._groups``'s boxes)
_NO_GROUPS = np.zeros((0, 4), np.float64)


def _windows(boxes: np.ndarray, place: Callable[[Box], Box], reach: int, ah: int, aw: int) -> np.ndarray:
    """The windows (y0, y1, x0, x1 a row, int64) of an ``ah`` x ``aw`` array that ``boxes`` (canonical,
    x0, y0, x1, y1 a row) reach, placed by ``place`` and grown by ``reach``, clipped to the array;
    empty ones left out, the rest in the boxes' order. ``place`` (an affine map of each coordinate) is
    given the boxes' four columns at once: numpy's float64 arithmetic is Python's, op for op, so
    each window is the one ``place`` of its box alone gives (issue 12: ~300 boxes a JPEG frame). A few
    boxes (``FEW_BOXES``: a noise-free camera's frame) are placed one by one, as numpy's calls cost more
    than their arithmetic there: the same windows."""
    if len(boxes) <= FEW_BOXES:
        few = [_window(place(cast(Box, tuple(b))), reach, ah, aw) for b in boxes.tolist()]
        return np.asarray([r for r in few if r[0] < r[1] and r[2] < r[3]], np.int64).reshape(-1, 4)
    cols = cast(Box, tuple(boxes[:, i] for i in range(4)))
    x0, y0, x1, y1 = (np.asarray(c, np.float64) for c in place(cols))
    rects = np.stack([np.maximum(0, np.floor(y0).astype(np.int64) - reach),
                      np.minimum(ah, np.ceil(y1).astype(np.int64) + reach + 1),
                      np.maximum(0, np.floor(x0).astype(np.int64) - reach),
                      np.minimum(aw, np.ceil(x1).astype(np.int64) + reach + 1)], axis=1)
    return rects[(rects[:, 0] < rects[:, 1]) & (rects[:, 2] < rects[:, 3])]


#: up to this many boxes ``_windows`` places one by one (~0.7 us a box against ~20 us for numpy's calls)
FEW_BOXES = 24


def _window(b: Box, reach: int, ah: int, aw: int) -> Rect:
    """The window (y0, y1, x0, x1) of an ``ah`` x ``aw`` array that the placed box ``b`` reaches, grown by
    ``reach`` and clipped (empty when y0 >= y1 or x0 >= x1)."""
    x0, y0, x1, y1 = b
    return (max(0, math.floor(y0) - reach), min(ah, math.ceil(y1) + reach + 1),
            max(0, math.floor(x0) - reach), min(aw, math.ceil(x1) + reach + 1))


def _cover(rects: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """A mask (uint8, 1 inside) of ``shape`` set on every window of ``rects`` (y0, y1, x0, x1 a row):
    copying through it writes each pixel once, where the windows overlap (on a JPEG camera's frame,
    some 150 windows of twice the array's area) or are many."""
    mask = np.zeros(shape, np.uint8)
    for y0, y1, x0, x1 in rects.tolist():
        mask[y0:y1, x0:x1] = 1
    return mask


def _edges(source: np.ndarray, grid: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The columns and the rows of a canonical image the gate's grid (``grid``: its rows, columns)
    does not cover (copies)."""
    gh, gw = grid
    return source[:, gw * SCALE:].copy(), source[gh * SCALE:].copy()
