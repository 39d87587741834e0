"""The checkers' colours where each slot lies, from the board's lighting learnt at set-up (issue 9:
a white and grey-pearl pair under uneven light, the light checkers of the dim half darker than the
dark ones of the bright half)."""

from __future__ import annotations

import numpy as np
import pytest

from tavli_pi.sim.datasets import reallike_scenes, reallike_setup
from tavli_pi.sim.render import render
from tavli_pi.vision import checkers as ck
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.lighting import light_at, slot_colours
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board
from tavli_pi.vision.spot_slots import spot_geometry

# real-like seed 1 (bench_reallike --seed 1 renders table i with seed 100003 + i)
SEED = 1
SCENES = reallike_scenes(40, SEED)


def _table(index: int) -> tuple[Calibration, Calibration, object]:
    """(the corners refined, the board learnt at set-up, a frame of the game) of table ``index``."""
    scene = SCENES[index]
    s = render(reallike_setup(scene), SEED * 100003 + index)
    base = refine(Calibration(s.truth.corners, home=s.truth.home), s.image)  # type: ignore[arg-type]
    return base, learn_board(s.image, base), render(scene, SEED * 100003 + index)


# pinetti tables (white and grey pearl) whose light falls off across the board: 39 from top to
# bottom (the bottom row's light checkers measure 185, the top row's dark ones 213), 16 from one
# end of the top row to the other
@pytest.mark.parametrize("index", [16, 39])
def test_checkers_where_the_board_is_dim_keep_their_colour(index: int) -> None:
    _, cal, frame = _table(index)
    obs = BoardReader(cal).read(frame.image)  # type: ignore[attr-defined]
    truth = frame.truth  # type: ignore[attr-defined]
    swapped = [p + 1 for p in range(24)
               if (truth.light[p] and obs.points[p].dark.best) or (truth.dark[p] and obs.points[p].light.best)]
    assert swapped == []


def test_the_light_learnt_is_dimmer_where_the_board_is_dim() -> None:
    _, cal, _ = _table(39)
    x, base, sign, r = spot_geometry(cal.layout, cal)
    first = base[:24] + sign[:24] * r[:24]
    top = light_at(cal, x[12:24], first[12:24])  # points 13-24: the top row
    bottom = light_at(cal, x[:12], first[:12])
    assert top is not None and bottom is not None
    assert float(bottom[0].max()) < 0.95 < 1.05 < float(top[0].min())
    # the colours a slot is judged by follow: a bottom-row light checker (185 grey levels) is light,
    # and a dark one there (135) dark
    got = ck.p_light(np.asarray([[183.0, 189.0, 194.0], [134.0, 138.0, 137.0]], np.float32),
                     *slot_colours(cal, x[:2], first[:2]))
    assert float(got[0]) > 0.5 > float(got[1])


def test_without_a_learnt_board_the_two_colours_hold_everywhere() -> None:
    base, _, _ = _table(39)
    xs, ys = np.asarray([100.0, 600.0]), np.asarray([50.0, 500.0])
    assert light_at(base, xs, ys) is None
    assert slot_colours(base, xs, ys) == (base.light_bgr, base.dark_bgr, 0.0)


def test_the_light_learnt_is_worked_out_once_a_calibration(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 12: the reader asks for the slots' colours twice a frame; the first slots' places and
    # the samples are the calibration's, made once, not again on every call (twice a call before)
    import tavli_pi.vision.lighting as lighting

    _, cal, _ = _table(39)
    x, base, sign, r = spot_geometry(cal.layout, cal)
    first = light_at(cal, x[:24], base[:24] + sign[:24] * r[:24])
    calls = []
    made = lighting._first_slots
    monkeypatch.setattr(lighting, "_first_slots", lambda *a: calls.append(a) or made(*a))
    again = light_at(cal, x[:24], base[:24] + sign[:24] * r[:24])
    assert calls == []
    assert first is not None and again is not None
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])



def test_a_slot_is_judged_against_the_checker_colours_under_its_own_light() -> None:
    # seed 1 table 25 (tournament, light at the top, a sleeve over the board's other end): point 19's
    # three light checkers, in view, measured against the one learnt pair (one median for the whole
    # board) were read one (0.31); against the pair as the light where they lie makes it, three
    _, cal, frame = _table(25)
    obs = BoardReader(cal).read(frame.image)  # type: ignore[attr-defined]
    assert frame.truth.light[18] == 3  # type: ignore[attr-defined]
    assert obs.points[18].light.best == 3
