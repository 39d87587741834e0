"""A lone disc larger than a checker: a dice cup standing on a point, read as one checker.

All the checkers of a board are one size, and the layout knows it (a checker's radius,
``r``). A dice cup seen from above is a disc too, and may be of a checker's colour (a red
cup by red checkers: the hue test of ``foreign.py`` needs a board learnt at set-up, and a
cup of the dark checkers' hue passes it anyway), but it is larger: 1.2-1.5 checker radii
(the real-like set's cups, after real leather cups of 6-7 cm beside 4 cm checkers). Its rim,
a ring of edge all round, lies outside where a checker's would, and inside it the opening
or the cup's face is plain. So a disc whose edge rings more clearly at ``OUTSIDE`` radii
than at its own (``OWN``: a checker's rim, allowing for a slightly larger checker than the
layout's) is no sure checker. Its count is kept (the disc may be a checker by something
else round) but tempered (``doubt.temper``): it is not evidence enough for a sure count.

Only a point read as holding a single checker is looked at: in a stack, the next checker's
rim lies one radius beyond the first one's and crosses the outer rings.

Measured on the real-like set read as single photos (seeds 0 and 1, 120 frames each): of
the points read as one checker, 18 of 84 phantoms (all 3 read at 0.9 or more) ring more
clearly outside, and 9 of 652 right ones (5 of the 179 read at 0.9 or more).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tavli_pi.vision import checkers as ck

__all__ = ["OWN", "OUTSIDE", "oversized"]

#: a checker's own rim: the rings at these radii (in the layout's checker radii)
OWN = (1.0, 1.15)
#: beyond it, where a dice cup's rim lies and a lone checker's neighbourhood shows no ring
OUTSIDE = (1.3, 1.45, 1.6)


def oversized(g: ck.Gradients, sites: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """Bool per disc (x, y, r on the canonical view): its edge rings more clearly at ``OUTSIDE``
    radii than at ``OWN`` (the 25th percentile of the rings' gradient, ``checkers.ring_features``)."""
    if not sites:
        return np.zeros(0, bool)
    xyr = np.asarray(sites, np.float32)
    ks = np.asarray((*OWN, *OUTSIDE), np.float32)
    cx = np.repeat(xyr[:, :1], len(ks), axis=1)
    cy = np.repeat(xyr[:, 1:2], len(ks), axis=1)
    rr = xyr[:, 2:3] * ks[None, :]
    ring = ck.ring_features(g, cx, cy, rr, np.zeros(cx.shape, bool))[..., 1]
    return np.asarray(ring[:, len(OWN):].max(axis=1) > ring[:, : len(OWN)].max(axis=1))
