"""Ring samples kept per point while their pixels stand (issue 12).

A point is read again not only when its footprint changed (vision/
incremental.py) but also when a value every point's reading shares moved: the
gradients' scale, the typical change from the set-up board or the brightness
match to it. A hand over one corner moves them all, so on most changed frames
every point was traced afresh, though most points' pixels had not changed.

The costly part of a trace is sampling the gradients on rings round each
candidate disc (``checkers.ring_features``); the samples' order statistics,
before they are divided by the gradients' scale, depend only on the pixels
under the rings. A ``RingMemo`` keeps them per spot by the exact candidate
places they were taken at, each with the box its rings reach and the view
(``incremental.GateView``) it was seen in, and the reader forgets every kept
place whose box changed since (``forget_changed``: the box grown by the
gradients' and the view's reach, as a point's footprint is). A trace under a
new scale asks for the same places wherever its choices come out the same, and
gets the same values; a place it has not sampled is sampled afresh. So the
reading is the one a full read gives (tests/vision/test_incremental.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import chain
from typing import NamedTuple

import numpy as np

from tavli_pi.vision.grid_boxes import to_grid, touched

__all__ = ["RingMemo", "MAX_KEPT"]

#: places kept per spot; past it the oldest is forgotten (a spot's trace asks for about 10 a frame)
MAX_KEPT = 64


class _Kept(NamedTuple):
    stats: np.ndarray  # the places' order statistics (checkers._raw_stats)
    box: tuple[float, float, float, float]  # (x0, y0, x1, y1): canonical pixels the rings reach
    view: np.ndarray | None  # the gate view the pixels were seen in


class RingMemo:
    """Ring order statistics by spot (0-25) and place, each with its box and view."""

    def __init__(self) -> None:
        self._kept: dict[int, dict[bytes, _Kept]] = {}
        self.hits = 0
        self.misses = 0
        #: the gate view the next samples are seen in (the reader sets it before a read)
        self.view: np.ndarray | None = None

    def forget(self, spots: Iterable[int] | None = None) -> None:
        """Forget these spots' places (all when None)."""
        if spots is None:
            self._kept.clear()
            return
        for s in spots:
            self._kept.pop(s, None)

    def get(self, spot: int, place: bytes) -> np.ndarray | None:
        got = self._kept.get(spot, {}).get(place)
        if got is None:
            self.misses += 1
            return None
        self.hits += 1
        return got.stats

    def put(self, spot: int, place: bytes, stats: np.ndarray, box: tuple[float, float, float, float]) -> None:
        kept = self._kept.setdefault(spot, {})
        if len(kept) >= MAX_KEPT:
            del kept[next(iter(kept))]
        kept[place] = _Kept(stats, box, self.view)

    def forget_changed(self, view: np.ndarray, changed: Callable[[np.ndarray, np.ndarray], np.ndarray],
                       scale: int, margin: float) -> None:
        """Forget every place whose box, grown by ``margin`` canonical pixels, holds a pixel of
        ``changed(view, its view)`` (a bool mask on a grid of ``scale`` canonical pixels a cell);
        the next samples are seen in ``view``. (The boxes are looked up as a point's footprint
        is: ``grid_boxes``.)"""
        entries = [(spot, place, k) for spot, kept in self._kept.items() for place, k in kept.items()
                   if k.view is not None]
        if entries:
            refs: dict[int, tuple[np.ndarray, list[int]]] = {}
            for i, (_, _, k) in enumerate(entries):
                assert k.view is not None
                refs.setdefault(id(k.view), (k.view, []))[1].append(i)
            boxes = np.fromiter(chain.from_iterable(k.box for _, _, k in entries), np.float64,
                                count=4 * len(entries)).reshape(-1, 4)
            # every view's changed cells stacked in one tall mask, each place's rows moved down to
            # its own view's band: one integral image, one lookup (a band's box sums stay its own)
            masks = []
            rects = to_grid(boxes, margin, scale, view.shape[:2])
            for band, (ref, idx) in enumerate(refs.values()):
                masks.append(changed(view, ref))
                rects[idx, :2] += band * view.shape[0]
            hit = touched(np.concatenate(masks) if len(masks) > 1 else masks[0], rects)
            for i in np.flatnonzero(hit).tolist():
                spot, place, _ = entries[i]
                del self._kept[spot][place]
        self.view = view
