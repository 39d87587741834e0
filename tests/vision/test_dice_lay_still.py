"""A small still die that looks smeared is read as the still die it is (issue 9): a body reported
tumbling where a die lay still on the last frame is read as a still die (``find_dice``'s
``lay_still``, from the reader's memory and its motion gate), and a still die the finer view reads
with a clear face replaces the canonical view's tumbling report at its place (``dice._merge``)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.dice import _merge
from tavli_pi.vision.dice_vet import SMALL_CONFIDENCE
from tavli_pi.vision.observation import DieReading
from tests.vision._recording import dice_read_from


def _die(value: int, conf: float, xy: tuple[float, float], moving: bool = False) -> DieReading:
    return DieReading(xy=xy, value=value, value_confidence=conf, flat=not moving, on_checker=False, half="right",
                      size_px=10.0, moving=moving)


def test_a_still_six_reported_tumbling_on_frame_after_frame_is_read() -> None:
    """bench_video.py --size 640, seed 0, game 7 (beech, dice of 10 px): Black's 6-1 lies still from
    frame 11; the six's two bars looked smeared to the coherence test and it was reported tumbling on
    frames 11-15 (the roll asked for). Lying where it lay, the picture unchanged round it, it is read
    a six on every frame, and nowhere reported moving."""
    sixes = 0
    for i, truth, dice in dice_read_from(7, first=11, frames=16):
        six = [d for d in truth.dice if d.value == 6 and not d.moving]
        assert six, i
        near = [d for d in dice if np.hypot(d.xy[0] - six[0].xy[0], d.xy[1] - six[0].xy[1]) < six[0].size_px]
        assert [d.value for d in near] == [6], (i, near)
        assert SMALL_CONFIDENCE < near[0].value_confidence < 0.9, (i, near)
        assert not any(d.moving for d in dice), (i, dice)
        sixes += 1
    assert sixes == 5


def test_a_still_die_read_clearly_replaces_a_tumbling_report_at_its_place() -> None:
    """1280 seed 0 game 3's 6-5: the canonical view reported the six tumbling, the finer view read it
    still (0.87); both were kept, a frame of three dice, one moving, and the roll was asked for."""
    tumbling = _die(0, 0.0, (100.0, 100.0), moving=True)
    six = _die(6, 0.87, (101.0, 99.0))
    five = _die(5, 0.95, (140.0, 100.0))
    assert _merge([five, tumbling], [six]) == [five, six]


def test_a_still_die_away_from_a_tumbling_one_is_added_beside_it() -> None:
    """Only the report at the read die's place goes: a die tumbling elsewhere stays."""
    tumbling = _die(0, 0.0, (100.0, 100.0), moving=True)
    six = _die(6, 0.87, (130.0, 100.0))
    assert _merge([tumbling], [six]) == [tumbling, six]
