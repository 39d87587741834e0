"""A checker come onto a point empty at set-up with a body of the point's colour (vision/faint_arrived.py)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of
from tavli_pi.vision import faint_arrived as fa
from tavli_pi.vision import setup_slots
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board


def _board(rim: float, checkers: dict[int, float], size: int = 10) -> np.ndarray:
    """A row of 24 dark points (grain-free, paint 30) ``2 size`` px apart, with a checker (body 30,
    rim ``rim``) on the points of ``checkers``: (H, W, 3) float32."""
    h, w = 4 * size, 24 * 2 * size + 2 * size
    img = np.full((h, w, 3), 30.0, np.float32)
    yy, xx = np.mgrid[0:h, 0:w]
    for i, level in checkers.items():
        d = np.hypot(xx - (i * 2 * size + size), yy - 2 * size)
        img[(d >= 0.7 * size) & (d < size)] = level
        img[d < 0.7 * size] = 30.0
    return img


def _geometry(size: int = 10) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    x = np.arange(24) * 2.0 * size + size
    return x, np.full(24, 2.0 * size), np.full(24, float(size)), np.zeros(24, bool)


def test_the_rim_change_is_the_band_round_the_slot() -> None:
    diff = np.zeros((40, 40), np.float32)
    yy, xx = np.mgrid[0:40, 0:40]
    diff[np.hypot(xx - 20, yy - 20) >= 6] = 9.0  # the band (6..10 px of a 10 px slot) changed
    got = fa.rim_change(diff, np.asarray([20.0]), np.asarray([20.0]), np.asarray([10.0]))
    assert got[0] == pytest.approx(9.0)
    # off the grid: no reading
    assert np.isnan(fa.rim_change(diff, np.asarray([3.0]), np.asarray([20.0]), np.asarray([10.0]))[0])


def test_the_band_quarters_kept_per_place_part_the_band_row_by_row() -> None:
    """``rim_change`` takes each quarter's pixels by index, kept per place (issue 12): the quarters
    part the band (every pixel from ``RIM_INNER`` r to r, each in one quarter: the one its larger
    offset points to), row by row as a boolean mask takes them -- so each quarter's mean adds up
    as before, to the bit."""
    rng = np.random.default_rng(3)
    for cx, cy, cr in zip(rng.uniform(20, 60, 40), rng.uniform(20, 60, 40), rng.uniform(2.5, 14, 40)):
        got = fa._band_quarters(float(cx), float(cy), float(cr))
        assert got is not None
        seen = set()
        for q, (ys, xs) in enumerate(got):
            assert not ys.flags.writeable and not xs.flags.writeable
            order = ys * 1000 + xs
            assert (np.diff(order) > 0).all()  # row by row, each pixel once
            d = np.hypot(xs - cx, ys - cy)
            assert ((d >= fa.RIM_INNER * cr) & (d < cr)).all()
            side = np.abs(xs - cx) >= np.abs(ys - cy)
            want = [side & (xs < cx), side & (xs >= cx), ~side & (ys < cy), ~side & (ys >= cy)][q]
            assert want.all()
            seen |= set(order.tolist())
        yy, xx = np.mgrid[0:100, 0:100]
        d = np.hypot(xx - cx, yy - cy)
        assert seen == set((yy * 1000 + xx)[(d >= fa.RIM_INNER * cr) & (d < cr)].tolist())


def test_the_rim_change_kept_places_hold_nothing_of_an_image() -> None:
    """The pixels kept per place are the place's only: a change read with them kept from another
    image's reads, or made afresh, is the same to the bit (either kind, a shift or none)."""
    rng = np.random.default_rng(4)
    x, y, r = rng.uniform(12, 88, 30), rng.uniform(12, 48, 30), rng.uniform(3, 11, 30)
    a, b = rng.random((60, 100)).astype(np.float32), rng.random((60, 100)).astype(np.float32)
    ca, cb = rng.integers(0, 255, (60, 100, 3), np.uint8), rng.integers(0, 255, (60, 100, 3), np.uint8)
    shift = rng.integers(-4, 5, 30).astype(np.float64)
    fa._band_quarters.cache_clear()
    fresh = fa.rim_change(b, x, y, r), fa.rim_change(cb, x, y, r, ca, shift)
    fa._band_quarters.cache_clear()
    fa.rim_change(a, x, y, r)
    kept = fa.rim_change(b, x, y, r), fa.rim_change(cb, x, y, r, ca, shift)
    for f, k in zip(fresh, kept):
        assert np.isfinite(f).sum() > 20
        np.testing.assert_array_equal(f, k)


def test_a_dark_checker_on_dark_paint_is_learnt_by_its_rim() -> None:
    x, y, r, top = _geometry()
    held = np.zeros(24, np.int64)
    held[11] = -1  # a dark checker on point 12's paint (index 11: odd index)
    looks = fa.learn(_board(60.0, {11: 60.0}), x, y, r, top, held)
    look = looks[(1, -1)]
    assert look.checker > 10.0 and look.grain == pytest.approx(0.0)
    assert (0, -1) not in looks and (1, 1) not in looks  # no set-up checker there: nothing learnt
    # a rim the paint's own colour: the checker cannot be told, and nothing is lifted by it
    flat = fa.learn(_board(30.0, {11: 30.0}), x, y, r, top, held)[(1, -1)]
    assert fa.arrived_probability(3.0, (np.log(3.0), 0.2), flat) is None


def test_a_change_like_a_checkers_reads_arrived_and_noise_does_not() -> None:
    look = fa.FaintLook(checker=9.7, grain=7.2)  # real-like game 19's dark checker on its dark points
    noise = (float(np.log(4.6 + 1.0)), 0.15)
    high, low = fa.arrived_probability(9.0, noise, look), fa.arrived_probability(4.6, noise, look)
    assert high is not None and high > 0.9
    assert low is not None and low < 0.1
    assert fa.noise_level(np.asarray([1.0, np.nan, 2.0])) is None
    level = fa.noise_level(np.asarray([4.0, 4.0, 5.0, 30.0]))
    assert level is not None and level[0] == pytest.approx((np.log(5.0) + np.log(6.0)) / 2)


def _game19() -> tuple[Calibration, list]:  # type: ignore[type-arg]
    """Real-like game 19 (bench_reallike --games 200, seed 0): rosewood at 640 px, its black checkers the
    colour of its black points. The board learnt on its set-up frame, and its moments."""
    kw = reallike_game_tables(20, 0)[19]
    moments = random_game(19, turns=8, plant_illegal=0)
    s = render(scene_of(moments[2], **kw), 19)
    base = refine(Calibration(s.truth.corners, home=s.truth.home), s.image)  # type: ignore[arg-type]
    return learn_board(s.image, base), moments


@pytest.fixture(scope="module")
def game19() -> tuple[Calibration, list]:  # type: ignore[type-arg]
    return _game19()


def _read(cal: Calibration, moments: list, m: int, seed: int) -> tuple[object, object]:  # type: ignore[type-arg]
    kw = reallike_game_tables(20, 0)[19]
    frame = render(scene_of(moments[m], **kw), seed)
    return frame.truth, BoardReader(cal).read(frame.image)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lone_dark_checkers_on_dark_points_are_read(
        game19: tuple[Calibration, list], seed: int) -> None:  # type: ignore[type-arg]
    cal, moments = game19
    truth, obs = _read(cal, moments, 16, seed)
    for point in (2, 22):  # a dark blot on each, both points empty (and dark) at set-up
        assert truth.dark[point - 1] == 1 and truth.light[point - 1] == 0  # type: ignore[attr-defined]
        got = obs.points[point - 1]  # type: ignore[attr-defined]
        assert (got.light.best, got.dark.best) == (0, 1)


def test_without_the_rim_they_read_empty(
        game19: tuple[Calibration, list], monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[type-arg]
    # the test above fails without faint_arrived: the model alone holds the blots empty
    cal, moments = game19
    monkeypatch.setattr(setup_slots, "_faint_arrived_reread", lambda p_occ, *a: p_occ)
    misses = 0
    for seed in (1, 2, 3):
        truth, obs = _read(cal, moments, 16, seed)
        misses += sum(obs.points[p - 1].dark.best == 0 for p in (2, 22))  # type: ignore[attr-defined]
    assert misses >= 3


def test_empty_dark_points_stay_empty(game19: tuple[Calibration, list]) -> None:  # type: ignore[type-arg]
    cal, moments = game19
    for m, seed in ((2, 5), (16, 6), (30, 7)):
        truth, obs = _read(cal, moments, m, seed)
        for p in range(24):
            if truth.light[p] == truth.dark[p] == 0:  # type: ignore[attr-defined]
                got = obs.points[p]  # type: ignore[attr-defined]
                assert (got.light.best, got.dark.best) == (0, 0), (m, p + 1)
