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

A JPEG camera's still frames differ by more than that: its block errors reach
8-14 times the learnt spread on a few dozen pixels (stop 18: 23-37 levels on
game 103), as much as a small real change, so every still frame was read in
full. Averaged over ``BLOCK`` x ``BLOCK`` blocks of the view (24 x 24
canonical px: a die and its margin; overlapping by half) those errors shrink
(2.4-7.4 levels on the JPEG real-like games probed), while a checker, a die or
a hand moves some block's mean by 15 levels or more (bench/probe_gate_blocks.py,
stop 19).
``block_change`` is the largest move of a block's mean in any channel;
``NoiseLevel`` keeps the quietest one seen between two frames in a row
(``quiet``: the camera's floor -- two frames of one scene are as quiet as it
gets), and ``blocks_still(view, ref)`` says a frame shows ``ref``'s scene when
its block change is under ``BLOCK_FLOOR`` times that floor and under
``REGION_CHANGE``. A block's mean misses a change whose mean matches what was
there: a half-size white die with six dark pips on a mid-brown point moved a
6 x 6 block's mean by 5.4 levels at 640 px, JPEG 54, under that camera's still
frames' 4.8-5.7 (stop 22). So a still frame must also keep ``block_rms`` -- the
root-mean-square change over ``RMS_BLOCK`` x ``RMS_BLOCK`` blocks, all channels
-- under ``RMS_FLOOR`` times its own quietest between two frames in a row (that
die: 5.2 times it). A noise-free stream's floor is 0 (two frames of a still
scene are equal), so the test never passes there: its readings stay a full
read's.

The same blocks tell the incremental reader which parts of a changed frame moved (``moved``,
``moved_blocks``): the pixels of every block whose mean or RMS change passes the bound a still frame
keeps under. A part no such block touches keeps its reading, if two reads in a row agreed on it, each
read sure (vision/reader.py; issue 12: on a JPEG camera every pixel test saw every part changed, and
every frame was read whole).
"""

from __future__ import annotations

import math
from collections import deque

import cv2
import numpy as np

from tavli_pi.vision.incremental import REGION_CHANGE
from tavli_pi.vision.motion import picture_gain

__all__ = ["BLOCK", "BLOCK_FLOOR", "NoiseLevel", "RMS_BLOCK", "RMS_FLOOR", "WINDOW", "LEAST", "FALSE_RATE",
           "block_change", "block_rms", "gaussian_reach", "moved_blocks", "spread"]

#: frames whose noise estimates are pooled (their median), and the fewest trusted
WINDOW, LEAST = 25, 5
#: the share of still frames the level may call changed, under Gaussian noise
FALSE_RATE = 0.01
#: 1.4826 x the median absolute deviation estimates a Gaussian's standard deviation
MAD_SIGMA = 1.4826
#: the side (gate-view pixels) of the blocks ``block_change`` averages over: 24 canonical px, a
#: die and its margin (4 px blocks left the still frames of game 103 within 1.4 times a changed
#: scene's least change, 6 px within 2.0: bench/probe_gate_blocks.py, stop 19)
BLOCK = 6
#: a still frame's block change stays under this many times the quietest seen between two frames
#: in a row, and under ``REGION_CHANGE`` (the JPEG games probed: their still frames at most ~1.5
#: times their least, a changed scene at least ~3 times it)
BLOCK_FLOOR = 1.5
#: the side of the blocks ``block_rms`` pools (16 canonical px: a small die, 12 px, lies inside one),
#: and the bound on a still frame's, in times the quietest seen between two frames in a row: on the
#: real-like games 100, 101, 103, 104, 109, 132 (bench/probe_gate_blocks.py, stop 22) still frames
#: reached 1.19-1.66 times it, every change its block means let pass 3.0 or more
RMS_BLOCK, RMS_FLOOR = 4, 2.0


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


def block_change(a: np.ndarray, b: np.ndarray, side: int = BLOCK) -> float:
    """The largest absolute change of a ``side`` x ``side`` block's mean, in any channel, from ``b`` to
    ``a`` (uint8 views of one shape), over the blocks whose corners lie every ``side // 2`` pixels
    (overlapping by half: a change a block's size lies wholly inside one of them, not shared out
    among four). The block sums in integers (a box filter of the signed difference, ~0.14 ms)."""
    if not _fits(a, side):
        return 0.0
    # (16 x 255 fits int16)
    return float(np.abs(_block_sums(cv2.subtract(a, b, dtype=cv2.CV_16S), side)).max()) / (side * side)


def block_rms(a: np.ndarray, b: np.ndarray, side: int = BLOCK) -> float:
    """The largest root-mean-square change over a ``side`` x ``side`` block, all channels pooled,
    from ``b`` to ``a`` (uint8 views of one shape), over the blocks whose corners lie every
    ``side // 2`` pixels (overlapping by half). Unlike a block's mean it sees a change whose mean
    matches what was there: a small white die with dark pips on a mid-brown point moves a 6 x 6
    block's mean by 5 levels on a 640 px JPEG-54 camera, under that camera's still frames' 6."""
    if not _fits(a, side):
        return 0.0
    d = cv2.subtract(a, b, dtype=cv2.CV_32F)
    sq = cv2.multiply(d, d)
    if sq.ndim == 3:
        sq = cv2.transform(sq, np.ones((1, sq.shape[2]), np.float32))  # the channels summed
    channels = a.shape[2] if a.ndim == 3 else 1
    return math.sqrt(max(0.0, float(_block_sums(sq, side).max())) / (side * side * channels))


def _fits(a: np.ndarray, side: int) -> bool:
    """Whether a ``side`` x ``side`` block fits in ``a``."""
    return bool(a.shape[0] >= side and a.shape[1] >= side)


def _block_sums(x: np.ndarray, side: int) -> np.ndarray:
    """The sums of ``x`` over the ``side`` x ``side`` blocks whose corners lie every ``side // 2``
    pixels, each wholly inside ``x`` (``block_change``'s and ``block_rms``'s blocks)."""
    h, w = x.shape[0] - side + 1, x.shape[1] - side + 1
    # (anchor 0, 0: each pixel holds the sum of the block below and right of it)
    sums = cv2.boxFilter(x, -1, (side, side), normalize=False, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
    step = max(1, side // 2)
    return sums[:h:step, :w:step]


def _cell_means(x: np.ndarray, cell: int) -> np.ndarray:
    """The means of ``x`` over ``cell`` x ``cell`` cells from its corner, its far edges repeated out to
    whole cells (an area shrink by a whole factor: each output pixel one cell's mean)."""
    h, w = x.shape[:2]
    ph, pw = -h % cell, -w % cell
    if ph or pw:
        x = cv2.copyMakeBorder(x, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return np.asarray(cv2.resize(x, ((w + pw) // cell, (h + ph) // cell), interpolation=cv2.INTER_AREA))


def _pairs(cells: np.ndarray) -> np.ndarray:
    """The means over 2 x 2 neighbouring cells (blocks of two cells a side, a cell apart)."""
    if cells.shape[0] < 2 or cells.shape[1] < 2:
        return cells
    return np.asarray((cells[:-1, :-1] + cells[1:, :-1] + cells[:-1, 1:] + cells[1:, 1:]) / 4)


def moved_blocks(a: np.ndarray, b: np.ndarray, mean_limit: float, rms_limit: float) -> np.ndarray:
    """Where ``a`` shows another scene than ``b`` by its blocks (uint8 views of one shape; a bool mask
    of their pixels): every pixel of a ``BLOCK`` block (``block_change``'s: overlapping by half, the
    far edges repeated out to whole blocks) whose mean moved by ``mean_limit`` or more in a channel,
    and of an ``RMS_BLOCK`` block (``block_rms``'s) whose root-mean-square change reached ``rms_limit``.
    ``blocks_still`` block by block: a part of the view no such block touches moved no more than a
    JPEG camera's still frames do."""
    h, w = a.shape[:2]
    d = cv2.subtract(a, b, dtype=cv2.CV_32F)
    channels = a.shape[2] if a.ndim == 3 else 1
    sq = cv2.multiply(d, d)
    if channels > 1:
        sq = cv2.transform(sq, np.full((1, channels), 1.0 / channels, np.float32))  # the channels' mean
    out = np.zeros((h, w), bool)
    for x, side, limit in ((d, BLOCK, mean_limit), (sq, RMS_BLOCK, rms_limit * rms_limit)):
        half = max(1, side // 2)
        blocks = _pairs(_cell_means(x, half))
        hit = np.abs(blocks) >= limit * (1 - 1e-6)
        if hit.ndim == 3:
            hit = hit.any(axis=2)
        if not hit.any():
            continue
        # block (i, j) covers cells i, i + 1 and j, j + 1: a cell is marked when a block over it moved
        cells = np.zeros((hit.shape[0] + 1, hit.shape[1] + 1), bool)
        for dy in (0, 1):
            for dx in (0, 1):
                cells[dy:dy + hit.shape[0], dx:dx + hit.shape[1]] |= hit
        out |= np.repeat(np.repeat(cells, half, axis=0), half, axis=1)[:h, :w]
    return out


class NoiseLevel:
    """``noise(view)`` on every frame (the gate's view); ``noise.level()`` the change a still pixel
    shows; ``noise.sigma`` the spread learnt (0 until ``LEAST`` frames were compared)."""

    def __init__(self, pixels: int, window: int = WINDOW, least: int = LEAST, rate: float = FALSE_RATE) -> None:
        """``pixels``: how many values the change test compares (the view's pixels times channels)."""
        self.reach = gaussian_reach(pixels, rate)
        self.least = least
        self._seen: deque[float] = deque(maxlen=window)
        self._prev: np.ndarray | None = None
        self._quiet: float | None = None  # the quietest block change seen (the camera's floor)
        self._quiet_rms = math.inf  # ... and the quietest block_rms
        self._pairs = 0  # frames compared with the frame before
        #: the last pair of views each block measure was taken of, and its value: a frame asks of the
        #: same pair (the frame and the one before) in the motion test and again when learning the
        #: floor (``_measured``)
        self._measures: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}

    def __call__(self, view: np.ndarray, learn: bool = True) -> None:
        """Compare ``view`` with the frame before and keep the estimate (``learn=False``: no spread
        estimate -- a frame read as unchanged is not worth the 0.3 ms it costs; its block change
        from the frame before is still taken while the floor is above 0: ``quiet``)."""
        prev, self._prev = self._prev, view
        if prev is None or prev.shape != view.shape:
            return
        if learn:
            gain = picture_gain(view, prev)
            # the picture brightened or darkened as a whole (the camera's exposure, a lamp flickering
            # on the mains) is no sensor noise: learnt from a 10 % flicker the noise was 38 levels, and
            # a die landing passed as no change (bench_video --flicker 0.10). (Only on a frame read:
            # an unchanged frame's 0.25 ms is not spent on it)
            self._seen.append(spread(view, prev if gain is None else np.asarray(cv2.convertScaleAbs(prev, alpha=gain))))
        if self._quiet != 0.0:
            # the block floor, from every pair of frames (the quietest are a still scene's, read as
            # unchanged or not); a noise-free stream's is 0 for good after two equal frames, and its
            # blocks are not looked at again
            change = self._measured("change", view, prev)
            self._quiet = change if self._quiet is None else min(self._quiet, change)
            self._quiet_rms = min(self._quiet_rms, self._measured("rms", view, prev))
            self._pairs += 1

    @property
    def previous(self) -> np.ndarray | None:
        """The view of the frame before (None: none yet, or forgotten)."""
        return self._prev

    @property
    def quiet(self) -> float | None:
        """The quietest block change seen between two frames in a row (None before ``LEAST`` pairs,
        unless two were equal: 0 is as quiet as it gets)."""
        return self._quiet if self._pairs >= self.least or self._quiet == 0.0 else None

    def blocks_still(self, view: np.ndarray, ref: np.ndarray | None) -> bool:
        """Whether ``view`` shows ``ref``'s scene by its blocks: its block change from ``ref`` is
        under ``BLOCK_FLOOR`` times the quietest seen and under ``REGION_CHANGE``, and its block_rms
        under ``RMS_FLOOR`` times the quietest seen (never on a noise-free stream, whose quietest is
        0, nor before the floor is learnt). The means alone let a small die with dark pips on a point
        of its mean shade pass (stop 22); the RMS alone a change spread evenly over a block."""
        quiet = self.quiet
        if not quiet or ref is None or view.shape != ref.shape:
            return False
        return (self._measured("change", view, ref) < min(BLOCK_FLOOR * quiet, float(REGION_CHANGE))
                and self._measured("rms", view, ref) < RMS_FLOOR * self._quiet_rms)

    def _measured(self, kind: str, view: np.ndarray, ref: np.ndarray) -> float:
        """``block_change(view, ref)`` (``kind`` "change") or ``block_rms(view, ref, RMS_BLOCK)`` ("rms"),
        taken once for the last pair asked (the very arrays: the gate's views are made anew each frame
        and never written to), so a noisy camera's changed frame takes each once, not twice (issue 12)."""
        got = self._measures.get(kind)
        if got is not None and got[0] is view and got[1] is ref:
            return got[2]
        value = block_change(view, ref) if kind == "change" else block_rms(view, ref, RMS_BLOCK)
        self._measures[kind] = (view, ref, value)
        return value

    def moved(self, view: np.ndarray, ref: np.ndarray) -> np.ndarray | None:
        """The pixels of ``view`` in a block that moved from ``ref`` more than a JPEG camera's still
        frames do (``moved_blocks`` at ``blocks_still``'s limits), or None where the camera's floor is
        not learnt or is 0 (a noise-free stream: there every pixel's own change is the test)."""
        quiet = self.quiet
        if not quiet or view.shape != ref.shape:
            return None
        return moved_blocks(view, ref, min(BLOCK_FLOOR * quiet, float(REGION_CHANGE)), RMS_FLOOR * self._quiet_rms)

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
