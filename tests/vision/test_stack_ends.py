"""A stack's fully visible end, judged against the board learnt at set-up.

A ring on the empty board beyond a stack (a print, a caption's loop) that rang alike on the set-up
frame and has not changed is the board's, not the stack's last checker: on real-like table 36 (seed 1,
the set-up board seen again: bench/bench_setup_again.py) point 8's light 3 was read 5, the board 17
light (B1), every point tempered under 0.9."""

from __future__ import annotations

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board


def test_a_ring_on_the_set_up_board_beyond_a_stack_is_not_its_end() -> None:
    seed, table = 1, 36
    scene = reallike_scenes(table + 1, seed)[table]
    first = render(reallike_setup(scene), seed * 100003 + table)
    again = render(reallike_setup(scene), seed * 100003 + table, noise_seed=seed * 100003 + table + 7777)
    cal = learn_board(first.image, refine(Calibration(first.truth.corners, home=first.truth.home), first.image))
    obs = BoardReader(cal).read(again.image)
    got = obs.points[7]
    assert (got.light.best, got.dark.best) == (again.truth.light[7], again.truth.dark[7])
    assert min(got.light.confidence, got.dark.confidence) >= 0.9
    assert not obs.problems
