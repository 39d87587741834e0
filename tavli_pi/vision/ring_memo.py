"""Ring samples kept per point while its pixels stand (issue 12).

A point is read again not only when its footprint changed (vision/
incremental.py) but also when a value every point's reading shares moved: the
gradients' scale, the typical change from the set-up board or the brightness
match to it. A hand over one corner moves them all, so on most changed frames
every point was traced afresh, though most points' pixels had not changed.

The costly part of a trace is sampling the gradients on rings round each
candidate disc (``checkers.ring_features``); the samples, before they are
divided by the gradients' scale, depend only on the pixels under them. A
``RingMemo`` keeps each spot's raw samples by the exact candidate places they
were taken at, and the reader forgets a spot's as soon as its footprint
changes from the view they were taken in (or, for the bar, which is read on
every changed frame, always). A trace under a new scale asks for the same
places wherever its choices come out the same, and gets the same samples; a
place it has not sampled is sampled afresh. So the reading is the one a full
read gives (tests/vision/test_incremental.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["RingMemo", "MAX_KEPT"]

#: places kept per spot before its memo starts afresh (a spot's trace asks for about 10 a frame;
#: at most about 10 kB each, so 26 spots keep at most some 17 MB)
MAX_KEPT = 64


class RingMemo:
    """Raw ring samples by spot (0-25) and place; each spot's with the view it was first sampled in."""

    def __init__(self) -> None:
        self._samples: dict[int, dict[bytes, np.ndarray]] = {}
        #: per spot, the gate view (``incremental.GateView``) its samples' pixels were seen in
        self.views: dict[int, np.ndarray] = {}
        self.hits = 0
        self.misses = 0
        #: the gate view the next samples are seen in (the reader sets it before a read)
        self.view: np.ndarray | None = None

    def forget(self, spots: Iterable[int] | None = None) -> None:
        """Forget these spots' samples (all when None)."""
        if spots is None:
            self._samples.clear()
            self.views.clear()
            return
        for s in spots:
            self._samples.pop(s, None)
            self.views.pop(s, None)

    def get(self, spot: int, place: bytes) -> np.ndarray | None:
        got = self._samples.get(spot, {}).get(place)
        if got is None:
            self.misses += 1
        else:
            self.hits += 1
        return got

    def put(self, spot: int, place: bytes, samples: np.ndarray) -> None:
        kept = self._samples.setdefault(spot, {})
        if len(kept) >= MAX_KEPT:
            kept.clear()
        kept[place] = samples
        if self.view is not None:
            self.views.setdefault(spot, self.view)
