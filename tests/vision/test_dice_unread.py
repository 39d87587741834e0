"""Dice too small to read, found by their whole body (issue 9: "dice of 8-12 px were missed";
"below the size at which pips can be read, a die is reported as too small to read (N px, need M).
It is never given a value"). On a 640x360 recording of a wood board the dice are 8.3-8.5 px: their
white bodies stand out plainly from the learnt board, but no face is read on them, and a hat blob
was a die only with a face read, so most were missed outright (``vision/dice_unread.py``)."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.render import Truth
from tavli_pi.vision.dice_unread import pips_in, unread_body
from tavli_pi.vision.lie import Outline
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.tumbling import HatBlob

from tests.vision._recording import recording

PITCH = 44.0
DIE = HatBlob(100.0, 100.0, 17.0, 16.0, 250.0, 0.6)
#: a small die's outline as measured on the wood recording: square, a step to the ground all
#: round, its blurred pips a quarter of it in a colour of their own
SQUARE = Outline(aspect=0.99, offset=0.0, long_=13.3, angle=10.0, centre=(100.0, 101.0), stands_out=3.0,
                 hollow=0.24, hole_ground=1.33)


def _always(x: float, y: float, r: float) -> bool:
    return True


def _never(x: float, y: float, r: float) -> bool:
    return False


def test_a_square_body_that_stands_out_is_a_die() -> None:
    assert unread_body(SQUARE, DIE, PITCH, _always, 2, True) == (100.0, 101.0)


def test_a_body_in_the_learnt_background_is_no_die() -> None:
    # lettering, a logo, the cube in its place: the board as learnt at set-up
    assert unread_body(SQUARE, DIE, PITCH, _never, 2, True) is None


def test_outlines_no_die_has_are_refused() -> None:
    assert unread_body(SQUARE._replace(aspect=0.75), DIE, PITCH, _always, 2, True) is None  # oblong (cocked, a hinge)
    assert unread_body(SQUARE._replace(stands_out=0.3), DIE, PITCH, _always, 2, True) is None  # printed on the board
    assert unread_body(SQUARE._replace(hollow=0.4, hole_ground=0.2), DIE, PITCH, _always, 2, True) is None  # a letter's loop
    assert unread_body(SQUARE._replace(long_=0.7 * PITCH), DIE, PITCH, _always, 2, True) is None  # larger than a die
    assert unread_body(SQUARE._replace(long_=0.15 * PITCH), DIE, PITCH, _always, 2, True) is None  # a speck


def test_with_no_outline_the_blob_itself_must_be_square_and_full() -> None:
    assert unread_body(None, DIE, PITCH, _always, 2, True) == (100.0, 100.0)
    assert unread_body(None, DIE._replace(short=10.0), PITCH, _always, 2, True) is None  # oblong box
    assert unread_body(None, DIE._replace(fill=0.3), PITCH, _always, 2, True) is None  # a wedge, a ring
    assert unread_body(None, DIE, PITCH, _never, 2, True) is None


def test_a_body_with_no_pip_in_it_is_no_die() -> None:
    # a patch of changed light, a checker's rim: a die shows at least one pip
    assert unread_body(SQUARE, DIE, PITCH, _always, 0, True) is None
    assert unread_body(None, DIE, PITCH, _always, 0, True) is None


def test_a_smeared_blob_is_taken_only_with_an_outline() -> None:
    # a tumbling die's blob; its outline, when one can be drawn, is oblong
    assert unread_body(None, DIE, PITCH, _always, 2, False) is None
    assert unread_body(SQUARE, DIE, PITCH, _always, 2, False) == (100.0, 101.0)


def test_pips_are_spots_of_the_other_shade_inside_the_blob() -> None:
    spots = [(100.0, 100.0, False), (104.0, 96.0, False), (100.0, 100.0, True), (130.0, 100.0, False)]
    assert pips_in(DIE, spots) == 2  # dark pips on a light body; the bright spot and the far one are not
    assert pips_in(DIE._replace(dark=True), spots) == 1


def _wood_recording(frames: int) -> list[tuple[Truth, list[DieReading]]]:
    """Game 0 of ``bench_video.py --size 640`` (seed 0: a wood board, dice of 8.3-8.5 px): each frame
    after set-up, up to its ``frames``-th with still dice, and what the reader reports there, the
    board learnt on its set-up frame with the true corners."""
    out: list[tuple[Truth, list[DieReading]]] = []
    for _, truth, image, reader in recording(0):
        if reader is None:
            continue
        out.append((truth, list(reader.read(image).dice)))
        frames -= any(not d.moving for d in truth.dice)
        if frames == 0:
            break
    return out


def test_small_dice_on_a_recording_are_found_too_small_to_read_never_valued() -> None:
    seen = _wood_recording(11)
    found = total = 0
    for truth, dice in seen:
        still = [d for d in truth.dice if not d.moving]
        for t in still:
            near = [d for d in dice if np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1]) < 0.9 * t.size_px]
            total += 1
            if near:
                found += 1
                assert near[0].value in (0, t.value)  # never a wrong value
        for d in dice:
            if d.moving:
                continue
            # no die where none is
            assert any(np.hypot(d.xy[0] - t.xy[0], d.xy[1] - t.xy[1]) < 0.9 * t.size_px for t in still), d
            if not d.value:
                assert d.note.startswith("too small to read"), d
    # measured: 17 of 22 (base: 11 of 22; the six of frames 4-8, whose pips run into two bars, is
    # still missed)
    assert total == 22
    assert found >= 15, (found, total)
