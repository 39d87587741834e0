"""A stack's period: a squeezed stack's, not the harmonic of a row of separate checkers' rims.

Sharp rims two radii apart ring at twice their period too: the start's dark 5-stack on real-like
table 7 (seed 0, the set-up board seen again: bench/bench_setup_again.py) had its strongest period at
8 cycles between its ends and was read as 9 squeezed checkers, the board 19 dark (B1)."""

from __future__ import annotations

import numpy as np

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.tallstack import ROW_HARMONIC, period_loglik


def _profile_image(rims: int, length: int = 256, fundamental: float = 0.0) -> np.ndarray:
    """A grey column ``length`` px long with ``rims`` narrow dark rims evenly spaced between its ends,
    plus a wave of ``fundamental`` (its amplitude) at half the rims' count of cycles."""
    t = np.arange(length) / (length - 1)
    prof = np.full(length, 200.0)
    for k in range(rims):
        prof[np.abs(t - k / (rims - 1)) * (length - 1) < 1.5] = 60.0
    prof += fundamental * np.cos(2 * np.pi * (rims - 1) / 2 * t)
    return np.repeat(np.clip(prof, 0, 255)[:, None], 9, axis=1).astype(np.uint8)


def _bonus(img: np.ndarray) -> np.ndarray:
    h = img.shape[0]
    one = np.ones(1)
    return period_loglik(img, 4 * one, 0 * one, 4 * one, (h - 1) * one, np.ones(1, bool))[0]


def test_a_squeezed_stacks_period_earns_its_count() -> None:
    got = _bonus(_profile_image(9))  # 9 rims: 8 cycles, n = 9
    assert int(np.argmax(got)) + 6 == 9 and got.max() > 0


def test_a_harmonic_of_a_rows_period_earns_nothing() -> None:
    # rims at 8 cycles and, as strong as a row of five's, a wave at 4: the row's harmonic
    img = _profile_image(9, fundamental=25.0)
    t = np.arange(256) / 255
    prof = img[:, 4].astype(float) - img[:, 4].mean()
    power = [abs(np.exp(-2j * np.pi * c * t) @ prof) ** 2 for c in (4, 8)]
    assert power[1] > power[0] >= ROW_HARMONIC * power[1]  # the strongest is the harmonic
    assert not _bonus(img).any()


def test_the_start_five_stack_is_not_read_squeezed() -> None:
    t = 7
    scene = reallike_scenes(t + 1, 0)[t]
    first = render(reallike_setup(scene), t)
    again = render(reallike_setup(scene), t, noise_seed=t + 7777)
    cal = learn_board(first.image, refine(Calibration(first.truth.corners, home=first.truth.home), first.image))
    obs = BoardReader(cal).read(again.image)
    assert (obs.points[11].light.best, obs.points[11].dark.best) == (again.truth.light[11], again.truth.dark[11])
    assert not obs.problems
