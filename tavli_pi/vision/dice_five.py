"""A small five shown by its own proof: a pip at the centre and at all four corners, none at the
middles of the sides.

At 8-11 px (a 640x360 frame) the face readers (``pips``, ``pip_sites``) lose a five's pips: its
centre pip merges into the corners (read a four), two corners fall under the blob finder's area
floor (read a two or a three), or all but one (read a one), in both views, at confidences up to
0.93 (issue 9, session 58: on the 640 px real-like games a five read the same by both views was
wrong 47 times and right 19). No confidence floor or agreement of views tells those apart. The five's
own pattern does: each other face lacks one of its marks -- a four has no centre pip, a two or a
three leaves two corners empty, a one all four, and a six (centre empty) inks the side middles.

``five_shown`` samples the nine places a pip can lie (as ``pip_sites`` does: corners, side middles,
centre, a quarter of the side apart) in a face crop, tries the die's centre a little off, its pip
spacing a little larger or smaller and its turn every few degrees, and keeps the pose where the five's
marks stand out best: the faintest of its five pip places over the most pip-like side middle, as a
share of the face's contrast (``FiveRead.clear``). Its pips must also look alike (``FiveRead.even``:
the five pip places' spread, a share of the contrast: a corner place on the board beside a dark die,
or on its shadow, is no pip of it) and the places where no pip lies, the side middles, must look
like the body (``FiveRead.body``). ``is_five``: all three clearly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from tavli_pi.vision.dice import CLEAR
from tavli_pi.vision.dice_vet import AGREED_CONFIDENCE, LEAST_PX, NEED_PX
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.pip_sites import CROP_PX as _N, CROP_SPAN as _SPAN, place_looks, pose_grid

__all__ = ["FIVE_BODY", "FIVE_CLEAR", "FIVE_CONFIDENCE", "FIVE_EVEN", "FIVE_LEAD", "FiveRead", "LOST_FROM", "face_crop_at",
           "five_gate", "five_shown", "is_five", "small_fives"]

#: a pip place's offset from the centre, in the die's side
_OFFSETS = (0.17, 0.2, 0.23, 0.26, 0.29, 0.32)
#: the die's centre tried this far off (die sides), in both directions
_SHIFTS = tuple(0.03 * k for k in range(-5, 6))
#: turns tried (degrees; a face's places repeat every 90)
_TURNS = tuple(float(a) for a in range(0, 90, 5))

_CORNERS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_MIDDLES = ((-1, 0), (1, 0), (0, -1), (0, 1))
#: the body's rim beyond each side middle, in pip offsets: on every face the die's own shade (past it,
#: the board: a pose whose corner places lie on the board beside the die puts these there too)
_RIM = 1.6
_RIMS = ((-_RIM, 0.0), (_RIM, 0.0), (0.0, -_RIM), (0.0, _RIM))
_PLACES = ((0.0, 0.0),) + tuple((float(r), float(c)) for r, c in _CORNERS + _MIDDLES) + _RIMS
# (the five's pips first: centre, corners; then its empty places: side middles, rim)

#: the least margin of the faintest of a five's pip places over the most pip-like side middle, as a
#: share of the face's contrast
FIVE_CLEAR = 0.35
#: the least lead of ``clear`` over the best any other face shows (``FiveRead.lead``): the five shows
#: better than every other face at its places
FIVE_LEAD = 0.0
#: the most the five pip places may differ from one another, as a share of the face's contrast
FIVE_EVEN = 0.6
#: the most pip-like side middle, as a share of the face's contrast: under this (body-coloured)
FIVE_BODY = 0.3


class FiveRead(NamedTuple):
    """How clearly a face crop shows a five at its best pose (shares of the face's contrast)."""

    clear: float  # faintest pip place over the most pip-like side middle
    even: float  # spread of the five pip places
    body: float  # the most pip-like side middle (0: the body's own shade)
    #: ``clear`` over the best any other face's places show (its pip places' faintest over its empty
    #: places' most pip-like, at any pose tried)
    lead: float = 0.0


#: every other face's pips, (row, column) of the nine places (a two and a three on either diagonal, a six
#: in either pair of opposite rows)
_OTHERS = (
    ((0, 0),), ((-1, -1), (1, 1)), ((-1, 1), (1, -1)), ((-1, -1), (0, 0), (1, 1)), ((-1, 1), (0, 0), (1, -1)),
    _CORNERS, ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
    ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
)


@lru_cache(maxsize=1)
def _other_faces() -> tuple[np.ndarray, ...]:
    """Each other face as a row of ``_PLACES``, on or off (the rim off, as for the five)."""
    return tuple(np.asarray([(float(r), float(c)) in {(float(a), float(b)) for a, b in face}
                             for r, c in _PLACES], bool) for face in _OTHERS)


def five_shown(gray: np.ndarray, dark: bool | None = None) -> FiveRead:
    """How a face crop (``_N`` px square, the die's side ``1 / _SPAN`` of it, centred, any turn) shows a
    five; ``dark``: whether its pips are darker than its body (None: the side the face's shades lean to).
    ``FiveRead(0, 1, 1)`` when the face shows no contrast."""
    looks = place_looks(gray, pose_grid(_PLACES, _OFFSETS, _TURNS, _SHIFTS), dark)
    if looks is None:
        return FiveRead(0.0, 1.0, 1.0)
    d = looks.pip_like / looks.contrast  # how much like a pip each place looks
    pips, middles = d[:, :5], d[:, 5:]  # (side middles and rim)
    clear = pips.min(axis=1) - middles.max(axis=1)
    i = int(np.argmax(clear))
    others = max(float((np.where(m, d, np.inf).min(axis=1) - np.where(m, -np.inf, d).max(axis=1)).max())
                 for m in _other_faces())
    return FiveRead(float(clear[i]), float(pips[i].max() - pips[i].min()), float(middles[i].max()),
                    float(clear[i]) - others)


def is_five(r: FiveRead) -> bool:
    """Whether a ``five_shown`` reading shows a five clearly: its five pips stand out of the side middles
    and the rim, better than any other face's places do, alike, and the side middles are the body's shade."""
    return r.clear >= FIVE_CLEAR and r.lead >= FIVE_LEAD and r.even <= FIVE_EVEN and r.body <= FIVE_BODY


#: the confidence a five shown by ``is_five`` is given: under the 0.9 a die is counted sure at and a play
#: is called on (``dice_vet.AGREED_CONFIDENCE``): the referee takes the roll, never calls on it alone
FIVE_CONFIDENCE = AGREED_CONFIDENCE
#: a die the search read one of these values under ``dice.CLEAR`` may be a five whose pips it lost (a
#: four: its centre; a two: two corners; a one: all four corners)
LOST_FROM = (1, 2, 4)


def face_crop_at(image: np.ndarray, xy: tuple[float, float], side: float) -> np.ndarray:
    """The grey square of ``image`` round ``xy`` (image px), ``side * _SPAN`` px across, as ``_N`` x ``_N``
    px square to the image (``five_shown`` tries every turn)."""
    g = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    s = side * _SPAN / _N
    m = np.asarray([[s, 0.0, xy[0] - 0.5 + (0.5 - _N / 2) * s], [0.0, s, xy[1] - 0.5 + (0.5 - _N / 2) * s]],
                   np.float64)
    return cv2.warpAffine(g, m, (_N, _N), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def five_gate(d: DieReading) -> bool:
    """Whether ``small_fives`` looks at ``d``'s face at all: a small still flat die (under
    ``dice_vet.NEED_PX``, measured ``dice_vet.LEAST_PX`` or more, not on a checker, its lie seen) with no
    value, or a value of ``LOST_FROM`` under ``dice.CLEAR``."""
    return (d.flat and not d.moving and not d.on_checker and d.lie_seen and LEAST_PX <= d.size_px < NEED_PX
            and (d.value == 0 or (d.value in LOST_FROM and d.value_confidence < CLEAR)))


def small_fives(dice: Sequence[DieReading], image: np.ndarray, dark: bool | None = None,
                table_px: float = 0.0) -> list[DieReading]:
    """``dice`` (vetted, a stream's) with each die ``five_gate`` passes (small, still, flat, with no value or
    one of ``LOST_FROM`` read unsurely) read a five at ``FIVE_CONFIDENCE`` where its face shows one (``is_five``, in ``image``
    round its place at its measured side, or at ``table_px``, the side the table's dice show
    (``dice_table_size``; 0: not learnt), where that is a small die's too). ``dark``: the table's pips are
    darker than its faces (``dice_small.PipPolarity``; None: not known, the face's own shades decide)."""
    out: list[DieReading] = []
    for d in dice:
        if five_gate(d) and any(is_five(five_shown(face_crop_at(image, d.xy, side), dark))
                                for side in (d.size_px, table_px) if LEAST_PX <= side < NEED_PX):
            d = dataclasses.replace(d, value=5, value_confidence=FIVE_CONFIDENCE, note="")
        out.append(d)
    return out
