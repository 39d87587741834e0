"""The checker radius from the pitch of the stacks in view, with no position known (issue 9).

A point's stack is traced slot by slot, each slot searched about one diameter past the last (1.8-2.35
radii, ``checkers.trace_chains``), so a radius learnt too large puts every slot past the first beyond
its checker: on a real-like table at 640 px (tournament board, blurred outlines) the clearest discs
fitted a radius of 0.50 of a point's width where the checkers are 0.444, and the second checker of
every dark pair and the fifth of a stack of five were read missing. The outline of the clearest
discs hardly tells radii apart there (their rings' fit changed by 3 % from 0.41 to 0.545), nor on
thick checkers whose side band widens the outline (``known_radius``' docstring).

Checkers of a stack touch: the k-th lies ``1 + 2 k`` radii from the base, whatever the board. With
no position known, which points hold stacks is not known either; but the points that hold three
checkers or more in a row are the ones where rings of the right radius fit at all three places. So
each candidate radius is scored by the points where its first three places fit best (``TOP`` of
them; each stack allowed a common shift along and across its point, as ``known_radius`` does): the
mean of their three whole-ring fits. A radius off by a tenth puts the third checker a fifth of a
radius off and its ring misses the rim.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known_radius import SHIFT_ACROSS, SHIFT_ALONG, RADII

__all__ = ["PLACES", "TOP", "pitch_scores", "pitch_radius"]

#: the places of a stack scored (its first checkers, lying in a row from the base)
PLACES = 3
#: the points whose stacks decide (the best-fitting ones for each radius)
TOP = 4


def pitch_scores(cal: Calibration, g: ck.Gradients, radii: tuple[float, ...] = RADII) -> np.ndarray:
    """(len(radii),) each radius' score: the mean over the ``TOP`` best-fitting points of their first
    ``PLACES`` places' whole-ring fit, each point at its best shift."""
    lay = cal.layout
    cols = lay.columns
    x = np.asarray([c.x for c in cols], np.float32)
    width = np.asarray([c.width for c in cols], np.float32)
    top = np.asarray([c.top for c in cols])
    base = np.where(top, lay.top_y, lay.bottom_y).astype(np.float32)
    sign = np.where(top, 1.0, -1.0).astype(np.float32)
    k = np.arange(PLACES, dtype=np.float32)
    out = []
    for rho in radii:
        r = (width * rho)[:, None, None, None]  # (24, along, across, places)
        cy = base[:, None, None, None] + sign[:, None, None, None] * r * (
            1.0 + 2.0 * k[None, None, None, :] + SHIFT_ALONG[None, :, None, None])
        cx = x[:, None, None, None] + r * SHIFT_ACROSS[None, None, :, None]
        cy, cx, rr = np.broadcast_arrays(cy, cx, r)
        down = np.broadcast_to(top[:, None, None, None], cy.shape)
        f = ck.ring_features(g, cx.astype(np.float32), cy.astype(np.float32), rr.astype(np.float32), down)[..., 1]
        fit = f.mean(axis=-1).reshape(len(cols), -1).max(axis=1)
        out.append(float(np.sort(fit)[::-1][:TOP].mean()))
    return np.asarray(out)


def pitch_radius(cal: Calibration, g: ck.Gradients, radii: tuple[float, ...] = RADII) -> float:
    """Of ``radii``, the one whose stack pitch fits the frame's stacks best (``pitch_scores``; ``g``:
    the gradients of the frame's canonical view)."""
    return float(radii[int(np.argmax(pitch_scores(cal, g, radii)))])
