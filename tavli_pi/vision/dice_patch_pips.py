"""A small die with no outline, found by its change from the learnt board and its pips at its own scale
(issue 9: the dice of 640x360 recordings).

At 640 px a tournament die is 9-12 px, about 20 canonical px: its pips are 2 px in the frame and the
canonical view's pip finder (``dice_spots``) parts few of them. Its body is outlined (``lie.die_outline``)
only where it stands apart from the ground: a dark die on the navy Pinetti field lies within the body's
tolerance of the field (and is parted from it, ``dice_ground``, only from ``GROUND_LEAST_PX``), a white die
on a cream field runs into it. Such a die is still a patch where the frame differs from the board learnt
at set-up (``dice_scale.changed_bodies``), and its pips are found when looked for at its own scale
(``dice_scale.pips_at_scale``). ``patch_pips`` takes those pips: one shade, one face's layout, centred
in the patch. The face is then read round their centre at their angle (``dice_face.examined``) and kept
by the caller only where the pips found agree with it (as many, one shade, the face regular: two views
of the face), never surer than ``dice_vet.AGREED_CONFIDENCE`` (found by its body, not by its pips).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.dice_body import angle_of
from tavli_pi.vision.dice_scale import pips_at_scale
from tavli_pi.vision.pips import layout_error
from tavli_pi.vision.tumbling import HatBlob

__all__ = ["PATCH_LEAST", "PATCH_SIDE", "PATCH_WITHIN", "patch_pips"]

#: the die's side (a share of the changed patch's root area) its pips are looked for at: a patch takes
#: in the die's blurred rim and its shadow (0.45-0.64 of the pitch round dice of 0.45-0.53 on the
#: 640 px recordings of real-like games)
PATCH_SIDE = 0.85
#: pips count as the die's within this many of its sides of the patch's centre (the shadow moves the
#: centre off the die's by up to a quarter of its side)
PATCH_WITHIN = 0.6
#: the least value taken so: a one is a lone spot, and a two with a pip missed is one too (a white two on
#: the cream metal board, one pip found at its scale, read a one at 0.89: real-like game 11 at 640 px)
PATCH_LEAST = 2
#: the most a face's pips found may stray from its layout (``pips.layout_error``, as ``dice._find`` takes
#: a group of spots with no outline)
PATCH_FIT = 0.1


def patch_pips(src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray], b: HatBlob
               ) -> tuple[tuple[float, float], float, float] | None:
    """The face centre (canonical px), side and angle (degrees) of the die a changed patch ``b`` shows
    by its pips found at its own scale in ``src`` (the frame; ``to_src``: canonical points to its
    pixels): 1-6 spots of one shade within ``PATCH_WITHIN`` of its side of the patch's centre, laid
    out as a face (``PATCH_FIT``); None where they are not."""
    side = PATCH_SIDE * float(np.sqrt(b.area))
    spots = [s for s in pips_at_scale(src, to_src, (b.x, b.y), side)
             if np.hypot(s[0] - b.x, s[1] - b.y) < PATCH_WITHIN * side]
    if not spots or len({s[2] for s in spots}) != 1 or len(spots) > 6:
        return None
    pts = np.asarray([(x, y) for x, y, _ in spots], np.float64)
    if len(pts) >= 3 and layout_error(pts) > PATCH_FIT:
        return None
    cx, cy = (float(v) for v in pts.mean(axis=0))
    return (cx, cy), side, angle_of(pts.astype(np.float32))
