"""Each colour's own look where a slot lies, from every checker the set-up position stands (issue 9:
a black checker on a black point, a checker under a translucent broadcast band, read empty frame
after frame; the referee, summing a still board's frames, was then sure of it: bench/RESULTS.md,
stop 21)."""

from __future__ import annotations

import dataclasses

import numpy as np

from tavli_pi.sim.datasets import reallike_game_tables, reallike_scenes, reallike_setup
from tavli_pi.sim.render import Rendered, render
from tavli_pi.sim.script import random_game
from tavli_pi.sim.table import scene_of
from tavli_pi.vision.background import BG_SCALE, decode_background
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.lighting import OWN_SAMPLES, colour_at, slot_colours
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.spot_slots import spot_geometry


def _learnt(setup: Rendered) -> Calibration:
    """The board learnt from its set-up frame, as the app learns it (bench_reallike.calibrate_setup)."""
    base = refine(Calibration(setup.truth.corners, home=setup.truth.home), setup.image)  # type: ignore[arg-type]
    return learn_board(setup.image, base)


def _game_69_learnt() -> Calibration:
    """bench_reallike's referee game 69 (club board, 1280 px, a blue "MATCH TO 11" band over the
    bottom row's outer slots; ``SimCamera`` seed 69): the board learnt from its camera's frame 2,
    the start position standing clear, as the app learns it."""
    kw = reallike_game_tables(70, 0)[69]
    moments = random_game(69, turns=8, plant_illegal=0)  # (an odd game: no planted play)
    start = next(m for m in moments if not m.hand and m.position == moments[0].position)
    return _learnt(render(scene_of(start, **kw), 69, 69 + 2))


def test_the_own_look_under_the_band_is_the_set_up_checkers_colour_there() -> None:
    cal = _game_69_learnt()
    x, base, sign, r = spot_geometry(cal.layout, cal)
    bg = decode_background(cal.background)
    assert bg is not None
    # point 12's first two dark (red) checkers stood under the blue band at set-up: mauve, ~40 grey
    # levels from the dark colour as the learnt light scales it; the dark's own look there is near
    for k in (0, 1):
        at_x, at_y = x[11:12], base[11:12] + sign[11:12] * r[11:12] * (1 + 2 * k)
        cx, cy = int(at_x[0] / BG_SCALE), int(at_y[0] / BG_SCALE)
        half = max(1, int(0.5 * r[11] / BG_SCALE))
        seen = np.median(bg[cy - half: cy + half + 1, cx - half: cx + half + 1].reshape(-1, 3), axis=0)
        own = colour_at(cal, at_x, at_y)
        assert own is not None
        lit = np.asarray(slot_colours(cal, at_x, at_y)[1], np.float32).reshape(-1, 3)[0]
        assert float(np.linalg.norm(own[1][0] - seen)) < 0.6 * float(np.linalg.norm(lit - seen))


def test_black_checkers_on_black_points_are_read_against_their_own_look() -> None:
    # real-like seed 0 table 100 (rosewood, black checkers on black points, a band and a shadow):
    # the blots on points 1, 10, 18 and 22 read empty before, their rims alone showing
    scene = reallike_scenes(101, 0)[100]
    cal = _learnt(render(reallike_setup(scene), 100))
    frame = render(scene, 100)
    assert [frame.truth.dark[p - 1] for p in (1, 10, 18, 22)] == [1, 1, 1, 1]
    obs = BoardReader(cal).read(frame.image)
    assert [obs.points[p - 1].dark.best for p in (1, 10, 18, 22)] == [1, 1, 1, 1]


def test_without_a_learnt_board_or_enough_checkers_there_is_no_own_look() -> None:
    scene = reallike_scenes(101, 0)[100]
    setup = render(reallike_setup(scene), 100)
    base = refine(Calibration(setup.truth.corners, home=setup.truth.home), setup.image)  # type: ignore[arg-type]
    xs, ys = np.asarray([100.0, 600.0]), np.asarray([50.0, 500.0])
    assert colour_at(base, xs, ys) is None
    # a known position with fewer than OWN_SAMPLES dark checkers on the points gives the dark colour
    # no look of its own (then neither colour has one: the pair as lit stands)
    learnt = learn_board(setup.image, base)
    assert colour_at(learnt, xs, ys) is not None
    dark = [1] * (OWN_SAMPLES - 1) + [0] * (24 - OWN_SAMPLES + 1) + [0, 15 - OWN_SAMPLES + 1]
    few = KnownBoard.of_counts([0] * 23 + [15, 0, 0], dark)
    assert colour_at(dataclasses.replace(learnt, position=few), xs, ys) is None
