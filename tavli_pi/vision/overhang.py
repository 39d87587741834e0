"""An edge's first checkers seen nearer its base than the geometry puts them (issue 9, real boards).

A point's stack is traced from its base, the field's edge: the first checker's centre lies one
radius in (``SEATED``), and ``checkers.trace_chains`` looks for it 0.75-1.6 radii out. A camera in
front of the board sees the checkers' thickness, so along the near edge a checker's top face sits
further out than its foot: measured from a field found at the board's surface, the near edge's
checkers overhang it, their discs centred nearer the base than the window begins. A first checker
there is found at the window's end with half its ring, and a dark one on a dark point can be read
as none (the WTC 2022 board read with its field found: the blot on point 12, P(0) = 0.69).

How far an edge's checkers overhang is this photo's own, so it is learnt from the photo: the
first slot of every point is searched in a wider window (``MEASURE``, at a third of its steps:
``stacks._first_slots``), and the edge's sure first checkers (a whole ring, ``SURE_P``) give its
offset: how far their lower quartile (``QUANTILE``) lies nearer the base than ``SEATED`` (less ``SLACK``),
else 0 (``edge_offsets``). The offset grows smoothly with where they lie -- no threshold -- so a field
found a pixel or two higher or lower moves the offset a little, not by a step (stop 39: WTC frame1's
offset jumped 0 / -0.29 / -0.42 with 2 px of field, and its near-edge blot read 0.52-0.95). An edge with too few sure checkers
(``MIN_SURE``) gets 0. Each half of the field (top, bottom) is measured on its own: only the near
one is seen from the front.

The reader's slot-0 window of an edge with an offset reaches that much nearer the base
(``checkers.trace_chains``), keeping the places it searched without one: a checker seated as the
geometry puts it is found there as before, one overhanging by more or less than most of the edge's
is still in the window. No nearer than ``MEASURE`` begins (``REACH``).

At set-up the position is known, so the board learns its edges' offsets there (``setup.learn_board``:
the first checkers the position puts on the points, ``Calibration.overhang``), and a reader with that
calibration reaches by them on every frame without measuring again: a point's reading then
depends on its own pixels only, as the incremental reader needs (vision/incremental.py), and a frame
pays for no measuring. A photo read without a learnt board measures its own.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.checkers import FIRST

__all__ = ["MEASURE", "SEATED", "SLACK", "QUANTILE", "FIRST_NEAREST", "REACH", "MIN_SURE", "SURE_P", "edge_offsets", "edge_shifts",
           "per_point"]

#: the window (radii from the base) a point's first checker is measured in
MEASURE = (0.2, 1.6)
#: where the geometry puts a first checker's centre: one radius in from the field's edge
SEATED = 1.0
#: an edge whose first checkers (``QUANTILE``) lie within this of ``SEATED`` (radii) are seated: the measure's
#: own spread (a ring's best place on a seated checker, a field found a px off), not an overhang
SLACK = 0.1
#: where the reader's slot-0 window begins without an offset (radii from the base; ``checkers.trace_chains``)
FIRST_NEAREST = FIRST[0]
#: the most an offset moves the window's near end (radii, negative): to where ``MEASURE`` begins
REACH = MEASURE[0] - FIRST_NEAREST
#: the share (%) of an edge's sure first checkers the window is to reach: its lower quartile, not its
#: median -- the first checkers along an edge spread (the near edge's middle and ends are seen from other
#: angles), and a median reaches only half of them (WTC frame1: the blot on point 12 lay nearer the base
#: than most)
QUANTILE = 25.0
#: the fewest sure first checkers an edge's offset is learnt from
MIN_SURE = 3
#: a first slot at least this likely occupied (its ring fit) is a sure checker
SURE_P = 0.9


def edge_offsets(first_d: np.ndarray, p_first: np.ndarray, top: np.ndarray) -> tuple[float, float]:
    """How far (radii, negative: towards the base) the top and the bottom edge's slot-0 windows reach.

    ``first_d`` (P,): where each point's first slot was found in the ``MEASURE`` window (radii from
    the base), ``p_first`` (P,) how likely it holds a checker, ``top`` (P,) bool: the point's edge.
    An edge whose sure checkers' lower quartile (``QUANTILE``) lies within ``SLACK`` of ``SEATED`` or past
    it, or has too few sure checkers to tell, gets 0; else how much nearer the base than that it lies:
    smooth in the places, no step."""
    out = [0.0, 0.0]
    for k, edge in enumerate((top, ~top)):
        sure = edge & (p_first >= SURE_P)
        if int(sure.sum()) < MIN_SURE:
            continue
        m = float(np.percentile(first_d[sure], QUANTILE))  # (interpolated: smooth in the places)
        out[k] = float(np.float32(min(m - (SEATED - SLACK), 0.0)))
    return out[0], out[1]


def per_point(overhang: tuple[float, float], top: np.ndarray) -> np.ndarray:
    """The (P,) shifts of an edge pair (``edge_offsets``, ``Calibration.overhang``: top edge, bottom
    edge; radii): each point its edge's (``top`` (P,) bool: the point's edge)."""
    shifts = np.where(top, np.float32(overhang[0]), np.float32(overhang[1]))
    return np.maximum(shifts, np.float32(REACH)).astype(np.float32)


def edge_shifts(first_d: np.ndarray, p_first: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Per point, its edge's ``edge_offsets``."""
    return per_point(edge_offsets(first_d, p_first, top), top)
