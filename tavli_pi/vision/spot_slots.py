"""The 26 spots' slots: where each spot's stack stands and grows (``spot_geometry``: the 24 points and
the bar's two halves), how many slots a chain traces (``SLOTS``), and how likely a slot holds a checker
by its ring alone (``slot_probability``: a logistic in ``checkers.ring_features``, fitted on simulated
boards).

The stack reader (``stacks.py``) traces and counts the chains; the slot model against the board learnt
at set-up (``setup_slots.py``) reads the same slots, the ring logit among its features.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.layout import Layout

__all__ = ["SLOTS", "SLOT_B", "SLOT_W", "slot_logits", "slot_probability", "spot_geometry"]

#: slots traced per chain (a row of touching checkers reaches the field's middle after ~6.5)
SLOTS = 7


def spot_geometry(lay: Layout, cal: Calibration) -> tuple[np.ndarray, ...]:
    """(x, base y, sign, radius) for the 24 points (light numbering) and the bar's two halves.

    Index 24 is the bar's lower half (light checkers, growing down from the
    middle), 25 its upper half (dark, growing up). Made once per layout and checker
    radius (the reader asks for it several times a frame); the arrays are read-only.
    """
    return _spot_geometry(lay, cal.checker_r)


@lru_cache(maxsize=16, typed=True)  # (typed: a numpy scalar radius would make other dtypes)
def _spot_geometry(lay: Layout, checker_r: float) -> tuple[np.ndarray, ...]:
    cols = lay.columns
    x = [c.x for c in cols]
    base = [lay.top_y if c.top else lay.bottom_y for c in cols]
    sign = [1.0 if c.top else -1.0 for c in cols]
    width = [c.width for c in cols]
    bx0, bx1 = lay.bar_x
    mid = (lay.top_y + lay.bottom_y) / 2
    x += [(bx0 + bx1) / 2] * 2
    base += [mid, mid]
    sign += [1.0, -1.0]
    width += [lay.pitch] * 2
    r = np.asarray(width, np.float32) * checker_r
    out = (
        np.asarray(x, np.float32),
        np.asarray(base, np.float32),
        np.asarray(sign, np.float32),
        r,
    )
    for a in out:
        a.setflags(write=False)
    return out


def slot_probability(ch: ck.Chains) -> np.ndarray:
    """P(slot occupied by a checker) from its ring features (logistic; fitted on sim boards)."""
    z = ch.feats @ SLOT_W + SLOT_B
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))))


#: logistic weights over checkers.ring_features (fitted on simulated easy and hard boards,
#: seeds other than the tests' and the bench's: see bench/fit_slots.py)
SLOT_W = np.asarray([27.231, -4.419, -5.181, 7.058, 15.256, 2.553])
SLOT_B = -6.818


def slot_logits(ch: ck.Chains) -> np.ndarray:
    """Each slot's ring-only logit (``slot_probability``'s), clipped to +-10."""
    return np.asarray(np.clip(ch.feats @ SLOT_W + SLOT_B, -10.0, 10.0))
