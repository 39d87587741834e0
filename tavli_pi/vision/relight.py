"""A shadow or a lamp over part of the board, undone before the board is read.

A person leaning over the table, a lamp blocked or one switched on changes the light over part of
the board: every checker, point and die there darkens (or brightens) by one factor, the rest of the
picture not at all. The reader learnt the board's colours at set-up (the clear board, the checker
looks): under a shadow half as bright, a light checker reads as a dark one or as none, and the
referee goes out of step with the game (``bench/bench_video.py --shadow``).

``light_field`` measures the frame's light over the clear board learnt at set-up, cell by cell of a
grid over the canonical view, each cell seen as a few patches (the mean of their pixels): the log ratio
of their levels. A cell counts as lit otherwise only when most of its patches agree on one ratio *in
every channel* (light scales a checker, a point and the field alike, and all three colours); where
checkers moved, a die lies or a hand reaches, the ratio differs from patch to patch and between the
channels (a light checker over dark wood is 2x brighter in blue, 1.1x in red), and the cell tells
nothing of its own: it takes the light of the cells round it. The picture's brightness as a whole
(exposure) is left to the readers that match it already (``setup_slots.setup_view``, the gate's
``motion.picture_gain``); its colour as a whole -- the camera's white balance drifting, red up as blue
goes down -- is undone from ``TINT_STEP`` on (the stack reader compares a slot's colour with the checker
colours learnt at set-up: at 640 px a 20 % drift lost 22 of 33 plays). Nothing is undone unless some
cell's light moved by ``LIGHT_STEP`` or the colour by ``TINT_STEP``: a steady picture is read exactly
as before (the 200 real-like games identical).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CELLS", "LIGHT_STEP", "TINT_STEP", "LightMeter", "light_field", "relit", "untinted"]

#: the grid the light is measured on (columns, rows over the canonical view's quarter-scale picture):
#: a cell is about a point wide and a checker or two high
CELLS = (12, 8)
#: a cell's light differs from the picture's by at least this (log: about 10 %) before any is undone
LIGHT_STEP = 0.1
#: a patch agrees with its cell's light when its log ratio is within this of the cell's, in each channel
AGREE = 0.1
#: ... and a cell's light is taken when at least this share of its lit patches agree
AGREEING = 0.6
#: a cell that told no light (checkers moved, a hand) takes its told neighbours' up to this many cells away
FILL = 2
#: the picture's colour as a whole (a channel's gain over the three's mean, log) undone from this on: the
#: camera's white balance drifting (about 5 %)
TINT_STEP = 0.05
#: each cell is seen as SUB x SUB patches
SUB = 4
#: a patch darker than this (grey levels) in the frame or the clear board tells no ratio (noise)
LIT = 16


class LightMeter:
    """``meter(small)``: ``light_field`` of the frames against one clear board (its patches made once)."""

    def __init__(self, clear: np.ndarray) -> None:
        cols, rows = CELLS
        self.shape = clear.shape
        self.size = (cols * SUB, rows * SUB)
        self._usable = clear.ndim == 3 and clear.shape[1] >= self.size[0] and clear.shape[0] >= self.size[1]
        if self._usable:
            b = cv2.resize(clear, self.size, interpolation=cv2.INTER_AREA).astype(np.float32)
            self._lit = b.min(axis=2) > LIT
            self._log = np.log(b + 1.0)

    def __call__(self, small: np.ndarray) -> np.ndarray | None:
        if not self._usable or small.shape != self.shape:
            return None
        a = cv2.resize(small, self.size, interpolation=cv2.INTER_AREA).astype(np.float32)
        return _field(a, self._lit, self._log)


def light_field(clear: np.ndarray, small: np.ndarray) -> np.ndarray | None:
    """float32 (rows, cols of ``CELLS``, 3): how much brighter ``small`` is than ``clear`` (two BGR views
    of one size, the quarter-scale canonical view and the clear board learnt at set-up) cell by cell and
    channel by channel, beyond the picture's brightness as a whole (log, to 0.01: a cell's light read
    again from a noisy frame stays the same); None when no part of the board's light moved by
    ``LIGHT_STEP`` and the picture's colour by less than ``TINT_STEP``.

    Each cell is seen as ``SUB`` x ``SUB`` patches (each the mean of its pixels: a few hundred values
    in all, a fraction of a millisecond); a patch tells its light when it is lit in the frame and on
    the clear board, and a cell when most of its patches agree on one ratio in every channel."""
    return LightMeter(clear)(small)


def _field(a: np.ndarray, lit_b: np.ndarray, log_b: np.ndarray) -> np.ndarray | None:
    """``light_field`` of the frame's patches ``a`` (float32) against the clear board's (lit, log)."""
    cols, rows = CELLS
    lit = (a.min(axis=2) > LIT) & lit_b
    if int(lit.sum()) < 0.2 * lit.size:
        return None
    ratio = np.log(a + 1.0) - log_b
    # the picture's gain as a whole, per channel: its brightness is left to the readers that match it
    # already; its colour (the camera's white balance drifting) is undone when it moved by TINT_STEP
    whole = np.median(ratio[lit], axis=0)
    tint = whole - float(whole.mean())
    tint = tint if float(np.abs(tint).max()) >= TINT_STEP else np.zeros(3, np.float32)
    local = ratio - whole
    grey = local.mean(axis=2)
    if float(np.abs(grey[lit]).max()) < LIGHT_STEP:
        # (most frames: no patch's light moved)
        return _with_tint(np.zeros((rows, cols), np.float32), tint)
    # (rows, cols, SUB * SUB) patches of each cell
    patches = local.reshape(rows, SUB, cols, SUB, 3).swapaxes(1, 2).reshape(rows, cols, SUB * SUB, 3)
    told = lit.reshape(rows, SUB, cols, SUB).swapaxes(1, 2).reshape(rows, cols, SUB * SUB)
    count = told.sum(axis=2)
    enough = count >= 0.3 * SUB * SUB
    if not enough.any():
        return _with_tint(np.zeros((rows, cols), np.float32), tint)
    # each cell's median patch (grey), of its lit ones: sorted with the unlit last (NaN)
    ranked = np.sort(np.where(told, patches.mean(axis=3), np.nan), axis=2)
    lo, hi = np.maximum(count - 1, 0) // 2, count // 2
    level = 0.5 * (np.take_along_axis(ranked, lo[..., None], axis=2)[..., 0]
                   + np.take_along_axis(ranked, np.minimum(hi, SUB * SUB - 1)[..., None], axis=2)[..., 0])
    level = np.where(enough, level, 0.0).astype(np.float32)
    agree = np.all(np.abs(patches - level[..., None, None]) <= AGREE, axis=3) & told
    known = enough & (agree.sum(axis=2) >= AGREEING * np.maximum(count, 1))
    value = np.where(known, level, np.nan).astype(np.float32)
    if not known.any() or float(np.abs(value[known]).max()) < LIGHT_STEP:
        return _with_tint(np.zeros((rows, cols), np.float32), tint)
    return _with_tint(_filled(value), tint)


def _with_tint(grey: np.ndarray, tint: np.ndarray) -> np.ndarray | None:
    """(rows, cols, 3): the cells' light ``grey`` in every channel plus the picture's ``tint``, to 0.01;
    None when both are nothing."""
    if not grey.any() and not tint.any():
        return None
    grid: np.ndarray = np.round(grey[..., None] + tint.astype(np.float32), 2).astype(np.float32)
    return grid


def _filled(grid: np.ndarray) -> np.ndarray:
    """``grid`` (rows, cols; NaN: a cell that told no light) with each untold cell given the mean of
    its told neighbours, pass by pass, ``FILL`` passes (light changes slowly: the checkers moved under
    a shadow lie in it too); a cell further from any is left as lit as the picture (0)."""
    out = grid.copy()
    for _ in range(FILL):
        gaps = np.argwhere(np.isnan(out))
        if not len(gaps):
            break
        was = out.copy()
        for r, c in gaps:
            near = was[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]
            near = near[~np.isnan(near)]
            if len(near):
                out[r, c] = float(near.mean())
        if np.array_equal(np.isnan(out), np.isnan(was)):
            break
    filled: np.ndarray = np.nan_to_num(out, nan=0.0).astype(np.float32)
    return filled


def untinted(grid: np.ndarray) -> np.ndarray:
    """``light_field``'s ``grid`` without the picture's colour: the cells' light alone, in every channel
    (the tint's channels sum to nothing)."""
    grey: np.ndarray = np.repeat(grid.mean(axis=2, keepdims=True), 3, axis=2).astype(np.float32)
    return grey


def relit(canon: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """``canon`` (a view of the canonical board, BGR, any scale) as the set-up light showed it: over
    ``light_field``'s ``grid``, interpolated between the cells' centres; a channel at white stays white."""
    h, w = canon.shape[:2]
    full = np.exp(cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR))
    out: np.ndarray = np.clip(canon.astype(np.float32) / full, 0, 255).astype(np.uint8)
    # a channel clipped at white stays white: its light is unknown past it (cream wood's red at 250,
    # made 275 by a warmer white balance, clips at 255 -- undone it would read 232)
    out[canon == 255] = 255
    return out
