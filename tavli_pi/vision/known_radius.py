"""The checker radius (the stack pitch) from the known position's stacks, at set-up (issue 9).

A point's stack is traced slot by slot, each slot searched about one diameter past the last and
its ring sampled at the learnt radius (``Calibration.checker_r``), so the radius is the stack's
pitch too. Learnt from the picture alone (``refine.learn_radius``: the radius whose rings fit the
eight clearest discs best) it strays where the discs' outlines are not their faces: on the
simulator's thick checkers (a side band beside each face, no shadow between touching checkers)
it was learnt 0.41-0.515 of a point's width where they are 0.444, and a light pair on a light
point was read as one.

When the position is known, every checker's place along its point is known too: the k-th of a
point's stack (up to ``MAX_ROW``, the ones that lie in a row, not squeezed) is centred ``1 + 2 k``
radii from the base. Each candidate radius is scored by how well rings of that radius fit at those
places, every stack allowed a common shift along and across its point (a camera's view of the
checkers' height moves a stack's faces together, ``vision/overhang.py``) -- the mean over the
stacks of their best whole-ring fit. A wrong radius puts the far checkers of a stack of five off
by several tenths of a radius, so the pitch decides, not the outline of the clearest disc.
"""

from __future__ import annotations

import numpy as np

from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.frame_views import FrameViews
from tavli_pi.vision.known import KnownBoard

__all__ = ["RADII", "MAX_ROW", "MIN_STACKS", "SHIFT_ALONG", "SHIFT_ACROSS", "known_radius"]

#: the radii tried (fraction of a point's width; ``refine.learn_radius`` tries 0.41-0.545)
RADII = tuple(float(v) for v in np.round(np.arange(0.40, 0.5601, 0.0075), 4))
#: a stack of more checkers is squeezed into its point (``sim/_layout.stack``): not used
MAX_ROW = 5
#: the fewest stacks of two or more checkers the pitch is learnt from
MIN_STACKS = 3
#: each stack's shift along its point and across it (radii; ``pitch_radius`` shifts its stacks so too)
SHIFT_ALONG = np.linspace(-0.3, 0.3, 7, dtype=np.float32)
SHIFT_ACROSS = np.linspace(-0.3, 0.3, 7, dtype=np.float32)


def _stacks(known: KnownBoard) -> list[tuple[int, int]]:
    """(point index 0-23, checkers) of the known position's stacks lying in a row."""
    slots = known.slots(MAX_ROW + 1)[:24]
    n = slots.sum(axis=1)
    return [(int(p), int(n[p])) for p in np.flatnonzero((n > 0) & (n <= MAX_ROW))]


def known_radius(cal: Calibration, image: np.ndarray, known: KnownBoard | None = None,
                 views: FrameViews | None = None) -> Calibration | None:
    """``cal`` with the radius under which rings fit best where the known position's checkers lie
    (``known``: the start position when None); None when the position has too few stacks of two or
    more checkers in a row to tell the pitch (``MIN_STACKS``). ``views``: ``image``'s warps and
    gradients shared with the other steps of learning the board."""
    stacks = _stacks(known if known is not None else KnownBoard.start())
    if sum(n >= 2 for _, n in stacks) < MIN_STACKS:
        return None
    g = (views if views is not None else FrameViews(image)).gradients(cal)
    lay = cal.layout
    cols = [lay.columns[p] for p, _ in stacks]
    best, best_score = cal.checker_r, -np.inf
    for rho in RADII:
        fits = []
        for col, (_, n) in zip(cols, stacks):
            r = col.width * rho
            sign = 1.0 if col.top else -1.0
            base = lay.top_y if col.top else lay.bottom_y
            k = np.arange(n, dtype=np.float32)
            cy = base + sign * r * (1.0 + 2.0 * k[None, None, :] + SHIFT_ALONG[:, None, None])
            cx = col.x + r * SHIFT_ACROSS[None, :, None]
            cy, cx = np.broadcast_arrays(cy, cx)
            f = ck.ring_features(g, cx.astype(np.float32), cy.astype(np.float32), np.full(cx.shape, r, np.float32),
                                 np.full(cx.shape, col.top))
            fits.append(float(f[..., 1].mean(axis=2).max()))  # the stack's best shift: its whole-ring fit
        score = float(np.mean(fits))
        if score > best_score:
            best, best_score = rho, score
    return cal.with_(checker_r=float(best))
