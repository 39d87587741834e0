"""A still die keeps the face it was read with while its picture stands (issue 9: small dice in a
video).

A die of 9-12 px at 640x360 is read on one frame and not on the next: the camera's noise and the
video's compression move a pip's few pixels enough for the face reader, or for the proof that its
pips are resolved (``dice_vet``), to fail on one frame of two. The die has not changed: it lies
where it lay and the motion gate saw none of its pixels change (``reader._lay_still``). A frame
that finds the die but reads no value on it (too small to read, pips not resolved, no face read)
then gives it the reading the last frame gave it there, value and confidence as read then: the
same die showing the same face, seen through other noise. Nothing else is carried:

- only a die this frame found itself (a die it missed is not put back: a die is reported only
  where this frame's search found one);
- only to a die with no value (a value read afresh stands, whatever the last frame read: a
  die that differs is judged on what this frame shows);
- not to a die kept only for standing out from the learnt board, its face read at no confidence
  (``DieReading.sizes_table`` False, ``dice_vet``): it tells the referee a die lies there, not that
  the search found the die it read last frame. Carried into, it made a frame whose two dice were
  both carried from the last one, and the two frames "read alike" settled a roll read once: a 4
  measured at 7 px and read a 2 at 0.89 on one frame taken as 3-2 (clip s11j640 game 9, green at
  640 px, frames 87-88: out of sync);
- only from a die read with a value (fresh, or kept so itself: a die lying still over several
  frames keeps it as long as nothing round it changes);
- never to a die reported tumbling, nor from one.

A die reported tumbling (no crisp face: too small or too blurred) beside a die read lying still, where
a die lay on the last frame and nothing round it changed, has not moved: a rolling die travels further
than that between frames, and turning where it lies changes its own pixels. ``settled`` reports it
lying still with no value ("lying still, its face not read"), as the reader's motion test already takes
it (``reader._moving``): left "tumbling" beside the die read, it held the referee's ``DiceWatch`` ("a
flicker: neither counts nor resets") for as long as it lay (issue 9, real-like game 11 at 640 px).
It is given no face (not even the last frame's): what it shows is not read. Alone (no die read beside
it) it stays "tumbling": a still smear of the board's print is reported so, and a still frame's
tumbling die lies nowhere (``setup_watch.lying_dice``; tests/test_app_setup.py, real-like table 5).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from tavli_pi.vision.observation import DieReading

__all__ = ["KeptFace", "STILL_UNREAD", "kept_faces", "settled"]

#: the note of a die reported tumbling that lies still (``settled``)
STILL_UNREAD = "lying still, its face not read"

#: a die read on the last frame: its centre on the canonical view and its reading
KeptFace = tuple[float, float, DieReading]


def kept_faces(dice: Sequence[DieReading], here: np.ndarray, last: Sequence[KeptFace],
               lay_still: Callable[[float, float], bool] | None, near: float) -> list[DieReading]:
    """``dice`` (this frame's, ``here`` their centres on the canonical view, one row a die) with each
    still die that has no value given the reading of the die ``last`` read within ``near`` canonical
    px of it, when ``lay_still`` says a die lay still there and nothing round it changed."""
    out = list(dice)
    if lay_still is None or not last:
        return out
    for i, (d, xy) in enumerate(zip(dice, here)):
        if d.value or d.moving or not d.sizes_table:
            continue
        x, y = float(xy[0]), float(xy[1])
        dist = [float(np.hypot(lx - x, ly - y)) for lx, ly, _ in last]
        j = int(np.argmin(dist))
        before = last[j][2]
        if dist[j] > near or not before.value or before.moving or not lay_still(x, y):
            continue
        out[i] = dataclasses.replace(before, xy=d.xy)
    return out


def settled(dice: Sequence[DieReading], here: np.ndarray,
            lay_still: Callable[[float, float], bool] | None) -> list[DieReading]:
    """``dice`` (``here`` their centres on the canonical view) with each die reported tumbling that
    ``lay_still`` says lies where a die lay last frame, nothing round it changed, reported lying still
    and unread (no value, ``STILL_UNREAD``), when a die of ``dice`` is read lying still beside it.
    None: no last frame to judge by (nothing changes)."""
    if lay_still is None or not any(d.value and not d.moving for d in dice):
        return list(dice)
    return [dataclasses.replace(d, moving=False, value=0, value_confidence=0.0, note=STILL_UNREAD)
            if d.moving and lay_still(float(xy[0]), float(xy[1])) else d for d, xy in zip(dice, here)]
