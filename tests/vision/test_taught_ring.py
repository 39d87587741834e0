"""The set-up slot model reads a slot unchanged since the board was learnt by how it rang then.

A dark checker on a dark point rings faintly even on the set-up frame the players confirmed; the
model weighed "unchanged since set-up" weakly against the ring, so the set-up board seen again with
fresh sensor noise read such stacks short (bench/bench_setup_again.py: 5 wrong points of 960, 62
of 1200 filled slots held under 0.8 at stop 37). ``Calibration.taught_ring`` keeps each slot's ring
on the teaching frame, and the model (``setup_slots._still_design``) reads a still slot by it."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision import setup_slots
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

AGAIN = 7777  # bench/bench_setup_again.py's second frame


def _learnt(seed: int, table: int) -> tuple[Calibration, np.ndarray, object]:
    scene = reallike_scenes(table + 1, seed)[table]
    s = render(reallike_setup(scene), seed * 100003 + table)
    again = render(reallike_setup(scene), seed * 100003 + table, noise_seed=seed * 100003 + table + AGAIN)
    cal = learn_board(s.image, refine(Calibration(s.truth.corners, home=s.truth.home), s.image))
    return cal, again.image, again.truth


def test_the_taught_ring_is_learnt_kept_and_checked() -> None:
    cal, _, _ = _learnt(0, 19)
    assert cal.taught_ring is not None and len(cal.taught_ring) == 26
    t = np.asarray(cal.taught_ring)
    filled = setup_slots.start_slots()[:, : t.shape[1]]
    # the start's checkers ring in their slots, its empty slots do not (medians over the board)
    assert np.median(t[filled]) > 3.0 > -3.0 > np.median(t[~filled])
    assert Calibration.from_dict(cal.to_dict()).taught_ring == cal.taught_ring
    with pytest.raises(CalibrationError, match="recalibrate"):
        cal.with_(taught_ring=cal.taught_ring[:25])


@pytest.mark.parametrize(("table", "point"), [(19, 17), (19, 19), (35, 1)])
def test_a_faint_stack_unchanged_since_set_up_is_read_whole(table: int, point: int) -> None:
    cal, image, truth = _learnt(0, table)
    true = (truth.light[point], truth.dark[point])  # type: ignore[attr-defined]
    got = BoardReader(cal).read(image).points[point]
    assert (got.light.best, got.dark.best) == true
    assert min(got.light.confidence, got.dark.confidence) >= 0.9
