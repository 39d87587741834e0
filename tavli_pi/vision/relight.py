"""A shadow or a lamp over part of the board, undone before the board is read.

A person leaning over the table, a lamp blocked or one switched on changes the light over part of
the board: every checker, point and die there darkens (or brightens) by one factor, the rest of the
picture not at all. The reader learnt the board's colours at set-up (the clear board, the checker
looks): under a shadow half as bright, a light checker reads as a dark one or as none, and the
referee goes out of step with the game (``bench/bench_video.py --shadow``).

``light_field`` measures the frame's light over the clear board learnt at set-up, cell by cell of a
grid over the canonical view: the log ratio of their grey levels. A cell counts as lit otherwise only
when most of its pixels agree on one ratio *in every channel* (light scales a checker, a point and the
field alike, and all three colours); where checkers moved, a die lies or a hand reaches, the ratio
differs from pixel to pixel and between the channels (a light checker over dark wood is 2x brighter
in blue, 1.1x in red), and the cell tells nothing. The picture's gain as a whole (exposure, white
balance) is left to the readers that match it already (``stacks.setup_view``, ``hands.light_gain``):
only what a cell differs from it counts, and nothing is undone unless some cell's light moved by
``LIGHT_STEP`` or more -- a steady picture is read exactly as before.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["CELLS", "LIGHT_STEP", "light_field", "relit"]

#: the grid the light is measured on (columns, rows over the canonical view's quarter-scale picture):
#: a cell is about a point wide and a checker or two high
CELLS = (12, 8)
#: a cell's light differs from the picture's by at least this (log: about 10 %) before any is undone
LIGHT_STEP = 0.1
#: a pixel agrees with its cell's light when its log ratio is within this of the cell's, in each channel
AGREE = 0.1
#: ... and a cell's light is taken when at least this share of its lit pixels agree
AGREEING = 0.6
#: a cell that told no light (checkers moved, a hand) takes its told neighbours' up to this many cells away
FILL = 2
#: a pixel darker than this (grey levels) in the frame or the clear board tells no ratio (noise)
LIT = 16


def _cells(a: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``a`` (h, w, ...) cropped to whole cells and split into them: (rows * cols, cell pixels, ...)."""
    h, w = a.shape[0] // rows * rows, a.shape[1] // cols * cols
    rest = a.shape[2:]
    c = a[:h, :w].reshape(rows, h // rows, cols, w // cols, *rest).swapaxes(1, 2)
    return c.reshape(rows * cols, (h // rows) * (w // cols), *rest)


def light_field(clear: np.ndarray, small: np.ndarray) -> np.ndarray | None:
    """float32 (rows, cols of ``CELLS``): how much brighter ``small`` is than ``clear`` (two BGR views of
    one size, the quarter-scale canonical view and the clear board learnt at set-up) cell by cell, beyond
    the picture's gain as a whole (log, to 0.01: a cell's light read again from a noisy frame stays the
    same); None when no part of the board's light moved by ``LIGHT_STEP``."""
    if clear.shape != small.shape or small.ndim != 3:
        return None
    cols, rows = CELLS
    h, w = small.shape[:2]
    if h < rows or w < cols:
        return None
    a = small.astype(np.float32)
    b = clear.astype(np.float32)
    lit = (a.min(axis=2) > LIT) & (b.min(axis=2) > LIT)
    if int(lit.sum()) < 0.2 * lit.size:
        return None
    ratio = np.log(a + 1.0) - np.log(b + 1.0)
    # the picture's gain as a whole, per channel: what the other readers match already
    whole = np.median(ratio[lit], axis=0)
    local = ratio - whole
    # the cheap test first: no cell's mean moved (most frames, a still board)
    means = cv2.resize(local.mean(axis=2), (cols, rows), interpolation=cv2.INTER_AREA)
    if float(np.abs(means).max()) < LIGHT_STEP:
        return None
    cell_px = _cells(local, rows, cols)  # (cells, n, 3)
    cell_lit = _cells(lit, rows, cols)  # (cells, n)
    value = np.full(rows * cols, np.nan, np.float32)
    for k in range(rows * cols):
        px = cell_px[k][cell_lit[k]]
        if len(px) < 0.3 * cell_lit.shape[1]:
            continue
        grey = float(np.median(px.mean(axis=1)))
        agree = np.all(np.abs(px - grey) <= AGREE, axis=1)
        if float(agree.mean()) >= AGREEING:
            value[k] = grey
    told = ~np.isnan(value)
    if not told.any() or float(np.abs(value[told]).max()) < LIGHT_STEP:
        return None
    grid: np.ndarray = np.round(_filled(value.reshape(rows, cols)), 2).astype(np.float32)
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
    return np.nan_to_num(out, nan=0.0).astype(np.float32)


def relit(canon: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """``canon`` (a view of the canonical board, BGR, any scale) as the set-up light showed it: over
    ``light_field``'s ``grid``, interpolated between the cells' centres."""
    h, w = canon.shape[:2]
    full = np.exp(cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR))
    out: np.ndarray = np.clip(canon.astype(np.float32) / full[..., None], 0, 255).astype(np.uint8)
    return out
