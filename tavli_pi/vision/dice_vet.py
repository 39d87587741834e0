"""Never report a die that is not there, nor a value that cannot be read.

``find_dice`` finds anything that looks like pips or a die's body. Before a
reading leaves the reader each candidate is vetted:

- with a learnt background (set-up, ``background.py``) a die must stand out
  from it: lettering, logos, the cube in its place and broadcast overlays are
  in the background, so they never become dice;
- without one, a candidate outside the playing field is dropped: beside the
  field lie the frame, hinges, trays and printed marks, and nothing there can
  be told from a die without knowing the board;
- a value read at almost no confidence is no die;
- below the size at which pips can be read a die keeps no value: it is
  reported "too small to read (N px, need M)". (Dice near that size, under
  ``SURE_PX``, are read with full confidence only when two views of their pips
  agree: ``dice.find_dice``.)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.background import Difference
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.observation import DieReading

__all__ = ["NEED_PX", "SURE_PX", "vet_dice"]

#: the least die side (image px) whose pips can be read: three pips of ~2 px and four gaps of
#: ~1.5 px across a face
NEED_PX = 12
#: below this side (image px) a die's value is given full confidence only on agreeing evidence
#: (``dice.SMALL_CONFIDENCE``)
SURE_PX = 20
#: a value read below this confidence is not evidence of a die
NO_DIE = 0.1
#: how far outside the field's edges (field fractions) a die still counts as on the field
EDGE = 0.01


def vet_dice(dice: Sequence[DieReading], cal: Calibration, background: Difference | None) -> list[DieReading]:
    """The readings of ``dice`` that are dice, with values only where they can be read."""
    if not dice:
        return []
    lay = cal.layout
    canon = cal.to_canonical(np.asarray([d.xy for d in dice], np.float32))
    out: list[DieReading] = []
    for d, (x, y) in zip(dice, canon):
        u, v = lay.to_uv(float(x), float(y))
        inside = -EDGE <= u <= 1 + EDGE and -EDGE <= v <= 1 + EDGE
        if background is not None:
            if not background.stands_out(float(x), float(y), 0.18 * lay.pitch):
                continue  # part of the board as learnt at set-up
        elif not inside:
            continue
        if d.value and d.value_confidence < NO_DIE and not d.moving:
            continue
        if d.size_px and d.size_px < NEED_PX:
            d = dataclasses.replace(
                d, value=0, value_confidence=0.0,
                note=f"too small to read ({d.size_px:.0f} px, need {NEED_PX})",
            )
        out.append(d)
    return out
