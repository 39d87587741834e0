"""The size a table's dice show, learnt from a stream (``dice_table_size``), and what ``dice_vet``
does with it: a die measured under ``LEAST_PX`` on a table whose dice are larger is held to
``NEED_PX``'s proof, not refused outright; on a table whose dice are that small it is refused."""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice_table_size import SIZES_KEPT, SIZES_LEAST, DieSizes
from tavli_pi.vision.dice_vet import AGREED_CONFIDENCE, LEAST_PX, NEED_PX, SMALL_CONFIDENCE, vet_dice
from tavli_pi.vision.observation import DieReading
from tavli_pi.vision.reader import BoardReader
from tests.vision._recording import recording

CAL = Calibration(np.float32([[100, 50], [700, 50], [700, 600], [100, 600]]))


def _die(size: float, conf: float = AGREED_CONFIDENCE, moving: bool = False) -> DieReading:
    return DieReading((550.0, 300.0), 0 if moving else 4, 0.0 if moving else conf, True, False, "right",
                      size_px=size, moving=moving)


def test_the_table_size_is_the_median_of_the_still_dice_once_enough_were_measured() -> None:
    sizes = DieSizes()
    sizes.add([_die(8.4), _die(6.6), _die(9.1)])
    assert sizes.typical() == 0.0  # too few yet
    sizes.add([_die(7.7), _die(8.3), _die(8.5), _die(30.0, moving=True), _die(0.0)])
    assert SIZES_LEAST == 6
    assert sizes.typical() == float(np.median([8.4, 6.6, 9.1, 7.7, 8.3, 8.5]))


def test_only_the_last_sizes_are_kept() -> None:
    sizes = DieSizes()
    sizes.add([_die(20.0)] * SIZES_KEPT)
    sizes.add([_die(9.0)] * (SIZES_KEPT // 2 + 1))
    assert sizes.typical() == 9.0


def test_a_die_measured_short_on_a_table_of_larger_dice_keeps_a_value_its_pips_proved() -> None:
    (alone,) = vet_dice([_die(7.4)], CAL, None)
    assert alone.value == 0 and alone.note == f"too small to read (7 px, need {LEAST_PX})"
    (d,) = vet_dice([_die(7.4)], CAL, None, table_px=8.3)
    assert d.value == 4 and d.value_confidence == AGREED_CONFIDENCE


def test_a_die_measured_short_still_needs_its_pips_proved() -> None:
    (d,) = vet_dice([_die(7.4, conf=SMALL_CONFIDENCE)], CAL, None, table_px=8.3)
    assert d.value == 0 and d.note == f"too small to read (7 px, need {NEED_PX})"
    (cocked,) = vet_dice([dataclasses.replace(_die(7.4), flat=False)], CAL, None, table_px=8.3)
    assert cocked.value == 0


def test_on_a_table_of_dice_that_small_none_is_read() -> None:
    (d,) = vet_dice([_die(6.4)], CAL, None, table_px=6.9)
    assert d.value == 0 and d.note == f"too small to read (6 px, need {LEAST_PX})"


def test_a_stream_learns_the_size_its_tables_dice_show() -> None:
    # game 0 of ``bench_video.py --size 640`` (seed 0): a wood board's dice of 8.3-8.5 px
    reader, true = None, []
    for _, truth, image, reader in recording(0, frames=16):
        if reader is not None:
            reader.read(image)
            true += [d.size_px for d in truth.dice if not d.moving]
    assert reader is not None and true
    assert abs(reader.table_die_px - float(np.median(true))) < 1.0


def test_a_still_photo_learns_no_size() -> None:
    for _, truth, image, reader in recording(0, frames=16):
        if reader is not None and any(not d.moving for d in truth.dice):
            photo = BoardReader(reader.calibration, still_photo=True)
            found = [d for _ in range(SIZES_LEAST + 1) for d in photo.read(image).dice if d.size_px]
            assert found  # dice were measured, and none is learnt from
            assert photo.table_die_px == 0.0
            return
    raise AssertionError("no still dice in the recording's first frames")
