"""A still die keeps the face it was read with while its picture stands (issue 9: small dice in a
video read on one frame and withheld on the next): ``dice_kept.kept_faces`` and the reader's use of it."""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.vision.dice_kept import STILL_UNREAD, KeptFace, kept_faces, settled
from tavli_pi.vision.observation import DieReading
from tests.vision._recording import dice_read_from


def _die(value: int, conf: float, xy: tuple[float, float], moving: bool = False, note: str = "") -> DieReading:
    return DieReading(xy=xy, value=value, value_confidence=conf, flat=not moving, on_checker=False, half="right",
                      size_px=10.0, moving=moving, note=note)


UNREAD = _die(0, 0.0, (100.0, 50.0), note="too small to read (10 px, need 12)")
HERE = np.asarray([[100.0, 50.0]], np.float32)  # (the canonical view taken as the frame's own, here)
READ: list[KeptFace] = [(101.0, 50.0, _die(5, 0.91, (101.0, 50.0)))]


def _still(x: float, y: float) -> bool:
    return True


def _moved(x: float, y: float) -> bool:
    return False


def test_a_die_with_no_value_where_one_was_read_and_nothing_changed_keeps_that_reading() -> None:
    got = kept_faces([UNREAD], HERE, READ, _still, near=5.0)
    assert [(d.value, d.value_confidence, d.note, d.xy) for d in got] == [(5, 0.91, "", UNREAD.xy)]


def test_nothing_is_kept_where_the_picture_changed_or_from_afar_or_with_no_last_frame() -> None:
    assert kept_faces([UNREAD], HERE, READ, _moved, near=5.0) == [UNREAD]  # its pixels changed
    assert kept_faces([UNREAD], HERE, READ, _still, near=0.5) == [UNREAD]  # the read die lay elsewhere
    assert kept_faces([UNREAD], HERE, READ, None, near=5.0) == [UNREAD]  # a still photo, a first frame
    assert kept_faces([UNREAD], HERE, [], _still, near=5.0) == [UNREAD]


def test_a_value_read_afresh_stands_and_a_tumbling_die_keeps_none() -> None:
    four = _die(4, 0.7, (100.0, 50.0))
    assert kept_faces([four], HERE, READ, _still, near=5.0) == [four]
    tumbling = _die(0, 0.0, (100.0, 50.0), moving=True)
    assert kept_faces([tumbling], HERE, READ, _still, near=5.0) == [tumbling]
    was_tumbling: list[KeptFace] = [(101.0, 50.0, _die(0, 0.0, (101.0, 50.0), moving=True))]
    assert kept_faces([UNREAD], HERE, was_tumbling, _still, near=5.0) == [UNREAD]


def test_a_die_kept_only_for_standing_out_keeps_no_face() -> None:
    """A small die whose face the search read at no confidence, kept by ``dice_vet`` for standing out
    from the learnt board (``sizes_table`` False), says a die lies there: carried into, it made clip
    s11j640 game 9's frame 88 a copy of frame 87 (a 4 read a 2 at 0.89 on that one frame beside a 3),
    and the two frames settled the roll 3-2. The same die unread with no such mark keeps the face."""
    standing_out = dataclasses.replace(UNREAD, size_px=8.3, sizes_table=False)
    assert kept_faces([standing_out], HERE, READ, _still, near=5.0) == [standing_out]
    assert kept_faces([dataclasses.replace(standing_out, sizes_table=True)], HERE, READ, _still,
                      near=5.0)[0].value == 5


def test_a_still_pair_of_ones_read_on_one_frame_stays_read_while_it_lies() -> None:
    """The recording of bench_video.py --size 640, seed 0, game 7 (beech, dice of 9 px): a 1-1 lies
    still on frames 32-36; both ones are read on frame 33, and on frame 34 neither is (too small to
    read: their pips not shown resolved), on 35 and 36 one only -- the referee asked for the roll. Lying
    where they lay, nothing round them changed, both are read ones on frames 33-36."""
    seen = 0
    for i, truth, dice in dice_read_from(7, first=33, frames=37):
        assert [d.value for d in truth.dice] == [1, 1], i
        assert sorted(d.value for d in dice) == [1, 1], (i, dice)
        assert all(d.value_confidence > 0.85 and not d.moving for d in dice), (i, dice)
        seen += 1
    assert seen == 4


def test_a_die_reported_tumbling_where_a_die_lay_and_nothing_changed_lies_still_unread() -> None:
    """A die the reader reports tumbling beside a read one, lying where a die lay last frame with none of
    its pixels changed, has not moved: reported tumbling it held the referee's roll watch while it lay."""
    tumbling = _die(3, 0.2, (100.0, 50.0), moving=True)
    read = _die(5, 0.91, (60.0, 50.0))
    here = np.asarray([[100.0, 50.0], [60.0, 50.0]], np.float32)
    got = settled([tumbling, read], here, _still)
    assert got[1] == read
    assert (got[0].moving, got[0].value, got[0].value_confidence, got[0].note, got[0].xy) == \
        (False, 0, 0.0, STILL_UNREAD, tumbling.xy)


def test_a_tumbling_die_whose_picture_changed_or_with_no_last_frame_stays_tumbling() -> None:
    tumbling = _die(0, 0.0, (100.0, 50.0), moving=True)
    assert settled([tumbling], HERE, _moved) == [tumbling]
    assert settled([tumbling], HERE, None) == [tumbling]
    assert settled([UNREAD], HERE, _still) == [UNREAD]  # a still die is left as it is


def test_a_lone_die_reported_tumbling_stays_tumbling() -> None:
    """With no die read beside it, a still "tumbling" die is left as reported: a smear of the board's
    print lies so on every frame, and a still frame's tumbling die lies nowhere (``setup_watch.lying_dice``)."""
    tumbling = _die(0, 0.0, (100.0, 50.0), moving=True)
    unread = _die(0, 0.0, (60.0, 50.0), note="too small to read (10 px, need 12)")
    here = np.asarray([[100.0, 50.0], [60.0, 50.0]], np.float32)
    assert settled([tumbling], HERE, _still) == [tumbling]
    assert settled([tumbling, unread], here, _still) == [tumbling, unread]
