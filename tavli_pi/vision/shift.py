"""The picture moved as a whole: the table or the camera's stand knocked (issue 9, "Real boards").

From one frame on the whole picture stands a few pixels off where it was, for good. Everything
the board's calibration learnt (the background, the checkers' looks, the rings) is in the
canonical view its corners define, so the corners moved by the same shift give the same
canonical view as before, and all that was learnt stays valid (``Calibration.with_(corners=...)``).

``ShiftWatch.look(image)`` compares each frame's box round the field with the last frame that
stood where the calibration's corners say (its *anchor*), by phase correlation: first coarsely
(the box shrunk to ``COARSE_W`` px wide, well under a millisecond), then, only where that sees a
shift, finely (``FINE_W``), and a shift is taken only when moving the anchor by it explains the
frame's change from it (``EXPLAINS``): a hand or a die moves part of the picture, never all of it.
A shift that cannot be measured is not guessed: when the picture changed nearly everywhere
(``EVERYWHERE``) and no shift explains it, ``look`` says so (``Shift.measured`` False), and so it
does for a shift too far to be a knock (``MAX_SHIFT``); the anchor is kept, and every later frame
is measured against it until one stands where it did or a shift is measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tavli_pi.vision.motion import picture_gain

__all__ = ["Shift", "ShiftWatch", "MIN_SHIFT", "MAX_SHIFT"]

#: the box round the field, past its corners, as a share of the field's size (the frame, the trays)
MARGIN = 0.04
#: the coarse view's width (px): a shift is looked for there on every frame looked at (the app: every frame
#: the reader did not see unchanged)
COARSE_W = 192
#: the fine view's width (px, at most the picture's): a shift the coarse view saw is measured there
FINE_W = 1280
#: a coarse shift under this (coarse px) is none: the anchor moves on to this frame
STILL = 0.15
#: a coarse shift of this much (coarse px) or more is measured finely
SEEN = 0.3
#: the least shift (image px) that moves the corners
MIN_SHIFT = 1.0
#: the farthest shift (a share of the field's width) taken for a knock; farther is not followed
MAX_SHIFT = 0.08
#: a shift is taken when the anchor moved by it leaves at most this share of the frame's change from it
EXPLAINS = 0.6
#: the fine view's blocks (px) whose change says where the picture changed
BLOCK = 16
#: a block changed by more than this (mean grey levels) has changed ...
BLOCK_CHANGE = 4.0
#: ... and with at least this share of the blocks changed, the picture changed nearly everywhere
EVERYWHERE = 0.6


@dataclass(frozen=True)
class Shift:
    """How far the picture moved (image px, right and down), or that it moved and could not be
    measured (``measured`` False, ``why`` says how)."""

    dx: float
    dy: float
    measured: bool = True
    why: str = ""


def _box(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    c = np.asarray(corners, np.float64).reshape(4, 2)
    x0, y0 = c.min(axis=0)
    x1, y1 = c.max(axis=0)
    mx, my = MARGIN * (x1 - x0), MARGIN * (y1 - y0)
    h, w = shape[:2]
    return (max(0, int(x0 - mx)), max(0, int(y0 - my)), min(w, int(np.ceil(x1 + mx))), min(h, int(np.ceil(y1 + my))))


def _correlate(a: np.ndarray, b: np.ndarray, window: np.ndarray) -> tuple[float, float, float]:
    """(dx, dy, response): how far ``b`` stands right and down of ``a`` (phase correlation)."""
    (dx, dy), response = cv2.phaseCorrelate(a, b, window)
    return float(dx), float(dy), float(response)


def _sharpen(a: np.ndarray, b: np.ndarray, dx: float, dy: float) -> tuple[float, float]:
    """(dx, dy) made exact by ECC from the phase correlation's estimate (whose peak interpolation
    is off by a share of a pixel); the estimate itself when ECC does not converge near it."""
    warp = np.asarray([[1, 0, dx], [0, 1, dy]], np.float32)
    try:
        _, got = cv2.findTransformECC(a, b, warp, cv2.MOTION_TRANSLATION,
                                      (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 30, 1e-3), np.empty((0, 0), np.uint8), 5)
    except cv2.error:
        return dx, dy
    ex, ey = float(got[0, 2]), float(got[1, 2])
    return (ex, ey) if np.hypot(ex - dx, ey - dy) < 1.0 else (dx, dy)


class ShiftWatch:
    """Watches a stream's frames for the picture moving as a whole, round the field ``corners``
    (image px) of frames of ``shape``. ``look(image)`` per frame: None while the picture stands
    where it did (or only part of it changed: a hand, a die), else the :class:`Shift` seen."""

    def __init__(self, corners: np.ndarray, shape: tuple[int, ...]) -> None:
        self.box = _box(corners, shape)
        x0, y0, x1, y1 = self.box
        w, h = x1 - x0, y1 - y0
        self.field_w = float(np.ptp(np.asarray(corners, np.float64).reshape(4, 2)[:, 0]))
        self._coarse = (COARSE_W, max(8, int(round(h * COARSE_W / w))))
        fine_w = min(FINE_W, w)
        self._fine = (fine_w, max(8, int(round(h * fine_w / w))))
        self._scale = w / fine_w  # image px per fine px
        self._coarse_scale = w / COARSE_W
        self._win_c = cv2.createHanningWindow(self._coarse, cv2.CV_32F)
        self._win_f = cv2.createHanningWindow(self._fine, cv2.CV_32F)
        self._anchor: tuple[np.ndarray, np.ndarray] | None = None  # (coarse, fine) of the anchor frame
        self.lost = False  # the picture moved and the shift could not be measured (yet)

    @property
    def anchor(self) -> tuple[np.ndarray, tuple[int, int]] | None:
        """The anchor's crop (the box round the field of the last frame that stood where the corners say)
        and where it lies in the picture (x, y); None before the first frame."""
        return None if self._anchor is None else (self._anchor[1], (self.box[0], self.box[1]))

    def _coarse_view(self, crop: np.ndarray) -> np.ndarray:
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        return cv2.resize(gray, self._coarse, interpolation=cv2.INTER_AREA).astype(np.float32)

    def _fine_view(self, crop: np.ndarray) -> np.ndarray:
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        if gray.shape[1] != self._fine[0]:
            gray = cv2.resize(gray, self._fine, interpolation=cv2.INTER_AREA)
        return gray.astype(np.float32)

    def look(self, image: np.ndarray) -> Shift | None:
        x0, y0, x1, y1 = self.box
        crop = image[y0:y1, x0:x1]
        coarse = self._coarse_view(crop)
        if self._anchor is None:
            self._anchor = (coarse, crop.copy())
            return None
        cx, cy, _ = _correlate(self._anchor[0], coarse, self._win_c)
        size = float(np.hypot(cx, cy))
        if size < STILL and not self.lost:
            self._anchor = (coarse, crop.copy())  # stands where it did
            return None
        if size < SEEN and not self.lost:
            return None  # unsure: the anchor is kept
        return self._measure(coarse, crop)

    def _measure(self, coarse: np.ndarray, crop: np.ndarray) -> Shift | None:
        assert self._anchor is not None
        a_fine, fine = self._fine_view(self._anchor[1]), self._fine_view(crop)
        gain = picture_gain(fine, a_fine)
        if gain is not None:
            # brighter or darker as a whole (the camera's exposure, a flickering lamp) is no move, and
            # no change everywhere: the anchor as bright as this frame (a 15 % exposure drift left the
            # watch lost, and the board unread, for the rest of the game)
            a_fine = a_fine * np.float32(gain)
        fx, fy, _ = _correlate(a_fine, fine, self._win_f)
        fx, fy = _sharpen(a_fine, fine, fx, fy)
        dx, dy = fx * self._scale, fy * self._scale
        # compared inside a border the shift cannot reach
        m = int(np.ceil(max(abs(fx), abs(fy)))) + 2
        inner = (slice(m, -m), slice(m, -m)) if 2 * m < min(fine.shape) else (slice(None), slice(None))
        before = cv2.absdiff(fine, a_fine)
        moved = cv2.warpAffine(a_fine, np.asarray([[1, 0, fx], [0, 1, fy]], np.float32), (fine.shape[1], fine.shape[0]),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        after = cv2.absdiff(fine, moved)
        d0, d1 = float(before[inner].mean()), float(after[inner].mean())
        explained = d1 <= EXPLAINS * d0
        if explained and np.hypot(dx, dy) < MIN_SHIFT:
            self.lost = False
            self._anchor = (coarse, crop.copy())
            return None
        if explained and np.hypot(dx, dy) <= MAX_SHIFT * self.field_w:
            self.lost = False
            self._anchor = (coarse, crop.copy())
            return Shift(dx, dy)
        if explained:
            self.lost = True
            return Shift(dx, dy, measured=False,
                         why=f"the picture moved {np.hypot(dx, dy):.0f} px, too far to follow")
        h, w = before.shape
        hb, wb = h // BLOCK, w // BLOCK
        blocks = before[:hb * BLOCK, :wb * BLOCK].reshape(hb, BLOCK, wb, BLOCK).mean(axis=(1, 3))
        share = float((blocks > BLOCK_CHANGE).mean())
        if share >= EVERYWHERE:
            self.lost = True
            return Shift(0.0, 0.0, measured=False,
                         why="the picture changed nearly everywhere and no shift of it explains the change")
        if np.hypot(dx, dy) < MIN_SHIFT:
            self.lost = False  # it stands where it did; part of it changed (a hand, a die)
            return None
        if self.lost:
            # measured against the anchor still: a hand over part of it leaves it lost until it stands clear
            return Shift(0.0, 0.0, measured=False, why="the picture moved and could not be measured yet")
        return None  # part of the picture changed: a hand, a die
