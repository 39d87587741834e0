"""A die's body parted from a ground of nearly its own colour (issue 9: black dice on a navy field).

A die's outline is the connected region of its body's colour round its face (``lie.die_outline``,
``dice_body.body``): pixels within a tolerance of the body's colour in every channel (30 levels at
least). A black die on the navy Pinetti field (body about 45, 48, 49 BGR, the field 70, 42, 41) lies
within it in every channel, so the region runs out over the field and the die has no outline: a one
or a two, whose few pips make no die on their own, was never found.

What parts the two is the direction of their difference, not its size in any one channel: the die is
neutral, the field blue. ``ground_parted`` takes the ground's colour from the runaway region itself,
past the die's corners (what the body's tolerance confused with it), and keeps as body only the
pixels nearer the body's colour than the ground's along the line between the two. The mask is a part
of the first (nothing not of the body's colour becomes body), and it is tried only when the first
ran out: a die whose outline was found is outlined as before. A body parted so is an outline only
when the die is at least ``GROUND_LEAST_PX`` across in the frame: on a smaller die the pips are not
resolved (``dice_vet.NEED_PX``), and a four or five whose pips ran into one blob inside a square
outline is a one to the pip reader (the navy games at 640 px: a black four read a one at 0.89).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.dice_vet import NEED_PX
from tavli_pi.vision.quantile import median

__all__ = ["GROUND_APART", "GROUND_LEAST_PX", "frame_px", "ground_parted"]

#: the ground is parted from the body only when its colour lies this far from the body's (largest
#: channel) or more: a step the camera's noise and JPEG do not make on a die's body (the black die on
#: the navy field: 25 levels)
GROUND_APART = 15.0
#: the least side (frame px) of a die whose body is parted from the ground
GROUND_LEAST_PX = NEED_PX
#: the least pixels of the runaway region past the die's corners the ground's colour is taken from
GROUND_PX = 10


def ground_parted(crop: np.ndarray, plain: np.ndarray, far: np.ndarray,
                  body: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The body mask ``plain`` (uint8 or bool, of ``crop``: BGR, worked on in float32) parted from the ground it ran
    into: ``far`` marks the runaway region's pixels past the die's corners, whose median colour is the
    ground's. A pixel stays body when, along the line from ``body`` (the body's colour) to the ground's,
    it lies nearer the body. Returns the mask (uint8 0/1) and the tolerance that parts the two (half
    their distance, largest channel); None when too few pixels lie past the corners or the two
    colours lie too near to part (``GROUND_APART``)."""
    if int(np.count_nonzero(far)) < GROUND_PX:
        return None
    # (the median of a uint8 crop's pixels taken as they are: whole or half grey levels, the same
    # float32 values as of the float32 pixels, without making those unless the two part)
    ground = np.asarray(median(crop[far], axis=0), np.float32)
    step = ground - np.asarray(body, np.float32)
    apart = float(np.abs(step).max())
    if apart < GROUND_APART:
        return None
    crop = crop.astype(np.float32, copy=False)
    t = ((crop - np.asarray(body, np.float32)) @ step) / float(step @ step)
    return ((plain > 0) & (t < 0.5)).astype(np.uint8), 0.5 * apart


def frame_px(to_src: Callable[[np.ndarray], np.ndarray], centre: tuple[float, float], side: float) -> float:
    """A side of ``side`` canonical px at ``centre``, in the frame's pixels (``to_src``: canonical
    points to the frame's)."""
    ends = to_src(np.asarray([[centre[0] - side / 2, centre[1]], [centre[0] + side / 2, centre[1]]], np.float32))
    return float(np.hypot(*(np.asarray(ends[1], np.float64) - np.asarray(ends[0], np.float64))))
