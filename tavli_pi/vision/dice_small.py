"""A small die the pip search leaves unsure, read again by its face's pip templates (issue 9).

Under ``dice_vet.NEED_PX`` the search (``dice.find_dice``) loses a small face's middle and corner pips,
and ``dice_vet`` then withholds the value ("too small to read") or the search gives one under the 0.9 a
play is called on. ``dice_template.match_face`` reads such a face at the table's die size
(``dice_table_size.DieSizes``), rectified to the board. Its value is taken only when it is sure
(``FaceMatch.sure``: above every wrong read ``bench/bench_small_dice.py`` found over thousands of
real-like dice), at ``TEMPLATE_CONFIDENCE``; otherwise the die is left as the search read it (no value,
or a value under 0.9: the referee asks rather than calls).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_template import face_axes, match_face
from tavli_pi.vision.dice_vet import NEED_PX
from tavli_pi.vision.observation import DieReading

__all__ = ["SURE", "TEMPLATE_CONFIDENCE", "small_faces"]

#: a die read at this confidence or more is sure: the search's value stands
SURE = 0.9
#: the confidence a face read surely by its templates is given
TEMPLATE_CONFIDENCE = 0.91
#: the table's dice must show under this side (image px): the measure covered dice under 12 px
TABLE_UNDER = 12.0


def small_faces(dice: Sequence[DieReading], image: np.ndarray, cal: Calibration, table_px: float
                ) -> list[DieReading]:
    """``dice`` (vetted, a stream's) with each small still flat die read under ``SURE`` given its
    face's value where its templates read it surely. ``table_px``: the table's die size (image px
    across, ``DieSizes.typical``; 0: not learnt, and nothing is read)."""
    if not dice or not 0 < table_px < TABLE_UNDER:
        return list(dice)
    out: list[DieReading] = []
    for d in dice:
        if (d.moving or not d.flat or d.on_checker or not d.lie_seen or d.value_confidence >= SURE
                or not 0 < d.size_px < NEED_PX):
            out.append(d)
            continue
        canon = cal.to_canonical(np.asarray([d.xy], np.float32)).reshape(2)
        axes = face_axes(cal.to_image, (float(canon[0]), float(canon[1])), table_px)
        m = match_face(image, d.xy, axes)
        if m is not None and m.sure:
            d = dataclasses.replace(d, value=m.value, value_confidence=TEMPLATE_CONFIDENCE, note="")
        out.append(d)
    return out
