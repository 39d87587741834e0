"""The size a table's dice show in the frame, learnt from the stream (issue 9: small dice in a video).

All the dice of one table are the same size, and the camera does not move: the dice a stream finds
show one size, give or take the perspective across the field. A single frame measures a small die's
side from its blurred edge and can fall short by a pixel or two: an 8.4 px die on a 640x360 wood
board measured 6-7 px on a third of the frames, under ``dice_vet.LEAST_PX``, and a value its two
views of the pips agreed on was withheld as "too small to read (7 px, need 8)". The median of the
sizes measured over the last frames is the table's die size: ``dice_vet`` holds a die under
``LEAST_PX`` only where the table's dice are that small too. It lifts nothing else: under
``NEED_PX`` a die's value still needs its pips shown resolved on its own frame.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.quantile import median

__all__ = ["SIZES_KEPT", "SIZES_LEAST", "DieSizes"]

#: the sizes of the last this many dice found lying still are kept
SIZES_KEPT = 24
#: the table's die size is known once this many were measured (a roll or two lying a few frames)
SIZES_LEAST = 6


class DieSizes:
    """The sizes (image px) of the dice a stream found lying still, most recent last."""

    __slots__ = ("_px",)

    def __init__(self) -> None:
        self._px: deque[float] = deque(maxlen=SIZES_KEPT)

    def add(self, dice: Iterable[DieReading]) -> None:
        """Keep the measured size of each die of ``dice`` found lying still, but of one kept with no face
        read (``DieReading.sizes_table``)."""
        self._px.extend(d.size_px for d in dice if not d.moving and d.size_px > 0 and d.sizes_table)

    def typical(self) -> float:
        """The median size of the dice kept, or 0.0 while fewer than ``SIZES_LEAST`` were measured."""
        return float(median(np.asarray(self._px, np.float64))) if len(self._px) >= SIZES_LEAST else 0.0
