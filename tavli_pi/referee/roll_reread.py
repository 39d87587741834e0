"""The roll's dice read again while they lie: how surely each die of the roll was read.

A roll is taken on the frame its dice settle, at the confidence each die was read at then
(:class:`~tavli_pi.referee.dice.DiceWatch` gives the best of the frames that settled it). The dice
then lie still while the roller plays, and the camera reads them on every frame; an illegal call
needs each die read surely (``illegal_confidence``, :mod:`tavli_pi.referee.roll_doubt`). So, as a
tournament director who looks at the dice again before calling: a die of the roll read again with the
same value, lying still and flat where it lay, on a frame with no hand or motion, is as sure as the
surest such read; a die read there with *another* value (at ``min_confidence`` or more) is no longer
sure at all: read two ways, it could be either, and no call rests on it.

A recording at 640x360 (``bench_video`` game 2, 11 px dice) read White's 5 at 0.93, 0.90, 0.90, 0.90
on the frames it lay still, the roll taken at 0.8977 on one of them: the planted 6-1 play made with
5-1 was not called but asked about ("the dice were read 5-1 without certainty"), and nobody answers a
recording.

Dice the players entered are theirs (conf 1.0), left as they are. Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavli_pi.vision.observation import DieReading

__all__ = ["slots_of", "read_again", "SAME_PLACE"]

#: how far (in die sides) a die read again may lie from where a die of the roll lay and be that die
SAME_PLACE = 0.75


def slots_of(roll: Sequence[DieReading]) -> tuple[int, ...]:
    """For each die of ``roll`` (two dice, as they lay when the roll was taken), its place in the
    roll's confidence pair: the higher value first, a double by the confidence it was read at (as
    the pair was made: ``(value, confidence)`` sorted from high to low)."""
    order = sorted(range(len(roll)), key=lambda i: (roll[i].value, roll[i].value_confidence), reverse=True)
    slots = [0] * len(roll)
    for slot, i in enumerate(order):
        slots[i] = slot
    return tuple(slots)


def _near(a: DieReading, b: DieReading) -> bool:
    side = max(a.size_px, b.size_px)
    if side <= 0:
        return False
    return (a.xy[0] - b.xy[0]) ** 2 + (a.xy[1] - b.xy[1]) ** 2 <= (SAME_PLACE * side) ** 2


def read_again(conf: tuple[float, float], against: tuple[bool, bool], roll: Sequence[DieReading],
               seen: Sequence[DieReading], min_confidence: float) -> tuple[tuple[float, float], tuple[bool, bool]]:
    """``conf`` (each die's confidence, high die first) and ``against`` (each die read otherwise since
    the roll was taken) after a clear frame showing ``seen``: a die of ``roll`` read again where it lay
    -- still, flat, the one die seen there -- with its value raises its confidence to that read's; with
    another value at ``min_confidence`` or more, it is read otherwise and its confidence is 0 from then
    on. Call it only for frames with no hand or motion; ``roll`` must be the roll's two read dice."""
    if len(roll) != 2 or any(d.note == "entered" or not 1 <= d.value <= 6 for d in roll):
        return conf, against
    out, no = list(conf), list(against)
    for d, slot in zip(roll, slots_of(roll)):
        there = [s for s in seen if _near(s, d)]
        if len(there) != 1:
            continue  # not seen there, or two dice there: nothing said of this die
        s = there[0]
        if s.moving or not s.flat or not s.value or s.value_confidence < min_confidence:
            continue
        if s.value != d.value:
            no[slot] = True
        elif not no[slot]:
            out[slot] = max(out[slot], s.value_confidence)
        if no[slot]:
            out[slot] = 0.0
    return (out[0], out[1]), (no[0], no[1])
