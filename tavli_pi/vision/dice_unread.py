"""Dice too small to read: die bodies found whole, with no face read on them.

A die of 8-11 px (a 640x360 frame) shows its body plainly -- a square of its own colour -- but its
pips blur into one another, and the face reader finds no value on it. ``find_dice`` used to drop
such a body (a hat blob is a die only with a face read), so the die was missed outright, where the
issue asks for "too small to read (N px, need M)": the referee then knows a roll lies there and
asks for it.

A body with no face read is taken for a die only on evidence a printed mark, the cube or a
checker cannot give:

- its outline (``lie.die_outline``) is square (``UNREAD_SQUARE``: a flat die; a cocked one is
  left to the cocked verdict), of a die's size, with a step to the ground all round
  (``Outline.stands_out`` of at least 1: not a die printed on the board) and no big hole of the
  ground's colour in it (a letter's loop: ``dice_face.LOOP_HOLLOW``, ``LOOP_GROUND``; a small
  die's blurred pips fill a quarter to a third of it, in a colour of their own); where no
  outline can be drawn (a blurred rim runs into the ground), the blob itself is square, full and
  not smeared (a tumbling die's);
- it shows at least one pip: a spot of the shade opposite to its body's, inside it (a patch of
  light, a checker's rim show none);
- it stands out from the board as learnt at set-up (``background.Difference``): lettering, logos,
  the cube in its place are in that background. Without a learnt background no such die is
  reported (a still photo read alone);
- it is smaller than ``dice_vet.NEED_PX`` in the frame: a larger die's pips can be read, and a
  body there with no face read is something else. It never carries a value: ``vet_dice`` reports
  it too small to read.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tavli_pi.vision.dice_blobs import blob_outline
from tavli_pi.vision.dice_body import DIE_RANGE
from tavli_pi.vision.dice_face import LOOP_GROUND, LOOP_HOLLOW
from tavli_pi.vision.dice_memo import DiceMemo
from tavli_pi.vision.dice_spots import Spot
from tavli_pi.vision.lie import Outline
from tavli_pi.vision.tumbling import HatBlob

__all__ = ["BLOB_FILL", "BLOB_SQUARE", "StandsOut", "UNREAD_SQUARE", "UNREAD_STEP", "kept_outline", "pips_in",
           "unread_body"]

#: a body with no face read is a die only with an outline this square (dice of 8-11 px on the
#: 640x360 recordings: 0.9 and up; a cocked die's outline, top and a strip of side face, is under
#: 0.85: ``dice_face.cocked_confidence``)
UNREAD_SQUARE = 0.88
#: a die's outline stands out of the ground by a step of colour (``lie.Outline.stands_out``):
#: dice on the real-like set 1.0 and up (``dice_face.PRINTED``'s measure)
UNREAD_STEP = 1.0

#: with no outline, the blob itself is a die's body only when its box is this square (a square
#: die's box is square however it is turned) ...
BLOB_SQUARE = 0.85
#: ... and the blob fills this much of it (a square turned 45 degrees fills half its box)
BLOB_FILL = 0.5

#: ``(x, y, r)`` canonical px -> whether the frame there stands out from the learnt background
StandsOut = Callable[[float, float, float], bool]


def kept_outline(memo: DiceMemo | None, view: str, src: np.ndarray, to_src: Callable[[np.ndarray], np.ndarray],
                 b: HatBlob, side: float, settle: bool) -> Outline | None:
    """``dice_blobs.blob_outline``, or the one ``memo`` kept (``blob_died``'s own key: the outline
    it measured for the blob is not measured again)."""
    if memo is None:
        return blob_outline(src, to_src, b, side, settle)
    return memo.sampled(("blob", view, src.shape, b, side, settle), to_src,
                        lambda ts: blob_outline(src, ts, b, side, settle))


def unread_body(o: Outline | None, b: HatBlob, pitch: float, stands_out: StandsOut, pips: int,
                still: bool) -> tuple[float, float] | None:
    """The centre (canonical px) of the die's body round the blob ``b`` no face was read on, flat
    and standing out from the learnt background; None when it is no such body. ``o``: the outline
    measured round the blob (None: it ran into its surroundings, as a small die's blurred rim
    often does; the blob itself must then be square, filled and ``still``: not smeared as a
    tumbling die is, ``tumbling.coherence``). ``pips``: the pip spots of the shade opposite to the
    blob's inside its box; a die shows at least one (a checker's rim, a patch of light do not)."""
    if pips < 1:
        return None
    if o is None:
        if not still or b.short < BLOB_SQUARE * b.long_ or b.fill < BLOB_FILL:
            return None
        if not DIE_RANGE[0] * pitch <= float(np.sqrt(b.area)) <= DIE_RANGE[1] * pitch:
            return None
        centre = (b.x, b.y)
    else:
        if not DIE_RANGE[0] * pitch <= o.long_ <= DIE_RANGE[1] * pitch:
            return None
        if o.aspect < UNREAD_SQUARE or o.stands_out < UNREAD_STEP:
            return None
        if o.hollow > LOOP_HOLLOW and o.hole_ground < LOOP_GROUND:
            return None  # a hole of the ground's colour: a letter's loop, not a die's blurred pips
        centre = (float(o.centre[0]), float(o.centre[1]))
    return centre if stands_out(centre[0], centre[1], 0.18 * pitch) else None


def pips_in(b: HatBlob, spots: list[Spot]) -> int:
    """How many of ``spots`` (pip spots) lie in ``b``'s box with the shade a pip on its body has
    (dark on a bright blob, bright on a dark one)."""
    h = 0.5 * b.long_
    return sum(1 for x, y, bright in spots if bright == b.dark and abs(x - b.x) <= h and abs(y - b.y) <= h)
