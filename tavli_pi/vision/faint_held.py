"""A slot the learnt position filled whose checker rings faintly (dark on dark): read by its colour.

A board learnt from a known position is checked by reading the very frame it was learnt from back
without the taught rings (the set-up check, ``learn_consistent.learn_checked``, ``learn_consistent``:
the set-up slot model's ``SETUP_W_UNTAUGHT``, where stillness would only echo the position). That
model reads a slot the position filled mostly by how it rings. On a beech board (the recording
``s1rolled``, game 5) the dark checkers' rims are as dark as the black points under them, and the
model put their slots at 0.14-0.67: the read-back saw 4-6 of the 15 dark checkers, the balanced board
(B1) found the rest on their points or in the empty tray by a hair, and the same position learnt
through corners 0.05 px apart read back 15 dark or 4.

What tells such a checker from its point is its colour, against the point's own paint there: the
same slot of the nearest point of its row and paint that the position left empty, as the set-up view
shows it (``swapped.empty_beside``). A slot is read as holding the checker the position put there
when its chromaticity (``foreign.chroma``: a dark colour's is damped) is nearer that checker's, as
lit there, than the empty point's by ``CHROMA_MARGIN`` (a logistic step ``CHROMA_SOFT`` wide): on
that board the dark checkers stood 4.3-8.9 nearer their colour than the paint, the empty slots
(black paint, the field between the points' tips) at most 1.0. A slot whose paint is like its
checker (no margin) keeps its reading, so does one with no empty point of its paint beside it, and
the bar (no paint to compare with).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.foreign import chroma
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.swapped import empty_beside

__all__ = ["CHROMA_MARGIN", "CHROMA_SOFT", "held_by_colour"]

#: how much nearer (chromaticity, scaled to 100) a slot's colour must be to its held checker's than to
#: the empty point's paint there to read as that checker (the step's middle)
CHROMA_MARGIN = 2.5
#: the width of that step
CHROMA_SOFT = 0.5

#: the colour (..., 3) of the learnt board (in this frame's light) over a checker's middle at
#: canonical places x, y of radius r
PaintAt = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def held_by_colour(bgr: np.ndarray, x: np.ndarray, y: np.ndarray, radii: np.ndarray, held_bgr: np.ndarray,
                   lay: Layout, cols: np.ndarray, slots: np.ndarray, empty_at_setup: np.ndarray,
                   paint_at: PaintAt) -> np.ndarray:
    """(C, K) how likely each slot of ``slots`` ((C, K) bool) holds the checker the learnt position put
    there, by its colour: ``bgr`` (C, K, 3) its colour now, ``x``, ``y`` (C, K) its place, ``radii``
    (C,) the checker radius per column, ``held_bgr`` (C, K, 3) the held checker's colour as lit there;
    ``cols`` the spots of the rows; ``empty_at_setup`` (26, >= K) the slots the position left empty;
    ``paint_at`` the learnt board's colour at places. 0 where a slot is not asked or has no empty
    point of its paint to compare with."""
    out = np.zeros(slots.shape, np.float64)
    for i, k in zip(*np.nonzero(slots)):
        s = empty_beside(lay, int(cols[i]), int(k), empty_at_setup)
        if s is None:
            continue
        sx = np.asarray([float(x[i, k]) + lay.columns[s].x - lay.columns[int(cols[i])].x], np.float32)
        paint = paint_at(sx, np.asarray([float(y[i, k])], np.float32), np.asarray([float(radii[i])], np.float32))[0]
        now = chroma(np.asarray(bgr[i, k], np.float64))
        margin = (float(np.linalg.norm(now - chroma(np.asarray(paint, np.float64))))
                  - float(np.linalg.norm(now - chroma(np.asarray(held_bgr[i, k], np.float64)))))
        out[i, k] = 1.0 / (1.0 + np.exp(-np.clip((margin - CHROMA_MARGIN) / CHROMA_SOFT, -30, 30)))
    return out
