"""The camera's own sensor noise, learnt from the stream, and the change it lets pass as no change.

The incremental reader (vision/incremental.py) reuses its last reading only
when no quarter-scale pixel of the gate's view moved by more than
``REGION_CHANGE`` (8 grey levels) in any channel. A real camera's sensor
noise differs frame to frame: on a small or noisy picture (the real-like
referee games at 640 px, bench/probe_gate_noise.py) some of the view's
~23,000 pixels pass 8 levels on every frame, so no still frame is ever seen
as unchanged and every frame costs a changed read.

``NoiseLevel`` learns the noise from the stream itself: on every frame read
(a frame read as unchanged only becomes the frame before: no new estimate) it
takes the signed difference of the gate's view from the frame before, per
channel, and estimates its spread robustly -- 1.4826 times the median
absolute difference, the median taken with the integer levels spread over
their bins (a checker moved or a hand covers a minority of the view, so the
median is the still pixels'). The camera's noise is the median of the last
``WINDOW`` frames' estimates (frames with a hand or a tumbling die over half
the board are outvoted), and nothing is trusted before ``LEAST`` frames.

``level()`` is the largest change a still pixel shows: the level that the
difference of two frames' pixels (the spread learnt) passes, at all
``pixels`` of the view, on one frame in ``1 / FALSE_RATE`` if the noise is
Gaussian (the Gaussian tail, ``math.erfc``), and never below
``REGION_CHANGE``. So a noise-free stream keeps REGION_CHANGE exactly (the
readings stay the ones a full read gives), and a noisy one lets its noise
pass while a checker, a die or a hand -- tens of levels over many pixels --
still does not.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from tavli_pi.vision.incremental import REGION_CHANGE

__all__ = ["NoiseLevel", "WINDOW", "LEAST", "FALSE_RATE", "gaussian_reach", "spread"]

#: frames whose noise estimates are pooled (their median), and the fewest trusted
WINDOW, LEAST = 25, 5
#: the share of still frames the level may call changed, under Gaussian noise
FALSE_RATE = 0.01
#: 1.4826 x the median absolute deviation estimates a Gaussian's standard deviation
MAD_SIGMA = 1.4826


def gaussian_reach(samples: int, rate: float = FALSE_RATE) -> float:
    """``k`` such that ``samples`` Gaussian values pass ``k`` standard deviations (either sign)
    with chance ``rate``: ``samples * erfc(k / sqrt 2) = rate``, by bisection."""
    lo, hi = 0.0, 40.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if samples * math.erfc(mid / math.sqrt(2)) > rate:
            lo = mid
        else:
            hi = mid
    return hi


def spread(a: np.ndarray, b: np.ndarray) -> float:
    """The robust standard deviation of ``a - b`` (uint8 images of one size): 1.4826 x the median
    of |a - b|, with each integer level k spread evenly over [k - 0.5, k + 0.5) (0 over [0, 0.5))
    so small spreads are not rounded to whole levels. Every other row and column is enough."""
    d = np.abs(a[::2, ::2].astype(np.int16) - b[::2, ::2].astype(np.int16)).ravel()
    counts = np.bincount(d).astype(np.float64)
    half = d.size / 2
    below = np.concatenate([[0.0], np.cumsum(counts)])  # values under level k
    k = int(np.searchsorted(below, half, side="right")) - 1  # the level holding the median
    k = min(k, len(counts) - 1)
    lo, width = (0.0, 0.5) if k == 0 else (k - 0.5, 1.0)
    inside = (half - below[k]) / counts[k] if counts[k] else 0.0
    return MAD_SIGMA * (lo + width * inside)


class NoiseLevel:
    """``noise(view)`` on every frame (the gate's view); ``noise.level()`` the change a still pixel
    shows; ``noise.sigma`` the spread learnt (0 until ``LEAST`` frames were compared)."""

    def __init__(self, pixels: int, window: int = WINDOW, least: int = LEAST, rate: float = FALSE_RATE) -> None:
        """``pixels``: how many values the change test compares (the view's pixels times channels)."""
        self.reach = gaussian_reach(pixels, rate)
        self.least = least
        self._seen: deque[float] = deque(maxlen=window)
        self._prev: np.ndarray | None = None

    def __call__(self, view: np.ndarray, learn: bool = True) -> None:
        """Compare ``view`` with the frame before and keep the estimate (``learn=False``: only
        remember ``view`` -- a frame read as unchanged is not worth the 0.3 ms an estimate costs)."""
        prev, self._prev = self._prev, view
        if learn and prev is not None and prev.shape == view.shape:
            self._seen.append(spread(view, prev))

    @property
    def sigma(self) -> float:
        """The frame-to-frame difference's standard deviation: the median of the recent estimates."""
        return float(np.median(np.asarray(self._seen))) if len(self._seen) >= self.least else 0.0

    def level(self) -> int:
        """A pixel changed when it moved by more than this many levels (REGION_CHANGE at least)."""
        return max(REGION_CHANGE, math.ceil(self.reach * self.sigma))

    def forget_frame(self) -> None:
        """Forget the previous frame (a pause in the stream); the noise learnt stays (same camera)."""
        self._prev = None
