"""A slot the learnt position filled reads its colour against that checker's set-up look.

The light scaled between the points' first checkers (``lighting.slot_colours``) is wrong along a
stack whose first checker the field's edge shades: on real-like table 16 (seed 0, a low-contrast
pinetti pair) a frame of the very position the board was learnt from read point 17's dark 3 as light,
and the board 18 light and 12 dark (B1), every point tempered under 0.9
(bench/bench_setup_again.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.held_colours import held_pair
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board

AGAIN = 7777  # bench/bench_setup_again.py's second frame


def test_a_held_slot_takes_its_checkers_look_and_scales_the_other() -> None:
    # the pair as lit from the first checkers (shaded), and a dark checker seen at set-up at 180
    light, dark = np.full((1, 2, 3), 165.0, np.float32), np.full((1, 2, 3), 104.0, np.float32)
    learnt = np.full((1, 2, 3), 180.0, np.float32)
    held = np.array([[-1, 0]], np.int8)
    lt, dk, blur = held_pair(light, dark, np.full((1, 2), 5.0, np.float32), learnt, held)
    assert np.allclose(dk[0, 0], 180.0) and np.all(lt[0, 0] > 250.0)  # 165 * 180 / 104, no brighter than 255
    assert np.allclose(lt[0, 1], 165.0) and np.allclose(dk[0, 1], 104.0) and blur[0, 1] == 5.0  # not held: as lit
    assert blur[0, 0] == 5.0  # the other colour's look is inferred: as unsure as the light model
    seen = np.full((1, 2, 3), 181.0, np.float32)  # the same dark checker in a later frame
    assert ck.p_light(seen, light, dark)[0, 0] > 0.9 > 0.1 > ck.p_light(seen, lt, dk, blur)[0, 0]


def test_a_held_slot_whose_set_up_look_is_no_checker_keeps_the_pair() -> None:
    light, dark = np.full((1, 1, 3), 200.0, np.float32), np.full((1, 1, 3), 100.0, np.float32)
    lt, dk, _ = held_pair(light, dark, 0.0, np.full((1, 1, 3), 20.0, np.float32), np.array([[-1]], np.int8))
    assert np.allclose(lt, 200.0) and np.allclose(dk, 100.0)


@pytest.mark.parametrize(("table", "point"), [(16, 16), (38, 12)])
def test_the_set_up_board_seen_again_adds_up_and_reads_its_colours_surely(table: int, point: int) -> None:
    scene = reallike_scenes(table + 1, 0)[table]
    first = render(reallike_setup(scene), table)
    again = render(reallike_setup(scene), table, noise_seed=table + AGAIN)
    cal = learn_board(first.image, refine(Calibration(first.truth.corners, home=first.truth.home), first.image))
    obs = BoardReader(cal).read(again.image)
    truth = again.truth
    assert [(p.light.best, p.dark.best) for p in obs.points] == list(zip(truth.light[:24], truth.dark[:24]))
    assert not obs.problems
    got = obs.points[point]
    assert min(got.light.confidence, got.dark.confidence) >= 0.75  # (0.44 before: the whole board tempered)
